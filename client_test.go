package robotstxt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/body"
	"github.com/robotsgate/robotstxt/internal/match"
	"go.uber.org/goleak"
)

// site is a loopback HTTP server whose handler a test can swap, counting
// the requests it gets.
type site struct {
	*httptest.Server
	hits atomic.Int64
	mu   sync.Mutex
	h    http.HandlerFunc
}

func newSite(t testing.TB, h http.HandlerFunc) *site {
	t.Helper()
	s := &site{h: h}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		s.mu.Lock()
		h := s.h
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) set(h http.HandlerFunc) {
	s.mu.Lock()
	s.h = h
	s.mu.Unlock()
}

// serve answers every request with status, headers and body.
func serve(status int, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Add(headers[i], headers[i+1])
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

// testClock is a clock a test moves by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newTestClock() *testClock {
	return &testClock{t: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// newTestClient makes a Client on its own transport, closed with the test.
func newTestClient(t testing.TB, opts ...Option) *Client {
	t.Helper()
	tr := &http.Transport{}
	c := NewClient(append([]Option{WithHTTPClient(&http.Client{Transport: tr})}, opts...)...)
	t.Cleanup(func() {
		_ = c.Close()
		tr.CloseIdleConnections()
	})
	return c
}

// checkLeaks fails the test if it leaves goroutines behind; call it first
// so it runs after every other cleanup.
func checkLeaks(t *testing.T) {
	t.Helper()
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
}

const privateRules = "User-agent: *\nDisallow: /private\n"

func TestClientAllowedBasics(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: ExampleBot\nDisallow: /nobot\n\n"+privateRules+
		"Sitemap: https://example.com/sitemap.xml\n"))
	c := newTestClient(t, WithUserAgent("ExampleBot/1.0 (+https://example.com/bot)"))
	ctx := context.Background()
	if toks := c.tokens; len(toks) != 1 || toks[0] != "ExampleBot" {
		t.Fatalf("ProductTokens() = %q, want [ExampleBot]", toks)
	}
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"/", true}, {"/nobot", false}, {"/nobot/x?y", false},
		{"/private", true}, // the named group replaces "*"
		{"/nobot#fragment", false}, {"?q=1", true},
	} {
		got, err := c.Allowed(ctx, s.URL+tc.path)
		if err != nil || got != tc.want {
			t.Errorf("Allowed(%q) = %v, %v; want %v", tc.path, got, err, tc.want)
		}
	}
	if n := s.hits.Load(); n != 1 {
		t.Errorf("server hit %d times, want 1", n)
	}
	d, err := c.Check(ctx, s.URL+"/nobot/page")
	if err != nil || d.Allowed || d.Status != 200 || !matched(d) || d.Rule.Line != 2 ||
		d.Rule.Pattern != "/nobot" || d.Outcome != OutcomeRules || d.Deferred || d.Stale {
		t.Errorf("Check = %+v, %v", d, err)
	}
	other := newTestClient(t, WithUserAgent("ExampleBot/1.0"), WithProductTokens("OtherBot"))
	if ok, _ := other.Allowed(ctx, s.URL+"/private"); ok {
		t.Error("WithProductTokens(OtherBot): /private allowed, want the * group to apply")
	}
	st := c.Stats()
	if st.Fetches.Rules != 1 || st.Hits == 0 || st.Misses != 1 || st.Entries != 1 {
		t.Errorf("Stats = %+v", st)
	}
}

func TestClientSendsHeaders(t *testing.T) {
	checkLeaks(t)
	got := make(chan http.Header, 1)
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			t.Errorf("fetched %q, want /robots.txt", r.URL.Path)
		}
		got <- r.Header.Clone()
		w.WriteHeader(404)
	})
	c := newTestClient(t, WithUserAgent("ExampleBot/2.0"), WithFrom("ops@example.com"))
	if _, err := c.Allowed(context.Background(), s.URL+"/a"); err != nil {
		t.Fatal(err)
	}
	h := <-got
	if h.Get("User-Agent") != "ExampleBot/2.0" || h.Get("From") != "ops@example.com" {
		t.Errorf("request headers %v", h)
	}
}

func TestClientConcurrentColdFetchOnce(t *testing.T) {
	checkLeaks(t)
	gate := make(chan struct{})
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		<-gate
		_, _ = w.Write([]byte(privateRules))
	})
	c := newTestClient(t)
	const n = 200
	var started, done sync.WaitGroup
	started.Add(n)
	done.Add(n)
	errs := make(chan error, n)
	for i := range n {
		go func() {
			defer done.Done()
			started.Done()
			path := "/public"
			if i%2 == 1 {
				path = "/private/x"
			}
			ok, err := c.Allowed(context.Background(), s.URL+path)
			if err == nil && ok != (i%2 == 0) {
				err = errors.New("wrong answer for " + path)
			}
			errs <- err
		}()
	}
	started.Wait()
	for c.Stats().Misses < n/2 { // let most of them queue on the fetch
		time.Sleep(time.Millisecond)
	}
	close(gate)
	done.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := s.hits.Load(); got != 1 {
		t.Errorf("robots.txt fetched %d times by %d concurrent checks, want 1", got, n)
	}
	if st := c.Stats(); fetches(st) != 1 || st.InFlight != 0 {
		t.Errorf("Stats = %+v", st)
	}
}

func TestClientCancelledCallerDoesNotCancelFetch(t *testing.T) {
	checkLeaks(t)
	arrived := make(chan struct{})
	gate := make(chan struct{})
	serverSawCancel := make(chan bool, 1)
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-gate
		serverSawCancel <- r.Context().Err() != nil
		_, _ = w.Write([]byte(privateRules))
	})
	c := newTestClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, err := c.Allowed(ctx, s.URL+"/private")
		first <- err
	}()
	<-arrived
	second := make(chan bool, 1)
	go func() {
		ok, _ := c.Allowed(context.Background(), s.URL+"/private")
		second <- ok
	}()
	cancel()
	if err := <-first; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled caller got %v, want context.Canceled", err)
	}
	close(gate)
	if <-serverSawCancel {
		t.Error("the shared fetch was cancelled with the first caller")
	}
	if ok := <-second; ok {
		t.Error("second caller: /private allowed")
	}
	if ok, err := c.Allowed(context.Background(), s.URL+"/private"); ok || err != nil {
		t.Errorf("after the fetch: %v, %v", ok, err)
	}
	if got := s.hits.Load(); got != 1 {
		t.Errorf("fetched %d times, want 1", got)
	}
}

// TestClientGivenUpCheckJoinsNoFetch: a check whose context has already
// ended neither starts a fetch nor joins one in flight, where it left a
// channel until the fetch ended (100 MiB of them in two seconds of a
// crawler draining its frontier with a cancelled context).
func TestClientGivenUpCheckJoinsNoFetch(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(privateRules)) })
	c := newTestClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Allowed(ctx, s.URL+"/private"); !errors.Is(err, context.Canceled) {
		t.Errorf("a check given up: %v, want context.Canceled", err)
	}
	// A fill started would reach the server within milliseconds.
	for deadline := time.Now().Add(200 * time.Millisecond); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if got := s.hits.Load(); got != 0 {
			t.Fatalf("a check given up sent %d requests, want none", got)
		}
	}
}

func TestClientHangingServer(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })

	t.Run("caller context", func(t *testing.T) {
		c := newTestClient(t)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		ok, err := c.Allowed(ctx, s.URL+"/x")
		if ok || !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrDeferred) {
			t.Errorf("Allowed = %v, %v; want false and the caller's deadline", ok, err)
		}
	})
	t.Run("fetch timeout", func(t *testing.T) {
		c := newTestClient(t, WithFetchTimeout(50*time.Millisecond))
		d, err := c.Check(context.Background(), s.URL+"/x")
		var de *DeferredError
		if d.Allowed || !d.Deferred || !errors.Is(err, ErrDeferred) ||
			!errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &de) {
			t.Fatalf("Check = %+v, %v; want deferred by the fetch timeout", d, err)
		}
		if de.Status != 0 || !de.RetryAt.After(time.Now()) {
			t.Errorf("DeferredError = %+v", de)
		}
	})
}

func TestClientBadURLs(t *testing.T) {
	c := newTestClient(t)
	for _, raw := range []string{
		"", "example.com/x", "ftp://example.com/x", "mailto:a@example.com",
		"http:/example.com", "http://", "http://:80/x", "http://exa mple.com/",
		"http://example.com:99999/", "http://example.com:8x/", "http://[::1/",
		"http://[zz::1]/", "http://ex%zzample.com/", "javascript:alert(1)",
	} {
		ok, err := c.Allowed(context.Background(), raw)
		if ok || !errors.Is(err, ErrBadURL) {
			t.Errorf("Allowed(%q) = %v, %v; want ErrBadURL", raw, ok, err)
		}
	}
}

func TestClientClosed(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	c := newTestClient(t)
	if _, err := c.Allowed(context.Background(), s.URL+"/"); err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	if ok, err := c.Allowed(context.Background(), s.URL+"/private"); ok || err != nil {
		t.Errorf("cached answer after Close = %v, %v", ok, err)
	}
	other := httptest.NewServer(serve(200, ""))
	defer other.Close()
	if _, err := c.Allowed(context.Background(), other.URL+"/"); !errors.Is(err, ErrClosed) {
		t.Errorf("uncached after Close: %v, want ErrClosed", err)
	}
}

func TestClientIntrospection(t *testing.T) {
	checkLeaks(t)
	body := "User-agent: *\nCrawl-delay: 2.5\nDisallow: /x\nSitemap: https://a.example/s.xml\n"
	s := newSite(t, serve(200, body, "ETag", `"v1"`, "Cache-Control", "max-age=600"))
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now))
	if _, _, ok := held(c, s.URL+"/"); ok {
		t.Fatal("held before any check")
	}
	info, err := c.Check(context.Background(), s.URL+"/anything")
	if err != nil {
		t.Fatal(err)
	}
	_, e, _ := held(c, s.URL)
	if info.Status != 200 || info.Outcome != OutcomeRules || string(bodyOf(e)) != body ||
		info.FinalURL != "" || info.ETag != `"v1"` ||
		!info.FetchedAt.Equal(clock.Now()) || !info.Expires.Equal(clock.Now().Add(10*time.Minute)) ||
		info.Robots() == nil || info.Err != nil {
		t.Errorf("Check = %+v", info)
	}
	if info.CrawlDelay != 2500*time.Millisecond {
		t.Errorf("CrawlDelay = %v", info.CrawlDelay)
	}
	if sm := sitemapsOf(info); len(sm) != 1 || sm[0] != "https://a.example/s.xml" {
		t.Errorf("Sitemaps = %v", sm)
	}
	wantKey := "http://" + strings.TrimPrefix(s.URL, "http://")
	if info.Authority != wantKey {
		t.Errorf("Authority = %q, want %q", info.Authority, wantKey)
	}
	clock.Advance(11 * time.Minute)
	if _, e, ok := held(c, s.URL+"/"); !ok || !e.expired(clock.Now()) {
		t.Errorf("held after expiry: %v, expired %v", ok, ok && e.expired(clock.Now()))
	}
	forget(c, s.URL)
	if _, _, ok := held(c, s.URL+"/"); ok {
		t.Error("held after forget")
	}
}

// TestClientStaleWhenCallerGivesUpOnRevalidation: the first check after
// expiry waits for the revalidation; if its context ends first it still
// gets the expired copy, marked stale, not an error.
func TestClientStaleWhenCallerGivesUpOnRevalidation(t *testing.T) {
	checkLeaks(t)
	var n atomic.Int32
	release := make(chan struct{})
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) > 1 {
			<-release // a slow revalidation
		}
		w.Header().Set("Cache-Control", "max-age=60")
		_, _ = w.Write([]byte(privateRules))
	})
	defer close(release)
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now))
	if ok, err := c.Allowed(context.Background(), s.URL+"/private/x"); ok || err != nil {
		t.Fatal(ok, err)
	}
	clock.Advance(2 * time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	d, err := c.Check(ctx, s.URL+"/private/x")
	if err != nil || d.Allowed || !d.Stale || !matched(d) {
		t.Fatalf("first check after expiry, caller gave up: %+v, %v; want the stale copy's disallow", d, err)
	}
	if !d.Expires.After(clock.Now()) {
		t.Errorf("the stale answer expires at %v, already past (now %v)", d.Expires, clock.Now())
	}
	// A copy older than the stale window answers no more than it would
	// for an unreachable server: the caller gets its own error.
	clock.Advance(31 * 24 * time.Hour)
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if d, err := c.Check(ctx, s.URL+"/private/x"); err == nil || d.Stale {
		t.Errorf("a check of a copy 31 days old, caller gave up: %+v, %v; want an error", d, err)
	}
}

// TestClientRetryAtNotPastWhileRetrying: while an expired deferral is
// being retried, other callers are told to come back shortly, not at a
// time already past.
func TestClientRetryAtNotPastWhileRetrying(t *testing.T) {
	checkLeaks(t)
	release := make(chan struct{})
	var n atomic.Int32
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) > 1 {
			<-release // the retry hangs
		}
		http.Error(w, "down", http.StatusServiceUnavailable)
	})
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	if _, err := c.Allowed(ctx, s.URL+"/x"); err == nil {
		t.Fatal("want a deferral")
	}
	clock.Advance(2 * time.Minute)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = c.Allowed(ctx, s.URL+"/x") // starts the retry and waits for it
	}()
	for n.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	_, err := c.Allowed(ctx, s.URL+"/x")
	var de *DeferredError
	if !errors.As(err, &de) || !de.RetryAt.After(clock.Now()) {
		t.Errorf("while retrying: %v; want a DeferredError with RetryAt after now", err)
	}
	close(release)
	<-done
}

// TestClientZeroDecision: a check that decides nothing returns a Decision
// whose Outcome is Outcome(0), never one that reads as a decision.
func TestClientZeroDecision(t *testing.T) {
	checkLeaks(t)
	if (Decision{}).Outcome != 0 || Outcome(0).name() != "none" {
		t.Fatalf("the zero Outcome reads %q, want \"none\"", Outcome(0).name())
	}
	hanging := newSite(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	c := newTestClient(t)
	closed := newTestClient(t)
	_ = closed.Close()
	noToken := newTestClient(t, WithUserAgent("123bot/1.0"))
	for _, tc := range []struct {
		name  string
		check func(context.Context) (Decision, error)
		want  error
	}{
		{"bad URL", func(ctx context.Context) (Decision, error) { return c.Check(ctx, "ftp://example.com/x") }, ErrBadURL},
		{"bad port", func(ctx context.Context) (Decision, error) { return c.Check(ctx, "http://example.com:99999/x") }, ErrBadURL},
		{"closed", func(ctx context.Context) (Decision, error) { return closed.Check(ctx, hanging.URL+"/x") }, ErrClosed},
		{"caller's context ends", func(ctx context.Context) (Decision, error) {
			ctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			defer cancel()
			return c.Check(ctx, hanging.URL+"/x")
		}, context.DeadlineExceeded},
		{"caller's context cancelled", func(ctx context.Context) (Decision, error) {
			ctx, cancel := context.WithCancel(ctx)
			cancel()
			return c.Check(ctx, hanging.URL+"/y")
		}, context.Canceled},
		{"no product token", func(ctx context.Context) (Decision, error) { return noToken.Check(ctx, hanging.URL+"/x") }, ErrProductToken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := tc.check(context.Background())
			if !errors.Is(err, tc.want) || d.Outcome != 0 || d.Allowed {
				t.Errorf("Check = %+v (Outcome %v), %v; want Outcome(0) and %v", d, d.Outcome, err, tc.want)
			}
		})
	}
}

// TestClientUnreachablePolicy: by default an authority whose robots.txt
// stays unreachable with no usable copy is deferred for as long as that
// lasts; WithUnreachableAllowAfter crawls it as if it had no robots.txt
// after that long, while still asking on the back-off; WithErrorPolicy
// maps network errors.
func TestClientUnreachablePolicy(t *testing.T) {
	checkLeaks(t)
	const day = 24 * time.Hour
	ctx := context.Background()
	gone := newSite(t, nil)
	refusedURL := gone.URL
	gone.Close()
	deferred := func(t *testing.T, c *Client, rawURL, when string) {
		t.Helper()
		d, err := c.Check(ctx, rawURL)
		if d.Allowed || !d.Deferred || d.Outcome != OutcomeUnreachable || !errors.Is(err, ErrDeferred) {
			t.Errorf("%s: Check = %+v, %v; want deferred", when, d, err)
		}
	}
	allowedAll := func(t *testing.T, c *Client, rawURL, when string) {
		t.Helper()
		d, err := c.Check(ctx, rawURL)
		if !d.Allowed || d.Deferred || d.Outcome != OutcomeAllowAll || err != nil {
			t.Errorf("%s: Check = %+v, %v; want allowed as with no robots.txt", when, d, err)
		}
	}

	t.Run("default defers forever", func(t *testing.T) {
		s := newSite(t, serve(503, "down"))
		clock := newTestClock()
		c := newTestClient(t, WithClock(clock.Now))
		for i := range 5 {
			deferred(t, c, s.URL+"/x", fmt.Sprintf("503, day %d", i*10))
			deferred(t, c, refusedURL+"/x", fmt.Sprintf("refused, day %d", i*10))
			clock.Advance(10 * day)
		}
		if n := s.hits.Load(); n != 5 {
			t.Errorf("server asked %d times, want 5 (once per expired deferral)", n)
		}
	})

	t.Run("allow after 30 days", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			url  func(*site) string
		}{
			{"503", func(s *site) string { return s.URL }},
			{"refused", func(*site) string { return refusedURL }},
		} {
			t.Run(tc.name, func(t *testing.T) {
				s := newSite(t, serve(503, "down"))
				clock := newTestClock()
				c := newTestClient(t, WithClock(clock.Now), WithUnreachableAllowAfter(30*day))
				u := tc.url(s) + "/x"
				deferred(t, c, u, "first failure")
				clock.Advance(15 * day)
				deferred(t, c, u, "after 15 days")
				clock.Advance(15*day - time.Minute)
				deferred(t, c, u, "a minute short of 30 days")
				clock.Advance(time.Hour)
				allowedAll(t, c, u, "after 30 days")
				if tc.name != "503" {
					return
				}
				// The Client keeps asking on its back-off, and the rules
				// apply once the server answers again.
				hits := s.hits.Load()
				clock.Advance(time.Minute)
				allowedAll(t, c, u, "a minute later")
				if n := s.hits.Load(); n != hits {
					t.Errorf("server asked again within the back-off")
				}
				clock.Advance(defaultMaxBackoff)
				allowedAll(t, c, u, "after the back-off")
				if n := s.hits.Load(); n != hits+1 {
					t.Errorf("server asked %d times after the back-off, want once", n-hits)
				}
				s.set(serve(200, "User-agent: *\nDisallow: /x\n"))
				clock.Advance(defaultMaxBackoff + time.Second)
				if d, err := c.Check(ctx, u); d.Allowed || d.Outcome != OutcomeRules || err != nil {
					t.Errorf("server back: Check = %+v, %v; want the rules", d, err)
				}
			})
		}
	})

	t.Run("never for an answer refused", func(t *testing.T) {
		// A server that answers, with a redirect the Client may not
		// follow, is no outage: its site is never crawled as if it had
		// no robots.txt, however long that lasts.
		w := newHosts(t)
		w.on("cdn.test/robots.txt", serve(200, "User-agent: *\nDisallow: /\n"))
		w.on("hop.test/robots.txt", redirectTo("http://cdn.test/site/robots.txt"))
		w.on("ftp.test/robots.txt", redirectTo("ftp://ftp.test/robots.txt"))
		w.on("br.test/robots.txt", serve(200, "User-agent: *\nDisallow: /\n", "Content-Encoding", "br"))
		w.on("gzip.test/robots.txt", serve(200, "User-agent: *\nDisallow: /\n", "Content-Encoding", "gzip"))
		clock := newTestClock()
		c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now),
			WithUnreachableAllowAfter(30*day))
		for n := 0; n <= 60; n += 10 {
			deferred(t, c, "http://hop.test/private", fmt.Sprintf("a hop its robots.txt disallows, day %d", n))
			deferred(t, c, "http://ftp.test/private", fmt.Sprintf("a Location to ftp, day %d", n))
			deferred(t, c, "http://br.test/private", fmt.Sprintf("a coding the Client cannot read, day %d", n))
			deferred(t, c, "http://gzip.test/private", fmt.Sprintf("a gzip body that is none, day %d", n))
			clock.Advance(10 * day)
		}
		// A refusal starts no outage: one counts from the last, 10 days
		// before this 503.
		w.on("hop.test/robots.txt", serve(503, "down"))
		deferred(t, c, "http://hop.test/private", "a 503 after 60 days of refusals")
		clock.Advance(19 * day)
		deferred(t, c, "http://hop.test/private", "29 days after the last refusal")
		clock.Advance(2 * day)
		allowedAll(t, c, "http://hop.test/private", "31 days after the last refusal")
	})

	t.Run("a body the network cuts is an outage", func(t *testing.T) {
		s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				return
			}
			defer conn.Close()
			buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nUser-agent: *\n")
			_ = buf.Flush()
		})
		clock := newTestClock()
		c := newTestClient(t, WithClock(clock.Now), WithUnreachableAllowAfter(30*day))
		deferred(t, c, s.URL+"/x", "a body cut, day 0")
		clock.Advance(15 * day)
		deferred(t, c, s.URL+"/x", "a body cut, day 15")
		clock.Advance(16 * day)
		allowedAll(t, c, s.URL+"/x", "a body cut, day 31")
	})

	t.Run("a good copy in the stale window wins", func(t *testing.T) {
		s := newSite(t, serve(200, "User-agent: *\nDisallow: /x\n"))
		clock := newTestClock()
		c := newTestClient(t, WithClock(clock.Now), WithUnreachableAllowAfter(30*day), WithStaleWindow(60*day))
		if ok, err := c.Allowed(ctx, s.URL+"/x"); ok || err != nil {
			t.Fatalf("Allowed = %v, %v; want the rules", ok, err)
		}
		s.set(serve(503, "down"))
		for _, after := range []time.Duration{2 * day, 20 * day, 20 * day} { // days 2, 22, 42
			clock.Advance(after)
			if d, err := c.Check(ctx, s.URL+"/x"); d.Allowed || !d.Stale || d.Outcome != OutcomeRules || err != nil {
				t.Errorf("Check = %+v, %v; want the stale copy's rules", d, err)
			}
		}
		clock.Advance(20 * day) // day 62: the copy is too old, the failures older than 30 days
		allowedAll(t, c, s.URL+"/x", "after the stale window")
	})

	t.Run("error policy", func(t *testing.T) {
		var sawOpError atomic.Bool
		c := newTestClient(t, WithErrorPolicy(func(err error) Outcome {
			var op *net.OpError
			sawOpError.Store(errors.As(err, &op))
			return OutcomeAllowAll
		}))
		allowedAll(t, c, refusedURL+"/x", "refused, policy allow-all")
		if !sawOpError.Load() {
			t.Error("the policy's error has no *net.OpError")
		}
		s := newSite(t, serve(503, "down"))
		deferred(t, c, s.URL+"/x", "503 under an error policy") // a response is not a network error
		for _, o := range []Outcome{Outcome(0), Outcome(99)} {
			bad := newTestClient(t, WithErrorPolicy(func(error) Outcome { return o }))
			deferred(t, bad, refusedURL+"/x", fmt.Sprintf("policy giving %v", o))
		}
	})
}

