package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/body"
	urltarget "github.com/robotsgate/robotstxt/internal/target"
)

// A hop is one robots.txt request that a Client sent: a fetch has one per
// redirect followed.
type hop struct {
	url    string
	status int // 0 when no response arrived
	err    error
	header http.Header
	body   *capture // what the Client read of the body
}

// A recorder is the transport of the Clients the command makes. It notes
// each request the Client sends and its response, with what the Client
// read of its body (up to maxInput+1 bytes), so that the command can show
// the redirect chain and the cause of a failure, and read the body the
// Client parsed, without changing the library: the Client follows
// redirects itself, one request per hop, through the transport it is given.
type recorder struct {
	next http.RoundTripper

	mu   sync.Mutex
	hops []hop
}

// dial makes the connections of the commands' Clients, as the default
// transport's dialer does. Tests replace it, so that no name they use
// reaches the system resolver.
var dial = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext

// newRecorder returns a recorder over a transport of its own, whose idle
// connections close ends.
func newRecorder() (*recorder, func()) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = dial
	return &recorder{next: tr}, tr.CloseIdleConnections
}

// RoundTrip sends req and records it.
func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	h := hop{url: req.URL.String(), err: err}
	if err == nil {
		h.status, h.header = resp.StatusCode, resp.Header
		h.body = &capture{ReadCloser: resp.Body, limit: maxInput + 1}
		resp.Body = h.body
	}
	r.mu.Lock()
	r.hops = append(r.hops, h)
	r.mu.Unlock()
	return resp, err
}

// mark returns how many hops are recorded, for since.
func (r *recorder) mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.hops)
}

// since returns the hops recorded after mark returned n.
func (r *recorder) since(n int) []hop {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hop(nil), r.hops[n:]...)
}

// parsed returns the response whose body the Client parsed for d, a
// decision that rests on OutcomeRules and that a check made after mark
// returned n; false when none is recorded. When that check sent requests,
// it is the last of them: a fetch ends with the request for the robots.txt
// it reads, after its redirects and the robots.txt files fetched to check
// them. When the check sent none, the Client had fetched the robots.txt
// before, to check a redirect of another site's, and it is the last
// response to d's final URL.
func (r *recorder) parsed(n int, d robotstxt.Decision) (hop, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.hops) > n {
		return r.hops[len(r.hops)-1], true
	}
	for i := len(r.hops) - 1; i >= 0; i-- {
		if h := r.hops[i]; h.err == nil && isFinalURL(h.url, d) {
			return h, true
		}
	}
	return hop{}, false
}

// isFinalURL reports whether the request URL u is the robots.txt URL d
// rests on: d.FinalURL after redirects, or else its authority's own
// /robots.txt.
func isFinalURL(u string, d robotstxt.Decision) bool {
	if d.FinalURL != "" {
		return u == d.FinalURL
	}
	key, path, err := urltarget.Split(u, nil)
	return err == nil && string(key) == d.Authority && path == "/robots.txt"
}

// location returns the URL that h redirects to, as the Client follows it
// (without fragment or userinfo), or "" when h is no redirect.
func (h hop) location() string {
	if h.status/100 != 3 || h.header.Get("Location") == "" {
		return ""
	}
	next, err := url.Parse(h.url)
	if err == nil {
		next, err = next.Parse(h.header.Get("Location"))
	}
	if err != nil {
		return ""
	}
	next.Fragment, next.RawFragment, next.User = "", "", nil
	return next.String()
}

// text returns the body of h as the Client parsed it, read through its
// body pipeline with the Client's default body limit: nil when h has no
// body that pipeline reads.
func (h hop) text() []byte {
	if h.body == nil {
		return nil
	}
	b, err := body.Read(bytes.NewReader(h.body.bytes()), h.header, body.DefaultLimit)
	if err != nil {
		return nil
	}
	return b.Text
}

// A capture is a response body that keeps a copy of what is read from it,
// up to limit bytes.
type capture struct {
	io.ReadCloser
	limit int

	mu  sync.Mutex
	buf []byte
}

func (c *capture) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.mu.Lock()
	if keep := min(n, c.limit-len(c.buf)); keep > 0 {
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

// options returns the Client options of c.
func (c fetchConfig) options() []robotstxt.Option {
	return []robotstxt.Option{robotstxt.WithUserAgent(c.userAgent), robotstxt.WithFetchTimeout(c.timeout)}
}

// A fetched robots.txt: what the Client made of it (the Decision for the
// URL it was fetched for, which describes the robots.txt), the requests
// it took and, for a body that was parsed, the bytes and header of the
// final response.
type fetched struct {
	d      robotstxt.Decision
	hops   []hop
	raw    []byte
	header http.Header
}

// fetchRobots fetches the robots.txt of rawURL's authority through a
// Client, as a crawler would (same URL checks, redirects and status
// rules), with no body limit so that the caller can read the body through
// the Client's body pipeline both as crawlers read it and whole. An
// unreachable robots.txt is no error: the Decision says so. An error
// means that the URL cannot be checked, or ctx ended.
func fetchRobots(ctx context.Context, rawURL string, cfg fetchConfig) (*fetched, error) {
	rec, closeIdle := newRecorder()
	defer closeIdle()
	opts := append(cfg.options(),
		robotstxt.WithHTTPClient(&http.Client{Transport: rec}),
		robotstxt.WithBodyLimit(maxInput))
	c := robotstxt.NewClient(opts...)
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout+time.Second)
	defer cancel()
	d, err := c.Check(ctx, rawURL)
	var de *robotstxt.DeferredError
	if err != nil && !errors.As(err, &de) {
		return nil, err
	}
	f := &fetched{d: d, hops: rec.since(0)}
	if d.Outcome == robotstxt.OutcomeRules {
		if h, ok := rec.parsed(0, d); ok && h.body != nil {
			f.raw, f.header = h.body.bytes(), h.header
		}
	}
	return f, nil
}

// url returns the URL of the robots.txt: where redirects led, or else the
// authority's own, the first the Client asked for.
func (f *fetched) url() string {
	if f.d.FinalURL != "" || len(f.hops) == 0 {
		return f.d.FinalURL
	}
	return f.hops[0].url
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
	case errors.Is(err, body.ErrContentCoding):
		return "unsupported content coding"
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

// unreachable names why an unreachable robots.txt could not be read: the
// failure a DeferredError carries, or the status.
func unreachable(status int, err error) string {
	var de *robotstxt.DeferredError
	if errors.As(err, &de) {
		return cause(de.Status, de.Err)
	}
	return cause(status, err)
}
