package robotstxt

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// hosts is a web of named sites on two loopback servers, one plain and
// one TLS: a request for host h and path p is answered by route(h, p),
// whatever the port, and counted. Its clients dial those servers for
// every name, so that no name reaches the system's resolver.
type hosts struct {
	plain, tls *httptest.Server
	mu         sync.Mutex
	route      map[string]http.HandlerFunc // by host and path: "a.test/robots.txt"
	seen       map[string]int              // requests by scheme, host and path
}

func newHosts(t testing.TB) *hosts {
	t.Helper()
	w := &hosts{route: map[string]http.HandlerFunc{}, seen: map[string]int{}}
	h := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		host, _, _ := strings.Cut(r.Host, ":")
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		w.mu.Lock()
		w.seen[scheme+"://"+host+r.URL.RequestURI()]++
		f := w.route[host+r.URL.Path]
		w.mu.Unlock()
		if f == nil {
			http.NotFound(rw, r)
			return
		}
		f(rw, r)
	})
	w.plain, w.tls = httptest.NewServer(h), httptest.NewTLSServer(h)
	t.Cleanup(w.plain.Close)
	t.Cleanup(w.tls.Close)
	return w
}

// on routes host and path (such as "a.test/robots.txt") to f.
func (w *hosts) on(hostPath string, f http.HandlerFunc) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.route[hostPath] = f
}

// count returns how many requests w saw for url (scheme, host, path and
// query, as "http://a.test/x?y").
func (w *hosts) count(url string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seen[url]
}

// transport returns an http.Transport that dials w's TLS server for port
// 443 and its plain one for any other, trusting its certificate.
func (w *hosts) transport(t testing.TB) *http.Transport {
	var d net.Dialer
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			to := w.plain.Listener.Addr().String()
			if strings.HasSuffix(addr, ":443") {
				to = w.tls.Listener.Addr().String()
			}
			return d.DialContext(ctx, network, to)
		},
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, // the test server's own certificate
	}
	t.Cleanup(tr.CloseIdleConnections)
	return tr
}

// TestHopToAnotherSiteIsChecked: a site whose robots.txt redirects to a
// disallowed URL of another site does not make the Client request it;
// the first site's robots.txt is unreachable, never allow-all.
func TestHopToAnotherSiteIsChecked(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("victim.test/robots.txt", serve(200, "User-agent: *\nDisallow: /private\n"))
	w.on("victim.test/private/delete", serve(200, "deleted"))
	for i := range 5 {
		w.on(fmt.Sprintf("evil%d.test/robots.txt", i), redirectTo(fmt.Sprintf("http://victim.test/private/delete?id=%d", i)))
	}
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	ctx := context.Background()
	for i := range 5 {
		d, err := c.Check(ctx, fmt.Sprintf("http://evil%d.test/page", i))
		if d.Allowed || !errors.Is(err, ErrDeferred) || !strings.Contains(err.Error(), "disallows") {
			t.Errorf("evil%d: %+v, %v; want deferred: the hop is disallowed", i, d, err)
		}
	}
	for i := range 5 {
		if n := w.count(fmt.Sprintf("http://victim.test/private/delete?id=%d", i)); n != 0 {
			t.Errorf("the victim's disallowed URL %d was requested %d times", i, n)
		}
	}
	if n := w.count("http://victim.test/robots.txt"); n != 1 {
		t.Errorf("the victim's robots.txt was fetched %d times, want once", n)
	}
}

// TestHopToRobotsTxtWithAQuery: a hop to another site's robots.txt with a
// query is a URL of that site like any other, which RFC 9309 mode does
// not allow for being robots.txt.
func TestHopToRobotsTxtWithAQuery(t *testing.T) {
	const bait = "http://victim.test/robots.txt?action=purge"
	for _, m := range []Mode{ModeGoogle, ModeRFC9309} {
		w := newHosts(t)
		w.on("a.test/robots.txt", redirectTo(bait))
		w.on("victim.test/robots.txt", serve(200, "User-agent: *\nDisallow: /\n"))
		c := newTestClient(t, WithMode(m), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
		if d, err := c.Check(context.Background(), "http://a.test/x"); d.Allowed || !errors.Is(err, ErrDeferred) {
			t.Errorf("%v: %+v, %v; want deferred: the hop is disallowed", m, d, err)
		}
		if n := w.count(bait); n != 0 {
			t.Errorf("%v: the victim's disallowed URL was requested %d times", m, n)
		}
	}
}

// TestHopToAHostSentUnmapped: a hop to a name net/http dials mapped but
// asks the server for unmapped (ｂ.test: dialled as b.test, asked for as
// xn--ni7c.test) is refused, since the site the server picks by Host was
// neither checked nor paced; a name already in its normal form is not.
func TestHopToAHostSentUnmapped(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("b.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("xn--ni7c.test/robots.txt", serve(200, "User-agent: *\nDisallow: /\n"))
	w.on("xn--bcher-kva.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("xn--bcher-kva.test/file", serve(200, "User-agent: *\nDisallow: /moved\n"))
	w.on("evil.test/robots.txt", redirectTo("http://\uff42.test/private?x=1"))
	w.on("moved.test/robots.txt", redirectTo("http://b\u00fccher.test/file"))
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	ctx := context.Background()
	if d, err := c.Check(ctx, "http://evil.test/page"); d.Allowed || !errors.Is(err, ErrDeferred) {
		t.Errorf("a hop to http://\uff42.test/: %+v, %v; want deferred", d, err)
	}
	if n := w.count("http://xn--ni7c.test/private?x=1"); n != 0 {
		t.Errorf("the hop reached Host xn--ni7c.test %d times", n)
	}
	if d, err := c.Check(ctx, "http://moved.test/moved"); err != nil || d.Allowed || d.Rule.Line != 2 {
		t.Errorf("a hop to http://b\u00fccher.test/file: %+v, %v; want its line 2", d, err)
	}
}

// TestHopIsPaced: hops to another site take their turns in its pacing:
// twenty sites whose robots.txt redirect to an allowed URL of a site
// with Crawl-delay: 60 send it one hop; the others find no turn within
// their fetch and leave their robots.txt unreachable. A page request
// through the Client's Transport then waits for the same turn.
func TestHopIsPaced(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("victim.test/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 60\n"))
	w.on("victim.test/search", serve(200, "results"))
	for i := range 20 {
		w.on(fmt.Sprintf("s%d.test/robots.txt", i), redirectTo(fmt.Sprintf("http://victim.test/search?q=%d", i)))
	}
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA), WithFetchTimeout(300 * time.Millisecond)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() { _, _ = c.Check(context.Background(), fmt.Sprintf("http://s%d.test/", i)) })
	}
	wg.Wait()
	sent := 0
	for i := range 20 {
		sent += w.count(fmt.Sprintf("http://victim.test/search?q=%d", i))
	}
	if sent != 1 {
		t.Errorf("the site with Crawl-delay: 60 received %d hops, want 1", sent)
	}
	// The hops refused took no turns in the queue that tells crawlers
	// when to come back: the first page is told the next turn.
	hc := &http.Client{Transport: tr}
	var pe *PacedError
	if _, err := get(context.Background(), hc, "http://victim.test/search?q=page"); !errors.As(err, &pe) {
		t.Errorf("a page right after the hop: %v, want ErrPaced", err)
	} else if wait := time.Until(pe.RetryAt); wait > 61*time.Second {
		t.Errorf("a page right after the hop is told to retry in %v, want the next turn, within 60 s", wait)
	}
}

// TestHopIntoTheCheckedSiteIsPaced: another site's robots.txt, fetched
// to check a hop of a check's chain, that redirects into the site the
// check is for (or its www. twin) takes that site's turn, as its own
// check's would: such a request was chosen by the other site, and the
// site's Crawl-delay of 60 s holds it back until the fetch's timeout
// refuses the hop. Only the site's own documents go without a turn.
func TestHopIntoTheCheckedSiteIsPaced(t *testing.T) {
	checkLeaks(t)
	for _, tc := range []struct {
		name, page, check string
		receipt           bool
	}{
		// a.test keeps its tdmrep.json at b.test, whose robots.txt
		// redirects to a page of a.test.
		{"a Receipt's tdmrep.json", "a.test", "", true},
		// a.test keeps its robots.txt at b.test, whose robots.txt
		// redirects to a page of www.a.test.
		{"a check's robots.txt", "www.a.test", "http://a.test/", false},
	} {
		w := newHosts(t)
		w.on(tc.page+"/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 60\n", "Cache-Control", "max-age=3600"))
		w.on(tc.page+"/page", serve(200, "page"))
		w.on("a.test"+tdmrepPath, redirectTo("http://b.test/policies/a.json"))
		w.on("b.test/policies/a.json", serve(200, `[{"location":"/","tdm-reservation":0}]`))
		if !tc.receipt {
			w.on("a.test/robots.txt", redirectTo("http://b.test/buckets/a/robots.txt"))
			w.on("b.test/buckets/a/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
		}
		w.on("b.test/robots.txt", redirectTo("http://"+tc.page+"/x"))
		w.on(tc.page+"/x", serve(200, "User-agent: *\nAllow: /\n"))
		c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA), WithTDMRep(), WithFetchTimeout(300 * time.Millisecond)})
		resp, body := fetchPage(t, &http.Client{Transport: tr}, "http://"+tc.page+"/page")
		if tc.receipt {
			_ = tr.Receipt(resp, body)
		} else {
			_, _ = c.Check(context.Background(), tc.check)
		}
		if n := w.count("http://" + tc.page + "/x"); n != 0 {
			t.Errorf("%s: b.test's robots.txt reached %s within its Crawl-delay (%d requests)", tc.name, tc.page, n)
		}
		_ = c.Close()
	}
}

// TestHopTurnEndsWithItsBody: a hop to a page of another site holds that
// site's turn until its body has come, as a page's turn does: a page of
// the site asked for while the body still comes is sent a Crawl-delay
// after it ended, not when its headers came.
func TestHopTurnEndsWithItsBody(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var mu sync.Mutex
	var bodyEnd, pageAt time.Time
	headers := make(chan struct{})
	w.on("b.test/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 0.2\n"))
	w.on("a.test/robots.txt", redirectTo("http://b.test/moved"))
	w.on("b.test/moved", func(rw http.ResponseWriter, r *http.Request) {
		rw.WriteHeader(200)
		rw.(http.Flusher).Flush()
		close(headers)
		for range 4 {
			time.Sleep(50 * time.Millisecond)
			_, _ = io.WriteString(rw, "User-agent: *\n")
			rw.(http.Flusher).Flush()
		}
		mu.Lock()
		bodyEnd = time.Now()
		mu.Unlock()
	})
	w.on("b.test/page", func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		pageAt = time.Now()
		mu.Unlock()
		_, _ = io.WriteString(rw, "page")
	})
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = c.Close() })
	if _, err := c.Check(t.Context(), "http://b.test/"); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		if _, err := c.Check(t.Context(), "http://a.test/"); err != nil {
			t.Error(err)
		}
	})
	<-headers
	if _, err := get(t.Context(), &http.Client{Transport: tr}, "http://b.test/page"); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if gap := pageAt.Sub(bodyEnd); gap < 200*time.Millisecond {
		t.Errorf("the page came %v after the hop's body ended, want its Crawl-delay, 200ms", gap)
	}
}

// TestHopPacedIsNoPageTurn: a page whose robots.txt redirects to a
// busy site fails as deferred, not with that site's PacedError: the
// README's loop would put back a URL the error does not name, and come
// back at another site's turn.
func TestHopPacedIsNoPageTurn(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("other.test/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 60\n"))
	w.on("other.test/page", serve(200, "page"))
	w.on("other.test/robots-of-site.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("site.test/robots.txt", redirectTo("http://other.test/robots-of-site.txt"))
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA), WithFetchTimeout(300 * time.Millisecond)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	if _, err := get(context.Background(), hc, "http://other.test/page"); err != nil {
		t.Fatal(err)
	}
	_, err := get(context.Background(), hc, "http://site.test/page")
	var pe *PacedError
	if errors.As(err, &pe) || errors.Is(err, ErrPaced) || !errors.Is(err, ErrDeferred) {
		t.Errorf("a page whose robots.txt hop is paced: %v; want deferred, and no PacedError", err)
	}
}

// TestHopToAnotherRobotsTxt: sites whose robots.txt redirects to a third
// site's robots.txt take the answer it gave the first of them: one
// request reaches it, however many sites redirect there.
func TestHopToAnotherRobotsTxt(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("victim.test/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 60\nDisallow: /private\n", "Cache-Control", "max-age=600"))
	for i := range 20 {
		w.on(fmt.Sprintf("s%d.test/robots.txt", i), redirectTo("http://victim.test/robots.txt"))
	}
	c, _ := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	for i := range 20 {
		d, err := c.Check(context.Background(), fmt.Sprintf("http://s%d.test/private", i))
		if err != nil || d.Allowed || d.FinalURL != "http://victim.test/robots.txt" || d.Expires.Sub(d.CheckedAt) > 600*time.Second {
			t.Errorf("s%d: %+v, %v; want the victim's rules, for its max-age", i, d, err)
		}
	}
	if n := w.count("http://victim.test/robots.txt"); n != 1 {
		t.Errorf("the site with Crawl-delay: 60 received %d requests for its robots.txt, want 1", n)
	}
	if d, err := c.Check(context.Background(), "http://victim.test/private"); err != nil || d.Allowed || len(d.Redirects()) != 0 {
		t.Errorf("the victim's own Check = %+v, %v; want its rules, kept from the hop", d, err)
	}
}

// redirectedToVictim routes the robots.txt of s0.test to s(n-1).test to
// victim.test's.
func redirectedToVictim(w *hosts, n int) {
	for i := range n {
		w.on(fmt.Sprintf("s%d.test/robots.txt", i), redirectTo("http://victim.test/robots.txt"))
	}
}

// checkAtOnce checks /private on the n sites of redirectedToVictim at
// once, wanting each refused by the victim's answer (err, or its
// Disallow: /private), and then, unless w is nil, the victim's robots.txt
// asked once.
func checkAtOnce(t *testing.T, c *Client, w *hosts, n int, err error) {
	t.Helper()
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if d, got := c.Check(context.Background(), fmt.Sprintf("http://s%d.test/private", i)); d.Allowed || !errors.Is(got, err) {
				t.Errorf("s%d: %+v, %v; want the victim's answer", i, d, got)
			}
		})
	}
	wg.Wait()
	if w == nil {
		return
	}
	if asked := w.count("http://victim.test/robots.txt"); asked != 1 {
		t.Errorf("the victim's robots.txt asked %d times for %d sites checked at once; want once", asked, n)
	}
}

// TestHopsAtOnceAskTheirRobotsTxtOnce: sites checked at once whose
// robots.txt all redirect to one victim's ask it once (pace89): unpaced
// (no Crawl-delay known, no default interval), the hops wait for the
// one asking it and take its answer; paced (by WithDefaultInterval),
// those whose turn comes after that answer take it; a failure of the
// victim's within its back-off likewise.
func TestHopsAtOnceAskTheirRobotsTxtOnce(t *testing.T) {
	slow := func(h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(100 * time.Millisecond)
			h(w, r)
		}
	}
	rules := serve(200, "User-agent: *\nCrawl-delay: 1\nDisallow: /private\n")
	failure := serve(500, "down", "Retry-After", "3600")
	for _, victim := range []struct {
		name     string
		serve    http.HandlerFunc
		interval time.Duration
		err      error
	}{
		{"rules", slow(rules), 0, nil},
		{"failure", slow(failure), 0, ErrDeferred},
		{"rules-paced", rules, 300 * time.Millisecond, nil},
		{"failure-paced", failure, 300 * time.Millisecond, ErrDeferred},
	} {
		t.Run(victim.name, func(t *testing.T) {
			checkLeaks(t)
			w := newHosts(t)
			w.on("victim.test/robots.txt", victim.serve)
			redirectedToVictim(w, 8)
			c, _ := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithDefaultInterval(victim.interval))
			t.Cleanup(func() { _ = c.Close() })
			checkAtOnce(t, c, w, 8, victim.err)
		})
	}
}

// TestHopsWaitBoundedForAStalledRequest: hops waiting for the answer to
// a request another hop has out for the same robots.txt, which the victim
// never answers, ask it themselves once half of their fetch has passed,
// and are answered, and so is the site whose hop met the stalled request,
// taking their answer when its own request times out (review169: all but
// one were deferred, the wait running to their deadline).
func TestHopsWaitBoundedForAStalledRequest(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var first atomic.Bool
	w.on("victim.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if first.CompareAndSwap(false, true) {
			<-r.Context().Done() // stalled
			return
		}
		serve(200, "User-agent: *\nDisallow: /private\n")(rw, r)
	})
	redirectedToVictim(w, 4)
	c := newTestClient(t, WithUserAgent(testUA), WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithFetchTimeout(2*maxAskWait+time.Second))
	checkAtOnce(t, c, nil, 4, nil) // the victim asked again, once half their fetch had passed
}

// TestHopsTakeASlowAnswerPastHalfTheirFetch: hops waiting for a victim
// that answers in over half of their fetch, its header late or its body,
// ask it themselves at half, and when their own request times out take
// the answer the first hop got meanwhile (review168, review170: they were
// deferred); a refusal of their own request (a guard's) stands.
func TestHopsTakeASlowAnswerPastHalfTheirFetch(t *testing.T) {
	timeout := 2*maxAskWait + time.Second
	late := func(d time.Duration, r *http.Request) bool {
		select {
		case <-time.After(d):
			return true
		case <-r.Context().Done():
			return false
		}
	}
	for name, victim := range map[string]http.HandlerFunc{
		"header": func(rw http.ResponseWriter, r *http.Request) {
			if late(timeout*3/4, r) {
				serve(200, "User-agent: *\nDisallow: /private\n")(rw, r)
			}
		},
		"body": func(rw http.ResponseWriter, r *http.Request) {
			_, _ = io.WriteString(rw, "User-agent: *\n")
			rw.(http.Flusher).Flush()
			if late(timeout*3/4, r) {
				_, _ = io.WriteString(rw, "Disallow: /private\n")
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			checkLeaks(t)
			w := newHosts(t)
			w.on("victim.test/robots.txt", victim)
			redirectedToVictim(w, 4)
			c := newTestClient(t, WithUserAgent(testUA), WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithFetchTimeout(timeout))
			checkAtOnce(t, c, nil, 4, nil) // the victim asked again, once half their fetch had passed
		})
	}
	t.Run("refused", func(t *testing.T) {
		checkLeaks(t)
		w := newHosts(t)
		w.on("victim.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
			if late(timeout*3/4, r) {
				serve(200, "User-agent: *\nDisallow: /private\n")(rw, r)
			}
		})
		redirectedToVictim(w, 2)
		base := w.transport(t)
		var victims atomic.Int32
		rt := roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if req.URL.Hostname() == "victim.test" && victims.Add(1) == 2 {
				// A slow resolver, then a private address the guard
				// refuses, after the first hop's answer was kept.
				if !late(timeout*7/20, req) {
					return nil, req.Context().Err()
				}
				return nil, &net.OpError{Op: "dial", Net: "tcp", Err: fmt.Errorf("%w: 10.0.0.7", ErrNonPublic)}
			}
			return base.RoundTrip(req)
		})
		c := newTestClient(t, WithUserAgent(testUA), WithHTTPClient(&http.Client{Transport: rt}), WithFetchTimeout(timeout))
		var wg sync.WaitGroup
		wg.Go(func() { _, _ = c.Check(context.Background(), "http://s0.test/public") })
		for victims.Load() < 1 {
			time.Sleep(time.Millisecond)
		}
		if d, err := c.Check(context.Background(), "http://s1.test/public"); victims.Load() == 2 && !errors.Is(err, ErrNonPublic) {
			t.Errorf("s1, whose hop the guard refused: %+v, %v; want deferred with ErrNonPublic", d, err)
		}
		wg.Wait()
	})
}

