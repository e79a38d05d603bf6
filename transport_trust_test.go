package robotstxt

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/botauth"
)

// TestTransportTrust runs requests a careless caller or a hostile page
// makes through a real http.Client with the Transport: the escaped
// spellings of disallowed paths, a query holding '#', a request that
// names another crawler, a redirect of robots.txt that launders a request.
// The servers never see any of them.
func TestTransportTrust(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("site.test/robots.txt", serve(200, "User-agent: ExampleBot\n"+
		"Disallow: /wiki/Special:\nDisallow: /tags/c++\nDisallow: /caf%C3%A9\nDisallow: /*sessionid=\nDisallow: /a b\n"))
	w.on("victim.test/robots.txt", serve(200, "User-agent: *\nDisallow: /private\n"))
	w.on("evil.test/robots.txt", redirectTo("http://victim.test/private/delete?id=1"))
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	ctx := context.Background()
	for _, u := range []string{
		"http://site.test/wiki/Special%3ARandom",
		"http://site.test/wiki/Special%3aRandom",
		"http://site.test/tags/c%2B%2B",
		"http://site.test/tags/c%2b%2b",
		"http://site.test/caf%c3%a9",
		"http://site.test/a%20b",
	} {
		if _, err := get(ctx, hc, u); !errors.Is(err, ErrDisallowed) {
			t.Errorf("%s: %v, want ErrDisallowed", u, err)
		}
	}
	// A query holding '#', as net/http sends it whole and nginx and
	// Apache cut it: refused unchecked.
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://site.test/page", nil)
	req.URL.RawQuery = "#&sessionid=1"
	if _, err := hc.Do(req); !errors.Is(err, ErrBadURL) {
		t.Errorf("query %q: %v, want ErrBadURL", req.URL.RawQuery, err)
	}
	// A request that names another crawler is refused, saying what to set.
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, "http://site.test/ok", nil)
	req.Header.Set("User-Agent", "MyBot/1.0")
	if _, err := hc.Do(req); !errors.Is(err, ErrAgentMismatch) || !strings.Contains(err.Error(), "WithUserAgent") {
		t.Errorf("another crawler's User-Agent: %v, want ErrAgentMismatch naming the option", err)
	}
	// A URL built by hand whose host ends in a delimiter: checked pasted
	// whole, the path after it went unread (a proxy was sent
	// http://victim.test/private/secret, checked as /).
	for _, host := range []string{"victim.test#", "victim.test?", "victim.test/public?", "victim.test#@x", "victim.test?x"} {
		req := (&http.Request{Method: http.MethodGet, URL: &url.URL{Scheme: "http", Host: host, Path: "/private/secret"}, Header: http.Header{}}).WithContext(ctx)
		if resp, err := tr.RoundTrip(req); !errors.Is(err, ErrBadURL) {
			if resp != nil {
				resp.Body.Close()
			}
			t.Errorf("URL host %q: %v, want ErrBadURL", host, err)
		}
	}
	// robots.txt that redirects to a disallowed page of another site.
	if _, err := get(ctx, hc, "http://evil.test/page"); !errors.Is(err, ErrDeferred) {
		t.Errorf("laundering redirect: %v, want ErrDeferred", err)
	}
	for _, u := range []string{
		"http://site.test/wiki/Special:Random", "http://site.test/tags/c++", "http://site.test/caf%C3%A9",
		"http://site.test/page?#&sessionid=1", "http://site.test/ok", "http://victim.test/private/delete?id=1",
		"http://evil.test/page",
	} {
		if n := w.count(u); n != 0 {
			t.Errorf("the server saw %s %d times", u, n)
		}
	}
	w.mu.Lock()
	for u := range w.seen {
		if !strings.HasSuffix(u, "/robots.txt") {
			t.Errorf("the server saw %s", u)
		}
	}
	w.mu.Unlock()
}

// TestTransportFileServerForms: Go's file server cleans a path as
// path.Clean does, so /files/doc.pdf/. and /files/doc.pdf/x/.. serve
// /files/doc.pdf itself; the forms the Client checked kept RFC 3986's
// final '/', and Disallow: /*.pdf$ let the file out.
func TestTransportFileServerForms(t *testing.T) {
	checkLeaks(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "files"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"files/doc.pdf": "%PDF secret", "robots.txt": "User-agent: *\nDisallow: /*.pdf$\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: next}), WithUserAgent(testUA))
	hc := &http.Client{Transport: NewTransport(c, next)}
	for _, p := range []string{"/files/doc.pdf", "/files/doc.pdf/.", "/files/doc.pdf/x/..", "/files/doc.pdf/%2e", "/files//doc.pdf/."} {
		if body, err := get(context.Background(), hc, srv.URL+p); !errors.Is(err, ErrDisallowed) {
			t.Errorf("%s: %q, %v; want ErrDisallowed", p, body, err)
		}
	}
}

// TestTransportSendsTheHostChecked: a request goes out with the Host its
// robots.txt was fetched with, however its URL or Host spells the site:
// a server that tells "victim.test." or "VICTIM.TEST" from victim.test
// (Go's ServeMux does) would serve a site whose robots.txt was not read.
// So do a redirect an http.Client follows and a robots.txt redirect hop.
func TestTransportSendsTheHostChecked(t *testing.T) {
	checkLeaks(t)
	for _, signed := range []bool{false, true} { // botauth's guard against a kept Host lets these pass
		w := newHosts(t)
		w.on("victim.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
		w.on("victim.test/page", serve(200, "victim's page"))
		w.on("other.test/robots.txt", redirectTo("http://VICTIM.TEST./robots.txt"))
		w.on("other.test/go", redirectTo("http://victim.test.:80/page"))
		w.on("xn--bcher-kva.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
		w.on("xn--bcher-kva.test/page", serve(200, "victim's page"))
		var next http.RoundTripper = w.transport(t)
		if signed {
			next = botauth.NewTransport(next, testSigner(t))
		}
		c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA)})
		t.Cleanup(func() { _ = c.Close() })
		hc := &http.Client{Transport: tr}
		for _, u := range []string{"http://other.test/go", "http://victim.test./page", "http://VICTIM.TEST/page", "http://bücher.test/page"} {
			if body, err := get(context.Background(), hc, u); err != nil || body != "victim's page" {
				t.Errorf("signed %v: %s: %q, %v; want victim.test's page", signed, u, body, err)
			}
		}
		if err := getHost(hc, "http://victim.test/page", "Victim.Test."); err != nil {
			t.Errorf("signed %v: Host Victim.Test.: %v", signed, err)
		}
		w.mu.Lock()
		for u := range w.seen {
			if !strings.HasPrefix(u, "http://victim.test/") && !strings.HasPrefix(u, "http://other.test/") &&
				!strings.HasPrefix(u, "http://xn--bcher-kva.test/") {
				t.Errorf("signed %v: the server was asked for %s", signed, u)
			}
		}
		w.mu.Unlock()
	}
}

