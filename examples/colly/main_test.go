package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestCrawlObeysRobots crawls the demo web with colly through the
// Transport and checks, on the servers' side, that every allowed page was
// fetched and none of the disallowed ones, whether linked directly or
// reached through a same-host or a cross-host redirect, and that a site
// whose robots.txt answers 503 got no request but that one; a page
// within its site's Crawl-delay is refused with a PacedError and fetched
// by Request.Retry at its turn, where a redirect led when the turn was a
// redirect's (sent again from its first URL, it would loop for ever).
func TestCrawlObeysRobots(t *testing.T) {
	w := newWeb()
	defer w.Close()
	var out strings.Builder
	res, err := run(&out, w)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		s    *site
		want []string
	}{
		{w.start, []string{"/robots.txt", "/", "/about.html", "/blog/", "/go/inside", "/go/partner", "/go/welcome", "/sso"}},
		{w.partner, []string{"/robots.txt", "/welcome.html", "/contact.html", "/login", "/account.html"}},
		{w.down, []string{"/robots.txt"}},
	} {
		got := tc.s.requested()
		slices.Sort(got)
		slices.Sort(tc.want)
		if !slices.Equal(got, tc.want) {
			t.Errorf("site %s was asked for %q, want %q", tc.s.name, got, tc.want)
		}
	}
	wantFetched := []string{"start/", "start/about.html", "start/blog/", "partner/welcome.html", "partner/contact.html",
		"partner/account.html"}
	if !slices.Equal(res.Fetched, wantFetched) {
		t.Errorf("fetched %q, want %q", res.Fetched, wantFetched)
	}
	wantRefused := []string{
		"start/private/secret.html", "start/private/inside.html", "partner/hidden/page.html",
		"start/go/out", "partner/hidden/link.html",
	}
	if !slices.Equal(res.Disallowed, wantRefused) {
		t.Errorf("refused %q, want %q", res.Disallowed, wantRefused)
	}
	if !slices.Equal(res.Deferred, []string{"down/news.html"}) {
		t.Errorf("deferred %q, want down/news.html", res.Deferred)
	}
	// The login page is paced, as contact.html is; sent again, it
	// redirects through the start site back to the partner, whose turn
	// is not yet: account.html is paced, and fetched at the next turn,
	// without /login or /sso asked again.
	if want := []string{"partner/contact.html", "partner/login", "partner/account.html"}; !slices.Equal(res.Paced, want) {
		t.Errorf("paced %q, want %q", res.Paced, want)
	}
	for _, line := range []string{
		"REFUSED   start/private/inside.html (redirected from start/go/inside): robots.txt line 2, Disallow: /private/",
		"REFUSED   partner/hidden/page.html (redirected from start/go/partner): robots.txt line 2, Disallow: /hidden/",
		"DEFERRED  down/news.html: robots.txt answered 503",
		"PACED     partner/contact.html: sent again at the site's next turn",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q:\n%s", line, out.String())
		}
	}
}