// TestHopsUnparsableLocationStands: a hop's own request answered by a
// redirect whose Location net/url cannot parse is a refusal (errRedirects,
// see fetch.go), which stands beside an answer another hop kept meanwhile,
// also through a RoundTripper that reports no first byte (a cache, a
// stub): review171 #3, the error was wrapped only after tookMeanwhile
// looked at it, and the kept answer replaced it.
func TestHopsUnparsableLocationStands(t *testing.T) {
	checkLeaks(t)
	timeout := 2*maxAskWait + time.Second
	var victims atomic.Int32
	kept := make(chan struct{})
	rt := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		resp := func(status int, body string, h http.Header) *http.Response {
			return &http.Response{StatusCode: status, Status: http.StatusText(status), Header: h, Body: io.NopCloser(strings.NewReader(body)),
				Request: req, ProtoMajor: 1, ProtoMinor: 1}
		}
		switch req.URL.Hostname() {
		case "victim.test":
			if victims.Add(1) == 1 {
				time.Sleep(timeout * 3 / 4) // slow: the second hop asks at half its fetch
				defer func() { go func() { time.Sleep(50 * time.Millisecond); close(kept) }() }()
				return resp(200, "User-agent: *\nDisallow: /private\n", http.Header{}), nil
			}
			<-kept // answered after the first hop's answer was kept
			return resp(302, "", http.Header{"Location": {"http://[::1%zz]/robots.txt"}}), nil
		default:
			return resp(302, "", http.Header{"Location": {"http://victim.test/robots.txt"}}), nil
		}
	})
	c := newTestClient(t, WithUserAgent(testUA), WithHTTPClient(&http.Client{Transport: rt}), WithFetchTimeout(timeout))
	var wg sync.WaitGroup
	wg.Go(func() { _, _ = c.Check(context.Background(), "http://s0.test/public") })
	for victims.Load() < 1 {
		time.Sleep(time.Millisecond)
	}
	d, err := c.Check(context.Background(), "http://s1.test/public")
	wg.Wait()
	if victims.Load() != 2 {
		t.Fatalf("victim asked %d times; the test needs 2", victims.Load())
	}
	if !errors.Is(err, errRedirects) {
		t.Errorf("s1, whose own hop met a Location that cannot be parsed: %+v, %v; want unreachable with errRedirects", d, err)
	}
}

// TestHopsPacedPastMaxAskWait: hops whose turn at the victim comes past
// maxAskWait (a page of it just sent, at a 3 s interval) stop waiting
// for the first hop's answer, and queue for turns of their own; when a
// turn comes they take that answer, kept meanwhile, and send nothing
// (review167 #2: each asked, and the last was deferred past its fetch's
// deadline).
func TestHopsPacedPastMaxAskWait(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("victim.test/robots.txt", serve(200, "User-agent: *\nDisallow: /private\n"))
	w.on("victim.test/page", serve(200, "a page"))
	redirectedToVictim(w, 4)
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithDefaultInterval(3*time.Second))
	t.Cleanup(func() { _ = c.Close() })
	// A page of the victim's site, by https: its turn paces the site.
	if _, err := get(context.Background(), &http.Client{Transport: tr}, "https://victim.test/page"); err != nil {
		t.Fatal(err)
	}
	checkAtOnce(t, c, w, 4, nil)
}

// TestHopsWaitForASlowAnswer: hops to a robots.txt whose server takes
// longer than maxAskWait to answer the fetch asking for it wait on, its
// request being out, within half of what their fetch has left, and take
// that answer (review167 #5: each gave up at maxAskWait and asked too,
// answered later than the first and asking the victim as often as with
// no wait).
func TestHopsWaitForASlowAnswer(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("victim.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		time.Sleep(maxAskWait + 500*time.Millisecond)
		serve(200, "User-agent: *\nDisallow: /private\n")(rw, r)
	})
	redirectedToVictim(w, 6)
	c := newTestClient(t, WithUserAgent(testUA), WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithFetchTimeout(10*time.Second))
	checkAtOnce(t, c, w, 6, nil)
}

// TestHopsOfOneCheckWaitNotForEachOther: a check whose redirects come
// back to a robots.txt it asked for itself (v.test's, through w.test's)
// does not wait for its own fetch's answer, which comes only once it
// ends: each visit stalled it for maxAskWait.
func TestHopsOfOneCheckWaitNotForEachOther(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("s.test/robots.txt", redirectTo("http://v.test/robots.txt"))
	w.on("v.test/robots.txt", redirectTo("http://w.test/robots.txt"))
	w.on("w.test/robots.txt", redirectTo("http://v.test/robots.txt"))
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	start := time.Now()
	d, err := c.Check(context.Background(), "http://s.test/x")
	if took := time.Since(start); took >= maxAskWait {
		t.Errorf("a check whose redirects loop between two robots.txt took %v: it waited for itself", took)
	}
	if n := w.count("http://v.test/robots.txt"); n < 2 {
		t.Errorf("v.test's robots.txt asked %d times in the loop (%+v, %v)", n, d, err)
	}
}

// TestHopsWaitOnceForEachFile: a check whose chain passes twice through
// a robots.txt another check's hop is asking for, its request out and
// unanswered, waits for that answer the first time only: the second time
// it asks itself at once (a cycle of two robots.txt would otherwise wait
// at every pass). The victim's third request answers it, and only that
// lets the first hop's stalled request go: a second wait would take the
// first hop's answer once it came, a second later.
func TestHopsWaitOnceForEachFile(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	release := make(chan struct{})
	var releaseOnce sync.Once
	let := func() { releaseOnce.Do(func() { close(release) }) }
	t.Cleanup(let)
	var asked atomic.Int32
	w.on("victim.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		switch asked.Add(1) {
		case 1: // the first hop's, out until let go
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
			serve(200, "User-agent: *\nDisallow: /\n")(rw, r)
		case 2: // the chain's first pass, once it waited
			redirectTo("http://w.test/robots.txt")(rw, r)
		default: // its second
			let()
			serve(200, "User-agent: *\nDisallow: /private\n")(rw, r)
		}
	})
	w.on("w.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		time.AfterFunc(500*time.Millisecond, let) // a second wait's end
		redirectTo("http://victim.test/robots.txt")(rw, r)
	})
	w.on("s.test/robots.txt", redirectTo("http://victim.test/robots.txt"))
	w.on("a.test/robots.txt", redirectTo("http://victim.test/robots.txt"))
	c := newTestClient(t, WithUserAgent(testUA), WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithFetchTimeout(2*maxAskWait+time.Second))
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() {
		if d, err := c.Check(context.Background(), "http://s.test/x"); d.Allowed || err != nil {
			t.Errorf("s.test: %+v, %v; want the victim's first answer, Disallow: /", d, err)
		}
	})
	for asked.Load() < 1 {
		time.Sleep(time.Millisecond)
	}
	if d, err := c.Check(context.Background(), "http://a.test/public"); !d.Allowed || err != nil {
		t.Errorf("a.test: %+v, %v; want the victim's third answer, Disallow: /private: the chain waited again", d, err)
	}
	if n := asked.Load(); n != 3 {
		t.Errorf("the victim asked %d times; want 3", n)
	}
}

// TestHopToARobotsTxtThatIsAnothers: a site whose robots.txt is another
// site's (a shop's, on its CDN) keeps the answer a hop to it met as its
// own, with its redirect, as its own fetch follows the same chain: each
// site redirected to it after the first sent it a request, unpaced, and
// only the CDN kept its answer (hops85). A failure of the CDN is held
// for both, the shop asked once by the sites redirected there within its
// back-off (its own check asks it: no chain leaves a failure on a site's
// entry), also when the CDN's failure was known before (fleet85: each
// chain stopped at it, and kept nothing for the shop).
func TestHopToARobotsTxtThatIsAnothers(t *testing.T) {
	checkLeaks(t)
	for _, tc := range []struct{ down, known bool }{{false, false}, {true, false}, {true, true}} {
		down := tc.down
		cdn := serve(200, "User-agent: *\nDisallow: /cart\nCrawl-delay: 5\n", "Cache-Control", "max-age=3600")
		if down {
			cdn = serve(503, "busy", "Retry-After", "600")
		}
		w := newHosts(t)
		w.on("shop.test/robots.txt", redirectTo("http://cdn.test/robots.txt"))
		w.on("cdn.test/robots.txt", cdn)
		for i := range 10 {
			w.on(fmt.Sprintf("s%d.test/robots.txt", i), redirectTo("http://shop.test/robots.txt"))
		}
		c, _ := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)})
		t.Cleanup(func() { _ = c.Close() })
		if tc.known {
			if d, _ := c.Check(context.Background(), "http://cdn.test/cart"); !d.Deferred {
				t.Fatalf("the CDN's own check: %+v; want deferred", d)
			}
		}
		for i := range 10 {
			if d, _ := c.Check(context.Background(), fmt.Sprintf("http://s%d.test/cart", i)); d.Allowed {
				t.Fatalf("s%d.test: %+v; want its rules, or deferred", i, d)
			}
		}
		if n, m := w.count("http://shop.test/robots.txt"), w.count("http://cdn.test/robots.txt"); n != 1 || m != 1 {
			t.Errorf("the shop's robots.txt asked %d times, the CDN's %d, by 10 sites redirected there; want 1 each", n, m)
		}
		if down {
			continue
		}
		d, _ := c.Check(context.Background(), "http://shop.test/cart")
		if d.Allowed || len(d.Redirects()) != 1 || w.count("http://shop.test/robots.txt") != 1 {
			t.Errorf("the shop's own check: %+v, the shop asked %d times; want the answer a hop kept, its one redirect",
				d, w.count("http://shop.test/robots.txt"))
		}
	}
}

// TestHopToARobotsTxtThatMovesWithinItsSite: when the other site's
// robots.txt redirects within its site (to https, to its www twin), as
// its own fetch follows, the answer is kept as that site's own, with
// those redirects, and the sites redirected there after the first send
// it nothing.
func TestHopToARobotsTxtThatMovesWithinItsSite(t *testing.T) {
	for _, final := range []string{"https://victim.test/robots.txt", "http://www.victim.test/robots.txt"} {
		t.Run(final, func(t *testing.T) {
			checkLeaks(t)
			w := newHosts(t)
			rules := serve(200, "User-agent: *\nCrawl-delay: 60\nDisallow: /private\n", "Cache-Control", "max-age=600")
			w.on("victim.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
				if r.TLS != nil {
					rules(rw, r)
					return
				}
				http.Redirect(rw, r, final, http.StatusMovedPermanently)
			})
			w.on("www.victim.test/robots.txt", rules)
			for i := range 5 {
				w.on(fmt.Sprintf("s%d.test/robots.txt", i), redirectTo("http://victim.test/robots.txt"))
			}
			c, _ := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithNoWait())
			t.Cleanup(func() { _ = c.Close() })
			ctx := context.Background()
			for i := range 5 {
				if d, err := c.Check(ctx, fmt.Sprintf("http://s%d.test/private", i)); err != nil || d.Allowed || d.FinalURL != final {
					t.Errorf("s%d: %+v, %v; want the victim's rules", i, d, err)
				}
			}
			if n, m := w.count("http://victim.test/robots.txt"), w.count(final); n != 1 || m != 1 {
				t.Errorf("the victim received %d requests for http://victim.test/robots.txt and %d for %s, want 1 each", n, m, final)
			}
			d, err := c.Check(ctx, "http://victim.test/private")
			if rs := d.Redirects(); err != nil || d.Allowed || len(rs) != 1 || rs[0].URL != final || rs[0].Checked || w.count("http://victim.test/robots.txt") != 1 {
				t.Errorf("the victim's own Check = %+v, %v; want its rules after its redirect, kept from the hop", d, err)
			}
		})
	}
}

// TestHopWithinTheirSite: a robots.txt redirected to another site's,
// which moves within its site to a path its own rules disallow, gets
// that site's answer whether or not the site is cached: its own fetch
// checks no hop within its site, and neither does the part of this one
// that is its fetch.
func TestHopWithinTheirSite(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("victim.test/robots.txt", redirectTo("/static/robots.txt"))
	w.on("victim.test/static/robots.txt", serve(200, "User-agent: *\nDisallow: /static/\nDisallow: /private\n"))
	w.on("s0.test/robots.txt", redirectTo("http://victim.test/robots.txt"))
	ctx := context.Background()
	var answers []string
	for _, warm := range []bool{false, true} {
		c := NewClient(WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithUserAgent(testUA))
		t.Cleanup(func() { _ = c.Close() })
		if warm {
			_, _ = c.Check(ctx, "http://victim.test/page")
		}
		d, err := c.Check(ctx, "http://s0.test/private")
		answers = append(answers, fmt.Sprint(d.Allowed, d.Outcome, err, d.Redirects()))
		if err != nil || d.Allowed || d.FinalURL != "http://victim.test/static/robots.txt" {
			t.Errorf("victim.test cached %v: %+v, %v; want its rules", warm, d, err)
		}
	}
	if answers[0] != answers[1] {
		t.Errorf("the answer depends on what was cached:\n%s\n%s", answers[0], answers[1])
	}
}

// TestHopBackToItsOwnSite: a robots.txt redirected to another site's,
// which redirects back into the check's own site, is followed there
// unchecked, as a hop within its site is.
func TestHopBackToItsOwnSite(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("s0.test/robots.txt", redirectTo("http://victim.test/robots.txt"))
	w.on("victim.test/robots.txt", redirectTo("http://s0.test/real-robots.txt"))
	w.on("s0.test/real-robots.txt", serve(200, "User-agent: *\nDisallow: /private\n"))
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithUserAgent(testUA))
	if d, err := c.Check(context.Background(), "http://s0.test/private"); err != nil || d.Allowed || d.Outcome != OutcomeRules {
		t.Errorf("a hop back to the check's own site: %+v, %v; want its rules", d, err)
	}
}

// TestHopKeepsTheirRedirectsMarks: a site's entry kept from a hop lists
// its redirects as its own fetch does: unmarked within its site, marked
// where its own fetch checks a hop too.
func TestHopKeepsTheirRedirectsMarks(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("cdn.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("cdn.test/victim.txt", serve(200, "User-agent: *\nDisallow: /private\n", "Cache-Control", "max-age=600"))
	w.on("victim.test/robots.txt", redirectTo("http://www.victim.test/robots.txt"))
	w.on("www.victim.test/robots.txt", redirectTo("http://cdn.test/victim.txt"))
	w.on("s0.test/robots.txt", redirectTo("http://victim.test/robots.txt"))
	ctx := context.Background()
	newClient := func() *Client {
		c := NewClient(WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithUserAgent(testUA))
		t.Cleanup(func() { _ = c.Close() })
		return c
	}
	own, err := newClient().Check(ctx, "http://victim.test/private")
	if err != nil {
		t.Fatal(err)
	}
	c := newClient()
	_, _ = c.Check(ctx, "http://www.victim.test/private") // its entry, taken by the hop
	_, _ = c.Check(ctx, "http://s0.test/private")
	n := w.count("http://victim.test/robots.txt")
	kept, err := c.Check(ctx, "http://victim.test/private")
	if err != nil || w.count("http://victim.test/robots.txt") != n || !slices.Equal(kept.Redirects(), own.Redirects()) {
		t.Errorf("victim.test kept from s0.test's hop lists %+v (%v); its own fetch lists %+v", kept.Redirects(), err, own.Redirects())
	}
}

// TestHopNamesTheServerAsItsOwnFetch: a hop to another site's robots.txt
// names the server in TLS as that site's own fetch does, however the
// Location spells it: a server choosing its backend by exact name (here
// victim.test's, a 404 for any other) answered a hop to VICTIM.TEST with
// a 404, kept as victim.test's own: /private allowed.
func TestHopNamesTheServerAsItsOwnFetch(t *testing.T) {
	checkLeaks(t)
	for _, loc := range []string{"https://VICTIM.TEST/robots.txt", "https://Victim.Test:443/robots.txt", "https://VICTIM.TEST./robots.txt"} {
		w := newHosts(t)
		var mu sync.Mutex
		var names []string
		w.on("victim.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
			mu.Lock()
			names = append(names, r.TLS.ServerName)
			mu.Unlock()
			if r.TLS.ServerName != "victim.test" {
				http.NotFound(rw, r) // the default backend
				return
			}
			_, _ = io.WriteString(rw, "User-agent: *\nDisallow: /private\n")
		})
		w.on("evil.test/robots.txt", redirectTo(loc))
		c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
		_, _ = c.Check(context.Background(), "http://evil.test/")
		d, err := c.Check(context.Background(), "https://victim.test/private")
		mu.Lock()
		if err != nil || d.Allowed || !slices.Equal(names, []string{"victim.test"}) {
			t.Errorf("victim.test after evil.test's hop to %s: %+v, %v; TLS named it %q; want its rules, named victim.test once", loc, d, err, names)
		}
		mu.Unlock()
	}
}

// TestHopKeepsTheirsAsTheirFetchWould: the answer to a hop is kept as the
// other site's own, however the hop spells it (it is asked for with the
// Host that site's own fetch sends); a 304 to the hop renews it; and an
// error policy's allow-all, which no server gave, is not taken, nor its
// site asked again within its back-off: the error policy reads the
// failure for the site redirected there, as the hop's own.
func TestHopKeepsTheirsAsTheirFetchWould(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	t.Run("another spelling", func(t *testing.T) {
		w := newHosts(t)
		w.on("victim.test/robots.txt", serve(200, "User-agent: *\nDisallow: /private\n"))
		w.on("evil.test/robots.txt", redirectTo("http://VICTIM.TEST.:80/robots.txt"))
		c := NewClient(WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithUserAgent(testUA))
		t.Cleanup(func() { _ = c.Close() })
		_, _ = c.Check(ctx, "http://evil.test/")
		if d, err := c.Check(ctx, "http://victim.test/private"); err != nil || d.Allowed || w.count("http://victim.test/robots.txt") != 1 {
			t.Errorf("victim.test after evil.test's hop to VICTIM.TEST.:80: %+v, %v, asked %d times; want its rules, asked once",
				d, err, w.count("http://victim.test/robots.txt"))
		}
	})
	t.Run("304", func(t *testing.T) {
		w := newHosts(t)
		w.on("victim.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
			rw.Header().Set("ETag", `"v1"`)
			rw.Header().Set("Cache-Control", "max-age=600")
			if r.Header.Get("If-None-Match") == `"v1"` {
				rw.WriteHeader(http.StatusNotModified)
				return
			}
			_, _ = io.WriteString(rw, "User-agent: *\nDisallow: /private\n")
		})
		for i := range 5 {
			w.on(fmt.Sprintf("s%d.test/robots.txt", i), redirectTo("http://victim.test/robots.txt"))
		}
		clock := newTestClock()
		c := NewClient(WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithUserAgent(testUA), WithClock(clock.Now))
		t.Cleanup(func() { _ = c.Close() })
		for round := range 2 {
			for i := range 5 {
				if d, err := c.Check(ctx, fmt.Sprintf("http://s%d.test/private", i)); err != nil || d.Allowed {
					t.Errorf("round %d, s%d: %+v, %v", round, i, d, err)
				}
			}
			clock.Advance(time.Hour)
		}
		if n := w.count("http://victim.test/robots.txt"); n != 2 {
			t.Errorf("the victim received %d requests for its robots.txt over two expiries, want 2", n)
		}
	})
	t.Run("error policy", func(t *testing.T) {
		w := newHosts(t)
		var dropped atomic.Bool
		w.on("v.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
			if !dropped.Swap(true) {
				conn, _, _ := rw.(http.Hijacker).Hijack()
				_ = conn.Close()
				return
			}
			_, _ = io.WriteString(rw, "User-agent: *\nDisallow: /\n")
		})
		w.on("a.test/robots.txt", redirectTo("http://v.test/robots.txt"))
		c := NewClient(WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithUserAgent(testUA),
			WithErrorPolicy(func(error) Outcome { return OutcomeAllowAll }))
		t.Cleanup(func() { _ = c.Close() })
		if d, _ := c.Check(ctx, "http://v.test/x"); d.Outcome != OutcomeAllowAll || d.Status != 0 {
			t.Fatalf("v.test, its connection dropped: %+v; want the error policy's allow-all", d)
		}
		// Not taken, nor asked again within its back-off: a.test's
		// robots.txt fails as the hop would have, with no response, which
		// the error policy reads as it would have (a.test checked first,
		// the hop is sent and fails so).
		if d, err := c.Check(ctx, "http://a.test/x"); err != nil || d.Outcome != OutcomeAllowAll || w.count("http://v.test/robots.txt") != 1 {
			t.Errorf("a.test, redirected to v.test: %+v, %v, v.test asked %d times; want the error policy's allow-all, v.test asked once",
				d, err, w.count("http://v.test/robots.txt"))
		}
	})
}