// TestTransportSetsUserAgent: a request without a User-Agent, or with an
// empty one (which net/http does not send, and httputil.ReverseProxy sets
// when the request it forwards has none), goes out with the Client's, and
// one that names the Client's product token as it is.
func TestTransportSetsUserAgent(t *testing.T) {
	checkLeaks(t)
	got := make(chan string, 4)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	s.route("/page", func(w http.ResponseWriter, r *http.Request) { got <- r.Header.Get("User-Agent") })
	_, _, hc := newTestTransport(t)
	ctx := context.Background()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/page", nil)
	for _, none := range [][]string{nil, {}, {""}, {" "}} {
		if none != nil {
			req.Header["User-Agent"] = none
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatalf("User-Agent %q: %v", none, err)
		}
		resp.Body.Close()
		if ua := <-got; ua != testUA {
			t.Errorf("a request with User-Agent %q went out as %q, want the Client's %q", none, ua, testUA)
		}
	}
	for _, ua := range []string{"ExampleBot/2.0", "Mozilla/5.0 (compatible; examplebot/1.0; +https://example.com/bot)"} {
		req.Header.Set("User-Agent", ua)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatalf("User-Agent %q: %v", ua, err)
		}
		resp.Body.Close()
		if sent := <-got; sent != ua {
			t.Errorf("User-Agent %q went out as %q", ua, sent)
		}
	}
	for _, ua := range []string{"colly - https://github.com/gocolly/colly", "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0"} {
		req.Header["User-Agent"] = []string{ua}
		if _, err := hc.Do(req); !errors.Is(err, ErrAgentMismatch) {
			t.Errorf("User-Agent %q: %v, want ErrAgentMismatch", ua, err)
		}
	}
}

// TestTransportBehindReverseProxy: httputil.ReverseProxy forwards a
// request that came without a User-Agent with an empty one; through the
// Transport it goes out with the Client's, where it was refused and the
// proxy answered 502.
func TestTransportBehindReverseProxy(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	got := make(chan string, 1)
	s.route("/page", func(w http.ResponseWriter, r *http.Request) { got <- r.Header.Get("User-Agent") })
	_, tr, _ := newTestTransport(t)
	target, _ := url.Parse(s.URL)
	var proxyErr error
	rp := &httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.SetURL(target) },
		Transport: tr,
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			proxyErr = err
			w.WriteHeader(http.StatusBadGateway)
		},
	}
	req := httptest.NewRequest(http.MethodGet, "http://proxy.test/page", nil)
	rec := httptest.NewRecorder()
	rp.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("proxied: status %d, %v", rec.Code, proxyErr)
	}
	if ua := <-got; ua != testUA {
		t.Errorf("proxied request went out as %q, want the Client's %q", ua, testUA)
	}
}

// TestTransportAcceptsTheClientsUserAgent: a request that carries the
// Client's own User-Agent goes out, as one without a User-Agent does with
// it, even when that User-Agent names another token than the Client's
// product tokens.
func TestTransportAcceptsTheClientsUserAgent(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	const ua = "ExampleBot/1.0 (+https://example.com/bot)"
	c := newTestClient(t, WithUserAgent(ua), WithProductTokens("Example-Bot"))
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	hc := &http.Client{Transport: NewTransport(c, next)}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
	for _, header := range []string{"", ua} {
		if header != "" {
			req.Header.Set("User-Agent", header)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatalf("User-Agent %q: %v", header, err)
		}
		resp.Body.Close()
	}
}

// TestClientCloseClosesIdleConnections: Close closes the idle connections
// of the transport the Client fetches through, which NewClientTransport's
// Transport shares: nothing stays open for the idle timeout.
func TestClientCloseClosesIdleConnections(t *testing.T) {
	checkLeaks(t)
	var open atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		switch st {
		case http.StateNew:
			open.Add(1)
		case http.StateClosed, http.StateHijacked:
			open.Add(-1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	c, tr := NewClientTransport(&http.Transport{}, []Option{WithUserAgent(testUA)})
	if _, err := get(t.Context(), &http.Client{Transport: tr}, srv.URL+"/page"); err != nil {
		t.Fatal(err)
	}
	if open.Load() == 0 {
		t.Fatal("no connection stayed open to close")
	}
	_ = c.Close()
	waitClosed := func(what string) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); open.Load() != 0; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d connections still open 5 s after Close", what, open.Load())
			}
		}
	}
	waitClosed("NewClientTransport")

	// Through a Transport of another Client, stacked under this one's.
	inner := newTestClient(t, WithUserAgent(testUA))
	c, tr = NewClientTransport(NewTransport(inner, &http.Transport{}), []Option{WithUserAgent(testUA)})
	if _, err := get(t.Context(), &http.Client{Transport: tr}, srv.URL+"/page"); err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	_ = inner.Close() // its own robots.txt requests' connection
	waitClosed("a Transport stacked under NewClientTransport's")

	// http.DefaultTransport, which others share, keeps its own.
	t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections)
	if _, err := get(t.Context(), http.DefaultClient, srv.URL+"/robots.txt"); err != nil {
		t.Fatal(err)
	}
	c, _ = NewClientTransport(nil, []Option{WithUserAgent(testUA)})
	_ = c.Close()
	_ = newTestClient(t, WithHTTPClient(&http.Client{Transport: http.DefaultTransport})).Close()
	// Nor does it when wrapped, as by the signing transport over it.
	signing := botauth.NewTransport(nil, testSigner(t))
	c, _ = NewClientTransport(signing, []Option{WithUserAgent(testUA)})
	_ = c.Close()
	_ = newTestClient(t, WithHTTPClient(&http.Client{Transport: signing})).Close()
	time.Sleep(100 * time.Millisecond) // a close would have reached the server
	if n := open.Load(); n != 1 {
		t.Errorf("%d connections of http.DefaultTransport open after Close, want 1", n)
	}
}

// TestTransportPacesEverySpelling: every spelling of one host takes its
// turn in one pacing: a.test, a.test., A.TEST, a.test:80 and a.test with
// a full-width dot are one site with Crawl-delay: 60.
func TestTransportPacesEverySpelling(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 60\n"))
	w.on("a.test/page", serve(200, "page"))
	w.on("a.test./page", serve(200, "page"))
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	ctx := context.Background()
	if _, err := get(ctx, hc, "http://a.test/page"); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"http://a.test./page", "http://A.TEST/page", "http://a.test:80/page", "http://a\uff0etest/page"} {
		if _, err := get(ctx, hc, u); !errors.Is(err, ErrPaced) {
			t.Errorf("%s right after http://a.test/page: %v, want ErrPaced", u, err)
		}
	}
}

// unmappedHosts returns hosts serving b.test and xn--ni7c.test, the two
// sites a request for ｂ.test reaches (dialled as one, asked for as the
// other), each with robots.txt robots and a page at /page.
func unmappedHosts(t *testing.T, robots string) *hosts {
	w := newHosts(t)
	for _, h := range []string{"b.test", "xn--ni7c.test"} {
		w.on(h+"/robots.txt", serve(200, robots))
		w.on(h+"/page", serve(200, "page"))
	}
	return w
}

