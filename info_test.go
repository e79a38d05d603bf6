package robotstxt

import (
	"context"
	"testing"
	"time"
)

// TestClientInfoLastStatus: while a stale copy stands in, Status is the
// copy's and LastStatus the failing server's.
func TestClientInfoLastStatus(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules, "Cache-Control", "max-age=60"))
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	info, err := lookup(ctx, c, s.URL)
	if err != nil || info.Status != 200 || info.LastStatus != 200 {
		t.Fatalf("fresh: %+v, %v", info, err)
	}
	s.set(serve(503, "down"))
	clock.Advance(2 * time.Minute)
	if info, err = lookup(ctx, c, s.URL); err != nil || !info.Stale || info.Status != 200 || info.LastStatus != 503 {
		t.Fatalf("stale: Status %d LastStatus %d Stale %v, %v", info.Status, info.LastStatus, info.Stale, err)
	}
}