// TestSendAgain: a paced request is sent again as itself, also when its
// URL has a fragment (sent as a GET without its body, a form was lost),
// its body made one Retry can rewind; a paced redirect hop as net/http
// sent it (a 303's a GET without a body unless it was a HEAD, a 307's
// with the method and body), and without the first request's
// credentials, also on its host (the redirects may have passed through
// another, and a third site steered them there), also a hop back to the
// request's own URL (a form's 303); a URL paced more than maxPaced times
// (a redirect loop through a paced site) is given up.
func TestSendAgain(t *testing.T) {
	request := func(method, asked string) *colly.Request {
		u, _ := url.Parse(asked)
		return &colly.Request{URL: u, Method: method, Body: bytes.NewBufferString("a=1"),
			Headers: &http.Header{"Authorization": {"Bearer secret"}, "Cookie": {"s=1"}, "Accept": {"text/html"}}}
	}
	withBody := func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("a=1")), nil }
	const asked = "http://start.test/account/go"
	for _, tc := range []struct {
		name, asked, url string
		hop              *hop
		sent, method     string
		body             bool
	}{
		{"itself", asked, asked, nil, http.MethodPost, http.MethodPost, true},
		// A PacedError's URL has no fragment; colly's request may.
		{"itself, with a fragment", asked + "#results", asked, nil, http.MethodPost, http.MethodPost, true},
		// Maybe by way of another host, after which net/http sends no
		// credentials, even back on the request's host.
		{"a hop on its host", asked, "http://start.test/account/done", &hop{method: http.MethodGet}, http.MethodPost, http.MethodGet, false},
		{"a hop to another host", asked, "http://partner.test/landing", &hop{method: http.MethodGet}, http.MethodPost, http.MethodGet, false},
		{"a HEAD's hop", asked, "http://start.test/account/done", &hop{method: http.MethodHead}, http.MethodHead, http.MethodHead, false},
		{"a 307's hop", asked, "http://start.test/account/done", &hop{method: http.MethodPost, getBody: withBody}, http.MethodPost, http.MethodPost, true},
		// A form's 303 to its own URL: the GET was paced, not the POST.
		{"a hop to its own URL", asked, asked, &hop{method: http.MethodGet}, http.MethodPost, http.MethodGet, false},
	} {
		r := request(tc.sent, tc.asked)
		again, err := sendAgain(r, tc.url, "", tc.hop, map[string]int{}, true)
		want, secret := tc.url, tc.hop == nil // where the hop led, or the request itself, fragment and all
		if tc.hop == nil {
			want = tc.asked
		}
		var body []byte
		if r.Body != nil {
			body, _ = io.ReadAll(r.Body)
			_, _ = r.Body.(io.Seeker).Seek(0, io.SeekStart) // panics unless Retry can rewind it
		}
		if !again || err != nil || r.URL.String() != want || r.Method != tc.method || (string(body) == "a=1") != tc.body ||
			(r.Headers.Get("Authorization") != "") != secret || (r.Headers.Get("Cookie") != "") != secret || r.Headers.Get("Accept") == "" {
			t.Errorf("%s: %v, %v; request %s %s, body %q, headers %v", tc.name, again, err, r.Method, r.URL, body, *r.Headers)
		}
	}
	paces, r := map[string]int{}, request(http.MethodGet, asked)
	for i := range maxPaced + 1 {
		// A try that does not count, between those that do, changes nothing.
		if again, err := sendAgain(r, "http://start.test/loop", "", &hop{method: http.MethodGet}, paces, false); !again || err != nil {
			t.Fatalf("a try not counted, after %d: %v, %v", i, again, err)
		}
		again, err := sendAgain(r, "http://start.test/loop", "", &hop{method: http.MethodGet}, paces, true)
		if err != nil || again != (i < maxPaced) {
			t.Fatalf("paced %d times: %v, %v; want sent again up to %d times", i+1, again, err, maxPaced)
		}
	}
}

// recordingSite is a site on 127.0.0.1 with the given robots.txt that
// records "METHOD /path body" of every request, answering a path in
// redirects with that status to the path it gives, and others with a page.
func recordingSite(t *testing.T, robots string, redirects map[string]int) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var got []string
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, strings.TrimSpace(r.Method+" "+r.URL.Path+" "+string(b)))
		mu.Unlock()
		switch status, ok := redirects[r.URL.Path]; {
		case r.URL.Path == "/robots.txt":
			fmt.Fprint(w, robots)
		case ok && (r.Method == http.MethodPost || status != http.StatusSeeOther):
			to := "/submit"
			if status == http.StatusSeeOther {
				to = r.URL.Path // a form's 303 back to itself
			}
			http.Redirect(w, r, to, status)
		default:
			fmt.Fprint(w, "thanks")
		}
	}))
	t.Cleanup(s.Close)
	return s, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
}

// TestFormRedirectPaced: a form posted to a page that redirects, on a
// site whose Crawl-delay outlasts the request's timeout, has the hop
// paced, and the hop is sent at the next turn as net/http sends it: a
// 303 (to the form's own URL: the form is not posted again) as a GET, a
// 307 or 308 as the POST with its body.
func TestFormRedirectPaced(t *testing.T) {
	for _, tc := range []struct {
		status int
		want   []string
	}{
		{http.StatusSeeOther, []string{"POST /contact msg=hello", "GET /contact"}},
		{http.StatusTemporaryRedirect, []string{"POST /contact msg=hello", "POST /submit msg=hello"}},
		{http.StatusPermanentRedirect, []string{"POST /contact msg=hello", "POST /submit msg=hello"}},
	} {
		s, got := recordingSite(t, "User-agent: *\nCrawl-delay: 0.5\n", map[string]int{"/contact": tc.status})
		var res result
		c, done := newCollector(io.Discard, func(u string) string { return strings.TrimPrefix(u, s.URL) }, &res)
		c.SetRequestTimeout(200 * time.Millisecond) // shorter than the Crawl-delay
		_ = c.Post(s.URL+"/contact", map[string]string{"msg": "hello"})
		done()
		if want := append([]string{"GET /robots.txt"}, tc.want...); !slices.Equal(got(), want) {
			t.Errorf("%d: the site was sent %q, want %q", tc.status, got(), want)
		}
		hop := strings.Fields(tc.want[1])[1]
		if !slices.Equal(res.Paced, []string{hop}) || !slices.Equal(res.Fetched, []string{hop}) {
			t.Errorf("%d: paced %q, fetched %q; want %s each", tc.status, res.Paced, res.Fetched, hop)
		}
	}
}

