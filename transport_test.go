package robotstxt

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// arrival is one request as a testSite received it.
type arrival struct {
	path string
	at   time.Time
}

// A testSite is a loopback web site whose routes a test sets, recording
// every request it receives. Paths without a route answer 200 "page".
type testSite struct {
	*httptest.Server
	mu       sync.Mutex
	routes   map[string]http.HandlerFunc
	arrivals []arrival
}

func newTestSite(t testing.TB, robots string) *testSite {
	t.Helper()
	s := &testSite{routes: map[string]http.HandlerFunc{}}
	if robots != "" {
		s.routes["/robots.txt"] = serve(200, robots)
	}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := time.Now()
		s.mu.Lock()
		s.arrivals = append(s.arrivals, arrival{r.URL.Path, now})
		h := s.routes[r.URL.Path]
		s.mu.Unlock()
		if h == nil {
			h = serve(200, "page")
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *testSite) route(path string, h http.HandlerFunc) {
	s.mu.Lock()
	s.routes[path] = h
	s.mu.Unlock()
}

// got returns the paths requested so far, robots.txt fetches included.
func (s *testSite) got() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var paths []string
	for _, a := range s.arrivals {
		paths = append(paths, a.path)
	}
	return paths
}

// times returns when path was requested, in order.
func (s *testSite) times(path string) []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	var at []time.Time
	for _, a := range s.arrivals {
		if a.path == path {
			at = append(at, a.at)
		}
	}
	return at
}

// checkSpacing fails unless consecutive times are at least gap apart.
func checkSpacing(t *testing.T, what string, times []time.Time, gap time.Duration) {
	t.Helper()
	times = slices.Clone(times)
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	for i := 1; i < len(times); i++ {
		if d := times[i].Sub(times[i-1]); d < gap {
			t.Errorf("%s: requests %d and %d reached the server %v apart, want >= %v", what, i-1, i, d, gap)
		}
	}
}

func redirectTo(target string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, target, http.StatusFound) }
}

const testUA = "ExampleBot/1.0 (+https://example.com/bot)"

// newTestTransport returns a Client as ExampleBot and a Transport for it
// over a transport of its own, both closed with the test, and an
// http.Client using the Transport.
func newTestTransport(t testing.TB, opts ...TransportOption) (*Client, *Transport, *http.Client) {
	t.Helper()
	c := newTestClient(t, WithUserAgent(testUA))
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	tr := NewTransport(c, next, opts...)
	return c, tr, &http.Client{Transport: tr}
}

// get fetches rawURL through hc and returns its body.
func get(ctx context.Context, hc *http.Client, rawURL string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return "", err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// getHost sends a GET for rawURL through hc with the Host header host,
// and returns its error.
func getHost(hc *http.Client, rawURL, host string) error {
	req, err := http.NewRequest(http.MethodGet, rawURL, nil)
	if err != nil {
		return err
	}
	req.Host = host
	resp, err := hc.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	return err
}

func TestTransportRefusesDisallowed(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nDisallow: /\n\nUser-agent: ExampleBot\nAllow: /\nDisallow: /private/\n")
	_, _, hc := newTestTransport(t)
	ctx := context.Background()

	if body, err := get(ctx, hc, s.URL+"/public.html"); err != nil || body != "page" {
		t.Fatalf("allowed page: %q, %v", body, err)
	}
	_, err := get(ctx, hc, s.URL+"/private/x.html")
	if !errors.Is(err, ErrDisallowed) {
		t.Fatalf("disallowed page: err = %v, want ErrDisallowed", err)
	}
	var ue *url.Error
	var de *DisallowedError
	if !errors.As(err, &ue) || !errors.As(err, &de) {
		t.Fatalf("err = %T %v, want a *url.Error around a *DisallowedError", err, err)
	}
	d := de.Decision
	if d.Allowed || !matched(d) || d.Rule.Pattern != "/private/" || d.Rule.Line != 6 ||
		d.Authority != "http://"+s.Listener.Addr().String() {
		t.Errorf("Decision = %+v", d)
	}
	if de.URL != s.URL+"/private/x.html" || !strings.Contains(de.Error(), "line 6 (Disallow: /private/)") {
		t.Errorf("DisallowedError: URL %q, text %q", de.URL, de.Error())
	}
	if got, want := s.got(), []string{"/robots.txt", "/public.html"}; !slices.Equal(got, want) {
		t.Errorf("server got %q, want %q", got, want)
	}
}

// closeRecorder is a request body that records being closed.
type closeRecorder struct {
	io.Reader
	closed bool
}

func (c *closeRecorder) Close() error { c.closed = true; return nil }

func TestTransportDisallowedBodyClosedAndUserinfoHidden(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nDisallow: /form\n")
	_, tr, _ := newTestTransport(t)
	u, _ := url.Parse(s.URL + "/form")
	u.User = url.UserPassword("alice", "s3cret")
	body := &closeRecorder{Reader: strings.NewReader("a=1")}
	req, _ := http.NewRequest(http.MethodPost, u.String(), body)
	resp, err := tr.RoundTrip(req)
	if resp != nil || !errors.Is(err, ErrDisallowed) {
		t.Fatalf("RoundTrip = %v, %v; want ErrDisallowed", resp, err)
	}
	if !body.closed {
		t.Error("the body of a request not sent was not closed")
	}
	if msg := err.Error(); strings.Contains(msg, "alice") || strings.Contains(msg, "s3cret") {
		t.Errorf("error text carries the userinfo: %q", msg)
	}
	if slices.Contains(s.got(), "/form") {
		t.Error("the disallowed POST reached the server")
	}
}

// TestTransportRedirectHops checks that every hop an http.Client follows
// is checked: a disallowed target is not fetched whether linked directly
// or reached through a same-host or a cross-host redirect.
func TestTransportRedirectHops(t *testing.T) {
	checkLeaks(t)
	other := newTestSite(t, "User-agent: *\nDisallow: /secret/\n")
	s := newTestSite(t, "User-agent: *\nDisallow: /private/\n")
	s.route("/go/same", redirectTo("/private/secret.html"))
	s.route("/go/cross", redirectTo(other.URL+"/secret/x.html"))
	s.route("/go/fine", redirectTo(other.URL+"/open.html"))
	_, _, hc := newTestTransport(t)
	ctx := context.Background()

	for _, path := range []string{"/go/same", "/go/cross"} {
		_, err := get(ctx, hc, s.URL+path)
		var de *DisallowedError
		if !errors.As(err, &de) {
			t.Errorf("%s: err = %v, want a *DisallowedError", path, err)
		}
	}
	if body, err := get(ctx, hc, s.URL+"/go/fine"); err != nil || body != "page" {
		t.Errorf("/go/fine: %q, %v", body, err)
	}
	if got, want := s.got(), []string{"/robots.txt", "/go/same", "/go/cross", "/go/fine"}; !slices.Equal(got, want) {
		t.Errorf("site got %q, want %q", got, want)
	}
	if got, want := other.got(), []string{"/robots.txt", "/open.html"}; !slices.Equal(got, want) {
		t.Errorf("other site got %q, want %q", got, want)
	}
}

// TestTransportDeferredSendsNothing: a request whose site's robots.txt is
// unreachable is not sent; its DeferredError names the URL to put back:
// where a redirect led, when the site down is a redirect's (put back, the
// URL asked for would spend a request on the redirect again).
func TestTransportDeferredSendsNothing(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "")
	s.route("/robots.txt", serve(503, "down", "Retry-After", "120"))
	other := newTestSite(t, "User-agent: *\nAllow: /\n")
	other.route("/go", redirectTo(s.URL+"/news.html#top"))
	_, _, hc := newTestTransport(t)
	for _, tc := range []struct{ asked, want string }{
		{s.URL + "/page.html#x", s.URL + "/page.html"},
		{other.URL + "/go", s.URL + "/news.html"},
	} {
		_, err := get(context.Background(), hc, tc.asked)
		var de *DeferredError
		if !errors.Is(err, ErrDeferred) || !errors.As(err, &de) || de.Status != 503 || de.RetryAt.IsZero() || de.URL != tc.want {
			t.Fatalf("%s: err = %v (URL %q), want a *DeferredError for status 503 naming %s", tc.asked, err, de.URL, tc.want)
		}
	}
	if got := s.got(); !slices.Equal(got, []string{"/robots.txt"}) {
		t.Errorf("server got %q, want only robots.txt", got)
	}
}

// TestTransportDeadlineInRobotsFetchDefers: a request whose deadline (an
// http.Client's Timeout, here no longer than the fetch timeout, as in the
// examples) comes while its site's robots.txt is being fetched is
// refused with a *DeferredError, which a crawler puts back, not a bare
// timeout, which loses the URL; a request cancelled is cancelled.
func TestTransportDeadlineInRobotsFetchDefers(t *testing.T) {
	checkLeaks(t)
	hung := make(chan struct{})
	defer close(hung)
	s := newTestSite(t, "")
	s.route("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-hung:
		}
	})
	const fetchTimeout = 400 * time.Millisecond
	c := newTestClient(t, WithUserAgent(testUA), WithFetchTimeout(fetchTimeout))
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	hc := &http.Client{Transport: NewTransport(c, next), Timeout: fetchTimeout / 2}
	start := time.Now()
	_, err := get(context.Background(), hc, s.URL+"/page.html")
	var de *DeferredError
	if !errors.As(err, &de) || de.URL != s.URL+"/page.html" || de.Authority != s.URL ||
		de.RetryAt.Before(start.Add(fetchTimeout)) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("robots.txt still fetched at the deadline: err = %v; want a *DeferredError naming the page, retry after the fetch", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(fetchTimeout/8, cancel)
	if _, err := get(ctx, &http.Client{Transport: hc.Transport}, s.URL+"/other.html"); !errors.Is(err, context.Canceled) || errors.As(err, &de) {
		t.Errorf("cancelled while robots.txt was fetched: err = %v; want context.Canceled", err)
	}
	if got := s.got(); slices.Contains(got, "/page.html") || slices.Contains(got, "/other.html") {
		t.Errorf("server got %q, want no page", got)
	}
	// A request past its deadline starts no fetch: it fails as it is.
	fresh := newTestSite(t, "User-agent: *\nAllow: /\n")
	past, cancelPast := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancelPast()
	req, _ := http.NewRequestWithContext(past, http.MethodGet, fresh.URL+"/page.html", nil)
	if _, err := hc.Transport.RoundTrip(req); !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &de) {
		t.Errorf("a request past its deadline: %v; want its context's error, no DeferredError", err)
	}
	if !strings.Contains(de.Error(), "not yet read") || de.Failures != 0 {
		t.Errorf("the deferral at the deadline reads %q, Failures %d", de.Error(), de.Failures)
	}
}

func TestTransportBadURLNotSent(t *testing.T) {
	checkLeaks(t)
	_, tr, _ := newTestTransport(t)
	for _, raw := range []string{"ftp://example.com/x", "http://exa mple.com/x"} {
		req := &http.Request{Method: http.MethodGet, URL: &url.URL{Scheme: "http", Host: "exa mple.com", Path: "/x"}, Header: http.Header{}}
		if u, err := url.Parse(raw); err == nil {
			req.URL = u
		}
		req = req.WithContext(context.Background())
		if resp, err := tr.RoundTrip(req); resp != nil || !errors.Is(err, ErrBadURL) {
			t.Errorf("RoundTrip(%q) = %v, %v; want ErrBadURL", raw, resp, err)
		}
	}
	if resp, err := tr.RoundTrip(&http.Request{Method: http.MethodGet}); resp != nil || !errors.Is(err, ErrBadURL) {
		t.Errorf("RoundTrip without a URL = %v, %v; want ErrBadURL", resp, err)
	}
	// A '#' in a query built by hand: net/http sends it, nginx and Apache
	// end the query there, so a rule ending in $ would read another query.
	s := newTestSite(t, "User-agent: *\nDisallow: /*?print=1$\n")
	u, _ := url.Parse(s.URL)
	req := &http.Request{Method: http.MethodGet, URL: &url.URL{Scheme: "http", Host: u.Host, Path: "/page", RawQuery: "print=1#top"}, Header: http.Header{}}
	if resp, err := tr.RoundTrip(req.WithContext(context.Background())); resp != nil || !errors.Is(err, ErrBadURL) {
		if resp != nil {
			resp.Body.Close()
		}
		t.Errorf("RoundTrip of a query with '#' = %v, %v; want ErrBadURL", resp, err)
	}
	if got := s.got(); slices.ContainsFunc(got, func(p string) bool { return strings.HasPrefix(p, "/page") }) {
		t.Errorf("server got %q", got)
	}
}

// TestTransportStackedChecksRewrites: between two Transports of a
// Client, a RoundTripper that rewrites the request makes the inner one
// check it again; a rewrite to an opaque URL went out unchecked.
func TestTransportStackedChecksRewrites(t *testing.T) {
	checkLeaks(t)
	site := newTestSite(t, "User-agent: *\nDisallow: /private/\n")
	c := newTestClient(t, WithUserAgent(testUA))
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	for name, rewrite := range map[string]func(*url.URL){
		"path":   func(u *url.URL) { u.Path = "/private/x" },
		"opaque": func(u *url.URL) { u.Opaque = "/private/x" },
	} {
		between := roundTripFunc(func(req *http.Request) (*http.Response, error) {
			r := req.Clone(req.Context())
			rewrite(r.URL)
			return NewTransport(c, next).RoundTrip(r)
		})
		hc := &http.Client{Transport: NewTransport(c, between), Timeout: 5 * time.Second}
		if _, err := get(context.Background(), hc, site.URL+"/a.html"); !errors.Is(err, ErrDisallowed) && !errors.Is(err, ErrBadURL) {
			t.Errorf("%s rewritten: %v; want it refused", name, err)
		}
	}
	if got := site.got(); slices.Contains(got, "/private/x") {
		t.Errorf("server got %q", got)
	}
}

func TestTransportSkipRobots(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nDisallow: /\nCrawl-delay: 3600\n")
	_, _, hc := newTestTransport(t)
	ctx := SkipRobots(context.Background())
	for range 2 { // neither checked nor paced by the hour's crawl-delay
		if body, err := get(ctx, hc, s.URL+"/asked-for.html"); err != nil || body != "page" {
			t.Fatalf("skipped check: %q, %v", body, err)
		}
	}
	if got := s.got(); !slices.Equal(got, []string{"/asked-for.html", "/asked-for.html"}) {
		t.Errorf("server got %q, want the page twice and no robots.txt", got)
	}
	if _, err := get(context.Background(), hc, s.URL+"/asked-for.html"); !errors.Is(err, ErrDisallowed) {
		t.Errorf("without SkipRobots: err = %v, want ErrDisallowed", err)
	}
}

// TestClientTransportSelfFetch has the Client fetch robots.txt through
// its own Transport while robots.txt redirects within its host and
// disallows everything, its own path included: the fetch must be
// recognised as the Client's (not checked against the robots.txt being
// fetched) and must not deadlock.
func TestClientTransportSelfFetch(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "")
	s.route("/robots.txt", redirectTo("/other/robots.txt"))
	s.route("/other/robots.txt", serve(200, "User-agent: *\nDisallow: /\n"))
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := get(ctx, hc, s.URL+"/page.html")
	var de *DisallowedError
	if !errors.As(err, &de) || de.Decision.Status != 200 || de.Decision.Outcome != OutcomeRules {
		t.Fatalf("err = %v, want a *DisallowedError resting on the redirected robots.txt", err)
	}
	if info, _, ok := held(c, s.URL); !ok || info.FinalURL != s.URL+"/other/robots.txt" {
		t.Errorf("Cached = %+v, %v", info, ok)
	}
	if got, want := s.got(), []string{"/robots.txt", "/other/robots.txt"}; !slices.Equal(got, want) {
		t.Errorf("server got %q, want %q", got, want)
	}
}

// TestTransportCrawlDelay sends 8 concurrent requests to an authority with
// Crawl-delay: 0.3 and checks that they reach the server at least 0.3 s
// apart, while another authority is served in the meantime.
func TestTransportCrawlDelay(t *testing.T) {
	checkLeaks(t)
	slow := newTestSite(t, "User-agent: *\nCrawl-delay: 0.3\n")
	fast := newTestSite(t, "User-agent: *\nDisallow: /private/\n")
	_, _, hc := newTestTransport(t)
	ctx := context.Background()
	const n = 8
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if _, err := get(ctx, hc, fmt.Sprintf("%s/p%d.html", slow.URL, i)); err != nil {
				t.Error(err)
			}
		})
	}
	// The slow authority needs at least 7 × 0.3 s for its 8 requests; all
	// the fast one's requests are answered while it is still busy.
	for i := range 20 {
		if _, err := get(ctx, hc, fmt.Sprintf("%s/f%d.html", fast.URL, i)); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(slow.got()) - 1; got == n {
		t.Errorf("all %d slow requests were sent before 20 fast ones were served", n)
	}
	wg.Wait()
	var pages []time.Time
	slow.mu.Lock()
	for _, a := range slow.arrivals {
		if a.path != "/robots.txt" {
			pages = append(pages, a.at)
		}
	}
	slow.mu.Unlock()
	if len(pages) != n {
		t.Fatalf("slow site got %d pages, want %d", len(pages), n)
	}
	checkSpacing(t, "Crawl-delay: 0.3", pages, 300*time.Millisecond)
}

// TestTransportStacked: a Transport of a Client sending through another
// of the same Client (as NewTransport(c, NewClientTransport(...)) does)
// checks and paces each request once, not waiting for the turn the outer
// one holds.
func TestTransportStacked(t *testing.T) {
	checkLeaks(t)
	site := newTestSite(t, "User-agent: *\nCrawl-delay: 0.3\nDisallow: /private/\n")
	c := newTestClient(t, WithUserAgent(testUA))
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	for _, opts := range [][]TransportOption{nil, {WithNoWait()}} {
		inner := NewTransport(c, next, opts...)
		hc := &http.Client{Transport: NewTransport(c, inner, opts...), Timeout: 5 * time.Second}
		if _, err := get(context.Background(), hc, site.URL+"/a.html"); err != nil {
			t.Fatalf("%d options: %v", len(opts), err)
		}
		if _, err := get(context.Background(), hc, site.URL+"/private/x"); !errors.Is(err, ErrDisallowed) {
			t.Errorf("%d options: /private/x: %v; want ErrDisallowed", len(opts), err)
		}
		// The inner one sent what the outer one checked.
		if st := inner.Stats(); st.Sent != 1 {
			t.Errorf("%d options: the inner Transport's Stats: %+v; want one Sent", len(opts), st)
		}
		time.Sleep(300 * time.Millisecond) // the next loop's first turn
	}
	// A response's request, sent again in the context the Transport gave
	// it, is checked and paced again.
	hc := &http.Client{Transport: NewTransport(c, next, WithNoWait())}
	time.Sleep(300 * time.Millisecond)
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, site.URL+"/b.html", nil)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var pe *PacedError
	if resp, err := hc.Do(resp.Request); !errors.As(err, &pe) {
		if err == nil {
			resp.Body.Close()
		}
		t.Errorf("the response's request sent again at once: %v; want a PacedError", err)
	}
}

