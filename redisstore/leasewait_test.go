package redisstore

import (
	"context"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
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

// TestFleetWaitsOutAHeldFetch: three processes miss a site at once
// whose robots.txt server never answers, Redis 10 ms a call away. The
// one holding the lease fetches until the fetch timeout and publishes the
// failure; the others wait for it, by default long enough for its
// look-up, fetch and write. Waiting only the fetch timeout, they gave up
// just before its result came, and each fetched the hung server itself,
// its checks taking two fetch timeouts.
func TestFleetWaitsOutAHeldFetch(t *testing.T) {
	srv, _ := newRedis(t)
	const fetchTimeout = time.Second
	w := newWeb(t, crawltest.WithDelay(time.Minute))
	host := crawltest.Hosts("heldfetch", 1)[0]
	addr := slowLink(t, srv.Addr(), 10*time.Millisecond)
	var took [3]time.Duration
	var wg sync.WaitGroup
	for i := range took {
		c := newDefaultProcess(t, addr, w, robotstxt.WithFetchTimeout(fetchTimeout))
		wg.Go(func() {
			start := time.Now()
			_, _ = c.Allowed(context.Background(), "http://"+host+"/page")
			took[i] = time.Since(start)
		})
	}
	wg.Wait()
	if n := w.Fetches(host); n != 1 {
		t.Errorf("the hung server got %d robots.txt requests from %d processes, want the lease holder's alone", n, len(took))
	}
	for i, d := range took {
		if d > fetchTimeout*3/2 {
			t.Errorf("process %d's check took %v, want about one fetch timeout (%v)", i, d.Round(time.Millisecond), fetchTimeout)
		}
	}
}

// slowLink returns the address of a loopback proxy to addr that holds
// what a client sends for delay before passing it on: a Redis a few
// milliseconds away, well within the Store timeout.
func slowLink(t *testing.T, addr string, delay time.Duration) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns sync.WaitGroup
	t.Cleanup(func() {
		_ = l.Close()
		conns.Wait()
	})
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", addr)
			if err != nil {
				_ = c.Close()
				continue
			}
			conns.Go(func() { _, _ = io.Copy(c, s); _ = c.Close() })
			conns.Go(func() {
				defer s.Close()
				buf := make([]byte, 64<<10)
				for {
					n, err := c.Read(buf)
					if n > 0 {
						time.Sleep(delay)
						if _, err := s.Write(buf[:n]); err != nil {
							return
						}
					}
					if err != nil {
						return
					}
				}
			})
		}
	}()
	return l.Addr().String()
}