// TestPacedRequestSentAgain: a paced request is sent at its turn also
// when Request.Retry alone would refuse it: its body a reader that cannot
// seek (a JSON body in a bytes.Buffer), or the collector's MaxRequests
// reached by counting the request the Transport refused.
func TestPacedRequestSentAgain(t *testing.T) {
	s, got := recordingSite(t, "User-agent: *\nCrawl-delay: 0.2\n", nil)
	var res result
	var out strings.Builder
	c, done := newCollector(&out, func(u string) string { return strings.TrimPrefix(u, s.URL) }, &res)
	defer done()
	c.MaxRequests = 3
	_ = c.Visit(s.URL + "/a") // takes the site's turn
	_ = c.Request(http.MethodPost, s.URL+"/api", bytes.NewBufferString(`{"q":1}`), nil,
		http.Header{"Content-Type": {"application/json"}})
	_ = c.Visit(s.URL + "/b")
	want := []string{"GET /robots.txt", "GET /a", `POST /api {"q":1}`, "GET /b"}
	if !slices.Equal(got(), want) {
		t.Errorf("the site was sent %q, want %q\noutput:\n%s", got(), want, out.String())
	}
	if !slices.Equal(res.Paced, []string{"/api", "/b"}) {
		t.Errorf("paced %q, want /api and /b", res.Paced)
	}
	// MaxRequests still counts what was sent.
	if err := c.Visit(s.URL + "/c"); !errors.Is(err, colly.ErrMaxRequests) || len(got()) != len(want) {
		t.Errorf("past MaxRequests: %v, and the site was sent %q", err, got())
	}
}

// TestRevisitedURLNotGivenUp: a crawler that polls URLs
// (AllowURLRevisit) on a paced site has each poll paced and fetched; the
// cap on a URL's paces, there for redirect loops, never gives one up.
func TestRevisitedURLNotGivenUp(t *testing.T) {
	s, got := recordingSite(t, "User-agent: *\nCrawl-delay: 0.05\n", map[string]int{"/go": http.StatusFound})
	var res result
	var out strings.Builder
	c, done := newCollector(&out, func(u string) string { return strings.TrimPrefix(u, s.URL) }, &res)
	defer done()
	c.AllowURLRevisit = true
	const polls = maxPaced + 2
	for range polls {
		_ = c.Visit(s.URL + "/a")
		_ = c.Visit(s.URL + "/feed") // paced each time: right after /a
		_ = c.Visit(s.URL + "/go")   // paced, then redirected to /submit
	}
	for _, p := range []string{"GET /feed", "GET /submit"} {
		if n := strings.Count(strings.Join(got(), "\n"), p); n != polls {
			t.Errorf("%s sent %d times in %d polls\noutput:\n%s", p, n, polls, out.String())
		}
	}
}

