package redisstore

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// A web is one httptest server standing in for many sites: every host name
// resolves to it (see transport), so "http://site7.test" is its own
// authority. Each site's robots.txt disallows "/private-<host>/" only, so
// an answer taken from another site's rules shows up as wrong; every
// other path is a page, whose arrival is recorded.
type web struct {
	srv   *httptest.Server
	delay time.Duration // before answering each robots.txt request

	mu      sync.Mutex
	fetches map[string]int         // robots.txt requests by host
	pages   map[string][]time.Time // arrivals of other requests by host
	body    []byte                 // when set, served as every site's robots.txt
}

func newWeb(t testing.TB, delay time.Duration) *web {
	t.Helper()
	w := &web{delay: delay, fetches: map[string]int{}, pages: map[string][]time.Time{}}
	w.srv = httptest.NewServer(http.HandlerFunc(w.serve))
	t.Cleanup(w.srv.Close)
	return w
}

func (w *web) serve(rw http.ResponseWriter, r *http.Request) {
	host := r.Host
	if r.URL.Path != "/robots.txt" {
		w.mu.Lock()
		w.pages[host] = append(w.pages[host], time.Now())
		w.mu.Unlock()
		_, _ = io.WriteString(rw, "page")
		return
	}
	w.mu.Lock()
	w.fetches[host]++
	body := w.body
	w.mu.Unlock()
	if w.delay > 0 {
		select {
		case <-time.After(w.delay):
		case <-r.Context().Done():
			return
		}
	}
	if body == nil {
		body = []byte(robotsFor(host))
	}
	rw.Header().Set("Content-Type", "text/plain")
	_, _ = rw.Write(body)
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

// pageArrivals returns when host's server received each request for
// something else than robots.txt, in order.
func (w *web) pageArrivals(host string) []time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	at := slices.Clone(w.pages[host])
	slices.SortFunc(at, func(a, b time.Time) int { return a.Compare(b) })
	return at
}

// httpClient returns an HTTP client that connects to the web's server
// whatever host a URL names.
func (w *web) httpClient() *http.Client {
	return webClient(w.srv.Listener.Addr().String())
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

// hosts returns n site names, distinct per tag so tests do not share
// authorities by accident.
func hosts(tag string, n int) []string {
	hs := make([]string, n)
	for i := range hs {
		hs[i] = fmt.Sprintf("%s%d.test", tag, i)
	}
	return hs
}

// A probe is a URL to check and the right answer for it.
type probe struct {
	url  string
	want bool
}

// probesFor returns URLs of host whose answers depend on host's own rules:
// its private path is disallowed, another site's private path and the root
// are allowed.
func probesFor(host string) []probe {
	other := "x" + host
	return []probe{
		{"http://" + host + "/private-" + host + "/page", false},
		{"http://" + host + "/private-" + other + "/page", true},
		{"http://" + host + "/", true},
	}
}
