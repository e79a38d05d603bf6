package boltstore

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
)

// A web is one httptest server standing in for many sites: webClient
// connects to it whatever host a URL names, so "http://site7.test" is
// its own authority and no name reaches a resolver. Each site's
// robots.txt disallows its own private path only, so that an answer from
// another site's rules is wrong.
type web struct {
	srv *httptest.Server

	mu      sync.Mutex
	fetches map[string]int // robots.txt requests by host
}

func newWeb(t testing.TB) *web {
	t.Helper()
	w := &web{fetches: map[string]int{}}
	w.srv = httptest.NewServer(http.HandlerFunc(w.serve))
	t.Cleanup(w.srv.Close)
	return w
}

func (w *web) serve(rw http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/robots.txt" {
		http.NotFound(rw, r)
		return
	}
	w.mu.Lock()
	w.fetches[r.Host]++
	w.mu.Unlock()
	rw.Header().Set("Content-Type", "text/plain")
	_, _ = fmt.Fprint(rw, robotsFor(r.Host))
}

// robotsFor is the robots.txt of host.
func robotsFor(host string) string {
	return fmt.Sprintf("User-agent: *\nDisallow: /private-%s/\n", host)
}

// fetchCount returns the robots.txt requests for host, or for all hosts
// when host is "".
func (w *web) fetchCount(host string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	if host != "" {
		return w.fetches[host]
	}
	n := 0
	for _, c := range w.fetches {
		n += c
	}
	return n
}

// webClient returns an HTTP client that dials addr for every host.
func webClient(addr string) *http.Client {
	var d net.Dialer
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
		MaxIdleConnsPerHost: 100,
	}}
}

// newClient returns a Client on store fetching from the web at addr, with
// a generous Store timeout (a loaded test machine must not turn a slow
// Store call into a fetch). The caller closes the Client; its idle
// connections are closed when the test ends.
func newClient(t testing.TB, store robotstxt.Store, addr string) *robotstxt.Client {
	hc := webClient(addr)
	t.Cleanup(hc.CloseIdleConnections)
	return robotstxt.NewClient(
		robotstxt.WithStore(store),
		robotstxt.WithHTTPClient(hc),
		robotstxt.WithUserAgent("bolttest/1.0"),
		robotstxt.WithStoreTimeout(5*time.Second),
	)
}

// site is the name of the i-th test site.
func site(i int) string { return fmt.Sprintf("site%d.test", i) }

// A probe is a URL to check and the right answer for it.
type probe struct {
	url  string
	want bool
}

// probesFor returns URLs of host whose answers depend on host's own
// rules: its private path is disallowed, another site's private path
// and the root are allowed.
func probesFor(host string) []probe {
	other := "x" + host
	return []probe{
		{"http://" + host + "/private-" + host + "/page", false},
		{"http://" + host + "/private-" + other + "/page", true},
		{"http://" + host + "/", true},
	}
}

// check checks every probe of host with c and returns the first wrong
// answer or error.
func check(c *robotstxt.Client, host string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, p := range probesFor(host) {
		got, err := c.Allowed(ctx, p.url)
		switch {
		case err != nil:
			return fmt.Errorf("Allowed(%s): %w", p.url, err)
		case got != p.want:
			return fmt.Errorf("Allowed(%s) = %v, want %v", p.url, got, p.want)
		}
	}
	return nil
}
