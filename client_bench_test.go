package robotstxt

import (
	"context"
	"net/http"
	"testing"
)

const benchRules = `User-agent: *
Disallow: /private/
Disallow: /tmp/
Allow: /private/public
Disallow: /*.pdf$
Crawl-delay: 1

User-agent: ExampleBot
Disallow: /search
Allow: /search/about
Disallow: /cgi-bin/
`

// warmClient returns a Client whose cache holds the robots.txt of a
// loopback server, and a URL on it.
func warmClient(b *testing.B) (*Client, string) {
	s := newSite(b, serve(http.StatusOK, benchRules))
	c := newTestClient(b, WithUserAgent("ExampleBot/1.0 (+https://example.com/bot)"))
	u := s.URL + "/search/results/page?q=robots&lang=en"
	if _, err := c.Allowed(context.Background(), u); err != nil {
		b.Fatal(err)
	}
	return c, u
}

func BenchmarkClientAllowed(b *testing.B) {
	c, u := warmClient(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if ok, err := c.Allowed(ctx, u); ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

func BenchmarkClientAllowedNonASCII(b *testing.B) {
	c, u := warmClient(b)
	u += "&q=caf\u00e9"
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if ok, err := c.Allowed(ctx, u); ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

func BenchmarkClientAllowedParallel(b *testing.B) {
	c, u := warmClient(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if ok, err := c.Allowed(ctx, u); ok || err != nil {
				b.Error(ok, err)
				return
			}
		}
	})
}

func BenchmarkClientCheck(b *testing.B) {
	c, u := warmClient(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if d, err := c.Check(ctx, u); d.Allowed || err != nil {
			b.Fatal(d, err)
		}
	}
}

// BenchmarkClientBaselineCrawler is the baseline of the Client benchmarks:
// the same check on the same rules, parsed once, with no Client around it.
func BenchmarkClientBaselineCrawler(b *testing.B) {
	a := Parse([]byte(benchRules)).Crawler("ExampleBot")
	u := "/search/results/page?q=robots&lang=en"
	b.ReportAllocs()
	for b.Loop() {
		if a.Allowed(u) {
			b.Fatal("allowed")
		}
	}
}

func BenchmarkClientBaselineCrawlerParallel(b *testing.B) {
	a := Parse([]byte(benchRules)).Crawler("ExampleBot")
	u := "/search/results/page?q=robots&lang=en"
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if a.Allowed(u) {
				b.Error("allowed")
				return
			}
		}
	})
}
