package crawltest

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// A Web is one httptest server on loopback standing in for many sites:
// its [Web.HTTPClient] connects to it whatever host a URL names, so
// "http://site7.test" is its own authority and no name reaches a
// resolver. Each site's robots.txt disallows that site's private path
// only (see [Probes]), so that an answer taken from another site's rules
// is wrong. Every other path is not found, unless [WithPages].
type Web struct {
	srv   *httptest.Server
	delay time.Duration // before answering each robots.txt request
	body  []byte        // when set, served as every site's robots.txt
	pages bool          // whether other paths are pages, their arrivals recorded

	mu       sync.Mutex
	fetches  map[string]int         // robots.txt requests by host
	arrivals map[string][]time.Time // arrivals of other requests by host
}

// A WebOption configures a [Web].
type WebOption func(*Web)

// WithDelay has the Web wait d before answering each robots.txt request
// (or until the request is cancelled), so that concurrent checks of a
// cold site overlap.
func WithDelay(d time.Duration) WebOption { return func(w *Web) { w.delay = d } }

// WithBody has the Web serve body as every site's robots.txt.
func WithBody(body []byte) WebOption { return func(w *Web) { w.body = body } }

// WithPages has the Web answer every path other than /robots.txt with a
// page and record when it arrived (see [Web.PageArrivals]).
func WithPages() WebOption { return func(w *Web) { w.pages = true } }

// NewWeb starts a Web, closed when the test ends.
func NewWeb(tb testing.TB, opts ...WebOption) *Web {
	tb.Helper()
	w := &Web{fetches: map[string]int{}, arrivals: map[string][]time.Time{}}
	for _, o := range opts {
		o(w)
	}
	w.srv = httptest.NewServer(http.HandlerFunc(w.serve))
	tb.Cleanup(w.srv.Close)
	return w
}

func (w *Web) serve(rw http.ResponseWriter, r *http.Request) {
	host := r.Host
	if r.URL.Path != "/robots.txt" {
		if !w.pages {
			http.NotFound(rw, r)
			return
		}
		w.mu.Lock()
		w.arrivals[host] = append(w.arrivals[host], time.Now())
		w.mu.Unlock()
		_, _ = io.WriteString(rw, "page")
		return
	}
	w.mu.Lock()
	w.fetches[host]++
	w.mu.Unlock()
	if w.delay > 0 {
		select {
		case <-time.After(w.delay):
		case <-r.Context().Done():
			return
		}
	}
	body := w.body
	if body == nil {
		body = []byte(robotsFor(host))
	}
	rw.Header().Set("Content-Type", "text/plain")
	_, _ = rw.Write(body)
}

// Addr returns the address of the Web's listener, for a helper process
// to pass to [HTTPClient].
func (w *Web) Addr() string { return w.srv.Listener.Addr().String() }

// Body returns what [WithBody] set, or nil when each site serves its own
// robots.txt.
func (w *Web) Body() []byte { return w.body }

// Fetches returns the robots.txt requests for host, or for all hosts
// when host is "".
func (w *Web) Fetches(host string) int {
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

// PageArrivals returns when host's server received each request for
// something else than robots.txt, in order. It is empty unless
// [WithPages].
func (w *Web) PageArrivals(host string) []time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	at := slices.Clone(w.arrivals[host])
	slices.SortFunc(at, func(a, b time.Time) int { return a.Compare(b) })
	return at
}

// HTTPClient returns an HTTP client that connects to the Web whatever
// host a URL names.
func (w *Web) HTTPClient() *http.Client { return HTTPClient(w.Addr()) }

// HTTPClient returns an HTTP client that dials addr for every host: the
// name in a URL is only the authority the request is for, never looked
// up.
func HTTPClient(addr string) *http.Client {
	var d net.Dialer
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
		// Tests check a site from up to 100 goroutines at once; with the
		// default of 2 idle connections per host most would dial anew.
		MaxIdleConnsPerHost: 100,
	}}
}