const benchRules = `User-agent: *
Disallow: /private/
Disallow: /tmp/
Allow: /private/public
Disallow: /*.pdf$
Crawl-delay: 1

User-agent: ExampleBot
Disallow: /search
Allow: /search/about
Disallow: /cgi-bin/
`

// warmClient returns a Client whose cache holds the robots.txt of a
// loopback server, and a URL on it.
func warmClient(b *testing.B) (*Client, string) {
	s := newSite(b, serve(http.StatusOK, benchRules))
	c := newTestClient(b, WithUserAgent("ExampleBot/1.0 (+https://example.com/bot)"))
	u := s.URL + "/search/results/page?q=robots&lang=en"
	if _, err := c.Allowed(context.Background(), u); err != nil {
		b.Fatal(err)
	}
	return c, u
}

func BenchmarkClientAllowed(b *testing.B) {
	c, u := warmClient(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if ok, err := c.Allowed(ctx, u); ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

func BenchmarkClientAllowedNonASCII(b *testing.B) {
	c, u := warmClient(b)
	u += "&q=caf\u00e9"
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if ok, err := c.Allowed(ctx, u); ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

func BenchmarkClientAllowedParallel(b *testing.B) {
	c, u := warmClient(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if ok, err := c.Allowed(ctx, u); ok || err != nil {
				b.Error(ok, err)
				return
			}
		}
	})
}

func BenchmarkClientCheck(b *testing.B) {
	c, u := warmClient(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if d, err := c.Check(ctx, u); d.Allowed || err != nil {
			b.Fatal(d, err)
		}
	}
}

// BenchmarkClientBaselineCrawler is the baseline of the Client benchmarks:
// the same check on the same rules, parsed once, with no Client around it.
func BenchmarkClientBaselineCrawler(b *testing.B) {
	a := Parse([]byte(benchRules)).agentRules("ExampleBot")
	u := "/search/results/page?q=robots&lang=en"
	b.ReportAllocs()
	for b.Loop() {
		if a.Allowed(u) {
			b.Fatal("allowed")
		}
	}
}

func BenchmarkClientBaselineCrawlerParallel(b *testing.B) {
	a := Parse([]byte(benchRules)).agentRules("ExampleBot")
	u := "/search/results/page?q=robots&lang=en"
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if a.Allowed(u) {
				b.Error("allowed")
				return
			}
		}
	})
}

// TestClientClosedExpiredEntry checks that after Close an expired entry is
// not served as a stale answer once the fetch that would renew it has
// failed: every check says ErrClosed.
func TestClientClosedExpiredEntry(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	s := newSite(t, serve(200, privateRules))
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	if _, err := c.Allowed(ctx, s.URL+"/"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(25 * time.Hour)
	_ = c.Close()
	for i := range 3 {
		if d, err := c.Check(ctx, s.URL+"/"); !errors.Is(err, ErrClosed) || d.Outcome != Outcome(0) {
			t.Errorf("check %d after Close on an expired entry: %+v, %v; want ErrClosed", i, d, err)
		}
	}
	// A caller whose context has ended gets no stale answer either: it
	// promised a refresh that no fill will make.
	ended, cancel := context.WithCancel(ctx)
	cancel()
	if d, err := c.Check(ended, s.URL+"/"); err == nil || d.Allowed {
		t.Errorf("a check with an ended context after Close: %+v, %v; want an error", d, err)
	}
}

// bareTransport answers through next but leaves Response.Request unset,
// as a RoundTripper may.
type bareTransport struct{ next http.RoundTripper }

func (b bareTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := b.next.RoundTrip(req)
	if resp != nil {
		resp.Request = nil
	}
	return resp, err
}

func TestClientRoundTripperWithoutRequest(t *testing.T) {
	checkLeaks(t)
	target := newSite(t, serve(200, privateRules))
	s := newSite(t, serve(http.StatusFound, "", "Location", target.URL+"/robots.txt"))
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: bareTransport{tr}}))
	if ok, err := c.Allowed(context.Background(), s.URL+"/private/x"); ok || err != nil {
		t.Errorf("through a redirect, without Response.Request: %v, %v; want the rules applied", ok, err)
	}
}

// TestClientCheckTokenFromStore checks another token against an entry
// read from the Store, whose whole file the Client parses again on
// demand, also after a collection.
func TestClientCheckTokenFromStore(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: OtherBot\nDisallow: /o\n\n"+privateRules))
	store := newMemStore()
	a := newTestClient(t, WithStore(store))
	ctx := context.Background()
	if _, err := a.Allowed(ctx, s.URL+"/"); err != nil {
		t.Fatal(err)
	}
	b := newTestClient(t, WithStore(store))
	for range 2 {
		if ok, err := b.Allowed(ctx, s.URL+"/private/x"); ok || err != nil {
			t.Errorf("own token from the Store: %v, %v", ok, err)
		}
		info, _, _ := held(b, s.URL)
		if r := info.Robots(); r == nil || r.Allowed("OtherBot", "/o") {
			t.Errorf("Info.Robots from the Store: %v", r)
		}
		runtime.GC()
	}
	if n := s.hits.Load(); n != 1 {
		t.Errorf("robots.txt fetched %d times, want once", n)
	}
}

// TestClientAllowedDoesNotAllocate pins the warm path at zero
// allocations, for URLs that need escaping too: a path that escapes to
// the heap anywhere below Allowed would cost one per check.
func TestClientAllowedDoesNotAllocate(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(http.StatusOK, benchRules))
	c := newTestClient(t, WithUserAgent("ExampleBot/1.0"))
	ctx := context.Background()
	for _, u := range []string{
		s.URL + "/search/results/page?q=robots&lang=en",
		s.URL + "/caf\u00e9/x?q=caf\u00e9",
		s.URL + "/a%2fb",
	} {
		if _, err := c.Allowed(ctx, u); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() { _, _ = c.Allowed(ctx, u) }); n != 0 {
			t.Errorf("Allowed(%q) allocates %v times per call", u, n)
		}
	}
}

// TestClientRetryAtAsksAgain requeues a deferred URL at its RetryAt, as
// a crawler does: the check then either asks the server again or says
// how long to wait, never the old deferral with nothing left to wait.
// The Client's clock is the real one.
func TestClientRetryAtAsksAgain(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(http.StatusServiceUnavailable, "down"))
	c := newTestClient(t, WithBackoff(30*time.Millisecond, 30*time.Millisecond))
	ctx := context.Background()
	for i := range 20 {
		_, err := c.Check(ctx, s.URL+"/x")
		var de *DeferredError
		if !errors.As(err, &de) {
			t.Fatalf("round %d: %v, want a deferral", i, err)
		}
		time.Sleep(time.Until(de.RetryAt))
		before := s.hits.Load()
		_, err = c.Check(ctx, s.URL+"/x")
		var again *DeferredError
		if !errors.As(err, &again) {
			t.Fatalf("round %d: %v, want a deferral", i, err)
		}
		if s.hits.Load() == before && time.Until(again.RetryAt) <= 0 {
			t.Fatalf("round %d: at RetryAt the old deferral came back (RetryAt %v, now %v) and the server was not asked",
				i, again.RetryAt, time.Now())
		}
	}
}

// TestClientMisuse checks that a Client or Transport not made by their
// constructors, and options given values they cannot take, panic with a
// message that says so, never with a nil dereference.
func TestClientMisuse(t *testing.T) {
	var nilClient *Client
	var nilTransport *Transport
	for name, f := range map[string]func(){
		"zero Client Allowed":      func() { _, _ = (&Client{}).Allowed(context.Background(), "http://a/") },
		"zero Client Check":        func() { _, _ = (&Client{}).Check(context.Background(), "http://a/") },
		"nil Client Allowed":       func() { _, _ = nilClient.Allowed(context.Background(), "http://a/") },
		"nil Client Close":         func() { _ = nilClient.Close() },
		"zero Client Stats":        func() { _ = (&Client{}).Stats() },
		"zero Transport":           func() { _, _ = (&Transport{}).RoundTrip(httptest.NewRequest("GET", "http://a/", nil)) },
		"nil Transport":            func() { _, _ = nilTransport.RoundTrip(httptest.NewRequest("GET", "http://a/", nil)) },
		"NewTransport(zero)":       func() { NewTransport(&Client{}, nil) },
		"WithHTTPClient(nil)":      func() { WithHTTPClient(nil) },
		"WithCacheSize(-1)":        func() { WithCacheSize(-1) },
		"WithCacheBytes(0)":        func() { WithCacheBytes(0) },
		"WithFetchTimeout(-1)":     func() { WithFetchTimeout(-time.Second) },
		"WithBodyLimit(-1)":        func() { WithBodyLimit(-1) },
		"WithMaxRedirects(-1)":     func() { WithMaxRedirects(-1) },
		"WithBackoff(2h, 1h)":      func() { WithBackoff(2*time.Hour, time.Hour) },
		"WithStoreTimeout(0)":      func() { WithStoreTimeout(0) },
		"WithLeaseWait(-1, 0)":     func() { WithLeaseWait(-1, 0) },
		"WithClock(nil)":           func() { WithClock(nil) },
		"WithStatusPolicy":         func() { WithStatusPolicy(nil) },
		"WithMinFreshness(-1)":     func() { WithMinFreshness(-1) },
		"WithMaxFreshness(0)":      func() { WithMaxFreshness(0) },
		"WithStaleWindow(-1)":      func() { WithStaleWindow(-1) },
		"WithDefaultInterval(-1)":  func() { WithDefaultInterval(-1) },
		"WithIntervalBounds(2, 1)": func() { WithIntervalBounds(2, 1) },
		"WithMaxHold(0)":           func() { WithMaxHold(0) },
		"WithMaxWait(-1)":          func() { WithMaxWait(-1) },
		"WithMode(2)":              func() { WithMode(ModeRFC9309 + 1) },
		"zero memPacer":            func() { _, _, _ = (&memPacer{}).Take(context.Background(), "http://a:80", time.Second) },
	} {
		msg := func() (msg string) {
			defer func() {
				r := recover()
				if err, ok := r.(error); ok {
					msg = "error: " + err.Error()
				} else if s, ok := r.(string); ok {
					msg = s
				}
			}()
			f()
			return "no panic"
		}()
		if !strings.HasPrefix(msg, "robotstxt: ") {
			t.Errorf("%s: %s; want a panic explaining the misuse", name, msg)
		}
	}
}

// usageRules is a robots.txt with Content-Usage rules for ExampleBot and
// OtherBot.
const usageRules = `User-agent: ExampleBot
Disallow: /private/
Content-Usage: train-ai=n
Content-Usage: /blog/ train-ai=y
Content-Usage: /blog/drafts/ train-ai=n, search=n

User-agent: OtherBot
Allow: /
Content-Usage: search=y
`

// TestClientDecisionUsage checks Decision.Usage: the Content-Usage
// preferences for an allowed URL, those of its normal forms combined with
// its spelling's, nothing for a disallowed URL or without rules, and for
// CheckToken the other crawler's.
func TestClientDecisionUsage(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(http.StatusOK, usageRules))
	plain := newSite(t, serve(http.StatusOK, "User-agent: *\nDisallow: /private/\n"))
	missing := newSite(t, serve(http.StatusNotFound, ""))
	c := newTestClient(t, WithUserAgent("ExampleBot/1.0"))
	ctx := context.Background()
	for _, tt := range []struct{ url, usage string }{
		{s.URL + "/x", "train-ai=n"},
		{s.URL + "/blog/post", "train-ai=y"},
		{s.URL + "/blog/drafts/1", "train-ai=n, search=n"},
		{s.URL + "/private/x", ""},
		// The spelling matches /blog/, the path served /blog/drafts/.
		{s.URL + "/blog/./drafts/1", "train-ai=n, search=n"},
		{s.URL + "/blog/%64rafts/1", "train-ai=n, search=n"},
		{s.URL + "//blog/post", "train-ai=n"}, // //blog/post has the default n, /blog/post y: n wins
		{plain.URL + "/x", ""},
		{missing.URL + "/x", ""},
	} {
		d, err := c.Check(ctx, tt.url)
		if err != nil || d.Usage.statement() != tt.usage {
			t.Errorf("Check(%s): Usage %q, %v; want %q", tt.url, d.Usage, err, tt.usage)
		}
	}
	// A check of a file without Content-Usage rules costs what it did.
	u := plain.URL + "/x"
	if n := testing.AllocsPerRun(100, func() { _, _ = c.Check(ctx, u) }); n != 0 {
		t.Errorf("Check of a file without Content-Usage rules allocates %v times", n)
	}
}

// freezeEntry freezes the cached entry of authority (as
// "http://big.test:80") in c, as the byte budget would.
func freezeEntry(t *testing.T, c *Client, authority string) *entry {
	t.Helper()
	e := c.robots.cache.peek(authority)
	if e == nil || e.rules.Load() == nil {
		t.Fatalf("%s: no entry with rules to freeze", authority)
	}
	c.robots.cache.mu.Lock()
	c.robots.cache.hot.Remove(e.key)
	c.robots.cache.freeze(e)
	c.robots.cache.mu.Unlock()
	return e
}

// TestClientThawShared checks a frozen authority from many goroutines
// at once: they share one thaw, which gives the entry its rules back
// without a fetch and leaves its freshness alone.
func TestClientThawShared(t *testing.T) {
	checkLeaks(t)
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 3000 { // a parse of a few milliseconds
		fmt.Fprintf(&b, "Disallow: /a*%d/\nAllow: /a%d/open$\n", i, i)
	}
	w := newWeb(t, func(string) string { return b.String() })
	c := newTestClient(t, WithHTTPClient(w.client(t)))
	ctx := context.Background()
	if ok, err := c.Allowed(ctx, "http://big.test/a/x7/y"); ok || err != nil {
		t.Fatalf("Allowed = %v, %v; want disallowed", ok, err)
	}
	e := freezeEntry(t, c, "http://big.test:80")
	if st := c.Stats(); st.Frozen != 1 || st.Bytes != e.cost() {
		t.Fatalf("after freezing: %+v; want 1 frozen, %d bytes", st, e.cost())
	}
	expires := e.expires
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			<-start
			u := fmt.Sprintf("http://big.test/a/x%d/y", g)
			if ok, err := c.Allowed(ctx, u); ok || err != nil {
				t.Errorf("%s: %v, %v; want disallowed", u, ok, err)
			}
		})
	}
	close(start)
	wg.Wait()
	st := c.Stats()
	if st.Thaws != 1 || st.Frozen != 0 || w.total() != 1 || st.Bytes != e.cost() {
		t.Errorf("after the checks: %+v, %d fetches, entry of %d bytes; want one thaw, no fetch", st, w.total(), e.cost())
	}
	if c.robots.cache.peek("http://big.test:80") != e || e.expires != expires {
		t.Error("the thaw replaced the entry or moved its expiry")
	}
}

// TestClientThawConcurrent checks six sites through every way of asking,
// from a goroutine each, under a byte budget that holds two sites' rules:
// entries freeze and thaw all the time, and every answer is the site's
// own, with no fetch beyond the first of each site and no eviction.
func TestClientThawConcurrent(t *testing.T) {
	checkLeaks(t)
	w := newWeb(t, siteRules)
	hosts := []string{"h10.test", "h11.test", "h12.test", "h13.test", "h14.test", "h15.test"}
	probe := newTestClient(t, WithHTTPClient(w.client(t)))
	checkSite(t, probe, hosts[0])
	e := probe.robots.cache.peek("http://" + hosts[0] + ":80")
	rules := e.cost() - e.base
	budget := 6*e.base + 2*rules + rules/2
	c := newTestClient(t, WithHTTPClient(w.client(t)), WithCacheBytes(budget))
	ctx := context.Background()
	for _, h := range hosts {
		checkSite(t, c, h)
	}
	var wg sync.WaitGroup
	for g, h := range hosts {
		wg.Go(func() {
			u := "http://" + h + "/" + h + "/private-3/x"
			for range 200 {
				switch g % 3 {
				case 0:
					checkSite(t, c, h)
				case 1:
					if d, err := c.Check(ctx, u); d.Allowed || d.Rule.Pattern != "/"+h+"/private-3/" || err != nil {
						t.Errorf("Check(%s) = %+v, %v; want disallowed by its rule", u, d, err)
					}
				case 2:
					d, err := c.Check(ctx, u)
					if err != nil {
						t.Error(err)
						return
					}
					if d.CrawlDelay != time.Duration(len(h))*time.Second {
						t.Errorf("%s: crawl-delay %v, want %ds", h, d.CrawlDelay, len(h))
					}
					if r := d.Robots(); r == nil || r.Allowed("x", "/"+h+"/private-3/x") {
						t.Errorf("%s: Decision.Robots %v, not its rules", h, r)
					}
					if !bytes.Equal(bodyOf(d.e), []byte(siteRules(h))) {
						t.Errorf("%s: the body kept differs from its robots.txt", h)
					}
				}
			}
		})
	}
	wg.Wait()
	st := c.Stats()
	if st.Thaws == 0 || st.Evictions != 0 || w.total() != 7 || st.Bytes > budget || st.Frozen != countFrozen(c) {
		t.Errorf("%+v, %d fetches, %d frozen in the cache; want thaws, no eviction, no fetch, within %d bytes",
			st, w.total(), countFrozen(c), budget)
	}
}

// TestClientBoundsFetches: workers whose deadlines are far shorter than a
// fetch, checking ever new sites whose robots.txt trickles in, leave
// their fetches running; the Client runs at most WithMaxFetches of them
// at once, and a check that finds no slot free in time gets its
// context's error. Goroutines stay bounded too.
func TestClientBoundsFetches(t *testing.T) {
	checkLeaks(t)
	const slots = 4
	var mu sync.Mutex
	inFlight, most := 0, 0
	w := newHosts(t)
	trickle := func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		mu.Unlock()
		defer func() {
			mu.Lock()
			inFlight--
			mu.Unlock()
		}()
		rw.WriteHeader(200)
		for {
			if _, err := rw.Write([]byte("# slow\n")); err != nil {
				return
			}
			rw.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	for i := range 400 {
		w.on(fmt.Sprintf("s%d.test/robots.txt", i), trickle)
	}
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}),
		WithMaxFetches(slots), WithFetchTimeout(time.Minute))
	before := runtime.NumGoroutine()
	var next atomic.Int64
	var wg sync.WaitGroup
	deadline := time.Now().Add(time.Second)
	for range 8 {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
				_, err := c.Allowed(ctx, fmt.Sprintf("http://s%d.test/", next.Add(1)%400))
				cancel()
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("a check past its deadline: %v, want its context's error", err)
					return
				}
			}
		})
	}
	wg.Wait()
	grown := runtime.NumGoroutine() - before
	st := c.Stats()
	mu.Lock()
	peak := most
	mu.Unlock()
	if peak > slots || st.InFlight > slots || next.Load() < 50 {
		t.Errorf("%d checks: at most %d fetches at the server, %d in flight now; want at most %d", next.Load(), peak, st.InFlight, slots)
	}
	// Each fetch holds a few goroutines (the fill, the connection's);
	// without the bound there were hundreds.
	if grown > 20*slots {
		t.Errorf("%d goroutines more than before the checks", grown)
	}
	_ = c.Close()
}

