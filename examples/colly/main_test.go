package main

import (
	"slices"
	"strings"
	"testing"

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
