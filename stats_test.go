package robotstxt

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestTransportStats sends a scripted mix of requests through a Transport
// that also carries its Client's own robots.txt fetches, and checks that
// Stats counts exactly what each did.
func TestTransportStats(t *testing.T) {
	checkLeaks(t)
	open := newTestSite(t, "User-agent: *\nDisallow: /private/\n")
	open.route("/busy.html", serve(503, "busy", "Retry-After", "600"))
	paced := newTestSite(t, "User-agent: *\nCrawl-delay: 0.1\n")
	slow := newTestSite(t, "User-agent: *\nCrawl-delay: 60\n")
	down := newTestSite(t, "")
	down.route("/robots.txt", serve(503, "down"))
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	const maxHold = 500 * time.Millisecond
	c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA)}, WithMaxHold(maxHold))
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	ctx := context.Background()
	began := time.Now()

	// send gets u, with a deadline d from now unless d is 0, and fails
	// the test unless the error matches want (nil: no error).
	send := func(ctx context.Context, u string, d time.Duration, want error) {
		t.Helper()
		if d > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		if _, err := get(ctx, hc, u); !errors.Is(err, want) || (err != nil) != (want != nil) {
			t.Fatalf("%s: %v, want %v", u, err, want)
		}
	}
	send(ctx, open.URL+"/a.html", 0, nil)                        // sent
	send(ctx, open.URL+"/b.html", 0, nil)                        // sent
	send(ctx, open.URL+"/private/x", 0, ErrDisallowed)           // disallowed
	send(ctx, open.URL+"/private/y", 0, ErrDisallowed)           // disallowed
	send(ctx, down.URL+"/page.html", 0, ErrDeferred)             // deferred
	send(SkipRobots(ctx), open.URL+"/private/asked-for", 0, nil) // skipped
	send(SkipRobots(ctx), down.URL+"/asked-for", 0, nil)         // skipped
	send(ctx, paced.URL+"/1.html", 0, nil)                       // sent
	send(ctx, paced.URL+"/2.html", 0, nil)                       // paced: waits 0.1 s, sent
	send(ctx, slow.URL+"/1.html", 0, nil)                        // sent
	send(ctx, slow.URL+"/2.html", 10*time.Second, ErrPaced)      // paced: refused at once
	send(ctx, open.URL+"/busy.html", 0, nil)                     // sent; holds for maxHold
	send(ctx, open.URL+"/c.html", 0, nil)                        // paced and held: waits, sent
	send(ctx, open.URL+"/busy.html", 0, nil)                     // sent; holds again
	send(ctx, open.URL+"/d.html", maxHold/5, ErrPaced)           // paced and held: refused

	got := tr.Stats()
	want := TransportStats{Sent: 8, Disallowed: 2, Deferred: 1, Paced: 4, Held: 2, Skipped: 2}
	waited := got.Waited
	got.Waited = 0
	if got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
	// Two waits, of most of the crawl-delay (0.1 s) and most of the first
	// hold: more than the hold alone.
	if waited < maxHold || waited > time.Since(began) {
		t.Errorf("Waited = %v, want at least the hold %v and at most the test's %v", waited, maxHold, time.Since(began))
	}
	if cs := c.Stats(); fetches(cs) != 4 {
		t.Errorf("the Client fetched %d robots.txt, want 4 (not counted as sent)", fetches(cs))
	}
}

// TestTransportMaxHold checks that WithMaxHold bounds the hold of a long
// Retry-After: the next request waits out the bound, not the header.
func TestTransportMaxHold(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	s.route("/busy.html", serve(429, "slow down", "Retry-After", "3600"))
	const maxHold = 200 * time.Millisecond
	_, tr, hc := newTestTransport(t, WithMaxHold(maxHold))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := get(ctx, hc, s.URL+"/busy.html"); err != nil {
		t.Fatal(err)
	}
	if _, err := get(ctx, hc, s.URL+"/next.html"); err != nil {
		t.Fatalf("request after a capped hour's hold: %v", err)
	}
	busy, next := s.times("/busy.html"), s.times("/next.html")
	if len(busy) != 1 || len(next) != 1 {
		t.Fatalf("server got %q", s.got())
	}
	checkSpacing(t, "WithMaxHold", append(busy, next...), maxHold)
	if st := tr.Stats(); st.Held != 1 || st.Waited < maxHold/2 {
		t.Errorf("Stats = %+v, want one held request", st)
	}
}

