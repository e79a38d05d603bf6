package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"
	"go.uber.org/goleak"

	"github.com/robotsgate/robotstxt"
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
// URL has a fragment (sent as a GET without its body, a form was lost); a
// paced redirect hop as net/http sends a 303's, without a body and a GET
// unless it was a HEAD, and without the first request's credentials,
// also on its host (the redirects may have passed through another, and
// a third site steered them there), also a hop back to the request's own
// URL (a form's 303); a URL paced more than maxPaced times
// (a redirect loop through a paced site) is given up.
func TestSendAgain(t *testing.T) {
	request := func(method, asked string) *colly.Request {
		u, _ := url.Parse(asked)
		return &colly.Request{URL: u, Method: method, Body: strings.NewReader("a=1"),
			Headers: &http.Header{"Authorization": {"Bearer secret"}, "Cookie": {"s=1"}, "Accept": {"text/html"}}}
	}
	const asked = "http://start.test/account/go"
	for _, tc := range []struct {
		name, asked, url string
		hopped           bool
		sent, method     string
		body, secret     bool
	}{
		{"itself", asked, asked, false, http.MethodPost, http.MethodPost, true, true},
		// A PacedError's URL has no fragment; colly's request may.
		{"itself, with a fragment", asked + "#results", asked, false, http.MethodPost, http.MethodPost, true, true},
		// Maybe by way of another host, after which net/http sends no
		// credentials, even back on the request's host.
		{"a hop on its host", asked, "http://start.test/account/done", true, http.MethodPost, http.MethodGet, false, false},
		{"a hop to another host", asked, "http://partner.test/landing", true, http.MethodPost, http.MethodGet, false, false},
		{"a HEAD's hop", asked, "http://start.test/account/done", true, http.MethodHead, http.MethodHead, false, false},
		// A form's 303 to its own URL: the GET was paced, not the POST.
		{"a hop to its own URL", asked, asked, true, http.MethodPost, http.MethodGet, false, false},
	} {
		r := request(tc.sent, tc.asked)
		again, err := sendAgain(r, &robotstxt.PacedError{URL: tc.url}, tc.hopped, map[string]int{})
		want := tc.url // where the hop led, or the request itself, fragment and all
		if tc.method == tc.sent && tc.body {
			want = tc.asked
		}
		if !again || err != nil || r.URL.String() != want || r.Method != tc.method || (r.Body != nil) != tc.body ||
			(r.Headers.Get("Authorization") != "") != tc.secret || (r.Headers.Get("Cookie") != "") != tc.secret || r.Headers.Get("Accept") == "" {
			t.Errorf("%s: %v, %v; request %s %s, body %v, headers %v", tc.name, again, err, r.Method, r.URL, r.Body != nil, *r.Headers)
		}
	}
	paces, r := map[string]int{}, request(http.MethodGet, asked)
	for i := range maxPaced + 1 {
		again, err := sendAgain(r, &robotstxt.PacedError{URL: "http://start.test/loop"}, true, paces)
		if err != nil || again != (i < maxPaced) {
			t.Fatalf("paced %d times: %v, %v; want sent again up to %d times", i+1, again, err, maxPaced)
		}
	}
}

// TestFormRedirectToItselfPaced: a form posted to a page that answers
// with a 303 to itself, on a site whose Crawl-delay outlasts the
// request's timeout, has the GET of the hop paced, whose URL is the
// form's; the GET is sent at the next turn, the form is not posted again.
func TestFormRedirectToItselfPaced(t *testing.T) {
	var mu sync.Mutex
	var got []string
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.Path)
		mu.Unlock()
		switch {
		case r.URL.Path == "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nCrawl-delay: 0.5\n")
		case r.Method == http.MethodPost:
			http.Redirect(w, r, r.URL.Path, http.StatusSeeOther)
		default:
			fmt.Fprint(w, "thanks")
		}
	}))
	defer s.Close()
	var res result
	c, done := newCollector(io.Discard, func(u string) string { return strings.TrimPrefix(u, s.URL) }, &res)
	defer done()
	c.SetRequestTimeout(200 * time.Millisecond)                     // shorter than the Crawl-delay
	_ = c.Post(s.URL+"/contact", map[string]string{"msg": "hello"}) // the hop's PacedError, which OnError saw
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"GET /robots.txt", "POST /contact", "GET /contact"}; !slices.Equal(got, want) {
		t.Errorf("the site was sent %q, want %q", got, want)
	}
	if !slices.Equal(res.Paced, []string{"/contact"}) || !slices.Equal(res.Fetched, []string{"/contact"}) {
		t.Errorf("paced %q, fetched %q; want /contact each", res.Paced, res.Fetched)
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