// TestPolledRedirectChainsNotGivenUp: a poller (AllowURLRevisit) polls
// URLs of s1, a site with a Crawl-delay, whose redirects bounce through
// s2 (a tracker on another host) and back, each hop back paced (the turn
// the URL polled just took) and sent again. Every poll is answered, by a
// hop sent again: its answer forgets the refusals of the chain's URL
// polled and of its other hops, and the cap on paces, there for redirect
// loops, never gives any up; a real loop beside them (whose links share
// one colly Context with the page answered) is given up and stays so.
func TestPolledRedirectChainsNotGivenUp(t *testing.T) {
	const hub = `<html><body><a href="/%s">one</a> <a href="/%s">two</a></body></html>`
	for _, tc := range []struct {
		name   string
		routes map[string]string // by "s1/path" or "s2/path": a redirect to "s1/…" or "s2/…", else an HTML page
		visits []string          // the paths of s1 each poll visits
		polls  int
		path   string // of s1, whose requests are counted
		least  int    // requests for path: at least, and at most
		most   int
	}{
		{"one bounce", map[string]string{"s1/go": "s2/bounce", "s2/bounce": "s1/final"},
			[]string{"/a", "/go"}, maxPaced + 2, "/final", maxPaced + 2, maxPaced + 2},
		// colly sends the hop again as its parser writes it: q=%27x%27.
		{"a bounce to a query with an apostrophe", map[string]string{"s1/go": "s2/bounce", "s2/bounce": "s1/final?q='x'"},
			[]string{"/a", "/go"}, maxPaced + 2, "/final", maxPaced + 2, maxPaced + 2},
		{"two bounces", map[string]string{"s1/go": "s2/t1", "s2/t1": "s1/mid", "s1/mid": "s2/t2", "s2/t2": "s1/final"},
			[]string{"/a", "/go"}, maxPaced + 2, "/final", maxPaced + 2, maxPaced + 2},
		{"a hub's second link", map[string]string{"s1/hub": fmt.Sprintf(hub, "go1", "go2"),
			"s1/go1": "s2/out1", "s2/out1": "s1/final1", "s1/go2": "s2/out2", "s2/out2": "s1/final2"},
			[]string{"/hub"}, maxPaced + 2, "/final2", maxPaced + 2, maxPaced + 2},
		// The first poll sends /loop maxPaced+1 times; each later one
		// once, its hop back given up at once.
		{"a loop beside a page", map[string]string{"s1/hub": fmt.Sprintf(hub, "loop", "page"), "s1/loop": "s2/out", "s2/out": "s1/loop"},
			[]string{"/hub"}, 4, "/loop", 0, maxPaced + 1 + 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			sent := 0
			urls := map[string]string{}
			site := func(name, robots string) *httptest.Server {
				s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.URL.Path == "/robots.txt" {
						fmt.Fprint(w, robots)
						return
					}
					if name == "s1" && r.URL.Path == tc.path {
						mu.Lock()
						sent++
						mu.Unlock()
					}
					switch to := tc.routes[name+r.URL.Path]; {
					case strings.HasPrefix(to, "s1/"), strings.HasPrefix(to, "s2/"):
						http.Redirect(w, r, urls[to[:2]]+to[2:], http.StatusFound)
					case to != "":
						w.Header().Set("Content-Type", "text/html")
						fmt.Fprint(w, to)
					default:
						fmt.Fprint(w, "page")
					}
				}))
				t.Cleanup(s.Close)
				urls[name] = s.URL
				return s
			}
			s1, s2 := site("s1", "User-agent: *\nCrawl-delay: 0.05\n"), site("s2", "User-agent: *\nAllow: /\n")
			var res result
			var out strings.Builder
			c, done := newCollector(&out, strings.NewReplacer(s1.URL, "s1", s2.URL, "s2").Replace, &res)
			c.AllowURLRevisit = true
			for range tc.polls {
				for _, v := range tc.visits {
					_ = c.Visit(s1.URL + v)
				}
			}
			done()
			mu.Lock()
			defer mu.Unlock()
			if sent < tc.least || sent > tc.most {
				t.Errorf("%s sent %d times in %d polls, want %d to %d\noutput:\n%s", tc.path, sent, tc.polls, tc.least, tc.most, out.String())
			}
		})
	}
}

// TestAnsweredStatusNotGivenUp: a polled URL answered with a status
// colly hands to OnError (a 304 to the poller's validator, a 204, a 404)
// was sent and answered: its paces are forgotten as a page's are, and
// the cap on them, there for redirect loops, never gives it up.
func TestAnsweredStatusNotGivenUp(t *testing.T) {
	for _, status := range []int{http.StatusNotModified, http.StatusNoContent, http.StatusNotFound} {
		var mu sync.Mutex
		sent := 0
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/robots.txt":
				fmt.Fprint(w, "User-agent: *\nCrawl-delay: 0.05\n")
			case "/feed":
				mu.Lock()
				sent++
				mu.Unlock()
				w.WriteHeader(status)
			default:
				fmt.Fprint(w, "ok")
			}
		}))
		var res result
		var out strings.Builder
		c, done := newCollector(&out, func(u string) string { return strings.TrimPrefix(u, s.URL) }, &res)
		c.AllowURLRevisit = true
		const polls = maxPaced + 2
		for range polls {
			_ = c.Visit(s.URL + "/a")
			_ = c.Visit(s.URL + "/feed") // paced each time: right after /a
		}
		done()
		s.Close()
		if sent != polls {
			t.Errorf("%d: /feed sent %d times in %d polls\noutput:\n%s", status, sent, polls, out.String())
		}
	}
}

