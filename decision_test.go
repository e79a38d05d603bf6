package robotstxt

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestDecisionComparable: Decisions compare with ==, and two checks of one
// URL answered from the same cached robots.txt are equal.
func TestDecisionComparable(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	c := newTestClient(t)
	ctx := context.Background()
	first, err := c.Check(ctx, s.URL+"/private/x")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := c.Check(ctx, s.URL+"/private/x"); again != first {
		t.Errorf("two checks from one cached robots.txt differ:\n%+v\n%+v", first, again)
	}
	if other, _ := c.Check(ctx, s.URL+"/public"); other == first {
		t.Error("the checks of two paths decided by different rules are equal")
	}
	if first.CrawlDelay != 0 {
		t.Errorf("CrawlDelay = %v for a robots.txt that gives none, want 0", first.CrawlDelay)
	}
}

// TestDecisionCrawlDelayOfTokens: a Client of several product tokens is
// told the longest crawl-delay their groups give, whichever comes first.
func TestDecisionCrawlDelayOfTokens(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: bot\nCrawl-delay: 1\nDisallow: /a\n\nUser-agent: bot-news\nCrawl-delay: 30\nDisallow: /b\n"))
	c := newTestClient(t, WithProductTokens("bot-news", "bot"))
	if d, err := c.Check(context.Background(), s.URL+"/x"); err != nil || d.CrawlDelay.Seconds() != 30 {
		t.Errorf("CrawlDelay %v, %v; want 30s, bot-news's", d.CrawlDelay, err)
	}
}

// TestDecisionServed: a URL that robots.txt disallows only as a server
// serves it says so: Served holds that path, and the Transport's error
// names it; a URL disallowed as spelled, or allowed, has none.
func TestDecisionServed(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: *\nDisallow: /private/\n"))
	c := newTestClient(t)
	ctx := context.Background()
	for path, want := range map[string]string{
		"/a/../private/y":   "/private/y",
		"/%70rivate/x?q=1":  "/private/x?q=1",
		"//private/z":       "/private/z",
		"/private/direct":   "",
		"/public/../public": "",
	} {
		d, err := c.Check(ctx, s.URL+path)
		if err != nil || d.Served != want || d.Allowed != (path == "/public/../public") {
			t.Errorf("%s: Allowed %v, Served %q, %v; want Served %q", path, d.Allowed, d.Served, err, want)
		}
		if want != "" {
			if msg := (&DisallowedError{Decision: d, URL: s.URL + path}).Error(); !strings.Contains(msg, "served as "+want) {
				t.Errorf("%s: %q does not say it is served as %s", path, msg, want)
			}
		}
	}
}

// TestDeferredErrorStatusOfUnparsableLocation: a redirect whose Location
// net/http cannot parse comes with no response: Status and LastStatus
// are 0, as the DeferredError doc says, and the error names the header.
func TestDeferredErrorStatusOfUnparsableLocation(t *testing.T) {
	checkLeaks(t)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Location"] = []string{"http://a b/x"}
		w.WriteHeader(http.StatusFound)
	}))
	defer s.Close()
	d, err := newTestClient(t).Check(t.Context(), s.URL+"/page")
	var de *DeferredError
	if !errors.As(err, &de) || d.Allowed || de.Status != 0 || d.LastStatus != 0 || !strings.Contains(err.Error(), "Location header") {
		t.Errorf("Check: allowed %v, LastStatus %d, %v; want a deferral of status 0 naming the Location header", d.Allowed, d.LastStatus, err)
	}
}