func TestTransportRetryAfterHolds(t *testing.T) {
	checkLeaks(t)
	for _, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			s := newTestSite(t, "User-agent: *\nAllow: /\n")
			var mu sync.Mutex
			answered := false
			s.route("/busy.html", func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				first := !answered
				answered = true
				mu.Unlock()
				if first {
					w.Header().Set("Retry-After", "1")
					w.WriteHeader(status)
					return
				}
				_, _ = io.WriteString(w, "page")
			})
			_, _, hc := newTestTransport(t)
			ctx := context.Background()
			if _, err := get(ctx, hc, s.URL+"/busy.html"); err != nil {
				t.Fatal(err)
			}
			// A request whose deadline comes before the hold ends is
			// refused at once and not sent.
			short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
			_, err := get(short, hc, s.URL+"/other.html")
			cancel()
			if !errors.Is(err, ErrPaced) || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("request during the hold: err = %v, want ErrPaced and DeadlineExceeded", err)
			}
			if body, err := get(ctx, hc, s.URL+"/busy.html"); err != nil || body != "page" {
				t.Fatalf("after the hold: %q, %v", body, err)
			}
			checkSpacing(t, "Retry-After: 1", s.times("/busy.html"), time.Second)
			if slices.Contains(s.got(), "/other.html") {
				t.Error("the request refused during the hold reached the server")
			}
		})
	}
}

// TestTransportBusyHoldsWithoutRetryAfter: a 429 or 503 without a
// usable Retry-After (none, 0, one that does not parse; RFC 6585 makes
// it optional) holds its site for a second: a frontier that puts the
// URL back at once, as the README's loop does, retried at once, as fast
// as it could.
func TestTransportBusyHoldsWithoutRetryAfter(t *testing.T) {
	checkLeaks(t)
	for _, retryAfter := range []string{"", "0", "soon"} {
		t.Run(retryAfter, func(t *testing.T) {
			s := newTestSite(t, "User-agent: *\nAllow: /\n")
			s.route("/busy", serve(http.StatusTooManyRequests, "slow down", "Retry-After", retryAfter))
			_, _, hc := newTestTransport(t, WithNoWait())
			if _, err := get(context.Background(), hc, s.URL+"/busy"); err != nil {
				t.Fatal(err)
			}
			var pe *PacedError
			_, err := get(context.Background(), hc, s.URL+"/busy")
			if !errors.As(err, &pe) || time.Until(pe.RetryAt) < 800*time.Millisecond {
				t.Errorf("a request at once after the 429: %v; want a PacedError for about a second", err)
			}
			if n := len(s.times("/busy")); n != 1 {
				t.Errorf("the site was asked %d times, want once", n)
			}
		})
	}
}

// TestTransportRetryAfterHoldsUnclosed: a 429's Retry-After holds its
// site from when its headers come, though the caller never closes its
// body, at a site with a Crawl-delay as without: the turn ended with the
// lease, and the hold, read at the body's end, was lost.
func TestTransportRetryAfterHoldsUnclosed(t *testing.T) {
	checkLeaks(t)
	for _, robots := range []string{"User-agent: *\nAllow: /\n", "User-agent: *\nCrawl-delay: 0.05\n"} {
		s := newTestSite(t, robots)
		s.route("/limited", serve(http.StatusTooManyRequests, "slow down", "Retry-After", "3600"))
		p := newMemPacer()
		p.timeout = 200 * time.Millisecond // the turn's lease, 30 s outside tests
		next := &http.Transport{}
		t.Cleanup(next.CloseIdleConnections)
		hc := &http.Client{Transport: NewTransport(newTestClient(t, WithUserAgent(testUA)), next, WithPacer(p), WithNoWait())}
		resp, err := hc.Get(s.URL + "/limited")
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(400 * time.Millisecond) // its body left open past the lease
		if _, err := get(context.Background(), hc, s.URL+"/next"); !errors.Is(err, ErrPaced) {
			t.Errorf("%q: a request within a 429's Retry-After: %v, want ErrPaced", robots, err)
		}
		if slices.Contains(s.got(), "/next") {
			t.Errorf("%q: a request reached the site within a 429's Retry-After", robots)
		}
		_ = resp.Body.Close()
	}
}

// TestTransportRetryAfterHoldsWhileBodyOpen: while a 503's body is still
// arriving, its Retry-After already holds the site: a refused request is
// told the hold's end, not the Crawl-delay, and counted as held.
func TestTransportRetryAfterHoldsWhileBodyOpen(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 1\n")
	s.route("/busy", serve(http.StatusServiceUnavailable, strings.Repeat("busy ", 1000), "Retry-After", "3600"))
	_, tr, hc := newTestTransport(t, WithNoWait())
	resp, err := hc.Get(s.URL + "/busy") // its body left unread: the turn is in flight
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var pe *PacedError
	if _, err := get(context.Background(), hc, s.URL+"/other"); !errors.As(err, &pe) || time.Until(pe.RetryAt) < 59*time.Minute {
		t.Errorf("a request within an hour's Retry-After, the 503's body open: %v; want a PacedError for about the hour", err)
	}
	if st := tr.Stats(); st.Held != 1 {
		t.Errorf("Stats %+v: want the request counted as held", st)
	}
}

func TestTransportRetryAfterIgnoredOnSuccess(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	s.route("/ok.html", serve(200, "page", "Retry-After", "3600"))
	_, _, hc := newTestTransport(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for range 3 {
		if _, err := get(ctx, hc, s.URL+"/ok.html"); err != nil {
			t.Fatalf("a Retry-After on a 200 held the next request: %v", err)
		}
	}
}

func TestTransportMaxWait(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 600\n")
	_, _, hc := newTestTransport(t, WithMaxWait(50*time.Millisecond))
	ctx := context.Background() // no deadline: WithMaxWait bounds the wait
	if _, err := get(ctx, hc, s.URL+"/a.html"); err != nil {
		t.Fatal(err)
	}
	if _, err := get(ctx, hc, s.URL+"/b.html"); !errors.Is(err, ErrPaced) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("second request within the crawl-delay: err = %v, want ErrPaced and DeadlineExceeded", err)
	}
	if slices.Contains(s.got(), "/b.html") {
		t.Error("the request that timed out waiting reached the server")
	}
}

// TestTransportMaxWaitBoundsHolds checks that WithMaxWait bounds a hold
// from a Retry-After as it bounds a crawl-delay, also where robots.txt
// asks for no crawl-delay at all.
func TestTransportMaxWaitBoundsHolds(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nDisallow: /private\n")
	s.route("/busy.html", serve(503, "busy", "Retry-After", "600"))
	_, _, hc := newTestTransport(t, WithMaxWait(50*time.Millisecond))
	ctx := context.Background()
	if _, err := get(ctx, hc, s.URL+"/busy.html"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := get(ctx, hc, s.URL+"/next.html"); !errors.Is(err, ErrPaced) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("request during a 600 s hold: err = %v, want ErrPaced and DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refusing took %v: the hold was waited out", d)
	}
	if slices.Contains(s.got(), "/next.html") {
		t.Error("the request held back reached the server")
	}
}

// scriptedPacer is a Pacer backend that answers Take from a script, to
// check how the Transport's wait treats answers no well-behaved Pacer
// gives.
type scriptedPacer struct {
	answers []scriptedAnswer // the last one repeats
	calls   int
}

type scriptedAnswer struct {
	wait time.Duration
	ok   bool
	err  error
}

func (p *scriptedPacer) Take(_ context.Context, authority string, interval time.Duration) (uint64, time.Duration, error) {
	a := p.answers[min(p.calls, len(p.answers)-1)]
	p.calls++
	if !a.ok {
		return 0, max(a.wait, 1), a.err
	}
	return 1, 0, nil
}

func (p *scriptedPacer) Done(context.Context, string, uint64, time.Duration, time.Duration) error {
	return nil
}

// TestAwaitTurn checks the Transport's wait for a turn, the one RoundTrip
// uses, against a Pacer's odd answers.
func TestAwaitTurn(t *testing.T) {
	checkLeaks(t)
	const a = "https://a.example:443"
	ctx := context.Background()

	// A wait of 0 or less is slept as minRetry, so a faulty Pacer cannot
	// make the loop spin.
	p := &scriptedPacer{answers: []scriptedAnswer{{wait: 0}, {wait: -time.Second}, {wait: 0}, {ok: true}}}
	began := time.Now()
	turn, err := turnTaker(t, p)(ctx, a, time.Second)
	if err != nil || turn.ID != 1 || p.calls != 4 {
		t.Fatalf("awaitTurn = %+v, %v after %d calls; want the turn after 4", turn, err, p.calls)
	}
	if d := time.Since(began); d < 3*minRetry {
		t.Errorf("three retries took %v, want >= %v", d, 3*minRetry)
	}

	// Take's error is returned as it is, without asking again.
	refused := errors.New("backend down")
	p = &scriptedPacer{answers: []scriptedAnswer{{err: refused}}}
	if _, err := turnTaker(t, p)(ctx, a, time.Second); !errors.Is(err, refused) || p.calls != 1 {
		t.Errorf("awaitTurn = %v after %d calls; want the backend's error after 1", err, p.calls)
	}

	// A wait past the deadline fails at once with a PacedError saying
	// when the turn may come; an ended context asks nothing.
	short, cancel := context.WithTimeout(ctx, time.Hour)
	p = &scriptedPacer{answers: []scriptedAnswer{{wait: 2 * time.Hour}}}
	asked := time.Now()
	_, err = turnTaker(t, p)(short, a, time.Second)
	cancel()
	var pe *PacedError
	if !errors.As(err, &pe) || !errors.Is(err, ErrPaced) || !errors.Is(err, context.DeadlineExceeded) || p.calls != 1 {
		t.Fatalf("awaitTurn past the deadline = %v after %d calls; want a PacedError matching DeadlineExceeded after 1", err, p.calls)
	}
	if pe.Authority != a || pe.RetryAt.Before(asked.Add(2*time.Hour)) || pe.RetryAt.After(time.Now().Add(2*time.Hour)) {
		t.Errorf("PacedError = %+v, want %s and a RetryAt 2h after the call", pe, a)
	}
	p = &scriptedPacer{answers: []scriptedAnswer{{ok: true}}}
	if _, err := turnTaker(t, p)(short, a, time.Second); !errors.Is(err, context.Canceled) || errors.Is(err, ErrPaced) || p.calls != 0 {
		t.Errorf("awaitTurn with an ended context = %v after %d calls; want Canceled after 0", err, p.calls)
	}
}

func TestTransportInterval(t *testing.T) {
	checkLeaks(t)
	delayed := newTestSite(t, "User-agent: ExampleBot\nCrawl-delay: 2\n\nUser-agent: *\nCrawl-delay: 30\n")
	plain := newTestSite(t, "User-agent: *\nDisallow: /private/\n")
	none := newTestSite(t, "")
	none.route("/robots.txt", serve(404, "not found"))
	for _, tc := range []struct {
		name string
		opts []TransportOption
		site *testSite
		want time.Duration
	}{
		{"crawl-delay for the agent", nil, delayed, 2 * time.Second},
		{"no crawl-delay", nil, plain, 0},
		{"default interval", []TransportOption{WithDefaultInterval(time.Second)}, plain, time.Second},
		{"default interval, no robots.txt", []TransportOption{WithDefaultInterval(time.Second)}, none, time.Second},
		{"crawl-delay beats the default", []TransportOption{WithDefaultInterval(time.Second)}, delayed, 2 * time.Second},
		{"lower bound", []TransportOption{WithIntervalBounds(5*time.Second, time.Minute)}, delayed, 5 * time.Second},
		{"upper bound", []TransportOption{WithIntervalBounds(0, time.Second)}, delayed, time.Second},
		{"bounds equal", []TransportOption{WithIntervalBounds(3*time.Second, 3*time.Second)}, plain, 3 * time.Second},
	} {
		c, tr, _ := newTestTransport(t, tc.opts...)
		u := tc.site.URL + "/page.html"
		d, err := c.Check(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.interval(d); got != tc.want {
			t.Errorf("%s: interval = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestTransportIntervalFollowsRobots checks that a changed crawl-delay is
// picked up once the Client holds the new robots.txt.
func TestTransportIntervalFollowsRobots(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 2\n")
	c, tr, _ := newTestTransport(t)
	ctx := context.Background()
	u := s.URL + "/page.html"
	d, err := c.Check(ctx, u)
	if err != nil || tr.interval(d) != 2*time.Second {
		t.Fatalf("interval = %v, %v; want 2s", tr.interval(d), err)
	}
	s.route("/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 0.5\n"))
	forget(c, u)
	time.Sleep(time.Millisecond) // a new copy expires at a later instant
	if d, err = c.Check(ctx, u); err != nil {
		t.Fatal(err)
	}
	if got := tr.interval(d); got != 500*time.Millisecond {
		t.Errorf("interval after robots.txt changed = %v, want 500ms", got)
	}
}

func TestNewTransportDefaults(t *testing.T) {
	c := newTestClient(t)
	tr := NewTransport(c, nil, nil)
	if tr.next != http.DefaultTransport {
		t.Errorf("next = %v, want http.DefaultTransport", tr.next)
	}
	if _, ok := tr.cfg.pacer.(*memPacer); !ok {
		t.Errorf("pacer = %T, want *memPacer", tr.cfg.pacer)
	}
	defer func() {
		if recover() == nil {
			t.Error("NewTransport(nil, …) did not panic")
		}
	}()
	NewTransport(nil, nil)
}

// cannedRoundTripper answers every request with the same response, with
// no I/O: the baseline the Transport's overhead is measured against.
type cannedRoundTripper struct{ resp *http.Response }

func (c cannedRoundTripper) RoundTrip(*http.Request) (*http.Response, error) { return c.resp, nil }

// BenchmarkTransport measures a RoundTrip through the Transport, warm
// cache, no pacing (ExampleBot's group in benchRules has no crawl-delay),
// against next alone in the same run.
func BenchmarkTransport(b *testing.B) {
	c, u := warmClient(b)
	u = strings.Replace(u, "/search/results", "/search/about", 1) // allowed
	next := cannedRoundTripper{&http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(""))}}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, u, nil)
	if err != nil {
		b.Fatal(err)
	}
	tr := NewTransport(c, next)
	if _, err := tr.RoundTrip(req); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		rt   http.RoundTripper
	}{{"next", next}, {"Transport", tr}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.rt.RoundTrip(req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// vhosts is a loopback server of name-based virtual hosts, as most web
// servers are: it picks the site by the Host header, serving each its
// robots.txt and the handlers route gives its pages, and records every
// request as host+path. dial maps every host name to it, so that no name
// reaches the system resolver.
type vhosts struct {
	*httptest.Server
	mu     sync.Mutex
	seen   []string
	routes map[string]http.HandlerFunc // by host+path
}

func newVhosts(t *testing.T, robots map[string]string) *vhosts {
	v := &vhosts{routes: make(map[string]http.HandlerFunc)}
	v.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v.mu.Lock()
		v.seen = append(v.seen, r.Host+r.URL.Path)
		h := v.routes[r.Host+r.URL.Path]
		v.mu.Unlock()
		if h != nil {
			h(w, r)
			return
		}
		if r.URL.Path == "/robots.txt" {
			_, _ = io.WriteString(w, robots[r.Host])
			return
		}
		_, _ = io.WriteString(w, "page of "+r.Host)
	}))
	t.Cleanup(v.Close)
	return v
}

func (v *vhosts) transport(t *testing.T) *http.Transport {
	tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, v.Listener.Addr().String())
	}}
	t.Cleanup(tr.CloseIdleConnections)
	return tr
}

// route serves host+path with h.
func (v *vhosts) route(hostPath string, h http.HandlerFunc) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.routes[hostPath] = h
}

func (v *vhosts) requests() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Clone(v.seen)
}

// TestTransportChecksHostHeader sends a request for a.test whose Host
// field names b.test: the server serves it from b.test, so b.test's
// robots.txt must allow it too.
func TestTransportChecksHostHeader(t *testing.T) {
	checkLeaks(t)
	v := newVhosts(t, map[string]string{"a.test": "User-agent: *\nAllow: /\n", "b.test": "User-agent: *\nDisallow: /private\n"})
	tr := v.transport(t)
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: tr}))
	hc := &http.Client{Transport: NewTransport(c, tr)}
	var de *DisallowedError
	if err := getHost(hc, "http://a.test/private/x", "b.test"); !errors.As(err, &de) || de.Decision.Authority != "http://b.test:80" {
		t.Errorf("Host b.test: %v, want b.test's disallow", err)
	}
	if err := getHost(hc, "http://a.test/private/x", "b.test:80"); !errors.Is(err, ErrDisallowed) {
		t.Errorf("Host b.test:80: %v, want ErrDisallowed", err)
	}
	for _, bad := range []string{"b.test/x", "x@b.test", "b.test\\x", "..", ".b.test"} {
		if err := getHost(hc, "http://a.test/public", bad); !errors.Is(err, ErrBadURL) {
			t.Errorf("Host %q: %v, want ErrBadURL", bad, err)
		}
	}
	if err := getHost(hc, "http://a.test/public", "b.test"); err != nil {
		t.Errorf("allowed by both: %v", err)
	}
	// A Host naming another host sent to port 8080, at port 80 by its
	// own or the scheme's (which the Transport leaves out of the Host it
	// sends): the server may pick b.test at 8080, or at 80 as RFC 9110
	// reads it.
	for _, host := range []string{"b.test", "b.test:80", "b.test:", "b.test:9090"} {
		if err := getHost(hc, "http://a.test:8080/public", host); !errors.Is(err, ErrBadURL) {
			t.Errorf("Host %s to a.test:8080: %v, want ErrBadURL", host, err)
		}
	}
	if err := getHost(hc, "http://a.test/public", "b.test:8080"); !errors.Is(err, ErrBadURL) {
		t.Errorf("Host b.test:8080 to a.test:80: %v, want ErrBadURL", err)
	}
	for _, host := range []string{"b.test:8080", "a.test"} {
		if err := getHost(hc, "http://a.test:8080/public", host); err != nil {
			t.Errorf("Host %s to a.test:8080: %v", host, err)
		}
	}
	if err := getHost(hc, "http://a.test/private/x", "A.TEST"); err != nil {
		t.Errorf("Host naming the URL's own authority: %v", err)
	}
	opaque, _ := http.NewRequest(http.MethodGet, "http://a.test/", nil)
	opaque.URL.Opaque = "//b.test/private/x"
	if _, err := hc.Do(opaque); !errors.Is(err, ErrBadURL) {
		t.Errorf("opaque URL: %v, want ErrBadURL", err)
	}
	// url.JoinPath on a URL without a path gives a path without its
	// leading "/", which net/http writes as it is ("GET private/x").
	base, _ := url.Parse("http://b.test")
	for _, u := range []*url.URL{base.JoinPath("private", "x"), {Scheme: "http", Host: "b.test", Path: "@a.test/private"},
		{Scheme: "http", Host: "b.test", Path: "/@a.test/private", RawPath: "%2F@a.test/private"}} {
		if _, err := hc.Do(&http.Request{Method: http.MethodGet, URL: u, Header: http.Header{}}); !errors.Is(err, ErrBadURL) {
			t.Errorf("path %q: %v, want ErrBadURL", u.Path, err)
		}
	}
	for _, r := range v.requests() {
		if strings.Contains(r, "/private") && strings.HasPrefix(r, "b.test") || strings.HasPrefix(r, "b.test/private") {
			t.Errorf("the server served %s", r)
		}
	}
	if !slices.Contains(v.requests(), "b.test/public") {
		t.Errorf("requests %q: the allowed one was not sent", v.requests())
	}
}