// TestDeferredHopNamed: a redirect to a site whose robots.txt is
// unreachable is deferred under the URL it led to, which was not sent,
// not under the URL that answered with the redirect.
func TestDeferredHopNamed(t *testing.T) {
	w := newWeb()
	defer w.Close()
	w.start.set("/", page{links: []string{"/go/down"}})
	w.start.set("/go/down", page{location: w.down.URL + "/news.html#latest"})
	var out strings.Builder
	res, err := run(&out, w)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"down/news.html"}; !slices.Equal(res.Deferred, want) {
		t.Errorf("deferred %q, want %q", res.Deferred, want)
	}
	if line := "DEFERRED  down/news.html (redirected from start/go/down): robots.txt answered 503"; !strings.Contains(out.String(), line) {
		t.Errorf("output lacks %q:\n%s", line, out.String())
	}
	if got := w.down.requested(); !slices.Equal(got, []string{"/robots.txt"}) {
		t.Errorf("the down site was asked for %q, want its robots.txt alone", got)
	}
}

// TestDeferredSentAgain: a page whose site's robots.txt is down for a
// moment (a 503 with Retry-After: 1, then a file) is deferred and sent
// again at the DeferredError's RetryAt, under the URL it names: colly
// marked it visited, so no later link would bring it back.
func TestDeferredSentAgain(t *testing.T) {
	var mu sync.Mutex
	failed := false
	flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		fail := r.URL.Path == "/robots.txt" && !failed
		failed = failed || fail
		mu.Unlock()
		switch {
		case fail:
			w.Header().Set("Retry-After", "1")
			http.Error(w, "maintenance", http.StatusServiceUnavailable)
		case r.URL.Path == "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<p>news</p>")
		}
	}))
	defer flaky.Close()
	start := newSite("start", map[string]page{
		"/robots.txt": {body: "User-agent: *\nAllow: /\n"},
		"/":           {links: []string{"/go/news"}},
		"/go/news":    {location: flaky.URL + "/news.html#top"},
	})
	defer start.Close()
	name := strings.NewReplacer(start.URL, "start", flaky.URL, "flaky").Replace
	var res result
	var out strings.Builder
	c, done := newCollector(&out, name, &res)
	defer done()
	if err := c.Visit(start.URL + "/"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Deferred, []string{"flaky/news.html"}) || !slices.Contains(res.Fetched, "flaky/news.html") ||
		!strings.Contains(out.String(), "DEFERRED  flaky/news.html (redirected from start/go/news): robots.txt answered 503; sent again at ") {
		t.Errorf("deferred %q, fetched %q; want flaky/news.html deferred, then fetched\noutput:\n%s", res.Deferred, res.Fetched, out.String())
	}
}

// TestDeferredAtDeadlineSentAgain: a request whose deadline comes while
// its site's robots.txt is fetched (here robots.txt answers after 0.6 s,
// past the collector's 0.3 s Timeout; with the defaults, 10 s against
// colly's 10 s) is deferred, its RetryAt a fetch timeout later, past
// maxDeferWait, and sent again all the same: the home page of a site
// whose robots.txt is slow was lost.
func TestDeferredAtDeadlineSentAgain(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			select {
			case <-time.After(600 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<p>home</p>")
	}))
	defer slow.Close()
	name := strings.NewReplacer(slow.URL, "slow").Replace
	var res result
	var out strings.Builder
	c, done := newCollector(&out, name, &res)
	defer done()
	c.SetRequestTimeout(300 * time.Millisecond)
	_ = c.Visit(slow.URL + "/") // its error goes to OnError too
	if !slices.Contains(res.Fetched, "slow/") {
		t.Errorf("deferred %q, fetched %q; want slow/ deferred at its deadline, then sent again and fetched\noutput:\n%s",
			res.Deferred, res.Fetched, out.String())
	}
}

