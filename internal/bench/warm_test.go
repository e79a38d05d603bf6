package bench

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	robotsgate "github.com/robotsgate/robotstxt"
)

// minimalCache is the least a warm check can cost: cut the authority
// from the URL, find its parsed robots.txt in a Go map, check the path
// for the agent (Robots.Allowed, which keeps the groups of the first
// agent it checks at hand). It does none of what the Client adds
// (validating and normalising the URL, expiry, recency, statistics, the
// path's normal forms).
type minimalCache map[string]*robotsgate.Robots

func (m minimalCache) allowed(url string) bool {
	i := strings.Index(url, "://") + len("://")
	j := strings.IndexByte(url[i:], '/')
	return m[url[:i+j]].Allowed(checkAgent, url[i+j:])
}

// escapingPath is a path a crawler meets that the Client must escape
// before it checks it: non-ASCII bytes, in the path and the query.
const escapingPath = "/shop/café/outils/bêche-1234.html?couleur=vért&sessionid=8f3a9c"

// warmClient returns a Client with the realistic file cached for n
// authorities, the URLs of path at each, and the minimal cache of the
// same authorities.
func warmClient(b *testing.B, n int, path string) (*robotsgate.Client, []string, minimalCache) {
	c := robotsgate.NewClient(
		robotsgate.WithHTTPClient(&http.Client{Transport: siteTransport{[][]byte{[]byte(realistic)}}}),
		robotsgate.WithProductTokens(checkAgent),
	)
	b.Cleanup(func() { c.Close() })
	m := minimalCache{}
	urls := make([]string, n)
	ctx := context.Background()
	for i := range n {
		urls[i] = fmt.Sprintf("http://s%06d.example%s", i, path)
		m[fmt.Sprintf("http://s%06d.example", i)] = robotsgate.Parse([]byte(realistic))
		got, err := c.Allowed(ctx, urls[i])
		if err != nil || got != m.allowed(urls[i]) {
			b.Fatalf("%s: Client %v %v, minimal cache %v", urls[i], got, err, m.allowed(urls[i]))
		}
	}
	return c, urls, m
}

// BenchmarkClientWarmPath checks URLs of cached authorities through
// Client.Allowed against minimalCache holding the same authorities' parsed
// files, alternately, and reports the ratio (x-baseline; targets ≤ 1.6×
// for one authority, ≤ 2× for 1,000, ≤ 3× for URLs that need escaping,
// 0 allocs): one authority checked again and again, 1,000 authorities
// checked in rotation, whose entries no longer all sit in the CPU's
// caches, and one authority with a path the Client escapes (the minimal
// cache checks it as given).
func BenchmarkClientWarmPath(b *testing.B) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		n    int
		path string
	}{
		{"one-authority", 1, checkPath},
		{"1000-authorities-rotating", 1000, checkPath},
		{"escaping", 1, escapingPath},
	} {
		b.Run(tc.name, func(b *testing.B) {
			c, urls, m := warmClient(b, tc.n, tc.path)
			n := len(urls)
			b.ReportAllocs()
			pair(b, max(n, 1000), func(i int) { sinkBool = m.allowed(urls[i%n]) },
				func(i int) { sinkBool, _ = c.Allowed(ctx, urls[i%n]) })
		})
	}
}

// BenchmarkClientWarmParallel reports what a warm check costs when 8
// goroutines check at once against one goroutine's, alternately, in the
// CPU time this process spends (getrusage), which other processes on the
// machine leave alone: x-one-goroutine is a check's CPU time with 8
// goroutines over its CPU time with one (target ≤ 1.3×: no lock or cache
// line that every check takes or writes). One authority, so that every
// goroutine checks the same entry.
func BenchmarkClientWarmParallel(b *testing.B) {
	const goroutines, k = 8, 8000
	c, urls, _ := warmClient(b, 1, checkPath)
	ctx := context.Background()
	u := urls[0]
	var one, many time.Duration
	checks := 0
	for b.Loop() {
		c0 := cpuTime()
		for range k {
			sinkBool, _ = c.Allowed(ctx, u)
		}
		c1 := cpuTime()
		one += c1 - c0
		var wg sync.WaitGroup
		for range goroutines {
			wg.Go(func() {
				for range k / goroutines {
					_, _ = c.Allowed(ctx, u)
				}
			})
		}
		wg.Wait()
		many += cpuTime() - c1
		checks += k
	}
	b.ReportMetric(float64(one.Nanoseconds())/float64(checks), "ns-cpu-one/check")
	b.ReportMetric(float64(many.Nanoseconds())/float64(checks), "ns-cpu-8/check")
	b.ReportMetric(float64(many)/float64(one), "x-one-goroutine")
}
