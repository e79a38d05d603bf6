package redisstore

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
	"github.com/robotsgate/robotstxt/internal/redistest"
)

// newWeb returns a crawltest.Web with pages: paths other than robots.txt
// are answered and their arrivals recorded, for the fleet's paced
// requests.
func newWeb(tb testing.TB, opts ...crawltest.WebOption) *crawltest.Web {
	tb.Helper()
	return crawltest.NewWeb(tb, append([]crawltest.WebOption{crawltest.WithPages()}, opts...)...)
}

// newProcess returns a Client as one crawler process would set it up: its
// own Redis connection pool and Store on the server at addr, fetching from
// w, with generous Store timeouts. Extra options are applied last.
func newProcess(t testing.TB, addr string, w *crawltest.Web, opts ...robotstxt.Option) *robotstxt.Client {
	t.Helper()
	opts = append([]robotstxt.Option{robotstxt.WithStoreTimeout(generous)}, opts...)
	return newClient(t, dialStore(t, addr, WithTimeout(generous)), w.HTTPClient(), opts...)
}

// newDefaultProcess is newProcess with the library's default timeouts, for
// fault tests.
func newDefaultProcess(t testing.TB, addr string, w *crawltest.Web, opts ...robotstxt.Option) *robotstxt.Client {
	t.Helper()
	return newClient(t, dialStore(t, addr), w.HTTPClient(), opts...)
}

// dialStore returns a Store on its own connection pool to addr, closed
// when the test ends.
func dialStore(t testing.TB, addr string, opts ...Option) *Store {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { _ = rdb.Close() })
	return New(rdb, append([]Option{WithLogger(quietLogger)}, opts...)...)
}

// newClient returns a Client on store fetching through hc, closed when the
// test ends.
func newClient(t testing.TB, store *Store, hc *http.Client, opts ...robotstxt.Option) *robotstxt.Client {
	t.Helper()
	c := robotstxt.NewClient(append([]robotstxt.Option{
		robotstxt.WithStore(store),
		robotstxt.WithHTTPClient(hc),
		robotstxt.WithUserAgent("fleettest/1.0"),
	}, opts...)...)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// checkAll checks every probe of every host with c and reports wrong
// answers and errors.
func checkAll(t testing.TB, c *robotstxt.Client, hs []string) {
	t.Helper()
	for _, h := range hs {
		for _, p := range crawltest.Probes(h) {
			if err := checkOne(c, p); err != nil {
				t.Error(err)
			}
		}
	}
}

// checkOne checks one probe, within crawltest.CheckTimeout, and returns
// an error if the answer is wrong or Allowed failed.
func checkOne(c *robotstxt.Client, p crawltest.Probe) error {
	ctx, cancel := context.WithTimeout(context.Background(), crawltest.CheckTimeout)
	defer cancel()
	return p.Check(ctx, c)
}

// TestFleetSharesFetches: a second process finds in Redis what the first
// fetched, and fetches nothing itself.
func TestFleetSharesFetches(t *testing.T) {
	srv, _ := newRedis(t)
	w := newWeb(t)
	hs := crawltest.Hosts("share", 5)
	a := newProcess(t, srv.Addr(), w)
	b := newProcess(t, srv.Addr(), w)
	checkAll(t, a, hs)
	checkAll(t, b, hs)
	for _, h := range hs {
		if n := w.Fetches(h); n != 1 {
			t.Errorf("%s: %d robots.txt fetches, want 1", h, n)
		}
	}
	if got := b.Stats().Store.Hits; got != uint64(len(hs)) {
		t.Errorf("second process: %d Store hits, want %d", got, len(hs))
	}
}

// sendAs sends a GET for rawURL with Host host through hc and reads the
// body.
func sendAs(hc *http.Client, rawURL, host string) error {
	req, err := http.NewRequest(http.MethodGet, rawURL, nil)
	if err != nil {
		return err
	}
	req.Host = host
	resp, err := hc.Do(req)
	if err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	return err
}

// namedFleetMember is fleetMember (see pacer_test.go) for tests that use
// host names: every name is dialled to srv, the Store only paces, and
// the process's Client is returned too.
func namedFleetMember(t *testing.T, addr string, srv *httptest.Server, opts ...robotstxt.TransportOption) (*robotstxt.Client, *http.Client) {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { _ = rdb.Close() })
	store := New(rdb, WithLogger(quietLogger), WithTimeout(generous))
	var d net.Dialer
	next := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, srv.Listener.Addr().String())
	}}
	t.Cleanup(next.CloseIdleConnections)
	rc := robotstxt.NewClient(robotstxt.WithUserAgent("ExampleBot/1.0"), robotstxt.WithHTTPClient(&http.Client{Transport: next}))
	t.Cleanup(func() { _ = rc.Close() })
	opts = append([]robotstxt.TransportOption{robotstxt.WithPacer(store)}, opts...)
	return rc, &http.Client{Transport: robotstxt.NewTransport(rc, next, opts...)}
}