// TestDeferredWhileReadNotGivenUp: a collector whose request timeout is
// far shorter than its site's robots.txt takes (100 ms, 1.2 s) has each
// try deferred, "not yet read", and sent again at once; those tries do
// not count towards giving the URL up (their RetryAt bounds them), and
// the page is fetched once robots.txt has come.
func TestDeferredWhileReadNotGivenUp(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			select {
			case <-time.After(1200 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
			return
		}
		fmt.Fprint(w, "home")
	}))
	defer slow.Close()
	var res result
	var out strings.Builder
	c, done := newCollector(&out, strings.NewReplacer(slow.URL, "slow").Replace, &res)
	defer done()
	c.SetRequestTimeout(100 * time.Millisecond)
	_ = c.Visit(slow.URL + "/")
	if !slices.Equal(res.Fetched, []string{"slow/"}) {
		t.Errorf("deferred %d times, fetched %q; want slow/ fetched once its robots.txt came\noutput:\n%s",
			len(res.Deferred), res.Fetched, out.String())
	}
}

// TestPolledChainEndingInRefusalNotGivenUp: a poller (AllowURLRevisit)
// polls s1/go on a site with a Crawl-delay; each poll /go is paced, sent
// again at its turn, and answered with a redirect whose hop is then
// refused (robots.txt disallows it, colly's URL filters refuse it, or
// its site's robots.txt is unreachable past maxDeferWait), or with an
// answer cut off. Each chain ended, no loop: /go is sent at every poll,
// never given up by the cap on paces.
func TestPolledChainEndingInRefusalNotGivenUp(t *testing.T) {
	for _, tc := range []struct {
		name string
		to   func(s1, s2, dead string) string // where s1/go redirects
	}{
		{"to a disallowed page of its site", func(s1, _, _ string) string { return s1 + "/private/x" }},
		{"to a page outside the collector's URL filters", func(_, s2, _ string) string { return s2 + "/out" }},
		{"to a site whose robots.txt is unreachable", func(_, _, dead string) string { return dead + "/x" }},
		// Not a redirect: each poll's /go is sent, its answer cut off
		// (a flaky feed), which is no loop either.
		{"answered, its body cut off", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			sent := 0
			var target string
			s1 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/robots.txt":
					fmt.Fprint(w, "User-agent: *\nCrawl-delay: 0.05\nDisallow: /private/\n")
				case "/go":
					mu.Lock()
					sent++
					mu.Unlock()
					if target == "" {
						w.Header().Set("Content-Length", "100")
						fmt.Fprint(w, "partial")
						w.(http.Flusher).Flush()
						panic(http.ErrAbortHandler) // the connection closes mid-body
					}
					http.Redirect(w, r, target, http.StatusFound)
				default:
					fmt.Fprint(w, "page")
				}
			}))
			defer s1.Close()
			s2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "page") }))
			defer s2.Close()
			dead := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, "down", http.StatusServiceUnavailable) // robots.txt 503: deferred, back-off past maxDeferWait
			}))
			defer dead.Close()
			if tc.to != nil {
				target = tc.to(s1.URL, s2.URL, dead.URL)
			}
			var res result
			var out strings.Builder
			c, done := newCollector(&out, strings.NewReplacer(s1.URL, "s1", s2.URL, "s2", dead.URL, "dead").Replace, &res)
			c.AllowURLRevisit = true
			c.DisallowedURLFilters = []*regexp.Regexp{regexp.MustCompile("^" + regexp.QuoteMeta(s2.URL))}
			const polls = maxPaced + 2
			for range polls {
				_ = c.Visit(s1.URL + "/a")
				_ = c.Visit(s1.URL + "/go") // paced each time: right after /a
			}
			done()
			mu.Lock()
			defer mu.Unlock()
			if sent != polls {
				t.Errorf("/go sent %d times in %d polls, each sent and answered (no loop); want %d\noutput:\n%s", sent, polls, polls, out.String())
			}
		})
	}
}

// TestPacedUserinfoKeptFromOutput: a paced URL with credentials in it
// (PacedError.URL keeps them, to be put back) is printed without them.
func TestPacedUserinfoKeptFromOutput(t *testing.T) {
	s, got := recordingSite(t, "User-agent: *\nCrawl-delay: 0.05\n", nil)
	var res result
	var out strings.Builder
	c, done := newCollector(&out, func(u string) string { return u }, &res)
	defer done()
	_ = c.Visit(s.URL + "/a") // takes the site's turn
	withUser := strings.Replace(s.URL, "http://", "http://crawler:s3cret@", 1)
	_ = c.Visit(withUser + "/members") // paced, sent again at the turn
	if n := strings.Count(strings.Join(got(), "\n"), "GET /members"); n != 1 || len(res.Paced) != 1 {
		t.Fatalf("/members sent %d times, paced %q; want paced, then sent once\noutput:\n%s", n, res.Paced, out.String())
	}
	if strings.Contains(out.String(), "s3cret") {
		t.Errorf("the example's output holds the URL's password:\n%s", out.String())
	}
}