// TestTransportCrawlDelayClamped: a Crawl-delay beyond the longest the
// library keeps is kept as the longest, not ignored.
func TestTransportCrawlDelayClamped(t *testing.T) {
	checkLeaks(t)
	for _, v := range []string{"86401", "1e9"} {
		s := newTestSite(t, "User-agent: *\nCrawl-delay: "+v+"\n")
		c, _, hc := newTestTransport(t, WithMaxWait(50*time.Millisecond))
		if _, err := get(context.Background(), hc, s.URL+"/a"); err != nil {
			t.Fatal(err)
		}
		if info, _, ok := held(c, s.URL); !ok {
			t.Fatal("not cached")
		} else if info.CrawlDelay != 24*time.Hour {
			t.Errorf("Crawl-delay: %s reads as %v; want 24h", v, info.CrawlDelay)
		}
		if _, err := get(context.Background(), hc, s.URL+"/b"); err == nil {
			t.Errorf("Crawl-delay: %s: a second request was sent at once", v)
		}
		if n := len(s.times("/b")); n != 0 {
			t.Errorf("Crawl-delay: %s: /b reached the server", v)
		}
	}
}

// TestTransportChecksSentHostForIDN sends requests to internationalised
// names that the dial maps (UTS #46) but net/http's Host header does not:
// the server is asked for the punycode of the unmapped name, another
// site, whose robots.txt must allow the request too.
func TestTransportChecksSentHostForIDN(t *testing.T) {
	checkLeaks(t)
	v := newVhosts(t, map[string]string{
		"b.test":         "User-agent: *\nAllow: /\n",
		"xn--ni7c.test":  "User-agent: *\nDisallow: /\n",
		"xn--b-vca.test": "User-agent: *\nDisallow: /\n",
	})
	tr := v.transport(t)
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: tr}))
	hc := &http.Client{Transport: NewTransport(c, tr)}
	for _, u := range []string{"http://\uff42.test/x", "http://b\u00ad.test/x"} {
		if _, err := get(context.Background(), hc, u); !errors.Is(err, ErrDisallowed) {
			t.Errorf("GET %q: %v, want ErrDisallowed by the site its Host header names", u, err)
		}
	}
	if _, err := get(context.Background(), hc, "http://b.test/x"); err != nil {
		t.Errorf("GET b.test: %v", err)
	}
	for _, r := range v.requests() {
		if !strings.HasSuffix(r, "/robots.txt") && r != "b.test/x" {
			t.Errorf("the server served %s", r)
		}
	}
}

// TestTransportRechecksAfterWaiting: robots.txt that changes while a
// request waits for its turn is obeyed; the request is checked again
// before it is sent.
func TestTransportRechecksAfterWaiting(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 0.3\n")
	c, _, hc := newTestTransport(t)
	if _, err := get(context.Background(), hc, s.URL+"/a"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := get(context.Background(), hc, s.URL+"/private/b"); done <- err }()
	time.Sleep(100 * time.Millisecond) // /private/b is waiting for its turn
	s.route("/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 0.3\nDisallow: /private\n"))
	forget(c, s.URL)
	if err := <-done; !errors.Is(err, ErrDisallowed) {
		t.Errorf("the waiting request: %v, want ErrDisallowed by the new robots.txt", err)
	}
	if n := len(s.times("/private/b")); n != 0 {
		t.Error("the waiting request was sent")
	}
}

// TestTransportRechecksPaceAfterWaiting: a request that waited for its
// turn is paced by the robots.txt it is checked against after the wait:
// a crawl-delay raised meanwhile, which its deadline cannot meet, and a
// Retry-After hold that a fetch of the expired robots.txt met, refuse it
// unsent (it went at the old pace, in the turn taken before the check).
func TestTransportRechecksPaceAfterWaiting(t *testing.T) {
	for _, tc := range []struct {
		name   string
		robots http.HandlerFunc
	}{
		{"raised crawl-delay", serve(200, "User-agent: *\nCrawl-delay: 5\n")},
		{"503 with Retry-After", serve(503, "busy", "Retry-After", "30")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			s := newTestSite(t, "User-agent: *\nCrawl-delay: 0.4\n")
			c := newTestClient(t, WithUserAgent(testUA), WithMaxFreshness(200*time.Millisecond))
			next := &http.Transport{}
			t.Cleanup(next.CloseIdleConnections)
			hc := &http.Client{Transport: NewTransport(c, next)}
			if _, err := get(context.Background(), hc, s.URL+"/a"); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				_, err := get(ctx, hc, s.URL+"/b")
				done <- err
			}()
			time.Sleep(250 * time.Millisecond) // /b waits; the copy of robots.txt expires
			s.route("/robots.txt", tc.robots)
			if err := <-done; !errors.Is(err, ErrPaced) {
				t.Errorf("the waiting request: %v, want ErrPaced", err)
			}
			if n := len(s.times("/robots.txt")); n != 2 {
				t.Errorf("robots.txt fetched %d times, want again after the wait", n)
			}
			if b := s.times("/b"); len(b) != 0 {
				t.Errorf("the waiting request was sent %v after /a", b[0].Sub(s.times("/a")[0]))
			}
		})
	}
}

// TestTransportRechecksAfterEveryWait (review123): /p2 waits behind /p1,
// whose body its caller keeps open for 3 s under a Crawl-delay of 1 s,
// so /p2 waits several times. The site then disallows everything, and
// the Client's own check says so: /p2, checked again after every wait,
// is not sent (checked after its first wait only, it was).
func TestTransportRechecksAfterEveryWait(t *testing.T) {
	checkLeaks(t)
	var disallow atomic.Bool
	var p2At atomic.Int64
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Header().Set("Cache-Control", "max-age=1")
			if disallow.Load() {
				io.WriteString(w, "User-agent: *\nDisallow: /\nCrawl-delay: 1\n")
				return
			}
			io.WriteString(w, "User-agent: *\nAllow: /\nCrawl-delay: 1\n")
		case "/p2":
			p2At.Store(time.Now().UnixNano())
			io.WriteString(w, "page")
		default:
			io.WriteString(w, "page")
		}
	})
	next := portTwins(t, h)
	c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA), WithMinFreshness(time.Second)}, WithMaxWait(10*time.Second))
	defer c.Close()
	hc := &http.Client{Transport: tr}

	p1, err := hc.Get("http://a.test/p1")
	if err != nil {
		t.Fatal(err)
	}
	go func() { // the site's turn, held for 3 s
		time.Sleep(3 * time.Second)
		io.Copy(io.Discard, p1.Body)
		p1.Body.Close()
	}()
	type result struct {
		resp *http.Response
		err  error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := hc.Get("http://a.test/p2")
		got <- result{resp, err}
	}()
	time.Sleep(1500 * time.Millisecond) // /p2 woke once (1 s) and was checked again, allowed
	disallow.Store(true)
	time.Sleep(1100 * time.Millisecond) // the copy checked at 1 s expires
	allowed, err := c.Allowed(context.Background(), "http://a.test/p2")
	if err != nil || allowed {
		t.Fatalf("Allowed(/p2) after the change = %v, %v; want false", allowed, err)
	}
	checkedAt := time.Now()
	r := <-got
	if r.err == nil {
		io.Copy(io.Discard, r.resp.Body)
		r.resp.Body.Close()
	}
	var dis *DisallowedError
	switch {
	case p2At.Load() > checkedAt.UnixNano():
		t.Errorf("/p2 was sent %v after the Client's own check found robots.txt disallows it (err %v)",
			time.Duration(p2At.Load()-checkedAt.UnixNano()).Round(time.Millisecond), r.err)
	case !errors.As(r.err, &dis):
		t.Errorf("/p2: %v, want a *DisallowedError", r.err)
	}
}

// TestTransportRecheckWithinTheWait: a recheck after the wait whose
// fetch of robots.txt takes the rest of the longest wait refuses the
// request with a PacedError, unsent.
func TestTransportRecheckWithinTheWait(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 0.3\n")
	c := newTestClient(t, WithUserAgent(testUA), WithMaxFreshness(200*time.Millisecond))
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	hc := &http.Client{Transport: NewTransport(c, next, WithMaxWait(time.Second))}
	if _, err := get(context.Background(), hc, s.URL+"/a"); err != nil {
		t.Fatal(err)
	}
	s.route("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(1200 * time.Millisecond)
		fmt.Fprint(w, "User-agent: *\nCrawl-delay: 0.3\n")
	})
	if _, err := get(context.Background(), hc, s.URL+"/b"); !errors.Is(err, ErrPaced) {
		t.Errorf("after a recheck past the longest wait: %v, want ErrPaced", err)
	}
	if n := len(s.times("/b")); n != 0 {
		t.Error("the request was sent")
	}
}

// wire is a raw TCP server on loopback that records the head of every
// request it receives, as the bytes arrived, and answers 200 with an empty
// body (404 for robots.txt: allow all).
type wire struct {
	ln    net.Listener
	wg    sync.WaitGroup
	mu    sync.Mutex
	heads []string
}

func newWire(t *testing.T) *wire {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w := &wire{ln: ln}
	var conns sync.Map
	w.wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Store(conn, nil)
			w.wg.Go(func() { w.serve(conn) })
		}
	})
	t.Cleanup(func() {
		_ = ln.Close()
		conns.Range(func(c, _ any) bool { _ = c.(net.Conn).Close(); return true })
		w.wg.Wait()
	})
	return w
}

func (w *wire) serve(conn net.Conn) {
	defer conn.Close()
	br := bufio.NewReader(conn)
	for {
		var head strings.Builder
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			head.WriteString(line)
			if line == "\r\n" {
				break
			}
		}
		status := "200 OK"
		if strings.HasPrefix(head.String(), "GET /robots.txt ") {
			status = "404 Not Found"
		} else {
			w.mu.Lock()
			w.heads = append(w.heads, head.String())
			w.mu.Unlock()
		}
		if _, err := io.WriteString(conn, "HTTP/1.1 "+status+"\r\nContent-Length: 0\r\n\r\n"); err != nil {
			return
		}
	}
}

func (w *wire) url() string { return "http://" + w.ln.Addr().String() }

// last returns the head of the last page request received, or "".
func (w *wire) last() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.heads) == 0 {
		return ""
	}
	return w.heads[len(w.heads)-1]
}

// fieldValues returns the values of the lines of head whose field name is
// name in any case, as a server that joins duplicates would read them.
func fieldValues(head, name string) []string {
	var vs []string
	for _, line := range strings.Split(head, "\r\n")[1:] {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(k), name) {
			vs = append(vs, strings.TrimSpace(v))
		}
	}
	return vs
}

// h2Site is a loopback HTTP/2 server over TLS that records the User-Agent
// values and the Host of the last page request it received.
type h2Site struct {
	*httptest.Server
	mu        sync.Mutex
	proto     string
	agents    []string
	host      string
	requested bool
}

func newH2Site(t *testing.T) *h2Site {
	s := &h2Site{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		s.mu.Lock()
		s.proto, s.agents, s.host, s.requested = r.Proto, r.Header.Values("User-Agent"), r.Host, true
		s.mu.Unlock()
	}))
	s.EnableHTTP2 = true
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

// seen returns what the last page request carried, and forgets it.
func (s *h2Site) seen() (proto string, agents []string, host string, requested bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() { s.proto, s.agents, s.host, s.requested = "", nil, "", false }()
	return s.proto, s.agents, s.host, s.requested
}

// TestTransportRefusesHostKeys: net/http sends the Host from Request.Host
// (or the URL) and ignores a "Host" key in the header, but writes any other
// spelling of it as a second Host line, which servers that take the last
// one would serve. Such a key is refused with ErrBadURL, as is a "Host" key
// naming another host; over HTTP/1.1 and HTTP/2 the server sees one Host.
func TestTransportRefusesHostKeys(t *testing.T) {
	checkLeaks(t)
	for _, tc := range []struct {
		name   string
		header func(host string) http.Header
		ok     bool
	}{
		{"lower case, another site", func(string) http.Header { return http.Header{"host": {"other.test"}} }, false},
		{"upper case, the same", func(h string) http.Header { return http.Header{"HOST": {h}} }, false},
		{"mixed case, another site", func(string) http.Header { return http.Header{"hOsT": {"other.test"}} }, false},
		{"blank around the key", func(string) http.Header { return http.Header{"Host ": {"other.test"}} }, false},
		{"canonical, another site", func(string) http.Header { return http.Header{"Host": {"other.test"}} }, false},
		{"canonical, two values", func(h string) http.Header { return http.Header{"Host": {h, "other.test"}} }, false},
		{"canonical, the same", func(h string) http.Header { return http.Header{"Host": {h}} }, true},
		{"none", func(string) http.Header { return http.Header{} }, true},
	} {
		w, h2 := newWire(t), newH2Site(t)
		for _, proto := range []string{"HTTP/1.1", "HTTP/2.0"} {
			req, err := sendThrough(w.url(), h2, proto, tc.header)
			var hosts []string
			if proto == "HTTP/1.1" {
				hosts = fieldValues(w.last(), "Host")
			} else if _, _, h, requested := h2.seen(); requested {
				hosts = []string{h}
			}
			switch {
			case !tc.ok && (!errors.Is(err, ErrBadURL) || hosts != nil):
				t.Errorf("%s over %s: %v, server saw Host %q; want ErrBadURL, nothing sent", tc.name, proto, err, hosts)
			case tc.ok && (err != nil || !slices.Equal(hosts, []string{req.URL.Host})):
				t.Errorf("%s over %s: %v, server saw Host %q; want only %q", tc.name, proto, err, hosts, req.URL.Host)
			}
		}
	}
}

// TestTransportPacesTheSiteServed: a site's turn is one turn whatever
// address or spelling reaches it. A crawler that resolves names itself
// sends site.test's pages to each of its addresses with Host: site.test;
// they share site.test's turn, as do its pages asked for by name or with
// a Host naming another port, and an IPv4 address and its IPv4-mapped
// IPv6 spellings are one authority.
func TestTransportPacesTheSiteServed(t *testing.T) {
	checkLeaks(t)
	v := newVhosts(t, map[string]string{"site.test": "User-agent: *\nCrawl-delay: 60\n", "10.0.0.9": "User-agent: *\nCrawl-delay: 60\n"})
	c, tr := NewClientTransport(v.transport(t), []Option{WithUserAgent(testUA)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	if err := getHost(hc, "http://10.0.0.1/a", "site.test"); err != nil {
		t.Fatal(err)
	}
	var pe *PacedError
	for _, r := range [][2]string{
		{"http://10.0.0.2/b", "site.test"}, {"http://10.0.0.1/c", "site.test"}, {"http://site.test/d", ""},
		{"http://[::ffff:10.0.0.3]/e", "SITE.test."}, {"http://[2001:db8::1]/f", "site.test:80"},
		{"http://site.test/i", "site.test:8080"}, // sent to site.test's server, which picks a site by name
	} {
		if err := getHost(hc, r[0], r[1]); !errors.As(err, &pe) || pe.Authority != "http://site.test:80" {
			t.Errorf("%s with Host %q right after site.test's page: %v, want site.test's turn not free", r[0], r[1], err)
		}
	}
	// The interval is the longer of the two robots.txt files' Crawl-delays:
	// pages of example.test (none) asked of 10.0.0.9 (60 s) are paced.
	if err := getHost(hc, "http://10.0.0.9/g", "example.test"); err != nil {
		t.Fatal(err)
	}
	if err := getHost(hc, "http://10.0.0.9/h", "example.test"); !errors.As(err, &pe) || pe.Authority != "http://example.test:80" {
		t.Errorf("a second page of example.test asked of 10.0.0.9: %v, want example.test's turn not free", err)
	}
	// So they are when the cache holds one robots.txt: checking the
	// Host's evicts the address's, whose Crawl-delay still counts.
	c1, tr1 := NewClientTransport(v.transport(t), []Option{WithUserAgent(testUA), WithCacheSize(1)}, WithNoWait())
	t.Cleanup(func() { _ = c1.Close() })
	hc1 := &http.Client{Transport: tr1}
	if err := getHost(hc1, "http://10.0.0.9/i", "other.test"); err != nil {
		t.Fatal(err)
	}
	if err := getHost(hc1, "http://10.0.0.9/j", "other.test"); !errors.As(err, &pe) || pe.Authority != "http://other.test:80" {
		t.Errorf("a second page of other.test asked of 10.0.0.9, one robots.txt cached: %v, want other.test's turn not free", err)
	}
	for _, r := range v.requests() {
		if !strings.HasSuffix(r, "/robots.txt") && !strings.HasSuffix(r, "/a") && !strings.HasSuffix(r, "/g") && !strings.HasSuffix(r, "/i") {
			t.Errorf("the server served %s", r)
		}
	}

	// Through a real dial: 127.0.0.1 and its IPv4-mapped spellings.
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 60\n")
	_, _, hc = newTestTransport(t, WithNoWait())
	if err := getHost(hc, s.URL+"/a", ""); err != nil {
		t.Fatal(err)
	}
	port := s.URL[strings.LastIndexByte(s.URL, ':'):]
	for _, u := range []string{"http://[::ffff:127.0.0.1]" + port + "/b", "http://[::FFFF:7F00:1]" + port + "/c",
		"http://[0:0:0:0:0:ffff:7f00:0001]" + port + "/d", "http://127.0.0.1" + port + "/e"} {
		if err := getHost(hc, u, ""); !errors.Is(err, ErrPaced) {
			t.Errorf("%s right after %s/a: %v, want ErrPaced", u, s.URL, err)
		}
	}
	if got := s.got(); slices.ContainsFunc(got, func(p string) bool { return p != "/a" && p != "/robots.txt" }) {
		t.Errorf("the server saw %q", got)
	}
}

// TestTransportJudgesEveryUserAgentSpelling: net/http writes every key of
// a request's header, whatever its case, so a "user-agent" key would go
// out beside the User-Agent the Transport checked. Over HTTP/1.1 (as the
// bytes arrive) and HTTP/2, a request goes out with one User-Agent that
// names the Client's token, or is refused with ErrAgentMismatch.
func TestTransportJudgesEveryUserAgentSpelling(t *testing.T) {
	checkLeaks(t)
	const other = "OtherBot/2.0"
	// As Google's Mediapartners-Google sends it, with products no browser
	// list holds (CriOS) before the crawler's.
	const mobileUA = "Mozilla/5.0 (iPhone; CPU iPhone OS 10_3 like Mac OS X) AppleWebKit/602.1.50 (KHTML, like Gecko) " +
		"CriOS/56.0.2924.75 Mobile/14E5239e Safari/602.1 (compatible; ExampleBot/1.0; +https://example.com/bot)"
	for _, tc := range []struct {
		name   string
		header http.Header
		sent   string // the User-Agent the server must see, "" for a refusal
	}{
		{"none", http.Header{}, testUA},
		{"the Client's", http.Header{"User-Agent": {testUA}}, testUA},
		{"lower case, another crawler", http.Header{"user-agent": {other}}, ""},
		{"upper case beside the Client's", http.Header{"User-Agent": {testUA}, "USER-AGENT": {other}}, ""},
		{"mixed case beside the Client's", http.Header{"User-Agent": {testUA}, "uSeR-aGeNt": {other}}, ""},
		{"another crawler second", http.Header{"User-Agent": {testUA, other}}, ""},
		{"the Client's twice", http.Header{"User-Agent": {testUA}, "user-agent": {testUA}}, ""},
		{"the Client's twice in one key", http.Header{"User-Agent": {testUA, testUA}}, ""},
		{"blank around the key", http.Header{"User-Agent": {testUA}, " user-agent\t": {other}}, ""},
		{"lower case, the Client's", http.Header{"user-agent": {testUA}}, testUA},
		{"mixed case, the Client's token", http.Header{"uSER-agENT": {"ExampleBot/2.0"}}, "ExampleBot/2.0"},
		{"lower case without values", http.Header{"user-agent": {}}, testUA},
		{"another crawler compatible with the Client", http.Header{"User-Agent": {"Googlebot/2.1 (compatible; ExampleBot/1.0)"}}, ""},
		// Names no user-agent line can give are another crawler's all the same.
		{"another crawler's name with digits", http.Header{"User-Agent": {"MJ12bot/v1.4.8 (compatible; ExampleBot/1.0)"}}, ""},
		{"another crawler's name against its comment", http.Header{"User-Agent": {"Googlebot(compatible; ExampleBot/1.0)"}}, ""},
		{"a browser compatible with a crawler of digits", http.Header{"User-Agent": {"Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/) ExampleBot/1.0"}}, ""},
		{"a browser compatible with a crawler of dots", http.Header{"User-Agent": {"Mozilla/5.0 (compatible; Mail.RU_Bot/2.0) ExampleBot/1.0"}}, ""},
		{"a crawler of digits after a browser", http.Header{"User-Agent": {"Mozilla/5.0 (compatible) AI2Bot (+https://www.allenai.org/crawler) ExampleBot/1.0"}}, ""},
		{"the Client's, compatible with a browser", http.Header{"User-Agent": {"ExampleBot/2.0 (compatible; Mozilla/5.0)"}}, "ExampleBot/2.0 (compatible; Mozilla/5.0)"},
		{"a browser compatible with the Client", http.Header{"User-Agent": {"Mozilla/5.0 (compatible; ExampleBot/1.0)"}}, "Mozilla/5.0 (compatible; ExampleBot/1.0)"},
		{"a mobile browser compatible with the Client", http.Header{"User-Agent": {mobileUA}}, mobileUA},
	} {
		w, h2 := newWire(t), newH2Site(t)
		for _, proto := range []string{"HTTP/1.1", "HTTP/2.0"} {
			req, err := sendThrough(w.url(), h2, proto, func(string) http.Header { return tc.header.Clone() })
			var agents []string
			if proto == "HTTP/1.1" {
				agents = fieldValues(w.last(), "User-Agent")
			} else {
				got, a, _, requested := h2.seen()
				if requested && got != proto {
					t.Fatalf("%s: the server spoke %s", tc.name, got)
				}
				agents = a
			}
			switch {
			case tc.sent == "" && !errors.Is(err, ErrAgentMismatch):
				t.Errorf("%s over %s: %v, server saw User-Agent %q; want ErrAgentMismatch", tc.name, proto, err, agents)
			case tc.sent == "" && agents != nil:
				t.Errorf("%s over %s: refused, yet the server saw User-Agent %q", tc.name, proto, agents)
			case tc.sent != "" && (err != nil || !slices.Equal(agents, []string{tc.sent})):
				t.Errorf("%s over %s: %v; the server saw User-Agent %q, want only %q", tc.name, proto, err, agents, tc.sent)
			}
			if !slices.Equal(req.Header["User-Agent"], tc.header["User-Agent"]) {
				t.Errorf("%s over %s: the caller's request was changed", tc.name, proto)
			}
		}
	}
}

// sendThrough sends GET /page with the header header(host) through a new
// Client's Transport, over HTTP/1.1 to plain or HTTP/2 to h2, and returns
// the request and its error.
func sendThrough(plain string, h2 *h2Site, proto string, header func(host string) http.Header) (*http.Request, error) {
	next, target := http.RoundTripper(&http.Transport{}), plain
	if proto == "HTTP/2.0" {
		next, target = h2.Client().Transport, h2.URL
	}
	c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA)})
	defer func() { _ = c.Close() }()
	defer next.(*http.Transport).CloseIdleConnections()
	req, _ := http.NewRequest(http.MethodGet, target+"/page", nil)
	req.Header = header(req.URL.Host)
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err == nil {
		resp.Body.Close()
	}
	return req, err
}