// TestHopRobotsTxtCycle: two sites whose robots.txt redirect to each
// other's, checked at once, end as a loop (allow all) at once: a hop
// takes another site's entry only when it is held, never waiting for
// that site's fill, which may be waiting for this one's.
func TestHopRobotsTxtCycle(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var arrived sync.WaitGroup
	arrived.Add(2)
	both := make(chan struct{})
	go func() { arrived.Wait(); close(both) }()
	var once [2]sync.Once
	for i, pair := range [2][2]string{{"a.test", "b.test"}, {"b.test", "a.test"}} {
		w.on(pair[0]+"/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
			once[i].Do(arrived.Done)
			select { // both fills under way before either redirects
			case <-both:
			case <-time.After(5 * time.Second):
			}
			http.Redirect(rw, r, "http://"+pair[1]+"/robots.txt", http.StatusFound)
		})
	}
	c := NewClient(WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithUserAgent(testUA), WithFetchTimeout(time.Minute))
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for _, site := range []string{"a.test", "b.test"} {
		wg.Go(func() {
			if d, err := c.Check(ctx, "http://"+site+"/x"); err != nil || d.Outcome != OutcomeAllowAll {
				t.Errorf("%s: %+v, %v; want allow all, a loop", site, d, err)
			}
		})
	}
	wg.Wait()
}

// TestHopTakesOnlyACurrentAnswer: a robots.txt redirected to another
// site's takes that site's entry only while it is fresh and from a server
// that answered: a stale stand-in or an outage's allow-all is no answer
// of its, and the site still backing off is not asked again (the
// robots.txt redirected there is unreachable too); an expired entry is
// none, and the hop is sent.
func TestHopTakesOnlyACurrentAnswer(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		opts []Option
		down bool // the other site is down when the hop comes
	}{
		{"stand-in", nil, true},
		{"outage allow-all", []Option{WithStaleWindow(0), WithUnreachableAllowAfter(time.Hour)}, true},
		{"expired", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newHosts(t)
			var down atomic.Bool
			w.on("b.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
				if down.Load() {
					rw.WriteHeader(http.StatusServiceUnavailable)
					return
				}
				rw.Header().Set("Cache-Control", "max-age=600")
				_, _ = io.WriteString(rw, "User-agent: *\nDisallow: /private\n")
			})
			w.on("a.test/robots.txt", redirectTo("http://b.test/robots.txt"))
			clock := newTestClock()
			c := NewClient(append([]Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithUserAgent(testUA), WithClock(clock.Now)}, tc.opts...)...)
			t.Cleanup(func() { _ = c.Close() })
			down.Store(tc.name == "outage allow-all")
			_, _ = c.Check(ctx, "http://b.test/")
			clock.Advance(2 * time.Hour)
			down.Store(tc.down)
			if tc.down {
				_, _ = c.Check(ctx, "http://b.test/") // its stand-in, or its outage's allow-all
			}
			before := w.count("http://b.test/robots.txt")
			d, err := c.Check(ctx, "http://a.test/private")
			// Down, b is not asked again within its back-off.
			if sent := w.count("http://b.test/robots.txt") - before; sent != 1 && !tc.down || sent != 0 && tc.down {
				t.Errorf("the hop was sent %d times", sent)
			}
			if tc.down && !d.Deferred || !tc.down && (err != nil || d.Allowed || d.Stale) {
				t.Errorf("a: %+v, %v", d, err)
			}
		})
	}
}

// TestHopRetryAfterHolds: a hop answered 429 with a Retry-After holds the
// site it reached, as the same answer to a page does.
func TestHopRetryAfterHolds(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("evil.test/robots.txt", redirectTo("http://victim.test/busy"))
	w.on("victim.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("victim.test/busy", serve(429, "slow down", "Retry-After", "600"))
	w.on("victim.test/page", serve(200, "page"))
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	_, _ = c.Check(context.Background(), "http://evil.test/x")
	if n := w.count("http://victim.test/busy"); n != 1 {
		t.Fatalf("the hop was sent %d times, want 1", n)
	}
	hc := &http.Client{Transport: tr}
	if _, err := get(context.Background(), hc, "http://victim.test/page"); !errors.Is(err, ErrPaced) {
		t.Errorf("a page right after the hop's Retry-After: 600: %v, want ErrPaced", err)
	}
}

// TestRobotsRetryAfterHolds: a site's own robots.txt answered 503 with a
// Retry-After holds its pages, though the last good copy stands in and
// allows them; so does its www twin's, where robots.txt redirects.
func TestRobotsRetryAfterHolds(t *testing.T) {
	for _, twin := range []bool{false, true} {
		t.Run(fmt.Sprintf("twin=%v", twin), func(t *testing.T) {
			checkLeaks(t)
			w := newHosts(t)
			var down atomic.Bool
			robots := func(rw http.ResponseWriter, r *http.Request) {
				if down.Load() {
					serve(503, "maintenance", "Retry-After", "600")(rw, r)
					return
				}
				serve(200, "User-agent: *\nAllow: /\n", "Cache-Control", "max-age=60")(rw, r)
			}
			if twin {
				w.on("a.test/robots.txt", redirectTo("http://www.a.test/robots.txt"))
				w.on("www.a.test/robots.txt", robots)
			} else {
				w.on("a.test/robots.txt", robots)
			}
			w.on("a.test/page", serve(200, "page"))
			clock := newTestClock()
			c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA), WithClock(clock.Now)}, WithNoWait())
			t.Cleanup(func() { _ = c.Close() })
			hc := &http.Client{Transport: tr}
			if _, err := get(context.Background(), hc, "http://a.test/page"); err != nil {
				t.Fatal(err)
			}
			down.Store(true)
			clock.Advance(2 * time.Minute)
			if d, err := c.Check(context.Background(), "http://a.test/page"); err != nil || !d.Allowed || !d.Stale {
				t.Fatalf("robots.txt down: %+v, %v; want the last good copy standing in", d, err)
			}
			if _, err := get(context.Background(), hc, "http://a.test/page"); !errors.Is(err, ErrPaced) {
				t.Errorf("a page right after robots.txt's Retry-After: 600: %v, want ErrPaced", err)
			}
		})
	}
}

// intervalPacer is a Pacer that frees every turn and records the
// intervals asked for at one authority.
type intervalPacer struct {
	at string
	mu sync.Mutex
	iv []time.Duration
}

func (p *intervalPacer) Take(_ context.Context, authority string, interval time.Duration) (uint64, time.Duration, error) {
	if authority == p.at {
		p.mu.Lock()
		p.iv = append(p.iv, interval)
		p.mu.Unlock()
	}
	return 0, 0, nil
}

func (p *intervalPacer) Done(context.Context, string, uint64, time.Duration, time.Duration) error {
	return nil
}

// TestHopPacedWhenEvicted: a hop is paced by the crawl-delay of the check
// that admitted it, though the cache evicts that site's entry before the
// hop is sent.
func TestHopPacedWhenEvicted(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", redirectTo("http://b.test/page"))
	w.on("b.test/robots.txt", serve(200, "User-agent: *\nAllow: /\nCrawl-delay: 10\n"))
	w.on("b.test/page", serve(200, "User-agent: *\nAllow: /\n"))
	for i := range 50 {
		w.on(fmt.Sprintf("c%d.test/robots.txt", i), serve(200, "User-agent: *\nAllow: /\n"))
	}
	p := &intervalPacer{at: paceKey("http://b.test:80")}
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithCacheSize(1))
	NewTransport(c, http.DefaultTransport, WithPacer(p)) // the hops' pacer
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				_, _ = c.Check(ctx, fmt.Sprintf("http://c%d.test/", (g*25+i)%50))
			}
		})
	}
	for ctx.Err() == nil {
		_, _ = c.Check(ctx, "http://a.test/a")
	}
	wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	// b.test's turns: one for each fetch of its robots.txt, at the
	// default interval, and one for each hop, at its Crawl-delay.
	paced := 0
	for _, iv := range p.iv {
		if iv == 10*time.Second {
			paced++
		}
	}
	if hops := w.count("http://b.test/page"); paced < hops || hops == 0 {
		t.Errorf("%d hops to b.test, %d paced at its Crawl-delay", hops, paced)
	}
}

// TestHopKeepsThePaceOfAnEvictedSite: a redirect of another site's
// robots.txt to the robots.txt of a site whose entry the cache dropped
// keeps that site's pace, its Crawl-delay since the last page sent, and
// waits while a page is in flight; the interval of a site the Transport
// no longer knows was the default, 0, and the request went at once.
func TestHopKeepsThePaceOfAnEvictedSite(t *testing.T) {
	checkLeaks(t)
	for _, inFlight := range []bool{false, true} {
		w := newHosts(t)
		w.on("a.test/robots.txt", redirectTo("http://b.test/robots.txt"))
		w.on("b.test/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 60\n"))
		w.on("c.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
		entered, release := make(chan struct{}), make(chan struct{})
		w.on("b.test/page", func(rw http.ResponseWriter, r *http.Request) {
			if inFlight {
				close(entered)
				<-release
			}
			serve(200, "page")(rw, r)
		})
		c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA), WithCacheSize(1)}, WithNoWait())
		hc := &http.Client{Transport: tr}
		ctx := context.Background()
		done := make(chan error, 1)
		go func() { _, err := get(ctx, hc, "http://b.test/page"); done <- err }()
		if inFlight {
			<-entered
		} else if err := <-done; err != nil {
			t.Fatal(err)
		}
		if _, err := c.Check(ctx, "http://c.test/"); err != nil || c.robots.cache.peek("http://b.test:80") != nil {
			t.Fatalf("c.test: %v; b.test's entry not dropped", err)
		}
		before := w.count("http://b.test/robots.txt")
		if d, err := c.Check(ctx, "http://a.test/x"); d.Allowed || !errors.Is(err, ErrDeferred) {
			t.Errorf("in flight %v: a.test %+v, %v; want deferred, its robots.txt not sent in b.test's pace", inFlight, d, err)
		}
		if n := w.count("http://b.test/robots.txt") - before; n != 0 {
			t.Errorf("in flight %v: b.test/robots.txt sent %d times within its Crawl-delay", inFlight, n)
		}
		if inFlight {
			close(release)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
		_ = c.Close()
	}
}

// TestHopSendsNoCookies: a hop another site's robots.txt chose carries
// none of the cookies of the caller's jar, and leaves none in it.
func TestHopSendsNoCookies(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("evil.test/robots.txt", redirectTo("http://victim.test/account/delete?confirm=1"))
	w.on("victim.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	var cookie atomic.Value
	w.on("victim.test/account/delete", func(rw http.ResponseWriter, r *http.Request) {
		cookie.Store(r.Header.Get("Cookie"))
		rw.Header().Set("Set-Cookie", "planted=1")
		serve(200, "User-agent: *\nAllow: /\n")(rw, r)
	})
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	victim, _ := url.Parse("http://victim.test/")
	jar.SetCookies(victim, []*http.Cookie{{Name: "session", Value: "s3cret"}})
	c := newTestClient(t, WithHTTPClient(&http.Client{Jar: jar, Transport: w.transport(t)}))
	if _, err := c.Check(context.Background(), "http://evil.test/page"); err != nil {
		t.Fatal(err)
	}
	if got, _ := cookie.Load().(string); got != "" {
		t.Errorf("the hop evil.test's robots.txt chose reached victim.test with Cookie %q", got)
	}
	if n := len(jar.Cookies(victim.JoinPath("account", "delete"))); n != 1 {
		t.Errorf("the jar holds %d cookies of victim.test after the hop, want 1", n)
	}
}

// TestHopsWithinTheSite: the hops servers make every day keep working
// unchecked: http to https, a host to its www. twin, /robots.txt to
// another path of the same authority, and to another site's own
// /robots.txt.
func TestHopsWithinTheSite(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("b.test/robots.txt", redirectTo("http://www.b.test/robots-live.txt"))
	w.on("c.test/robots.txt", redirectTo("/static/robots.txt"))
	w.on("d.test/robots.txt", redirectTo("https://cdn.test/robots.txt"))
	// Every target's own robots.txt disallows everything: a hop checked
	// against it would be refused.
	for _, h := range []string{"www.b.test", "c.test", "cdn.test"} {
		w.on(h+"/robots.txt", serve(200, privateRules))
	}
	w.on("a.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if r.TLS == nil {
			redirectTo("https://a.test/robots.txt")(rw, r)
			return
		}
		serve(200, privateRules)(rw, r)
	})
	w.on("www.b.test/robots-live.txt", serve(200, privateRules))
	w.on("c.test/static/robots.txt", serve(200, privateRules))
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	for _, h := range []string{"a.test", "b.test", "c.test", "d.test"} {
		d, err := c.Check(context.Background(), "http://"+h+"/private/x")
		if err != nil || d.Allowed || d.Outcome != OutcomeRules {
			t.Errorf("%s: %+v, %v; want the rules at the end of the hops", h, d, err)
		}
		for _, r := range d.Redirects() {
			if r.Checked {
				t.Errorf("%s: %+v listed as checked against its site's robots.txt", h, r)
			}
		}
	}
}

// TestHopCheckedIsListed: a Decision marks the redirect the Client
// checked against another site's robots.txt, as the Store keeps it, and
// that site's robots.txt is then cached: a check of the hop's URL
// fetches nothing.
func TestHopCheckedIsListed(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", redirectTo("/moved.txt"))
	w.on("a.test/moved.txt", redirectTo("http://cdn.test/rules.txt"))
	w.on("cdn.test/robots.txt", serve(200, "User-agent: *\nDisallow: /private/\n"))
	w.on("cdn.test/rules.txt", serve(200, privateRules))
	store := newMemStore()
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithStore(store))
	want := []Redirect{{Status: 302, URL: "http://a.test/moved.txt"}, {Status: 302, URL: "http://cdn.test/rules.txt", Checked: true}}
	d, err := c.Check(context.Background(), "http://a.test/private/x")
	if err != nil || d.Allowed || !slices.Equal(d.Redirects(), want) {
		t.Fatalf("a.test: %+v (Redirects %v), %v; want disallowed after %v", d, d.Redirects(), err, want)
	}
	if hop, err := c.Check(context.Background(), want[1].URL); err != nil || !hop.Allowed || fetches(c.Stats()) != 2 {
		t.Errorf("the hop's URL: %+v, %v, %d fetches; want allowed from the cache", hop, err, fetches(c.Stats()))
	}
	shared := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithStore(store))
	if d, err := shared.Check(context.Background(), "http://a.test/private/x"); err != nil || !slices.Equal(d.Redirects(), want) {
		t.Errorf("from the Store: Redirects %v, %v; want %v", d.Redirects(), err, want)
	}
}

// TestHopCycleEnds: two sites whose robots.txt redirect to a page of
// each other's end unreachable at once, without waiting on each other.
func TestHopCycleEnds(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", redirectTo("http://b.test/x"))
	w.on("b.test/robots.txt", redirectTo("http://a.test/y"))
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	start := time.Now()
	for _, h := range []string{"a.test", "b.test"} {
		if d, err := c.Check(context.Background(), "http://"+h+"/"); d.Allowed || !errors.Is(err, ErrDeferred) {
			t.Errorf("%s: %+v, %v; want deferred", h, d, err)
		}
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the cycle took %v: the checks waited on each other", took)
	}
	if w.count("http://b.test/x")+w.count("http://a.test/y") != 0 {
		t.Error("a hop of the cycle was sent")
	}
}

// TestHopFetchEndsWithItsFetch: the robots.txt fetch that checks a hop
// ends with the fetch whose hop it checks, so that hops cannot keep
// fetches running past WithMaxFetches once that fetch has given its slot
// back.
func TestHopFetchEndsWithItsFetch(t *testing.T) {
	checkLeaks(t)
	const timeout = 2 * time.Second
	w := newHosts(t)
	w.on("a.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(timeout * 3 / 4): // the hop comes late in the fetch
			redirectTo("http://slow.test/page")(rw, r)
		case <-r.Context().Done():
		}
	})
	cut := make(chan time.Time, 1)
	w.on("slow.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
		cut <- time.Now()
	})
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithFetchTimeout(timeout))
	start := time.Now()
	if d, err := c.Check(context.Background(), "http://a.test/"); d.Allowed || !errors.Is(err, ErrDeferred) {
		t.Errorf("a.test: %+v, %v; want deferred", d, err)
	}
	select {
	case at := <-cut:
		// Its own fetch timeout would end it at 7/4 of the timeout.
		if took := at.Sub(start); took > timeout*5/4 {
			t.Errorf("the hop's robots.txt fetch ended %v after the check began, past the fetch it served (%v)", took, timeout)
		}
	case <-time.After(2 * timeout):
		t.Error("the hop's robots.txt fetch never ended")
	}
}

// TestJoinerOfACutHopFetchesAnew: a crawler's own check that joins the
// robots.txt fetch of a hop does not inherit its end: when the fetch the
// hop served ends first, the check fetches the robots.txt itself.
func TestJoinerOfACutHopFetchesAnew(t *testing.T) {
	checkLeaks(t)
	const timeout = time.Second
	w := newHosts(t)
	w.on("a.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(timeout / 2):
			redirectTo("http://cdn.test/page")(rw, r)
		case <-r.Context().Done():
		}
	})
	hopFetch := make(chan struct{})
	var calls sync.Mutex
	first := true
	w.on("cdn.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		calls.Lock()
		was := first
		first = false
		calls.Unlock()
		if was { // the hop's: it hangs until the fetch it served ends
			close(hopFetch)
			<-r.Context().Done()
			return
		}
		serve(200, privateRules)(rw, r)
	})
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithFetchTimeout(timeout))
	done := make(chan error, 1)
	go func() {
		_, err := c.Check(context.Background(), "http://a.test/")
		done <- err
	}()
	<-hopFetch
	d, err := c.Check(context.Background(), "http://cdn.test/private/x")
	if err != nil || d.Allowed || d.Outcome != OutcomeRules {
		t.Errorf("cdn.test after joining the hop's fetch: %+v, %v; want its rules", d, err)
	}
	if err := <-done; !errors.Is(err, ErrDeferred) {
		t.Errorf("a.test: %v, want deferred", err)
	}
}