// TestFleetSecondTurnSeesHold: process 1 sends
// http://a.test:8080/r with Host a.test: it takes a.test:80's turn and
// waits for a.test:8080's (just used). Meanwhile process 2 reads
// a.test:80's robots.txt, which answers 503 Retry-After: 4: a.test:80 is
// held for 4 s fleet-wide, and process 1 does not send /r to a.test:80
// (its Host) inside the hold.
func TestFleetSecondTurnSeesHold(t *testing.T) {
	checkLeaks(t)
	rs := redistest.Start(t)
	var held atomic.Bool
	var mu sync.Mutex
	arrived := map[string]time.Time{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			if r.Host == "a.test" && held.Load() {
				w.Header().Set("Retry-After", "4")
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			_, _ = io.WriteString(w, "User-agent: *\nCrawl-delay: 1\n")
			return
		}
		mu.Lock()
		arrived[r.Host+r.URL.Path] = time.Now()
		mu.Unlock()
		_, _ = io.WriteString(w, "page")
	}))
	t.Cleanup(srv.Close)
	_, hc1 := namedFleetMember(t, rs.Addr(), srv)
	c2, _ := namedFleetMember(t, rs.Addr(), srv)
	send := func(rawURL, host string) error { return sendAs(hc1, rawURL, host) }
	if err := send("http://a.test:8080/q", ""); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- send("http://a.test:8080/r", "a.test") }()
	time.Sleep(300 * time.Millisecond)
	held.Store(true)
	// The hold begins as the 503 is read, within c2's check: it ends 4 s
	// after the check began at the earliest.
	holdEnd := time.Now().Add(4 * time.Second)
	if _, err := c2.Check(context.Background(), "http://a.test/s"); !errors.Is(err, robotstxt.ErrDeferred) {
		t.Fatalf("process 2, a.test's robots.txt answering 503: %v, want ErrDeferred", err)
	}
	if err := <-done; err != nil && !errors.Is(err, robotstxt.ErrPaced) {
		t.Fatal(err)
	}
	mu.Lock()
	at, sent := arrived["a.test/r"]
	mu.Unlock()
	if sent && at.Before(holdEnd) {
		t.Errorf("process 1's /r (Host a.test) reached a.test:80 %v before the end of the fleet's Retry-After hold",
			holdEnd.Sub(at).Round(time.Millisecond))
	}
}