// TestTransportSendsNoOtherSpelling sends the spellings that reach a
// disallowed path through a real http.Client with the Transport: the
// server never sees them.
func TestTransportSendsNoOtherSpelling(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nDisallow: /private\n")
	_, _, hc := newTestTransport(t)
	for _, p := range []string{"/public/../private/x", "//private/x", "/%70rivate/x", "/public%2F..%2Fprivate/x"} {
		if _, err := get(context.Background(), hc, s.URL+p); !errors.Is(err, ErrDisallowed) {
			t.Errorf("GET %s: %v, want ErrDisallowed", p, err)
		}
	}
	if _, err := get(context.Background(), hc, s.URL+"/public//x"); err != nil {
		t.Errorf("GET /public//x: %v", err)
	}
	for _, p := range s.got() {
		if p != "/robots.txt" && p != "/public//x" {
			t.Errorf("the server saw %q", p)
		}
	}
	if got := s.got(); !slices.Contains(got, "/public//x") {
		t.Errorf("the allowed request was not sent: %q", got)
	}
}

// TestTransportPanicEndsTheTurn: a panic in next, in its RoundTrip or in
// the Close of its response's body, ends the request's pacing turn, as a
// failed request does; it held the site for the turn's 30-second lease.
func TestTransportPanicEndsTheTurn(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	c := newTestClient(t, WithUserAgent(testUA))
	plain := &http.Transport{}
	t.Cleanup(plain.CloseIdleConnections)
	next := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Path == "/boom" {
			panic("boom in next")
		}
		resp, err := plain.RoundTrip(req)
		if err == nil && req.URL.Path == "/boom-in-close" {
			body := resp.Body
			resp.Body = struct {
				io.Reader
				io.Closer
			}{body, closerFunc(func() error { body.Close(); panic("boom in next's body's Close") })}
		}
		return resp, err
	})
	hc := &http.Client{Transport: NewTransport(c, next, WithDefaultInterval(10*time.Millisecond))}
	for _, path := range []string{"/boom", "/boom-in-close"} {
		func() {
			defer func() {
				if v := recover(); v == nil {
					t.Errorf("%s: next's panic did not reach the caller", path)
				}
			}()
			if resp, err := hc.Get(s.URL + path); err == nil {
				_ = resp.Body.Close() // unread: its Close ends the turn
			}
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		if _, err := get(ctx, hc, s.URL+"/next"); err != nil {
			t.Errorf("after %s, the next request: %v; want it sent within 2 s", path, err)
		}
		cancel()
	}
}

// TestTransportNilResponse: a next RoundTripper that returns neither a
// response nor an error breaks its contract; the Transport returns an
// error, as http.Client does, not a panic, and the turn ends.
func TestTransportNilResponse(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	c := newTestClient(t, WithUserAgent(testUA))
	plain := &http.Transport{}
	t.Cleanup(plain.CloseIdleConnections)
	next := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Path == "/nothing" {
			return nil, nil
		}
		return plain.RoundTrip(req)
	})
	tr := NewTransport(c, next, WithDefaultInterval(10*time.Millisecond))
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/nothing", nil)
	if resp, err := tr.RoundTrip(req); resp != nil || err == nil || !strings.Contains(err.Error(), "nil *Response") {
		t.Errorf("next returned (nil, nil): %v, %v; want an error", resp, err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	if _, err := get(ctx, &http.Client{Transport: tr}, s.URL+"/next"); err != nil {
		t.Errorf("the next request: %v; want it sent within 2 s", err)
	}
}

// TestTransportPanicInRecheckEndsTheTurn: a request that waited for its
// turn checks robots.txt again; a panic there (a fill's, raised in the
// request's goroutine) ends its turn too.
func TestTransportPanicInRecheckEndsTheTurn(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	clock := newTestClock()
	var boom atomic.Bool
	policy := WithStatusPolicy(func(status int) Outcome {
		if boom.Load() {
			panic("boom in the status policy")
		}
		return defaultStatusPolicy(status)
	})
	c := newTestClient(t, WithUserAgent(testUA), WithClock(clock.Now), policy)
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	hc := &http.Client{Transport: NewTransport(c, next, WithDefaultInterval(300*time.Millisecond))}
	if _, err := get(context.Background(), hc, s.URL+"/a"); err != nil {
		t.Fatal(err)
	}
	// While /b waits for its turn, robots.txt expires and its fill panics.
	time.AfterFunc(100*time.Millisecond, func() { boom.Store(true); clock.Advance(48 * time.Hour) })
	func() {
		defer func() {
			if v := recover(); v == nil {
				t.Error("the fill's panic did not reach the caller")
			}
		}()
		_, _ = get(context.Background(), hc, s.URL+"/b")
	}()
	boom.Store(false)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := get(ctx, hc, s.URL+"/c"); err != nil {
		t.Errorf("the next request: %v; want it sent within 2 s", err)
	}
}

// TestTransportTurnLastsTheBody: a site's turn lasts until the response's
// body has been read or closed, not only until its headers: another
// worker's request does not reach the site while a body is being sent.
func TestTransportTurnLastsTheBody(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 0.01\n")
	var sending atomic.Bool
	came := make(chan struct{})
	s.route("/big", func(w http.ResponseWriter, r *http.Request) {
		sending.Store(true)
		fmt.Fprint(w, "first half")
		w.(http.Flusher).Flush()
		select { // the rest when /small comes, or after long enough for it to
		case <-came:
		case <-time.After(500 * time.Millisecond):
		}
		fmt.Fprint(w, ", second half")
		sending.Store(false)
	})
	s.route("/small", func(w http.ResponseWriter, r *http.Request) {
		if sending.Load() {
			t.Error("/small reached the site while /big's body was being sent")
			close(came)
		}
	})
	_, _, hc := newTestTransport(t)
	resp, err := hc.Get(s.URL + "/big")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := get(context.Background(), hc, s.URL+"/small"); done <- err }()
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(b) != "first half, second half" {
		t.Errorf("/big: %q, %v", b, err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestTransportKeepsTheCallersTrailer: a request the Transport copies to
// give it the User-Agent keeps the caller's trailer, which net/http lets
// it fill while the body is read; the copy's, as it stood, went out.
func TestTransportKeepsTheCallersTrailer(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	got := make(chan string, 1)
	s.route("/post", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		got <- r.Trailer.Get("X-Checksum")
	})
	_, _, hc := newTestTransport(t)
	req, err := http.NewRequest(http.MethodPost, s.URL+"/post", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Body = &trailerBody{strings.NewReader("payload"), req}
	req.ContentLength = -1
	req.Trailer = http.Header{"X-Checksum": nil}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if v := <-got; v != "abc123" {
		t.Errorf("the server got trailer X-Checksum %q, want abc123", v)
	}
}

// A trailerBody sets its request's X-Checksum trailer once it is read.
type trailerBody struct {
	r   io.Reader
	req *http.Request
}

func (b *trailerBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		b.req.Trailer.Set("X-Checksum", "abc123")
	}
	return n, err
}

func (b *trailerBody) Close() error { return nil }

// TestTransportSwitchingProtocolsBody: a 101's body, the connection, is
// handed over as next gave it, writable.
func TestTransportSwitchingProtocolsBody(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 1\n")
	c := newTestClient(t, WithUserAgent(testUA))
	conn, peer := net.Pipe()
	defer peer.Close()
	next := cannedRoundTripper{&http.Response{StatusCode: http.StatusSwitchingProtocols, Header: http.Header{}, Body: conn}}
	req, err := http.NewRequest(http.MethodGet, s.URL+"/chat", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := NewTransport(c, next).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, ok := resp.Body.(io.Writer); !ok {
		t.Errorf("a 101's body is a %T, want the io.ReadWriteCloser next gave", resp.Body)
	}
}

// emptyBodies answers every request with an empty body that is not
// http.NoBody, as HTTP/2 answers a HEAD or a 204.
type emptyBodies struct{ next http.RoundTripper }

func (e emptyBodies) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path == "/robots.txt" {
		return e.next.RoundTrip(req)
	}
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")),
		Request: req, ContentLength: 0}, nil
}

// TestTransportEmptyBodyHoldsNoTurn: a response that holds no body (a
// HEAD's, HTTP/2's own empty one), which callers often leave open, ends
// its turn at once.
func TestTransportEmptyBodyHoldsNoTurn(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 0.01\n")
	c := newTestClient(t, WithUserAgent(testUA))
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	hc := &http.Client{Transport: NewTransport(c, emptyBodies{tr}, WithNoWait())}
	for _, path := range []string{"/a", "/b"} {
		resp, err := hc.Head(s.URL + path) // the body left open
		if err != nil {
			t.Fatalf("HEAD %s: %v", path, err)
		}
		_ = resp
		time.Sleep(50 * time.Millisecond)
	}
}

// A countedH2 is an HTTPS loopback server that speaks HTTP/2 and counts
// the connections dialled to it and the requests it gets.
type countedH2 struct {
	*httptest.Server
	dials, requests atomic.Int64
}

// h2Transport serves each host:port of handlers (as net/http names what
// it dials) from a countedH2 of its own, with HTTP/2 as
// http.DefaultTransport and PublicOnly attempt it, dialling nothing else.
func h2Transport(t *testing.T, handlers map[string]http.HandlerFunc) (*http.Transport, map[string]*countedH2) {
	sites := map[string]*countedH2{}
	for addr, h := range handlers {
		s := &countedH2{}
		s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.requests.Add(1)
			h(w, r)
		}))
		s.EnableHTTP2 = true
		s.Config.ErrorLog = log.New(io.Discard, "", 0)
		s.StartTLS()
		t.Cleanup(s.Close)
		sites[addr] = s
	}
	var d net.Dialer
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			s, ok := sites[addr]
			if !ok {
				return nil, fmt.Errorf("no test listener for %s", addr)
			}
			s.dials.Add(1)
			return d.DialContext(ctx, network, s.Listener.Addr().String())
		},
		ForceAttemptHTTP2: true,
		TLSClientConfig:   &tls.Config{InsecureSkipVerify: true},
	}
	t.Cleanup(tr.CloseIdleConnections)
	return tr, sites
}

// TestTransportCapitalIDNOverHTTP2: a page at an internationalised host
// written with a capital letter ("https://Bücher.test/page", as a link
// may write it) is sent over HTTP/2 on one connection: handed to net/http
// as written, its HTTP/2 pool keyed the connection it dialled by the
// lower-case A-label and looked it up by the one with the case kept,
// missed, and dialled again until the request's context ended,
// hundreds of connections a second (golang/go#80417).
func TestTransportCapitalIDNOverHTTP2(t *testing.T) {
	next, sites := h2Transport(t, map[string]http.HandlerFunc{"xn--bcher-kva.test:443": func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
		}
	}})
	c, rt := NewClientTransport(next, []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	site := sites["xn--bcher-kva.test:443"]
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "https://B\u00fccher.test/page", nil)
	resp, err := (&http.Client{Transport: rt}).Do(req)
	if err == nil {
		resp.Body.Close()
	}
	if err != nil || site.dials.Load() > 2 {
		t.Fatalf("GET https://B\u00fccher.test/page over HTTP/2: %v; the site got %d connections and %d requests",
			err, site.dials.Load(), site.requests.Load())
	}
	// The response's request shows the URL asked for: no redirect.
	if got := resp.Request.URL.String(); got != req.URL.String() {
		t.Errorf("resp.Request.URL = %s, want %s", got, req.URL)
	}
}

// TestTransportDeadlineInStoreLookupDefers: a request whose deadline
// comes while the Client waits for its Store (slower than the deadline,
// within WithStoreTimeout) is deferred until its fill, Store look-up
// first, will have ended: told the fetch timeout alone, a crawler came
// back before the fetch began, and was deferred again.
func TestTransportDeadlineInStoreLookupDefers(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	fetched := make(chan time.Time, 4)
	w.on("a.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		fetched <- time.Now()
		_, _ = io.WriteString(rw, "User-agent: *\nAllow: /\n")
	})
	w.on("a.test/page", serve(200, "page", "Content-Type", "text/plain"))
	st := newMemStore()
	st.hang()
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA), WithStore(st),
		WithStoreTimeout(1500 * time.Millisecond), WithFetchTimeout(300 * time.Millisecond)})
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr, Timeout: 800 * time.Millisecond}
	_, err := get(context.Background(), hc, "http://a.test/page")
	var de *DeferredError
	if !errors.As(err, &de) || de.Failures != 0 {
		t.Fatalf("a request whose deadline came in the Store lookup: %v; want a Failures-0 DeferredError", err)
	}
	select {
	case at := <-fetched:
		t.Logf("robots.txt fetched %v before the deferral's RetryAt", de.RetryAt.Sub(at))
	case <-time.After(time.Until(de.RetryAt)):
		t.Errorf("%q (RetryAt in %v): no robots.txt fetch was under way, nor had one ended by RetryAt",
			de.Error(), time.Until(de.RetryAt))
	}
	_ = st.release()
}

// TestReceiptCutPageIDN: a page at a host that is not ASCII, read in
// part, is read as cut, as at an ASCII host: sent with its URL's host
// rewritten, it was no longer known as sent by the Transport, and a head
// past the cut read as whole (its noai lost).
func TestReceiptCutPageIDN(t *testing.T) {
	checkLeaks(t)
	page := "<html><head><script>" + strings.Repeat("x", 200<<10) + `</script><meta name="robots" content="noai"></head><body>x</body>`
	w := newHosts(t)
	for _, h := range []string{"xn--bcher-kva.test", "buecher.test"} {
		w.on(h+"/robots.txt", serve(200, "User-agent: *\nContent-Usage: train-ai=y\n"))
		w.on(h+"/chunked", serve(200, page, "Content-Type", "text/html"))
	}
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr, Timeout: 5 * time.Second}
	for _, u := range []string{"http://buecher.test/chunked", "http://b\u00fccher.test/chunked"} {
		resp, err := hc.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		_ = resp.Body.Close()
		rc := tr.Receipt(resp, body)
		if got := sigs(rc.Signals); !slices.Contains(got, "robots-meta train-ai n unreadable") || rc.Usage.Pref("train-ai") != PrefNo {
			t.Errorf("%s read to %d of its chunked bytes, cut in its head: signals %q, train-ai %v; want it unreadable, train-ai=n",
				u, len(body), got, rc.Usage.Pref("train-ai"))
		}
	}
}

// TestTransportStackedIDN: as TestTransportStacked, at a host that is
// not ASCII: the inner Transport knows the request its outer one sends,
// its URL's host rewritten, and neither checks nor paces it again.
func TestTransportStackedIDN(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	for _, h := range []string{"xn--bcher-kva.test", "buecher.test"} {
		w.on(h+"/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 0.3\n"))
		w.on(h+"/a.html", serve(200, "page", "Content-Type", "text/plain"))
	}
	c, inner := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: NewTransport(c, inner, WithNoWait()), Timeout: 5 * time.Second}
	for _, u := range []string{"http://buecher.test/a.html", "http://b\u00fccher.test/a.html"} {
		if _, err := get(context.Background(), hc, u); err != nil {
			t.Errorf("GET %s through two stacked Transports of one Client: %v; want it sent once, checked and paced once", u, err)
		}
	}
}

// TestTransportSkipRobotsCapitalIDNOverHTTP2: a request under SkipRobots
// is sent with its host as the A-label net/http dials too (see
// TestTransportCapitalIDNOverHTTP2).
func TestTransportSkipRobotsCapitalIDNOverHTTP2(t *testing.T) {
	next, sites := h2Transport(t, map[string]http.HandlerFunc{"xn--bcher-kva.test:443": func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "page")
	}})
	c, rt := NewClientTransport(next, []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(SkipRobots(context.Background()), 2*time.Second)
	defer cancel()
	site := sites["xn--bcher-kva.test:443"]
	if _, err := get(ctx, &http.Client{Transport: rt}, "https://B\u00fccher.test/page"); err != nil || site.dials.Load() > 2 {
		t.Errorf("GET https://B\u00fccher.test/page under SkipRobots over HTTP/2: %v; the site got %d connections and %d requests",
			err, site.dials.Load(), site.requests.Load())
	}
}