// TestHopChainFailureIsNotTheSites: a site whose robots.txt fetch runs
// for another site's chain, and fails because of it (here: its own CDN
// hop would nest robots.txt files too deep), keeps no failure: neither
// in memory nor in the Store, and its own check fetches anew and
// counts no failure.
func TestHopChainFailureIsNotTheSites(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("evil1.test/robots.txt", redirectTo("http://evil2.test/x"))
	w.on("evil2.test/robots.txt", redirectTo("http://victim.test/y"))
	w.on("victim.test/robots.txt", redirectTo("http://cdn.test/victim/robots.txt"))
	w.on("cdn.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("cdn.test/victim/robots.txt", serve(200, privateRules))
	store := newMemStore()
	hc := &http.Client{Transport: w.transport(t)}
	c := newTestClient(t, WithHTTPClient(hc), WithStore(store))
	ctx := context.Background()
	if d, err := c.Check(ctx, "http://evil1.test/page"); d.Allowed || !errors.Is(err, ErrDeferred) {
		t.Fatalf("evil1: %+v, %v; want deferred", d, err)
	}
	if w.count("http://victim.test/robots.txt") == 0 {
		t.Fatal("the chain never reached the victim: the test proves nothing")
	}
	if e := c.robots.cache.peek("http://victim.test:80"); e != nil && !e.good() {
		t.Errorf("the victim's failure in another's chain is cached: %+v", e.persisted)
	}
	if b := store.get("http://victim.test:80"); b != nil {
		switch e, err := decodeEntry(robotsKey("http://victim.test:80"), b, c.tier.crawler()); {
		case err != nil:
			t.Errorf("the victim's value in the Store: %v", err)
		case !e.good():
			t.Errorf("the victim's failure in another's chain is in the Store: %+v", e.persisted)
		}
	}
	for _, cl := range []*Client{c, newTestClient(t, WithHTTPClient(hc), WithStore(store))} {
		d, err := cl.Check(ctx, "http://victim.test/page")
		if err != nil || !d.Allowed || d.Failures != 0 || d.Outcome != OutcomeRules {
			t.Errorf("the victim's own check: %+v, %v; want allowed by its rules, no failure", d, err)
		}
		if d, _ := cl.Check(ctx, "http://victim.test/private/x"); d.Allowed {
			t.Error("the victim's own check did not read its rules")
		}
	}
}

// TestHopKeepsNoPolicyAllowAll: a site whose robots.txt fetch for
// another site's chain got no response keeps nothing, though an error
// policy reads the failure as allow-all: only a good answer is kept, so
// no chain can leave an allow-all on another site.
func TestHopKeepsNoPolicyAllowAll(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("victim.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if conn, _, err := rw.(http.Hijacker).Hijack(); err == nil {
			_ = conn.Close() // no answer
		}
	})
	w.on("evil.test/robots.txt", redirectTo("http://victim.test/page"))
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}),
		WithErrorPolicy(func(error) Outcome { return OutcomeAllowAll }))
	_, _ = c.Check(context.Background(), "http://evil.test/x")
	if w.count("http://victim.test/robots.txt") == 0 {
		t.Fatal("the chain never reached the victim: the test proves nothing")
	}
	if e := c.robots.cache.peek("http://victim.test:80"); e != nil {
		t.Errorf("the victim's entry, fetched for evil.test's chain: %+v; want none", e.persisted)
	}
}

// TestHopKeepsTheServersOwnFailure: a host ten sites redirect their
// robots.txt to (its robots.txt, or a page of it, which needs its
// robots.txt) answers its robots.txt in a way the Client cannot read:
// a coding it did not ask for, a part of the file, a redirect it cannot
// follow. Such an answer is the host's whoever asks, no chain's doing,
// as an error status is: the first site's fetch keeps it for the host's
// back-off, and the sites after it ask the host nothing.
func TestHopKeepsTheServersOwnFailure(t *testing.T) {
	for _, page := range []bool{false, true} {
		for _, tc := range []struct {
			name string
			h    http.HandlerFunc
		}{
			{"503", serve(503, "down")},
			{"a coding not asked for", serve(200, "\x1b\x00\x00\x00garbage", "Content-Encoding", "br")},
			{"206 of a part", serve(206, "User-agent: *\n", "Content-Range", "bytes 0-13/500")},
			{"301 without Location", serve(301, "")},
			{"301 to ftp", serve(301, "", "Location", "ftp://cdn.test/robots.txt")},
		} {
			t.Run(fmt.Sprintf("page=%v/%s", page, tc.name), func(t *testing.T) {
				checkLeaks(t)
				w := newHosts(t)
				w.on("cdn.test/robots.txt", tc.h)
				w.on("cdn.test/files/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
				target := "http://cdn.test/robots.txt"
				if page {
					target = "http://cdn.test/files/robots.txt"
				}
				const n = 10
				for i := range n {
					w.on(fmt.Sprintf("s%d.test/robots.txt", i), redirectTo(target))
				}
				c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
				for i := range n {
					if d, err := c.Check(context.Background(), fmt.Sprintf("http://s%d.test/x", i)); d.Allowed || err == nil {
						t.Fatalf("s%d.test: %+v, %v; want deferred", i, d, err)
					}
				}
				if got := w.count("http://cdn.test/robots.txt"); got != 1 {
					t.Errorf("cdn.test's robots.txt asked %d times by %d sites redirected there; want once", got, n)
				}
			})
		}
	}
}

// TestHopKeepsNoChainsCutOfAnErrorStatus: a host's 403, which a status
// policy reads as rules, whose body the chain's deadline cut (a.test
// took three quarters of the fetch to redirect there), is no failure of
// the host's own: the next site redirected there asks it.
func TestHopKeepsNoChainsCutOfAnErrorStatus(t *testing.T) {
	checkLeaks(t)
	const timeout = time.Second
	w := newHosts(t)
	w.on("a.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(timeout * 3 / 4):
			redirectTo("http://cdn.test/robots.txt")(rw, r)
		case <-r.Context().Done():
		}
	})
	w.on("b.test/robots.txt", redirectTo("http://cdn.test/robots.txt"))
	w.on("cdn.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		rw.WriteHeader(http.StatusForbidden)
		_, _ = io.WriteString(rw, "User-agent: *\n")
		rw.(http.Flusher).Flush()
		select {
		case <-time.After(timeout / 2): // the body takes half a fetch
			_, _ = io.WriteString(rw, "Disallow: /private/\n")
		case <-r.Context().Done():
		}
	})
	policy := func(s int) Outcome {
		if s == http.StatusForbidden {
			return OutcomeRules
		}
		return LegacyStatusPolicy(s)
	}
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithFetchTimeout(timeout), WithStatusPolicy(policy))
	if _, err := c.Check(context.Background(), "http://a.test/x"); !errors.Is(err, ErrDeferred) {
		t.Fatalf("a.test: %v; want deferred, the chain's deadline cutting cdn.test's body", err)
	}
	_, err := c.Check(context.Background(), "http://b.test/x")
	if n := w.count("http://cdn.test/robots.txt"); n < 2 {
		t.Errorf("b.test: %v; cdn.test asked %d times: a.test's chain's cut was kept as cdn.test's own failure", err, n)
	}
}

// TestHopWaitsWhateverWithNoWait: a robots.txt on another site's host is
// fetched after the hop's turn comes, within the fetch's timeout, even
// when the Transport's pages never wait (WithNoWait).
func TestHopWaitsWhateverWithNoWait(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", redirectTo("http://cdn.test/a/robots.txt"))
	w.on("cdn.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("cdn.test/a/robots.txt", serve(200, privateRules))
	w.on("cdn.test/page", serve(200, "page"))
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)},
		WithNoWait(), WithDefaultInterval(300*time.Millisecond))
	t.Cleanup(func() { _ = c.Close() })
	// A page of the CDN takes its turn: the hop must wait for the next.
	if _, err := get(context.Background(), &http.Client{Transport: tr}, "http://cdn.test/page"); err != nil {
		t.Fatal(err)
	}
	d, err := c.Check(context.Background(), "http://a.test/private/x")
	if err != nil || d.Allowed || d.Outcome != OutcomeRules {
		t.Errorf("a.test behind a paced CDN: %+v, %v; want its rules", d, err)
	}
}

// countingPacer is a Pacer that counts the turns taken at each authority.
type countingPacer struct {
	Pacer
	mu    sync.Mutex
	takes map[string]int
}

func newCountingPacer() *countingPacer {
	return &countingPacer{Pacer: newMemPacer(), takes: map[string]int{}}
}

func (p *countingPacer) Take(ctx context.Context, authority string, interval time.Duration) (uint64, time.Duration, error) {
	p.mu.Lock()
	p.takes[authority]++
	p.mu.Unlock()
	return p.Pacer.Take(ctx, authority, interval)
}

func (p *countingPacer) count(authority string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.takes[authority]
}

// TestHopPacerOfALaterTransport: hops that come before any Transport is
// made are paced by the Client's own pacer; once a Transport is made
// with WithPacer, hops are paced by that pacer, as the pages are.
func TestHopPacerOfALaterTransport(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	for _, s := range []string{"a", "b"} {
		w.on(s+".test/robots.txt", redirectTo("http://cdn-"+s+".test/robots.txt"))
		w.on("cdn-"+s+".test/robots.txt", serve(200, privateRules))
	}
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	ctx := context.Background()
	if _, err := c.Check(ctx, "http://a.test/"); err != nil {
		t.Fatal(err)
	}
	p := newCountingPacer()
	NewTransport(c, w.transport(t), WithPacer(p))
	if _, err := c.Check(ctx, "http://b.test/"); err != nil {
		t.Fatal(err)
	}
	if n := p.count(paceKey("http://cdn-b.test:80")); n != 1 {
		t.Errorf("the hop after the Transport took %d turns of its pacer, want 1", n)
	}
	if n := p.count(paceKey("http://cdn-a.test:80")); n != 0 {
		t.Errorf("the hop before the Transport took %d turns of its pacer, want 0", n)
	}
}

// TestCheckRequestsBounded: a tree of redirects (each robots.txt and page
// redirects to five other sites, whose robots.txt files do the same, down
// to a victim's robots.txt spelled five ways) makes one check send at
// most requestBound requests, and those that reach the victim take turns
// in its pacing.
func TestCheckRequestsBounded(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var mu sync.Mutex
	var victim []time.Time
	w.on("victim.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		victim = append(victim, time.Now())
		mu.Unlock()
		serve(200, "User-agent: *\nAllow: /\n")(rw, r)
	})
	spellings := []string{"http://victim.test/robots.txt", "http://victim.test:80/robots.txt",
		"http://VICTIM.test/robots.txt", "http://victim.test./robots.txt", "http://Victim.test/robots.txt"}
	// root's robots.txt hops through the pages of five sites l1-k, each of
	// whose robots.txt hops through the pages of five sites l2-k-j, each
	// of whose robots.txt redirects to the victim's (one spelling each).
	for k := range 5 {
		l1 := fmt.Sprintf("l1-%d.test", k)
		w.on(l1+"/p", redirectTo(fmt.Sprintf("http://l1-%d.test/p", (k+1)%5)))
		w.on(l1+"/robots.txt", redirectTo(fmt.Sprintf("http://l2-%d-0.test/p", k)))
		for j := range 5 {
			l2 := fmt.Sprintf("l2-%d-%d.test", k, j)
			w.on(l2+"/p", redirectTo(fmt.Sprintf("http://l2-%d-%d.test/p", k, (j+1)%5)))
			w.on(l2+"/robots.txt", redirectTo(spellings[j]))
		}
	}
	w.on("root.test/robots.txt", redirectTo("http://l1-0.test/p"))
	const gap = 50 * time.Millisecond
	c, _ := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithDefaultInterval(gap))
	t.Cleanup(func() { _ = c.Close() })
	_, _ = c.Check(context.Background(), "http://root.test/")
	w.mu.Lock()
	total := 0
	for _, n := range w.seen {
		total += n
	}
	w.mu.Unlock()
	if bound := int(c.cfg.requestBound()); total > bound || total < 6 {
		t.Errorf("one check sent %d requests, want between 6 and %d", total, bound)
	}
	mu.Lock()
	defer mu.Unlock()
	checkSpacing(t, "the victim's robots.txt", victim, gap-5*time.Millisecond)
}

// TestHopChainLeavesNoStandIn: a site with an expired good copy whose
// robots.txt is fetched again for another site's chain, and fails for
// that chain's bounds, keeps no stale stand-in with the failure, in
// memory or in the Store.
func TestHopChainLeavesNoStandIn(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("b.test/robots.txt", redirectTo("http://c.test/p"))
	w.on("c.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("c.test/p", serve(200, privateRules, "Cache-Control", "max-age=60"))
	w.on("evil.test/robots.txt", redirectTo("http://e1.test/x"))
	w.on("e1.test/robots.txt", redirectTo("http://b.test/y"))
	clock := newTestClock()
	store := newMemStore()
	opts := []Option{WithClock(clock.Now), WithStore(store), WithHTTPClient(&http.Client{Transport: w.transport(t)})}
	c := newTestClient(t, opts...)
	ctx := context.Background()
	if d, err := c.Check(ctx, "http://b.test/private"); err != nil || d.Stale || d.Allowed {
		t.Fatalf("b.test alone: %+v, %v", d, err)
	}
	clock.Advance(2 * time.Minute)
	if _, err := c.Check(ctx, "http://evil.test/"); !errors.Is(err, ErrDeferred) {
		t.Fatalf("evil.test: %v, want deferred", err)
	}
	for _, cl := range []*Client{c, newTestClient(t, opts...)} {
		if d, err := cl.Check(ctx, "http://b.test/private"); err != nil || d.Stale || d.Failures != 0 || d.Allowed {
			t.Errorf("b.test after evil.test's chain: stale %v, failures %d, %v (%v); want its own rules", d.Stale, d.Failures, err, d.Err)
		}
	}
}

// TestHopJoinsAnotherChainsFill: a hop that joins the robots.txt fetch
// another site's chain runs, and that fails for that chain's depth,
// fetches it anew for its own chain, which may follow it.
func TestHopJoinsAnotherChainsFill(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	entered := make(chan struct{}, 4)
	w.on("evil.test/robots.txt", redirectTo("http://e1.test/x"))
	w.on("e1.test/robots.txt", redirectTo("http://b.test/y"))
	w.on("b.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		time.Sleep(200 * time.Millisecond)
		redirectTo("http://c.test/p")(rw, r)
	})
	w.on("c.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("c.test/p", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("a.test/robots.txt", redirectTo("http://b.test/z"))
	w.on("b.test/z", serve(200, privateRules))
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	evil := make(chan error, 1)
	go func() {
		_, err := c.Check(context.Background(), "http://evil.test/")
		evil <- err
	}()
	<-entered
	d, err := c.Check(context.Background(), "http://a.test/private")
	if err != nil || d.Allowed || d.Outcome != OutcomeRules {
		t.Errorf("a.test, joining evil.test's fill of b.test: %+v, %v; want a.test's rules", d, err)
	}
	<-evil
}

// TestTheirFetchEndsTheirOutage: b.test's robots.txt failed (a 500),
// and a last good copy stands in, or its checks are deferred, for the
// back-off (an hour here). Once it is over, a redirect of a.test's
// robots.txt to b.test's, which now answers 200 with "Disallow: /new", is
// b.test's own fetch too: b.test's checks answer from that file at once,
// as a.test's do. (Within it, b.test is not asked: see
// TestHopToFailingSiteAsksItNothing.)
func TestTheirFetchEndsTheirOutage(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		good bool // b.test had a good copy before its outage
	}{
		{"stand-in", true},
		{"deferral", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newHosts(t)
			var phase atomic.Int32 // 0: old rules, 1: down, 2: new rules
			if !tc.good {
				phase.Store(1)
			}
			w.on("b.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
				switch phase.Load() {
				case 0:
					rw.Header().Set("Cache-Control", "max-age=60")
					_, _ = io.WriteString(rw, "User-agent: *\nDisallow: /old\n")
				case 1:
					rw.WriteHeader(http.StatusInternalServerError)
				default:
					rw.Header().Set("Cache-Control", "max-age=3600")
					_, _ = io.WriteString(rw, "User-agent: *\nDisallow: /new\n")
				}
			})
			w.on("a.test/robots.txt", redirectTo("http://b.test/robots.txt"))
			clock := newTestClock()
			c := NewClient(WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithUserAgent(testUA),
				WithClock(clock.Now), WithBackoff(time.Hour, time.Hour))
			t.Cleanup(func() { _ = c.Close() })
			if tc.good {
				if ok, err := c.Allowed(ctx, "http://b.test/new"); err != nil || !ok {
					t.Fatalf("b.test/new under the old rules: %v, %v", ok, err)
				}
				clock.Advance(2 * time.Minute)
				phase.Store(1)
			}
			d, err := c.Check(ctx, "http://b.test/new")
			if tc.good && (err != nil || !d.Stale || !d.Allowed) || !tc.good && !d.Deferred {
				t.Fatalf("b.test during its outage: %+v, %v", d, err)
			}
			phase.Store(2)
			clock.Advance(time.Hour + time.Minute)
			if d, err := c.Check(ctx, "http://a.test/new"); err != nil || d.Allowed || d.FinalURL != "http://b.test/robots.txt" {
				t.Fatalf("a.test/new, redirected to b.test's robots.txt: %+v, %v; want b.test's new rules", d, err)
			}
			asked := w.count("http://b.test/robots.txt")
			d, err = c.Check(ctx, "http://b.test/new")
			if err != nil || d.Allowed || d.Stale || d.Deferred {
				t.Errorf("b.test/new, after the Client read b.test's robots.txt (Disallow: /new) a moment ago: "+
					"allowed %v, stale %v, deferred %v, failures %d, expires in %v, %v; want disallowed by the file it read",
					d.Allowed, d.Stale, d.Deferred, d.Failures, d.Expires.Sub(clock.Now()), err)
			}
			if n := w.count("http://b.test/robots.txt"); n != asked {
				t.Errorf("b.test's robots.txt asked again (%d requests); want the file just read", n-asked)
			}
		})
	}
}

// downUntil serves a robots.txt that answers 500 until up, then
// "Disallow: /new" fresh for maxAge seconds.
func downUntil(up *atomic.Bool, maxAge int) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		if !up.Load() {
			rw.WriteHeader(http.StatusInternalServerError)
			return
		}
		rw.Header().Set("Cache-Control", fmt.Sprintf("max-age=%d", maxAge))
		_, _ = io.WriteString(rw, "User-agent: *\nDisallow: /new\n")
	}
}

// TestTheirFetchEndsTheirOutageInTheStore: as
// TestTheirFetchEndsTheirOutage, with a Store, which held b.test's failure
// (a 500; back-off an hour, over), kept on there for its count: the file
// read through a.test's redirect replaces it there too, so another
// process reads the file, and once the file's max-age is over b.test's
// robots.txt is asked again, not answered by the old failure.
func TestTheirFetchEndsTheirOutageInTheStore(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	w := newHosts(t)
	var up atomic.Bool
	w.on("b.test/robots.txt", downUntil(&up, 60))
	w.on("a.test/robots.txt", redirectTo("http://b.test/robots.txt"))
	clock := newTestClock()
	store := newMemStore()
	opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithUserAgent(testUA),
		WithClock(clock.Now), WithBackoff(time.Hour, time.Hour), WithStore(store)}
	c := NewClient(opts...)
	t.Cleanup(func() { _ = c.Close() })
	if d, _ := c.Check(ctx, "http://b.test/new"); !d.Deferred {
		t.Fatalf("b.test during its outage: %+v", d)
	}
	up.Store(true)
	clock.Advance(time.Hour + time.Minute) // b.test's back-off is over
	if d, err := c.Check(ctx, "http://a.test/new"); err != nil || d.Allowed {
		t.Fatalf("a.test/new, redirected to b.test's robots.txt: %+v, %v", d, err)
	}
	if d, err := c.Check(ctx, "http://b.test/new"); err != nil || d.Allowed || d.Stale || d.Deferred {
		t.Fatalf("b.test right after the hop read its file: %+v, %v", d, err)
	}

	t.Run("another process", func(t *testing.T) {
		other := NewClient(opts...)
		t.Cleanup(func() { _ = other.Close() })
		if d, err := other.Check(ctx, "http://b.test/new"); d.Deferred || d.Failures != 0 {
			t.Errorf("another process sharing the Store, a moment after b.test's file was read: deferred %v, failures %d, %v; "+
				"want b.test's file (or a fetch of it), not its old outage", d.Deferred, d.Failures, err)
		}
	})

	clock.Advance(2 * time.Minute) // the file's max-age is over
	asked := w.count("http://b.test/robots.txt")
	d, err := c.Check(ctx, "http://b.test/new")
	if d.Stale || d.Failures != 0 || d.Deferred || err != nil || d.Allowed {
		t.Errorf("b.test after its file (max-age=60) expired: allowed %v, stale %v, failures %d, deferred %v, err %v (%v); "+
			"want a fetch of its file, fresh: its server answers", d.Allowed, d.Stale, d.Failures, d.Deferred, err, d.Err)
	}
	if n := w.count("http://b.test/robots.txt"); n == asked {
		t.Errorf("b.test's robots.txt not asked again once its file expired: the Store's old failure stands for the hour")
	}
}