// TestRedirectErrorUserinfoKeptFromOutput: nor when colly refuses a
// redirect net/http resolved keeping the userinfo (already visited, or
// outside its URL filters): its error quotes the hop's URL whole.
func TestRedirectErrorUserinfoKeptFromOutput(t *testing.T) {
	for _, tc := range []struct {
		name   string
		first  string // visited before /go, which redirects to /submit
		filter bool   // colly's DisallowedURLFilters refuse /submit
	}{
		{"to a page already visited", "/submit", false},
		{"to a page outside the collector's URL filters", "/a", true},
	} {
		s, got := recordingSite(t, "User-agent: *\nAllow: /\n", map[string]int{"/go": http.StatusFound})
		var res result
		var out strings.Builder
		c, done := newCollector(&out, func(u string) string { return u }, &res)
		if tc.filter {
			c.DisallowedURLFilters = []*regexp.Regexp{regexp.MustCompile(`/submit$`)}
		}
		withUser := strings.Replace(s.URL, "http://", "http://crawler:s3cret@", 1)
		_ = c.Visit(withUser + tc.first)
		_ = c.Visit(withUser + "/go") // 302 to /submit: refused by colly
		done()
		if !strings.Contains(strings.Join(got(), "\n"), "GET /go") || !strings.Contains(out.String(), "ERROR") {
			t.Fatalf("%s: /go not sent, or no error: %q\n%s", tc.name, got(), out.String())
		}
		if strings.Contains(out.String(), "s3cret") {
			t.Errorf("%s: the example's output holds the URL's password:\n%s", tc.name, out.String())
		}
	}
}

// TestUnparsableRedirectUserinfoKeptFromOutput: nor when a page's
// redirect has a Location net/http cannot parse, which its error quotes
// whole: a blank, a quote (escaped) or a slash in the password.
func TestUnparsableRedirectUserinfoKeptFromOutput(t *testing.T) {
	for _, loc := range []string{
		"http://crawler:s3 cret@a.test/x",
		`http://crawler:s3"cret@a.test/x`,
		"http://crawler:s3/cret@a.test/x",
		"http://crawler:s3cret@[::1/x",
	} {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				fmt.Fprint(w, "User-agent: *\nAllow: /\n")
				return
			}
			w.Header()["Location"] = []string{loc}
			w.WriteHeader(http.StatusFound)
		}))
		var res result
		var out strings.Builder
		c, done := newCollector(&out, func(u string) string { return u }, &res)
		_ = c.Visit(s.URL + "/go")
		done()
		s.Close()
		if !strings.Contains(out.String(), "ERROR") {
			t.Fatalf("%q: no error printed:\n%s", loc, out.String())
		}
		if strings.Contains(out.String(), "cret@") {
			t.Errorf("Location %q: the example's output holds the password:\n%s", loc, out.String())
		}
	}
}

// TestFarPacedTurnDoesNotBlockCrawl: a PacedError whose RetryAt is far
// off (a 429's Retry-After of ten minutes, which WithMaxHold lets hold up
// to an hour; a Crawl-delay of an hour, which the Transport keeps up to 24
// hours) is not slept out inside OnError, which blocks the whole
// collector (it is not Async): as for a DeferredError past maxDeferWait,
// the demo should report it and move on.
func TestFarPacedTurnDoesNotBlockCrawl(t *testing.T) {
	for _, tc := range []struct {
		name, robots string
		first        http.HandlerFunc
	}{
		{"429 Retry-After 600", "User-agent: *\nAllow: /\n", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "600")
			http.Error(w, "slow down", http.StatusTooManyRequests)
		}},
		{"Crawl-delay 3600", "User-agent: *\nCrawl-delay: 3600\n", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "ok")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/robots.txt":
					fmt.Fprint(w, tc.robots)
				case "/a":
					tc.first(w, r)
				default:
					fmt.Fprint(w, "page")
				}
			}))
			defer s.Close()
			var res result
			var out strings.Builder
			c, done := newCollector(&out, func(u string) string { return strings.TrimPrefix(u, s.URL) }, &res)
			defer done()
			_ = c.Visit(s.URL + "/a") // takes the site's turn, or holds it
			returned := make(chan struct{})
			go func() {
				defer close(returned)
				_ = c.Visit(s.URL + "/b")
			}()
			select {
			case <-returned:
			case <-time.After(5 * time.Second):
				t.Fatalf("Visit of a second page is still blocked after 5s (sleeping until the PacedError's RetryAt)")
			}
			if !strings.Contains(out.String(), "PACED     /b: next turn at") || !slices.Contains(res.Deferred, "/b") {
				t.Errorf("output:\n%s\nresult %+v; want /b reported paced, to come back later, and in Deferred", out.String(), res)
			}
		})
	}
}