// TestTransportSkipRobotsIDNLongURL: a request under SkipRobots whose
// path and query are longer than a check reads goes out with its host as
// the A-label net/http dials too.
func TestTransportSkipRobotsIDNLongURL(t *testing.T) {
	for _, tail := range []string{"/p?" + strings.Repeat("x", 9<<10), "/" + strings.Repeat("y", 9<<10)} {
		next, sites := h2Transport(t, map[string]http.HandlerFunc{"xn--bcher-kva.test:443": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "page")
		}})
		c, rt := NewClientTransport(next, []Option{WithUserAgent(testUA)})
		ctx, cancel := context.WithTimeout(SkipRobots(context.Background()), 2*time.Second)
		site := sites["xn--bcher-kva.test:443"]
		u := "https://B\u00fccher.test" + tail
		_, err := get(ctx, &http.Client{Transport: rt}, u)
		if err != nil || site.dials.Load() > 2 {
			msg := "<nil>"
			if err != nil {
				msg = err.Error()
				msg = msg[max(0, len(msg)-60):]
			}
			t.Errorf("GET %.40s… (%d bytes) under SkipRobots over HTTP/2: …%s; the site got %d connections and %d requests",
				u, len(u), msg, site.dials.Load(), site.requests.Load())
		}
		cancel()
		_ = c.Close()
		next.CloseIdleConnections()
	}
}

// getIDNPage fetches https://Bücher.test/page through a Transport over next
// (wrapped by wrap), on ctx, and returns the response and body read.
func getIDNPage(t *testing.T, ctx context.Context, page string, wrap func(http.RoundTripper) http.RoundTripper) (*Transport, *http.Request, *http.Response, []byte) {
	t.Helper()
	next, _ := h2Transport(t, map[string]http.HandlerFunc{"xn--bcher-kva.test:443": func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, page[:len(page)/2])
		w.(http.Flusher).Flush() // no Content-Length
		fmt.Fprint(w, page[len(page)/2:])
	}})
	var below http.RoundTripper = next
	if wrap != nil {
		below = wrap(next)
	}
	c, rt := NewClientTransport(below, []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "https://B\u00fccher.test/page", nil)
	resp, err := (&http.Client{Transport: rt}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return rt, req, resp, b
}

var idnPage = "<!doctype html><html><head><title>t</title>" + strings.Repeat("<meta name=x content=y>", 200) +
	"<meta name=robots content=noindex></head><body>hi</body></html>"

// TestTransportIDNCloningRoundTripperBelow: with a RoundTripper below the
// Transport that copies the request (as otelhttp.Transport does), the
// response's request shows the URL as asked for, and a cut body is read
// as cut: the copy's URL, another pointer, showed the A-label, read as a
// redirect.
func TestTransportIDNCloningRoundTripperBelow(t *testing.T) {
	wrap := func(next http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			if r.URL.Path == "/robots.txt" {
				return next.RoundTrip(r)
			}
			return next.RoundTrip(r.Clone(r.Context())) // otelhttp.Transport does this
		})
	}
	rt, req, resp, b := getIDNPage(t, context.Background(), idnPage, wrap)
	if got := resp.Request.URL.String(); got != req.URL.String() {
		t.Errorf("with a cloning RoundTripper below: resp.Request.URL = %s, want %s (as asked: no redirect)", got, req.URL)
	}
	if resp.ContentLength < 0 && !rt.PageDirectives(resp, b[:len(b)/3]).NoAI {
		t.Errorf("cut body not seen as cut with a cloning RoundTripper below")
	}
}

// TestTransportIDNSkipRobotsAsAsked: under SkipRobots too, the response's
// request shows the URL as asked for, not the A-label sent.
func TestTransportIDNSkipRobotsAsAsked(t *testing.T) {
	_, req, resp, _ := getIDNPage(t, SkipRobots(context.Background()), idnPage, nil)
	if got := resp.Request.URL.String(); got != req.URL.String() {
		t.Errorf("under SkipRobots: resp.Request.URL = %s, want %s (as asked: no redirect)", got, req.URL)
	}
}

// TestTransportDeadlineDeferralWithoutStore: a Client with no Store
// waits for no lease nor Store call: a Transport's deadline deferral
// tells the crawler to come back when its fetch will have ended, not
// after a lease wait and Store timeouts (9.2 s with a 1 s fetch timeout).
func TestTransportDeadlineDeferralWithoutStore(t *testing.T) {
	checkLeaks(t)
	release := make(chan struct{})
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	const fetchTimeout = time.Second
	c := newTestClient(t, WithFetchTimeout(fetchTimeout), WithUserAgent(testUA))
	tr := NewTransport(c, &http.Transport{})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/page", nil)
	_, err := tr.RoundTrip(req)
	start := time.Now()
	var de *DeferredError
	if !errors.As(err, &de) {
		t.Fatalf("RoundTrip: %v; want a DeferredError", err)
	}
	// The fill: its fetch (1 s), nothing else without a Store; 1 s of slack.
	if bound := start.Add(fetchTimeout + time.Second); de.RetryAt.After(bound) {
		t.Errorf("deferral RetryAt %v after the deferral, for a fill of at most %v with no Store (no lease to wait for)",
			de.RetryAt.Sub(start).Round(100*time.Millisecond), fetchTimeout)
	}
	time.Sleep(fetchTimeout + 200*time.Millisecond) // the fill ends before Close
}

// TestTransportMaxWaitTurnWithinIt: a request with no deadline whose
// turn comes within WithMaxWait waits for it and is sent. It was refused
// at once when the turn came in the bound's last 50 ms (the margin kept
// before an http.Client's timeout, which does not race the Transport's
// own bound), its PacedError "past the longest wait" though its RetryAt
// lay within it; under a bound of 50 ms no request ever waited.
func TestTransportMaxWaitTurnWithinIt(t *testing.T) {
	checkLeaks(t)
	for _, tc := range []struct {
		name          string
		maxWait       time.Duration
		crawlDelay    string
		crawlDelayDur time.Duration
	}{
		{"maxWait=1s,crawl-delay=0.97", time.Second, "0.97", 970 * time.Millisecond},
		{"maxWait=40ms,crawl-delay=0.02", 40 * time.Millisecond, "0.02", 20 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSite(t, "User-agent: *\nCrawl-delay: "+tc.crawlDelay+"\n")
			_, tr, hc := newTestTransport(t, WithMaxWait(tc.maxWait))
			ctx := context.Background() // no deadline: WithMaxWait bounds the wait
			if _, err := get(ctx, hc, s.URL+"/a"); err != nil {
				t.Fatal(err)
			}
			asked := time.Now()
			_, err := get(ctx, hc, s.URL+"/b")
			var pe *PacedError
			if errors.As(err, &pe) {
				t.Errorf("refused after %v, though its turn (RetryAt in %v, the Crawl-delay %v after /a) comes within the longest wait %v: %v",
					time.Since(asked).Round(time.Microsecond), pe.RetryAt.Sub(asked).Round(time.Millisecond), tc.crawlDelayDur, tc.maxWait, err)
				if pe.RetryAt.Before(asked.Add(tc.maxWait)) {
					t.Errorf("the error says the turn is past the longest wait, but its RetryAt is %v before the wait's end",
						asked.Add(tc.maxWait).Sub(pe.RetryAt).Round(time.Millisecond))
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(s.got(), "/b") && err == nil {
				t.Error("/b was not sent")
			}
			if st := tr.Stats(); st.Paced != 1 {
				t.Errorf("Stats = %+v, want /b paced", st)
			}
		})
	}
}

// TestTransportMaxWaitLongest: WithMaxWait accepts any positive bound;
// the longest, time.Duration(math.MaxInt64), waits as long as it takes
// (the margin added to it overflowed to a bound in the past, and every
// request that had to wait was refused at once).
func TestTransportMaxWaitLongest(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 0.2\n")
	_, _, hc := newTestTransport(t, WithMaxWait(time.Duration(math.MaxInt64)))
	ctx := context.Background()
	if _, err := get(ctx, hc, s.URL+"/a"); err != nil {
		t.Fatal(err)
	}
	asked := time.Now()
	_, err := get(ctx, hc, s.URL+"/b")
	if err != nil {
		t.Errorf("/b, 0.2 s after /a, under WithMaxWait(math.MaxInt64): refused after %v: %v", time.Since(asked).Round(time.Millisecond), err)
	}
	if !slices.Contains(s.got(), "/b") {
		t.Error("/b was not sent")
	}
}

// TestTransportRespelledEscapedPercentRule: "Disallow: /sale/50%25off"
// names the file /sale/50%off as RFC 9309 asks ('%' escaped); its own
// spelling is refused, but the same file reached through a dot segment or
// a doubled slash (nginx and Apache serve /sale/50%off for each) must be
// refused too (SPEC §2.8: a crawler must not reach a disallowed path by
// another spelling).
func TestTransportRespelledEscapedPercentRule(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nDisallow: /sale/50%25off\n")
	_, _, hc := newTestTransport(t)
	if _, err := get(context.Background(), hc, s.URL+"/sale/50%25off"); !errors.Is(err, ErrDisallowed) {
		t.Fatalf("/sale/50%%25off: %v, want ErrDisallowed", err)
	}
	for _, p := range []string{"/./sale/50%25off", "//sale/50%25off", "/sale//50%25off", "/x/../sale/50%25off", "/sale/./50%25off"} {
		if _, err := get(context.Background(), hc, s.URL+p); !errors.Is(err, ErrDisallowed) {
			t.Errorf("%s (served as /sale/50%%off): %v, want ErrDisallowed", p, err)
		}
	}
	for _, p := range s.got() {
		if strings.HasSuffix(p, "50%off") {
			t.Errorf("the server was asked for %q", p)
		}
	}
}

// TestTransportDialsPageAsItsRobotsFetch: a page at a.test spelt
// with a final dot ("http://a.test./page") is checked against a.test's
// robots.txt, which the Client fetched dialling "a.test", and goes out
// with a.test's Host, but the Transport dials "a.test." as written: a
// name that, as the fix for hops says (TestHopToDottedHostAsItsOwnFetch),
// may resolve to another server. Here it is one whose own robots.txt
// disallows everything and that answers 503 with a Retry-After of an
// hour: it gets the page, whose check read a.test's file, and its hold
// lands on a.test's pages. The page must be dialled as a.test is.
func TestTransportDialsPageAsItsRobotsFetch(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nDisallow: /private\n"))
	w.on("a.test/page", serve(200, "page of a.test"))
	var otherGot atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = io.WriteString(rw, "User-agent: *\nDisallow: /\n")
			return
		}
		otherGot.Add(1)
		rw.Header().Set("Retry-After", "3600")
		http.Error(rw, "page of the other server", http.StatusServiceUnavailable)
	}))
	t.Cleanup(other.Close)
	tr, dotted := dottedElsewhere(t, w, other)
	c, rt := NewClientTransport(tr, []Option{WithUserAgent(testUA)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: rt}
	ctx := context.Background()
	body, err := get(ctx, hc, "http://a.test./page")
	if n := dotted.Load(); n != 0 || otherGot.Load() != 0 {
		t.Errorf("GET http://a.test./page: %q, %v; \"a.test.\" dialled %d times, the other server sent the page %d times; "+
			"want a.test dialled, as for its robots.txt", body, err, n, otherGot.Load())
	}
	if _, err := get(ctx, hc, "http://a.test/page"); errors.Is(err, ErrPaced) {
		t.Errorf("a.test's page after that: %v; held by the other server's Retry-After", err)
	}
}

// TestTransportNamesPageServerAsItsRobotsFetch: a page at https://A.TEST/ is
// checked against a.test's robots.txt, fetched with TLS naming
// "a.test", and sent with Host a.test, but TLS names "A.TEST" as
// written: a server choosing its backend by exact name (here a.test's
// for "a.test", a default backend for any other, the case the fix for
// hops names, TestHopNamesTheServerAsItsOwnFetch) serves the page from
// a backend whose robots.txt the Client never read.
func TestTransportNamesPageServerAsItsRobotsFetch(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var mu sync.Mutex
	var names []string
	pick := func(own http.HandlerFunc) http.HandlerFunc {
		return func(rw http.ResponseWriter, r *http.Request) {
			mu.Lock()
			names = append(names, r.URL.Path+" "+r.TLS.ServerName)
			mu.Unlock()
			if r.TLS.ServerName != "a.test" {
				_, _ = io.WriteString(rw, "the default backend's page") // its robots.txt: Disallow: /
				return
			}
			own(rw, r)
		}
	}
	w.on("a.test/robots.txt", pick(serve(200, "User-agent: *\nAllow: /\n")))
	w.on("a.test/page", pick(serve(200, "page of a.test")))
	c, rt := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = c.Close() })
	body, err := get(context.Background(), &http.Client{Transport: rt}, "https://A.TEST/page")
	mu.Lock()
	defer mu.Unlock()
	if err != nil || body != "page of a.test" || !slices.Equal(names, []string{"/robots.txt a.test", "/page a.test"}) {
		t.Errorf("GET https://A.TEST/page: %q, %v; TLS named %q; want a.test's page, TLS naming a.test as for its robots.txt", body, err, names)
	}
}

// twoTurnSites serves site.test and site.test:8080, each with a
// Crawl-delay of 50 ms, through a Transport paced by p with opts, and
// returns the hosts, the Transport and an http.Client on it, both
// robots.txt files read and their turns over: a request to :8080 with
// Host site.test then takes two turns, and a panic comes from p alone.
func twoTurnSites(t *testing.T, p Pacer, opts ...TransportOption) (*vhosts, *Transport, *http.Client) {
	t.Helper()
	const robots = "User-agent: *\nCrawl-delay: 0.05\n"
	v := newVhosts(t, map[string]string{"site.test": robots, "site.test:8080": robots})
	c, tr := NewClientTransport(v.transport(t), []Option{WithUserAgent(testUA)}, append([]TransportOption{WithPacer(p)}, opts...)...)
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	for _, u := range []string{"http://site.test/warm", "http://site.test:8080/warm"} {
		if err := getHost(hc, u, ""); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(100 * time.Millisecond) // past both turns' Crawl-delay
	return v, tr, hc
}

// faultPacer is the in-process Pacer, but while armed, fault may panic
// in its place or answer for it: op is "Take" or "Done", n counts the
// earlier calls of op at authority since the Pacer was armed. It records
// the turns Take gave and the Done calls each turn got.
type faultPacer struct {
	*memPacer
	fault func(op, authority string, n int) (wait time.Duration, err error, answered bool)
	armed atomic.Bool
	mu    sync.Mutex
	calls map[string]int  // "op authority"
	given map[string]bool // "authority#id"
	dones map[string]int  // "authority#id"
}

func newFaultPacer(fault func(op, authority string, n int) (time.Duration, error, bool)) *faultPacer {
	return &faultPacer{memPacer: newMemPacer(), fault: fault}
}

// arm clears the record and lets fault act from the next call on.
func (p *faultPacer) arm() {
	p.mu.Lock()
	p.calls, p.given, p.dones = map[string]int{}, map[string]bool{}, map[string]int{}
	p.mu.Unlock()
	p.armed.Store(true)
}

// faulted asks fault about this call, if armed.
func (p *faultPacer) faulted(op, authority string) (time.Duration, error, bool) {
	if !p.armed.Load() {
		return 0, nil, false
	}
	p.mu.Lock()
	n := p.calls[op+" "+authority]
	p.calls[op+" "+authority]++
	p.mu.Unlock()
	return p.fault(op, authority, n)
}

func (p *faultPacer) Take(ctx context.Context, authority string, interval time.Duration) (uint64, time.Duration, error) {
	if wait, err, ok := p.faulted("Take", authority); ok {
		return 0, wait, err
	}
	id, wait, err := p.memPacer.Take(ctx, authority, interval)
	if err == nil && wait <= 0 && id != 0 && p.armed.Load() {
		p.mu.Lock()
		p.given[fmt.Sprintf("%s#%d", authority, id)] = true
		p.mu.Unlock()
	}
	return id, wait, err
}

func (p *faultPacer) Done(ctx context.Context, authority string, id uint64, interval, hold time.Duration) error {
	if p.armed.Load() {
		p.mu.Lock()
		p.dones[fmt.Sprintf("%s#%d", authority, id)]++
		p.mu.Unlock()
	}
	if _, err, ok := p.faulted("Done", authority); ok {
		return err
	}
	return p.memPacer.Done(ctx, authority, id, interval, hold)
}

// sendTwoTurnsPanicking arms p and sends through hc a request taking two
// turns (a Host naming its URL's host at another port), whose Pacer's
// panic must reach the caller, and checks the turns ended.
func sendTwoTurnsPanicking(t *testing.T, p *faultPacer, hc *http.Client) {
	t.Helper()
	p.arm()
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the Pacer's panic did not reach the caller")
			}
		}()
		_ = getHost(hc, "http://site.test:8080/two", "site.test") // turns at site.test:80, then :8080
	}()
	checkTurnsEnded(t, p)
}

// checkTurnsEnded disarms p and fails unless Done was called once for
// each turn Take gave since p was armed, and for no other.
func checkTurnsEnded(t *testing.T, p *faultPacer) {
	t.Helper()
	p.armed.Store(false)
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, n := range p.dones {
		if !p.given[k] || n != 1 {
			t.Errorf("turn %s: Done called %d times; want once for each turn given and none for another (given %v, dones %v)", k, n, p.given, p.dones)
		}
	}
	for k := range p.given {
		if p.dones[k] == 0 {
			t.Errorf("turn %s: given, Done never called (given %v, dones %v)", k, p.given, p.dones)
		}
	}
}

// TestTransportPacerPanicEndsTheTurns: a request that takes two turns (a
// Host naming the URL's host at another port) holds the first while it
// asks for the second. A Pacer whose second Take panics must not leave
// the first open until its lease (30 s), as a panic in next or in the
// recheck does not (TestTransportPanicEndsTheTurn); and one whose second
// Take fails and whose Done of the first panics must not be told Done
// of the first twice (the Pacer doc: once a turn), nor of the second,
// which Take never gave.
func TestTransportPacerPanicEndsTheTurns(t *testing.T) {
	first, second := paceKey("http://site.test:80"), paceKey("http://site.test:8080") // as the Pacer is asked
	for _, tc := range []struct {
		name     string
		fault    func(op, authority string, n int) (time.Duration, error, bool)
		nextSent bool // whether the first turn went back
	}{
		{"Take panics", func(op, authority string, n int) (time.Duration, error, bool) {
			if op == "Take" && authority == second {
				panic("boom in Pacer.Take")
			}
			return 0, nil, false
		}, true},
		{"Take fails, Done panics", func(op, authority string, n int) (time.Duration, error, bool) {
			switch {
			case op == "Take" && authority == second:
				return 0, errors.New("pacer store down"), true
			case op == "Done" && authority == first && n == 0:
				panic("boom in Pacer.Done")
			}
			return 0, nil, false
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			p := newFaultPacer(tc.fault)
			_, _, hc := twoTurnSites(t, p, WithNoWait())
			sendTwoTurnsPanicking(t, p, hc)
			if !tc.nextSent {
				return
			}
			time.Sleep(200 * time.Millisecond) // four Crawl-delays
			if err := getHost(hc, "http://site.test/next", ""); err != nil {
				t.Errorf("site.test's next page, 200 ms after a request whose Pacer panicked: %v; want it sent (the turn held until its 30 s lease)", err)
			}
		})
	}
}

