package robotstxt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/robotsgate/robotstxt/internal/body"
)

// fetchResult is what one robots.txt fetch, redirects included, gave.
type fetchResult struct {
	outcome     Outcome
	status      int // final status; 0 when no response arrived
	notModified bool
	body        []byte // UTF-8, at most the body limit
	header      http.Header
	finalURL    string
	err         error // why the result is unreachable or allow-all
}

// errRedirects is wrapped when redirects cannot lead to a robots.txt.
var errRedirects = errors.New("robotstxt: redirects do not reach a robots.txt")

// robotsURL returns the robots.txt URL of a normalised authority, without a default port.
func robotsURL(key string) string {
	switch {
	case strings.HasPrefix(key, "https://") && strings.HasSuffix(key, ":443"):
		key = key[:len(key)-len(":443")]
	case strings.HasPrefix(key, "http://") && strings.HasSuffix(key, ":80"):
		key = key[:len(key)-len(":80")]
	}
	return key + "/robots.txt"
}

// A fetcher gets robots.txt files for a Client, following redirects by
// hand so that admit can check each hop.
type fetcher struct {
	hc  http.Client
	cfg *config
	// admit is Client.admitHop.
	admit func(ctx context.Context, key string, next *url.URL) (done func(), err error)
}

// fetch gets and classifies the robots.txt of the authority key; prev, if
// not nil, supplies validators.
func (f *fetcher) fetch(ctx context.Context, key string, prev *entry) fetchResult {
	ctx, cancel := context.WithTimeout(ctx, f.cfg.fetchTimeout)
	defer cancel()
	target := robotsURL(key)
	seen := []string{target} // the URLs asked for so far
	done := func() {}
	for hop := 0; ; hop++ {
		resp, err := f.get(ctx, target, prev)
		done()
		if err != nil {
			outcome := valid(f.cfg.errPolicy(err))
			if outcome == OutcomeRules || errors.Is(err, ErrNonPublic) {
				// Whatever the policy: no response has rules to read, and
				// a robots.txt a guard refused is never "no robots.txt".
				outcome = OutcomeUnreachable
			}
			return fetchResult{outcome: outcome, finalURL: target, err: err}
		}
		res := fetchResult{status: resp.StatusCode, header: resp.Header, finalURL: target}
		switch resp.StatusCode {
		case 301, 302, 303, 307, 308:
		default:
			f.classify(&res, resp, prev)
			return res
		}
		discard(resp)
		loc := resp.Header.Get("Location")
		next, err := resp.Request.URL.Parse(loc)
		if err == nil {
			next.Fragment, next.RawFragment = "", ""
			next.User = nil // credentials from a Location header are neither sent nor shown
		}
		// A redirect that cannot be followed is a fault; only too many
		// redirects, or a loop, mean there is none (RFC 9309 §2.3.1.2).
		res.outcome = OutcomeUnreachable
		switch {
		case loc == "" || err != nil:
			res.err = fmt.Errorf("%w: %d without a usable Location", errRedirects, resp.StatusCode)
		case next.Scheme != "http" && next.Scheme != "https":
			res.err = fmt.Errorf("%w: redirect to scheme %q", errRedirects, capQuote(next.Scheme))
		case hop >= f.cfg.maxRedirects:
			res.outcome = OutcomeAllowAll
			res.err = fmt.Errorf("%w: more than %d redirects", errRedirects, f.cfg.maxRedirects)
		case slices.Contains(seen, next.String()):
			res.outcome = OutcomeAllowAll
			res.err = fmt.Errorf("%w: redirect loop at %s", errRedirects, capQuote(next.String()))
		}
		if res.err != nil {
			return res
		}
		if done, err = f.admit(ctx, key, next); err != nil {
			res.err = err
			return res
		}
		target = next.String()
		seen = append(seen, target)
	}
}

