package main

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
)

// crawlSite crawls a fresh demo site and returns it, the result, the
// output and the Client's stats.
func crawlSite(t *testing.T, maxPages int) (*site, result, string, robotstxt.Stats) {
	t.Helper()
	s := newSite()
	t.Cleanup(s.Close)
	hc := &http.Client{Timeout: 5 * time.Second}
	rc := robotstxt.NewClient(robotstxt.WithUserAgent(userAgent), robotstxt.WithHTTPClient(hc))
	t.Cleanup(func() { rc.Close() })
	var out bytes.Buffer
	c := &crawler{robots: rc, http: hc, userAgent: userAgent, maxPages: maxPages, out: &out}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := c.crawl(ctx, s.URL()+"/")
	if err != nil {
		t.Fatalf("crawl: %v\n%s", err, out.String())
	}
	return s, res, out.String(), rc.Stats()
}

func TestCrawlHonoursRobots(t *testing.T) {
	s, res, out, stats := crawlSite(t, 50)

	allowed := []string{
		"/", "/about.html", "/blog/", "/blog/first.html", "/blog/second.html",
		"/private/press.html", "/sitemap.xml", "/never-linked/page.html",
	}
	for _, p := range allowed {
		if n := s.Hits(p); n != 1 {
			t.Errorf("allowed page %s fetched %d times, want once", p, n)
		}
	}
	disallowed := []string{"/private/", "/private/drafts.html", "/cart?session=42"}
	for _, p := range disallowed {
		if n := s.Hits(p); n != 0 {
			t.Errorf("disallowed page %s fetched %d times", p, n)
		}
		if !slices.Contains(res.Disallowed, p) {
			t.Errorf("%s not reported as disallowed: %v", p, res.Disallowed)
		}
	}
	if n := s.Hits("/robots.txt"); n != 1 {
		t.Errorf("robots.txt fetched %d times, want once", n)
	}
	if got := stats.Fetches.Total(); got != 1 {
		t.Errorf("client made %d robots.txt fetches, want 1", got)
	}
	if stats.Misses != 1 || stats.Hits == 0 {
		t.Errorf("client stats hits %d, misses %d; want one miss, then hits", stats.Hits, stats.Misses)
	}
	if len(res.Fetched) != len(allowed) {
		t.Errorf("fetched %v, want the %d allowed pages", res.Fetched, len(allowed))
	}
	for _, want := range []string{
		"DISALLOW  /private/drafts.html      (line 3: Disallow: /private/)",
		"DISALLOW  /cart?session=42          (line 5: Disallow: /*?session=)",
		"ALLOW     /private/press.html       (line 4: Allow: /private/press.html)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCrawlKeepsCrawlDelay(t *testing.T) {
	s, _, _, _ := crawlSite(t, 50)
	log := s.Log()
	if len(log) < 2 {
		t.Fatalf("only %d page requests", len(log))
	}
	const delay = 50 * time.Millisecond
	for i := 1; i < len(log); i++ {
		// The pacer waits from the start of one request to the start of the
		// next; allow a little for loopback scheduling.
		if gap := log[i].at.Sub(log[i-1].at); gap < delay-5*time.Millisecond {
			t.Errorf("%s followed %s after %s, less than the crawl-delay %s", log[i].uri, log[i-1].uri, gap, delay)
		}
	}
}

func TestCrawlMaxPages(t *testing.T) {
	s, res, _, _ := crawlSite(t, 3)
	if len(res.Fetched) != 3 || len(s.Log()) != 3 {
		t.Errorf("fetched %v (%d requests), want 3 pages", res.Fetched, len(s.Log()))
	}
}

func TestRunPrintsStats(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, 20); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"crawl: 8 pages fetched, 3 disallowed, 0 deferred", "robots.txt fetches: 1 (rules 1,", "client cache: hits "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestLinks(t *testing.T) {
	base, _ := url.Parse("http://127.0.0.1:8080/blog/")
	page := `<a href="first.html#top">x</a> <a href="/about.html">y</a>
<a href="https://example.com/elsewhere">z</a> <a href="mailto:a@b">m</a> <a href="%zz">bad</a>
<loc> http://127.0.0.1:8080/s.html </loc> <a href="unterminated`
	var got []string
	for _, u := range links(base, page) {
		got = append(got, u.String())
	}
	want := []string{
		"http://127.0.0.1:8080/blog/first.html",
		"http://127.0.0.1:8080/about.html",
		"http://127.0.0.1:8080/s.html",
	}
	if !slices.Equal(got, want) {
		t.Errorf("links = %q, want %q", got, want)
	}
}
