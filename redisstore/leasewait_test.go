package redisstore

import (
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/internal/crawltest"
)

// TestFleetRedisKilledDuringLeaseWait: process B is waiting for process
// A's lease when Redis dies. A's result can no longer reach B through
// Redis, so B should stop waiting and fetch itself, answering within the
// latency ceiling rather than after the whole lease wait (10 s).
func TestFleetRedisKilledDuringLeaseWait(t *testing.T) {
	srv, _ := newRedis(t)
	w := newWeb(t, crawltest.WithDelay(time.Second))
	a := newDefaultProcess(t, srv.Addr(), w)
	b := newDefaultProcess(t, srv.Addr(), w)
	host := crawltest.Hosts("leasewait", 1)[0]
	p := crawltest.Probes(host)[0]

	resA := make(chan error, 1)
	go func() { resA <- checkOne(a, p) }()
	waitUntil(t, "A fetching under the lease", func() bool { return w.Fetches(host) == 1 })
	resB := make(chan error, 1)
	go func() { resB <- checkOne(b, p) }()
	waitUntil(t, "B waiting on the lease", func() bool { return b.Stats().Store.LeaseWaits == 1 })
	srv.Kill()
	killed := time.Now()
	if err := <-resB; err != nil {
		t.Error(err)
	}
	if d := time.Since(killed); d > ceiling {
		t.Errorf("B answered %v after Redis died, over the %v ceiling", d, ceiling)
	}
	if err := <-resA; err != nil {
		t.Error(err)
	}
}