// TestTheirFetchOutlivesEviction: b.test's file, read through a.test's
// redirect and fresh for an hour, that leaves memory for other sites'
// entries is read back from the Store, not the 500 it held before.
func TestTheirFetchOutlivesEviction(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	w := newHosts(t)
	var up atomic.Bool
	w.on("b.test/robots.txt", downUntil(&up, 3600))
	w.on("a.test/robots.txt", redirectTo("http://b.test/robots.txt"))
	for _, h := range []string{"c.test", "d.test", "e.test"} {
		w.on(h+"/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	}
	clock := newTestClock()
	c := NewClient(WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithUserAgent(testUA),
		WithBackoff(time.Hour, time.Hour), WithStore(newMemStore()), WithCacheSize(2), WithClock(clock.Now))
	t.Cleanup(func() { _ = c.Close() })
	if d, _ := c.Check(ctx, "http://b.test/new"); !d.Deferred {
		t.Fatalf("b.test during its outage: %+v", d)
	}
	up.Store(true)
	clock.Advance(time.Hour + time.Minute) // b.test's back-off is over
	if d, err := c.Check(ctx, "http://a.test/new"); err != nil || d.Allowed {
		t.Fatalf("a.test/new, redirected to b.test's robots.txt: %+v, %v", d, err)
	}
	if d, err := c.Check(ctx, "http://b.test/new"); err != nil || d.Allowed || d.Deferred {
		t.Fatalf("b.test right after the hop read its file: %+v, %v", d, err)
	}
	for _, h := range []string{"c.test", "d.test", "e.test"} {
		_, _ = c.Check(ctx, "http://"+h+"/")
	}
	if d, err := c.Check(ctx, "http://b.test/new"); d.Deferred || d.Stale || d.Failures != 0 {
		t.Errorf("b.test, its file read a moment ago (max-age=3600), after its entry left memory: deferred %v, stale %v, failures %d, %v; "+
			"want its file: the Store's old 500 came back", d.Deferred, d.Stale, d.Failures, err)
	}
}

// TestTheirCopyLeavesTheStore: a copy of a site's file held in memory,
// which a redirect through another site reached, does not replace in the
// Store the newer file another process stored: a third reads the newer.
func TestTheirCopyLeavesTheStore(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	w := newHosts(t)
	var v2 atomic.Bool
	w.on("www.b.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Cache-Control", "max-age=3600")
		if v2.Load() {
			_, _ = io.WriteString(rw, "User-agent: *\nDisallow: /private\n")
			return
		}
		_, _ = io.WriteString(rw, "User-agent: *\nAllow: /\n")
	})
	w.on("b.test/robots.txt", redirectTo("http://www.b.test/robots.txt"))
	w.on("a.test/robots.txt", redirectTo("http://b.test/robots.txt"))
	opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithUserAgent(testUA),
		WithClock(newTestClock().Now), WithStore(newMemStore())}
	process := func() *Client {
		c := NewClient(opts...)
		t.Cleanup(func() { _ = c.Close() })
		return c
	}
	p1, p2 := process(), process()
	if d, err := p1.Check(ctx, "http://www.b.test/private"); err != nil || !d.Allowed {
		t.Fatalf("the first file: %+v, %v", d, err)
	}
	v2.Store(true)
	if d, err := p2.Check(ctx, "http://b.test/private"); err != nil || d.Allowed {
		t.Fatalf("another process, the newer file: %+v, %v", d, err)
	}
	if d, err := p1.Check(ctx, "http://a.test/x"); err != nil || !d.Allowed {
		t.Fatalf("a.test through b.test to the copy of www.b.test's held: %+v, %v", d, err)
	}
	if d, err := process().Check(ctx, "http://b.test/private"); err != nil || d.Allowed {
		t.Errorf("a third process: allowed %v, %v; want the newer file the Store held", d.Allowed, err)
	}
}

// TestOther304IsNotTheirs: a.test's robots.txt redirects to b.test's,
// which changed (ETag "v2", same Last-Modified) behind a server that
// judges If-Modified-Since alone; a.test's revalidation gets a 304 naming
// "v2", and keeps its old copy briefly for itself alone: it does not
// become b.test's entry (b.test's left the cache), whose own fetch reads
// the new file.
func TestOther304IsNotTheirs(t *testing.T) {
	checkLeaks(t)
	var v2 atomic.Bool
	w := newHosts(t)
	w.on("b.test/robots.txt", changedFile(&v2, "User-agent: *\nDisallow: /private\n"))
	w.on("a.test/robots.txt", redirectTo("http://b.test/robots.txt"))
	w.on("c.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	clock := newTestClock()
	c := NewClient(WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithUserAgent(testUA),
		WithClock(clock.Now), WithCacheSize(2))
	t.Cleanup(func() { _ = c.Close() })
	ctx := context.Background()

	if d, err := c.Check(ctx, "http://a.test/private"); err != nil || d.Allowed {
		t.Fatalf("a.test through b.test's v1: %+v, %v", d, err)
	}
	_, _ = c.Check(ctx, "http://c.test/") // b.test's kept entry leaves the LRU
	if e := c.robots.cache.peek("http://b.test:80"); e != nil {
		t.Fatalf("b.test's entry still held: %q", e.key)
	}
	v2.Store(true) // b.test now disallows everything
	clock.Advance(2 * time.Hour)
	if d, err := c.Check(ctx, "http://a.test/x"); err != nil {
		t.Fatalf("a.test after the 304 naming v2: %+v, %v", d, err)
	}
	d, err := c.Check(ctx, "http://b.test/x")
	if err != nil || d.Allowed {
		t.Errorf("b.test/x, b.test's file being \"Disallow: /\" (v2), its server having just said so by naming v2: "+
			"allowed %v, ETag %q, fresh for %v, %v; want b.test's own fetch of its file (disallowed), not a.test's disowned copy of v1",
			d.Allowed, d.ETag, d.Expires.Sub(clock.Now()), err)
	}
}

// TestRobotsHoldSpreadsRetries: a 503 with Retry-After to the Client's
// own robots.txt request holds the site's pages, which a stale copy lets
// through the check; under WithNoWait the pages refused during the hold
// are told turns the held request's duration apart, as for a page's
// hold, not all the hold's end, when a frontier would send them back at
// once to a server that just said it was overloaded.
func TestRobotsHoldSpreadsRetries(t *testing.T) {
	checkLeaks(t)
	const latency = 300 * time.Millisecond
	w := newHosts(t)
	var down atomic.Bool
	w.on("a.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if down.Load() {
			time.Sleep(latency)
			rw.Header().Set("Retry-After", "60")
			rw.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		rw.Header().Set("Cache-Control", "max-age=1")
		_, _ = io.WriteString(rw, "User-agent: *\nDisallow: /private\n")
	})
	for i := range 4 {
		w.on(fmt.Sprintf("a.test/p%d", i), serve(200, "page", "Content-Type", "text/plain"))
	}
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA), WithMinFreshness(0)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	ctx := context.Background()
	if _, err := get(ctx, hc, "http://a.test/p0"); err != nil {
		t.Fatal(err)
	}
	down.Store(true)
	time.Sleep(1200 * time.Millisecond) // the copy expires; its refresh meets the 503
	toldApart(t, hc, "http://a.test", latency)
}

// TestHopToPageOfFailingSiteAsksItOnce: sites whose robots.txt
// redirects to a page of down.test, whose robots.txt answers 500, have
// the hop checked against it: the first check's fetch of down.test's
// robots.txt keeps its failure (the server's own answer) for its
// back-off, as a check of down.test's would, so that the next sites ask
// it nothing and its failure is logged once.
func TestHopToPageOfFailingSiteAsksItOnce(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("down.test/robots.txt", serve(500, "down"))
	const sites = 5
	for i := range sites {
		w.on(fmt.Sprintf("site%d.test/robots.txt", i), redirectTo("http://down.test/x"))
	}
	var logs bytes.Buffer
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	for i := range sites {
		if d, err := c.Check(context.Background(), fmt.Sprintf("http://site%d.test/page", i)); d.Allowed || !errors.Is(err, ErrDeferred) {
			t.Errorf("site%d.test: %+v, %v; want deferred", i, d, err)
		}
	}
	lines := strings.Count(logs.String(), `msg="robots.txt unreachable" authority=http://down.test:80`)
	if asked := w.count("http://down.test/robots.txt"); asked != 1 || lines != 1 {
		t.Errorf("down.test's robots.txt asked %d times and its failure logged %d times within its back-off, for %d sites redirecting there; want once\n%s", asked, lines, sites, logs.String())
	}
	if d, err := c.Check(context.Background(), "http://down.test/x"); d.Failures != 1 || d.Status != 500 || !errors.Is(err, ErrDeferred) {
		t.Errorf("down.test's own check: %+v, %v; want its kept failure", d, err)
	}
}

// TestHopToFailingRobotsTxtAsksItOnce: sites whose robots.txt redirects
// to down.test's robots.txt, which answers an error status of its own (a
// 500 come back in an hour, a 502, a 503 naming no time, none of which
// holds down.test's pacing), get that failure kept for the robots.txt
// files redirected to down.test: the next sites redirected there ask it
// nothing within its back-off (down.test's own check asks it itself).
func TestHopToFailingRobotsTxtAsksItOnce(t *testing.T) {
	for _, status := range []int{500, 502, 503} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			checkLeaks(t)
			w := newHosts(t)
			w.on("down.test/robots.txt", serve(status, "down", "Retry-After", map[int]string{500: "3600"}[status]))
			const sites = 5
			for i := range sites {
				w.on(fmt.Sprintf("s%d.test/robots.txt", i), redirectTo("http://down.test/robots.txt"))
			}
			c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
			for i := range sites {
				if d, err := c.Check(context.Background(), fmt.Sprintf("http://s%d.test/page", i)); d.Allowed || !errors.Is(err, ErrDeferred) {
					t.Errorf("s%d.test: %+v, %v; want deferred", i, d, err)
				}
			}
			if asked := w.count("http://down.test/robots.txt"); asked != 1 {
				t.Errorf("down.test's robots.txt asked %d times within its back-off, for %d sites redirecting there; want once", asked, sites)
			}
			if d, err := c.Check(context.Background(), "http://down.test/x"); d.Failures != 1 || d.Status != status || !errors.Is(err, ErrDeferred) {
				t.Errorf("down.test's own check: %+v, %v; want its kept failure", d, err)
			}
		})
	}
}

// TestHopToUnconnectableSiteAsksItOnce: sites whose robots.txt redirects
// to a page of down.test (the hop checked against down.test's
// robots.txt), or to its robots.txt, when down.test cannot be connected
// to whoever asks (its connections refused, its name not found): the
// first chain's failure is kept for its back-off, so that the next
// sites dial down.test nothing and its failure is logged once (each
// dialled it and logged a Warn whose retry_in nothing kept). A timeout,
// which may be a chain's deadline, is kept for none
// (TestHopCutNotKeptAsFailure).
func TestHopToUnconnectableSiteAsksItOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"refused", os.NewSyscallError("connect", syscall.ECONNREFUSED)},
		{"not found", &net.DNSError{Err: "no such host", Name: "down.test", IsNotFound: true}},
	} {
		for _, target := range []string{"http://down.test/x", "http://down.test/robots.txt", "http://down.test:80/robots.txt"} {
			t.Run(tc.name+" "+target, func(t *testing.T) {
				checkLeaks(t)
				w := newHosts(t)
				const sites = 5
				for i := range sites {
					w.on(fmt.Sprintf("s%d.test/robots.txt", i), redirectTo(target))
				}
				var dials atomic.Int32
				tr := w.transport(t)
				dial := tr.DialContext
				tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
					if strings.HasPrefix(addr, "down.test:") {
						dials.Add(1)
						return nil, &net.OpError{Op: "dial", Net: network, Err: tc.err}
					}
					return dial(ctx, network, addr)
				}
				var logs syncBuffer
				c := newTestClient(t, WithHTTPClient(&http.Client{Transport: tr}), WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
				for i := range sites {
					if d, err := c.Check(context.Background(), fmt.Sprintf("http://s%d.test/page", i)); d.Allowed || !errors.Is(err, ErrDeferred) {
						t.Errorf("s%d.test: %+v, %v; want deferred", i, d, err)
					}
				}
				lines := strings.Count(logs.String(), `msg="robots.txt unreachable" authority=http://down.test:80`)
				if n := dials.Load(); n != 1 || lines != 1 {
					t.Errorf("down.test dialled %d times and its failure logged %d times within its back-off, for %d sites redirecting there; want once\n%s",
						n, lines, sites, logs.String())
				}
			})
		}
	}
}

// TestHopToFailingSiteAsksItNothing: victim.test's robots.txt fails (a
// 500, come back in an hour), and the Client keeps the failure for its
// back-off; the sites whose robots.txt redirects there are unreachable
// too, and ask it nothing within that back-off: they sent it a request
// each (a 500 sets no hold), a CDN down asked once for every site.
func TestHopToFailingSiteAsksItNothing(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("victim.test/robots.txt", serve(500, "down", "Retry-After", "3600"))
	const n = 8
	for i := range n {
		w.on(fmt.Sprintf("s%d.test/robots.txt", i), redirectTo("http://victim.test/robots.txt"))
	}
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	ctx := context.Background()
	d, err := c.Check(ctx, "http://victim.test/page")
	if !errors.Is(err, ErrDeferred) || w.count("http://victim.test/robots.txt") != 1 {
		t.Fatalf("victim.test: %+v, %v", d, err)
	}
	retryAt := d.Expires
	for i := range n {
		if d, err := c.Check(ctx, fmt.Sprintf("http://s%d.test/page", i)); d.Allowed || !errors.Is(err, ErrDeferred) {
			t.Errorf("s%d.test: %+v, %v; want deferred (its robots.txt is victim.test's, unreachable)", i, d, err)
		}
	}
	if d, _ := c.Check(ctx, "http://victim.test/page"); !d.Deferred || !d.Expires.Equal(retryAt) {
		t.Errorf("victim.test after the redirects: deferred %v until %v; want until %v", d.Deferred, d.Expires, retryAt)
	}
	if got := w.count("http://victim.test/robots.txt"); got != 1 {
		t.Errorf("victim.test's robots.txt, unreachable and cached as such until %v (its Retry-After and the back-off), "+
			"was asked %d more times within that back-off, once for each of %d sites redirecting their robots.txt to it; want none",
			retryAt.Format("15:04:05"), got-1, n)
	}
}

// TestHopHoldSpreadsRetries: as TestRobotsHoldSpreadsRetries, for a hold
// that a robots.txt redirected to another site's path met there (a 503
// with Retry-After: 60 to b.test/robots-a.txt): b.test's pages refused in
// the hold are told turns the held request's duration apart.
func TestHopHoldSpreadsRetries(t *testing.T) {
	checkLeaks(t)
	const latency = 300 * time.Millisecond
	w := newHosts(t)
	w.on("b.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n", "Cache-Control", "max-age=3600"))
	w.on("a.test/robots.txt", redirectTo("http://b.test/robots-a.txt"))
	w.on("b.test/robots-a.txt", func(rw http.ResponseWriter, r *http.Request) {
		time.Sleep(latency)
		rw.Header().Set("Retry-After", "60")
		rw.WriteHeader(http.StatusServiceUnavailable)
	})
	for i := range 4 {
		w.on(fmt.Sprintf("b.test/p%d", i), serve(200, "page", "Content-Type", "text/plain"))
	}
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	ctx := context.Background()
	if _, err := get(ctx, hc, "http://b.test/p0"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Check(ctx, "http://a.test/x"); err == nil {
		t.Fatal("a.test: its robots.txt hop met a 503; want an error")
	}
	toldApart(t, hc, "http://b.test", latency)
}

// toldApart checks that the pages p1 to p3 of site, sent through hc
// (WithNoWait) in a 60 s hold, are refused with PacedErrors told turns
// at least latency, the held request's, apart.
func toldApart(t *testing.T, hc *http.Client, site string, latency time.Duration) {
	t.Helper()
	var told []time.Time
	for i := 1; i < 4; i++ {
		var pe *PacedError
		_, err := get(context.Background(), hc, fmt.Sprintf("%s/p%d", site, i))
		if !errors.As(err, &pe) {
			t.Fatalf("p%d during the 503's hold: %v, want a PacedError", i, err)
		}
		if d := time.Until(pe.RetryAt); d < 55*time.Second {
			t.Fatalf("p%d: RetryAt in %v, want the 503's hold (60 s)", i, d)
		}
		told = append(told, pe.RetryAt)
	}
	for i := 1; i < len(told); i++ {
		if gap := told[i].Sub(told[i-1]); gap < latency {
			t.Errorf("refusal %d is told %v after refusal %d (RetryAt %v), want turns apart: at least the held request's %v",
				i, gap, i-1, told[i].Format("15:04:05.000"), latency)
		}
	}
}

// TestHopToFailingSiteWhateverOrder: a robots.txt redirected to a site
// whose robots.txt failed reads as that failure would, whichever site
// was checked first (the hop sent and failing, or not sent within the
// other site's back-off): no response as the error policy says of it, an
// answer net/http could not read unreachable, whatever the policy.
func TestHopToFailingSiteWhateverOrder(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	dropped := func(rw http.ResponseWriter, r *http.Request) {
		conn, _, _ := rw.(http.Hijacker).Hijack()
		_ = conn.Close()
	}
	unread := func(rw http.ResponseWriter, r *http.Request) {
		conn, buf, _ := rw.(http.Hijacker).Hijack()
		_, _ = buf.WriteString("HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n")
		_ = buf.Flush()
		_ = conn.Close()
	}
	for _, tc := range []struct {
		name   string
		v      http.HandlerFunc
		policy Outcome
		want   Outcome
	}{
		{"no response, allow-all", dropped, OutcomeAllowAll, OutcomeAllowAll},
		{"no response, disallow-all", dropped, OutcomeDisallowAll, OutcomeDisallowAll},
		{"an answer not read", unread, OutcomeAllowAll, OutcomeUnreachable},
	} {
		for _, vFirst := range []bool{false, true} {
			w := newHosts(t)
			w.on("v.test/robots.txt", tc.v)
			w.on("a.test/robots.txt", redirectTo("http://v.test/robots.txt"))
			c := NewClient(WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithUserAgent(testUA),
				WithErrorPolicy(func(error) Outcome { return tc.policy }))
			if vFirst {
				_, _ = c.Check(ctx, "http://v.test/x")
			}
			if d, err := c.Check(ctx, "http://a.test/x"); d.Outcome != tc.want {
				t.Errorf("%s, v.test checked first %v: a.test, redirected to v.test's robots.txt: outcome %v, %v; want %v",
					tc.name, vFirst, d.Outcome, err, tc.want)
			}
			_ = c.Close()
		}
	}
}

// hopBesideCheck has down.test's robots.txt fetched twice at once: by
// own's check of down.test, answered privateRules (200), and by the hop
// of hopper's check of site0.test, whose robots.txt redirects to a page
// of down.test, answered 503 once own's check has ended (as nginx's
// limit_req answers a second request within its rate): the hop's fetch
// ends last.
func hopBesideCheck(t *testing.T, w *hosts, own, hopper *Client) {
	t.Helper()
	firstIn, secondIn, ownDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var n atomic.Int32
	w.on("down.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1:
			close(firstIn)
			<-secondIn
		case 2:
			close(secondIn)
			<-ownDone
			rw.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		rw.Header().Set("Cache-Control", "max-age=86400")
		_, _ = rw.Write([]byte(privateRules))
	})
	w.on("site0.test/robots.txt", redirectTo("http://down.test/x"))
	ctx := context.Background()
	errs := make(chan error, 1)
	go func() {
		ok, err := own.Allowed(ctx, "http://down.test/private")
		if err == nil && ok {
			err = errors.New("/private allowed")
		}
		errs <- err
		close(ownDone)
	}()
	<-firstIn
	_, _ = hopper.Check(ctx, "http://site0.test/page")
	if err := <-errs; err != nil {
		t.Fatalf("down.test's own check: %v", err)
	}
}

// TestHopFailureBesideOwnFetch: a crawler's own check of down.test and a
// hop to one of down.test's pages fetch down.test's robots.txt at the
// same time (a hop shares no fill with a check), the second answered 503,
// a limit the Client's own two requests tripped: the hop's 503 does not
// replace the 200 the check just fetched, nor defer down.test.
func TestHopFailureBesideOwnFetch(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	hopBesideCheck(t, w, c, c)
	if d, err := c.Check(context.Background(), "http://down.test/public"); err != nil || !d.Allowed || d.Status != 200 {
		t.Errorf("down.test after its own 200 and a concurrent hop's 503: %+v, %v; want its 200's rules", d, err)
	}
}

