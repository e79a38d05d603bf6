package bench

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

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

// BenchmarkClientWarmPath checks URLs of cached authorities through
// Client.Allowed against minimalCache holding the same authorities' parsed
// files, alternately, and reports the ratio (x-baseline; target ≤ 2× for
// one authority and ≤ 2.5× for 1,000, 0 allocs): one authority checked again and again, and 1,000 authorities
// checked in rotation, whose entries no longer all sit in the CPU's
// caches.
func BenchmarkClientWarmPath(b *testing.B) {
	bodies := [][]byte{[]byte(realistic)}
	ctx := context.Background()
	for _, n := range []int{1, 1000} {
		name := "one-authority"
		if n > 1 {
			name = fmt.Sprintf("%d-authorities-rotating", n)
		}
		b.Run(name, func(b *testing.B) {
			c := robotsgate.NewClient(
				robotsgate.WithHTTPClient(&http.Client{Transport: siteTransport{bodies}}),
				robotsgate.WithProductTokens(checkAgent),
			)
			b.Cleanup(func() { c.Close() })
			m := minimalCache{}
			urls := make([]string, n)
			for i := range n {
				urls[i] = fmt.Sprintf("http://s%06d.example%s", i, checkPath)
				m[fmt.Sprintf("http://s%06d.example", i)] = robotsgate.Parse([]byte(realistic))
				got, err := c.Allowed(ctx, urls[i])
				if err != nil || got != m.allowed(urls[i]) {
					b.Fatalf("%s: Client %v %v, minimal cache %v", urls[i], got, err, m.allowed(urls[i]))
				}
			}
			k := max(n, 1000)
			b.ReportAllocs()
			pair(b, k, func(i int) { sinkBool = m.allowed(urls[i%n]) },
				func(i int) { sinkBool, _ = c.Allowed(ctx, urls[i%n]) })
		})
	}
}