// TestTransportShortDeadlineInRobotsFetchDefers: a request whose deadline
// is nearer than deadlineMargin when RoundTrip checks it starts the fetch
// of its site's robots.txt all the same, and its deadline comes while that
// file is being read, but it fails with the bare deadline error, not the
// Failures-0 DeferredError the Transport's doc promises for exactly that
// case: a crawler requeues a DeferredError and drops a page that timed
// out, though robots.txt, being read, was the only thing it waited for.
func TestTransportShortDeadlineInRobotsFetchDefers(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	started := make(chan struct{}, 4)
	release := make(chan struct{})
	w.on("a.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		_, _ = io.WriteString(rw, "User-agent: *\nAllow: /\n")
	})
	w.on("a.test/page", serve(200, "page"))
	c, rt := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { close(release); _ = c.Close() })
	hc := &http.Client{Transport: rt, Timeout: 40 * time.Millisecond} // less than deadlineMargin
	_, err := get(context.Background(), hc, "http://a.test/page")
	fetching := false
	select {
	case <-started:
		fetching = true
	case <-time.After(time.Second):
	}
	var de *DeferredError
	if fetching && (!errors.As(err, &de) || de.Failures != 0) {
		t.Errorf("a request whose deadline came while robots.txt was being read (a fetch it started): %v; "+
			"want a Failures-0 DeferredError", err)
	}
}

// TestCheckDeadline: a check answers deadlineMargin before a request's
// deadline, or with no more than that left, at half the time left.
func TestCheckDeadline(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	for _, tc := range []struct{ left, want time.Duration }{
		{time.Second, time.Second - deadlineMargin},
		{70 * time.Millisecond, 20 * time.Millisecond},
		{deadlineMargin + time.Millisecond, time.Millisecond},
		{deadlineMargin, deadlineMargin / 2},
		{40 * time.Millisecond, 20 * time.Millisecond},
		{time.Millisecond, time.Millisecond / 2},
	} {
		if got := checkDeadline(now.Add(tc.left), now).Sub(now); got != tc.want {
			t.Errorf("%v left: the check answers in %v, want %v", tc.left, got, tc.want)
		}
	}
}

// TestTransportAgainGiveBackPanicEndsFirstTurn: a request taking two
// turns whose first was held while it waited for the second (heldSince)
// gives both back and asks again. A panic in the second's Done there
// must not leave the first turn, which Done was never called for, held
// until its lease (30 s; a day under a day's Crawl-delay): f2a74d6 gives
// back the turns a request holds on a Pacer's panic, but 48f5f34 clears
// both before giving either back.
func TestTransportAgainGiveBackPanicEndsFirstTurn(t *testing.T) {
	checkLeaks(t)
	first, second := paceKey("http://site.test:80"), paceKey("http://site.test:8080") // as the Pacer is asked
	p := newFaultPacer(func(op, authority string, n int) (time.Duration, error, bool) {
		switch {
		case op == "Take" && authority == second && n == 0:
			return 5 * time.Millisecond, nil, true // a wait: the request holds first meanwhile
		case op == "Take" && authority == first && n == 1:
			return 0, errors.New("pacer store down"), true // heldSince: read as a hold
		case op == "Done" && authority == second:
			panic("boom in Pacer.Done")
		}
		return 0, nil, false
	})
	_, _, hc := twoTurnSites(t, p)
	sendTwoTurnsPanicking(t, p, hc)
	time.Sleep(200 * time.Millisecond) // four Crawl-delays
	if _, wait, _ := p.memPacer.Take(context.Background(), first, 50*time.Millisecond); wait > 0 {
		t.Errorf("site.test:80, 200 ms after a request whose Pacer panicked: wait %v; want its turn free (held until its 30 s lease)", wait)
	}
}

// TestTransportFlightEndPanicEndsSecondTurn: a request sent in two
// turns (a Host naming its URL's host at another port) ends both when
// its response has come. A panic in the Pacer's Done for the first must
// not leave the second, which Done was never called for, held until its
// lease (30 s; a day under a day's Crawl-delay), as f2a74d6 promises for
// a panic while the turns are taken.
func TestTransportFlightEndPanicEndsSecondTurn(t *testing.T) {
	for _, read := range []bool{false, true} {
		t.Run(fmt.Sprintf("body read %v", read), func(t *testing.T) {
			checkLeaks(t)
			p := newFaultPacer(func(op, authority string, n int) (time.Duration, error, bool) {
				if op == "Done" && authority == "http://site.test:80" {
					panic("boom in Pacer.Done")
				}
				return 0, nil, false
			})
			v, tr, _ := twoTurnSites(t, p)
			v.route("site.test/empty", func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusNoContent) // no body: the turns end in RoundTrip
			})
			p.arm()
			func() {
				defer func() { _ = recover() }() // the Pacer's panic, in RoundTrip or in Close
				path := "/empty"
				if read {
					path = "/page" // a body: the turns end with it
				}
				req, _ := http.NewRequest(http.MethodGet, "http://site.test:8080"+path, nil)
				req.Host = "site.test"
				resp, err := tr.RoundTrip(req) // turns at site.test:80, then :8080
				if err != nil {
					t.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}()
			if p.mu.Lock(); len(p.given) != 2 {
				t.Errorf("turns given: %v; want two", p.given)
			}
			p.mu.Unlock()
			checkTurnsEnded(t, p)
		})
	}
}

// TestTransportLiteralPercentBeforeAnEscape: under "Disallow:
// /sale/50%off" the Transport refuses /sale/50%25off (the server decodes
// it to /sale/50%off), but sends /sale/50%25%6Fff, which every server
// decodes to the same /sale/50%off.
func TestTransportLiteralPercentBeforeAnEscape(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nDisallow: /sale/50%off\n")
	_, _, hc := newTestTransport(t)
	ctx := context.Background()
	if _, err := get(ctx, hc, s.URL+"/sale/50%25off"); !errors.Is(err, ErrDisallowed) {
		t.Fatalf("/sale/50%%25off: %v, want ErrDisallowed (control)", err)
	}
	for _, p := range []string{"/sale/50%25%6Fff", "/sale/50%25%6fff", "//sale/50%25%6Fff"} {
		if _, err := get(ctx, hc, s.URL+p); !errors.Is(err, ErrDisallowed) {
			t.Errorf("%s (served as /sale/50%%off): %v, want ErrDisallowed", p, err)
		}
	}
	for _, p := range s.got() {
		if strings.HasSuffix(p, "50%off") {
			t.Errorf("the server was asked for %q", p)
		}
	}
}

// keptHostWeb serves victim.test (robots.txt victimRobots; /heavy and
// /dir/ answer 503 Retry-After: 3600, /dir redirects to /dir/) on one
// listener and every other name on another, whose /start redirects to
// "//victim.test/heavy" and /start-dir to "//victim.test/dir"; it returns
// an http.Client over a WithNoWait Transport and the Host and path of
// each page victim.test's server got.
func keptHostWeb(t *testing.T, victimRobots string) (*http.Client, func() []string) {
	var mu sync.Mutex
	var victimSeen []string
	victim := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, victimRobots)
			return
		}
		mu.Lock()
		victimSeen = append(victimSeen, r.Host+r.URL.Path)
		mu.Unlock()
		switch r.URL.Path {
		case "/heavy", "/dir/":
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusServiceUnavailable)
		case "/dir":
			w.Header().Set("Location", "/dir/")
			w.WriteHeader(http.StatusMovedPermanently)
		default:
			io.WriteString(w, "page")
		}
	}))
	t.Cleanup(victim.Close)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nAllow: /\n")
		case "/start":
			w.Header().Set("Location", "//victim.test/heavy")
			w.WriteHeader(http.StatusFound)
		case "/start-dir":
			w.Header().Set("Location", "//victim.test/dir")
			w.WriteHeader(http.StatusFound)
		default:
			io.WriteString(w, "page")
		}
	}))
	t.Cleanup(other.Close)
	var d net.Dialer
	next := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		to := other.Listener.Addr().String()
		if host, _, _ := net.SplitHostPort(addr); host == "victim.test" {
			to = victim.Listener.Addr().String()
		}
		return d.DialContext(ctx, network, to)
	}}
	t.Cleanup(next.CloseIdleConnections)
	c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	return &http.Client{Transport: tr}, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), victimSeen...)
	}
}

// getPinned sends a GET for a.test's /start as a crawler that pins a
// site's address sends it: to http://10.0.0.1/start with Host a.test.
func getPinned(ctx context.Context, hc *http.Client) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://10.0.0.1/start", nil)
	req.Host = "a.test"
	resp, err := hc.Do(req)
	if err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	return err
}

// TestTransportKeptHostRedirectKeepsCrawlDelay: net/http keeps a
// request's Request.Host on a redirect whose Location names another host
// without a scheme ("//victim.test/heavy"), as a crawler that pins a
// site's address (http://10.0.0.1/start with Host a.test) meets. The
// request goes to victim.test's server, yet takes only a.test's turn: it
// reaches victim.test within its Crawl-delay.
func TestTransportKeptHostRedirectKeepsCrawlDelay(t *testing.T) {
	checkLeaks(t)
	hc, victimSeen := keptHostWeb(t, "User-agent: *\nCrawl-delay: 60\n")
	ctx := context.Background()
	if _, err := get(ctx, hc, "http://victim.test/first"); err != nil {
		t.Fatal(err)
	}
	err := getPinned(ctx, hc)
	if seen := victimSeen(); len(seen) > 1 {
		t.Errorf("victim.test's server got %q within its Crawl-delay of 60 s (the redirect's error: %v)", seen, err)
	}
}

// TestTransportKeptHostRedirectKeepsRetryAfter: victim.test's server
// answers the redirect of TestTransportKeptHostRedirectKeepsCrawlDelay
// with 503 Retry-After: 3600, which holds a.test instead of victim.test:
// victim.test's next page goes at once.
func TestTransportKeptHostRedirectKeepsRetryAfter(t *testing.T) {
	checkLeaks(t)
	hc, victimSeen := keptHostWeb(t, "User-agent: *\nAllow: /\n")
	ctx := context.Background()
	if err := getPinned(ctx, hc); err != nil {
		t.Fatal(err)
	}
	if seen := victimSeen(); len(seen) != 1 {
		t.Fatalf("victim.test's server got %q, want the redirect's request", seen)
	}
	if _, err := get(ctx, hc, "http://victim.test/second"); !errors.Is(err, ErrPaced) {
		t.Errorf("http://victim.test/second right after its server answered 503 Retry-After: 3600: %v, want ErrPaced; it got %q",
			err, victimSeen())
	}
}

// pinnedWeb serves every name on one listener: robots.txt with
// Crawl-delay: 5; a.test's and c.test's /start redirect (absolute) to
// http://b.test/page and http://d.test/page. Its http.Client pins each
// site's address as a crawler resolving names itself does, in its
// CheckRedirect too: a.test and c.test at 10.0.0.1, b.test and d.test
// (two sites of one shared host, a CDN's address) at 10.0.0.2. It
// returns that client, over a WithNoWait Transport, and the Host and
// path of each page the server got.
func pinnedWeb(t *testing.T) (*http.Client, func() []string) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nCrawl-delay: 5\n")
			return
		}
		mu.Lock()
		seen = append(seen, r.Host+r.URL.Path)
		mu.Unlock()
		if r.URL.Path == "/start" {
			to := map[string]string{"a.test": "http://b.test/page", "c.test": "http://d.test/page"}[r.Host]
			w.Header().Set("Location", to)
			w.WriteHeader(http.StatusFound)
			return
		}
		io.WriteString(w, "page")
	}))
	t.Cleanup(srv.Close)
	var d net.Dialer
	next := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, srv.Listener.Addr().String())
	}}
	t.Cleanup(next.CloseIdleConnections)
	c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	addrs := map[string]string{"a.test": "10.0.0.1", "c.test": "10.0.0.1", "b.test": "10.0.0.2", "d.test": "10.0.0.2"}
	hc := &http.Client{Transport: tr, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		// Pin the Location's host to its address, as the first request was.
		if addr, ok := addrs[req.URL.Host]; ok {
			req.Host, req.URL.Host = req.URL.Host, addr
		}
		return nil
	}}
	return hc, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

// getPinnedAt sends a GET for http://addr/path with Host host, as a
// crawler pinning host's address sends it.
func getPinnedAt(ctx context.Context, hc *http.Client, addr, host, path string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+path, nil)
	req.Host = host
	resp, err := hc.Do(req)
	if err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	return err
}

// TestTransportPinnedRedirectTakesNoAddressTurn: a crawler that pins
// each site's address sets Request.Host itself, in its CheckRedirect
// too. Its redirects from a.test to b.test and from c.test to d.test
// (b.test and d.test sharing an address) are paced per site asked for,
// whatever address it is sent to, as the same requests sent first are:
// no Host kept across servers, no turn of the shared address.
func TestTransportPinnedRedirectTakesNoAddressTurn(t *testing.T) {
	checkLeaks(t)
	hc, seen := pinnedWeb(t)
	ctx := context.Background()
	if err := getPinnedAt(ctx, hc, "10.0.0.1", "a.test", "/start"); err != nil {
		t.Fatal(err)
	}
	if err := getPinnedAt(ctx, hc, "10.0.0.1", "c.test", "/start"); err != nil {
		t.Errorf("c.test's redirect to d.test, pinned at 10.0.0.2, whose turn none took: %v (the server got %q)", err, seen())
	}
}

// TestTransportPinnedDirectTakesNoAddressTurn is the control: the same
// requests to b.test and d.test sent first go at once.
func TestTransportPinnedDirectTakesNoAddressTurn(t *testing.T) {
	checkLeaks(t)
	hc, seen := pinnedWeb(t)
	ctx := context.Background()
	for _, h := range []string{"b.test", "d.test"} {
		if err := getPinnedAt(ctx, hc, "10.0.0.2", h, "/page"); err != nil {
			t.Errorf("%s's page at 10.0.0.2: %v (the server got %q)", h, err, seen())
		}
	}
}

// TestTransportKeptHostRedirectNoWait: under WithNoWait, the redirect
// of TestTransportKeptHostRedirectKeepsCrawlDelay to victim.test, whose
// turn is not free (Crawl-delay: 2), is refused, as the same redirect
// with a scheme (http://victim.test/heavy) is: it is within a.test, the
// site of the Host kept, not within victim.test's.
func TestTransportKeptHostRedirectNoWait(t *testing.T) {
	checkLeaks(t)
	hc, victimSeen := keptHostWeb(t, "User-agent: *\nCrawl-delay: 2\n")
	ctx := context.Background()
	if _, err := get(ctx, hc, "http://victim.test/first"); err != nil {
		t.Fatal(err)
	}
	if err := getPinned(ctx, hc); !errors.Is(err, ErrPaced) {
		t.Errorf("under WithNoWait, the redirect to victim.test within its Crawl-delay: %v, want ErrPaced; victim.test's server got %q",
			err, victimSeen())
	}
}

// TestTransportKeptHostSecondHopKeepsRetryAfter: after a redirect
// "//victim.test/dir" kept a.test's Host across to victim.test's server
// (both turns taken), that server's own relative redirect ("/dir/", a
// directory's slash, which net/http follows with the Host still kept)
// goes to victim.test's server again. Its 503 Retry-After: 3600 must hold
// victim.test, as the first hop's does
// (TestTransportKeptHostRedirectKeepsRetryAfter): it is victim.test's
// server that answered.
func TestTransportKeptHostSecondHopKeepsRetryAfter(t *testing.T) {
	checkLeaks(t)
	hc, victimSeen := keptHostWeb(t, "User-agent: *\nAllow: /\n")
	ctx := context.Background()
	if err := getPinnedAt(ctx, hc, "10.0.0.1", "a.test", "/start-dir"); err != nil {
		t.Fatal(err)
	}
	if seen := victimSeen(); len(seen) != 2 {
		t.Fatalf("victim.test's server got %q, want both hops", seen)
	}
	if _, err := get(ctx, hc, "http://victim.test/second"); !errors.Is(err, ErrPaced) {
		t.Errorf("http://victim.test/second right after its server answered 503 Retry-After: 3600 (to the second hop of a Host kept): %v, want ErrPaced; it got %q",
			err, victimSeen())
	}
}

// TestTransportKeptHostSpellingKeepsCrawlDelay: the redirect of
// TestTransportKeptHostRedirectKeepsCrawlDelay, from a pinned request
// whose Host spells a.test otherwise ("a.test:80", the scheme's port
// written out; "A.test"): the Transport sends the pinned request with the
// Host "a.test", which resp.Request holds, while net/http keeps the
// caller's spelling on the redirect. The hop to victim.test's server is
// a Host kept across all the same, and must not reach victim.test within
// its Crawl-delay.
func TestTransportKeptHostSpellingKeepsCrawlDelay(t *testing.T) {
	for _, host := range []string{"a.test:80", "A.test"} {
		t.Run(host, func(t *testing.T) {
			checkLeaks(t)
			hc, victimSeen := keptHostWeb(t, "User-agent: *\nCrawl-delay: 60\n")
			ctx := context.Background()
			if _, err := get(ctx, hc, "http://victim.test/first"); err != nil {
				t.Fatal(err)
			}
			err := getPinnedAt(ctx, hc, "10.0.0.1", host, "/start")
			if seen := victimSeen(); len(seen) > 1 {
				t.Errorf("pinned with Host %q: victim.test's server got %q within its Crawl-delay of 60 s (the redirect's error: %v)",
					host, seen, err)
			}
		})
	}
}

// memoRedirects is a next RoundTripper that answers robots.txt afresh
// and each other path with one *http.Response it keeps for that path (a
// redirect: /a to /b, /b to /a), setting its Request to the request
// being answered, as http.Transport does: a memoising stub, or a cache
// that hands out what it stored.
type memoRedirects struct {
	mu   sync.Mutex
	memo map[string]*http.Response
	hops atomic.Int64
}

func (m *memoRedirects) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path == "/robots.txt" {
		return &http.Response{StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{}, Body: io.NopCloser(strings.NewReader("User-agent: *\nAllow: /\n")), Request: req}, nil
	}
	m.hops.Add(1)
	m.mu.Lock()
	defer m.mu.Unlock()
	resp := m.memo[req.URL.Path]
	if resp == nil {
		to := map[string]string{"/a": "/b", "/b": "/a"}[req.URL.Path]
		resp = &http.Response{StatusCode: http.StatusFound, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{"Location": {to}}, Body: http.NoBody}
		m.memo[req.URL.Path] = resp
	}
	resp.Request = req
	return resp, nil
}

// TestTransportKeptHostRecursionEnds: a pinned crawler's request
// (http://10.0.0.1/a, Host a.test) meets a redirect loop /a → /b → /a,
// answered by a next RoundTripper that hands out one *http.Response per
// path. The chain of Response.Request the http.Client builds then loops
// (hop 2's /a response is hop 0's, whose Request is now hop 2's), and
// hostKeptAcross, which follows it while each hop stays on the server
// with the Host kept, must still end: the http.Client's limit of 10
// redirects ends the loop with an error, not the process.
func TestTransportKeptHostRecursionEnds(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(64 << 20)) // fail fast, not after a gigabyte of stack
	m := &memoRedirects{memo: map[string]*http.Response{}}
	c, tr := NewClientTransport(m, []Option{WithUserAgent(testUA)}, WithIntervalBounds(time.Millisecond, time.Millisecond))
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	err := getPinnedAt(context.Background(), hc, "10.0.0.1", "a.test", "/a")
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") {
		t.Errorf("the redirect loop ended with %v after %d hops, want the http.Client's redirect limit", err, m.hops.Load())
	}
}