// TestHopStandInNotStored: processes P1 and P2 share a Store; P2 holds an
// older copy of down.test's robots.txt (Allow: /), which now disallows
// /private. P1's own check takes the lease and fetches it; P2's hop does
// not wait for the lease and fetches it at the same time, answered 503.
// P2 does not write the hop's failure, its old copy standing in, to the
// Store over P1's new rules, and keeps it only for the least freshness:
// P3, reading the Store, and P2 itself after that minute, disallow
// /private, as the file the server serves does.
func TestHopStandInNotStored(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	store := newMemStore()
	w := newHosts(t)
	w.on("down.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n", "Cache-Control", "max-age=3600"))
	process := func() *Client {
		return newTestClient(t, WithClock(clock.Now), WithStore(store), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	}
	p1, p2, p3 := process(), process(), process()
	if ok, err := p2.Allowed(context.Background(), "http://down.test/private"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	clock.Advance(2 * time.Hour)
	hopBesideCheck(t, w, p1, p2)
	clock.Advance(time.Minute) // the least freshness, for which P2 keeps its copy
	for i, p := range []*Client{p3, p2} {
		if d, err := p.Check(context.Background(), "http://down.test/private"); d.Allowed {
			t.Errorf("P%d, after P1 stored down.test's new Disallow: /private and P2's hop met a 503: %+v, %v; want disallowed", 3-i, d, err)
		}
	}
}

// TestHopStandInAnswers: a.test's robots.txt redirects to a file on
// b.test, whose robots.txt the hop must consult; b.test's, fetched an
// hour ago, now answers 503, and its last good copy stands in, as for a
// check of b.test: the hop is answered from it, and a.test's rules read.
func TestHopStandInAnswers(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	w := newHosts(t)
	w.on("b.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n", "Cache-Control", "max-age=60"))
	w.on("b.test/files/a-robots.txt", serve(200, "User-agent: *\nDisallow: /private\n"))
	w.on("a.test/robots.txt", redirectTo("http://b.test/files/a-robots.txt"))
	c := newTestClient(t, WithClock(clock.Now), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	ctx := context.Background()
	if ok, err := c.Allowed(ctx, "http://b.test/x"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	clock.Advance(time.Hour)
	w.on("b.test/robots.txt", serve(503, "down"))
	if d, err := c.Check(ctx, "http://a.test/public"); !d.Allowed || d.Outcome != OutcomeRules {
		t.Errorf("a.test/public: %+v, %v; want a.test's rules, read through the hop b.test's copy allows", d, err)
	}
	if d, err := c.Check(ctx, "http://b.test/x"); !d.Allowed || !d.Stale || w.count("http://b.test/robots.txt") != 2 {
		t.Errorf("b.test: %+v, %v, its robots.txt asked %d times; want its copy standing in, asked by the hop alone",
			d, err, w.count("http://b.test/robots.txt"))
	}
}

// noLeaseStore is a Store that hands out no leases, as boltstore's.
type noLeaseStore struct{ s *memStore }

func (n noLeaseStore) Get(ctx context.Context, key string) ([]byte, error) { return n.s.Get(ctx, key) }
func (n noLeaseStore) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	return n.s.Set(ctx, key, v, ttl)
}

// TestHopStandInAsksOnce: sites whose robots.txt redirects to a page of
// b.test, whose robots.txt, fetched an hour ago, now answers 503, its
// last good copy standing in: the first hop keeps that copy, under a
// Store without leases (as boltstore's) too, and the next redirecting
// sites ask b.test nothing (kept nowhere, it was asked once a site).
func TestHopStandInAsksOnce(t *testing.T) {
	for _, withStore := range []bool{false, true} {
		t.Run(fmt.Sprint("store=", withStore), func(t *testing.T) {
			checkLeaks(t)
			clock := newTestClock()
			w := newHosts(t)
			w.on("b.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n", "Cache-Control", "max-age=60"))
			w.on("b.test/files/a-robots.txt", serve(200, "User-agent: *\nDisallow: /private\n"))
			const sites = 5
			for i := range sites {
				w.on(fmt.Sprintf("site%d.test/robots.txt", i), redirectTo("http://b.test/files/a-robots.txt"))
			}
			opts := []Option{WithClock(clock.Now), WithHTTPClient(&http.Client{Transport: w.transport(t)})}
			if withStore {
				opts = append(opts, WithStore(noLeaseStore{newMemStore()}))
			}
			c := newTestClient(t, opts...)
			ctx := context.Background()
			if ok, err := c.Allowed(ctx, "http://b.test/x"); !ok || err != nil {
				t.Fatal(ok, err)
			}
			clock.Advance(time.Hour)
			w.on("b.test/robots.txt", serve(503, "down"))
			for i := range sites {
				if d, err := c.Check(ctx, fmt.Sprintf("http://site%d.test/public", i)); !d.Allowed || d.Outcome != OutcomeRules {
					t.Errorf("site%d.test/public: %+v, %v; want its rules", i, d, err)
				}
			}
			// One fetch before the outage, one by the first hop.
			if n := w.count("http://b.test/robots.txt"); n != 2 {
				t.Errorf("b.test's robots.txt asked %d times for %d sites redirecting there within its back-off; want 2 (once before the outage, once in it)", n, sites)
			}
		})
	}
}

// mustDefer checks that c defers page: its robots.txt's chain meets a
// failure.
func mustDefer(t *testing.T, c *Client, page string) {
	t.Helper()
	if d, err := c.Check(context.Background(), page); d.Allowed || !errors.Is(err, ErrDeferred) {
		t.Fatalf("%s: %+v, %v; want deferred", page, d, err)
	}
}

// chainAsks checks that c allows page, whose robots.txt redirects on to
// robots, asking one of them again: no failure kept before answers for
// the site, which answered since.
func chainAsks(t *testing.T, c *Client, w *hosts, page string, robots ...string) {
	t.Helper()
	count := func() (n int) {
		for _, r := range robots {
			n += w.count(r)
		}
		return n
	}
	asked := count()
	if d, err := c.Check(context.Background(), page); !d.Allowed || err != nil {
		t.Errorf("%s: Allowed=%v Failures=%d Status=%d, %v; want allowed", page, d.Allowed, d.Failures, d.Status, err)
	}
	if count() == asked {
		t.Errorf("%s: %v not asked again; a failure kept before answered for the site", page, robots)
	}
}

// TestHopFailureCountedOnce: s0.test's robots.txt redirects to
// down.test's, which redirects once to itself (as a server may, to
// answer the next time) and then answers 502: one fetch, one failure,
// kept for down.test with the base back-off, though the chain passed
// down.test twice.
func TestHopFailureCountedOnce(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var asked atomic.Int32
	w.on("down.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if asked.Add(1) == 1 {
			http.Redirect(rw, r, "http://down.test/robots.txt", http.StatusFound)
			return
		}
		rw.WriteHeader(http.StatusBadGateway)
	})
	w.on("s0.test/robots.txt", redirectTo("http://down.test/robots.txt"))
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	mustDefer(t, c, "http://s0.test/page")
	keptOnce(t, c, "http://down.test:80")
}

// keptOnce checks that c keeps, for the chains redirected to authority's
// robots.txt, one failure, for the base back-off (a 502 naming no time).
func keptOnce(t *testing.T, c *Client, authority string) {
	t.Helper()
	e, ok := c.hopFailed.Peek(authority)
	switch {
	case !ok:
		t.Fatalf("no failure kept for %s", authority)
	case e.failures != 1:
		t.Errorf("%s's kept failure counts %d failures; want 1", authority, e.failures)
	case e.expires.time().Sub(e.checked.time()) > defaultBackoff:
		t.Errorf("%s's kept failure lasts %v; want the base back-off %v", authority, e.expires.time().Sub(e.checked.time()), defaultBackoff)
	}
}

// TestHopFailureCountedOnceConcurrently: 6 sites checked at once each
// redirect their robots.txt to down.test's, which answers each a 502 (no
// Retry-After): each fetch under way at once sends its request, but one
// outage is one failure for down.test, as its own concurrent checks (one
// fill) would keep, not 6, whose back-off would reach an hour.
func TestHopFailureCountedOnceConcurrently(t *testing.T) {
	checkLeaks(t)
	const sites = 6
	w := newHosts(t)
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	turn := make(chan struct{}, 1)
	turn <- struct{}{}
	w.on("down.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if arrived++; arrived == sites {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
		case <-time.After(5 * time.Second):
		}
		// One answer at a time, apart, so that each chain keeps its
		// failure before the next answer.
		<-turn
		rw.WriteHeader(http.StatusBadGateway)
		go func() { time.Sleep(100 * time.Millisecond); turn <- struct{}{} }()
	})
	for i := range sites {
		w.on(fmt.Sprintf("s%d.test/robots.txt", i), redirectTo("http://down.test/robots.txt"))
	}
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	var wg sync.WaitGroup
	for i := range sites {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if d, err := c.Check(context.Background(), fmt.Sprintf("http://s%d.test/page", i)); d.Allowed || !errors.Is(err, ErrDeferred) {
				t.Errorf("s%d.test: %+v, %v; want deferred", i, d, err)
			}
		}()
	}
	wg.Wait()
	time.Sleep(150 * time.Millisecond) // the last turn's goroutine
	keptOnce(t, c, "http://down.test:80")
}

// TestHopFailureLeavesOwnChecksToStore: two processes share a Store.
// down.test answers a 503 (Retry-After: 3600) to process 1's fetch of
// s0.test's robots.txt, redirected there, when the Store held no copy of
// down.test's: the failure keeps the chains redirected there from
// asking. Process 2 then reads down.test's rules, back for a moment, and
// stores them: process 1's own check of down.test answers from the
// Store's copy, as a third process does, and so does one whose Store
// lookup was under way as the chain kept the failure.
func TestHopFailureLeavesOwnChecksToStore(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var down atomic.Bool
	down.Store(true)
	w.on("down.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if down.Load() {
			serve(http.StatusServiceUnavailable, "down", "Retry-After", "3600")(rw, r)
			return
		}
		serve(200, "User-agent: *\nDisallow: /private\n", "Cache-Control", "max-age=86400")(rw, r)
	})
	w.on("s0.test/robots.txt", redirectTo("http://down.test/robots.txt"))
	w.on("s1.test/robots.txt", redirectTo("http://down.test/robots.txt"))
	st := newMemStore()
	g := &gateStore{memStore: st, entered: make(chan struct{}), open: make(chan struct{})}
	g.gated.Store(true)
	c1 := newTestClient(t, WithStore(g), WithStoreTimeout(5*time.Second), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	type result struct {
		d   Decision
		err error
	}
	got := make(chan result, 1)
	ctx := context.Background()
	go func() {
		d, err := c1.Check(ctx, "http://down.test/x")
		got <- result{d, err}
	}()
	<-g.entered // down.test's own check, looking in the Store
	for _, site := range []string{"s0", "s1"} {
		if d, err := c1.Check(ctx, "http://"+site+".test/page"); d.Allowed || !errors.Is(err, ErrDeferred) {
			t.Fatalf("process 1, %s.test: %+v, %v; want deferred", site, d, err)
		}
	}
	if asked := w.count("http://down.test/robots.txt"); asked != 1 {
		t.Errorf("down.test's robots.txt asked %d times; want once (s0.test's chain)", asked)
	}
	down.Store(false)
	c2 := newTestClient(t, WithStore(st), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	if d, err := c2.Check(ctx, "http://down.test/x"); !d.Allowed || err != nil {
		t.Fatalf("process 2, down.test: %+v, %v; want allowed", d, err)
	}
	down.Store(true)
	close(g.open)
	if r := <-got; !r.d.Allowed || r.err != nil {
		t.Errorf("process 1, down.test, its Store lookup under way: Allowed=%v Failures=%d Status=%d, %v; want allowed from the Store's copy",
			r.d.Allowed, r.d.Failures, r.d.Status, r.err)
	}
	for name, c := range map[string]*Client{"process 1": c1, "process 3": newTestClient(t, WithStore(st), WithHTTPClient(&http.Client{Transport: w.transport(t)}))} {
		if d, err := c.Check(ctx, "http://down.test/y"); !d.Allowed || err != nil {
			t.Errorf("%s, down.test: %+v, %v; want allowed from the Store's copy", name, d, err)
		}
	}
	if asked := w.count("http://down.test/robots.txt"); asked != 2 {
		t.Errorf("down.test's robots.txt asked %d times; want twice (s0.test's chain, process 2)", asked)
	}
}

// gateStore is a memStore whose first Get of a key naming down.test
// tells entered and waits for open (within the Store timeout).
type gateStore struct {
	*memStore
	entered chan struct{}
	open    chan struct{}
	gated   atomic.Bool
}

func (g *gateStore) Get(ctx context.Context, key string) ([]byte, error) {
	if strings.Contains(key, "down.test") && g.gated.CompareAndSwap(true, false) {
		close(g.entered)
		select {
		case <-g.open:
		case <-ctx.Done():
		}
	}
	return g.memStore.Get(ctx, key)
}

// TestHopFailureKeptForItsBackoff: sites checked 2 minutes apart redirect
// their robots.txt to down.test's, which fails throughout: with a 500
// asking an hour (Retry-After: 3600), down.test is asked once in the 16
// minutes; with a 502, as often as its back-off (1, 2, 4, 8, 16 min)
// allows in 32 minutes; with a Store as without.
func TestHopFailureKeptForItsBackoff(t *testing.T) {
	for _, c := range []struct {
		status     int
		retryAfter string
		sites      int
		apart      time.Duration
		most       int
	}{
		{500, "3600", 8, 2 * time.Minute, 1},
		{502, "", 16, 2*time.Minute + time.Second, 6},
	} {
		for _, withStore := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d/store=%v", c.status, withStore), func(t *testing.T) {
				checkLeaks(t)
				w := newHosts(t)
				w.on("down.test/robots.txt", serve(c.status, "down", "Retry-After", c.retryAfter))
				for i := range c.sites {
					w.on(fmt.Sprintf("s%d.test/robots.txt", i), redirectTo("http://down.test/robots.txt"))
				}
				var clock atomic.Int64
				clock.Store(time.Now().UnixNano())
				now := func() time.Time { return time.Unix(0, clock.Load()) }
				opts := []Option{WithClock(now), WithHTTPClient(&http.Client{Transport: w.transport(t)})}
				if withStore {
					opts = append(opts, WithStore(newMemStore()))
				}
				cl := newTestClient(t, opts...)
				for i := range c.sites {
					if d, err := cl.Check(context.Background(), fmt.Sprintf("http://s%d.test/page", i)); d.Allowed || !errors.Is(err, ErrDeferred) {
						t.Errorf("s%d.test: %+v, %v; want deferred", i, d, err)
					}
					clock.Add(int64(c.apart))
				}
				if asked := w.count("http://down.test/robots.txt"); asked > c.most {
					t.Errorf("down.test's robots.txt asked %d times by %d sites redirecting there %v apart; want at most %d", asked, c.sites, c.apart, c.most)
				}
			})
		}
	}
}

// TestHopCutNotKeptAsFailure: with a WithStatusPolicy that reads a 500's
// body as the file, s0.test's robots.txt takes most of the fetch timeout
// to redirect to down.test's, whose 500 with rules arrives slower than
// the time the chain has left: the chain's deadline cuts the body, a
// failure of the chain's doing, kept for none; down.test's own check
// reads its file.
func TestHopCutNotKeptAsFailure(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("s0.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		time.Sleep(1500 * time.Millisecond)
		redirectTo("http://down.test/robots.txt")(rw, r)
	})
	w.on("down.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		rw.WriteHeader(http.StatusInternalServerError)
		_, _ = rw.Write([]byte("User-agent: *\n"))
		rw.(http.Flusher).Flush()
		time.Sleep(time.Second)
		_, _ = rw.Write([]byte("Disallow: /private\n"))
	})
	policy := func(status int) Outcome {
		if status == http.StatusInternalServerError {
			return OutcomeRules
		}
		return defaultStatusPolicy(status)
	}
	c := newTestClient(t, WithStatusPolicy(policy), WithFetchTimeout(2*time.Second),
		WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	ctx := context.Background()
	mustDefer(t, c, "http://s0.test/page")
	if d, err := c.Check(ctx, "http://down.test/x"); !d.Allowed || err != nil {
		t.Errorf("down.test's own check: Allowed=%v Failures=%d Status=%d, %v; want allowed: its own fetch reads its file within the timeout (asked %d times)",
			d.Allowed, d.Failures, d.Status, err, w.count("http://down.test/robots.txt"))
	}
}

// recovers has down.test recover past the back-off of a failure a chain
// met: two minutes later up is set, and down.test's own check reads its
// rules.
func recovers(t *testing.T, c *Client, clock *testClock, up *atomic.Bool) {
	t.Helper()
	clock.Advance(2 * time.Minute)
	up.Store(true)
	if d, err := c.Check(context.Background(), "http://down.test/page"); !d.Allowed || err != nil {
		t.Fatalf("down.test's own check after it recovered: %+v, %v; want allowed", d, err)
	}
}

// downSite routes down.test's robots.txt to flipSite (Disallow:
// /private), s0.test's and s1.test's to redirects there, and o0.test's to
// o2.test's to rules of their own (checked to move others out of a
// small cache).
func downSite(w *hosts, up *atomic.Bool) {
	w.on("down.test/robots.txt", flipSite(up, "User-agent: *\nDisallow: /private\n"))
	w.on("s0.test/robots.txt", redirectTo("http://down.test/robots.txt"))
	w.on("s1.test/robots.txt", redirectTo("http://down.test/robots.txt"))
	for i := range 3 {
		w.on(fmt.Sprintf("o%d.test/robots.txt", i), serve(200, "User-agent: *\nDisallow: /x\n"))
	}
}

// flipSite answers 200 with rules (max-age=60) while up, else 500 with
// Retry-After: 3600.
func flipSite(up *atomic.Bool, rules string) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		if up.Load() {
			serve(200, rules, "Cache-Control", "max-age=60")(rw, r)
			return
		}
		serve(500, "down", "Retry-After", "3600")(rw, r)
	}
}

// TestHopFailureEndsWithRecovery: down.test's 500 (Retry-After: 3600)
// met by s0.test's chain is kept for the chains; down.test then recovers,
// its own check fetching a 200 (max-age=60). Once that copy has expired,
// s1.test's robots.txt, redirected to down.test's, asks down.test, not
// deferred by the 500 it stopped sending.
func TestHopFailureEndsWithRecovery(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var up atomic.Bool
	downSite(w, &up)
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now), WithHTTPClient(&http.Client{Transport: w.transport(t)}))

	mustDefer(t, c, "http://s0.test/page")
	recovers(t, c, clock, &up)
	clock.Advance(2 * time.Minute) // down.test's copy (max-age=60) has expired
	chainAsks(t, c, w, "http://s1.test/page", "http://down.test/robots.txt")
}

// TestHopFailureGivesWayToGoodCopy: as above, but down.test's good copy
// is current, one a chain may not take (reached through 10 redirects
// within down.test, which WithMaxRedirects(12) allows, past the redirects
// an entry keeps): the chain asks down.test, not deferred by the kept 500
// its newer copy ended.
func TestHopFailureGivesWayToGoodCopy(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var up atomic.Bool
	w.on("down.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if up.Load() {
			redirectTo("http://down.test/a1")(rw, r)
			return
		}
		serve(500, "down", "Retry-After", "3600")(rw, r)
	})
	for i := 1; i < 10; i++ {
		w.on(fmt.Sprintf("down.test/a%d", i), redirectTo(fmt.Sprintf("http://down.test/a%d", i+1)))
	}
	w.on("down.test/a10", serve(200, "User-agent: *\nDisallow: /private\n"))
	w.on("s0.test/robots.txt", redirectTo("http://down.test/robots.txt"))
	w.on("s1.test/robots.txt", redirectTo("http://down.test/robots.txt"))
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now), WithMaxRedirects(12), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	ctx := context.Background()

	mustDefer(t, c, "http://s0.test/page")
	recovers(t, c, clock, &up)
	d, err := c.Check(ctx, "http://s1.test/page")
	if !d.Allowed || err != nil {
		t.Errorf("s1.test, with down.test's fresh good copy in the cache: Allowed=%v Failures=%d Status=%d, %v; "+
			"want allowed, not deferred for a 500 down.test no longer sends", d.Allowed, d.Failures, d.Status, err)
	}
}