// TestTransportPacesTheHostSent: a name net/http dials mapped but sends
// unmapped (ｂ.test: the connection goes to b.test, the Host header names
// xn--ni7c.test) takes the turn of both, so that neither site is reached
// again within its Crawl-delay, however the next request spells it.
func TestTransportPacesTheHostSent(t *testing.T) {
	checkLeaks(t)
	w := unmappedHosts(t, "User-agent: *\nCrawl-delay: 60\n")
	for _, next := range []string{"http://xn--ni7c.test/page", "http://b.test/page"} {
		c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithNoWait())
		hc := &http.Client{Transport: tr}
		if _, err := get(context.Background(), hc, "http://\uff42.test/page"); err != nil {
			t.Fatal(err)
		}
		if _, err := get(context.Background(), hc, next); !errors.Is(err, ErrPaced) {
			t.Errorf("%s right after http://\uff42.test/page: %v, want ErrPaced", next, err)
		}
		_ = c.Close()
	}
	// A Request.Host that spells the same name another way names no
	// other site: both turns still.
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	if _, err := get(context.Background(), hc, "http://b.test/page"); err != nil {
		t.Fatal(err)
	}
	if err := getHost(hc, "http://\uff42.test/page", "\uff42.test:80"); !errors.Is(err, ErrPaced) {
		t.Errorf("http://\uff42.test/page with Host \uff42.test:80 right after http://b.test/page: %v, want ErrPaced", err)
	}
}

// slowPacer is a Pacer whose turns at one authority are never free
// within half a lease: it records the turns it gives and ends.
type slowPacer struct {
	slow string        // this authority's turn comes in wait
	wait time.Duration // a minute if 0

	mu         sync.Mutex
	taken, end []string
}

func (p *slowPacer) Take(_ context.Context, authority string, _ time.Duration) (uint64, time.Duration, error) {
	if authority == p.slow {
		return 0, cmp.Or(p.wait, time.Minute), nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.taken = append(p.taken, authority)
	return uint64(len(p.taken)), 0, nil
}

func (p *slowPacer) Done(_ context.Context, authority string, id uint64, _, _ time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.end = append(p.end, authority)
	return nil
}

// TestTransportHoldsNoTurnPastItsLease: a request that takes two turns
// (a name net/http sends unmapped) holds the first while it waits for the
// second, but not for more than half the first's lease (30 s), after
// which another request could take it while the request is out: a second
// turn that cannot come in time refuses the request at once, and the
// first is ended.
func TestTransportHoldsNoTurnPastItsLease(t *testing.T) {
	checkLeaks(t)
	w := unmappedHosts(t, "User-agent: *\nAllow: /\n")
	var p *slowPacer
	var last *Client
	for _, wait := range []time.Duration{time.Minute, 20 * time.Second} {
		p = &slowPacer{slow: paceKey("http://xn--ni7c.test:80"), wait: wait}
		c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithPacer(p), WithMaxWait(2*time.Minute))
		t.Cleanup(func() { _ = c.Close() })
		last = c
		switch err := getWithin(tr, "http://\uff42.test/page", 10*time.Second); {
		case errors.Is(err, errStillWaiting):
			t.Fatalf("a second turn %v away: the request waited past half the lease of the turn it held", wait)
		case !errors.Is(err, ErrPaced) || errors.Is(err, context.DeadlineExceeded):
			t.Errorf("a second turn %v away: %v, want ErrPaced, no deadline passed", wait, err)
		}
		p.mu.Lock()
		if b := paceKey("http://b.test:80"); !slices.Equal(p.taken, []string{b}) || !slices.Equal(p.end, []string{b}) {
			t.Errorf("a second turn %v away: turns taken %q, ended %q; want b.test's, ended", wait, p.taken, p.end)
		}
		p.mu.Unlock()
	}
	// A WithMaxWait shorter than the lease still bounds the wait.
	tr2 := NewTransport(last, w.transport(t), WithPacer(p), WithMaxWait(500*time.Millisecond))
	if _, err := get(context.Background(), &http.Client{Transport: tr2}, "http://\uff42.test/page"); !errors.Is(err, ErrPaced) || !strings.Contains(err.Error(), "WithMaxWait") {
		t.Errorf("under WithMaxWait(500ms): %v, want ErrPaced past the longest wait", err)
	}
}

// errStillWaiting is getWithin's error for a request that has not
// returned in time.
var errStillWaiting = errors.New("the request has not returned")

// getWithin sends a GET for rawURL through tr and returns its error, or
// errStillWaiting once d has passed (the request goes on until the test
// closes its Client).
func getWithin(tr http.RoundTripper, rawURL string, d time.Duration) error {
	done := make(chan error, 1)
	go func() {
		_, err := get(context.Background(), &http.Client{Transport: tr}, rawURL)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		return errStillWaiting
	}
}

// raisePacer is a Pacer that gives every turn at once but every other
// one asked at authority wait, where it says to wait 10 ms and calls
// raise first; it records the turns asked for and ended.
type raisePacer struct {
	wait  string
	raise func()

	mu      sync.Mutex
	waited  bool
	taken   []string // "authority interval"
	ended   map[uint64]int
	lastTag uint64
}

func (p *raisePacer) Take(_ context.Context, authority string, interval time.Duration) (uint64, time.Duration, error) {
	p.mu.Lock()
	p.taken = append(p.taken, fmt.Sprint(authority, " ", interval))
	if authority == p.wait && !p.waited {
		p.waited = true
		p.mu.Unlock()
		p.raise()
		return 0, 10 * time.Millisecond, nil
	}
	if authority == p.wait {
		p.waited = false
	}
	p.lastTag++
	defer p.mu.Unlock()
	return p.lastTag, 0, nil
}

func (p *raisePacer) Done(_ context.Context, _ string, id uint64, _, _ time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if id != 0 {
		p.ended[id]++
	}
	return nil
}

// endedOnce reports whether every turn p gave was ended once.
func (p *raisePacer) endedOnce() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for id := uint64(1); id <= p.lastTag; id++ {
		if p.ended[id] != 1 {
			return false
		}
	}
	return len(p.ended) == int(p.lastTag)
}

// TestTransportRaisedPaceTakesBothTurns: a request that takes two turns
// (a name net/http sends unmapped), whose check after waiting for the
// first finds the Crawl-delay raised, takes both at the raised pace, and
// ends each turn once.
func TestTransportRaisedPaceTakesBothTurns(t *testing.T) {
	checkLeaks(t)
	w := unmappedHosts(t, "User-agent: *\nCrawl-delay: 1\n")
	p := &raisePacer{wait: paceKey("http://b.test:80"), ended: map[uint64]int{}}
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithPacer(p))
	t.Cleanup(func() { _ = c.Close() })
	p.raise = func() {
		for _, h := range []string{"b.test", "xn--ni7c.test"} {
			w.on(h+"/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 2\n"))
			forget(c, "http://"+h+"/")
		}
	}
	if err := getWithin(tr, "http://\uff42.test/page", 5*time.Second); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	if want := []string{"b.test: 1s", "b.test: 2s", "xn--ni7c.test: 2s"}; !slices.Equal(p.taken, want) {
		t.Errorf("turns asked for %q, want %q", p.taken, want)
	}
	p.mu.Unlock()
	if !p.endedOnce() {
		t.Errorf("turns taken %q, ended %v; want each ended once", p.taken, p.ended)
	}
}