// TestClientSlotFreedBeforeWait: a check that joins a fill which found
// no slot, a slot having been given back between that fill's try and the
// check's start, fetches at once: it used to wait for the next slot given
// back, for ever when none came and its context had no end.
func TestClientSlotFreedBeforeWait(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: *\nDisallow: /p\n"))
	c := newTestClient(t, WithMaxFetches(1))
	c.slots <- struct{}{} // a fill elsewhere holds the only slot
	// A fill of the site that has found no slot, still under way.
	found, end := make(chan struct{}), make(chan struct{})
	authority := "http://" + s.Listener.Addr().String()
	leader, _ := c.robots.fills.Start(authority, func() (any, error) {
		close(found)
		<-end
		return nil, errNoSlot
	})
	<-found
	c.freeSlot() // the other fill ends
	done := make(chan error, 1)
	go func() {
		ok, err := c.Allowed(context.Background(), s.URL+"/p")
		if err == nil && ok {
			err = errors.New("allowed")
		}
		done <- err
	}()
	// Once the check has joined the fill, the fill ends.
	for !strings.Contains(allStacks(), "singleflight.(*Group).Do(") {
		time.Sleep(time.Millisecond)
	}
	close(end)
	<-leader.Done()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Allowed: %v, want a no", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a check waits for a slot while every slot is free")
	}
}

// allStacks returns the stacks of every goroutine.
func allStacks() string {
	buf := make([]byte, 1<<20)
	return string(buf[:runtime.Stack(buf, true)])
}

// TestDeferredErrorCountsFailures: a DeferredError says how many fetches
// of the authority's robots.txt have failed in a row, 1 on the first, so
// that a frontier can give up on a site; a success starts the count anew.
func TestDeferredErrorCountsFailures(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(http.StatusServiceUnavailable, "down"))
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now), WithBackoff(time.Minute, time.Hour))
	ctx := context.Background()
	for want := 1; want <= 3; want++ {
		_, err := c.Check(ctx, s.URL+"/x")
		var de *DeferredError
		if !errors.As(err, &de) {
			t.Fatalf("fetch %d: %v, want a deferral", want, err)
		}
		if de.Failures != want {
			t.Fatalf("fetch %d: a deferral counting %d failures, want %d", want, de.Failures, want)
		}
		clock.Advance(time.Hour) // asked again within the longest back-off: the outage goes on
	}
	s.set(serve(200, privateRules, "Cache-Control", "max-age=60"))
	if _, err := c.Check(ctx, s.URL+"/x"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(2 * time.Hour)
	s.set(serve(http.StatusServiceUnavailable, "down"))
	clock.Advance(31 * 24 * time.Hour) // past the stale window: no copy stands in
	var de *DeferredError
	if _, err := c.Check(ctx, s.URL+"/x"); !errors.As(err, &de) || de.Failures != 1 {
		t.Errorf("after a success: %v, want a deferral counting 1", err)
	}
}

// TestOutageForgottenAfterUnseenGap: a failure that no check asked of
// for longer than a Store keeps it (the longest back-off, or the
// WithUnreachableAllowAfter limit) begins an outage anew, in memory as
// in the Store: a single 503, ten days unasked, then a single 503 again,
// is no ten-day outage to allow everything for, though a failure asked
// again within that bound goes on counting.
func TestOutageForgottenAfterUnseenGap(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(503, "down"))
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now), WithUnreachableAllowAfter(2*time.Hour))
	ctx := context.Background()
	check := func(want int) Decision {
		t.Helper()
		d, err := c.Check(ctx, s.URL+"/private/x")
		var de *DeferredError
		if !errors.As(err, &de) || de.Failures != want {
			t.Fatalf("at %v: %+v, %v; want a deferral counting %d failures", clock.Now(), d, err, want)
		}
		return d
	}
	check(1)
	clock.Advance(2 * time.Hour) // within the limit past the failure's back-off: the outage goes on
	if d, err := c.Check(ctx, s.URL+"/private/x"); err != nil || d.Outcome != OutcomeAllowAll || d.Failures != 2 {
		t.Fatalf("two hours down: %+v, %v; want the allow-all, 2 failures", d, err)
	}
	clock.Advance(10 * 24 * time.Hour) // not asked for ten days
	check(1)
	if n := s.hits.Load(); n != 3 {
		t.Errorf("asked %d times; want 3", n)
	}
}

// TestFailuresCountStopsAtItsBound: the count of failures in a row stops
// at maxFailures, the most the Store encoding reads, so that a site down
// for weeks is not written as a value every reader rejects.
func TestFailuresCountStopsAtItsBound(t *testing.T) {
	c := newTestClient(t)
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	prev := &entry{key: "http://a.test:80", persisted: persisted{outcome: OutcomeUnreachable,
		failures: maxFailures, since: stampOf(now.Add(-time.Hour)), checked: stampOf(now.Add(-time.Minute)), expires: stampOf(now)}}
	res := fetchResult{outcome: OutcomeUnreachable, status: 503, header: http.Header{}, err: errors.New("down")}
	at := stampOf(now)
	failed := &entry{key: prev.key, persisted: persisted{outcome: OutcomeUnreachable, status: 503, fetched: at, checked: at}}
	e := c.unreachable(key{prev.key, &c.robots}, failed, prev, res, now)
	if e.failures != maxFailures {
		t.Errorf("failures %d after %d, want the bound", e.failures, maxFailures)
	}
	if _, err := decodeEntry(robotsKey(e.key), encodeTest(e), testCrawler); err != nil {
		t.Errorf("the entry does not survive the Store encoding: %v", err)
	}
}

// syncBuffer is a bytes.Buffer safe for a logger and a test to share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestClientNoCredentialsInErrors: no error, log line, Decision or Info
// carries the userinfo of a URL, whether the caller's URL is malformed or
// a redirect names credentials.
func TestClientNoCredentialsInErrors(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := newTestClient(t, WithLogger(logger))
	for _, raw := range []string{
		"http://alice:secret@example.com:99999/x",
		"http://alice:se/cret@example.com:99999/x",
		"http://alice:se?cret@example.com:99999/x",
		"http://alice:se#cret@example.com:99999/x",
		"http://alice:secret@example.com:8x/x",
		"http://alice:secret@exa mple.com/x",
		"http://alice:secret@ex%zzample.com/x",
		"http://alice:secret@[::1/x",
		"http://alice:secret@example.com/%zz",
		"http://alice:secret@example.com/x\n",
		"http://alice:sec ret@example.com/x",
		"http://alice:secret\\@example.com/x",
		"http://alice:secret@/x",
		"https://alice:secret@example.com:0/x",
		"ftp://alice:secret@example.com/x",
		"http:alice:secret@example.com/x",
		"http:/alice:secret@example.com/x",
		"http:\\\\alice:secret@example.com/x",
		"//alice:secret@example.com/x",
		" http://alice:secret@example.com/x",
	} {
		d, err := c.Check(ctx, raw)
		if !errors.Is(err, ErrBadURL) {
			t.Errorf("Check(%q) = %v, want ErrBadURL", raw, err)
		}
		for _, text := range []string{fmt.Sprint(err), fmt.Sprintf("%+v", d)} {
			if strings.Contains(text, "secret") || strings.Contains(text, "alice") {
				t.Errorf("Check(%q): %q shows the credentials", raw, text)
			}
		}
	}

	// A robots.txt that redirects to a URL with credentials: they are
	// neither sent nor shown.
	var sentAuth atomic.Bool
	target := newSite(t, nil)
	good := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://bob:hunter2@"+target.Listener.Addr().String()+"/robots.txt", http.StatusFound)
	})
	looping := newSite(t, nil)
	looping.set(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://bob:hunter2@"+looping.Listener.Addr().String()+"/robots.txt", http.StatusMovedPermanently)
	})
	closed := newSite(t, nil)
	closedAddr := closed.Listener.Addr().String()
	closed.Close()
	refused := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://bob:hunter2@"+closedAddr+"/robots.txt", http.StatusTemporaryRedirect)
	})
	for _, tc := range []struct {
		name    string
		status  int // the target's answer
		origin  *site
		outcome Outcome
	}{
		{"to rules", 200, good, OutcomeRules},
		{"to 503", 503, good, OutcomeUnreachable},
		{"to a closed port", 0, refused, OutcomeUnreachable},
		{"in a loop", 0, looping, OutcomeAllowAll},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target.set(func(w http.ResponseWriter, r *http.Request) {
				if _, _, ok := r.BasicAuth(); ok {
					sentAuth.Store(true)
				}
				w.WriteHeader(tc.status)
				_, _ = io.WriteString(w, privateRules)
			})
			forget(c, tc.origin.URL)
			forget(c, target.URL) // its own answer, kept from the hop
			d, err := c.Check(ctx, tc.origin.URL+"/private")
			info, _, _ := held(c, tc.origin.URL)
			if d.Outcome != tc.outcome || d.Allowed != (tc.outcome == OutcomeAllowAll) {
				t.Errorf("Check = %+v, %v; want %v", d, err, tc.outcome)
			}
			shown := []string{fmt.Sprint(err), fmt.Sprintf("%+v", d), fmt.Sprintf("%+v", info), fmt.Sprint(info.Err), info.FinalURL}
			var de *DeferredError
			if errors.As(err, &de) {
				shown = append(shown, fmt.Sprintf("%+v", de))
			}
			for _, text := range append(shown, logs.String()) {
				if strings.Contains(text, "hunter2") || strings.Contains(text, "bob") {
					t.Errorf("%q shows the credentials", text)
				}
			}
		})
	}
	if sentAuth.Load() {
		t.Error("credentials from a Location header were sent")
	}
	if !strings.Contains(logs.String(), "robots.txt unreachable") {
		t.Errorf("log %q has no unreachable line; the test expects to see one", logs.String())
	}
}

// TestClientEscapesAsGiven: in the default mode the Client escapes only
// bytes that are not printable ASCII and keeps existing escapes byte for
// byte, as Google's matcher reads URLs, and checks the path servers serve
// too (an escape in lower-case hex is served as the one in upper-case
// hex); and it takes the authority as net/url takes it.
func TestClientEscapesAsGiven(t *testing.T) {
	checkLeaks(t)
	const rules = "User-agent: *\nDisallow: /collections/*%2B*\nDisallow: /caf%C3%A9\nDisallow: /a%20b\n"
	s := newSite(t, serve(200, rules))
	c := newTestClient(t)
	robots := Parse([]byte(rules))
	ctx := context.Background()
	for path, want := range map[string]struct{ client, google bool }{
		"/collections/zzwp%2be4j": {false, true}, // de.dreametech.com (corpus 1406): the rule spells '+' escaped, in either hex case
		"/collections/zzwp%2Be4j": {false, false},
		"/collections/zzwp+e4j":   {true, true},
		"/caf%C3%A9":              {false, false},
		"/caf%c3%a9":              {false, true}, // served as /caf%C3%A9
		"/caf%C3%a9":              {false, true},
		"/café":                   {false, false}, // raw bytes are escaped, upper-case
		"/a b":                    {false, false}, // a space is escaped
		"/a%20b":                  {false, false},
		"/a%2520b":                {true, true},
		"/a+b":                    {true, true},
	} {
		d, err := c.Check(ctx, s.URL+path)
		if err != nil || d.Allowed != want.client {
			t.Errorf("Check(%q) = %+v, %v; want allowed %v", path, d, err, want.client)
		}
		if ascii.IsASCII(path) && !strings.Contains(path, " ") && robots.Allowed("robotstxt", path) != want.google {
			t.Errorf("Parse(body).Allowed(%q) = %v, want %v", path, !want.google, want.google)
		}
	}
	for _, raw := range []string{
		"http://evil.example\\@good.example/x",
		"http://evil.example\\@" + s.Listener.Addr().String() + "/x",
		s.URL + "/caf%zz", s.URL + "/100%", s.URL + "/x\x7f",
	} {
		if ok, err := c.Allowed(ctx, raw); ok || !errors.Is(err, ErrBadURL) {
			t.Errorf("Allowed(%q) = %v, %v; want ErrBadURL (net/url rejects it)", raw, ok, err)
		}
		if _, err := url.Parse(raw); err == nil {
			t.Errorf("net/url accepts %q; the test expects it not to", raw)
		}
	}
	if n := s.hits.Load(); n != 1 {
		t.Errorf("server asked %d times, want once", n)
	}
}

// escapeVariants returns path with its bytes that are not printable ASCII
// escaped, and its escapes' hex digits in upper case, in lower case and
// mixed.
func escapeVariants(path string) []string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		if c := path[i]; c <= ' ' || c >= 0x7f {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	upper := b.String()
	lower, mixed := []byte(upper), []byte(upper)
	for i := 0; i+2 < len(upper); i++ {
		if ascii.IsEscape(upper, i) {
			lower[i+1], lower[i+2] = toLowerASCII(upper[i+1]), toLowerASCII(upper[i+2])
			mixed[i+1], mixed[i+2] = toLowerASCII(upper[i+1]), toUpperASCII(upper[i+2])
		}
	}
	return []string{upper, string(lower), string(mixed)}
}

func toLowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func toUpperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// TestClientCorpusEscapesAgree serves every robots.txt of the corpus
// sample with an escape in a rule, and checks URLs made from those rules
// with upper-case, lower-case and mixed hex: the Client agrees on every
// one with Parse(body), on the body as ReadBody reads it, checking the
// URL and the paths servers serve for it (see match.NormalForms).
func TestClientCorpusEscapesAgree(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	header := http.Header{"Content-Type": {"text/plain"}}
	c := newTestClient(t)
	files, compared := 0, 0
	for _, row := range readCorpusIndex(t, corpusSample) {
		if row.kind != "robots" {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(corpusSample, row.file))
		if err != nil {
			t.Fatal(err)
		}
		var patterns []string
		for _, line := range strings.FieldsFunc(string(raw), func(r rune) bool { return r == '\n' || r == '\r' }) {
			field, value, ok := strings.Cut(line, ":")
			field = strings.ToLower(strings.TrimSpace(field))
			if !ok || field != "allow" && field != "disallow" {
				continue
			}
			value, _, _ = strings.Cut(value, "#")
			if value = strings.TrimSpace(value); strings.Contains(value, "%") {
				patterns = append(patterns, value)
			}
		}
		if len(patterns) == 0 {
			continue
		}
		files++
		body, err := body.Read(bytes.NewReader(raw), header, body.DefaultLimit)
		if err != nil {
			t.Fatalf("%s: %v", row.file, err)
		}
		robots := Parse(body.Text)
		s := newSite(t, serve(200, string(raw), "Content-Type", "text/plain"))
		for _, p := range patterns {
			p = strings.TrimSuffix(strings.ReplaceAll(p, "*", "zz"), "$")
			if !strings.HasPrefix(p, "/") {
				p = "/" + p
			}
			for _, path := range escapeVariants(p) {
				for _, path := range []string{path, path + "x", path + "?q=%2b"} {
					d, err := c.Check(ctx, s.URL+path)
					if errors.Is(err, ErrBadURL) {
						if _, _, err := splitKey(s.URL + path); err == nil {
							t.Errorf("%s: Check(%q): %v", row.file, path, err)
						}
						continue
					}
					compared++
					want := robots.Allowed("robotstxt", path)
					forms, n := match.NormalForms(path, nil) // checked against references in its own tests
					for _, f := range forms[:n] {
						want = want && robots.Allowed("robotstxt", f)
					}
					if err != nil || d.Allowed != want {
						t.Errorf("%s: Client says %q allowed %v (%v), Parse(body) of it and its forms says %v", row.file, path, d.Allowed, err, want)
					}
				}
			}
		}
	}
	if files < 10 || compared < 1000 {
		t.Errorf("compared %d URLs from %d files; the test expects more", compared, files)
	}
	t.Logf("%d URLs from %d files agree", compared, files)
}

// fetches returns the number of fetches st counts.
func fetches(st Stats) uint64 {
	f := st.Fetches
	return f.Rules + f.AllowAll + f.DisallowAll + f.Unreachable + f.NotModified
}

// TestOptionsAtTheirLimits: the largest value each option takes means
// "as much as there is", never a panic, a time in the past or a fetch on
// every check.
func TestOptionsAtTheirLimits(t *testing.T) {
	for name, opt := range map[string]Option{
		"WithCacheSize":        WithCacheSize(math.MaxInt),
		"WithCacheBytes":       WithCacheBytes(math.MaxInt64),
		"WithMaxFreshness":     WithMaxFreshness(math.MaxInt64),
		"WithMinFreshness":     WithMinFreshness(math.MaxInt64),
		"WithFetchTimeout":     WithFetchTimeout(math.MaxInt64),
		"WithMaxFetches":       WithMaxFetches(math.MaxInt),
		"WithStaleWindow":      WithStaleWindow(math.MaxInt64),
		"WithBackoff":          WithBackoff(time.Minute, math.MaxInt64),
		"WithUnreachableAfter": WithUnreachableAllowAfter(math.MaxInt64),
		"WithMaxRedirects":     WithMaxRedirects(math.MaxInt),
		"WithMaxRedirects/2":   WithMaxRedirects(math.MaxInt / 2), // 3×(n+1) requests a check
	} {
		t.Run(name, func(t *testing.T) {
			checkLeaks(t)
			s := newSite(t, serve(200, privateRules))
			clock := newTestClock()
			c := newTestClient(t, opt, WithClock(clock.Now), WithStore(newMemStore()))
			for i := range 3 {
				if ok, err := c.Allowed(context.Background(), s.URL+"/private/x"); ok || err != nil {
					t.Fatalf("check %d: %v, %v; want disallowed", i, ok, err)
				}
				clock.Advance(time.Hour)
			}
			if n := s.hits.Load(); n != 1 {
				t.Errorf("%d fetches in three hours, want 1", n)
			}
			if st := c.Stats().Store; st.Errors != 0 || st.Sets != 1 {
				t.Errorf("Store: %d errors, %d sets; want none and one (the lease and the value within range)", st.Errors, st.Sets)
			}
		})
	}
	// A last good copy kept for ever stands in without a fetch each check.
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules, "Cache-Control", "max-age=60"))
	clock := newTestClock()
	c := newTestClient(t, WithStaleWindow(math.MaxInt64), WithClock(clock.Now))
	ctx := context.Background()
	if _, err := c.Allowed(ctx, s.URL+"/"); err != nil {
		t.Fatal(err)
	}
	s.set(serve(http.StatusServiceUnavailable, "down"))
	clock.Advance(time.Hour)
	for i := range 3 {
		if ok, err := c.Allowed(ctx, s.URL+"/private/x"); ok || err != nil {
			t.Fatalf("check %d while down: %v, %v; want the last good copy's disallow", i, ok, err)
		}
		clock.Advance(time.Second)
	}
	if n := s.hits.Load(); n != 2 {
		t.Errorf("%d fetches, want 2: the stand-in waits out its back-off", n)
	}
}

// TestClientSlotWaitGivenUpFetchesLater: a check of an expired entry that
// gives up waiting for a fetch slot leaves no mark behind, so the next
// check after the slot is free fetches again instead of serving the
// stale copy for ever.
func TestClientSlotWaitGivenUpFetchesLater(t *testing.T) {
	checkLeaks(t)
	var n atomic.Int32
	site := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Cache-Control", "max-age=60")
		_, _ = w.Write([]byte(privateRules))
	})
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now), WithMaxFetches(1))
	if _, err := c.Allowed(context.Background(), site.URL+"/private/x"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(2 * time.Minute)
	release := holdSlot(t, c, onNewSite(t))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	d, err := c.Check(ctx, site.URL+"/private/x")
	cancel()
	if err != nil || !d.Stale {
		t.Fatalf("check while no slot is free: %+v, %v; want the stale copy", d, err)
	}
	release()
	if _, err := c.Allowed(context.Background(), site.URL+"/private/x"); err != nil {
		t.Fatal(err)
	}
	if got := n.Load(); got != 2 {
		t.Errorf("robots.txt fetched %d times, want 2: the check that gave up left its mark", got)
	}

	// A copy older than the stale window cannot stand in: the check waits
	// for the slot, then fetches.
	clock.Advance(31 * 24 * time.Hour)
	release = holdSlot(t, c, onNewSite(t))
	checked := make(chan error, 1)
	go func() {
		d, err := c.Check(context.Background(), site.URL+"/private/x")
		if err == nil && (d.Stale || d.Allowed) {
			err = fmt.Errorf("answered %+v", d)
		}
		checked <- err
	}()
	select {
	case err := <-checked:
		t.Errorf("a check of a copy 31 days old, no slot free, did not wait: %v", err)
		checked <- nil
	case <-time.After(50 * time.Millisecond):
	}
	release()
	if err := <-checked; err != nil {
		t.Errorf("after the slot was freed: %v", err)
	}
}

// holdSlot has a check of url, whose robots.txt route answers once
// release is called, take the only fetch slot of c; release returns once
// it has ended. route is how c's HTTP client reaches url's server (see
// newSite and hosts.on).
func holdSlot(t *testing.T, c *Client, route func(h http.HandlerFunc) (url string)) (release func()) {
	t.Helper()
	entered, freed, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	url := route(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-freed
	})
	go func() {
		defer close(done)
		_, _ = c.Allowed(context.Background(), url+"/")
	}()
	select {
	case <-entered:
	case <-done:
		t.Fatal("the check holding the slot ended before its fetch began")
	}
	return func() {
		close(freed)
		<-done
	}
}

// onNewSite is a route for holdSlot: a new loopback site.
func onNewSite(t *testing.T) func(h http.HandlerFunc) string {
	return func(h http.HandlerFunc) string { return newSite(t, h).URL }
}

