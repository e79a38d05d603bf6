package main

import (
	"context"
	"time"
)

// pacer spaces the requests to each authority at least its crawl-delay
// apart.
type pacer struct {
	last map[string]time.Time // authority → start of its previous request
}

func newPacer() *pacer { return &pacer{last: make(map[string]time.Time)} }

// wait blocks until a request to authority may start, delay after the
// previous one, or until ctx ends.
func (p *pacer) wait(ctx context.Context, authority string, delay time.Duration) error {
	if prev, ok := p.last[authority]; ok {
		t := time.NewTimer(time.Until(prev.Add(delay)))
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	p.last[authority] = time.Now()
	return nil
}
