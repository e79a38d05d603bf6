package redisstore

import (
	"testing"
)

// TestFleetSharesFetches: a second process finds in Redis what the first
// fetched, and fetches nothing itself.
func TestFleetSharesFetches(t *testing.T) {
	srv, _ := newRedis(t)
	w := newWeb(t, 0)
	hs := hosts("share", 5)
	a := newProcess(t, srv.Addr(), w)
	b := newProcess(t, srv.Addr(), w)
	checkAll(t, a, hs)
	checkAll(t, b, hs)
	for _, h := range hs {
		if n := w.fetchCount(h); n != 1 {
			t.Errorf("%s: %d robots.txt fetches, want 1", h, n)
		}
	}
	if got := b.Stats().Store.Hits; got != uint64(len(hs)) {
		t.Errorf("second process: %d Store hits, want %d", got, len(hs))
	}
}
