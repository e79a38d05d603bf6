package robotstxt_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/robotsgate/robotstxt"
)

// exampleSite serves a robots.txt the way a real host would.
func exampleSite() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "max-age=3600")
		fmt.Fprint(w, "User-agent: ExampleBot\n"+
			"Disallow: /private/\n"+
			"Allow: /private/press/\n"+
			"Crawl-delay: 2\n"+
			"\n"+
			"User-agent: *\n"+
			"Disallow: /\n"+
			"\n"+
			"Sitemap: https://example.com/sitemap.xml\n")
	}))
}

func ExampleClient_Allowed() {
	site := exampleSite()
	defer site.Close()

	c := robotstxt.NewClient(robotstxt.WithUserAgent("ExampleBot/1.0 (+https://example.com/bot)"))
	defer c.Close()

	ctx := context.Background()
	for _, path := range []string{"/", "/private/accounts", "/private/press/2025"} {
		ok, err := c.Allowed(ctx, site.URL+path)
		if err != nil {
			fmt.Println(path, "error:", err)
			continue
		}
		fmt.Println(path, ok)
	}
	// Output:
	// / true
	// /private/accounts false
	// /private/press/2025 true
}

func ExampleClient_Check() {
	site := exampleSite()
	defer site.Close()

	c := robotstxt.NewClient(robotstxt.WithUserAgent("ExampleBot/1.0"))
	defer c.Close()

	d, err := c.Check(context.Background(), site.URL+"/private/accounts?id=7")
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println("allowed:", d.Allowed)
	fmt.Println("status:", d.Status)
	fmt.Printf("rule: line %d, allow=%v, pattern %s\n", d.Rule.Line, d.Rule.Allow, d.Rule.Pattern)
	// Output:
	// allowed: false
	// status: 200
	// rule: line 2, allow=false, pattern /private/
}

// A Decision also says what robots.txt it rests on: its status, its
// freshness, the crawl-delay for the Client's crawler, and, through
// Robots, everything else the file says.
func ExampleDecision_Robots() {
	site := exampleSite()
	defer site.Close()

	c := robotstxt.NewClient(robotstxt.WithUserAgent("ExampleBot/1.0"))
	defer c.Close()

	d, err := c.Check(context.Background(), site.URL+"/any/page")
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println("status:", d.Status)
	fmt.Println("crawl-delay:", d.CrawlDelay)
	fmt.Println("fresh for:", d.Expires.Sub(d.FetchedAt))
	fmt.Println("sitemaps:", d.Robots().Sitemaps())
	// Output:
	// status: 200
	// crawl-delay: 2s
	// fresh for: 1h0m0s
	// sitemaps: [https://example.com/sitemap.xml]
}

func ExampleDeferredError() {
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer down.Close()

	c := robotstxt.NewClient()
	defer c.Close()

	ok, err := c.Allowed(context.Background(), down.URL+"/page")
	var de *robotstxt.DeferredError
	if errors.Is(err, robotstxt.ErrDeferred) && errors.As(err, &de) {
		fmt.Println("allowed:", ok)
		fmt.Println("status:", de.Status)
		fmt.Println("come back in about:", time.Until(de.RetryAt).Round(time.Minute))
		fmt.Println("failures so far:", de.Failures)
	}
	// Output:
	// allowed: false
	// status: 503
	// come back in about: 2m0s
	// failures so far: 1
}

func ExampleClient_Stats() {
	site := exampleSite()
	defer site.Close()

	c := robotstxt.NewClient(robotstxt.WithUserAgent("ExampleBot/1.0"))
	defer c.Close()

	ctx := context.Background()
	for range 3 {
		_, _ = c.Allowed(ctx, site.URL+"/")
	}
	st := c.Stats()
	fmt.Println("fetches:", st.Fetches.Rules, "hits:", st.Hits, "misses:", st.Misses)
	// Output:
	// fetches: 1 hits: 2 misses: 1
}