// TestTransportPacesHostSpellingOfItsURL: a Request.Host that spells the
// URL's own host in a form net/http sends unmapped (ａ.test, BÜCHER.test)
// goes out as the URL so spelled does, dialled at the URL's host and
// asking for another name: it takes both turns too, never sent within
// the Crawl-delay of the site it dials.
func TestTransportPacesHostSpellingOfItsURL(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	for _, h := range []string{"a.test", "xn--mi7c.test", "xn--bcher-kva.test", "xn--bcher-2pa.test"} {
		w.on(h+"/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 60\n"))
		w.on(h+"/p", serve(200, "page"))
	}
	for _, tc := range []struct{ dialled, host string }{{"a.test", "\uff41.test"}, {"b\u00fccher.test", "B\u00dcCHER.test"}} {
		c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithNoWait())
		hc := &http.Client{Transport: tr}
		if err := getHost(hc, "http://"+tc.dialled+"/p", ""); err != nil {
			t.Fatal(err)
		}
		if err := getHost(hc, "http://"+tc.dialled+"/p", tc.host); !errors.Is(err, ErrPaced) {
			t.Errorf("http://%s/p with Host %q right after http://%s/p: %v, want ErrPaced", tc.dialled, tc.host, tc.dialled, err)
		}
		_ = c.Close()
	}
}

// TestTransportRecheckHoldsNoTurn: a request for a.test:8080 whose Host
// names a.test takes a.test:80's turn, then waits for a.test:8080's.
// Checked again after that wait, it finds a.test:8080's robots.txt
// expired and now redirecting to a.test's: the hop, paced at a.test:80,
// must not wait for the turn the request holds there, which stalled it
// for the fetch timeout and left a.test:8080 with a failure its server
// never had.
func TestTransportRecheckHoldsNoTurn(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var fetches atomic.Int32 // of a.test:8080's robots.txt
	w.on("a.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if r.Host == "a.test:8080" && fetches.Add(1) > 1 {
			http.Redirect(rw, r, "http://a.test/robots.txt", http.StatusMovedPermanently)
			return
		}
		_, _ = io.WriteString(rw, "User-agent: *\nCrawl-delay: 1\n")
	})
	for _, p := range []string{"/p", "/q", "/r"} {
		w.on("a.test"+p, serve(200, "page"))
	}
	c := newTestClient(t, WithMaxFreshness(500*time.Millisecond), WithFetchTimeout(5*time.Second),
		WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	hc := &http.Client{Transport: NewTransport(c, w.transport(t))}
	if err := getHost(hc, "http://a.test/p", ""); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // a.test:80's turn is free
	if err := getHost(hc, "http://a.test:8080/q", ""); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := getHost(hc, "http://a.test:8080/r", "a.test"); err != nil {
		t.Fatal(err)
	}
	// A turn at a.test:8080 after about 1 s, a.test:80's after the hop.
	if took := time.Since(start); took > 3500*time.Millisecond {
		t.Errorf("the request took %v, near the fetch timeout", took)
	}
	if d, err := c.Check(context.Background(), "http://a.test:8080/x"); d.Failures > 0 || d.Stale || err != nil {
		t.Errorf("a.test:8080 after: failures %d, stale %v, %v; want its file read", d.Failures, d.Stale, err)
	}
}

// TestTransportMaxWaitBoundsTheRequest: WithMaxWait bounds a request's
// wait, not each of its turns': one that takes two turns (a name net/http
// sends unmapped), each coming in less than the bound but both not, is
// refused, not sent late.
func TestTransportMaxWaitBoundsTheRequest(t *testing.T) {
	checkLeaks(t)
	w := unmappedHosts(t, "User-agent: *\nAllow: /\n")
	p := &waitOncePacer{asked: map[string]bool{}, wait: func(time.Duration) time.Duration { return 600 * time.Millisecond }}
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithPacer(p), WithMaxWait(time.Second))
	t.Cleanup(func() { _ = c.Close() })
	start := time.Now()
	_, err := get(context.Background(), &http.Client{Transport: tr}, "http://\uff42.test/page")
	if took := time.Since(start); took > time.Second || !errors.Is(err, ErrPaced) {
		t.Errorf("under WithMaxWait(1s), two turns each 0.6 s away: %v after %v; want ErrPaced within the second", err, took)
	}
}

// opaquePacer is the in-process Pacer seen as another, as a Store's is:
// a turn it gave cannot be voided, only ended.
type opaquePacer struct{ Pacer }

// TestTransportTwoTurnsUnderAnyPacer: a request taking two turns, the
// second not free, is sent at that turn, under the in-process Pacer and
// under another, where giving a turn back would hold its site as if a
// request had been sent.
func TestTransportTwoTurnsUnderAnyPacer(t *testing.T) {
	checkLeaks(t)
	w := unmappedHosts(t, "User-agent: *\nCrawl-delay: 1\n")
	for _, p := range []Pacer{newMemPacer(), opaquePacer{newMemPacer()}} {
		c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithPacer(p))
		hc := &http.Client{Transport: tr}
		// The Host's site, xn--ni7c.test, has just had a request.
		if _, err := get(context.Background(), hc, "http://xn--ni7c.test/page"); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 1700*time.Millisecond)
		_, err := get(ctx, hc, "http://\uff42.test/page") // b.test free, xn--ni7c.test in 1 s
		cancel()
		if took := time.Since(start); err != nil || took > 1500*time.Millisecond {
			t.Errorf("%T: %v after %v; want sent at the Host's turn, in about 1 s", p, err, took)
		}
		_ = c.Close()
	}
}

// waitOncePacer is a Pacer that says to wait the first time it is asked
// for each authority, wait(interval) or else 10 ms, and then gives the
// turn.
type waitOncePacer struct {
	wait  func(interval time.Duration) time.Duration
	mu    sync.Mutex
	asked map[string]bool
}

func (p *waitOncePacer) Take(_ context.Context, authority string, interval time.Duration) (uint64, time.Duration, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.asked[authority] {
		p.asked[authority] = true
		if p.wait != nil {
			return 0, p.wait(interval), nil
		}
		return 0, 10 * time.Millisecond, nil
	}
	return 1, 0, nil
}

func (p *waitOncePacer) Done(context.Context, string, uint64, time.Duration, time.Duration) error {
	return nil
}

// TestTransportCountsTwoTurnsOnce: a request that waits for both of its
// turns (a name net/http sends unmapped) counts once in Paced and Held.
func TestTransportCountsTwoTurnsOnce(t *testing.T) {
	checkLeaks(t)
	w := unmappedHosts(t, "User-agent: *\nAllow: /\n")
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithPacer(&waitOncePacer{asked: map[string]bool{}}))
	t.Cleanup(func() { _ = c.Close() })
	if _, err := get(context.Background(), &http.Client{Transport: tr}, "http://\uff42.test/page"); err != nil {
		t.Fatal(err)
	}
	// Each wait (10 ms) is longer than the interval (0): a hold.
	if st := tr.Stats(); st.Sent != 1 || st.Paced != 1 || st.Held != 1 {
		t.Errorf("Stats = %+v, want one request sent, paced and held", st)
	}
}