// TestHopFailureKeepsNoRules: a site whose good copy the cache held
// fails for a chain: the failure kept for the chains holds no body and
// no rules (a stand-in copy kept there would sit outside the cache's
// byte budget, read by no chain).
func TestHopFailureKeepsNoRules(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var up atomic.Bool
	up.Store(true)
	w.on("x.test/robots.txt", flipSite(&up, "User-agent: *\n"+strings.Repeat("Disallow: /private/a\n", 4096)))
	w.on("s.test/robots.txt", redirectTo("http://x.test/robots.txt"))
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	ctx := context.Background()
	if d, err := c.Check(ctx, "http://x.test/page"); !d.Allowed || err != nil {
		t.Fatalf("x.test: %+v, %v", d, err)
	}
	clock.Advance(61 * time.Second)
	up.Store(false)
	mustDefer(t, c, "http://s.test/page")
	e, ok := c.hopFailed.Peek("http://x.test:80")
	if !ok || e.failures == 0 || len(e.body) != 0 || e.rules.Load() != nil || e.cost() > 4<<10 {
		t.Errorf("kept for x.test: %v, failures %d, body %d bytes, rules %v, cost %d; want a failure of no rules", ok, e.failures, len(e.body), e.rules.Load() != nil, e.cost())
	}
}

// TestHopFailureCountAfterRecovery: down.test fails (502) for a chain,
// recovers (a chain is allowed from its 200), and its good entry then
// leaves the cache (WithCacheSize(2), other sites checked). Its next
// outage is a new one: one failure, the base back-off (1 minute), after
// which the next chain asks it.
func TestHopFailureCountAfterRecovery(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var up atomic.Bool
	w.on("down.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if up.Load() {
			serve(200, "User-agent: *\nDisallow: /private\n", "Cache-Control", "max-age=60")(rw, r)
			return
		}
		serve(502, "down")(rw, r)
	})
	for i := range 4 {
		w.on(fmt.Sprintf("s%d.test/robots.txt", i), redirectTo("http://down.test/robots.txt"))
	}
	for i := range 3 {
		w.on(fmt.Sprintf("o%d.test/robots.txt", i), serve(200, "User-agent: *\nDisallow: /x\n"))
	}
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now), WithCacheSize(2), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	ctx := context.Background()
	mustDefer(t, c, "http://s0.test/page")
	clock.Advance(5 * time.Minute)
	up.Store(true)
	if d, err := c.Check(ctx, "http://s1.test/page"); !d.Allowed || err != nil {
		t.Fatalf("s1.test, down.test recovered: %+v, %v; want allowed", d, err)
	}
	for i := range 3 { // down.test's good entry leaves the cache (size 2)
		if _, err := c.Check(ctx, fmt.Sprintf("http://o%d.test/page", i)); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(5 * time.Minute)
	up.Store(false)
	asked := w.count("http://down.test/robots.txt")
	d, err := c.Check(ctx, "http://s2.test/page")
	if d.Allowed || !errors.Is(err, ErrDeferred) {
		t.Fatalf("s2.test, second outage: %+v, %v; want deferred", d, err)
	}
	if w.count("http://down.test/robots.txt") != asked+1 {
		t.Fatalf("down.test not asked by s2.test's chain")
	}
	if e, ok := c.hopFailed.Peek("http://down.test:80"); !ok {
		t.Errorf("no failure kept for down.test's new outage")
	} else if e.failures != 1 {
		t.Errorf("down.test's kept failure counts %d failures, the first of a new outage (it answered 200 in between); want 1", e.failures)
	}
	clock.Advance(time.Minute + time.Second) // past the base back-off
	asked = w.count("http://down.test/robots.txt")
	_, _ = c.Check(ctx, "http://s3.test/page")
	if w.count("http://down.test/robots.txt") == asked {
		t.Errorf("s3.test's chain, 61s into down.test's new outage (502, base back-off 1m), did not ask down.test: the old outage's failures carried over")
	}
}

// TestHopFailureAfterNewerOwnFailure: down.test answers s0.test's chain
// a 500 (Retry-After: 3600), kept for the chains; 10 s later its own
// check fetches a 502 (back-off 1 min), its latest word. Once that minute
// has passed, the next chain asks down.test, gets a 502, and keeps it:
// the chains after it ask nothing.
func TestHopFailureAfterNewerOwnFailure(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var asked atomic.Int32
	w.on("down.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if asked.Add(1) == 1 {
			serve(500, "down", "Retry-After", "3600")(rw, r)
			return
		}
		serve(502, "down")(rw, r)
	})
	const sites = 5
	for i := range sites {
		w.on(fmt.Sprintf("s%d.test/robots.txt", i), redirectTo("http://down.test/robots.txt"))
	}
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	ctx := context.Background()
	mustDefer(t, c, "http://s0.test/page")
	clock.Advance(10 * time.Second)
	mustDefer(t, c, "http://down.test/page")
	clock.Advance(2 * time.Minute) // past the own 502's back-off (1 min), within the kept 500's hour
	before := w.count("http://down.test/robots.txt")
	for i := 1; i < sites; i++ {
		if d, err := c.Check(ctx, fmt.Sprintf("http://s%d.test/page", i)); d.Allowed || !errors.Is(err, ErrDeferred) {
			t.Errorf("s%d.test: %+v, %v; want deferred", i, d, err)
		}
	}
	if got := w.count("http://down.test/robots.txt") - before; got > 1 {
		t.Errorf("down.test's robots.txt, failing throughout, asked %d times by %d sites redirecting there within a minute; want at most once (the first, whose 502 defers the rest)",
			got, sites-1)
	}
}

// TestHopFailureEndsWithStoredRecovery: process 1 keeps down.test's 500
// (Retry-After: 3600) for the chains; down.test recovers, process 2
// stores its 200, and process 1's own check answers from that copy. The
// kept failure is over: once down.test's entry has left process 1's
// memory (WithCacheSize(2)), s1.test's chain is not deferred by it.
func TestHopFailureEndsWithStoredRecovery(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var up atomic.Bool
	downSite(w, &up)
	clock := newTestClock()
	st := newMemStore()
	c1 := newTestClient(t, WithClock(clock.Now), WithStore(st), WithCacheSize(2), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	c2 := newTestClient(t, WithClock(clock.Now), WithStore(st), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	ctx := context.Background()
	if d, err := c1.Check(ctx, "http://s0.test/page"); d.Allowed || !errors.Is(err, ErrDeferred) {
		t.Fatalf("process 1, s0.test while down.test fails: %+v, %v; want deferred", d, err)
	}
	clock.Advance(2 * time.Minute)
	up.Store(true)
	if d, err := c2.Check(ctx, "http://down.test/page"); !d.Allowed || err != nil {
		t.Fatalf("process 2, down.test recovered: %+v, %v; want allowed", d, err)
	}
	asked := w.count("http://down.test/robots.txt")
	if d, err := c1.Check(ctx, "http://down.test/page"); !d.Allowed || err != nil || w.count("http://down.test/robots.txt") != asked {
		t.Fatalf("process 1, down.test: %+v, %v; want allowed from the Store's copy", d, err)
	}
	for i := range 3 { // down.test's entry leaves process 1's memory
		if _, err := c1.Check(ctx, fmt.Sprintf("http://o%d.test/page", i)); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(5 * time.Second) // the Store's copy (max-age=60) is still fresh
	if d, err := c1.Check(ctx, "http://s1.test/page"); !d.Allowed || err != nil {
		t.Errorf("process 1, s1.test (robots.txt -> down.test/robots.txt, whose 200 process 1 read from the Store 5 s ago): Allowed=%v Failures=%d Status=%d, %v; want allowed, not deferred by the 500 kept before down.test recovered",
			d.Allowed, d.Failures, d.Status, err)
	}
}

// TestHopFailureEndsWithTwinsRecovery: down.test's robots.txt moves to
// www.down.test's (its twin), which answers s0.test's chain a 500
// (Retry-After: 3600), kept for both. down.test's own check, following
// the same redirect, reads a 200 from www.down.test: the failure kept for
// www.down.test is over too, and s1.test's robots.txt, redirected there,
// asks it.
func TestHopFailureEndsWithTwinsRecovery(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var up atomic.Bool
	w.on("down.test/robots.txt", redirectTo("http://www.down.test/robots.txt"))
	w.on("www.down.test/robots.txt", flipSite(&up, "User-agent: *\nDisallow: /private\n"))
	w.on("s0.test/robots.txt", redirectTo("http://down.test/robots.txt"))
	w.on("s1.test/robots.txt", redirectTo("http://www.down.test/robots.txt"))
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	mustDefer(t, c, "http://s0.test/page")
	recovers(t, c, clock, &up)
	chainAsks(t, c, w, "http://s1.test/page", "http://www.down.test/robots.txt")
}

// TestHopFailureEndsForEveryTwin: down.test's robots.txt moves to
// http://www.down.test/robots.txt, which moves on to its https twin, and
// that answers s0.test's chain a 500 (Retry-After: 3600), kept for the
// three authorities the chain passed. down.test recovers: its own check,
// following the same redirects, reads a 200. The failure kept for each
// of the three is over: s1.test, whose robots.txt redirects to the twin
// in the middle, asks it.
func TestHopFailureEndsForEveryTwin(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var up atomic.Bool
	w.on("down.test/robots.txt", redirectTo("http://www.down.test/robots.txt"))
	www := flipSite(&up, "User-agent: *\nDisallow: /private\n")
	w.on("www.down.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if r.TLS == nil {
			http.Redirect(rw, r, "https://www.down.test/robots.txt", http.StatusMovedPermanently)
			return
		}
		www(rw, r)
	})
	w.on("s0.test/robots.txt", redirectTo("http://down.test/robots.txt"))
	w.on("s1.test/robots.txt", redirectTo("http://www.down.test/robots.txt"))
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	mustDefer(t, c, "http://s0.test/page")
	for _, a := range []string{"http://down.test:80", "http://www.down.test:80", "https://www.down.test:443"} {
		if _, ok := c.hopFailed.Peek(a); !ok {
			t.Fatalf("no failure kept for %s, which the chain passed", a)
		}
	}
	recovers(t, c, clock, &up)
	chainAsks(t, c, w, "http://s1.test/page", "http://www.down.test/robots.txt", "https://www.down.test/robots.txt")
}

// gateHandler is a slog.Handler that, the first time a record with
// message msg and attribute authority == auth is handled, signals
// reached and waits for release.
type gateHandler struct {
	msg, auth string
	once      sync.Once
	reached   chan struct{}
	release   chan struct{}
}

func (g *gateHandler) Enabled(context.Context, slog.Level) bool { return true }
func (g *gateHandler) WithAttrs([]slog.Attr) slog.Handler       { return g }
func (g *gateHandler) WithGroup(string) slog.Handler            { return g }
func (g *gateHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message != g.msg {
		return nil
	}
	match := false
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "authority" && a.Value.String() == g.auth {
			match = true
			return false
		}
		return true
	})
	if match {
		g.once.Do(func() {
			close(g.reached)
			<-g.release
		})
	}
	return nil
}

// TestHopFailureKeptBehindNewerAnswer: s0.test's chain meets down.test's
// 500 (Retry-After: 3600); before the chain keeps it (held at the Warn it
// logs on the way), down.test's own check publishes its 200, a second
// later. The older 500 is not kept over that answer: once down.test's
// entry has left memory (WithCacheSize(2)), s1.test, redirected there,
// asks down.test.
func TestHopFailureKeptBehindNewerAnswer(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var up atomic.Bool
	downSite(w, &up)
	gate := &gateHandler{msg: "robots.txt unreachable", auth: "http://down.test:80", reached: make(chan struct{}), release: make(chan struct{})}
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now), WithCacheSize(2), WithLogger(slog.New(gate)),
		WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	ctx := context.Background()

	chain := make(chan error, 1)
	go func() {
		_, err := c.Check(ctx, "http://s0.test/page")
		chain <- err
	}()
	select {
	case <-gate.reached: // the chain has its 500, and is about to keep it
	case err := <-chain:
		t.Fatalf("s0.test's chain ended before keeping down.test's failure: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("s0.test's chain never met down.test's 500")
	}
	clock.Advance(time.Second)
	up.Store(true)
	if d, err := c.Check(ctx, "http://down.test/page"); !d.Allowed || err != nil {
		close(gate.release)
		t.Fatalf("down.test's own check, a second after the chain's 500: %+v, %v; want allowed", d, err)
	}
	close(gate.release)
	if err := <-chain; !errors.Is(err, ErrDeferred) {
		t.Fatalf("s0.test: %v; want deferred", err)
	}
	if e := c.failing("http://down.test:80"); e != nil {
		t.Fatalf("down.test failing while its newer 200 is in memory: %+v", e)
	}
	for i := range 3 { // down.test's entry leaves memory
		if _, err := c.Check(ctx, fmt.Sprintf("http://o%d.test/page", i)); err != nil {
			t.Fatal(err)
		}
	}
	if e := c.robots.cache.peek("http://down.test:80"); e != nil {
		t.Fatalf("down.test's entry still in memory: %+v", e)
	}
	clock.Advance(5 * time.Second)
	chainAsks(t, c, w, "http://s1.test/page", "http://down.test/robots.txt")
}

// failingPacer is the in-process pacer but while fail is set, when Take
// fails as a Store that does not answer does.
type failingPacer struct {
	*memPacer
	fail atomic.Bool
}

func (p *failingPacer) Take(ctx context.Context, authority string, interval time.Duration) (uint64, time.Duration, error) {
	if p.fail.Load() {
		return 0, 0, errors.New("store: no answer")
	}
	return p.memPacer.Take(ctx, authority, interval)
}

// TestHopPacedInProcessWhenPacerFails: a site whose robots.txt redirects
// to another site's robots.txt, or to a page of another site, at which
// the Pacer fails (a Store's stall), is read: the hop is paced in the
// process. The failure was kept as the site's own, a minute's back-off,
// and written to a Store, where it deferred the fleet (redis6). The hops
// of many checks are still paced, one turn a Crawl-delay.
func TestHopPacedInProcessWhenPacerFails(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", redirectTo("http://b.test/robots.txt"))
	w.on("b.test/robots.txt", serve(200, "User-agent: *\nDisallow: /private\n"))
	w.on("c.test/robots.txt", redirectTo("http://d.test/rules"))
	w.on("d.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("d.test/rules", serve(200, "User-agent: *\nDisallow: /private\n"))
	p := &failingPacer{memPacer: newMemPacer()}
	p.fail.Store(true)
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	NewTransport(c, w.transport(t), WithPacer(p)) // the hops' pacer
	for _, site := range []string{"a.test", "c.test"} {
		for path, want := range map[string]bool{"/x": true, "/private": false} {
			if d, err := c.Check(t.Context(), "http://"+site+path); err != nil || d.Allowed != want {
				t.Errorf("the Pacer failing at %s's hop, %s: %+v, %v; want allowed %v, the rules it redirects to", site, path, d, err, want)
			}
		}
	}
}

// TestHopTakesTheStoresCopy: Q read s.test's robots.txt and stored it.
// P, a fresh process of the same Store, checks ten sites at once whose
// robots.txt redirect there: each hop takes the Store's copy, as P's own
// check of s.test would, and asks s.test nothing (each asked it, nine
// times inside the Crawl-delay of 5 s it had stored: hops82). When what
// Q stored is s.test's failure (503, Retry-After: 3600), P's hops do not
// ask it either, and defer.
func TestHopTakesTheStoresCopy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer http.HandlerFunc
		want   func(d Decision, err error) bool
	}{
		{"a copy", serve(200, "User-agent: *\nCrawl-delay: 5\nDisallow: /private\n", "Cache-Control", "max-age=3600"),
			func(d Decision, err error) bool { return d.Allowed && err == nil && d.CrawlDelay == 5*time.Second }},
		{"a failure", serve(http.StatusServiceUnavailable, "", "Retry-After", "3600"),
			func(d Decision, err error) bool { return !d.Allowed && errors.Is(err, ErrDeferred) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			w := newHosts(t)
			w.on("s.test/robots.txt", tc.answer)
			const sites = 10
			for i := range sites {
				w.on(fmt.Sprintf("r%d.test/robots.txt", i), redirectTo("http://s.test/robots.txt"))
			}
			store := newMemStore()
			opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithStore(store)}
			ctx := context.Background()
			if d, err := newTestClient(t, opts...).Check(ctx, "http://s.test/page"); !tc.want(d, err) {
				t.Fatalf("Q, s.test: %+v, %v", d, err)
			}
			p := newTestClient(t, opts...)
			var wg sync.WaitGroup
			for i := range sites {
				wg.Go(func() {
					if d, err := p.Check(ctx, fmt.Sprintf("http://r%d.test/page", i)); !tc.want(d, err) {
						t.Errorf("P, r%d.test: allowed %v, crawl-delay %v, %v", i, d.Allowed, d.CrawlDelay, err)
					}
				})
			}
			wg.Wait()
			if n := w.count("http://s.test/robots.txt"); n != 1 {
				t.Errorf("s.test's robots.txt asked %d times; want once (Q's check), P's hops taking what Q stored", n)
			}
		})
	}
}

// TestHopLetsItsOwnCopyStandIn: P holds s.test's robots.txt, expired;
// the Store lost it (a restarted Redis), and Q, s.test down (503,
// Retry-After: 3600), stored its failure: a copy of older rules standing
// in, or, with none of its own, the bare failure. P's own check of
// s.test lets P's copy stand in; a hop of P's to s.test's robots.txt
// published the Store's entry over it (store83): the older rules allowed
// /private, which P's newer copy disallows, or the bare failure deferred
// s.test for the hour. The hop keeps what P's own check would.
func TestHopLetsItsOwnCopyStandIn(t *testing.T) {
	const older, newer = "User-agent: *\nDisallow:\n", "User-agent: *\nDisallow: /private\n"
	for _, qHasCopy := range []bool{true, false} {
		name := "a stand-in of older rules"
		if !qHasCopy {
			name = "a bare failure"
		}
		t.Run(name, func(t *testing.T) {
			checkLeaks(t)
			w := newHosts(t)
			var answer atomic.Value
			answer.Store(serve(200, older, "Cache-Control", "max-age=3600"))
			w.on("s.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) { answer.Load().(http.HandlerFunc)(rw, r) })
			w.on("r.test/robots.txt", redirectTo("http://s.test/robots.txt"))
			store, clock := newMemStore(), newTestClock()
			opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithStore(store), WithClock(clock.Now)}
			ctx := context.Background()
			q, p := newTestClient(t, opts...), newTestClient(t, opts...)
			if qHasCopy {
				if d, err := q.Check(ctx, "http://s.test/private"); !d.Allowed || err != nil {
					t.Fatalf("Q, the older rules: %+v, %v", d, err)
				}
			}
			clock.Advance(2 * time.Hour)
			answer.Store(serve(200, newer, "Cache-Control", "max-age=3600"))
			if d, err := p.Check(ctx, "http://s.test/private"); d.Allowed || err != nil {
				t.Fatalf("P, the newer rules: %+v, %v", d, err)
			}
			store.clearValues()
			clock.Advance(2 * time.Hour)
			answer.Store(serve(http.StatusServiceUnavailable, "", "Retry-After", "3600"))
			if d, err := q.Check(ctx, "http://s.test/private"); d.Stale != qHasCopy || d.Deferred == qHasCopy {
				t.Fatalf("Q, s.test down: %+v, %v", d, err)
			}
			clock.Advance(time.Minute)
			if d, err := p.Check(ctx, "http://r.test/x"); !errors.Is(err, ErrDeferred) {
				t.Fatalf("P, r.test: %+v, %v; want deferred, s.test down", d, err)
			}
			d, err := p.Check(ctx, "http://s.test/private")
			if d.Allowed || !d.Stale || err != nil {
				t.Errorf("P, s.test/private after the hop: allowed %v, stale %v, fetched %v, %v; want disallowed by P's own copy (Disallow: /private) standing in",
					d.Allowed, d.Stale, d.FetchedAt, err)
			}
		})
	}
}

