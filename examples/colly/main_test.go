package main

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

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
// a third site steered them there); a URL paced more than maxPaced times
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
		sent, method     string
		body, secret     bool
	}{
		{"itself", asked, asked, http.MethodPost, http.MethodPost, true, true},
		// A PacedError's URL has no fragment; colly's request may.
		{"itself, with a fragment", asked + "#results", asked, http.MethodPost, http.MethodPost, true, true},
		// Maybe by way of another host, after which net/http sends no
		// credentials, even back on the request's host.
		{"a hop on its host", asked, "http://start.test/account/done", http.MethodPost, http.MethodGet, false, false},
		{"a hop to another host", asked, "http://partner.test/landing", http.MethodPost, http.MethodGet, false, false},
		{"a HEAD's hop", asked, "http://start.test/account/done", http.MethodHead, http.MethodHead, false, false},
	} {
		r := request(tc.sent, tc.asked)
		again, err := sendAgain(r, &robotstxt.PacedError{URL: tc.url}, map[string]int{})
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
		again, err := sendAgain(r, &robotstxt.PacedError{URL: "http://start.test/loop"}, paces)
		if err != nil || again != (i < maxPaced) {
			t.Fatalf("paced %d times: %v, %v; want sent again up to %d times", i+1, again, err, maxPaced)
		}
	}
}