// TestErrorTextBounded: an error quotes at most 128 bytes of a URL or a
// pattern, however long the file's rule or the request's URL.
func TestErrorTextBounded(t *testing.T) {
	checkLeaks(t)
	long := "/" + strings.Repeat("x", 8000) // near target.MaxPath
	s := newTestSite(t, "User-agent: *\nDisallow: "+long+"\n")
	_, _, hc := newTestTransport(t)
	_, err := get(context.Background(), hc, s.URL+long+"/page")
	var ue *url.Error
	if !errors.Is(err, ErrDisallowed) || !errors.As(err, &ue) {
		t.Fatalf("%v, want ErrDisallowed", err)
	}
	if n := len(ue.Err.Error()); n > 400 {
		t.Errorf("the Transport's error is %d bytes long", n)
	}
	c := newTestClient(t)
	if _, err := c.Check(context.Background(), "http://"+strings.Repeat("h", 3000)+".test/x\x00"); err == nil || len(err.Error()) > 400 {
		t.Errorf("an error of %d bytes for a long bad URL", len(err.Error()))
	}
}

// TestTransportSignedRedirectKeepingHostFolded: the stack the README gives
// (NewClientTransport over botauth.NewTransport), a crawler that dials a
// site's origin by its own name and sets Host to the site's. The origin
// is straße.example (dialled as xn--strae-oqa.example); it redirects to
// "//straẞe.example/steal" (capital sharp s, as an open redirect echoes
// a parameter). net/http keeps Host: victim.test on that hop and dials
// strasse.example, another server, whose robots.txt allows everything.
// strasse.example must get no signature for victim.test, which it could
// replay there (a signature made for one authority never reaches
// another, not through a redirect).
func TestTransportSignedRedirectKeepingHostFolded(t *testing.T) {
	var mu sync.Mutex
	var stolen []string // Signature-Input of what strasse.example got, by Host
	mux := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.URL.Path == "/robots.txt":
				_, _ = w.Write([]byte("User-agent: *\nAllow: /\n"))
			case name == "origin" && r.URL.Path == "/page":
				http.Redirect(w, r, "//stra\u1e9ee.example/steal", http.StatusFound)
			case name == "evil":
				mu.Lock()
				if r.Header.Get("Signature") != "" {
					stolen = append(stolen, r.Host+": "+r.Header.Get("Signature-Input"))
				}
				mu.Unlock()
			}
		}
	}
	addrs := map[string]string{}
	for name, dial := range map[string]string{"origin": "xn--strae-oqa.example:80", "victim": "victim.test:80", "evil": "strasse.example:80"} {
		srv := httptest.NewServer(mux(name))
		t.Cleanup(srv.Close)
		addrs[dial] = srv.Listener.Addr().String()
	}
	var d net.Dialer
	named := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		to, ok := addrs[addr]
		if !ok {
			return nil, &net.OpError{Op: "dial", Net: network, Err: net.UnknownNetworkError("test: no listener for " + addr)}
		}
		return d.DialContext(ctx, network, to)
	}}
	t.Cleanup(named.CloseIdleConnections)
	c, tr := NewClientTransport(botauth.NewTransport(named, testSigner(t)), []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr, Timeout: 10 * time.Second}

	req, _ := http.NewRequest(http.MethodGet, "http://stra\u00dfe.example/page", nil)
	req.Host = "victim.test"
	if resp, err := hc.Do(req); err == nil {
		resp.Body.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range stolen {
		t.Errorf("strasse.example, another server than the origin, got a signed request: Host %s", s)
	}
}

// secondTurnSite serves a.test with a Crawl-delay of 1 s, whose
// robots.txt at a.test:80 answers 503 with a Retry-After of hold once
// held is set, and pages /q, /r and /s, arrived telling when a page came
// (by Host and path).
func secondTurnSite(t *testing.T, hold time.Duration) (w *hosts, held *atomic.Bool, arrived func(string) (time.Time, bool)) {
	w, held = newHosts(t), new(atomic.Bool)
	w.on("a.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if r.Host == "a.test" && held.Load() {
			rw.Header().Set("Retry-After", strconv.Itoa(int(hold/time.Second)))
			rw.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(rw, "User-agent: *\nCrawl-delay: 1\n")
	})
	var mu sync.Mutex
	at := map[string]time.Time{}
	for _, p := range []string{"/q", "/r", "/s"} {
		w.on("a.test"+p, func(rw http.ResponseWriter, r *http.Request) {
			mu.Lock()
			at[r.Host+r.URL.Path] = time.Now()
			mu.Unlock()
			_, _ = io.WriteString(rw, "page")
		})
	}
	return w, held, func(page string) (time.Time, bool) {
		mu.Lock()
		defer mu.Unlock()
		when, ok := at[page]
		return when, ok
	}
}

// TestTransportSecondTurnSeesHold: a request for http://a.test:8080/r
// with Host a.test takes a.test:80's turn, then waits for a.test:8080's.
// While it waits, the Client's own fetch of a.test:80's robots.txt
// answers 503 with a Retry-After, which holds a.test:80 ("as one to the
// Client's robots.txt requests does", Transport doc): the request,
// holding a turn taken before the hold, is not sent to that site before
// the hold ends, whether the hold outlasts the Crawl-delay (4 s) or not
// (1 s, which Take's wait would hide behind the turn in flight).
func TestTransportSecondTurnSeesHold(t *testing.T) {
	checkLeaks(t)
	for _, hold := range []time.Duration{4 * time.Second, time.Second} {
		w, held, arrived := secondTurnSite(t, hold)
		c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
		hc := &http.Client{Transport: NewTransport(c, w.transport(t))}
		// a.test:8080 has just had a request: its next turn is 1 s away.
		if err := getHost(hc, "http://a.test:8080/q", ""); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- getHost(hc, "http://a.test:8080/r", "a.test") }()
		time.Sleep(300 * time.Millisecond) // /r holds a.test:80's turn, waits for a.test:8080's
		held.Store(true)
		forget(c, "http://a.test/")
		if _, err := c.Check(context.Background(), "http://a.test/s"); !errors.Is(err, ErrDeferred) {
			t.Fatalf("a.test:80's robots.txt answering 503: %v, want ErrDeferred", err)
		}
		holdEnd := time.Now().Add(hold)
		if err := <-done; err != nil && !errors.Is(err, ErrPaced) && !errors.Is(err, ErrDeferred) {
			t.Fatal(err)
		}
		if at, sent := arrived("a.test/r"); sent && at.Before(holdEnd) {
			t.Errorf("/r (Host a.test) reached a.test:80 %v before the end of its Retry-After hold (%v, set by its robots.txt's 503)",
				holdEnd.Sub(at).Round(time.Millisecond), hold)
		}
	}
}