// TestFleetRetryAtAfterSecondTurn: under WithNoWait and a Store's
// Pacer, a request for http://a.test:8080/r with Host a.test takes
// a.test:80's turn, finds a.test:8080's 0.2 s away and is refused with a
// PacedError whose RetryAt is a.test:8080's turn. Giving a.test:80's turn
// back is a Done under this Pacer, which holds a.test:80 a whole
// Crawl-delay (1 s) from now: RetryAt is no sooner, so that a crawler
// coming back then is not refused again at a.test:80.
func TestFleetRetryAtAfterSecondTurn(t *testing.T) {
	checkLeaks(t)
	rs := redistest.Start(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = io.WriteString(w, "User-agent: *\nCrawl-delay: 1\n")
			return
		}
		_, _ = io.WriteString(w, "page")
	}))
	t.Cleanup(srv.Close)
	c1, hc := namedFleetMember(t, rs.Addr(), srv, robotstxt.WithNoWait())
	send := func(rawURL, host string) error { return sendAs(hc, rawURL, host) }
	// Both files read first, so that nothing below waits for a fetch.
	for _, u := range []string{"http://a.test/", "http://a.test:8080/"} {
		if _, err := c1.Check(context.Background(), u); err != nil {
			t.Fatal(err)
		}
	}
	if err := send("http://a.test:8080/q", ""); err != nil {
		t.Fatal(err)
	}
	time.Sleep(800 * time.Millisecond)
	err := send("http://a.test:8080/r", "a.test")
	var pe *robotstxt.PacedError
	if !errors.As(err, &pe) {
		t.Fatalf("/r 0.8 s after /q: %v, want a PacedError", err)
	}
	time.Sleep(time.Until(pe.RetryAt))
	if err := send("http://a.test:8080/r", "a.test"); err != nil {
		t.Errorf("/r again at the RetryAt its PacedError told (%s at %s): %v", pe.Authority, pe.RetryAt.Format("15:04:05.000"), err)
	}
}

// TestFleetTwoTurnsStress: two processes send a mix of two-turn requests
// (http://a.test:8080/p with Host a.test) and single-turn ones to
// a.test:80 and a.test:8080; every site a request touches (the one
// dialled, the one its Host names) sees requests at least the
// Crawl-delay apart, end to start.
func TestFleetTwoTurnsStress(t *testing.T) {
	checkLeaks(t)
	rs := redistest.Start(t)
	const delay = 300 * time.Millisecond
	type visit struct {
		sites      []string
		start, end time.Time
	}
	var mu sync.Mutex
	var visits []visit
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = io.WriteString(w, "User-agent: *\nCrawl-delay: 0.3\n")
			return
		}
		start := time.Now()
		time.Sleep(20 * time.Millisecond)
		dialled := r.URL.Query().Get("d")
		hostSite := "a.test:80"
		if r.Host == "a.test:8080" {
			hostSite = "a.test:8080"
		}
		sites := []string{hostSite}
		if dialled != hostSite {
			sites = append(sites, dialled)
		}
		mu.Lock()
		visits = append(visits, visit{sites, start, time.Now()})
		mu.Unlock()
		_, _ = io.WriteString(w, "page")
	}))
	t.Cleanup(srv.Close)
	members := []*http.Client{}
	for range 2 {
		_, hc := namedFleetMember(t, rs.Addr(), srv)
		members = append(members, hc)
	}
	deadline := time.Now().Add(5 * time.Second)
	var wg sync.WaitGroup
	for i := range 6 {
		hc := members[i%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; time.Now().Before(deadline); n++ {
				var rawURL, host string
				switch (n + i) % 3 {
				case 0:
					rawURL, host = "http://a.test:8080/p?d=a.test:8080", "a.test"
				case 1:
					rawURL = "http://a.test/p?d=a.test:80"
				case 2:
					rawURL = "http://a.test:8080/p?d=a.test:8080"
				}
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
				req.Host = host
				resp, err := hc.Do(req)
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				cancel()
			}
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	for _, site := range []string{"a.test:80", "a.test:8080"} {
		var last *visit
		n := 0
		for i := range visits {
			v := &visits[i]
			touches := false
			for _, s := range v.sites {
				touches = touches || s == site
			}
			if !touches {
				continue
			}
			n++
			if last != nil && v.start.Sub(last.end) < delay-5*time.Millisecond {
				t.Errorf("%s: a request %v after the previous ended (sites %v then %v)", site, v.start.Sub(last.end), last.sites, v.sites)
			}
			last = v
		}
		t.Logf("%s: %d requests", site, n)
	}
}
