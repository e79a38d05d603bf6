package bench

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	robotsgate "github.com/robotsgate/robotstxt"
	temoto "github.com/temoto/robotstxt"
)

// sinkShared is the sink of goroutines run by b.RunParallel.
var sinkShared atomic.Bool

// The warm-cache workload: warmHosts authorities, each checked for every
// path of warmPaths, in an order that moves to another authority on every
// check.
const warmHosts = 100

var warmPaths = []string{
	"/",
	"/shop/garden/tools/spade-1234.html?color=green&sessionid=8f3a9c",
	"/shop/garden/tools/spade-1234.html?color=green",
	"/search?q=robots+exclusion",
	"/docs/manual.pdf",
	"/files/catalogue-2024.pdf",
	"/blog/2024/05/robots-txt-explained",
	"/team/private/roster",
	"/account/settings",
	"/images/logo.png",
}

// warmURLs returns the URLs of the workload.
func warmURLs() []string {
	var urls []string
	for _, p := range warmPaths {
		for h := range warmHosts {
			urls = append(urls, fmt.Sprintf("http://www.site%03d.example%s", h, p))
		}
	}
	return urls
}

// loopback starts a server that serves the realistic file as every
// host's robots.txt, and an HTTP client whose connections all go to it
// whatever the host name, so that warmHosts authorities share one server.
func loopback(tb testing.TB) *http.Client {
	var fetches atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fetches.Add(1)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "max-age=86400")
		fmt.Fprint(w, realistic)
	}))
	tb.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	var d net.Dialer
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
		MaxIdleConnsPerHost: 4,
	}
	tb.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// newWarmClient returns a robotsgate Client that has fetched the
// robots.txt of every authority of urls.
func newWarmClient(tb testing.TB, hc *http.Client, urls []string) *robotsgate.Client {
	c := robotsgate.NewClient(robotsgate.WithHTTPClient(hc), robotsgate.WithProductTokens(checkAgent))
	tb.Cleanup(func() { c.Close() })
	for _, u := range urls[:warmHosts] {
		if _, err := c.Allowed(context.Background(), u); err != nil {
			tb.Fatal(err)
		}
	}
	return c
}

// mapCache is how Go crawlers commonly cache robots.txt today: a map from
// scheme://host to temoto's parsed data, guarded by a mutex, filled by an
// http.Get on a miss. exclusive selects a plain sync.Mutex instead of the
// read lock of a sync.RWMutex.
type mapCache struct {
	hc        *http.Client
	agent     string
	exclusive bool
	mu        sync.Mutex
	rw        sync.RWMutex
	m         map[string]*temoto.RobotsData
}

func (c *mapCache) get(key string) (*temoto.RobotsData, bool) {
	if c.exclusive {
		c.mu.Lock()
		defer c.mu.Unlock()
	} else {
		c.rw.RLock()
		defer c.rw.RUnlock()
	}
	d, ok := c.m[key]
	return d, ok
}

func (c *mapCache) put(key string, d *temoto.RobotsData) {
	if c.exclusive {
		c.mu.Lock()
		defer c.mu.Unlock()
	} else {
		c.rw.Lock()
		defer c.rw.Unlock()
	}
	c.m[key] = d
}

func (c *mapCache) allowed(raw string) (bool, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return false, err
	}
	key := u.Scheme + "://" + u.Host
	d, ok := c.get(key)
	if !ok {
		resp, err := c.hc.Get(key + "/robots.txt")
		if err != nil {
			return false, err
		}
		d, err = temoto.FromResponse(resp)
		resp.Body.Close()
		if err != nil {
			return false, err
		}
		c.put(key, d)
	}
	return d.TestAgent(u.RequestURI(), c.agent), nil
}

func newWarmMapCache(tb testing.TB, hc *http.Client, urls []string, exclusive bool) *mapCache {
	c := &mapCache{hc: hc, agent: checkAgent, exclusive: exclusive, m: make(map[string]*temoto.RobotsData)}
	for _, u := range urls[:warmHosts] {
		if _, err := c.allowed(u); err != nil {
			tb.Fatal(err)
		}
	}
	return c
}

// TestClientWarmAgree checks that the robotsgate Client and the map cache
// give the same answers on the workload, and that the Client answers it
// from its cache once warm.
func TestClientWarmAgree(t *testing.T) {
	hc := loopback(t)
	urls := warmURLs()
	c := newWarmClient(t, hc, urls)
	m := newWarmMapCache(t, hc, urls, false)
	before := c.Stats()
	allowed := 0
	for _, u := range urls {
		got, err := c.Allowed(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		want, err := m.allowed(u)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: robotsgate %v, temoto %v", u, got, want)
		}
		if got {
			allowed++
		}
	}
	after := c.Stats()
	if after.Misses != before.Misses || after.Hits-before.Hits != uint64(len(urls)) {
		t.Errorf("warm workload was not all cache hits: before %+v, after %+v", before, after)
	}
	t.Logf("%d URLs, %d allowed", len(urls), allowed)
}

// BenchmarkClientWarm measures a check through a warm cache: robotsgate's
// Client.Allowed(ctx, url) against the way Go crawlers do it today, a
// map[scheme://host]*temoto.RobotsData behind a sync.RWMutex (or a
// sync.Mutex) with url.Parse and RobotsData.TestAgent. 100 authorities
// served over loopback are fetched once before the timer starts; each op
// is one check of the next URL of the workload (10 paths × 100 hosts).
func BenchmarkClientWarm(b *testing.B) {
	hc := loopback(b)
	urls := warmURLs()
	ctx := context.Background()
	type impl struct {
		name    string
		allowed func(string) (bool, error)
	}
	impls := func(b *testing.B) []impl {
		c := newWarmClient(b, hc, urls)
		rw := newWarmMapCache(b, hc, urls, false)
		mu := newWarmMapCache(b, hc, urls, true)
		return []impl{
			{"robotsgate", func(u string) (bool, error) { return c.Allowed(ctx, u) }},
			{"temoto-map+RWMutex", rw.allowed},
			{"temoto-map+Mutex", mu.allowed},
		}
	}
	for _, im := range impls(b) {
		b.Run("serial/"+im.name, func(b *testing.B) {
			runtime.GC()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				ok, err := im.allowed(urls[i])
				if err != nil {
					b.Fatal(err)
				}
				sinkBool = ok
				if i++; i == len(urls) {
					i = 0
				}
			}
		})
	}
	for _, im := range impls(b) {
		b.Run("parallel/"+im.name, func(b *testing.B) {
			runtime.GC()
			b.ReportAllocs()
			var start atomic.Int64
			b.RunParallel(func(pb *testing.PB) {
				i := int(start.Add(397)) % len(urls)
				var sink bool
				for pb.Next() {
					ok, err := im.allowed(urls[i])
					if err != nil {
						b.Error(err)
						return
					}
					sink = sink != ok
					if i++; i == len(urls) {
						i = 0
					}
				}
				sinkShared.Store(sink)
			})
		})
	}
}