// TestTransportSecondTurnSeesHoldWithoutCrawlDelay: with no Crawl-delay,
// a request for http://a.test/r with Host a.test:8080 takes a.test:80's
// turn, no exclusive one, then waits for a.test:8080's, held a second by
// a 503. While it waits, another page of a.test:80 answers 503 with
// Retry-After: 3: the request is not sent to a.test:80 before that hold
// ends. The hold was looked for only after an exclusive first turn, and
// the request went 2.3 s into it.
func TestTransportSecondTurnSeesHoldWithoutCrawlDelay(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("a.test/busy", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Retry-After", map[bool]string{true: "1", false: "3"}[r.Host == "a.test:8080"])
		rw.WriteHeader(http.StatusServiceUnavailable)
	})
	var arrived atomic.Int64
	w.on("a.test/r", func(rw http.ResponseWriter, r *http.Request) {
		arrived.Store(time.Now().UnixNano())
		_, _ = io.WriteString(rw, "page")
	})
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	hc := &http.Client{Transport: NewTransport(c, w.transport(t))}
	if err := getHost(hc, "http://a.test:8080/busy", ""); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- getHost(hc, "http://a.test/r", "a.test:8080") }()
	time.Sleep(300 * time.Millisecond) // /r holds a.test:80's turn, waits for a.test:8080's
	if err := getHost(hc, "http://a.test/busy", ""); err != nil {
		t.Fatal(err)
	}
	holdEnd := time.Now().Add(3 * time.Second)
	if err := <-done; err != nil && !errors.Is(err, ErrPaced) {
		t.Fatal(err)
	}
	if at := arrived.Load(); at != 0 && time.Unix(0, at).Before(holdEnd) {
		t.Errorf("/r reached a.test:80 %v before the end of its Retry-After hold", holdEnd.Sub(time.Unix(0, at)).Round(time.Millisecond))
	}
}

// TestTransportRedirectWithinSecondSiteWaits: under WithNoWait, a page of
// xn--ni7c.test redirects (an http.Client follows) to http://ｂ.test/y,
// which net/http sends to xn--ni7c.test's site (its Host header) while
// dialling b.test: a redirect within the site, which "waits for the
// site's next turn, within its deadline" (WithNoWait). It takes b.test's
// turn, then is refused at xn--ni7c.test's, which the redirect's own
// first request just used: the wait is granted only to the first turn.
func TestTransportRedirectWithinSecondSiteWaits(t *testing.T) {
	checkLeaks(t)
	w := unmappedHosts(t, "User-agent: *\nCrawl-delay: 1\n")
	w.on("xn--ni7c.test/x", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Location", "http://\uff42.test/page")
		rw.WriteHeader(http.StatusFound)
	})
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if _, err := get(ctx, hc, "http://xn--ni7c.test/x"); err != nil {
		t.Errorf("a redirect within xn--ni7c.test to http://\uff42.test/page under WithNoWait: %v; want it to wait for the site's turn", err)
	}
}

// TestTransportSecondTurnNoHoldAtZeroInterval: a first turn that is no
// exclusive one (no Crawl-delay) is not read as held because its site is
// paced by another Transport's interval: the request is sent.
func TestTransportSecondTurnNoHoldAtZeroInterval(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	for _, p := range []string{"/q", "/r", "/s"} {
		w.on("a.test"+p, serve(200, "page"))
	}
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	h0 := &http.Client{Transport: NewTransport(c, w.transport(t))}
	h2 := &http.Client{Transport: NewTransport(c, w.transport(t), WithDefaultInterval(time.Second))}
	if err := getHost(h2, "http://a.test:8080/q", ""); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- getHost(h0, "http://a.test:8080/r", "a.test") }()
	time.Sleep(300 * time.Millisecond)
	if err := getHost(h2, "http://a.test/s", ""); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Errorf("/r, no hold anywhere: %v, want sent", err)
	}
}

// TestTransportTwoTurnPageNotStarvedByItsRecheck (review122): a page
// asked of a.test:8080 by its Host and sent to a.test takes both sites'
// turns; a.test:8080's robots.txt redirects to a.test, and is stale at
// every check (no-cache, WithMinFreshness(0)). Its fetch after each wait
// took a.test's turn, for which the page then waited again: 8 fetches in
// 7 s, and the page was refused at WithMaxWait, never sent.
func TestTransportTwoTurnPageNotStarvedByItsRecheck(t *testing.T) {
	checkLeaks(t)
	var hops atomic.Int64
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt" && r.Host == "a.test:8080":
			http.Redirect(w, r, "http://a.test/robots-8080.txt", http.StatusMovedPermanently)
		case r.URL.Path == "/robots.txt":
			io.WriteString(w, "User-agent: *\nAllow: /\nCrawl-delay: 1\n")
		case r.URL.Path == "/robots-8080.txt":
			hops.Add(1)
			w.Header().Set("Cache-Control", "no-cache")
			io.WriteString(w, "User-agent: *\nAllow: /\nCrawl-delay: 1\n")
		default:
			io.WriteString(w, "page")
		}
	})
	c, tr := NewClientTransport(portTwins(t, h), []Option{WithUserAgent(testUA), WithMinFreshness(0), WithFetchTimeout(5 * time.Second)}, WithMaxWait(8*time.Second))
	defer c.Close()
	start := time.Now()
	resp, err := twoTurnsErr(&http.Client{Transport: tr})
	if err != nil {
		t.Fatalf("never sent: %v after %v, %d fetches of a.test:8080's robots.txt taking a.test's turn meanwhile", err, time.Since(start).Round(time.Millisecond), hops.Load())
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
}

// TestTransportSignedPinnedRedirects: a crawler that pins each site's
// address, in its CheckRedirect too, with botauth's Transport below the
// Transport as the README stacks them: a redirect to another site, to
// another address of the site, and from http to https at one address
// are followed and signed, as they are followed unsigned (botauth83:
// each was refused as a hop keeping the Host before it). The server
// checks each signed request's signature against the Host it got.
func TestTransportSignedPinnedRedirects(t *testing.T) {
	var mu sync.Mutex
	var got []string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = io.WriteString(w, "User-agent: *\nAllow: /\n")
			return
		}
		mu.Lock()
		got = append(got, r.Host+r.URL.Path+" "+strconv.FormatBool(r.Header.Get("Signature-Input") != ""))
		mu.Unlock()
		if r.URL.Path == "/start" {
			w.Header().Set("Location", map[string]string{
				"a.test": "http://b.test/page", "c.test": "http://c.test/next", "u.test": "https://u.test/secure",
			}[r.Host])
			w.WriteHeader(http.StatusFound)
		}
	})
	plain, secure := httptest.NewServer(h), httptest.NewTLSServer(h)
	defer plain.Close()
	defer secure.Close()
	var d net.Dialer
	next := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			to := plain.Listener.Addr().String()
			if strings.HasSuffix(addr, ":443") {
				to = secure.Listener.Addr().String()
			}
			return d.DialContext(ctx, network, to)
		},
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, // the certificate names 127.0.0.1, the crawler pins 10.0.0.1
	}
	defer next.CloseIdleConnections()
	addrs := map[string]string{"a.test": "10.0.0.1", "b.test": "10.0.0.2", "c.test": "10.0.0.3", "u.test": "10.0.0.1"}
	c, tr := NewClientTransport(botauth.NewTransport(next, testSigner(t)), []Option{WithUserAgent(testUA)})
	defer c.Close()
	hc := &http.Client{Transport: tr, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if addr, ok := addrs[req.URL.Host]; ok {
			req.Host, req.URL.Host = req.URL.Host, addr
		}
		return nil
	}}
	for _, host := range []string{"a.test", "c.test", "u.test"} {
		req, _ := http.NewRequest(http.MethodGet, "http://10.0.0.1/start", nil)
		req.Host = host
		resp, err := hc.Do(req)
		if err != nil {
			t.Errorf("%s's redirect, pinned by the crawler's CheckRedirect: %v", host, err)
			continue
		}
		resp.Body.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"a.test/start true", "b.test/page true", "c.test/start true", "c.test/next true", "u.test/start true", "u.test/secure true"}
	if !slices.Equal(got, want) {
		t.Errorf("the servers got %q; want %q (host, path, signed)", got, want)
	}
}