// TestRedirectChainOfFreshURLsEnds: a site with a Crawl-delay (s1) whose
// page redirects through another site (s2) back to a new URL of s1 each
// time (?n=1, ?n=2, ...) has each hop back paced and sent again by
// Request.Retry. net/http, and colly's own redirect rules, stop such a
// chain after 10 redirects; the demo's cap on paces, there for redirect
// loops, counted them by URL, every URL here is new, and the chain went
// on for ever, one hop per Crawl-delay, each Retry nested in the OnError
// of the one before (nested90). It counts them by the chain's first URL
// too.
func TestRedirectChainOfFreshURLsEnds(t *testing.T) {
	var stop atomic.Bool
	var mu sync.Mutex
	sentS1 := 0
	var s1URL, s2URL string
	s1 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nCrawl-delay: 0.05\n")
			return
		}
		mu.Lock()
		sentS1++
		mu.Unlock()
		if stop.Load() {
			fmt.Fprint(w, "page")
			return
		}
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		http.Redirect(w, r, s2URL+"/b?n="+strconv.Itoa(n), http.StatusFound)
	}))
	defer s1.Close()
	s2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
			return
		}
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		http.Redirect(w, r, s1URL+"/x?n="+strconv.Itoa(n+1), http.StatusFound)
	}))
	defer s2.Close()
	s1URL, s2URL = s1.URL, s2.URL
	var res result
	var out strings.Builder
	c, done := newCollector(&out, strings.NewReplacer(s1.URL, "s1", s2.URL, "s2").Replace, &res)
	defer done()
	returned := make(chan struct{})
	go func() {
		defer close(returned)
		_ = c.Visit(s1.URL + "/x?n=0")
	}()
	select {
	case <-returned:
	case <-time.After(3 * time.Second):
	}
	mu.Lock()
	n := sentS1
	mu.Unlock()
	stop.Store(true) // let the chain end, so the goroutine does
	<-returned
	if n > maxPaced+1 {
		lines := strings.Split(out.String(), "\n")
		t.Errorf("after 3 s, s1 was sent %d requests of one redirect chain (net/http stops at 10 redirects; maxPaced is %d), Visit still running; output (first 6 of %d lines):\n%s",
			n, maxPaced, len(lines), strings.Join(lines[:min(6, len(lines))], "\n"))
	}
}

// TestMaxRequestsCountsWhatWasSent: colly's MaxRequests limits "the
// number of requests done", and colly's own robots.txt handling, which
// the demo turns off for the Transport, refuses a disallowed URL before
// it counts it. Through the demo's collector, a URL robots.txt
// disallows, never sent, used up one of MaxRequests all the same, and a
// crawl whose pages link to disallowed ones ended before it had sent
// MaxRequests requests (nested90); the demo gives it back.
func TestMaxRequestsCountsWhatWasSent(t *testing.T) {
	s, got := recordingSite(t, "User-agent: *\nDisallow: /private/\n", nil)
	var res result
	c, done := newCollector(io.Discard, func(u string) string { return strings.TrimPrefix(u, s.URL) }, &res)
	defer done()
	c.MaxRequests = 2
	_ = c.Visit(s.URL + "/private/a") // refused by robots.txt: not sent
	_ = c.Visit(s.URL + "/private/b") // refused by robots.txt: not sent
	errA := c.Visit(s.URL + "/a")
	errB := c.Visit(s.URL + "/b")
	want := []string{"GET /robots.txt", "GET /a", "GET /b"}
	if !slices.Equal(got(), want) || errors.Is(errA, colly.ErrMaxRequests) || errors.Is(errB, colly.ErrMaxRequests) {
		t.Errorf("MaxRequests 2: the site was sent %q (want %q); Visit /a: %v, Visit /b: %v; refused by robots.txt %q",
			got(), want, errA, errB, res.Disallowed)
	}
}