// TestTransportKeptHostNonASCIISpellingKeepsCrawlDelay: the redirect of
// TestTransportKeptHostSpellingKeepsCrawlDelay, from a pinned request
// whose Host is an IDN spelt with characters IDNA maps ("ＡＢ.test" in
// full-width letters, "BÜCHER.test" in capitals). net/http keeps the
// caller's spelling on the redirect; the Transport sent the pinned
// request with the Punycode of that spelling unmapped (headerHost: the
// Host a server is asked for), which normalAuthority alone would map
// otherwise: the Host is kept across servers all the same, and the hop
// to victim.test's server waits for victim.test's Crawl-delay.
func TestTransportKeptHostNonASCIISpellingKeepsCrawlDelay(t *testing.T) {
	for _, host := range []string{"ＡＢ.test", "BÜCHER.test"} {
		t.Run(host, func(t *testing.T) {
			checkLeaks(t)
			hc, victimSeen := keptHostWeb(t, "User-agent: *\nCrawl-delay: 60\n")
			ctx := context.Background()
			if _, err := get(ctx, hc, "http://victim.test/first"); err != nil {
				t.Fatal(err)
			}
			err := getPinnedAt(ctx, hc, "10.0.0.1", host, "/start")
			if seen := victimSeen(); len(seen) > 1 {
				t.Errorf("pinned with Host %q: victim.test's server got %q within its Crawl-delay of 60 s (the redirect's error: %v)",
					host, seen, err)
			}
		})
	}
}

// portTwins returns a Transport that dials h's server for port 8080 and
// another of h's for any other: a.test and a.test:8080, two sites.
func portTwins(t *testing.T, h http.Handler) *http.Transport {
	l80, l8080 := httptest.NewServer(h), httptest.NewServer(h)
	t.Cleanup(l80.Close)
	t.Cleanup(l8080.Close)
	var d net.Dialer
	next := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		to := l80.Listener.Addr().String()
		if _, port, _ := net.SplitHostPort(addr); port == "8080" {
			to = l8080.Listener.Addr().String()
		}
		return d.DialContext(ctx, network, to)
	}}
	t.Cleanup(next.CloseIdleConnections)
	return next
}

// twinSites serves a.test and a.test:8080 (see portTwins) with a
// Crawl-delay of 1 s, a.test:8080's tdmrep.json redirected to a.test's,
// and records when a.test's tdmrep.json and /x were asked for.
type twinSites struct {
	hopAt, pageAt atomic.Int64 // unix ns; hopAt the first time
}

func (s *twinSites) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/robots.txt":
		io.WriteString(w, "User-agent: *\nAllow: /\nCrawl-delay: 1\n")
	case r.URL.Path == "/.well-known/tdmrep.json" && r.Host == "a.test:8080":
		http.Redirect(w, r, "http://a.test/.well-known/tdmrep.json", http.StatusMovedPermanently)
	case r.URL.Path == "/.well-known/tdmrep.json":
		s.hopAt.CompareAndSwap(0, time.Now().UnixNano())
		io.WriteString(w, `[{"location": "/", "tdm-reservation": 0}]`)
	case r.URL.Path == "/x":
		s.pageAt.Store(time.Now().UnixNano())
		io.WriteString(w, "page")
	default:
		io.WriteString(w, "page")
	}
}

// twoTurns sends, through hc, a GET of a.test/x with the Host
// a.test:8080: a page in the turns of both.
func twoTurns(t *testing.T, hc *http.Client) *http.Response {
	t.Helper()
	resp, err := twoTurnsErr(hc)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// twoTurnsErr is twoTurns, returning its error.
func twoTurnsErr(hc *http.Client) (*http.Response, error) {
	req, _ := http.NewRequest("GET", "http://a.test/x", nil)
	req.Host = "a.test:8080"
	return hc.Do(req)
}

// closeLater closes resp's body after d, returning when it did (unix
// ns) once that has happened.
func closeLater(resp *http.Response, d time.Duration) func() int64 {
	at := make(chan int64, 1)
	go func() {
		time.Sleep(d)
		at <- time.Now().UnixNano()
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}()
	return func() int64 { return <-at }
}

// twinThirdParty serves a.test and a.test:8080 (see portTwins), each
// with a Crawl-delay of 60 s; a.test:8080's tdmrep.json is kept at
// b.test, whose robots.txt redirects to into, a page of a.test or of
// a.test:8080, /x2 redirecting on to /x6. It counts requests by Host and
// path.
type twinThirdParty struct {
	into string
	mu   sync.Mutex
	seen map[string]int // Host + path
}

func (s *twinThirdParty) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.seen[r.Host+r.URL.Path]++
	s.mu.Unlock()
	switch {
	case r.URL.Path == "/robots.txt" && r.Host == "b.test":
		http.Redirect(w, r, s.into, http.StatusMovedPermanently)
	case r.URL.Path == "/robots.txt":
		w.Header().Set("Cache-Control", "max-age=3600")
		io.WriteString(w, "User-agent: *\nAllow: /\nCrawl-delay: 60\n")
	case r.URL.Path == "/.well-known/tdmrep.json" && r.Host == "a.test:8080":
		http.Redirect(w, r, "http://b.test/policies/a.json", http.StatusMovedPermanently)
	case r.URL.Path == "/policies/a.json":
		io.WriteString(w, `[{"location":"/","tdm-reservation":0}]`)
	case len(r.URL.Path) == 3 && r.URL.Path[:2] == "/x" && r.URL.Path[2] < '6':
		http.Redirect(w, r, "/x"+string(r.URL.Path[2]+1), http.StatusMovedPermanently)
	case r.URL.Path == "/x6":
		io.WriteString(w, "User-agent: *\nAllow: /\n")
	default:
		io.WriteString(w, "page")
	}
}

// count returns how many requests s saw for host and path.
func (s *twinThirdParty) count(hostPath string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[hostPath]
}

// TestTwinLeaseLetsNoThirdPartyIn: while a page holds the turns of
// a.test and a.test:8080, another site's robots.txt, fetched to check a
// hop of its Receipt, that redirects into either takes that site's turn
// as its own check would, and inside a Crawl-delay of 60 s is refused
// (review132: into the twin a.test it sent five requests).
func TestTwinLeaseLetsNoThirdPartyIn(t *testing.T) {
	for _, tc := range []struct{ name, into, counted string }{
		{"into the root a.test:8080", "http://a.test:8080/x2", "a.test:8080/x2"},
		{"into the twin a.test", "http://a.test/x2", "a.test/x2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			s := &twinThirdParty{into: tc.into, seen: map[string]int{}}
			c, tr := NewClientTransport(portTwins(t, s), []Option{WithUserAgent(testUA), WithTDMRep(), WithFetchTimeout(300 * time.Millisecond)})
			defer c.Close()
			hc := &http.Client{Transport: tr}
			p := twoTurns(t, hc) // both turns, body open
			defer p.Body.Close()
			start := time.Now()
			rc := tr.Receipt(p, nil)
			host, _, _ := strings.Cut(tc.counted, "/")
			n := 0
			for i := 2; i <= 6; i++ {
				n += s.count(host + "/x" + strconv.Itoa(i))
			}
			if n != 0 {
				t.Errorf("b.test's robots.txt sent %d request(s) to %s while the page held its turn, inside its Crawl-delay of 60 s (receipt took %v, signals %d)",
					n, tc.counted, time.Since(start).Round(time.Millisecond), len(rc.Signals))
			}
		})
	}
}

// twinCanon serves a.test and a.test:8080 (see portTwins): a.test's
// robots.txt is a.test:8080's (a redirect to /shared/robots.txt there),
// which says Crawl-delay: 1;
// a.test:8080's tdmrep.json is a.test's (a redirect).
type twinCanon struct {
	mu   sync.Mutex
	seen []string
}

func (s *twinCanon) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.seen = append(s.seen, r.Host+r.URL.Path)
	s.mu.Unlock()
	switch {
	case r.URL.Path == "/robots.txt" && r.Host == "a.test":
		http.Redirect(w, r, "http://a.test:8080/shared/robots.txt", http.StatusMovedPermanently)
	case r.URL.Path == "/robots.txt" || r.URL.Path == "/shared/robots.txt":
		w.Header().Set("Cache-Control", "max-age=3600")
		io.WriteString(w, "User-agent: *\nAllow: /\nCrawl-delay: 1\n")
	case r.URL.Path == "/.well-known/tdmrep.json" && r.Host == "a.test:8080":
		http.Redirect(w, r, "http://a.test/.well-known/tdmrep.json", http.StatusMovedPermanently)
	case r.URL.Path == "/.well-known/tdmrep.json":
		io.WriteString(w, `[{"location":"/","tdm-reservation":0}]`)
	default:
		io.WriteString(w, "page")
	}
}

// TestTwinLeaseTwinsRobotsTxtIntoTheRoot: while a page holds the turns
// of a.test and a.test:8080, its Receipt checks the hop of a.test:8080's
// tdmrep.json to a.test against a.test's robots.txt, stale by then,
// which redirects to a.test:8080: that fetch is of one of the page's
// sites' own documents into the other, and takes no turn, the page
// having taken it (review132: it waited for the turn the page held,
// and the Receipt said, and kept for later pages, train-ai=n).
func TestTwinLeaseTwinsRobotsTxtIntoTheRoot(t *testing.T) {
	checkLeaks(t)
	s := &twinCanon{}
	clock := newTestClock()
	c, tr := NewClientTransport(portTwins(t, s), []Option{WithUserAgent(testUA), WithTDMRep(), WithClock(clock.Now), WithFetchTimeout(2 * time.Second)})
	defer c.Close()
	hc := &http.Client{Transport: tr}
	for _, u := range []string{"http://a.test:8080/", "http://a.test/"} {
		if _, err := c.Allowed(t.Context(), u); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(1100 * time.Millisecond) // a.test:8080's Crawl-delay, after a.test's robots.txt asked it
	p := twoTurns(t, hc)                // both turns, body open
	defer p.Body.Close()
	clock.Advance(2 * time.Hour) // the body still coming; robots.txt stale
	start := time.Now()
	rc := tr.Receipt(p, nil)
	took := time.Since(start)
	for _, sg := range rc.Signals {
		t.Logf("signal %+v", sg)
	}
	t.Logf("usage %q, took %v, requests %q", rc.Usage.statement(), took.Round(time.Millisecond), s.seen)
	for _, sg := range rc.Signals {
		if sg.Where == "unreachable" {
			t.Errorf("the receipt failed: %+v", sg)
		}
	}
	// Later: the page's body done, another page of a.test:8080, read to
	// its end; its Receipt.
	io.Copy(io.Discard, p.Body)
	p.Body.Close()
	time.Sleep(1100 * time.Millisecond)
	resp, body := fetchPage(t, hc, "http://a.test:8080/y")
	rc2 := tr.Receipt(resp, body)
	for _, sg := range rc2.Signals {
		if sg.Where == "unreachable" {
			t.Errorf("a later page's receipt, no turn held: %s %+v", rc2.Usage.statement(), sg)
		}
	}
}

// TestTwinLeaseEndsWithTheLease (review117): a page sent in two sites'
// turns (a.test and a.test:8080, by a Host at another port) whose body
// its caller never closes holds those turns until their lease runs out,
// as for any page, and its receipt's hop between the two sites takes no
// turn only until then: it reached a.test while another page held
// a.test's turn, long after the leaked page's lease.
func TestTwinLeaseEndsWithTheLease(t *testing.T) {
	checkLeaks(t)
	sites := &twinSites{}
	p := newMemPacer()
	p.timeout = 200 * time.Millisecond // the turn's lease (at least the interval), 30 s outside tests
	c, tr := NewClientTransport(portTwins(t, sites), []Option{WithUserAgent(testUA), WithTDMRep(), WithFetchTimeout(5 * time.Second)}, WithPacer(p))
	defer c.Close()
	hc := &http.Client{Transport: tr}

	leaked := twoTurns(t, hc)           // its body left open, as a crawler's bug may
	defer leaked.Body.Close()           // at the test's end, for checkLeaks
	time.Sleep(1500 * time.Millisecond) // past its turns' lease (1 s, the Crawl-delay)
	held, err := hc.Get("http://a.test/y")
	if err != nil {
		t.Fatal(err)
	}
	closedAt := closeLater(held, 500*time.Millisecond) // a.test's turn, held meanwhile
	rc := tr.Receipt(leaked, nil)
	if early := time.Duration(closedAt() - sites.hopAt.Load()); sites.hopAt.Load() == 0 {
		t.Fatalf("a.test's tdmrep.json never asked for; signals %+v", rc.Signals)
	} else if early > 0 {
		t.Errorf("the leaked page's receipt reached a.test %v before the page holding a.test's turn ended, long after the leaked page's lease: no turn taken", early)
	}
}

// TestTwinLeaseSparesOnlyItsRequestsReceipt (review122): while a page is
// in flight in the turns of a.test and a.test:8080, the receipt of
// another page of a.test:8080, whose tdmrep.json redirects to a.test,
// waits for a.test's turn: the twin pages' exemption was kept by pair of
// sites, and that hop reached a.test within a millisecond of the page,
// under a Crawl-delay of 1 s.
func TestTwinLeaseSparesOnlyItsRequestsReceipt(t *testing.T) {
	checkLeaks(t)
	sites := &twinSites{}
	c, tr := NewClientTransport(portTwins(t, sites), []Option{WithUserAgent(testUA), WithTDMRep(), WithFetchTimeout(5 * time.Second)})
	defer c.Close()
	hc := &http.Client{Transport: tr}
	other, err := hc.Get("http://a.test:8080/z") // a.test:8080's turn alone
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, other.Body)
	other.Body.Close()
	if _, err := c.Allowed(context.Background(), "http://a.test/x"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // a.test:8080's Crawl-delay

	closedAt := closeLater(twoTurns(t, hc), 500*time.Millisecond)
	rc := tr.Receipt(other, nil)
	if early := time.Duration(closedAt() - sites.hopAt.Load()); sites.hopAt.Load() == 0 {
		t.Fatalf("a.test's tdmrep.json never asked for; signals %+v", rc.Signals)
	} else if early > 0 {
		t.Errorf("another page's receipt reached a.test %v before the two-turn page there ended, %v after it was sent, under a Crawl-delay of 1 s",
			early, time.Duration(sites.hopAt.Load()-sites.pageAt.Load()))
	}
}

// TestTwinLeaseUsageJoinsNoOtherFill (review123): a page P sent in the
// turns of a.test and a.test:8080 holds both while its caller asks
// Usage(P) before reading the body. a.test:8080's tdmrep.json redirects
// to a.test. Another page's Receipt, begun a moment earlier, started the
// tdmrep.json fill of a.test:8080, whose hop to a.test rightly waits for
// a.test's turn, which P holds. P's Usage joined that fill, keyed by
// authority only, and so waited for its own page's turn until the fetch
// timeout, and read the file as unreachable (train-ai=n), for later
// pages too. With a Store that leases (review124), P's Usage, in a fill
// of its own, waited so for the Store lease the other page's fill held;
// with one fetch slot (review126), for the slot that fill held.
func TestTwinLeaseUsageJoinsNoOtherFill(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
	}{
		{"alone", nil},
		{"store", []Option{WithStore(newMemStore())}}, // one that leases, as redisstore does
		{"one-slot", []Option{WithMaxFetches(1)}},     // which the other fill holds
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			opts := append([]Option{WithUserAgent(testUA), WithTDMRep(), WithFetchTimeout(3 * time.Second)}, tc.opts...)
			c, tr := NewClientTransport(portTwins(t, &twinSites{}), opts)
			defer c.Close()
			hc := &http.Client{Transport: tr}
			other, err := hc.Get("http://a.test:8080/z") // a.test:8080's turn alone
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, other.Body)
			other.Body.Close()
			time.Sleep(1100 * time.Millisecond) // a.test:8080's Crawl-delay

			p := twoTurns(t, hc) // both turns, body open
			defer p.Body.Close()
			otherDone := make(chan struct{})
			go func() { defer close(otherDone); tr.Receipt(other, nil) }() // its hop to a.test waits for P's turn: right
			time.Sleep(200 * time.Millisecond)

			start := time.Now()
			u := tr.Usage(p) // P's own usage, its body still open
			took := time.Since(start)
			if took > time.Second {
				t.Errorf("Usage of the two-turn page, body open, took %v: it waited for its own page's turn (train-ai=%v)", took.Round(time.Millisecond), u.Pref("train-ai"))
			}
			if u.Pref("train-ai") == PrefNo {
				rc := tr.Receipt(p, nil)
				t.Errorf("train-ai=n for the two-turn page, whose tdmrep.json says 0: signals %+v", rc.Signals)
			}
			io.Copy(io.Discard, p.Body)
			p.Body.Close()
			<-otherDone

			laterPageUnreserved(t, hc, tr)
		})
	}
}