// TestTransportHeaderHostSpeltOtherwiseSigned: a request whose header
// holds a "Host" key naming its URL's host as written, which the
// Transport accepts (net/http drops it), is signed when the URL spells
// the site otherwise than the Host the Transport sends (botauth83: the
// key, left beside the Host rewritten, read as a second Host, and the
// request was refused signed, sent unsigned).
func TestTransportHeaderHostSpeltOtherwiseSigned(t *testing.T) {
	var signed atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" && r.Header.Get("Signature-Input") != "" {
			signed.Add(1)
		}
	}))
	defer srv.Close()
	var d net.Dialer
	next := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, srv.Listener.Addr().String())
	}}
	defer next.CloseIdleConnections()
	c, tr := NewClientTransport(botauth.NewTransport(next, testSigner(t)), []Option{WithUserAgent(testUA)})
	defer c.Close()
	hc := &http.Client{Transport: tr}
	urls := []string{"http://a.test/page", "http://A.TEST/page", "http://a.test:80/page", "http://bücher.test/page"}
	for _, u := range urls {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		req.Header.Set("Host", req.URL.Host)
		resp, err := hc.Do(req)
		if err != nil {
			t.Errorf("%s with a header Host %q: %v", u, req.URL.Host, err)
			continue
		}
		resp.Body.Close()
		if req.Header.Get("Host") != req.URL.Host {
			t.Errorf("%s: the caller's header changed", u)
		}
	}
	if n := signed.Load(); n != int32(len(urls)) {
		t.Errorf("%d of %d requests arrived signed", n, len(urls))
	}
}

// followingBelow is a RoundTripper that sends through an http.Client,
// which follows redirects itself, as go-retryablehttp's RoundTripper
// does.
type followingBelow struct{ c *http.Client }

func (f followingBelow) RoundTrip(req *http.Request) (*http.Response, error) { return f.c.Do(req) }

// firstThen answers the first request with first, every later one with
// then.
func firstThen(first, then http.HandlerFunc) http.HandlerFunc {
	var done atomic.Bool
	return func(rw http.ResponseWriter, r *http.Request) {
		if !done.Swap(true) {
			first(rw, r)
			return
		}
		then(rw, r)
	}
}