// valid returns o, or OutcomeUnreachable when a policy gave an outcome
// that a response cannot have.
func valid(o Outcome) Outcome {
	if o == 0 || o > OutcomeUnreachable {
		return OutcomeUnreachable
	}
	return o
}

// get sends one GET with the configured headers and prev's validators.
func (f *fetcher) get(ctx context.Context, target string, prev *entry) (*http.Response, error) {
	req, err := http.NewRequestWithContext(context.WithValue(ctx, fetchKey{}, f), http.MethodGet, target, nil)
	if err != nil {
		return nil, fmt.Errorf("robotstxt: request for %s: %w", capQuote(target), err)
	}
	req.Header.Set("User-Agent", f.cfg.userAgent)
	req.Header.Set("Accept", "text/plain, */*;q=0.5")
	if f.cfg.from != "" {
		req.Header.Set("From", f.cfg.from)
	}
	if prev != nil && prev.good() {
		if prev.etag != "" {
			req.Header.Set("If-None-Match", prev.etag)
		}
		if prev.lastMod != "" {
			req.Header.Set("If-Modified-Since", prev.lastMod)
		}
	}
	resp, err := f.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("robotstxt: fetching %s: %w", capQuote(target), err)
	}
	if resp.Request == nil {
		// A RoundTripper need not fill it in; what follows reads it.
		resp.Request = req
	}
	// The request's context does not bound every body (an unsolicited 101
	// gives the raw connection): close it when the fetch ends. The watch
	// closes the body captured here, not resp.Body, which is replaced.
	body := resp.Body
	stop := context.AfterFunc(ctx, func() { _ = body.Close() })
	resp.Body = &stopBody{ReadCloser: body, ctx: ctx, stop: stop}
	return resp, nil
}

// classify reads a final response's status and, for rules, its body.
func (f *fetcher) classify(res *fetchResult, resp *http.Response, prev *entry) {
	defer discard(resp)
	conditional := resp.Request.Header.Get("If-None-Match") != "" ||
		resp.Request.Header.Get("If-Modified-Since") != ""
	if resp.StatusCode == http.StatusNotModified && conditional {
		res.notModified = true
		return
	}
	res.outcome = valid(f.cfg.policy(resp.StatusCode))
	if res.outcome != OutcomeRules {
		if res.outcome == OutcomeUnreachable {
			res.err = fmt.Errorf("robotstxt: %s answered %s", capQuote(res.finalURL), capQuote(resp.Status))
		}
		return
	}
	b, err := body.Read(resp.Body, resp.Header, f.cfg.bodyLimit)
	if err != nil {
		res.outcome = OutcomeUnreachable
		res.err = fmt.Errorf("robotstxt: reading %s: %w", capQuote(res.finalURL), err)
		return
	}
	res.body = b.Text
}

// drainLimit is how much of an unneeded body is read so that its
// connection can be reused: enough for a typical HTML error page.
const drainLimit = 64 << 10

// discard drains up to drainLimit of a body and closes it; get's watch
// bounds the drain by the deadline.
func discard(resp *http.Response) {
	_, _ = io.CopyN(io.Discard, resp.Body, drainLimit)
	_ = resp.Body.Close()
}

// fetchKey keys the *fetcher that sent a request in its context.
type fetchKey struct{}

// sentBy reports whether req is one of c's own robots.txt requests, which
// a Transport passes on unchecked.
func (c *Client) sentBy(req *http.Request) bool {
	return req.Context().Value(fetchKey{}) == &c.fetcher
}

// stopBody is a body whose Close stops get's watch, and whose reads after
// the watch closed it name the deadline, not "read on closed body".
type stopBody struct {
	io.ReadCloser
	ctx  context.Context
	stop func() bool
}

func (b *stopBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF && b.ctx.Err() != nil {
		err = fmt.Errorf("%w (%w)", b.ctx.Err(), err)
	}
	return n, err
}

func (b *stopBody) Close() error {
	b.stop()
	return b.ReadCloser.Close()
}

func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