// TestClientSlotWaitOldCopy: a copy that expired more than the freshness
// cap ago (here 20 days, within the stale window) does not answer a check
// that finds every fetch slot taken: the check waits for a slot, and one
// that gives up first fails rather than allow by that copy; once a slot
// is free, the site's file is read.
func TestClientSlotWaitOldCopy(t *testing.T) {
	checkLeaks(t)
	var disallow atomic.Bool
	site := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if disallow.Load() {
			_, _ = w.Write([]byte(privateRules))
		}
	})
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now), WithMaxFetches(1))
	if ok, err := c.Allowed(context.Background(), site.URL+"/private/x"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	disallow.Store(true)
	clock.Advance(20 * 24 * time.Hour)
	release := holdSlot(t, c, onNewSite(t))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	d, err := c.Check(ctx, site.URL+"/private/x")
	cancel()
	if d.Allowed || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("no slot free, a copy 20 days old: %+v, %v; want the check's deadline, not the copy's answer", d, err)
	}
	release()
	if ok, err := c.Allowed(context.Background(), site.URL+"/private/x"); ok || err != nil {
		t.Errorf("once a slot is free: %v, %v; want the site's disallow", ok, err)
	}
}

// TestClientSlotWaitNewerCopyStandsIn: a check that waits for a fetch
// slot, and meanwhile sees a newer copy of its site's robots.txt
// published (here by another site's, redirected there) and expire,
// revalidates from the newer copy: when its fetch fails, that copy, not
// the one the check found before its wait, stands in. The older allowed
// a path the newer disallows.
func TestClientSlotWaitNewerCopyStandsIn(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var phase atomic.Int32 // 0: the first file; 1: the second, once; then 503
	w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Cache-Control", "max-age=0")
		switch {
		case phase.Load() == 0:
			_, _ = rw.Write([]byte("User-agent: *\nDisallow: /old\n"))
		case phase.CompareAndSwap(1, 2):
			_, _ = rw.Write([]byte(privateRules))
		default:
			rw.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	entered, release := make(chan struct{}), make(chan struct{})
	w.on("h.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		http.Redirect(rw, r, "http://s.test/robots.txt", http.StatusMovedPermanently)
	})
	clock := newTestClock()
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now),
		WithMaxFetches(1), WithMinFreshness(0))
	ctx := context.Background()
	if ok, err := c.Allowed(ctx, "http://s.test/private/x"); !ok || err != nil {
		t.Fatalf("the first file: %v, %v", ok, err)
	}
	// Past the freshness cap, so that the copy does not answer a check
	// that finds no slot free; within the stale window.
	clock.Advance(25 * time.Hour)
	phase.Store(1)
	holder := make(chan struct{})
	go func() {
		defer close(holder)
		_, _ = c.Allowed(ctx, "http://h.test/") // takes the slot, its robots.txt redirected to s.test's
	}()
	<-entered
	misses := c.Stats().Misses
	got := make(chan Decision, 1)
	go func() {
		d, _ := c.Check(ctx, "http://s.test/private/x")
		got <- d
	}()
	for c.Stats().Misses == misses { // the check has found the first copy, and waits for the slot
		runtime.Gosched()
	}
	close(release)
	<-holder
	if d := <-got; d.Allowed || d.Failures != 1 {
		t.Errorf("the check that waited: allowed %v (stale %v, fetched %v, %d failures) by the copy it found before its wait; want the newer copy standing in, one failure", d.Allowed, d.Stale, d.FetchedAt, d.Failures)
	}
	if d, err := c.Check(ctx, "http://s.test/private/x"); d.Allowed {
		t.Errorf("the next check: allowed (stale %v, fetched %v, %v)", d.Stale, d.FetchedAt, err)
	}
}

// TestClientTDMRepFile: under WithTDMRep the Client fetches an authority's
// /.well-known/tdmrep.json through the same machinery as robots.txt: once
// while fresh, shared through the Store under its own key, a 404 read as
// no file (whatever WithStatusPolicy says of robots.txt), and a failure
// as unreachable, not counted in the robots.txt statistics, which count
// only the robots.txt each site's file is checked against.
func TestClientTDMRepFile(t *testing.T) {
	checkLeaks(t)
	const file = `[{"location": "/", "tdm-reservation": 1}]`
	w := newHosts(t)
	w.on("a.test/.well-known/tdmrep.json", serve(200, file, "Cache-Control", "max-age=3600"))
	w.on("b.test/.well-known/tdmrep.json", serve(404, "no"))
	w.on("c.test/.well-known/tdmrep.json", serve(503, "down"))
	store := newMemStore()
	hc := &http.Client{Transport: w.transport(t)}
	opts := []Option{WithHTTPClient(hc), WithStore(store), WithTDMRep(), WithStatusPolicy(LegacyStatusPolicy)}
	c := newTestClient(t, opts...)
	ctx := context.Background()
	for range 2 {
		e, err := c.tdmrep(ctx, "http://a.test:80")
		if err != nil || e.outcome != OutcomeRules {
			t.Fatalf("a.test: %+v, %v; want the file", e, err)
		}
		if text, err := e.text(); err != nil || string(text) != file {
			t.Fatalf("a.test's file: %q, %v; want %q", text, err, file)
		}
	}
	if n := w.count("http://a.test/.well-known/tdmrep.json"); n != 1 {
		t.Errorf("a.test's file fetched %d times, want once", n)
	}
	if store.get("http://a.test:80/.well-known/tdmrep.json") == nil {
		t.Error("the file is not in the Store under its own key")
	}
	other := newTestClient(t, opts...)
	if e, err := other.tdmrep(ctx, "http://a.test:80"); err != nil || e.outcome != OutcomeRules {
		t.Errorf("another Client: %+v, %v; want the file from the Store", e, err)
	}
	if n := w.count("http://a.test/.well-known/tdmrep.json"); n != 1 {
		t.Errorf("with the Store, a.test's file fetched %d times, want once", n)
	}
	if e, err := c.tdmrep(ctx, "http://b.test:80"); err != nil || e.outcome != OutcomeAllowAll {
		t.Errorf("b.test (404): %+v, %v; want no file", e, err)
	}
	if e, err := c.tdmrep(ctx, "http://c.test:80"); err != nil || e.outcome != OutcomeUnreachable {
		t.Errorf("c.test (503): %+v, %v; want unreachable", e, err)
	}
	if st := c.Stats(); st.Fetches.AllowAll != 3 || st.Fetches.AllowAll+st.Fetches.Rules+st.Fetches.Unreachable+st.Fetches.DisallowAll != 3 || st.Entries != 3 {
		t.Errorf("the files counted as robots.txt, or not each site's robots.txt once: %+v", st)
	}
}

// TestClientTDMRepObeysRobotsTxt: a site whose robots.txt disallows
// /.well-known/ (or the file itself) does not have its tdmrep.json
// fetched by the crawler's Transport. The Transport's doc: "Every
// request, each redirect hop included, is first checked as
// [Client.Allowed] checks a URL"; only the Client's own robots.txt
// requests pass unchecked.
func TestClientTDMRepObeysRobotsTxt(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nDisallow: /.well-known/\nAllow: /\n"))
	w.on("a.test/page", serve(200, "page", "Content-Type", "text/plain"))
	w.on("a.test"+tdmrepPath, serve(200, `[{"location": "/", "tdm-reservation": 0}]`))
	// b.test allows the file, which redirects within the site to a path
	// robots.txt disallows.
	w.on("b.test/robots.txt", serve(200, "User-agent: *\nDisallow: /private/\n"))
	w.on("b.test/page", serve(200, "page", "Content-Type", "text/plain"))
	w.on("b.test"+tdmrepPath, func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, "/private/tdm.json", http.StatusFound)
	})
	w.on("b.test/private/tdm.json", serve(200, `[{"location": "/", "tdm-reservation": 0}]`))

	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA), WithTDMRep()})
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}

	resp, body := fetchPage(t, hc, "http://a.test/page")
	r := tr.Receipt(resp, body)
	if n := w.count("http://a.test" + tdmrepPath); n != 0 {
		t.Errorf("a.test's robots.txt disallows /.well-known/, yet %s was requested %d times (receipt usage %q, signals %q)",
			tdmrepPath, n, r.Usage, sigs(r.Signals))
	}

	if r.Usage.statement() != "train-ai=n" || len(r.Signals) != 1 || !strings.Contains(r.Signals[0].Value, "robots.txt disallows") {
		t.Errorf("a.test: usage %q, signals %+v; want train-ai=n, as for a file that cannot be read, and why", r.Usage, r.Signals)
	}

	resp, body = fetchPage(t, hc, "http://b.test/page")
	r = tr.Receipt(resp, body)
	if n := w.count("http://b.test/private/tdm.json"); n != 0 {
		t.Errorf("b.test's robots.txt disallows /private/, yet the tdmrep.json redirect there was followed %d times (usage %q, signals %q)",
			n, r.Usage, sigs(r.Signals))
	}
	if r.Usage.statement() != "train-ai=n" {
		t.Errorf("b.test: usage %q, want train-ai=n", r.Usage)
	}
}

// TestClientTDMRepChecksAsACrawler: the robots.txt check before the file
// is the crawler's own: a robots.txt that fails is kept with its back-off
// (the next check asks no again), and a file reached through a redirect,
// within its site too, is fetched by each Client sharing a Store: the
// hop's path was checked in the writer's Mode, which a reader's may not
// allow (see TestStoreTDMRepHopInTheReadersMode).
func TestClientTDMRepChecksAsACrawler(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(503, "down"))
	w.on("b.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("b.test"+tdmrepPath, func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, "/tdm.json", http.StatusFound)
	})
	w.on("b.test/tdm.json", serve(200, `[{"location": "/", "tdm-reservation": 1}]`))
	store := newMemStore()
	hc := &http.Client{Transport: w.transport(t)}
	opts := []Option{WithHTTPClient(hc), WithStore(store), WithTDMRep()}
	c := newTestClient(t, opts...)
	ctx := context.Background()
	if _, err := c.tdmrep(ctx, "http://a.test:80"); err == nil {
		t.Error("a.test, robots.txt down: no error")
	}
	if _, err := c.Check(ctx, "http://a.test/x"); err == nil {
		t.Error("a.test's check: no error")
	}
	if n := w.count("http://a.test/robots.txt"); n != 1 {
		t.Errorf("a.test's robots.txt asked %d times, want once: its failure is kept", n)
	}
	for _, c := range []*Client{c, newTestClient(t, opts...)} {
		if e, err := c.tdmrep(ctx, "http://b.test:80"); err != nil || e.outcome != OutcomeRules {
			t.Fatalf("b.test: %+v, %v", e, err)
		}
	}
	if n := w.count("http://b.test/tdm.json"); n != 2 {
		t.Errorf("b.test's file, redirected within its site, fetched %d times by two Clients sharing a Store, want once each", n)
	}
	// To https, whose robots.txt is another's: checked, and so marked.
	w.on("c.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("c.test"+tdmrepPath, func(rw http.ResponseWriter, r *http.Request) {
		if r.TLS == nil {
			http.Redirect(rw, r, "https://c.test"+tdmrepPath, http.StatusMovedPermanently)
			return
		}
		_, _ = io.WriteString(rw, `[{"location": "/", "tdm-reservation": 0}]`)
	})
	if e, err := c.tdmrep(ctx, "http://c.test:80"); err != nil || e.redirects != "301* https://c.test"+tdmrepPath {
		t.Errorf("c.test: %+v, %v; want its hop to https marked checked", e, err)
	}
}

// TestClientTDMRepHopsNestAsRobots: the robots.txt files a tdmrep.json's
// redirects need nest no deeper than a robots.txt's (maxHopDepth, the
// file's own fetch counted).
func TestClientTDMRepHopsNestAsRobots(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	to := func(u string) http.HandlerFunc {
		return func(rw http.ResponseWriter, r *http.Request) { http.Redirect(rw, r, u, http.StatusFound) }
	}
	w.on("a.test"+tdmrepPath, to("http://b.test/x"))
	w.on("b.test/robots.txt", to("http://c.test/x"))
	w.on("c.test/robots.txt", to("http://d.test/x"))
	w.on("d.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithTDMRep())
	if e, err := c.tdmrep(context.Background(), "http://a.test:80"); err != nil || e.outcome != OutcomeUnreachable {
		t.Errorf("a.test: %+v, %v; want unreachable", e, err)
	}
	if n := w.count("http://d.test/robots.txt"); n != 0 {
		t.Errorf("d.test's robots.txt, three deep, fetched %d times", n)
	}
}

// TestClientTDMRepTakesNoTurn: like robots.txt, tdmrep.json takes no
// pacing turn within its site: Usage asked while the page's body is open,
// its turn still running, reads the file at once, where waiting for that
// turn would run out the fetch and read as a reservation.
func TestClientTDMRepTakesNoTurn(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 2\nAllow: /\n"))
	w.on("a.test/page", serve(200, "page", "Content-Type", "text/plain"))
	w.on("a.test"+tdmrepPath, serve(200, `[{"location": "/", "tdm-reservation": 0}]`))
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA), WithTDMRep(), WithFetchTimeout(time.Second)})
	t.Cleanup(func() { _ = c.Close() })
	resp, err := (&http.Client{Transport: tr}).Get("http://a.test/page")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if u := tr.Usage(resp); u.statement() != "" || w.count("http://a.test"+tdmrepPath) != 1 {
		t.Errorf("usage %q with the file requested %d times; want the file's, read once", u, w.count("http://a.test"+tdmrepPath))
	}
}

// TestClientProductTokenErrors: a Client without a usable product token
// decides nothing and fetches nothing, rather than obey another crawler's
// group.
func TestClientProductTokenErrors(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: *\nDisallow: /x\n"))
	ctx := context.Background()
	for name, c := range map[string]*Client{
		"no token in the User-Agent": newTestClient(t, WithUserAgent("123bot/1.0")),
		"browser User-Agent":         newTestClient(t, WithUserAgent("Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0")),
		"tokens not tokens":          newTestClient(t, WithProductTokens("XBot/1.0")),
		"one bad token of two":       newTestClient(t, WithProductTokens("XBot", "")),
		"no tokens":                  newTestClient(t, WithUserAgent("XBot/1.0"), WithProductTokens()),
	} {
		if ok, err := c.Allowed(ctx, s.URL+"/y"); ok || !errors.Is(err, ErrProductToken) {
			t.Errorf("%s: Allowed = %v, %v; want ErrProductToken", name, ok, err)
		}
		if d, err := c.Check(ctx, s.URL+"/y"); d.Allowed || d.Outcome != Outcome(0) || !errors.Is(err, ErrProductToken) {
			t.Errorf("%s: Check = %+v, %v; want ErrProductToken", name, d, err)
		}
		if c.setupErr == nil {
			t.Errorf("%s: the Client's tokens %q are taken as usable", name, c.tokens)
		}
	}
	if n := s.hits.Load(); n != 0 {
		t.Errorf("server asked %d times by Clients without a token, want 0", n)
	}
	crawler := newTestClient(t, WithUserAgent("Mozilla/5.0 (compatible; XBot/1.0; +https://example.com/bot)"))
	if toks := crawler.tokens; len(toks) != 1 || toks[0] != "XBot" {
		t.Errorf("ProductTokens() = %q, want [XBot]", toks)
	}
}

// TestClientHeaderNotSendable: a User-Agent or From net/http refuses to
// send fails every check, though an error policy would read the fetches
// it refuses as allow-all, and the server is never asked.
func TestClientHeaderNotSendable(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	s := newSite(t, serve(200, privateRules))
	lenient := WithErrorPolicy(func(error) Outcome { return OutcomeAllowAll })
	for name, opt := range map[string]Option{
		"User-Agent with a line break": WithUserAgent("ExampleBot/1.0\n"),
		"User-Agent with a NUL":        WithUserAgent("ExampleBot/1.0\x00"),
		"From with a header in it":     WithFrom("ops@example.com\r\nX-Injected: 1"),
	} {
		c := newTestClient(t, opt, lenient)
		if ok, err := c.Allowed(ctx, s.URL+"/private/x"); ok || err == nil || !strings.Contains(err.Error(), "cannot send") {
			t.Errorf("%s: Allowed = %v, %v; want an error that the header cannot be sent", name, ok, err)
		}
	}
	if n := s.hits.Load(); n != 0 {
		t.Errorf("server asked %d times, want 0", n)
	}
	if ok, err := newTestClient(t, WithUserAgent("ExampleBot/1.0 (+https://example.com/bot; ops@example.com)"), WithFrom("ops@example.com"), lenient).Allowed(ctx, s.URL+"/private/x"); ok || err != nil {
		t.Errorf("a header that can be sent: Allowed = %v, %v; want disallowed", ok, err)
	}
}

// TestClientSeveralProductTokens: a crawler known by several tokens obeys
// the groups that name any of them, merged, as Google's reference parser
// does; the "*" group only applies when none is named.
func TestClientSeveralProductTokens(t *testing.T) {
	checkLeaks(t)
	const body = "User-agent: Googlebot\nDisallow: /a\n\n" +
		"User-agent: Googlebot-Image\nDisallow: /b\n\n" +
		"User-agent: *\nDisallow: /c\n"
	s := newSite(t, serve(200, body))
	ctx := context.Background()
	c := newTestClient(t, WithProductTokens("Googlebot-Image", "Googlebot"))
	if toks := c.tokens; len(toks) != 2 || toks[0] != "Googlebot-Image" || toks[1] != "Googlebot" {
		t.Errorf("ProductTokens() = %q, want [Googlebot-Image Googlebot]", toks)
	}
	for _, tc := range []struct {
		path string
		want bool
		line int
	}{
		{"/a", false, 2}, {"/b", false, 5}, {"/c", true, 0}, {"/d", true, 0},
	} {
		d, err := c.Check(ctx, s.URL+tc.path)
		if err != nil || d.Allowed != tc.want || d.Rule.Line != tc.line {
			t.Errorf("Check(%q) = %+v, %v; want allowed %v by line %d", tc.path, d, err, tc.want, tc.line)
		}
	}
	// A token that no group names adds nothing; the "*" group applies
	// only when no token is named.
	other := newTestClient(t, WithProductTokens("XBot", "YBot"))
	for path, want := range map[string]bool{"/a": true, "/b": true, "/c": false} {
		if ok, err := other.Allowed(ctx, s.URL+path); ok != want || err != nil {
			t.Errorf("XBot, YBot: Allowed(%q) = %v, %v; want %v", path, ok, err, want)
		}
	}
}

// TestClientLastStatus: while a stale copy stands in, Status is the
// copy's and LastStatus the failing server's.
func TestClientLastStatus(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules, "Cache-Control", "max-age=60"))
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	d, err := c.Check(ctx, s.URL)
	if err != nil || d.Status != 200 || d.LastStatus != 200 {
		t.Fatalf("fresh: %+v, %v", d, err)
	}
	s.set(serve(503, "down"))
	clock.Advance(2 * time.Minute)
	if d, err = c.Check(ctx, s.URL); err != nil || !d.Stale || d.Status != 200 || d.LastStatus != 503 {
		t.Fatalf("stale: Status %d LastStatus %d Stale %v, %v", d.Status, d.LastStatus, d.Stale, err)
	}
}

// TestClientChecksNormalForms checks that the Client, unlike the parser,
// disallows the spellings that servers serve as a disallowed path, and
// still allows what only looks odd.
func TestClientChecksNormalForms(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: *\nDisallow: /private\nAllow: /public\n"))
	c := newTestClient(t)
	ctx := context.Background()
	for p, want := range map[string]bool{
		"/public/../private/x":     false,
		"//private/x":              false,
		"/%70rivate/x":             false,
		"/public/%2e%2e/private":   false,
		"/./private":               false,
		"/public/x":                true,
		"/public//x":               true,
		"/public/./x":              true,
		"/public?next=/../private": true,
		"/x/..%2Fprivate":          false, // nginx decodes %2F: /x/../private
		"/public%2F..%2Fprivate/x": false,
		"/%2fprivate/x":            false,
		"/public%2Fx":              true,
	} {
		d, err := c.Check(ctx, s.URL+p)
		if err != nil || d.Allowed != want {
			t.Errorf("Check(%q) = %v, %v; want allowed %v", p, d.Allowed, err, want)
		}
		if !want && (!matched(d) || d.Rule.Pattern != "/private") {
			t.Errorf("Check(%q): deciding rule %+v, want Disallow: /private", p, d.Rule)
		}
		if ok, err := c.Allowed(ctx, s.URL+p); err != nil || ok != want {
			t.Errorf("Allowed(%q) = %v, %v; want %v", p, ok, err, want)
		}
		// The parser-level check stays Google's: the spelling alone.
		if got := Parse([]byte("User-agent: *\nDisallow: /private\nAllow: /public\n")).Allowed("x", p); !want && !got && p != "/./private" {
			t.Errorf("Robots.Allowed(%q) = false: the parser must read the spelling only", p)
		}
	}
}

// TestClientChecksEmptyQuery: a URL whose '?' starts no query
// (/private.html?, /?, a link's stray '?' or url.URL's ForceQuery) is
// served as the page without it by nginx and Go's server alike, so a "$"
// rule naming that page refuses it, as a Transport does (url90), and an
// Allow written for the '?' does not open the page (review166); its
// Content-Usage is that page's too.
func TestClientChecksEmptyQuery(t *testing.T) {
	checkLeaks(t)
	var pages atomic.Int32
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /private.html$\nDisallow: /$\nDisallow: /y\nAllow: /y?\n"+
				"Content-Usage: /doc$ train-ai=n\nContent-Usage: / train-ai=y\n")
			return
		}
		pages.Add(1)
		_, _ = io.WriteString(w, "page "+r.URL.Path)
	})
	c, _, hc := newTestTransport(t)
	ctx := context.Background()
	for p, want := range map[string]bool{
		"/private.html":      false,
		"/private.html?":     false,
		"/private.html?#top": false,
		"/?":                 false,
		"?":                  false,
		"/private.html??":    true, // a query of "?": another page
		"/private.html?x":    true,
		"/x?":                true,
		"/y?":                false, // served as /y, whatever "Allow: /y?" says
		"/y?z":               true,
	} {
		d, err := c.Check(ctx, s.URL+p)
		if err != nil || d.Allowed != want {
			t.Errorf("Check(%q) = %v (served %q), %v; want allowed %v", p, d.Allowed, d.Served, err, want)
		}
		if _, err := get(ctx, hc, s.URL+p); (err == nil) != want {
			t.Errorf("Transport GET %q: %v; want sent %v", p, err, want)
		}
	}
	if d, err := c.Check(ctx, s.URL+"/doc?"); err != nil || d.Usage.statement() != "train-ai=n" {
		t.Errorf("Check(/doc?).Usage = %q, %v; want /doc's train-ai=n", d.Usage.statement(), err)
	}
	if n := pages.Load(); n != 4 {
		t.Errorf("the server got %d page requests, want the 4 allowed", n)
	}
}