// TestHopStoreReadLeavesTheFetchItsTime: with a Store that hangs, a
// check of a site whose robots.txt redirects to another site's is
// answered, as one whose robots.txt is served directly: the hop's look in
// the Store took the fetch's whole time, and the site was deferred, with
// a Store timeout as long as the fetch timeout (store83), or one of no
// end, which overflowed the bound (review137).
func TestHopStoreReadLeavesTheFetchItsTime(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		store   func() Store
	}{
		{"as long as the fetch's", 300 * time.Millisecond, func() Store {
			m := newMemStore()
			m.hang()
			t.Cleanup(func() { _ = m.release() })
			return m
		}},
		{"of no end", math.MaxInt64, func() Store { return hangingKeyStore{newMemStore(), "//s.test"} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			w := newHosts(t)
			w.on("s.test/robots.txt", serve(200, privateRules))
			w.on("r.test/robots.txt", redirectTo("http://s.test/robots.txt"))
			c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithStore(tc.store()),
				WithStoreTimeout(tc.timeout), WithFetchTimeout(300*time.Millisecond))
			if d, err := c.Check(context.Background(), "http://r.test/page"); !d.Allowed || err != nil {
				t.Errorf("r.test, redirected to s.test's robots.txt, with the Store hanging: %+v, %v; want allowed", d, err)
			}
		})
	}
}

// hangingKeyStore is a memStore whose Gets of a key holding match hang
// until their context ends.
type hangingKeyStore struct {
	*memStore
	match string
}

func (s hangingKeyStore) Get(ctx context.Context, key string) ([]byte, error) {
	if strings.Contains(key, s.match) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return s.memStore.Get(ctx, key)
}

// TestChainCopyKeepsANewerHopFailure: a.test's robots.txt is
// where w.test's, x.test's and y.test's redirect. Q read w.test's (by
// way of a.test, fresh for the hour) and stored it; P took it from the
// Store, so P holds w.test's copy, whose redirects name a.test's
// robots.txt, and no copy of a.test's own. Then the Store loses its
// values, and a.test fails (500, Retry-After: 3600): P's check of x.test
// meets it and keeps the failure for the robots.txt files redirected
// there, for its back-off. A minute
// later P's check of h.test, whose robots.txt redirects to w.test's,
// takes P's copy of w.test's (res.theirs, no request to a.test) and
// publishes it as h.test's, now stamped checked at the chain's read:
// answered() took that for an answer of a.test's newer than its
// failure and forgot the failure, though a.test was not asked (review76):
// P's check of y.test then asked a.test again within its back-off. The
// sites a copy's redirects name count as answering when it was fetched.
func TestChainCopyKeepsANewerHopFailure(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var down atomic.Bool
	w.on("a.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if down.Load() {
			serve(500, "", "Retry-After", "3600")(rw, r)
			return
		}
		serve(200, privateRules, "Cache-Control", "max-age=3600")(rw, r)
	})
	w.on("w.test/robots.txt", redirectTo("http://a.test/robots.txt"))
	w.on("x.test/robots.txt", redirectTo("http://a.test/robots.txt"))
	w.on("y.test/robots.txt", redirectTo("http://a.test/robots.txt"))
	w.on("h.test/robots.txt", redirectTo("http://w.test/robots.txt"))
	clock := newTestClock()
	store := newMemStore()
	opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithClock(clock.Now), WithStore(store)}
	q, p := newTestClient(t, opts...), newTestClient(t, opts...)
	ctx := context.Background()
	if d, err := q.Check(ctx, "http://w.test/private/x"); d.Allowed || err != nil {
		t.Fatalf("Q, w.test: %+v %v", d, err)
	}
	clock.Advance(time.Second)
	if d, err := p.Check(ctx, "http://w.test/private/x"); d.Allowed || err != nil || p.Stats().Store.Hits == 0 {
		t.Fatalf("P, w.test from the Store: %+v %v %+v", d, err, p.Stats().Store)
	}
	asked := w.count("http://a.test/robots.txt")

	clock.Advance(time.Minute)
	down.Store(true)
	store.clearValues() // a restarted Redis: x.test's hop has no stored copy of a.test's to take
	dx, err := p.Check(ctx, "http://x.test/private/x")
	t.Logf("x.test: failures %d deferred %v, %v", dx.Failures, dx.Deferred, err)
	if n := w.count("http://a.test/robots.txt"); n != asked+1 {
		t.Fatalf("x.test's fetch asked a.test %d times", n-asked)
	}
	clock.Advance(time.Minute)
	if d, err := p.Check(ctx, "http://h.test/private/x"); d.Allowed || err != nil {
		t.Fatalf("h.test through w.test's copy: %+v %v", d, err)
	} else {
		t.Logf("h.test: fetched %v checked %v redirects %v", d.FetchedAt, d.CheckedAt, d.Redirects())
	}
	if n := w.count("http://a.test/robots.txt"); n != asked+1 {
		t.Fatalf("h.test's fetch asked a.test")
	}
	clock.Advance(time.Minute)
	dy, err := p.Check(ctx, "http://y.test/private/x")
	if n := w.count("http://a.test/robots.txt"); n != asked+1 {
		t.Errorf("a.test, down (500, Retry-After: 3600) since x.test's fetch 2 minutes earlier, was asked again by y.test's (%d requests since): "+
			"its failure was forgotten when h.test's chain published w.test's copy (fetched an hour's minutes before the failure, a.test not asked), stamped checked now; y.test: %+v %v",
			n-asked, dy.Failures, err)
	}
}

// dottedElsewhere returns w's transport, but one that dials "a.test."
// (a.test with a final dot, which a resolver's search list may take to
// another server) to other, and a count of those dials.
func dottedElsewhere(t *testing.T, w *hosts, other *httptest.Server) (*http.Transport, *atomic.Int32) {
	tr := w.transport(t)
	dial := tr.DialContext
	var d net.Dialer
	dotted := new(atomic.Int32)
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if strings.HasPrefix(addr, "a.test.:") {
			dotted.Add(1)
			return d.DialContext(ctx, network, other.Listener.Addr().String())
		}
		return dial(ctx, network, addr)
	}
	return tr, dotted
}

// TestHopToDottedHostAsItsOwnFetch: a robots.txt redirect to
// http://a.test./robots.txt is fetched as a.test's own fetch is, dialling
// a.test: "a.test." may resolve to another server (here one that answers
// 503 with a Retry-After of an hour), whose answer, failure or hold was
// kept as a.test's own: its rules in a.test's place, a.test deferred, its
// pages held. Nothing dials "a.test.", and what the hop read is a.test's.
func TestHopToDottedHostAsItsOwnFetch(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	other := httptest.NewServer(serve(503, "down", "Retry-After", "3600"))
	t.Cleanup(other.Close)
	w.on("evil.test/robots.txt", redirectTo("http://a.test./robots.txt"))
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nDisallow: /private\n"))
	w.on("a.test/page", serve(200, "page"))
	w.on("s.test/robots.txt", redirectTo("http://a.test/robots.txt"))
	tr, dotted := dottedElsewhere(t, w, other)
	c, rt := NewClientTransport(tr, []Option{WithUserAgent(testUA)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	ctx := context.Background()
	for _, tc := range []struct {
		url     string
		allowed bool
	}{
		{"http://evil.test/page", true},
		{"http://evil.test/private", false},
		{"http://a.test/private", false},
		{"http://a.test/page", true},
		{"http://s.test/page", true},
	} {
		if dd, err := c.Check(ctx, tc.url); dd.Allowed != tc.allowed || err != nil {
			t.Errorf("%s: Allowed %v, %v; want %v, a.test's rules", tc.url, dd.Allowed, err, tc.allowed)
		}
	}
	if _, err := get(ctx, &http.Client{Transport: rt}, "http://a.test/page"); err != nil {
		t.Errorf("a.test's page: %v; want it sent, held by no other server's Retry-After", err)
	}
	if n := dotted.Load(); n != 0 {
		t.Errorf("\"a.test.\" dialled %d times; want none: the hop dials a.test", n)
	}
	if n := w.count("http://a.test/robots.txt"); n != 1 {
		t.Errorf("a.test's robots.txt asked %d times; want once, the hop's answer its own", n)
	}
}

// TestHopFillOutageKeepsBackoff: b.test's robots.txt has answered
// 503 for longer than WithUnreachableAllowAfter's limit, and its own
// check's allow-all has run out its back-off. Five sites whose robots.txt
// redirect to a page of b.test each need b.test's robots.txt to admit the
// hop; the first hop's fetch meets b.test's 503, whose back-off (its
// third failure's, 4 minutes) covers the other four: b.test is asked
// once, as it is without the limit, not once a redirecting site.
func TestHopFillOutageKeepsBackoff(t *testing.T) {
	checkLeaks(t)
	for _, allowAfter := range []time.Duration{0, time.Hour} {
		t.Run(fmt.Sprint("allowAfter=", allowAfter), func(t *testing.T) {
			w := newHosts(t)
			w.on("b.test/robots.txt", serve(503, "down"))
			w.on("b.test/page", serve(200, "page"))
			for i := range 5 {
				w.on(fmt.Sprintf("a%d.test/robots.txt", i), redirectTo("http://b.test/page"))
			}
			clock := newTestClock()
			opts := []Option{WithHTTPClient(&http.Client{Transport: w.transport(t)}), WithUserAgent(testUA), WithClock(clock.Now)}
			if allowAfter > 0 {
				opts = append(opts, WithUnreachableAllowAfter(allowAfter))
			}
			c := NewClient(opts...)
			t.Cleanup(func() { _ = c.Close() })
			_ = NewTransport(c, w.transport(t), WithMaxHold(time.Millisecond)) // a 503's hold of b.test, 1 ms, keeps the test short
			ctx := context.Background()
			_, _ = c.Check(ctx, "http://b.test/x") // the outage begins
			clock.Advance(61 * time.Minute)
			_, _ = c.Check(ctx, "http://b.test/x") // an hour on: allow-all, if the limit is set
			clock.Advance(3 * time.Minute)         // its back-off (2 minutes) has run out
			before := w.count("http://b.test/robots.txt")
			for i := range 5 {
				_, _ = c.Check(ctx, fmt.Sprintf("http://a%d.test/x", i))
			}
			if n := w.count("http://b.test/robots.txt") - before; n != 1 {
				t.Errorf("b.test's robots.txt, answering 503, was asked %d times within its back-off by five sites redirecting to its page; want once", n)
			}
		})
	}
}

// countingRT counts the requests for b.test's robots.txt that reach its
// next, whatever their outcome.
type countingRT struct {
	next http.RoundTripper
	n    atomic.Int32
}

func (r *countingRT) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host == "b.test" && req.URL.Path == "/robots.txt" {
		r.n.Add(1)
	}
	return r.next.RoundTrip(req)
}

// redirectsToRefusingSite returns the RoundTripper of five sites,
// a0.test to a4.test, whose robots.txt redirects to a page of b.test,
// which refuses connections, counting the requests for b.test's.
func redirectsToRefusingSite(t *testing.T) *countingRT {
	w := newHosts(t)
	for i := range 5 {
		w.on(fmt.Sprintf("a%d.test/robots.txt", i), redirectTo("http://b.test/page"))
	}
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	refused := closed.Addr().String()
	_ = closed.Close()
	tr := w.transport(t)
	dial := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if strings.HasPrefix(addr, "b.test:") {
			var d net.Dialer
			return d.DialContext(ctx, network, refused)
		}
		return dial(ctx, network, addr)
	}
	return &countingRT{next: tr}
}

// TestHopFillErrorPolicyKeepsBackoff: under an error policy that
// reads no response as allow-all, b.test, refusing connections, has its
// robots.txt asked for once a redirecting site, within its back-off.
func TestHopFillErrorPolicyKeepsBackoff(t *testing.T) {
	checkLeaks(t)
	rt := redirectsToRefusingSite(t)
	clock := newTestClock()
	c := NewClient(WithHTTPClient(&http.Client{Transport: rt}), WithUserAgent(testUA), WithClock(clock.Now),
		WithErrorPolicy(func(error) Outcome { return OutcomeAllowAll }))
	t.Cleanup(func() { _ = c.Close() })
	ctx := context.Background()
	_, _ = c.Check(ctx, "http://b.test/x") // the error policy's allow-all, for b.test's back-off
	clock.Advance(2 * time.Minute)         // which has run out
	before := rt.n.Load()
	for i := range 5 {
		_, _ = c.Check(ctx, fmt.Sprintf("http://a%d.test/x", i))
	}
	if n := rt.n.Load() - before; n != 1 {
		t.Errorf("b.test's robots.txt (b.test refusing connections) was asked for %d times within its back-off by five sites redirecting to its page; want once", n)
	}
}

// TestHopAllowAllNotKeptOverStore: P2, sharing a Store with leases,
// reads down.test's outage as allow-all. While P1 holds the lease and
// stores down.test's new Disallow: /private, P2's hop to a page of
// down.test, which does not wait for the lease, meets one more 503: P2
// keeps that allow-all, not owning the lease, only for the least
// freshness, as a stand-in copy, not its whole back-off over the rules
// the Store holds.
func TestHopAllowAllNotKeptOverStore(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	store := newMemStore()
	w := newHosts(t)
	w.on("down.test/robots.txt", serve(503, "down"))
	hc := &http.Client{Transport: w.transport(t)}
	p1 := newTestClient(t, WithClock(clock.Now), WithStore(store), WithHTTPClient(hc))
	p2 := newTestClient(t, WithClock(clock.Now), WithStore(store), WithHTTPClient(hc), WithUnreachableAllowAfter(time.Hour))
	ctx := context.Background()
	_, _ = p2.Check(ctx, "http://down.test/x") // the outage begins
	clock.Advance(61 * time.Minute)
	if d, _ := p2.Check(ctx, "http://down.test/x"); d.Outcome != OutcomeAllowAll {
		t.Fatalf("P2 an hour into the outage: %+v; want allow-all", d)
	}
	clock.Advance(3 * time.Minute) // its back-off (2 minutes) has run out
	hopBesideCheck(t, w, p1, p2)
	clock.Advance(time.Minute + time.Second) // the least freshness, for which P2 keeps a stand-in copy
	p3 := newTestClient(t, WithClock(clock.Now), WithStore(store), WithHTTPClient(hc))
	for i, p := range []*Client{p3, p2} {
		if d, err := p.Check(ctx, "http://down.test/private"); d.Allowed {
			t.Errorf("P%d, after P1 stored down.test's Disallow: /private and P2's hop met a 503: %+v, %v; want disallowed", 3-i, d, err)
		}
	}
}

// TestHopFillErrorPolicyKeepsBackoffStoreDown: as
// TestHopFillErrorPolicyKeepsBackoff, with a disallow-all policy and a
// Store that is down, so that the hop's fill holds no lease: the
// disallow-all it keeps lasts its back-off, not the least freshness, and
// b.test, refusing connections, is asked once, not once a hop.
func TestHopFillErrorPolicyKeepsBackoffStoreDown(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    []Option
		advance time.Duration
	}{
		{"backoff=10m", []Option{WithBackoff(10*time.Minute, time.Hour)}, 2 * time.Minute},
		{"minFresh=0", []Option{WithMinFreshness(0)}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			rt := redirectsToRefusingSite(t)
			clock := newTestClock()
			store := newMemStore()
			store.fail = errors.New("store down")
			opts := append([]Option{WithHTTPClient(&http.Client{Transport: rt}), WithUserAgent(testUA), WithClock(clock.Now),
				WithStore(store), WithErrorPolicy(func(error) Outcome { return OutcomeDisallowAll })}, tc.opts...)
			c := NewClient(opts...)
			t.Cleanup(func() { _ = c.Close() })
			ctx := context.Background()
			for i := range 5 {
				_, _ = c.Check(ctx, fmt.Sprintf("http://a%d.test/x", i))
				clock.Advance(tc.advance)
			}
			if n := rt.n.Load(); n != 1 {
				t.Errorf("b.test's robots.txt (b.test refusing connections, read as disallow-all, the Store down) was asked for %d times within its back-off by five sites redirecting to its page; want once", n)
			}
		})
	}
}

// TestHopToRobotsErrorPolicyAsksItOnce: as
// TestHopToUnconnectableSiteAsksItOnce, under an error policy that reads
// no response as allow-all or disallow-all: five sites whose robots.txt
// redirects to down.test's robots.txt, down.test refusing connections,
// dial it once within its back-off, not once a site.
func TestHopToRobotsErrorPolicyAsksItOnce(t *testing.T) {
	for _, policy := range []Outcome{OutcomeAllowAll, OutcomeDisallowAll} {
		for _, target := range []string{"http://down.test/robots.txt", "http://down.test:80/robots.txt"} {
			t.Run(fmt.Sprint(policy.name(), " ", target), func(t *testing.T) {
				checkLeaks(t)
				w := newHosts(t)
				const sites = 5
				for i := range sites {
					w.on(fmt.Sprintf("s%d.test/robots.txt", i), redirectTo(target))
				}
				var dials atomic.Int32
				tr := w.transport(t)
				dial := tr.DialContext
				tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
					if strings.HasPrefix(addr, "down.test:") {
						dials.Add(1)
						return nil, &net.OpError{Op: "dial", Net: network, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
					}
					return dial(ctx, network, addr)
				}
				c := newTestClient(t, WithHTTPClient(&http.Client{Transport: tr}),
					WithErrorPolicy(func(error) Outcome { return policy }))
				for i := range sites {
					_, _ = c.Check(context.Background(), fmt.Sprintf("http://s%d.test/page", i))
				}
				if n := dials.Load(); n != 1 {
					t.Errorf("down.test (refusing connections, read as %s) dialled %d times within its back-off, for %d sites redirecting to %s; want once",
						policy.name(), n, sites, target)
				}
			})
		}
	}
}

// TestHopFillAllowAllKeepsBackoffStoreDown: as
// TestHopFillErrorPolicyKeepsBackoffStoreDown, with an allow-all policy:
// the Store is down, so no process's stored rules can be read in place of
// the hop's allow-all, which WithErrorPolicy says is asked again on the
// back-off, as it is then: b.test, refusing connections, is asked once,
// not once a hop.
func TestHopFillAllowAllKeepsBackoffStoreDown(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    []Option
		advance time.Duration
	}{
		{"backoff=10m", []Option{WithBackoff(10*time.Minute, time.Hour)}, 2 * time.Minute},
		{"minFresh=0", []Option{WithMinFreshness(0)}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			w := newHosts(t)
			for i := range 5 {
				w.on(fmt.Sprintf("a%d.test/robots.txt", i), redirectTo("http://b.test/page"))
			}
			closed, _ := net.Listen("tcp", "127.0.0.1:0")
			refused := closed.Addr().String()
			_ = closed.Close()
			tr := w.transport(t)
			dial := tr.DialContext
			tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
				if strings.HasPrefix(addr, "b.test:") {
					var d net.Dialer
					return d.DialContext(ctx, network, refused)
				}
				return dial(ctx, network, addr)
			}
			rt := &countingRT{next: tr}
			clock := newTestClock()
			store := newMemStore()
			store.fail = errors.New("store down")
			opts := append([]Option{WithHTTPClient(&http.Client{Transport: rt}), WithUserAgent(testUA), WithClock(clock.Now),
				WithStore(store), WithErrorPolicy(func(error) Outcome { return OutcomeAllowAll })}, tc.opts...)
			c := NewClient(opts...)
			t.Cleanup(func() { _ = c.Close() })
			ctx := context.Background()
			for i := range 5 {
				_, _ = c.Check(ctx, fmt.Sprintf("http://a%d.test/x", i))
				clock.Advance(tc.advance)
			}
			if n := rt.n.Load(); n != 1 {
				t.Errorf("b.test's robots.txt (b.test refusing connections, read as allow-all, the Store down) was asked for %d times within its back-off by five sites redirecting to its page; want once", n)
			}
		})
	}
}
