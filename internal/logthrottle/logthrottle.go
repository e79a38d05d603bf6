// Package logthrottle holds back repeated log lines, so that a failing
// dependency (a Store, a Redis server) cannot flood a crawler's log: a
// Throttle lets one line of each kind through per interval and counts the
// lines it held back, for the next line to report.
package logthrottle

import (
	"sync"
	"time"
)

// A Throttle decides which log lines go through. It is safe for
// concurrent use. Make one with New.
type Throttle struct {
	every time.Duration
	now   func() time.Time

	mu   sync.Mutex
	last map[string]time.Time // by kind
	held map[string]int       // by kind
}

// New returns a Throttle that lets one line of each kind through every
// interval.
func New(every time.Duration) *Throttle {
	return &Throttle{every: every, now: time.Now, last: map[string]time.Time{}, held: map[string]int{}}
}

// Allow reports whether a line of the given kind may be logged now, and
// how many lines of that kind were held back since the last one that
// went through.
func (t *Throttle) Allow(kind string) (ok bool, held int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if last, seen := t.last[kind]; seen && now.Sub(last) < t.every {
		t.held[kind]++
		return false, 0
	}
	held = t.held[kind]
	t.last[kind], t.held[kind] = now, 0
	return true, held
}