// TestTransportHeldBySitesPace: a request that waits for the site's pace,
// longer than its own interval (another crawler's, sharing the pacer),
// counts in Held, as TransportStats says.
func TestTransportHeldBySitesPace(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	p := newMemPacer()
	c := newTestClient(t, WithUserAgent(testUA))
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	tr := NewTransport(c, next, WithPacer(p))
	ctx := context.Background()
	d, err := c.Check(ctx, s.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	id, _, _ := p.Take(ctx, paceKey(d.Authority), 50*time.Millisecond) // another crawler's pace
	_ = p.Done(ctx, paceKey(d.Authority), id, 50*time.Millisecond, 0)
	if _, err := get(ctx, &http.Client{Transport: tr}, s.URL+"/page"); err != nil {
		t.Fatal(err)
	}
	if st := tr.Stats(); st.Sent != 1 || st.Paced != 1 || st.Held != 1 {
		t.Errorf("Stats = %+v, want one request paced and held", st)
	}
}

// TestStatsLogValue: Stats and TransportStats log as one group each, with
// every count under its own key and the waited time as a rounded Go
// duration string.
func TestStatsLogValue(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nDisallow: /private\n")
	c, tr, hc := newTestTransport(t)
	ctx := context.Background()
	_, _ = get(ctx, hc, s.URL+"/page")
	_, _ = get(ctx, hc, s.URL+"/private/x")
	var buf syncBuffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	logger.Info("stats", "client", c.Stats(), "transport", tr.Stats())
	r := jsonRecords(t, buf.String())["stats"]
	client, _ := r["client"].(map[string]any)
	transport, _ := r["transport"].(map[string]any)
	fetches, _ := client["fetches"].(map[string]any)
	if client["misses"] != 1.0 || fetches["rules"] != 1.0 || client["entries"] != 1.0 {
		t.Errorf("client: %v", client)
	}
	if transport["sent"] != 1.0 || transport["disallowed"] != 1.0 || transport["waited"] != "0s" {
		t.Errorf("transport: %v", transport)
	}
	if got := roundDuration(59999830 * time.Microsecond); got != time.Minute {
		t.Errorf("59.99983s rounds to %v, want 1m0s", got)
	}
}

// TestTransportStatsHeldWithinPaced: no snapshot shows more Held than
// Paced requests, whose part they are, however many are counted
// meanwhile (two goroutines counting held requests, as behind a
// Retry-After).
func TestTransportStatsHeldWithinPaced(t *testing.T) {
	_, tr, _ := newTestTransport(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
					tr.count(turnHeld)
				}
			}
		})
	}
	defer func() { close(stop); wg.Wait() }()
	for end := time.Now().Add(time.Second); time.Now().Before(end); {
		if st := tr.Stats(); st.Held > st.Paced {
			t.Fatalf("a snapshot with Held %d > Paced %d", st.Held, st.Paced)
		}
	}
}

// TestTransportStatsWaitedStops: Waited, a sum over requests, stops at
// the longest Duration rather than wrap to a negative one.
func TestTransportStatsWaitedStops(t *testing.T) {
	_, tr, _ := newTestTransport(t)
	tr.stats.waited.Store(math.MaxInt64 - int64(time.Millisecond))
	tr.stats.addWaited(time.Second)
	if got := tr.Stats().Waited; got != math.MaxInt64 {
		t.Errorf("Waited = %v, want the longest Duration", got)
	}
}

// TestStatsCountCrawlerChecksOnly: the checks the Client makes itself, of
// a robots.txt redirect's target against that site's robots.txt and of
// tdmrep.json for a receipt, are none of the crawler's: Hits, Misses,
// Deferred and StaleServed count only the checks asked for. While the
// sites are down, each counted a second deferral.
func TestStatsCountCrawlerChecksOnly(t *testing.T) {
	checkLeaks(t)
	t.Run("redirect", func(t *testing.T) {
		w := newHosts(t)
		w.on("c.test/robots.txt", serve(503, "busy"))
		w.on("c.test/files/robots.txt", serve(200, "User-agent: *\nDisallow: /p\n"))
		w.on("a.test/robots.txt", redirectTo("http://c.test/files/robots.txt"))
		c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
		for _, u := range []string{"http://c.test/x", "http://a.test/x"} {
			if _, err := c.Check(context.Background(), u); !errors.Is(err, ErrDeferred) {
				t.Fatalf("%s: %v, want ErrDeferred", u, err)
			}
		}
		if s := c.Stats(); s.Deferred != 2 || s.Hits+s.Misses != 2 {
			t.Errorf("two checks, both deferred: Deferred %d, Hits %d, Misses %d", s.Deferred, s.Hits, s.Misses)
		}
	})
	t.Run("receipt", func(t *testing.T) {
		w := newHosts(t)
		w.on("a.test/robots.txt", serve(503, "busy"))
		w.on("a.test/page", serve(200, "hello"))
		c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithTDMRep())
		tr := NewTransport(c, w.transport(t))
		req, _ := http.NewRequestWithContext(SkipRobots(context.Background()), http.MethodGet, "http://a.test/page", nil)
		resp, err := (&http.Client{Transport: tr}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		before := c.Stats()
		_ = tr.Receipt(resp, body)
		if s := c.Stats(); s.Deferred-before.Deferred != 1 || s.Hits+s.Misses-before.Hits-before.Misses != 1 {
			t.Errorf("one receipt: %d deferred of %d checks, want its robots.txt check alone", s.Deferred-before.Deferred, s.Hits+s.Misses-before.Hits-before.Misses)
		}
	})
}

// TestStatsErrorPolicyOutageIsUnreachable: a robots.txt fetch that got no
// response is counted in Fetches.Unreachable ("network errors, timeouts")
// whatever outcome WithErrorPolicy maps it to: that allow-all is "a
// failure all the same", asked again on the back-off, not a 4xx.
func TestStatsErrorPolicyOutageIsUnreachable(t *testing.T) {
	refused := roundTripFunc(func(*http.Request) (*http.Response, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	})
	for _, o := range []Outcome{OutcomeAllowAll, OutcomeDisallowAll} {
		c := newTestClient(t, WithHTTPClient(&http.Client{Transport: refused}),
			WithErrorPolicy(func(error) Outcome { return o }))
		d, err := c.Check(context.Background(), "http://gone.test/x")
		if err != nil || d.Failures != 1 {
			t.Fatalf("%v: %+v, %v; want the policy's answer, a failure", o, d, err)
		}
		if f := c.Stats().Fetches; f.Unreachable != 1 || f.AllowAll+f.DisallowAll != 0 {
			t.Errorf("policy %v: a refused connection counted as %+v, want Unreachable 1", o, f)
		}
	}
}
