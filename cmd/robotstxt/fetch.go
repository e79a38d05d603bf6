package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/robotsgate/robotstxt"
)

// dial makes the connections of the commands' Clients, as the default
// transport's dialer does. Tests replace it, so that no name they use
// reaches the system resolver.
var dial = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext

// A request is one request that a Client sent for a robots.txt (a fetch
// sends one per redirect followed) or a tdmrep.json, as -v lists it.
type request struct {
	url    string
	status int // 0 when no response arrived
	err    error
	header http.Header
	body   *capture // what the Client read of the body
}

// A wire is the transport of the Clients that fetch over the network: it
// notes each request a Client sends, the response, and what the Client
// read of its body, so that -v can list the requests with their statuses
// (a Decision holds where redirects led, not how each answered) and the
// command can show the lines of the robots.txt the Client read.
type wire struct {
	next *http.Transport

	mu   sync.Mutex
	reqs []request
}

// newWire returns a wire over a transport of its own, dialing with dial.
func newWire() *wire {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = dial
	return &wire{next: tr}
}

// RoundTrip sends req and notes it.
func (w *wire) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := w.next.RoundTrip(req)
	r := request{url: req.URL.String(), err: err}
	if err == nil {
		r.status, r.header = resp.StatusCode, resp.Header
		r.body = &capture{ReadCloser: resp.Body}
		resp.Body = r.body
	}
	w.mu.Lock()
	w.reqs = append(w.reqs, r)
	w.mu.Unlock()
	return resp, err
}

// mark returns how many requests are noted, for since.
func (w *wire) mark() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.reqs)
}

// since returns the requests noted after the first n.
func (w *wire) since(n int) []request {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]request(nil), w.reqs[min(n, len(w.reqs)):]...)
}

// response returns the last response that came for url, or false.
func (w *wire) response(url string) (request, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := len(w.reqs) - 1; i >= 0; i-- {
		if r := w.reqs[i]; r.url == url && r.err == nil {
			return r, true
		}
	}
	return request{}, false
}

// A capture is a response body that keeps a copy of what is read from it,
// up to maxInput+1 bytes.
type capture struct {
	io.ReadCloser

	mu  sync.Mutex
	buf []byte
}

func (c *capture) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.mu.Lock()
	if keep := min(n, maxInput+1-len(c.buf)); keep > 0 {
		c.buf = append(c.buf, p[:keep]...)
	}
	c.mu.Unlock()
	return n, err
}

// bytes returns what was read.
func (c *capture) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf
}

// fetchConfig is how a robots.txt is fetched over HTTP.
type fetchConfig struct {
	userAgent string
	timeout   time.Duration
}

// A fetcher checks live URLs through a Client over a wire, as a crawler
// would (same URL checks, redirects and status rules), and keeps the
// robots.txt each decision rests on, read once per authority.
type fetcher struct {
	c       *robotstxt.Client
	w       *wire
	timeout time.Duration
	docs    map[string]*document // by authority
}

// newFetcher returns a fetcher whose Client fetches as cfg says and is
// configured by opts too.
func newFetcher(cfg fetchConfig, opts ...robotstxt.Option) *fetcher {
	w := newWire()
	opts = append([]robotstxt.Option{robotstxt.WithUserAgent(cfg.userAgent), robotstxt.WithFetchTimeout(cfg.timeout),
		robotstxt.WithHTTPClient(&http.Client{Transport: w})}, opts...)
	return &fetcher{c: robotstxt.NewClient(opts...), w: w, timeout: cfg.timeout, docs: make(map[string]*document)}
}

// close closes the Client and its idle connections.
func (f *fetcher) close() {
	f.c.Close()
	f.w.next.CloseIdleConnections()
}

// read checks url and returns the Client's decision, the error of the
// check (a deferral, or a URL the Client cannot check) and the robots.txt
// the decision rests on, read once per authority from the response the
// Client read, with the requests sent since the check began; nil when the
// Client made no decision. The Client bounds the fetch itself and reports
// a timeout as unreachable; the context only guards against a fetch that
// never returns.
func (f *fetcher) read(ctx context.Context, url string) (robotstxt.Decision, *document, error) {
	n := f.w.mark()
	ctx, cancel := context.WithTimeout(ctx, f.timeout+time.Second)
	defer cancel()
	d, err := f.c.Check(ctx, url)
	doc := f.docs[d.Authority]
	if doc == nil && d.Outcome != 0 {
		doc = &document{name: robotsURL(d), live: &d, liveErr: err, hops: f.w.since(n)}
		if r, ok := f.w.response(doc.name); ok && d.Outcome == robotstxt.OutcomeRules {
			if derr := doc.decode(r.body.bytes(), r.header); derr != nil {
				return d, nil, derr
			}
		}
		f.docs[d.Authority] = doc
	}
	return d, doc, err
}

// robotsURL returns the URL of the robots.txt d rests on: where redirects
// led, or else its authority's own, which the Client asks for without
// the scheme's default port.
func robotsURL(d robotstxt.Decision) string {
	if d.FinalURL != "" {
		return d.FinalURL
	}
	a := d.Authority
	if s, p, ok := strings.Cut(a, "://"); ok && (s == "https" && strings.HasSuffix(p, ":443") || s == "http" && strings.HasSuffix(p, ":80")) {
		a = a[:strings.LastIndexByte(a, ':')]
	}
	return a + "/robots.txt"
}

// cause names why a robots.txt could not be fetched, in a few words: a
// refused connection, a DNS failure, a timeout, a TLS failure or the
// status that answered. status is the HTTP status when one arrived.
func cause(status int, err error) string {
	var (
		dns     *net.DNSError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
		verify  *tls.CertificateVerificationError
		record  tls.RecordHeaderError
		alert   tls.AlertError
		netErr  net.Error
	)
	switch {
	case status != 0:
		s := fmt.Sprintf("status %d", status)
		if t := http.StatusText(status); t != "" {
			s += " " + t
		}
		if err != nil && status/100 == 3 {
			// A redirect the Client would not follow: its error says
			// why (no usable Location, a hop refused).
			s += ": " + errText(err)
		}
		return s
	case err == nil:
		return "no response"
	case errors.As(err, &dns):
		switch {
		case dns.IsNotFound:
			return "DNS: no such host " + dns.Name
		case dns.IsTimeout:
			return "DNS: lookup of " + dns.Name + " timed out"
		}
		return "DNS: lookup of " + dns.Name + " failed: " + dns.Err
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset by the server"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return "timed out"
	case errors.As(err, &unknown):
		return "TLS: certificate signed by an unknown authority"
	case errors.As(err, &host):
		return "TLS: certificate is not valid for " + host.Host
	case errors.As(err, &invalid):
		return "TLS: invalid certificate: " + invalid.Error()
	case errors.As(err, &verify):
		return "TLS: certificate not verified: " + errText(verify.Err)
	case errors.As(err, &record), strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		// net/http replaces the RecordHeaderError with a plain error.
		return "TLS: the server does not speak TLS"
	case errors.As(err, &alert):
		return "TLS: the server refused the handshake: " + alert.Error()
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "connection closed before the response ended"
	}
	return "network error: " + innermost(err)
}

// innermost is the message of the last error in err's chain that wraps
// nothing, so that a URL the message names is not said twice.
func innermost(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return strings.TrimSpace(errText(err))
		}
		err = next
	}
}