// TestTwinLeaseSparesNoRobotsCheck (review122): while a page is in
// flight in the turns of a.test and a.test:8080, other checks of
// a.test:8080, whose robots.txt redirects to a.test (fresh for 2 s),
// wait for a.test's turn to fetch it again: they took none, and reached
// a.test while the page was there, under a Crawl-delay of 1 s.
func TestTwinLeaseSparesNoRobotsCheck(t *testing.T) {
	checkLeaks(t)
	var pageAt atomic.Int64
	var mu sync.Mutex
	var hops []int64 // when a.test's /robots-8080.txt was asked for, unix ns
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt" && r.Host == "a.test:8080":
			http.Redirect(w, r, "http://a.test/robots-8080.txt", http.StatusMovedPermanently)
		case r.URL.Path == "/robots.txt":
			io.WriteString(w, "User-agent: *\nAllow: /\nCrawl-delay: 1\n")
		case r.URL.Path == "/robots-8080.txt":
			mu.Lock()
			hops = append(hops, time.Now().UnixNano())
			mu.Unlock()
			w.Header().Set("Cache-Control", "max-age=2")
			io.WriteString(w, "User-agent: *\nAllow: /\nCrawl-delay: 1\n")
		case r.URL.Path == "/x":
			pageAt.Store(time.Now().UnixNano())
			io.WriteString(w, "page")
		default:
			io.WriteString(w, "page")
		}
	})
	c, tr := NewClientTransport(portTwins(t, h), []Option{WithUserAgent(testUA), WithMinFreshness(time.Second), WithFetchTimeout(5 * time.Second)})
	defer c.Close()
	hc := &http.Client{Transport: tr}
	ctx := context.Background()
	for _, u := range []string{"http://a.test:8080/q", "http://a.test/q"} {
		if _, err := c.Allowed(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(1100 * time.Millisecond) // the Crawl-delay of the hop to a.test

	closedAt := closeLater(twoTurns(t, hc), 2500*time.Millisecond)
	checking, cancel := context.WithTimeout(ctx, 2400*time.Millisecond)
	defer cancel()
	for i := 0; checking.Err() == nil && i < 20; i++ { // other workers' checks, past the file's freshness
		_, _ = c.Allowed(checking, "http://a.test:8080/q")
		time.Sleep(100 * time.Millisecond)
	}
	end := closedAt()
	mu.Lock()
	defer mu.Unlock()
	for _, at := range hops {
		if at > pageAt.Load() && at < end {
			t.Errorf("a check's robots.txt hop reached a.test %v after the two-turn page, which held its turn for %v more, under a Crawl-delay of 1 s",
				time.Duration(at-pageAt.Load()).Round(time.Millisecond), time.Duration(end-at).Round(time.Millisecond))
		}
	}
}

// TestTransportRecheckTakesNoStandInOlderThanRequest (review124): /p2
// waits behind /p1, whose body is open for 4 s (Crawl-delay 1 s,
// robots.txt fresh for 1 s). At its first recheck robots.txt is stale and
// the site answers 503 (Retry-After: 1): the copy fetched before /p2
// began stands in, for its 1 s back-off, and the site then disallows
// everything. Past the back-off, a recheck asks robots.txt again: it took
// the stand-in, tried after /p2 began, for a copy fetched since, and sent
// /p2 under a copy older than it.
func TestTransportRecheckTakesNoStandInOlderThanRequest(t *testing.T) {
	checkLeaks(t)
	var phase atomic.Int32 // 0 allow, 1 503, 2 disallow
	var robotsFetches atomic.Int32
	var p2At atomic.Int64
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			robotsFetches.Add(1)
			switch phase.Load() {
			case 0:
				w.Header().Set("Cache-Control", "max-age=1")
				io.WriteString(w, "User-agent: *\nAllow: /\nCrawl-delay: 1\n")
			case 1:
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(http.StatusServiceUnavailable)
			default:
				w.Header().Set("Cache-Control", "max-age=1")
				io.WriteString(w, "User-agent: *\nDisallow: /\nCrawl-delay: 1\n")
			}
		case "/p2":
			p2At.Store(time.Now().UnixNano())
			io.WriteString(w, "page")
		default:
			io.WriteString(w, "page")
		}
	})
	next := portTwins(t, h)
	c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA), WithMinFreshness(time.Second), WithBackoff(time.Second, time.Second)},
		WithMaxWait(15*time.Second))
	defer c.Close()
	hc := &http.Client{Transport: tr}

	p1, err := hc.Get("http://a.test/p1") // robots.txt fetched now, fresh for 1 s
	if err != nil {
		t.Fatal(err)
	}
	p1Closed := make(chan struct{})
	defer func() { <-p1Closed }()
	go func() { // a.test's turn, held for 4 s
		defer close(p1Closed)
		time.Sleep(4 * time.Second)
		io.Copy(io.Discard, p1.Body)
		p1.Body.Close()
	}()
	time.Sleep(100 * time.Millisecond)
	type result struct {
		resp *http.Response
		err  error
	}
	got := make(chan result, 1)
	began := time.Now()
	go func() {
		resp, err := hc.Get("http://a.test/p2")
		got <- result{resp, err}
	}()
	time.Sleep(200 * time.Millisecond)
	phase.Store(1) // its recheck after the first wait meets a 503
	time.Sleep(1500 * time.Millisecond)
	phase.Store(2) // the site disallows everything from now on
	changed := time.Now()
	fetchesAtChange := robotsFetches.Load()
	r := <-got
	if r.err == nil {
		io.Copy(io.Discard, r.resp.Body)
		r.resp.Body.Close()
	}
	var dis *DisallowedError
	if !errors.As(r.err, &dis) {
		t.Errorf("/p2 sent %v after robots.txt disallowed it (err %v); robots.txt fetched %d times before the change, %d after",
			time.Duration(p2At.Load()-changed.UnixNano()).Round(time.Millisecond), r.err, fetchesAtChange, robotsFetches.Load()-fetchesAtChange)
		if r.err == nil {
			rc := tr.Receipt(r.resp, nil)
			if rc.Robots != nil {
				t.Errorf("its receipt's robots.txt: fetched %v before /p2 began (status %d)",
					began.Sub(rc.Robots.FetchedAt).Round(time.Millisecond), rc.Robots.Status)
			}
		}
	}
}

// slowTDMSites serves a.test and a.test:8080 (see portTwins) with its
// robots.txt, and a tdmrep.json that takes 500 ms, counting its fetches
// by Host.
type slowTDMSites struct {
	robots         string
	mu             sync.Mutex
	fetches        map[string]int
	inFlight, most atomic.Int32
}

func (s *slowTDMSites) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/robots.txt":
		io.WriteString(w, s.robots)
	case "/.well-known/tdmrep.json":
		s.mu.Lock()
		s.fetches[r.Host]++
		s.mu.Unlock()
		n := s.inFlight.Add(1)
		for m := s.most.Load(); n > m && !s.most.CompareAndSwap(m, n); m = s.most.Load() {
		}
		time.Sleep(500 * time.Millisecond)
		s.inFlight.Add(-1)
		io.WriteString(w, `[{"location": "/", "tdm-reservation": 0}]`)
	default:
		io.WriteString(w, "page")
	}
}

// TestTwinLeaseReceiptsFetchOnce (review124): the Receipts of K pages of
// a.test:8080, asked for at once with its tdmrep.json not yet cached,
// share one fetch of it, whether the pages were sent in two sites' turns
// (Host a.test:8080 at a.test) or not: twin pages, whose leases had
// ended, each fetched it, at once.
func TestTwinLeaseReceiptsFetchOnce(t *testing.T) {
	const k = 6
	for _, tc := range []struct {
		name       string
		twin, open bool // two turns; the bodies open while the Receipts are asked
	}{
		{"ordinary", false, false},
		{"twin", true, false},
		{"twin-open-no-crawl-delay", true, true}, // all in flight, their turns not exclusive (review127)
	} {
		name, twin := tc.name, tc.twin
		t.Run(name, func(t *testing.T) {
			checkLeaks(t)
			sites := &slowTDMSites{fetches: map[string]int{}, robots: "User-agent: *\nAllow: /\nCrawl-delay: 0.2\n"}
			if tc.open {
				sites.robots = "User-agent: *\nAllow: /\n"
			}
			c, tr := NewClientTransport(portTwins(t, sites), []Option{WithUserAgent(testUA), WithTDMRep()})
			defer c.Close()
			hc := &http.Client{Transport: tr}
			var resps []*http.Response
			for range k {
				var resp *http.Response
				var err error
				if twin {
					resp, err = twoTurnsErr(hc)
				} else {
					resp, err = hc.Get("http://a.test:8080/y")
				}
				if err != nil {
					t.Fatal(err)
				}
				if !tc.open {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close() // the turns, and a twin's lease, end here
				} else {
					defer resp.Body.Close()
				}
				resps = append(resps, resp)
			}
			var wg sync.WaitGroup
			for _, resp := range resps {
				wg.Go(func() {
					if rc := tr.Receipt(resp, nil); rc.Usage.Pref("train-ai") == PrefNo {
						t.Errorf("train-ai=n: %+v", rc.Signals)
					}
				})
			}
			wg.Wait()
			sites.mu.Lock()
			n := sites.fetches["a.test:8080"]
			sites.mu.Unlock()
			if n != 1 {
				t.Errorf("%d Receipts fetched a.test:8080's tdmrep.json %d times (%d at once), want once", k, n, sites.most.Load())
			}
		})
	}
}

// TestTransportRecheckAsksAgainPastAFailuresBackoff (review125):
// WithErrorPolicy reads a robots.txt the server hangs up on as allow-all,
// a failure asked again on the back-off (1 s here). /p2 waits behind
// /p1, whose body is open for 4 s. robots.txt fails for /p1's check and
// for /p2's first recheck, then the site serves Disallow: /. Past the
// failure's back-off, a recheck asks robots.txt again: the failure, met
// after /p2 began, was taken for a copy fetched since, and /p2 was sent
// under the outage's allow-all.
func TestTransportRecheckAsksAgainPastAFailuresBackoff(t *testing.T) {
	checkLeaks(t)
	var robotsFetches atomic.Int32
	var p2At atomic.Int64
	var disallowedAt atomic.Int64
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			if robotsFetches.Add(1) <= 2 { // an outage: the server hangs up
				conn, _, _ := w.(http.Hijacker).Hijack()
				conn.Close()
				return
			}
			disallowedAt.CompareAndSwap(0, time.Now().UnixNano())
			io.WriteString(w, "User-agent: *\nDisallow: /\n")
		case "/p2":
			p2At.Store(time.Now().UnixNano())
			io.WriteString(w, "page")
		default:
			io.WriteString(w, "page")
		}
	})
	next := portTwins(t, h)
	allowAll := func(error) Outcome { return OutcomeAllowAll }
	c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA), WithErrorPolicy(allowAll), WithBackoff(time.Second, time.Second)},
		WithDefaultInterval(time.Second), WithMaxWait(15*time.Second))
	defer c.Close()
	hc := &http.Client{Transport: tr}

	p1, err := hc.Get("http://a.test/p1") // robots.txt fails: allow-all for 1 s
	if err != nil {
		t.Fatal(err)
	}
	p1Closed := make(chan struct{})
	defer func() { <-p1Closed }()
	go func() { // a.test's turn, held for 4 s
		defer close(p1Closed)
		time.Sleep(4 * time.Second)
		io.Copy(io.Discard, p1.Body)
		p1.Body.Close()
	}()
	time.Sleep(100 * time.Millisecond)
	resp, err := hc.Get("http://a.test/p2")
	if err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	var dis *DisallowedError
	if !errors.As(err, &dis) {
		late := "robots.txt never disallowed it"
		if at := disallowedAt.Load(); at != 0 {
			late = time.Duration(p2At.Load()-at).Round(time.Millisecond).String() + " after robots.txt first disallowed it"
		}
		t.Errorf("/p2 sent (err %v) %s; robots.txt fetched %d times in all", err, late, robotsFetches.Load())
		if err == nil {
			if rc := tr.Receipt(resp, nil); rc.Robots != nil {
				t.Logf("its receipt's robots.txt: outcome %v, status %d, fetched %v before /p2 was sent",
					rc.Robots.Outcome, rc.Robots.Status, time.Unix(0, p2At.Load()).Sub(rc.Robots.FetchedAt).Round(time.Millisecond))
			}
		}
	}
}

// slowFirstTwinSites is twinSites (Crawl-delay 1 s, a.test:8080's
// tdmrep.json redirected to a.test's) whose first answer of
// a.test:8080's tdmrep.json takes 1.5 s.
type slowFirstTwinSites struct {
	twinSites
	first atomic.Bool
}

func (s *slowFirstTwinSites) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/.well-known/tdmrep.json" && r.Host == "a.test:8080" && s.first.CompareAndSwap(false, true) {
		time.Sleep(1500 * time.Millisecond)
	}
	s.twinSites.ServeHTTP(w, r)
}

// TestTwinLeaseUsageJoinsNoEndedLeasesFill (review125): P1, in the turns
// of a.test and a.test:8080, asks its Receipt while its body is open,
// and closes the body meanwhile; a.test:8080's tdmrep.json is slow to
// answer. P2, the next page in the same two turns, asks its Usage, body
// open: it joined P1's fill (shared by pair of sites), whose hop to
// a.test, P1's lease ended, waited for the turn P2 holds until the fetch
// timeout, and P2 read train-ai=n, kept for later pages.
func TestTwinLeaseUsageJoinsNoEndedLeasesFill(t *testing.T) {
	checkLeaks(t)
	sites := &slowFirstTwinSites{}
	c, tr := NewClientTransport(portTwins(t, sites), []Option{WithUserAgent(testUA), WithTDMRep(), WithFetchTimeout(3 * time.Second)})
	defer c.Close()
	hc := &http.Client{Transport: tr}

	p1 := twoTurns(t, hc)
	p1Done := make(chan struct{})
	go func() { defer close(p1Done); tr.Receipt(p1, nil) }() // lease live: P1's fill begins
	time.Sleep(100 * time.Millisecond)
	io.Copy(io.Discard, p1.Body)
	p1.Body.Close() // P1's turns, and its lease, end

	p2 := twoTurns(t, hc) // both turns again, a Crawl-delay later; body open
	defer p2.Body.Close()
	start := time.Now()
	u := tr.Usage(p2)
	took := time.Since(start)
	if took > time.Second {
		t.Errorf("Usage of the two-turn page P2, body open, took %v: it joined P1's fill, whose hop waited for P2's own turn", took.Round(time.Millisecond))
	}
	if u.Pref("train-ai") == PrefNo {
		t.Errorf("train-ai=n for P2, whose tdmrep.json says 0: signals %+v", tr.Receipt(p2, nil).Signals)
	}
	io.Copy(io.Discard, p2.Body)
	p2.Body.Close()
	<-p1Done

	laterPageUnreserved(t, hc, tr)
}

// laterPageUnreserved fetches, past the turns of the pages before it, a
// fresh page of a.test:8080, nothing in flight, and fails t if its
// receipt keeps the train-ai=n a hop that waited for their turns left.
func laterPageUnreserved(t *testing.T, hc *http.Client, tr *Transport) {
	t.Helper()
	time.Sleep(1100 * time.Millisecond)
	later, err := hc.Get("http://a.test:8080/w")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, later.Body)
	later.Body.Close()
	if rc := tr.Receipt(later, nil); rc.Usage.Pref("train-ai") == PrefNo {
		t.Errorf("a later page of a.test:8080, nothing in flight, still train-ai=n: %+v", rc.Signals)
	}
}

// TestTransportTwinsShareAPace: a site's http and https, and its www.
// twin, which most sites serve from the same servers, are paced and held
// as one site (pace83): an http link the site redirects to https reached
// it twice within the interval, milliseconds apart, and a Retry-After
// sent by its https held none of the others.
func TestTransportTwinsShareAPace(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var mu sync.Mutex
	var arrived []time.Time
	for _, host := range []string{"a.test", "www.a.test"} {
		w.on(host+"/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
		w.on(host+"/page", func(rw http.ResponseWriter, r *http.Request) {
			mu.Lock()
			arrived = append(arrived, time.Now())
			mu.Unlock()
			if r.TLS == nil && r.Host == "a.test" {
				http.Redirect(rw, r, "https://a.test/page", http.StatusMovedPermanently)
			}
		})
	}
	w.on("a.test/busy", serve(http.StatusServiceUnavailable, "", "Retry-After", "60"))
	const interval = 300 * time.Millisecond
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithDefaultInterval(interval), WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	get := func(u string) error {
		resp, err := hc.Get(u)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return err
	}
	if err := get("http://a.test/page"); err != nil {
		t.Fatalf("the http link, redirected to https: %v", err)
	}
	mu.Lock()
	if len(arrived) != 2 {
		t.Fatalf("%d requests for the page; want 2", len(arrived))
	}
	if gap := arrived[1].Sub(arrived[0]); gap < interval*3/4 {
		t.Errorf("https://a.test/page came %v after http://a.test/page redirected there; want the interval, %v", gap, interval)
	}
	mu.Unlock()
	time.Sleep(interval + 50*time.Millisecond)
	if err := get("https://a.test/busy"); err != nil {
		t.Fatalf("https://a.test/busy: %v", err)
	}
	for _, u := range []string{"http://a.test/page", "http://www.a.test/page", "https://www.a.test/page"} {
		if err := get(u); !errors.Is(err, ErrPaced) {
			t.Errorf("%s while https://a.test holds the site (Retry-After: 60): %v; want ErrPaced", u, err)
		}
	}
	if n := w.count("http://a.test/page") + w.count("http://www.a.test/page") + w.count("https://www.a.test/page"); n != 1 {
		t.Errorf("the site got %d requests at its other spellings; want 1 (the first, before the hold)", n)
	}
}

// TestTwinLeaseHoldsTheTwinsOfItsSites: a page sent in the turns of
// a.test and a.test:8080 (Host a.test:8080 at a.test) holds both while
// its caller asks Usage before reading the body. a.test:8080's
// tdmrep.json redirects to www.a.test, a.test's www. twin, paced under
// a.test's key: the lease exempted only a.test spelt so, and the fetch
// waited for the turn its own page held, then read as unreachable,
// train-ai=n (review139).
func TestTwinLeaseHoldsTheTwinsOfItsSites(t *testing.T) {
	checkLeaks(t)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt":
			w.Header().Set("Cache-Control", "max-age=3600")
			io.WriteString(w, "User-agent: *\nAllow: /\nCrawl-delay: 1\n")
		case r.URL.Path == "/.well-known/tdmrep.json" && r.Host == "a.test:8080":
			http.Redirect(w, r, "http://www.a.test/.well-known/tdmrep.json", http.StatusMovedPermanently)
		case r.URL.Path == "/.well-known/tdmrep.json":
			io.WriteString(w, `[{"location": "/", "tdm-reservation": 0}]`)
		default:
			io.WriteString(w, "page")
		}
	})
	c, tr := NewClientTransport(portTwins(t, h), []Option{WithUserAgent(testUA), WithTDMRep(), WithFetchTimeout(3 * time.Second)})
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	p := twoTurns(t, hc) // both turns, the body open
	defer p.Body.Close()
	start := time.Now()
	if u := tr.Usage(p); u.Pref("train-ai") == PrefNo || time.Since(start) > time.Second {
		t.Errorf("Usage of the two-turn page, its body open: train-ai=%v after %v; want tdmrep.json's 0 read at once", u.Pref("train-ai"), time.Since(start))
	}
}

// orderPacer is a Pacer that holds X's Take of b.test's key back (until
// until) while Y has not taken it: the interleaving in which each of two
// two-turn requests holds its first turn.
type orderPacer struct {
	Pacer
	until        time.Time
	xHasA, yHasB atomic.Bool
}

// whoKey keys, in a request's context, the name orderPacer knows it by.
type whoKey struct{}

func (p *orderPacer) Take(ctx context.Context, key string, iv time.Duration) (uint64, time.Duration, error) {
	who, _ := ctx.Value(whoKey{}).(string)
	if who == "X" && key == paceKey("http://b.test:80") && !p.yHasB.Load() && time.Now().Before(p.until) {
		return 0, 5 * time.Millisecond, nil
	}
	id, wait, err := p.Pacer.Take(ctx, key, iv)
	switch {
	case id != 0 && who == "X" && key == paceKey("http://a.test:80"):
		p.xHasA.Store(true)
	case id != 0 && who == "Y" && key == paceKey("http://b.test:80"):
		p.yHasB.Store(true)
	}
	return id, wait, err
}

// TestTransportTwoTurnsInTheOrderOfTheirKeys: X is a hop that keeps the
// Host a.test at b.test's server, Y one that keeps the Host www.a.test
// there: each takes the turns of a.test's key and b.test's. Taken in the
// order of their authorities (a.test, b.test, www.a.test) while the
// Pacer keys www.a.test as a.test, X took a.test's first and Y b.test's,
// each holding the turn the other waited for, both refused after the
// wait (review140). They are taken in the order of their keys.
func TestTransportTwoTurnsInTheOrderOfTheirKeys(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	for _, h := range []string{"a.test", "www.a.test", "b.test", "front.test"} {
		w.on(h+"/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	}
	w.on("b.test/x", serve(200, "x"))
	w.on("b.test/y", serve(200, "y"))
	p := &orderPacer{Pacer: newMemPacer(), until: time.Now().Add(time.Second)}
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithPacer(p), WithDefaultInterval(100*time.Millisecond))
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	keptHop := func(who, host, path string) *http.Request { // after a Location "//b.test/<path>"
		prev, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://front.test/", nil)
		prev.Host = host
		hop, _ := http.NewRequestWithContext(context.WithValue(ctx, whoKey{}, who), http.MethodGet, "http://b.test/"+path, nil)
		hop.Host = host
		hop.Response = &http.Response{StatusCode: http.StatusMovedPermanently, Request: prev, Header: http.Header{"Location": {"//b.test/" + path}}}
		return hop
	}
	var wg sync.WaitGroup
	send := func(who, host, path string) {
		defer wg.Done()
		resp, err := tr.RoundTrip(keptHop(who, host, path))
		if err != nil {
			t.Errorf("%s (the Host %s kept at b.test): %v; want it sent", who, host, err)
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	wg.Add(2)
	go send("X", "a.test", "x")
	for !p.xHasA.Load() && ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	go send("Y", "www.a.test", "y")
	wg.Wait()
}
