package redisstore

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
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

// TestFleetCheckedHopWaitsInNoLine: a.test's robots.txt redirects to a
// CDN path, a hop each Client checks against cdn.test's robots.txt with
// its own policies, so that no process reads the stored result. Four
// processes that miss a.test at once each fetch it, side by side: they
// waited in line for each other's results instead, the k-th taking k
// fetches (up to the lease wait).
func TestFleetCheckedHopWaitsInNoLine(t *testing.T) {
	srv, _ := newRedis(t)
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Host + r.URL.Path {
		case "a.test/robots.txt":
			http.Redirect(w, r, "http://cdn.test/a-robots.txt", http.StatusMovedPermanently)
		case "cdn.test/robots.txt":
			_, _ = io.WriteString(w, "User-agent: *\nAllow: /\n")
		case "cdn.test/a-robots.txt":
			time.Sleep(500 * time.Millisecond)
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /private\n")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(web.Close)
	var took [4]time.Duration
	var wg sync.WaitGroup
	for i := range took {
		hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, web.Listener.Addr().String())
		}}}
		c := newClient(t, dialStore(t, srv.Addr()), hc)
		wg.Go(func() {
			start := time.Now()
			if ok, err := c.Allowed(context.Background(), "http://a.test/private"); ok || err != nil {
				t.Errorf("process %d: %v, %v; want disallowed", i, ok, err)
			}
			took[i] = time.Since(start)
		})
	}
	wg.Wait()
	for i, d := range took {
		if d > 1400*time.Millisecond {
			t.Errorf("process %d's check took %v, want its own fetch (0.5 s) after the holder's at most", i, d.Round(time.Millisecond))
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