// TestClientChecksLiteralPercent: nginx and Apache decode %25 as every
// escape, so /sale/50%25off serves /sale/50%off, the file "Disallow:
// /sale/50%off" names and a client can only send so; as "Disallow: /a b$"
// refuses /a%20b.
func TestClientChecksLiteralPercent(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: *\nDisallow: /sale/50%off\nDisallow: /discount-100%/\nDisallow: /a b$\n"))
	c := newTestClient(t)
	// The blank, which the same reading covers, is refused.
	if ok, err := c.Allowed(context.Background(), s.URL+"/a%20b"); ok || err != nil {
		t.Fatalf("/a%%20b: ok=%v err=%v, want refused (control)", ok, err)
	}
	for _, p := range []string{"/sale/50%25off", "/sale/50%25offers", "/discount-100%25/x", "/./sale/50%25off"} {
		d, err := c.Check(context.Background(), s.URL+p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if d.Allowed {
			t.Errorf("%s: allowed (served %q), though nginx and Apache serve it as a disallowed path", p, d.Served)
		}
	}
}

// TestClientChecksLiteralPercentAsSent: a served form holding a '%' of a
// %25 and a byte net/url escapes is also given as a client sends it, the
// '%' as %25 again, which a rule for what is sent names.
func TestClientChecksLiteralPercentAsSent(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: *\nDisallow: /my%20file\nDisallow: /q%22\n"))
	c := newTestClient(t)
	for _, p := range []string{"/./my%20file%2541", "/./my%20file%25x", "//q%22%25off"} {
		if d, err := c.Check(context.Background(), s.URL+p); err != nil || d.Allowed {
			t.Errorf("Check(%q) = %v (served %q), %v; want disallowed", p, d.Allowed, d.Served, err)
		}
	}
}

// TestClientChecksEncodedSlashAsSent: a rule for a resource whose name
// holds an encoded slash and a byte net/url escapes, as a client escaping
// by hand sends it, disallows the spellings Apache serves as it: the form
// as net/url sends it decodes the %2F.
func TestClientChecksEncodedSlashAsSent(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: *\nDisallow: /docs%2Fmy%20file\n"))
	c := newTestClient(t)
	for _, p := range []string{"/docs%2Fmy%20file", "/x/../docs%2Fmy%20file", "/./docs%2Fmy%20file", "/docs%2F%6Dy%20file"} {
		if d, err := c.Check(context.Background(), s.URL+p); err != nil || d.Allowed {
			t.Errorf("Check(%q) = %v, %v; want disallowed", p, d.Allowed, err)
		}
	}
}

// TestClientUsageOfNormalForms: a URL's preferences are those of every
// form of its path a server serves, failing closed: a "no" any form is
// given counts, a "yes" only when every form is given it, so that a
// spelling does not lend its yes to a page the site never gave one.
func TestClientUsageOfNormalForms(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: *\nAllow: /\nContent-Usage: /public/ train-ai=y, search=y\n"+
		"Content-Usage: /private/ search=y\nContent-Usage: /closed/ train-ai=n\n"))
	c := newTestClient(t)
	for p, want := range map[string]string{
		"/public/doc":                 "train-ai=y, search=y",
		"/private/doc":                "search=y",
		"/public/../private/doc":      "search=y", // served as /private/doc
		"/public/%2e%2e/private/doc":  "search=y",
		"/private/../public/doc":      "search=y",   // a yes of every form
		"/public/../closed/doc":       "train-ai=n", // a no of any form counts
		"/closed/../public/doc":       "train-ai=n",
		"/public/../elsewhere/x":      "",
		"/public/x?next=/../private/": "train-ai=y, search=y", // a query is no path
	} {
		d, err := c.Check(context.Background(), s.URL+p)
		if err != nil || d.Usage.statement() != want {
			t.Errorf("Check(%q).Usage = %q, %v; want %q", p, d.Usage.statement(), err, want)
		}
	}
}

// TestClientChecksEscapesInEitherHexCase: a rule that keeps an escape
// servers decode (written in either case, stored in upper case) also
// disallows its path spelled with the other case.
// TestServedCheckBoundsTheFormsWork: a path spelled otherwise than a
// server serves it is checked in each of its normal forms, each against
// every rule a hostile file's index cannot pass over: an 8,000-byte link
// with "//", a dot segment and escapes cost eleven checks, some 0.6 s
// (limits5). Past maxCheckWork the forms left are not checked and the
// path is disallowed, failing closed; a file whose rules a check passes
// over still has every form checked.
func TestServedCheckBoundsTheFormsWork(t *testing.T) {
	const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZcdefghijklmnopqrstuvwxyz0123456789-_.~"
	var hostile, plain strings.Builder
	hostile.WriteString("User-agent: *\n")
	plain.WriteString("User-agent: *\nDisallow: /z/private\n")
	for i := 0; hostile.Len() < 500<<10-64; i++ {
		tag := string([]byte{alpha[i%64], alpha[i/64%64], alpha[i/4096%64]})
		hostile.WriteString("Disallow: /*aaaaaaaaaaaaaaab*" + tag + "\n")
		plain.WriteString("Disallow: /z" + tag + "*aaaaaaaaaaaaaaab\n")
	}
	tail := "/a//../b%2f%22c/."
	head := "/aaab" + strings.Repeat("a", 7000) + "qwertyuiopasdfghjklzxcvbnm"
	escaped := head + strings.Repeat("x", 8000-len(head)-len(tail)) + tail
	cr := Parse([]byte(hostile.String())).agentRules("ExampleBot")
	if ok, _, work := cr.check(escaped); !ok || work < 1<<25 {
		t.Fatalf("the link as written: allowed %v, work %d; want allowed, at least %d", ok, work, 1<<25)
	}
	if ok, rule := servedCheck(cr, escaped, nil); ok || rule != (Rule{}) {
		t.Errorf("a hostile file, a link spelled otherwise: %v, %+v; want disallowed, no rule: its forms cost past the bound", ok, rule)
	}
	if _, disallowed := formsCheck(cr, "/a//b", nil, maxCheckWork+1); !disallowed {
		t.Errorf("forms of a path whose own check passed the bound: allowed")
	}
	cr = Parse([]byte(plain.String())).agentRules("ExampleBot")
	for path, want := range map[string]bool{escaped: true, "/y/..//z/private": false, "/z/%70rivate": false} {
		if ok, _ := servedCheck(cr, path, nil); ok != want {
			t.Errorf("a file of many rules the check passes over, %.40q: allowed %v, want %v", path, ok, want)
		}
	}
	// So are the forms' Content-Usage rules: past the bound, train-ai=n
	// stands for the forms left (a yes every form states, else).
	var usage strings.Builder
	usage.WriteString("User-agent: *\nAllow: /\nContent-Usage: train-ai=y\n")
	for i := 0; usage.Len() < 500<<10-64; i++ {
		usage.WriteString("Content-Usage: /*aaaaaaaaaaaaaaab*" + string([]byte{alpha[i%64], alpha[i/64%64], alpha[i/4096%64]}) + " train-ai=n\n")
	}
	cr = Parse([]byte(usage.String())).agentRules("ExampleBot")
	plainPath := head + strings.Repeat("x", 8000-len(head))
	for path, want := range map[string]Pref{plainPath: PrefYes, escaped: PrefNo, "/a//b": PrefYes} {
		if got := servedUsage(cr, path).Pref("train-ai"); got != want {
			t.Errorf("Content-Usage rules a check cannot pass over, %.40q: train-ai %v, want %v", path, got, want)
		}
	}
	if forms := pathForms(escaped); len(forms) < 3 {
		t.Fatalf("%d forms", len(forms))
	} else if u, _, cut := formsUsage(nil, cr.t, cr.mode, selected, forms[0], forms[1:]); !cut || u.Pref("train-ai") != PrefNo {
		t.Errorf("a receipt's reading of the forms: cut %v, %v; want cut, train-ai=n", cut, u)
	}
}

func TestClientChecksEscapesInEitherHexCase(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: *\nDisallow: /tags/c%2b%2b\nDisallow: /a%3Bb\n"))
	c := newTestClient(t)
	for _, p := range []string{"/tags/c%2b%2b", "/tags/c%2B%2b", "/tags/c%2B%2B", "/a%3bb", "/a%3Bb/x"} {
		if d, err := c.Check(context.Background(), s.URL+p); err != nil || d.Allowed {
			t.Errorf("Check(%q) = %+v, %v; want disallowed", p, d, err)
		}
	}
}

// TestThawOfADamagedBody: a frozen entry whose body was damaged in memory
// (the size a Zstandard frame states) thaws into an error, not a panic
// or an allocation of the size it claims, and allows nothing.
func TestThawOfADamagedBody(t *testing.T) {
	checkLeaks(t)
	body := "User-agent: *\nDisallow: /\n" + strings.Repeat("# "+strings.Repeat("x", 60)+"\n", 700) // 40 KiB: Zstandard
	s := newSite(t, serve(200, body))
	c := newTestClient(t)
	if ok, err := c.Allowed(context.Background(), s.URL+"/x"); ok || err != nil {
		t.Fatalf("Allowed = %v, %v", ok, err)
	}
	e := freezeEntry(t, c, s.URL)
	if e.body[0] != codecZstd {
		t.Fatalf("the body is kept with codec %d, want Zstandard", e.body[0])
	}
	e.body[5] ^= 0x80 // in the frame's stated size
	ok, err := c.Allowed(context.Background(), s.URL+"/x")
	if ok || err == nil {
		t.Errorf("a damaged frozen body: Allowed = %v, %v; want an error", ok, err)
	}
}