// TestTransportRefusesARedirectFollowedBelow: a next that follows a
// redirect itself sends a hop no robots.txt was checked for, to a path
// of the site its robots.txt disallows or to another site: the
// Transport returns an error, not that answer. A Client whose own HTTP
// client follows a robots.txt's redirect below it reads no other page
// as the robots.txt: the site is deferred, not allowed.
func TestTransportRefusesARedirectFollowedBelow(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nDisallow: /private\n"))
	w.on("a.test/same", redirectTo("/private/page"))
	w.on("a.test/cross", redirectTo("http://b.test/land"))
	w.on("a.test/private/page", serve(200, "private"))
	w.on("b.test/robots.txt", serve(200, "User-agent: *\nDisallow: /\n"))
	w.on("b.test/land", serve(200, "land"))
	w.on("c.test/robots.txt", redirectTo("http://b.test/secret"))
	w.on("a.test/loop", firstThen(redirectTo("http://b.test/away"), serve(200, "back"))) // away to b.test and back
	w.on("b.test/away", redirectTo("http://a.test/loop"))
	w.on("b.test/secret", serve(200, "User-agent: *\nAllow: /\n"))
	tr := w.transport(t)
	below := followingBelow{&http.Client{Transport: tr}}
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: tr}), WithUserAgent(testUA))
	hc := &http.Client{Transport: NewTransport(c, below)}
	for _, u := range []string{"http://a.test/same", "http://a.test/cross", "http://a.test/loop"} {
		if _, err := get(context.Background(), hc, u); !errors.Is(err, errFollowedBelow) {
			t.Errorf("%s, followed below: %v; want the Transport to refuse the answer", u, err)
		}
	}
	for name, c := range map[string]*Client{
		"WithHTTPClient":     newTestClient(t, WithHTTPClient(&http.Client{Transport: below}), WithUserAgent(testUA)),
		"NewClientTransport": first(NewClientTransport(below, []Option{WithUserAgent(testUA)})),
	} {
		t.Cleanup(func() { _ = c.Close() })
		if d, err := c.Check(context.Background(), "http://c.test/page"); d.Allowed || !errors.Is(err, ErrDeferred) || !strings.Contains(fmt.Sprint(err), errFollowedBelow.Error()) {
			t.Errorf("%s: c.test's robots.txt followed below to b.test/secret: %+v, %v; want deferred", name, d, err)
		}
	}
	// Under botauth's signer, which clears the Response of the hop it
	// returns; a Location with a token as its user, which no error
	// shows (review153).
	cs, signing := NewClientTransport(botauth.NewTransport(below, testSigner(t)), []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = cs.Close() })
	w.on("a.test/token", redirectTo("http://TOKEN@b.test/land"))
	// To the same target by another scheme, and away and back to the
	// URL asked for, with nothing but the scheme, or the chain, to tell
	// (nested87).
	w.on("a.test/tls", func(rw http.ResponseWriter, r *http.Request) {
		if r.TLS == nil {
			redirectTo("https://a.test/tls")(rw, r)
			return
		}
		serve(200, "tls")(rw, r)
	})
	w.on("a.test/bounce", firstThen(redirectTo("/private/away"), serve(200, "back")))
	w.on("a.test/private/away", redirectTo("/bounce"))
	for _, u := range []string{"http://a.test/same", "http://a.test/tls", "http://a.test/bounce"} {
		if _, err := get(context.Background(), &http.Client{Transport: signing}, u); !errors.Is(err, errFollowedBelow) {
			t.Errorf("%s, followed below botauth's signer: %v; want the Transport to refuse the answer", u, err)
		}
	}
	// A redirect the caller's http.Client follows, each hop checked, over
	// the signer over a pool that sends a copy to the site's address, is
	// no hop followed below (review154).
	w.on("a.test/start", redirectTo("/open"))
	w.on("a.test/open", serve(200, "open"))
	pool := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		c := r.Clone(r.Context())
		c.Host, c.URL.Host = cmp.Or(r.Host, r.URL.Host), w.plain.Listener.Addr().String()
		return tr.RoundTrip(c)
	})
	cq, pooledSigning := NewClientTransport(botauth.NewTransport(pool, testSigner(t)), []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = cq.Close() })
	if body, err := get(context.Background(), &http.Client{Transport: pooledSigning}, "http://a.test/start"); err != nil || body != "open" {
		t.Errorf("a redirect the caller followed, over botauth over a pool: %q, %v; want the page", body, err)
	}
	for _, hc := range []*http.Client{hc, {Transport: signing}} {
		if _, err := get(context.Background(), hc, "http://a.test/token"); err == nil || strings.Contains(fmt.Sprint(err), "TOKEN") {
			t.Errorf("a.test/token, followed below: %v; want the answer refused, naming no credential", err)
		}
	}
	// A Retry-After of the site asked for, met through a redirect below
	// within it, holds it; one of another site's does not.
	w.on("a.test/tobusy", redirectTo("/busy"))
	w.on("a.test/busy", serve(503, "busy", "Retry-After", "600"))
	w.on("a.test/toother", redirectTo("http://d.test/busy"))
	w.on("d.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("d.test/busy", serve(503, "busy", "Retry-After", "600"))
	w.on("e.test/toother", redirectTo("http://d.test/busy"))
	w.on("e.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("e.test/next", serve(200, "next"))
	nowait := &http.Client{Transport: NewTransport(c, below, WithNoWait())}
	for _, tc := range []struct {
		first, next string
		held        bool
	}{{"http://a.test/tobusy", "http://a.test/open", true}, {"http://e.test/toother", "http://e.test/next", false}} {
		w.on("a.test/open", serve(200, "open"))
		_, _ = get(context.Background(), nowait, tc.first)
		var pe *PacedError
		_, err := get(context.Background(), nowait, tc.next)
		if held := errors.As(err, &pe) && time.Until(pe.RetryAt) > 5*time.Minute; held != tc.held {
			t.Errorf("%s after %s, a 503 Retry-After: 600 below: %v; want held %v", tc.next, tc.first, err, tc.held)
		}
	}
	// The Client's own fetch alike: a robots.txt redirected below within
	// its site to a 503 Retry-After holds that site; one redirected to
	// another site holds neither.
	w.on("f.test/robots.txt", redirectTo("/busy"))
	w.on("f.test/busy", serve(503, "busy", "Retry-After", "600"))
	w.on("g.test/robots.txt", redirectTo("http://h.test/busy"))
	w.on("h.test/busy", serve(503, "busy", "Retry-After", "600"))
	cf := newTestClient(t, WithHTTPClient(&http.Client{Transport: below}), WithUserAgent(testUA))
	for _, tc := range []struct {
		site string
		held map[string]bool
	}{{"f.test", map[string]bool{"f.test": true}}, {"g.test", map[string]bool{"g.test": false, "h.test": false}}} {
		if d, err := cf.Check(context.Background(), "http://"+tc.site+"/page"); d.Allowed || !errors.Is(err, ErrDeferred) || !strings.Contains(fmt.Sprint(err), errFollowedBelow.Error()) {
			t.Errorf("%s's robots.txt followed below: %+v, %v; want deferred", tc.site, d, err)
		}
		for host, want := range tc.held {
			if held := cf.pacer().heldNow(paceKey("http://" + host + ":80")); held != want {
				t.Errorf("%s's robots.txt followed below to a 503 Retry-After: 600: %s held %v, want %v", tc.site, host, held, want)
			}
		}
	}
	// A RoundTripper below that sends a copy of each request to another
	// address, its Host kept (a pinned address, one pool for every host),
	// follows no redirect: its answers are read.
	// Its Host spelled with the default port names the same site
	// (fetch87).
	pooled := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		c := r.Clone(r.Context())
		c.Host, c.URL.Host = r.URL.Host, w.plain.Listener.Addr().String()
		return tr.RoundTrip(c)
	})
	ported := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		c := r.Clone(r.Context())
		c.Host = r.URL.Hostname() + ":80"
		return tr.RoundTrip(c)
	})
	for name, below := range map[string]http.RoundTripper{"a pool of one address": pooled, "the default port": ported} {
		c2, rt := NewClientTransport(below, []Option{WithUserAgent(testUA)})
		t.Cleanup(func() { _ = c2.Close() })
		if body, err := get(context.Background(), &http.Client{Transport: rt}, "http://a.test/private/page"); !errors.Is(err, ErrDisallowed) {
			t.Errorf("through %s: a.test/private/page: %q, %v; want ErrDisallowed, a.test's robots.txt read", name, body, err)
		}
		w.on("a.test/open", serve(200, "open"))
		if body, err := get(context.Background(), &http.Client{Transport: rt}, "http://a.test/open"); err != nil || body != "open" {
			t.Errorf("through %s: a.test/open: %q, %v; want its page", name, body, err)
		}
	}
	// One that sends http requests as https, following nothing, asks
	// another site than the one checked: refused, as NewTransport says.
	upgrading := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		c := r.Clone(r.Context())
		c.URL.Scheme = "https"
		return tr.RoundTrip(c)
	})
	cu, ru := NewClientTransport(upgrading, []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = cu.Close() })
	if _, err := get(context.Background(), &http.Client{Transport: ru}, "http://a.test/open"); !strings.Contains(fmt.Sprint(err), errFollowedBelow.Error()) {
		t.Errorf("through a RoundTripper that sends http as https: %v; want the answer refused", err)
	}
	// Followed below a pool, a redirect within the site asked for goes
	// to its address: the site's own Retry-After holds it, for a page
	// and for its robots.txt (fetch87).
	pinnedBelow := followingBelow{&http.Client{Transport: pooled}}
	cp, rp := NewClientTransport(pinnedBelow, []Option{WithUserAgent(testUA)}, WithNoWait())
	t.Cleanup(func() { _ = cp.Close() })
	_, _ = get(context.Background(), &http.Client{Transport: rp}, "http://a.test/tobusy")
	var pe *PacedError
	if _, err := get(context.Background(), &http.Client{Transport: rp}, "http://a.test/open"); !errors.As(err, &pe) || time.Until(pe.RetryAt) < 5*time.Minute {
		t.Errorf("a.test/open after a.test's 503 Retry-After: 600 met below a pool: %v; want held", err)
	}
	if _, err := cp.Check(context.Background(), "http://f.test/page"); err == nil || !cp.pacer().heldNow(paceKey("http://f.test:80")) {
		t.Errorf("f.test's robots.txt followed below a pool to its 503 Retry-After: 600: %v, held %v; want deferred and held", err, cp.pacer().heldNow(paceKey("http://f.test:80")))
	}
}