// TestClientChecksWhatIsSent: the Client checks a URL's path as net/http
// sends it. A path with a byte net/url escapes ({, |, a blank, é…) is
// sent decoded and escaped again, so a rule written for what is sent
// (eBay's "Disallow: /itm/*/%7B%7B") disallows it, and the forms a
// server serves for it, as a client sends them; and one for the decoded
// path sees %70 as p and %2F as /.
func TestClientChecksWhatIsSent(t *testing.T) {
	checkLeaks(t)
	var sent atomic.Value
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /itm/*/%7B%7B\nDisallow: /x%7B/private\nDisallow: /a/b\nDisallow: /q%22\n")
			return
		}
		sent.Store(r.RequestURI)
	})
	c := newTestClient(t)
	for path, allowed := range map[string]bool{
		"/itm/123/{{title}}": false,
		"/x{/%70rivate":      false,
		"/a%2Fb|":            false,
		"/itm/123/title{":    true,
		// A form a server serves, as a client sends it.
		"//itm/1/{{title}}":     false,
		"/a/../itm/1/{{title}}": false,
		"/./q%22":               false,
		"//q\"":                 false,
		"/x{/public":            true,
	} {
		ok, err := c.Allowed(context.Background(), s.URL+path)
		if err != nil || ok != allowed {
			t.Errorf("%s: %v, %v; want %v", path, ok, err, allowed)
		}
		if _, err := s.Client().Get(s.URL + path); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s is sent as %s", path, sent.Load())
	}
}

// panicHandler is a log handler that panics on every record.
type panicHandler struct{}

func (panicHandler) Enabled(context.Context, slog.Level) bool { return true }
func (panicHandler) Handle(context.Context, slog.Record) error {
	panic("boom in the caller's log handler")
}
func (h panicHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h panicHandler) WithGroup(string) slog.Handler      { return h }

// TestPanickingLoggerDropsRecords: a log handler that panics loses its
// records and nothing else. A fill that a Store's lookup started, whose
// callers left, logs from a goroutine of its own, where a panic killed
// the process; a Transport that logs a 503's hold while it ends the
// turn held the site for the 30 s lease, not the 1 s Retry-After.
func TestPanickingLoggerDropsRecords(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, privateRules)
	s.route("/busy", serve(503, "busy", "Retry-After", "1"))
	c := newTestClient(t, WithStore(newMemStore()), WithLogger(slog.New(panicHandler{})))
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond) // sooner than the Store timeout
	_, _ = c.Allowed(ctx, s.URL+"/private")
	cancel()
	deadline := time.Now().Add(10 * time.Second)
	for c.Stats().Fetches.Rules == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // the fill, in its own goroutine
	}
	if ok, err := c.Allowed(context.Background(), s.URL+"/private"); ok || err != nil {
		t.Errorf("after the fill: Allowed %v, %v; want disallowed", ok, err)
	}

	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	hc := &http.Client{Transport: NewTransport(c, next, WithNoWait())}
	if _, err := get(context.Background(), hc, s.URL+"/busy"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // past the Retry-After
	if _, err := get(context.Background(), hc, s.URL+"/page"); err != nil {
		t.Errorf("a request after the Retry-After: %v", err)
	}
}

// TestGivenUpChecksKeepNothing: checks that give up while a fetch of
// their site hangs keep nothing once they have returned: joining the
// fill through singleflight's DoChan kept a channel for each until the
// fetch ended, about 200 bytes a check (160 MiB in three seconds of
// checks with 100 µs deadlines).
func TestGivenUpChecksKeepNothing(t *testing.T) {
	checkLeaks(t)
	p := newHostilePeer(t, func(io.Writer, <-chan struct{}) {}) // never answers
	c := newTestClient(t, WithFetchTimeout(time.Minute))
	lead, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { _, _ = c.Allowed(lead, p.url+"/x") }()
	<-p.accepted // the fetch hangs
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	var waited atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 1500 {
				ctx, cancel := context.WithTimeout(context.Background(), 200*time.Microsecond)
				if _, err := c.Allowed(ctx, p.url+"/x"); strings.Contains(fmt.Sprint(err), "waiting for") {
					waited.Add(1)
				}
				cancel()
			}
		})
	}
	wg.Wait()
	grown := int64(heap()) - int64(before)
	t.Logf("%d checks gave up waiting for the fetch; the heap grew by %d bytes", waited.Load(), grown)
	if waited.Load() < 1000 {
		t.Skipf("only %d checks waited: the machine is too slow to tell", waited.Load())
	}
	if per := grown / waited.Load(); per > 16 {
		t.Errorf("%d bytes kept a check that gave up, want none", per)
	}
}

// TestFillGoexitFailsItsChecks: a fill that ends in runtime.Goexit (a
// RoundTripper calling a test's t.FailNow) fails the checks that waited
// for it, which dereferenced the missing result and panicked, and the
// next check fills anew.
func TestFillGoexitFailsItsChecks(t *testing.T) {
	checkLeaks(t)
	var calls atomic.Int32
	next := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if calls.Add(1) == 1 {
			runtime.Goexit()
		}
		return &http.Response{StatusCode: 404, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")), Request: req}, nil
	})
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: next}))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if ok, err := c.Allowed(ctx, "http://a.test/x"); ok || err == nil {
		t.Errorf("the check of the fill that ended: %v, %v; want an error", ok, err)
	}
	if ok, err := c.Allowed(ctx, "http://a.test/x"); !ok || err != nil {
		t.Errorf("the next check: %v, %v; want a 404's allow-all", ok, err)
	}
}

// TestFailedFillKeepsNewerCopy: while a check's fill of s.test's
// robots.txt waits on a slow server that will fail, another site's
// robots.txt redirected to s.test's brings the current file (Disallow:
// /private), which the Client publishes as s.test's entry. When the slow
// fetch fails, the newer file stays: the fill published over it the copy
// it started from (which allowed /private), standing in, or, s.test
// failing past WithUnreachableAllowAfter with no copy, its allow-all.
func TestFailedFillKeepsNewerCopy(t *testing.T) {
	for _, tc := range []struct {
		name      string
		first     http.HandlerFunc // s.test's robots.txt before the slow fetch
		firstDeny bool             // its answer for /private/x: deferred, or allowed
		opts      []Option
		advance   time.Duration // past the first answer's expiry
	}{
		{"over the copy standing in", serve(200, "User-agent: *\nDisallow: /old\n", "Cache-Control", "max-age=60"), false, nil, 2 * time.Minute},
		{"over the allow-all", serve(503, "down"), true, []Option{WithUnreachableAllowAfter(time.Hour)}, 2 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			w := newHosts(t)
			var phase, n atomic.Int32
			entered, release := make(chan struct{}), make(chan struct{})
			w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
				switch {
				case phase.Load() == 0:
					tc.first(rw, r)
				case n.Add(1) == 1: // the site's own fill: slow, then an error
					close(entered)
					<-release
					rw.WriteHeader(http.StatusServiceUnavailable)
				default:
					serve(200, privateRules, "Cache-Control", "max-age=3600")(rw, r)
				}
			})
			w.on("h.test/robots.txt", redirectTo("http://s.test/robots.txt"))
			clock := newTestClock()
			c := newTestClient(t, append([]Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now)}, tc.opts...)...)
			ctx := context.Background()
			if d, _ := c.Check(ctx, "http://s.test/private/x"); d.Allowed == tc.firstDeny || d.Deferred != tc.firstDeny {
				t.Fatalf("the first answer: %+v", d)
			}
			clock.Advance(tc.advance)
			phase.Store(1)
			got := make(chan Decision, 1)
			go func() {
				d, _ := c.Check(ctx, "http://s.test/private/x")
				got <- d
			}()
			<-entered
			if _, err := c.Allowed(ctx, "http://h.test/"); err != nil {
				t.Fatalf("h.test: %v", err)
			}
			if d, err := c.Check(ctx, "http://s.test/private/x"); d.Allowed || err != nil {
				t.Fatalf("after the file was read through h.test's redirect: allowed %v, %v (want its disallow)", d.Allowed, err)
			}
			close(release)
			<-got
			if d, err := c.Check(ctx, "http://s.test/private/x"); d.Allowed {
				t.Errorf("after the slow fetch failed: /private/x allowed (outcome %v, stale %v, failures %d, expires %v, %v); the Client had read the site's file (Disallow: /private, fresh for 1h) since",
					d.Outcome, d.Stale, d.Failures, d.Expires, err)
			}
		})
	}
}

// TestFailedFillUnderLeaseTellsStore: s.test's robots.txt fails (503).
// A check's own fill of it, which holds the Store's lease, waits on the
// slow server; meanwhile a redirect of h.test's robots.txt to a page of
// s.test needs s.test's robots.txt: the hop's fill (which does not hold
// the lease) meets the same 503 and keeps it in memory only. The own
// fill, whose failure gives way to that newer entry, stores it under its
// lease: another process of the fleet does not ask s.test again within
// the back-off.
func TestFailedFillUnderLeaseTellsStore(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	entered, release := make(chan struct{}), make(chan struct{})
	var n atomic.Int32
	w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 { // the site's own fill: slow, then an error
			close(entered)
			<-release
		}
		rw.WriteHeader(http.StatusServiceUnavailable)
	})
	w.on("h.test/robots.txt", redirectTo("http://s.test/page"))
	w.on("s.test/page", serve(200, "User-agent: *\nAllow: /\n"))
	store := newMemStore()
	opts := []Option{WithStore(store), WithBackoff(time.Hour, time.Hour), WithHTTPClient(&http.Client{Transport: w.transport(t)})}
	c1 := newTestClient(t, opts...)
	ctx := context.Background()
	got := make(chan error, 1)
	go func() {
		_, err := c1.Allowed(ctx, "http://s.test/x")
		got <- err
	}()
	<-entered
	if _, err := c1.Allowed(ctx, "http://h.test/"); !errors.Is(err, ErrDeferred) {
		t.Logf("h.test: %v", err)
	}
	close(release)
	if err := <-got; !errors.Is(err, ErrDeferred) {
		t.Fatalf("s.test's own check: %v, want deferred", err)
	}
	before := w.count("http://s.test/robots.txt")
	c2 := newTestClient(t, opts...)
	d, err := c2.Check(ctx, "http://s.test/x")
	after := w.count("http://s.test/robots.txt")
	t.Logf("process 2: deferred %v failures %d expires %v, %v", d.Deferred, d.Failures, d.Expires, err)
	if after != before {
		t.Errorf("another process asked s.test's robots.txt again at once (%d requests, then %d): the 503 its own fill met under the lease, with a back-off of an hour, never reached the Store", before, after)
	}
}

// TestFailedFillUnderLeaseStoresItsBackoff: s.test's robots.txt
// was fetched (Disallow: /private, fresh for a minute) and stored. Past its
// freshness, a new process's own check of s.test holds the Store's lease and
// waits on the now-failing server (503); a redirect of h.test's robots.txt
// to s.test meanwhile needs s.test's robots.txt: the hop (without the lease)
// meets the 503 and keeps the Store's last good copy standing in, capped at
// the least freshness (a minute), as the Store may hold newer rules. The
// own fill, under the lease, stores its own back-off (an hour), not that
// capped stand-in: the fleet does not ask the failing server again a
// minute later.
func TestFailedFillUnderLeaseStoresItsBackoff(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	entered, release := make(chan struct{}), make(chan struct{})
	var n atomic.Int32
	w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1: // the first process's fetch: the file
			rw.Header().Set("Cache-Control", "max-age=60")
			_, _ = rw.Write([]byte("User-agent: *\nDisallow: /private\n"))
			return
		case 2: // the second process's own fill: slow, then an error
			close(entered)
			<-release
		}
		rw.WriteHeader(http.StatusServiceUnavailable)
	})
	w.on("h.test/robots.txt", redirectTo("http://s.test/page"))
	w.on("s.test/page", serve(200, "User-agent: *\nAllow: /\n"))
	store := newMemStore()
	clock := newTestClock()
	opts := []Option{WithStore(store), WithClock(clock.Now), WithBackoff(time.Hour, time.Hour),
		WithMinFreshness(time.Minute), WithHTTPClient(&http.Client{Transport: w.transport(t)})}
	ctx := context.Background()
	c0 := newTestClient(t, opts...)
	if d, err := c0.Check(ctx, "http://s.test/private"); err != nil || d.Allowed {
		t.Fatalf("first process: %+v, %v", d, err)
	}
	clock.Advance(2 * time.Minute) // the stored copy expired

	c1 := newTestClient(t, opts...)
	got := make(chan error, 1)
	go func() {
		_, err := c1.Allowed(ctx, "http://s.test/x")
		got <- err
	}()
	<-entered
	_, herr := c1.Allowed(ctx, "http://h.test/")
	t.Logf("h.test: %v", herr)
	close(release)
	if err := <-got; err != nil {
		t.Logf("s.test's own check: %v", err)
	}
	d1, _ := c1.Check(ctx, "http://s.test/x")
	t.Logf("process 1 after its failed fill: stale %v failures %d expires in %v", d1.Stale, d1.Failures, d1.Expires.Sub(clock.Now()))
	before := n.Load()

	clock.Advance(2 * time.Minute) // well within the hour's back-off
	c2 := newTestClient(t, opts...)
	d2, err := c2.Check(ctx, "http://s.test/x")
	after2 := n.Load()
	t.Logf("process 2: stale %v failures %d, %v", d2.Stale, d2.Failures, err)
	if after2 != before {
		t.Errorf("another process asked s.test's failing robots.txt again 2 minutes later (%d requests, then %d): the Store holds the hop's stand-in capped at the least freshness, not the own fill's back-off of an hour", before, after2)
	}
	_, _ = c1.Check(ctx, "http://s.test/x")
	if after1 := n.Load(); after1 != after2 {
		t.Errorf("process 1 itself asked s.test's failing robots.txt again 2 minutes later, within its back-off of an hour")
	}
}

// TestLeaseWaitKeepsNewerCopy: two processes (P and Q)
// share a Store with leases. s.test's robots.txt v1 (Disallow: /old) is
// cached by both and has expired; the site now serves v2 (Disallow:
// /private). Q's check takes the lease and its fetch hangs on a slow
// backend. P's check of s.test waits for Q's lease. Meanwhile P reads v2
// through h.test's robots.txt, which redirects to s.test's (keepTheirs
// publishes it as s.test's own entry, and P answers /private/x
// disallowed). Q's slow fetch then fails (503) and Q stores its last good
// copy, v1, standing in. P's lease wait found that stand-in and put it,
// unconditionally, over the v2 it had read: /private/x was allowed again
// (cache7).
func TestLeaseWaitKeepsNewerCopy(t *testing.T) {
	checkLeaks(t)
	p, _, v2 := leaseWaitScenario(t)
	d, err := p.Check(context.Background(), "http://s.test/private/x")
	if d.Allowed {
		t.Errorf("P after its lease wait: /private/x allowed (stale %v, fetched %v, failures %d, expires %v, %v) by v1, "+
			"which another process's failed fetch stored standing in; P had read v2 (Disallow: /private, fetched %v, fresh for 1h) since",
			d.Stale, d.FetchedAt, d.Failures, d.Expires, err, v2)
	}
}

// TestLeasedFailureKeepsNewerStoredCopy: the same run,
// seen by a third process R that starts after it: the Store held v2,
// which P wrote (keepTheirs) while Q's fetch hung under the lease; Q's
// failure then wrote its stand-in of v1 over it, unconditionally. R,
// with no copy of its own, answered from that stand-in: /private/x
// allowed for the fleet, though v2 had reached the Store (cache7).
func TestLeasedFailureKeepsNewerStoredCopy(t *testing.T) {
	checkLeaks(t)
	_, newClient, v2 := leaseWaitScenario(t)
	r := newClient()
	d, err := r.Check(context.Background(), "http://s.test/private/x")
	if d.Allowed {
		t.Errorf("a new process R: /private/x allowed (stale %v, fetched %v, failures %d, expires %v, %v) by the Store's v1 stand-in, "+
			"written by a failed fetch over v2 (Disallow: /private, fetched %v, fresh for 1h) which another process had stored meanwhile",
			d.Stale, d.FetchedAt, d.Failures, d.Expires, err, v2)
	}
}

// leaseWaitScenario runs the scenario above and returns P, a maker
// of more Clients (processes) on the same Store, hosts and clock, and
// when v2 was read.
func leaseWaitScenario(t *testing.T) (*Client, func() *Client, time.Time) {
	w := newHosts(t)
	var phase, n atomic.Int32
	entered, release := make(chan struct{}), make(chan struct{})
	w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		switch {
		case phase.Load() == 0:
			serve(200, "User-agent: *\nDisallow: /old\n", "Cache-Control", "max-age=60")(rw, r)
		case n.Add(1) == 1: // Q's fetch under the lease: slow, then an error
			close(entered)
			<-release
			rw.WriteHeader(http.StatusServiceUnavailable)
		default: // the site's current file
			serve(200, privateRules, "Cache-Control", "max-age=3600")(rw, r)
		}
	})
	w.on("h.test/robots.txt", redirectTo("http://s.test/robots.txt"))
	clock := newTestClock()
	store := newMemStore()
	opts := func() []Option {
		return []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now),
			WithStore(store), WithLeaseWait(20*time.Second, 2*time.Second)}
	}
	newClient := func() *Client { return newTestClient(t, opts()...) }
	q := newClient()
	p := newTestClient(t, opts()...)
	ctx := context.Background()
	expireFirstCopy(t, clock, &phase, q, p)

	qDone := make(chan Decision, 1)
	go func() {
		d, _ := q.Check(ctx, "http://s.test/private/x")
		qDone <- d
	}()
	<-entered // Q holds the lease, its fetch hangs

	pDone := make(chan Decision, 1)
	go func() {
		d, _ := p.Check(ctx, "http://s.test/private/x")
		pDone <- d
	}()
	for deadline := time.Now().Add(5 * time.Second); p.Stats().Store.LeaseWaits == 0; {
		if time.Now().After(deadline) {
			t.Fatal("P never waited for Q's lease")
		}
		time.Sleep(time.Millisecond)
	}

	// P reads v2 through h.test's redirect.
	if _, err := p.Allowed(ctx, "http://h.test/"); err != nil {
		t.Fatalf("h.test: %v", err)
	}
	if d, err := p.Check(ctx, "http://s.test/private/x"); d.Allowed || err != nil {
		t.Fatalf("after P read v2 through h.test: allowed %v (fetched %v), %v; want v2's disallow", d.Allowed, d.FetchedAt, err)
	}
	v2 := clock.Now().Truncate(time.Millisecond)

	close(release) // Q's fetch fails: Q stores v1 standing in
	dq := <-qDone
	t.Logf("Q: allowed %v stale %v fetched %v failures %d", dq.Allowed, dq.Stale, dq.FetchedAt, dq.Failures)
	dp := <-pDone
	t.Logf("P's waiting check: allowed %v stale %v fetched %v failures %d", dp.Allowed, dp.Stale, dp.FetchedAt, dp.Failures)
	return p, newClient, v2
}

// heldGetStore is a memStore whose next Get of a key holding match, once
// armed, reads the value and then takes its time to answer (until
// released, or its context ends): a Store's round trip. Meanwhile the
// other Gets of such keys fail, as a Store slow for a moment fails the
// calls past their timeout: a hop there then fetches the file, rather
// than take the stored copy (see Client.theirs).
type heldGetStore struct {
	*memStore
	match             string
	armed, holding    atomic.Bool
	entered, released chan struct{}
}

func (s *heldGetStore) Get(ctx context.Context, key string) ([]byte, error) {
	if strings.Contains(key, s.match) && s.holding.Load() {
		return nil, errors.New("store: timed out")
	}
	if !strings.Contains(key, s.match) || !s.armed.CompareAndSwap(true, false) {
		return s.memStore.Get(ctx, key)
	}
	b, err := s.memStore.Get(ctx, key) // read now, answered later
	s.holding.Store(true)
	defer s.holding.Store(false)
	close(s.entered)
	select {
	case <-s.released:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return b, err
}

// TestFillLookupKeepsNewerCopy: as TestLeaseWaitKeepsNewerCopy, for the
// fill's own look in the Store (review72). Q's fetch of s.test stored
// either its stand-in of v1 (Disallow: /old, the site failing) or v1
// again, fresh for an hour. P's v1 has expired; P's check of s.test
// looks in the Store; while that Get is in flight, P reads v2 (Disallow:
// /private) through h.test's redirect, publishes it and writes it to
// the Store (keepTheirs). The Get then answered with Q's entry, which
// the fill put, unconditionally, over v2 in memory: /private/x allowed
// again, for the stand-in's back-off or v1's hour, though P read v2 a
// moment before and the Store holds v2 (review72, review73).
func TestFillLookupKeepsNewerCopy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		q     http.HandlerFunc                 // s.test's answer to Q's fetch
		qSaid func(d Decision, err error) bool // what Q must then answer
	}{
		{"a stand-in", func(rw http.ResponseWriter, r *http.Request) { rw.WriteHeader(http.StatusServiceUnavailable) },
			func(d Decision, err error) bool { return d.Stale && err == nil }},
		{"a good copy", serve(200, "User-agent: *\nDisallow: /old\n", "Cache-Control", "max-age=3600"),
			func(d Decision, err error) bool { return d.Allowed && !d.Stale && err == nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			w := newHosts(t)
			var phase atomic.Int32
			w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
				switch phase.Load() {
				case 0:
					serve(200, "User-agent: *\nDisallow: /old\n", "Cache-Control", "max-age=60")(rw, r)
				case 1: // Q's fetch
					tc.q(rw, r)
				default:
					serve(200, privateRules, "Cache-Control", "max-age=3600")(rw, r)
				}
			})
			w.on("h.test/robots.txt", redirectTo("http://s.test/robots.txt"))
			clock := newTestClock()
			store := &heldGetStore{memStore: newMemStore(), match: "s.test", entered: make(chan struct{}), released: make(chan struct{})}
			opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now),
				WithStore(store), WithStoreTimeout(5 * time.Second)}
			q, p := newTestClient(t, opts...), newTestClient(t, opts...)
			ctx := context.Background()
			expireFirstCopy(t, clock, &phase, q, p)
			if d, err := q.Check(ctx, "http://s.test/private/x"); !tc.qSaid(d, err) {
				t.Fatalf("Q, phase 1: %+v %v", d, err)
			}
			phase.Store(2) // the site's current file, v2

			d0, dv, d, err := lookWhileChainReads(t, p, store)
			if dv.Allowed {
				t.Fatalf("after P read v2 through h.test: %+v; want v2's disallow", dv)
			}
			if d0.Allowed || d.Allowed {
				t.Errorf("P after its fill's Store look: /private/x allowed (the waiting check: %v, stale %v; the next: %v, stale %v, failures %d, %v) by Q's v1, "+
					"put over v2 which P had read through h.test and written to the Store meanwhile", d0.Allowed, d0.Stale, d.Allowed, d.Stale, d.Failures, err)
			}
		})
	}
}

// expireFirstCopy has each of cs read s.test's first robots.txt, v1
// (which allows /private/x), then lets it expire and turns phase to 1.
func expireFirstCopy(t *testing.T, clock *testClock, phase *atomic.Int32, cs ...*Client) {
	t.Helper()
	for _, c := range cs {
		if d, err := c.Check(context.Background(), "http://s.test/private/x"); !d.Allowed || err != nil {
			t.Fatalf("v1: %+v %v", d, err)
		}
	}
	clock.Advance(2 * time.Minute)
	phase.Store(1)
}

// lateGetStore is a Store (not a Leaser) whose next Get of a key holding
// match, once armed, waits until released and only then reads the value:
// a Get queued behind others (a busy connection pool), which reads the
// Store later than it was asked.
type lateGetStore struct {
	m                 *memStore
	match             string
	armed             atomic.Bool
	entered, released chan struct{}
}

func (s *lateGetStore) Get(ctx context.Context, key string) ([]byte, error) {
	if strings.Contains(key, s.match) && s.armed.CompareAndSwap(true, false) {
		close(s.entered)
		select {
		case <-s.released:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return s.m.Get(ctx, key)
}

func (s *lateGetStore) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	return s.m.Set(ctx, key, value, ttl)
}

// TestFillLookupTakesNewerStoredAnswer: P's copy of
// s.test (v1) is a month old: too old to stand in for a failure. P's
// check looks in the Store; while the Get is queued, P's hop through
// h.test's redirect to s.test/rules finds s.test's robots.txt failing
// (503) and publishes the failure, for its back-off. Seconds later s.test
// is back with v2; Q fetches it and stores it. P's Store look then reads
// v2, checked after P's failure: the newer answer. putOver kept the
// failure because it had not expired, whatever its checked time: P's
// check, which read v2, was deferred, and so was every check of s.test
// for the back-off, though the Store held v2 fetched after the failure
// (review74). putNewer takes the Store's answer checked after it.
func TestFillLookupTakesNewerStoredAnswer(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var phase atomic.Int32
	w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		switch phase.Load() {
		case 0:
			serve(200, "User-agent: *\nDisallow: /old\n", "Cache-Control", "max-age=60")(rw, r)
		case 1:
			rw.WriteHeader(http.StatusServiceUnavailable)
		default:
			serve(200, privateRules, "Cache-Control", "max-age=3600")(rw, r)
		}
	})
	w.on("s.test/rules", serve(200, "User-agent: *\nDisallow:\n"))
	w.on("h.test/robots.txt", redirectTo("http://s.test/rules"))
	clock := newTestClock()
	store := &lateGetStore{m: newMemStore(), match: "s.test", entered: make(chan struct{}), released: make(chan struct{})}
	opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now),
		WithStore(store), WithStoreTimeout(5 * time.Second)}
	q, p := newTestClient(t, opts...), newTestClient(t, opts...)
	ctx := context.Background()
	for _, c := range []*Client{q, p} {
		if d, err := c.Check(ctx, "http://s.test/public/x"); !d.Allowed || err != nil {
			t.Fatalf("v1: %+v %v", d, err)
		}
	}
	clock.Advance(31 * 24 * time.Hour) // v1 is past the stale window
	phase.Store(1)                     // s.test fails

	store.armed.Store(true)
	pDone := make(chan error, 1)
	go func() {
		_, err := p.Allowed(ctx, "http://s.test/public/x")
		pDone <- err
	}()
	<-store.entered // P's fill asks the Store; the Get is queued

	_, herr := p.Allowed(ctx, "http://h.test/") // the hop finds s.test failing
	ds, err := p.Check(ctx, "http://s.test/public/x")
	t.Logf("h.test: %v; P's s.test meanwhile: allowed %v failures %d checked %v, %v", herr, ds.Allowed, ds.Failures, ds.CheckedAt, err)
	if ds.Failures == 0 {
		t.Skipf("the hop published no failure: %+v", ds)
	}

	store.m.clearValues() // the hop's failure, which a Store without leases hears of, lost: Q fetches
	clock.Advance(5 * time.Second)
	phase.Store(2) // s.test is back, with v2
	dq, err := q.Check(ctx, "http://s.test/public/x")
	if !dq.Allowed || err != nil {
		t.Fatalf("Q, v2: %+v %v", dq, err)
	}

	close(store.released) // P's Get now reads v2, stored by Q after P's failure
	err0 := <-pDone
	d, err := p.Check(ctx, "http://s.test/public/x")
	if err0 != nil || err != nil || !d.Allowed {
		t.Errorf("P after its fill's Store look read v2 (checked %v): the waiting check: %v; the next: allowed %v failures %d checked %v, %v; "+
			"want v2's answer, not P's failure of %v kept over it", dq.CheckedAt, err0, d.Allowed, d.Failures, d.CheckedAt, err, ds.CheckedAt)
	}
}

// TestFirstLookTakesNewerStoredAnswer: the same as
// TestFillLookupTakesNewerStoredAnswer for a check of a
// site P has no entry for, whose Store look is current's, not the
// fill's: the hop's failure, published while the Get was queued, was
// kept over the Store's v2 fetched after it (review74).
func TestFirstLookTakesNewerStoredAnswer(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var phase atomic.Int32
	w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if phase.Load() == 1 {
			rw.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		serve(200, privateRules, "Cache-Control", "max-age=3600")(rw, r)
	})
	w.on("s.test/rules", serve(200, "User-agent: *\nDisallow:\n"))
	w.on("h.test/robots.txt", redirectTo("http://s.test/rules"))
	clock := newTestClock()
	store := &lateGetStore{m: newMemStore(), match: "s.test", entered: make(chan struct{}), released: make(chan struct{})}
	opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now),
		WithStore(store), WithStoreTimeout(5 * time.Second)}
	q, p := newTestClient(t, opts...), newTestClient(t, opts...)
	ctx := context.Background()
	phase.Store(1) // s.test fails

	store.armed.Store(true)
	pDone := make(chan error, 1)
	go func() {
		_, err := p.Allowed(ctx, "http://s.test/public/x")
		pDone <- err
	}()
	<-store.entered

	_, herr := p.Allowed(ctx, "http://h.test/")
	ds, _ := p.Check(ctx, "http://s.test/public/x")
	t.Logf("h.test: %v; P's s.test meanwhile: failures %d", herr, ds.Failures)
	if ds.Failures == 0 {
		t.Skipf("the hop published no failure: %+v", ds)
	}
	store.m.clearValues() // the hop's failure, which a Store without leases hears of, lost: Q fetches
	clock.Advance(5 * time.Second)
	phase.Store(2)
	dq, err := q.Check(ctx, "http://s.test/public/x")
	if !dq.Allowed || err != nil {
		t.Fatalf("Q: %+v %v", dq, err)
	}
	close(store.released)
	err0 := <-pDone
	d, err := p.Check(ctx, "http://s.test/public/x")
	if err0 != nil || err != nil || !d.Allowed {
		t.Errorf("P's first check read the Store's file (checked %v) but answered %v; the next: allowed %v failures %d, %v: the failure of %v kept over it",
			dq.CheckedAt, err0, d.Allowed, d.Failures, err, ds.CheckedAt)
	}
}

// TestLeaseWaitTakesNewerStoredAnswer: the lease-wait
// form, with an ordinary leasing Store. Q holds s.test's lease and
// fetches; P's check waits for Q's result. Meanwhile P's hop through
// h.test's redirect to s.test/rules, which does not wait for the lease,
// finds s.test's robots.txt failing (503) and publishes the failure. Q's
// fetch then gets v2 (5 s later) and stores it; P's wait reads it. The
// fill kept P's failure, unexpired, over the answer it waited for: P's
// check failed, and so did every check of s.test for the back-off,
// though the Store held v2, fetched after the failure (review74).
func TestLeaseWaitTakesNewerStoredAnswer(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var n atomic.Int32
	entered, release := make(chan struct{}), make(chan struct{})
	w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1: // Q's fetch under the lease: slow, then v2
			close(entered)
			<-release
			serve(200, privateRules, "Cache-Control", "max-age=3600")(rw, r)
		case 2: // P's hop, meanwhile
			rw.WriteHeader(http.StatusServiceUnavailable)
		default:
			serve(200, privateRules, "Cache-Control", "max-age=3600")(rw, r)
		}
	})
	w.on("s.test/rules", serve(200, "User-agent: *\nDisallow:\n"))
	w.on("h.test/robots.txt", redirectTo("http://s.test/rules"))
	clock := newTestClock()
	store := newMemStore()
	opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now),
		WithStore(store), WithLeaseWait(20*time.Second, 2*time.Millisecond)}
	q, p := newTestClient(t, opts...), newTestClient(t, opts...)
	ctx := context.Background()

	qDone := make(chan error, 1)
	go func() {
		_, err := q.Allowed(ctx, "http://s.test/public/x")
		qDone <- err
	}()
	<-entered // Q holds the lease, its fetch hangs
	pDone := make(chan error, 1)
	go func() {
		_, err := p.Allowed(ctx, "http://s.test/public/x")
		pDone <- err
	}()
	for deadline := time.Now().Add(5 * time.Second); p.Stats().Store.LeaseWaits == 0; {
		if time.Now().After(deadline) {
			t.Fatal("P never waited for Q's lease")
		}
		time.Sleep(time.Millisecond)
	}
	_, herr := p.Allowed(ctx, "http://h.test/") // the hop finds s.test failing
	t.Logf("h.test: %v", herr)

	clock.Advance(5 * time.Second)
	close(release) // Q's fetch gets v2, stored
	if err := <-qDone; err != nil {
		t.Fatalf("Q: %v", err)
	}
	err0 := <-pDone
	d, err := p.Check(ctx, "http://s.test/public/x")
	if err0 != nil || err != nil || !d.Allowed {
		t.Errorf("P waited for Q's lease, whose result is v2: the waiting check %v; the next: allowed %v failures %d checked %v, %v: "+
			"P's hop failure kept over the answer it waited for", err0, d.Allowed, d.Failures, d.CheckedAt, err)
	}
}

// chainHosts serves the web of the chain tests: www.s.test's
// robots.txt is v2 (Disallow: /private), s.test's is v1 (Disallow: /old)
// until moved, then a redirect to www.s.test's robots.txt (as sites do
// to their canonical host); h.test's robots.txt redirects to s.test's.
// moved, when set, decides s.test's answer after phase 0.
func chainHosts(t *testing.T, phase *atomic.Int32, moved http.HandlerFunc) *hosts {
	w := newHosts(t)
	w.on("www.s.test/robots.txt", serve(200, privateRules, "Cache-Control", "max-age=3600"))
	w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if phase.Load() == 0 {
			serve(200, "User-agent: *\nDisallow: /old\n", "Cache-Control", "max-age=60")(rw, r)
			return
		}
		moved(rw, r)
	})
	w.on("h.test/robots.txt", redirectTo("http://s.test/robots.txt"))
	return w
}

// TestLeaseWaitKeepsChainCopyOverOlderStandIn: the cache7
// scenario (TestLeaseWaitKeepsNewerCopy), where the answer P reads
// through h.test comes by way of s.test's redirect to www.s.test, whose
// robots.txt P holds fresh: keepTheirs publishes as s.test's own entry a
// clone of www.s.test's, with www.s.test's checked stamp (minutes old),
// and writes nothing to the Store. Q's fetch under the lease then fails
// and stores its stand-in of v1 (checked now). P's lease wait reads it
// and putNewer put it over the chain's answer, which it took for older
// by its stamp (review75): /private/x allowed again by v1, for the stand-in's
// back-off, though P read, a second before Q's fetch failed, that
// s.test's robots.txt is now www.s.test's, which disallows it. putOver
// (905d5f4~1) kept the chain's fresh answer.
func TestLeaseWaitKeepsChainCopyOverOlderStandIn(t *testing.T) {
	checkLeaks(t)
	var phase, n atomic.Int32
	entered, release := make(chan struct{}), make(chan struct{})
	w := chainHosts(t, &phase, func(rw http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 { // Q's fetch under the lease: slow, then an error
			close(entered)
			<-release
			rw.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		http.Redirect(rw, r, "http://www.s.test/robots.txt", http.StatusMovedPermanently)
	})
	clock := newTestClock()
	store := newMemStore()
	opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now),
		WithStore(store), WithLeaseWait(20*time.Second, 2*time.Millisecond)}
	q, p := newTestClient(t, opts...), newTestClient(t, opts...)
	ctx := context.Background()
	for _, c := range []*Client{q, p} {
		if d, err := c.Check(ctx, "http://s.test/private/x"); !d.Allowed || err != nil {
			t.Fatalf("v1: %+v %v", d, err)
		}
	}
	if d, err := p.Check(ctx, "http://www.s.test/private/x"); d.Allowed || err != nil {
		t.Fatalf("www.s.test: %+v %v", d, err)
	}
	clock.Advance(2 * time.Minute) // s.test's v1 has expired; www.s.test's copy is fresh for the hour
	phase.Store(1)

	qDone := make(chan Decision, 1)
	go func() {
		d, _ := q.Check(ctx, "http://s.test/private/x")
		qDone <- d
	}()
	<-entered // Q holds the lease, its fetch hangs
	pDone := make(chan Decision, 1)
	go func() {
		d, _ := p.Check(ctx, "http://s.test/private/x")
		pDone <- d
	}()
	for deadline := time.Now().Add(5 * time.Second); p.Stats().Store.LeaseWaits == 0; {
		if time.Now().After(deadline) {
			t.Fatal("P never waited for Q's lease")
		}
		time.Sleep(time.Millisecond)
	}
	clock.Advance(time.Second)
	// P reads, through h.test, that s.test's robots.txt is www.s.test's.
	if _, err := p.Allowed(ctx, "http://h.test/"); err != nil {
		t.Fatalf("h.test: %v", err)
	}
	dc, err := p.Check(ctx, "http://s.test/private/x")
	if dc.Allowed || err != nil {
		t.Fatalf("after P read s.test's redirect to www.s.test through h.test: %+v %v; want www.s.test's disallow", dc, err)
	}
	t.Logf("P's s.test through the chain: checked %v (read at %v), expires %v", dc.CheckedAt, clock.Now(), dc.Expires)

	clock.Advance(time.Second)
	close(release) // Q's fetch fails: Q stores v1 standing in
	dq := <-qDone
	t.Logf("Q: allowed %v stale %v fetched %v checked %v failures %d", dq.Allowed, dq.Stale, dq.FetchedAt, dq.CheckedAt, dq.Failures)
	dp := <-pDone
	d, err := p.Check(ctx, "http://s.test/private/x")
	if dp.Allowed || d.Allowed {
		t.Errorf("P after its lease wait: /private/x allowed (the waiting check: %v stale %v; the next: %v stale %v fetched %v checked %v failures %d, %v) "+
			"by Q's stand-in of v1, put over the answer P read through h.test a second before Q's fetch failed (www.s.test's rules, stamped checked %v)",
			dp.Allowed, dp.Stale, d.Allowed, d.Stale, d.FetchedAt, d.CheckedAt, d.Failures, err, dc.CheckedAt)
	}
}

// TestFillLookupKeepsChainCopyOverOlderGoodCopy: the same for the
// fill's own Store look (TestFillLookupKeepsNewerCopy's good copy, review73,
// with s.test's answer reached through its redirect to www.s.test): Q
// stored v1, fresh for an hour; then s.test moved its robots.txt to
// www.s.test. P's check looks in the Store; while the Get is in flight, P
// reads through h.test that s.test's robots.txt is now www.s.test's. The
// Get answers with Q's v1, checked after www.s.test's copy was: putNewer
// put it over the chain's answer, and /private/x was allowed again for
// the hour v1 is fresh (review75).
func TestFillLookupKeepsChainCopyOverOlderGoodCopy(t *testing.T) {
	checkLeaks(t)
	var phase atomic.Int32
	w := chainHosts(t, &phase, func(rw http.ResponseWriter, r *http.Request) {
		if phase.Load() == 1 { // Q's fetch: still v1, for an hour
			serve(200, "User-agent: *\nDisallow: /old\n", "Cache-Control", "max-age=3600")(rw, r)
			return
		}
		http.Redirect(rw, r, "http://www.s.test/robots.txt", http.StatusMovedPermanently)
	})
	clock := newTestClock()
	store := &heldGetStore{memStore: newMemStore(), match: "//s.test", entered: make(chan struct{}), released: make(chan struct{})}
	opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now),
		WithStore(store), WithStoreTimeout(5 * time.Second)}
	q, p := newTestClient(t, opts...), newTestClient(t, opts...)
	ctx := context.Background()
	if d, err := p.Check(ctx, "http://s.test/private/x"); !d.Allowed || err != nil {
		t.Fatalf("P, v1: %+v %v", d, err)
	}
	if d, err := p.Check(ctx, "http://www.s.test/private/x"); d.Allowed || err != nil {
		t.Fatalf("www.s.test: %+v %v", d, err)
	}
	clock.Advance(2 * time.Minute)
	phase.Store(1)
	if d, err := q.Check(ctx, "http://s.test/private/x"); !d.Allowed || d.Stale || err != nil {
		t.Fatalf("Q, v1 again: %+v %v", d, err)
	}
	clock.Advance(time.Second)
	phase.Store(2) // s.test's robots.txt is now www.s.test's

	d0, dc, d, err := lookWhileChainReads(t, p, store)
	if dc.Allowed {
		t.Fatalf("after P read s.test's redirect through h.test: %+v %v; want www.s.test's disallow", dc, nil)
	}
	if d0.Allowed || d.Allowed {
		t.Errorf("P after its fill's Store look: /private/x allowed (the waiting check: %v; the next: %v, fetched %v, checked %v, %v) by Q's v1, "+
			"put over the answer P read through h.test after Q's fetch (www.s.test's rules, stamped checked %v)",
			d0.Allowed, d.Allowed, d.FetchedAt, d.CheckedAt, err, dc.CheckedAt)
	}
}

// TestFillLookupKeepsNewerCopyOverSkewedStandIn: the scenario of
// TestFillLookupKeepsNewerCopy (review72) with Q's clock 30 s ahead of
// P's, within the minute of skew the Store accepts (maxClockSkew). Q's
// fetch fails and stores its stand-in of v1, checked at Q's time. P's
// check looks in the Store and reads it; while that Get is in flight, P
// reads v2 through h.test, publishes it and writes it to the Store. The
// stand-in, checked "later" by Q's clock, went over v2 (review75): /private/x
// was allowed by v1's rules, fetched minutes before v2, though the Store
// holds v2. keepGood would have let v2, the newer good copy, stand in;
// putOver (905d5f4~1) kept it.
func TestFillLookupKeepsNewerCopyOverSkewedStandIn(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var phase atomic.Int32
	w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		switch phase.Load() {
		case 0:
			serve(200, "User-agent: *\nDisallow: /old\n", "Cache-Control", "max-age=60")(rw, r)
		case 1: // Q's fetch
			rw.WriteHeader(http.StatusServiceUnavailable)
		default:
			serve(200, privateRules, "Cache-Control", "max-age=3600")(rw, r)
		}
	})
	w.on("h.test/robots.txt", redirectTo("http://s.test/robots.txt"))
	clock := newTestClock()
	qClock := func() time.Time { return clock.Now().Add(30 * time.Second) }
	store := &heldGetStore{memStore: newMemStore(), match: "s.test", entered: make(chan struct{}), released: make(chan struct{})}
	common := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithStore(store), WithStoreTimeout(5 * time.Second)}
	q := newTestClient(t, append(common, WithClock(qClock))...)
	p := newTestClient(t, append(common, WithClock(clock.Now))...)
	ctx := context.Background()
	expireFirstCopy(t, clock, &phase, q, p)
	dq, err := q.Check(ctx, "http://s.test/private/x")
	if !dq.Stale || err != nil {
		t.Fatalf("Q, s.test failing: %+v %v; want v1 standing in", dq, err)
	}
	clock.Advance(time.Second) // P's read of v2 comes a second after Q's failure
	phase.Store(2)

	d0, dv, d, err := lookWhileChainReads(t, p, store)
	if dv.Allowed {
		t.Fatalf("after P read v2 through h.test: %+v %v; want v2's disallow", dv, nil)
	}
	if d0.Allowed || d.Allowed {
		t.Errorf("P after its fill's Store look: /private/x allowed (the waiting check: %v stale %v; the next: %v stale %v fetched %v checked %v, %v) "+
			"by Q's stand-in of v1 (fetched %v, checked %v by Q's clock, 30 s ahead), put over v2 (fetched %v) which P read a second after Q's failure",
			d0.Allowed, d0.Stale, d.Allowed, d.Stale, d.FetchedAt, d.CheckedAt, err, dq.FetchedAt, dq.CheckedAt, dv.FetchedAt)
	}
}

// roundTripGatedStore is P's view of a shared memStore whose Get and
// Lease wait while gated: its round trips, slow for a moment.
type roundTripGatedStore struct {
	*memStore
	gate atomic.Pointer[chan struct{}]
}

func (s *roundTripGatedStore) wait(ctx context.Context, key string) error {
	if g := s.gate.Load(); g != nil && strings.Contains(key, "s.test") {
		select {
		case <-*g:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func (s *roundTripGatedStore) Get(ctx context.Context, key string) ([]byte, error) {
	if err := s.wait(ctx, key); err != nil {
		return nil, err
	}
	return s.memStore.Get(ctx, key)
}

func (s *roundTripGatedStore) Lease(ctx context.Context, key string, ttl time.Duration) (func(), bool, error) {
	if err := s.wait(ctx, key); err != nil {
		return nil, false, err
	}
	return s.memStore.Lease(ctx, key, ttl)
}

// TestLeaseWaitTakesStoredGoodCopyOverOwnFailure: Q holds
// s.test's lease and fetches; P's check waits for it. P's hop (h.test's
// robots.txt redirects to s.test/rules) does not wait and fetches s.test's
// robots.txt too. Q's fetch gets v2 and stores it; a second later the
// hop's fetch gets a 503 with Retry-After: 3600 and publishes the failure
// for its back-off. P's wait then reads v2: putNewer kept the failure,
// checked after v2 (review75). P's waiting check and every check of s.test for the
// hour are deferred, though v2, fetched a second before the failure and
// fresh for the hour, is in the Store (and the last good copy stands in
// for an unreachable server). In one process the same order keeps v2:
// the hop's failure gives way to a fresh answer published since
// (putOver), so the outcome depends on whether v2 came from this process
// or another.
func TestLeaseWaitTakesStoredGoodCopyOverOwnFailure(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var n atomic.Int32
	qIn, qGo := make(chan struct{}), make(chan struct{})
	hopIn, hopGo := make(chan struct{}), make(chan struct{})
	w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1: // Q's fetch under the lease
			close(qIn)
			<-qGo
			serve(200, privateRules, "Cache-Control", "max-age=3600")(rw, r)
		case 2: // P's hop
			close(hopIn)
			<-hopGo
			serve(503, "", "Retry-After", "3600")(rw, r)
		default:
			serve(200, privateRules, "Cache-Control", "max-age=3600")(rw, r)
		}
	})
	w.on("s.test/rules", serve(200, "User-agent: *\nDisallow:\n"))
	w.on("h.test/robots.txt", redirectTo("http://s.test/rules"))
	clock := newTestClock()
	shared := newMemStore()
	pStore := &roundTripGatedStore{memStore: shared}
	common := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now),
		WithLeaseWait(20*time.Second, 2*time.Millisecond), WithStoreTimeout(5 * time.Second)}
	q := newTestClient(t, append(common, WithStore(shared))...)
	p := newTestClient(t, append(common, WithStore(pStore))...)
	ctx := context.Background()

	qDone := make(chan error, 1)
	go func() {
		_, err := q.Allowed(ctx, "http://s.test/public/x")
		qDone <- err
	}()
	<-qIn // Q holds the lease
	pDone := make(chan error, 1)
	go func() {
		_, err := p.Allowed(ctx, "http://s.test/public/x")
		pDone <- err
	}()
	for deadline := time.Now().Add(5 * time.Second); p.Stats().Store.LeaseWaits == 0; {
		if time.Now().After(deadline) {
			t.Fatal("P never waited for Q's lease")
		}
		time.Sleep(time.Millisecond)
	}
	hDone := make(chan error, 1)
	go func() {
		_, err := p.Allowed(ctx, "http://h.test/")
		hDone <- err
	}()
	<-hopIn // the hop looked in the Store (nothing), and fetches
	gate := make(chan struct{})
	pStore.gate.Store(&gate) // P's next poll is on its way a moment

	clock.Advance(time.Second)
	close(qGo) // Q gets v2 and stores it
	if err := <-qDone; err != nil {
		t.Fatalf("Q: %v", err)
	}
	clock.Advance(time.Second)
	close(hopGo) // the hop gets a 503
	herr := <-hDone
	t.Logf("h.test: %v", herr)
	close(gate) // P's poll reads v2
	err0 := <-pDone
	d, err := p.Check(ctx, "http://s.test/private/x")
	dq, _ := q.Check(ctx, "http://s.test/private/x")
	t.Logf("Q: allowed %v fetched %v", dq.Allowed, dq.FetchedAt)
	if err0 != nil || err != nil || d.Allowed {
		t.Errorf("P waited for Q's lease, whose result is v2 (fetched %v, in the Store, fresh for the hour): the waiting check %v; "+
			"the next: allowed %v deferred %v failures %d checked %v expires %v, %v: the hop's failure, a second later, kept over it for its back-off",
			dq.FetchedAt, err0, d.Allowed, d.Deferred, d.Failures, d.CheckedAt, d.Expires, err)
	}
}

// TestDeadlineLookupTakesNewerStoredAnswer: review74's second case
// (TestFirstLookTakesNewerStoredAnswer), for a check whose deadline is
// sooner than the Store timeout, so that its Store look is the shared
// one that keeps its answer in memory when its callers have left (see
// sharedTier.lookup). The caller gives up while the Get is queued; P's
// hop publishes s.test's 503 failure; Q stores v2 5 s later; the Get
// then reads v2. That look published with putOver, which kept the
// unexpired failure (review75) whatever its checked time: every check of s.test in
// P is deferred for the back-off, though the look read v2, fetched after
// the failure. Had the caller waited, putNewer would have taken v2.
func TestDeadlineLookupTakesNewerStoredAnswer(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var phase atomic.Int32
	w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if phase.Load() == 1 {
			serve(503, "", "Retry-After", "3600")(rw, r)
			return
		}
		serve(200, privateRules, "Cache-Control", "max-age=3600")(rw, r)
	})
	w.on("s.test/rules", serve(200, "User-agent: *\nDisallow:\n"))
	w.on("h.test/robots.txt", redirectTo("http://s.test/rules"))
	clock := newTestClock()
	store := &lateGetStore{m: newMemStore(), match: "s.test", entered: make(chan struct{}), released: make(chan struct{})}
	opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now),
		WithStore(store), WithStoreTimeout(5 * time.Second)}
	q, p := newTestClient(t, opts...), newTestClient(t, opts...)
	ctx := context.Background()
	phase.Store(1) // s.test fails

	store.armed.Store(true)
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond) // sooner than the Store timeout
	defer cancel()
	_, err0 := p.Allowed(cctx, "http://s.test/public/x") // gives up while the Get is queued
	<-store.entered
	t.Logf("P's check with a deadline: %v", err0)

	_, herr := p.Allowed(ctx, "http://h.test/") // the hop finds s.test failing
	ds, _ := p.Check(ctx, "http://s.test/public/x")
	t.Logf("h.test: %v; P's s.test meanwhile: failures %d checked %v", herr, ds.Failures, ds.CheckedAt)
	if ds.Failures == 0 {
		t.Skipf("the hop published no failure: %+v", ds)
	}
	store.m.clearValues() // the hop's failure, which a Store without leases hears of, lost: Q fetches
	clock.Advance(5 * time.Second)
	phase.Store(2) // s.test is back, with v2
	dq, err := q.Check(ctx, "http://s.test/public/x")
	if !dq.Allowed || err != nil {
		t.Fatalf("Q: %+v %v", dq, err)
	}
	hits := p.Stats().Store.Hits
	close(store.released) // the look, its caller gone, reads v2
	for deadline := time.Now().Add(5 * time.Second); p.Stats().Store.Hits == hits; {
		if time.Now().After(deadline) {
			t.Fatal("P's Store look never read v2")
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // its putOver, just after the count
	d, err := p.Check(ctx, "http://s.test/public/x")
	if err != nil || !d.Allowed {
		t.Errorf("P's Store look read v2 (checked %v) after its caller left, but P answers: allowed %v deferred %v failures %d checked %v expires %v, %v: "+
			"the hop's failure of %v kept over it for the back-off", dq.CheckedAt, d.Allowed, d.Deferred, d.Failures, d.CheckedAt, d.Expires, err, ds.CheckedAt)
	}
}

// lookWhileChainReads runs p's check of s.test/private/x while its
// fill's Store Get is held, and meanwhile p's check of h.test, whose
// robots.txt redirects to s.test's; it returns the waiting check's
// decision, the one made after the chain read s.test's, and the next,
// and that one's error.
func lookWhileChainReads(t *testing.T, p *Client, store *heldGetStore) (waiting, chain, next Decision, err error) {
	t.Helper()
	ctx := context.Background()
	store.armed.Store(true)
	done := make(chan Decision, 1)
	go func() {
		d, _ := p.Check(ctx, "http://s.test/private/x")
		done <- d
	}()
	<-store.entered // p's fill looks in the Store
	if _, err := p.Allowed(ctx, "http://h.test/"); err != nil {
		t.Fatalf("h.test: %v", err)
	}
	if chain, err = p.Check(ctx, "http://s.test/private/x"); err != nil {
		t.Fatalf("s.test after the chain: %v", err)
	}
	close(store.released)
	waiting = <-done
	next, err = p.Check(ctx, "http://s.test/private/x")
	return waiting, chain, next, err
}

// plainStore is a memStore seen as a Store only, without its leases:
// boltstore, or any Store that is not a Leaser.
type plainStore struct{ m *memStore }

func (s plainStore) Get(ctx context.Context, key string) ([]byte, error) { return s.m.Get(ctx, key) }
func (s plainStore) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	return s.m.Set(ctx, key, v, ttl)
}

// TestHopStandInKeepsRetryAfterWithPlainStore (cache8): s.test's
// robots.txt was read (fresh for a minute), then fails with 503 and
// Retry-After: 3600. A redirect of h.test's robots.txt to a page of
// s.test needs s.test's robots.txt: the hop's fill meets the 503, and its
// last good copy stands in. Without a Store it stands in for the hour
// the server asked for; with a Store that is not a Leaser (boltstore)
// the hop never holds a lease, so the stand-in is cut to the least
// freshness (a minute) and never written to the Store: two minutes later
// the Client, and any other process of the Store, asks the failing
// server again, within its Retry-After.
func TestHopStandInKeepsRetryAfterWithPlainStore(t *testing.T) {
	for _, tc := range []struct {
		name  string
		store bool
	}{{"no Store", false}, {"plain Store", true}} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			w := newHosts(t)
			var failing atomic.Bool
			w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
				if failing.Load() {
					serve(503, "down", "Retry-After", "3600")(rw, r)
					return
				}
				serve(200, privateRules, "Cache-Control", "max-age=60")(rw, r)
			})
			w.on("h.test/robots.txt", redirectTo("http://s.test/page"))
			w.on("s.test/page", serve(200, "User-agent: *\nAllow: /\n"))
			clock := newTestClock()
			opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now)}
			if tc.store {
				opts = append(opts, WithStore(plainStore{newMemStore()}))
			}
			c := newTestClient(t, opts...)
			ctx := context.Background()
			if d, err := c.Check(ctx, "http://s.test/private/x"); d.Allowed || err != nil {
				t.Fatalf("first: %+v %v", d, err)
			}
			clock.Advance(2 * time.Minute)
			failing.Store(true)
			_, _ = c.Allowed(ctx, "http://h.test/")
			before := w.count("http://s.test/robots.txt")
			clock.Advance(2 * time.Minute) // well within the Retry-After hour
			d, err := c.Check(ctx, "http://s.test/private/x")
			after := w.count("http://s.test/robots.txt")
			if after != before {
				t.Errorf("s.test's robots.txt asked again 4 minutes after its 503 with Retry-After: 3600 (%d requests, then %d; now stale %v failures %d, %v)",
					before, after, d.Stale, d.Failures, err)
			}
		})
	}
}

// TestFailureKeepsStoredStandIn (cache8): two processes P and Q share a
// Store that is not a Leaser, which has lost its values (a restarted
// Redis, an eviction). Q holds s.test's last good copy, expired; P has
// none. s.test fails (503); both fetch at once. Q's fetch fails first and
// Q stores its copy standing in; P's, a moment later, finds that stand-in
// in the Store, fresh, but storeFailure lets only a fresh answer stop it
// (answers excludes a stand-in): P writes its bare failure over it, and
// the fleet's last good copy is gone. A third process R defers every URL
// of s.test for the back-off, though Q answers them from the copy.
func TestFailureKeepsStoredStandIn(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var n atomic.Int32
	pIn, pGo := make(chan struct{}), make(chan struct{})
	w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1: // Q's first fetch: the file
			serve(200, privateRules, "Cache-Control", "max-age=60")(rw, r)
		case 2: // P's fetch: slow, then an error
			close(pIn)
			<-pGo
			rw.WriteHeader(http.StatusServiceUnavailable)
		default:
			rw.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	clock := newTestClock()
	mem := newMemStore()
	opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now), WithStore(plainStore{mem})}
	q, p := newTestClient(t, opts...), newTestClient(t, opts...)
	ctx := context.Background()
	if d, err := q.Check(ctx, "http://s.test/public/x"); !d.Allowed || err != nil {
		t.Fatalf("Q, the file: %+v %v", d, err)
	}
	mem.clearValues() // the Store lost it
	clock.Advance(2 * time.Minute)

	pDone := make(chan error, 1)
	go func() {
		_, err := p.Allowed(ctx, "http://s.test/public/x")
		pDone <- err
	}()
	<-pIn
	dq, err := q.Check(ctx, "http://s.test/public/x")
	if !dq.Allowed || !dq.Stale || err != nil {
		t.Fatalf("Q, s.test failing: %+v %v; want its copy standing in", dq, err)
	}
	clock.Advance(time.Second)
	close(pGo)
	<-pDone

	r := newTestClient(t, opts...)
	d, err := r.Check(ctx, "http://s.test/public/x")
	if !d.Allowed || err != nil {
		t.Errorf("R: allowed %v stale %v deferred %v failures %d, %v: P's bare failure was written over Q's stand-in (the last good copy, fetched %v), fresh in the Store",
			d.Allowed, d.Stale, d.Deferred, d.Failures, err, dq.FetchedAt)
	}
}

// readThenHoldStore is a Store without leases whose armed Get reads the
// value first and only then waits: a Store whose reply is slow on the
// wire.
type readThenHoldStore struct {
	m                 *memStore
	armed             atomic.Bool
	entered, released chan struct{}
}

func (s *readThenHoldStore) Get(ctx context.Context, key string) ([]byte, error) {
	v, err := s.m.Get(ctx, key)
	if strings.Contains(key, "s.test") && s.armed.CompareAndSwap(true, false) {
		close(s.entered)
		<-s.released
	}
	return v, err
}

func (s *readThenHoldStore) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	return s.m.Set(ctx, key, v, ttl)
}

// TestHopFailureKeepsCheckAnswerInStore: with a Store that is not a
// Leaser, P's check of s.test and P's hop to s.test (h.test's robots.txt
// redirects there) fetch s.test's robots.txt side by side. The hop's
// fetch meets a 503 (Retry-After: 3600); the check's, answered after it,
// a 200. The hop's storeFailure read the Store before the check wrote the
// 200, and wrote its failure after it, over it: every other process of
// the Store deferred s.test for an hour, though the server's last word
// was a 200. The answer the check published in memory is written back.
func TestHopFailureKeepsCheckAnswerInStore(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var n atomic.Int32
	checkIn, checkGo := make(chan struct{}), make(chan struct{})
	store := &readThenHoldStore{m: newMemStore(), entered: make(chan struct{}), released: make(chan struct{})}
	w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1: // the check's fetch: held, then the file
			close(checkIn)
			<-checkGo
			serve(200, privateRules, "Cache-Control", "max-age=3600")(rw, r)
		default: // the hop's: a 503, answered first
			store.armed.Store(true) // the hop's next Store Get is its storeFailure's
			serve(503, "down", "Retry-After", "3600")(rw, r)
		}
	})
	w.on("h.test/robots.txt", redirectTo("http://s.test/page"))
	w.on("s.test/page", serve(200, "User-agent: *\nAllow: /\n"))
	clock := newTestClock()
	opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now), WithStore(store)}
	p := newTestClient(t, opts...)
	ctx := context.Background()

	checkDone := make(chan Decision, 1)
	go func() {
		d, _ := p.Check(ctx, "http://s.test/public/x")
		checkDone <- d
	}()
	<-checkIn // the check's fetch is under way

	hopDone := make(chan error, 1)
	go func() {
		_, err := p.Allowed(ctx, "http://h.test/")
		hopDone <- err
	}()
	select {
	case <-store.entered: // the hop met the 503; its storeFailure read the Store: nothing there yet
	case err := <-hopDone:
		store.armed.Store(false)
		close(checkGo)
		<-checkDone
		t.Skipf("the hop ended before its Store read: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the hop neither ended nor read the Store")
	}

	close(checkGo) // the server answers the check's fetch: 200
	dp := <-checkDone
	if !dp.Allowed || dp.Failures != 0 {
		t.Fatalf("P's check: %+v; want the 200's answer", dp)
	}
	close(store.released) // the hop's storeFailure goes on: it writes its 503
	<-hopDone

	r := newTestClient(t, opts...) // another process of the Store
	d, err := r.Check(ctx, "http://s.test/public/x")
	if !d.Allowed || d.Failures != 0 || err != nil {
		t.Errorf("R: allowed %v deferred %v failures %d expires in %v, %v: the hop's 503 was written over the 200 the check stored after it (the server's last answer)",
			d.Allowed, d.Deferred, d.Failures, d.Expires.Sub(clock.Now()), err)
	}
}

// TestClientSlotWaitersWakeOneAtATime: checks of distinct authorities
// waiting for a fetch slot start one fill each, not one each time any
// slot is given back: a slot given back waking every waiting check, each
// starting a fill that found no slot, cost 100 to 200 goroutines a check
// with 500 to 2,000 waiting for 8 slots.
func TestClientSlotWaitersWakeOneAtATime(t *testing.T) {
	checkLeaks(t)
	const n, slots = 500, 8
	hc := &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
		time.Sleep(10 * time.Millisecond) // a slow server
		return &http.Response{StatusCode: 200, Header: http.Header{}, Request: req,
			Body: io.NopCloser(strings.NewReader("User-agent: *\nDisallow: /x\n"))}, nil
	})}
	c := NewClient(WithHTTPClient(hc), WithMaxFetches(slots))
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // checks that can give up: they fill through Start
	defer cancel()
	created := func() uint64 {
		s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	before := created()
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Allowed(ctx, fmt.Sprintf("http://a%d.test/", i)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	perCheck := float64(created()-before-n) / n // less the checks' own goroutines
	if perCheck > 10 {
		t.Errorf("%.1f goroutines started per check waiting for one of %d fetch slots, want about 1 (its fill)", perCheck, slots)
	}
}

// TestClientSlotJoinerHoldsNoSlot: a check handed a slot that joins
// another check's fill of its site gives the slot back at once, to the
// next waiting check: twenty checks of a slow site waiting with a check
// of another site behind them do not keep the slots idle while the slow
// site's one fetch runs, whether they can give up or not.
func TestClientSlotJoinerHoldsNoSlot(t *testing.T) {
	for _, background := range []bool{false, true} {
		t.Run(fmt.Sprintf("background=%v", background), func(t *testing.T) {
			checkLeaks(t)
			release := make(chan struct{})
			slow := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				<-release
				io.WriteString(w, "User-agent: *\nDisallow: /p\n")
			})
			quick := newSite(t, serve(200, "User-agent: *\nDisallow: /q\n"))
			c := newTestClient(t, WithMaxFetches(2))
			c.slots <- struct{}{} // fills elsewhere hold both slots
			c.slots <- struct{}{}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			slowCtx := ctx
			if background {
				slowCtx = context.Background() // Do, not Start
			}
			waiting := func(n int) {
				for strings.Count(allStacks(), "robotstxt.(*Client).load(") < n {
					time.Sleep(time.Millisecond)
				}
			}
			var wg sync.WaitGroup
			defer wg.Wait()
			defer close(release)
			for range 20 {
				wg.Go(func() { _, _ = c.Allowed(slowCtx, slow.URL+"/p") })
			}
			waiting(20)
			done := make(chan error, 1)
			go func() {
				ok, err := c.Allowed(ctx, quick.URL+"/q")
				if err == nil && ok {
					err = errors.New("allowed")
				}
				done <- err
			}()
			waiting(21)
			c.freeSlot() // the fills elsewhere end
			c.freeSlot()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("the other site's check: %v, want a no", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the other site's check waits while one fetch runs and the other slot idles")
			}
		})
	}
}

// TestClientSlotsAllGivenBack: checks with random contexts (none, a deadline,
// cancelled at random), of a few authorities (so that they join), whose
// robots.txt is slow, fails, panics in the RoundTripper or redirects to
// another authority (a hop), with a Store and a clock that moves (so
// that the Store lookups start fills of their own): once every check has
// returned and the Client is closed, no fetch slot is held.
func TestClientSlotsAllGivenBack(t *testing.T) {
	for round := range 4 {
		clock := newTestClock()
		var seq atomic.Int64
		hc := &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
			n := seq.Add(1)
			time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
			if req.URL.Path == "/robots.txt" {
				switch n % 7 {
				case 0:
					panic("test: RoundTripper panicked")
				case 1:
					return nil, errors.New("test: dial failed")
				case 2:
					return &http.Response{StatusCode: 301, Header: http.Header{"Location": {fmt.Sprintf("http://h%d.test/x", n%5)}}, Request: req, Body: io.NopCloser(strings.NewReader(""))}, nil
				case 3:
					return &http.Response{StatusCode: 503, Header: http.Header{}, Request: req, Body: io.NopCloser(strings.NewReader(""))}, nil
				}
			}
			return &http.Response{StatusCode: 200, Header: http.Header{"Cache-Control": {"max-age=1"}}, Request: req,
				Body: io.NopCloser(strings.NewReader("User-agent: *\nDisallow: /x\n"))}, nil
		})}
		slots := 1 + round%3
		c := NewClient(WithHTTPClient(hc), WithMaxFetches(slots), WithStore(newMemStore()), WithClock(clock.Now),
			WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
		var wg sync.WaitGroup
		for i := range 400 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { _ = recover() }() // a fill's panic raised again
				if i%50 == 0 {
					clock.Advance(2 * time.Second)
				}
				u := fmt.Sprintf("http://a%d.test/y", rand.IntN(6))
				switch rand.IntN(4) {
				case 0:
					_, _ = c.Check(context.Background(), u)
				case 1:
					ctx, cancel := context.WithTimeout(context.Background(), time.Duration(rand.IntN(5000))*time.Microsecond)
					defer cancel()
					_, _ = c.Check(ctx, u)
				case 2:
					ctx, cancel := context.WithCancel(context.Background())
					go func() { time.Sleep(time.Duration(rand.IntN(2000)) * time.Microsecond); cancel() }()
					_, _ = c.Check(ctx, u)
					cancel()
				default:
					ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
					defer cancel()
					_, _ = c.Check(ctx, u)
				}
			}()
		}
		wg.Wait()
		_ = c.Close()
		deadline := time.Now().Add(5 * time.Second)
		for len(c.slots) != 0 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if n := len(c.slots); n != 0 {
			t.Fatalf("round %d: %d of %d fetch slots held after every check returned and Close", round, n, slots)
		}
	}
}

// TestStandInWindowEndKeepsRetryAfter: a 503 with Retry-After: 3600
// leaves the host alone for the hour (WithBackoff) though the last good
// copy's stale window ends ten minutes into it: the copy does not stand
// in (it would have expired with its window, and the host been asked
// again 50 minutes early); the check defers.
func TestStandInWindowEndKeepsRetryAfter(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules, "Cache-Control", "max-age=60"))
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now)) // the default stale window, 30 days
	ctx := context.Background()
	if ok, err := c.Allowed(ctx, s.URL+"/private/x"); ok || err != nil {
		t.Fatal(ok, err)
	}
	s.set(serve(503, "down", "Retry-After", "3600"))
	clock.Advance(30*24*time.Hour - 10*time.Minute) // the copy's window ends in 10 minutes
	if ok, err := c.Allowed(ctx, s.URL+"/private/x"); ok {
		t.Fatalf("503 with a copy 10 minutes short of the window: allowed, %v", err)
	}
	asked := s.hits.Load() // the 200 and the 503
	for range 50 {
		clock.Advance(time.Minute)
		_, _ = c.Check(ctx, s.URL+"/x")
	}
	if d, err := c.Check(ctx, s.URL+"/x"); d.Allowed || !errors.Is(err, ErrDeferred) {
		t.Errorf("past the window, within the hour: %+v, %v; want deferred", d, err)
	}
	if n := s.hits.Load(); n != asked {
		t.Errorf("50 minutes after a 503 with Retry-After: 3600 the host was asked %d more times; want none within the hour", n-asked)
	}
}

// TestAllowedChecksSentHostForIDN: a host net/http dials mapped (b.test,
// the UTS #46 mapping of "ｂ.test") but sends unmapped in the Host header
// (xn--ni7c.test, the punycode of the name as written), by which servers
// pick the site, is not allowed on the dialled site's robots.txt: the
// request would be served by a site whose robots.txt disallows the page.
func TestAllowedChecksSentHostForIDN(t *testing.T) {
	checkLeaks(t)
	v := newVhosts(t, map[string]string{
		"b.test":         "User-agent: *\nAllow: /\n",
		"xn--ni7c.test":  "User-agent: *\nDisallow: /\n",
		"a.test":         "User-agent: *\nAllow: /\n",
		"a.xn--test-tga": "User-agent: *\nDisallow: /\n",
	})
	tr := v.transport(t)
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: tr}))
	crawler := &http.Client{Transport: tr} // the caller's own client
	for _, u := range []string{"http://\uff42.test/private", "http://a.test\u00ad/private"} {
		ok, err := c.Allowed(context.Background(), u)
		if err != nil || !ok {
			continue // refused: fine
		}
		resp, err := crawler.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Errorf("Allowed(%q) = true, but the request is served as %q, whose robots.txt disallows it", u, body)
	}
}

// TestClientSlotWaiterSeesItsSiteFilled: a check that waits for a fetch
// slot stops waiting once its site's robots.txt is in memory. A check of
// a cold site that comes while no fill of it runs (the first check's
// ended at once, with no slot) queues for a slot of its own; here it is
// behind sites whose fetches hang, and must answer once the site is
// filled, not wait for a fetch it no longer needs: by the first check of
// the site, or by another site's whose robots.txt redirects to its
// robots.txt (kept as its own, keepTheirs) or to another of its files
// (whose hop's fill checks its robots.txt).
func TestClientSlotWaiterSeesItsSiteFilled(t *testing.T) {
	for _, tc := range []struct{ name, first, redirect string }{
		{"by its first check", "a.test", ""},
		{"by a redirect to its robots.txt", "b.test", "http://a.test/robots.txt"},
		{"by a redirect to another of its files", "b.test", "http://a.test/moved.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			free1, hold := make(chan struct{}), make(chan struct{})
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.Host == "slow1.test":
					<-free1
				case strings.HasPrefix(r.Host, "slow"):
					<-hold
				case r.Host == "b.test":
					http.Redirect(w, r, tc.redirect, http.StatusMovedPermanently)
					return
				}
				_, _ = io.WriteString(w, "User-agent: *\nDisallow: /x\n")
			})
			port := strings.TrimPrefix(s.URL, "http://127.0.0.1:")
			tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, "127.0.0.1:"+port) // every name is this loopback site
			}}
			c := NewClient(WithHTTPClient(&http.Client{Transport: tr}), WithMaxFetches(2))
			defer tr.CloseIdleConnections()
			defer c.Close()
			var wg sync.WaitGroup
			defer wg.Wait()
			defer close(hold)
			waiters := func(host string) int {
				c.robots.cache.mu.Lock()
				defer c.robots.cache.mu.Unlock()
				if w := c.robots.cache.watches["http://"+host+":80"]; w != nil {
					return w.waiters
				}
				return 0
			}
			check := func(host string, waits bool) <-chan error {
				n := waiters(host)
				done := make(chan error, 1)
				wg.Go(func() {
					_, err := c.Allowed(context.Background(), "http://"+host+"/")
					done <- err
				})
				for waits && waiters(host) <= n { // each queued after the one before
					time.Sleep(time.Millisecond)
				}
				return done
			}
			check("slow1.test", false) // the two slots
			check("slow2.test", false)
			for len(c.slots) < cap(c.slots) {
				time.Sleep(time.Millisecond)
			}
			first := check(tc.first, true) // first in the queue
			for i := range 4 {
				check(fmt.Sprintf("slow%d.test", i+3), true) // queued behind it
			}
			waiter := check("a.test", true) // before a.test was filled: queued last
			close(free1)                    // the first check takes slow1's slot
			for _, w := range []struct {
				host string
				done <-chan error
			}{{tc.first, first}, {"a.test", waiter}} {
				select {
				case err := <-w.done:
					if err != nil {
						t.Errorf("check of %s: %v", w.host, err)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("check of %s waits on: it waits for a fetch slot behind hanging fetches, with a.test's robots.txt in memory", w.host)
				}
			}
		})
	}
}

// TestClientClosedNoSlotIsErrClosed: a check of an expired copy, made
// while Close waits for a fetch that holds the only fetch slot, returns
// ErrClosed (or answers): not the internal "no fetch slot free", which
// matches neither ErrClosed nor ErrDeferred.
func TestClientClosedNoSlotIsErrClosed(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	entered, release := make(chan struct{}), make(chan struct{})
	hc := &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Hostname() == "hold.test" {
			close(entered)
			<-release // a RoundTripper that takes a moment to see its context end
		}
		return &http.Response{StatusCode: 200, Header: http.Header{"Cache-Control": {"max-age=60"}}, Request: req,
			Body: io.NopCloser(strings.NewReader("User-agent: *\nDisallow: /x\n"))}, nil
	})}
	c := NewClient(WithHTTPClient(hc), WithMaxFetches(1), WithClock(clock.Now))
	if ok, err := c.Allowed(context.Background(), "http://a.test/"); !ok || err != nil {
		t.Fatalf("warm-up: %v, %v", ok, err)
	}
	clock.Advance(2 * time.Minute) // a.test's copy expired, well inside the stale window
	held := make(chan struct{})
	go func() {
		defer close(held)
		_, _ = c.Allowed(context.Background(), "http://hold.test/") // the one slot
	}()
	<-entered
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		_ = c.Close() // waits for hold.test's fetch
	}()
	for c.base.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	for _, ctx := range []context.Context{context.Background(), t.Context()} {
		_, err := c.Allowed(ctx, "http://a.test/")
		if err != nil && !errors.Is(err, ErrClosed) {
			t.Errorf("check of an expired copy while Close waits: %v; want ErrClosed", err)
		}
	}
	close(release)
	<-held
	<-closed
}

// TestClientChecksLiteralPercentBeforeAnEscape: nginx and Apache decode
// every escape once, so /sale/50%25%6Fff is served as /sale/50%off, the
// file "Disallow: /sale/50%off" names, as /sale/50%25off is
// (TestClientChecksLiteralPercent). Escaping the byte after the %25 must
// not reach the file: %6F decodes to 'o', so no escape is made of what
// was not one.
func TestClientChecksLiteralPercentBeforeAnEscape(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: *\nDisallow: /sale/50%off\nDisallow: /discount-100%/\n"))
	c := newTestClient(t)
	ctx := context.Background()
	if d, err := c.Check(ctx, s.URL+"/sale/50%25off"); err != nil || d.Allowed {
		t.Fatalf("/sale/50%%25off: %v, %v; want refused (control)", d.Allowed, err)
	}
	for _, p := range []string{
		"/sale/50%25%6Fff",     // served as /sale/50%off
		"/sale/50%25%6fff",     // the same, lower-case hex
		"/sale/50%25o%66f",     // /sale/50%off (refused already)
		"/discount-100%25%2Fx", // nginx: /discount-100%/x (Apache: 404)
		"/./sale/50%25%6Fff",   // with a dot segment too
	} {
		d, err := c.Check(ctx, s.URL+p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if d.Allowed {
			t.Errorf("%s: allowed, though nginx serves it as a disallowed path", p)
		}
	}
}
