package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"golang.org/x/net/idna"

	"github.com/robotsgate/robotstxt"
)

// dial makes the connections of the commands' Clients, as the default
// transport's dialer does. Tests replace it, so that no name they use
// reaches the system resolver.
var dial = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext

// newTransport returns a transport of the commands' own, dialing with
// dial.
func newTransport() *http.Transport {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = dial
	return tr
}

// maxHeld bounds the bytes of robots.txt a fetcher holds for the sites
// it may meet again, captured and decoded each (see fetcher.trim): four
// files of the most it reads (maxInput+1), or a thousand of 64 KiB, more
// than nearly every robots.txt is, so that a long list of sites is read
// once each while a run over many large files stays bounded. Tests lower
// it.
var maxHeld = 4 * (maxInput + 1)

// A tap is the transport of the Clients that fetch over the network: it
// keeps what a Client read of each success's body, by URL, so that the
// command can show the lines of the robots.txt the Client read; with
// whole set, a success the Client closed stays open, past the Client's
// fetch, for the command to read the whole file (see capture.rest).
type tap struct {
	next  *http.Transport
	whole bool

	mu      sync.Mutex
	bodies  *simplelru.LRU[string, *capture] // of the last response for each URL, while held
	held    atomic.Int64                     // bytes the captures in bodies hold
	dropped map[string]bool                  // the URLs whose capture was let go (see fetcher.trim)
	recent  []*capture                       // since the fetcher's last read: to end, not to leave open
	asked   map[string]int                   // the number of the last request for each URL
	again   map[string]bool                  // the URLs a success answered more than once
	n       int                              // requests sent, which numbers each
}

// RoundTrip sends req and keeps what is read of the response's body.
// With whole set, the end of req's context, the Client's fetch, ends the
// exchange only until the Client closes the body.
func (t *tap) RoundTrip(req *http.Request) (*http.Response, error) {
	c := &capture{held: &t.held}
	if t.whole {
		parent := req.Context()
		ctx, end := context.WithCancelCause(context.WithoutCancel(parent))
		c.end, c.stop = end, context.AfterFunc(parent, func() { end(context.Cause(parent)) })
		req = req.WithContext(ctx)
	}
	t.mu.Lock()
	t.n++
	n := t.n
	key := tapKey(req.URL.String())
	t.asked[key] = n
	t.mu.Unlock()
	resp, err := t.next.RoundTrip(req)
	if err == nil && resp.StatusCode/100 == 2 {
		// Only a success is kept: a redirect's body is no robots.txt,
		// and its URL would make a cut FinalURL ambiguous.
		c.ReadCloser, c.header, c.arrived = resp.Body, resp.Header, time.Now()
		resp.Body = c
		c.n, c.key = n, key
		t.mu.Lock()
		old, _ := t.bodies.Peek(key)
		t.bodies.Add(key, c)
		t.again[key] = t.again[key] || old != nil || t.dropped[key]
		delete(t.dropped, key)
		t.recent = append(t.recent, c)
		t.mu.Unlock()
		if old != nil {
			old.let()
		}
	}
	return resp, err
}

// body returns what was read of the last response for rawURL, or nil. A
// Decision gives a URL over 512 bytes cut, ending in "…": the one
// response whose URL starts with the rest is its, of those after the
// capture numbered since when there are any (the fetch of the check that
// began then), else of all, those let go counted; nil when none or
// several do.
func (t *tap) body(rawURL string, since int) *capture {
	rawURL = tapKey(rawURL)
	t.mu.Lock()
	defer t.mu.Unlock()
	if c, ok := t.bodies.Get(rawURL); ok {
		return c
	}
	prefix, cut := strings.CutSuffix(rawURL, "…")
	if !cut {
		return nil
	}
	var found []string
	for _, u := range t.bodies.Keys() {
		if strings.HasPrefix(u, prefix) {
			found = append(found, u)
		}
	}
	recent := slices.DeleteFunc(slices.Clone(found), func(u string) bool {
		c, _ := t.bodies.Peek(u)
		return c.n <= since
	})
	switch {
	case len(recent) > 0:
		found = recent
	case t.droppedLike(prefix):
		return nil // perhaps the one let go
	}
	if len(found) != 1 {
		return nil
	}
	c, _ := t.bodies.Get(found[0])
	return c
}

// droppedLike reports whether the capture of a URL starting with prefix
// was let go; t.mu is held.
func (t *tap) droppedLike(prefix string) bool {
	for u := range t.dropped {
		if strings.HasPrefix(u, prefix) {
			return true
		}
	}
	return false
}

// let lets c go from a tap: it is closed, and what it read no longer
// counts as held.
func (c *capture) let() {
	c.rest(0)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held != nil {
		c.held.Add(-int64(len(c.buf)))
		c.held = nil
	}
}

// settle reads whole, by deadline, and closes the responses since the
// last settle that a Close left open (see capture.rest): a robots.txt the
// Client read only to follow a redirect, which the command may show
// later, would hold its connection until the command ends. They are read
// side by side, so that one that trickles to the deadline cuts no other.
func (t *tap) settle(deadline time.Time) {
	t.mu.Lock()
	recent := t.recent
	t.recent = nil
	t.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range recent {
		wg.Go(func() { c.rest(until(deadline)) })
	}
	wg.Wait()
}

// until returns the time left to deadline, at least a nanosecond: what
// capture.rest reads within, cut (not closed unread) once it has passed.
func until(deadline time.Time) time.Duration {
	return max(time.Until(deadline), time.Nanosecond)
}

// wasDropped reports whether the capture of rawURL, or of a URL it may
// be cut from (see body), was let go to keep within maxHeld.
func (t *tap) wasDropped(rawURL string) bool {
	rawURL = tapKey(rawURL)
	t.mu.Lock()
	defer t.mu.Unlock()
	if prefix, cut := strings.CutSuffix(rawURL, "…"); cut {
		return t.droppedLike(prefix)
	}
	return t.dropped[rawURL]
}

// answeredAgain reports whether a success answered c's URL before c,
// whose capture c replaced: of a URL other than a site's own robots.txt,
// the Client may keep either as that site's copy.
func (t *tap) answeredAgain(c *capture) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.again[c.key]
}

// last reports whether c is of the last request t sent for its URL.
func (t *tap) last(c *capture) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.asked[c.key] == c.n
}

// made returns how many requests t has sent.
func (t *tap) made() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

// askedSince reports whether t sent a request for rawURL, or for a URL it
// may be cut from (see body), after the one numbered since.
func (t *tap) askedSince(rawURL string, since int) bool {
	key := tapKey(rawURL)
	t.mu.Lock()
	defer t.mu.Unlock()
	if prefix, cut := strings.CutSuffix(key, "…"); cut {
		for k, n := range t.asked {
			if n > since && strings.HasPrefix(k, prefix) {
				return true
			}
		}
		return false
	}
	return t.asked[key] > since
}

// tapKey returns url as a tap's maps key it: its scheme in lower case,
// its host as the Client names an authority (in punycode, in lower case,
// without a trailing dot, escapes or the scheme's default port), the rest
// as written. A Decision spells the URL a redirect led to as its Location
// did, which the Client may have asked for in its own spelling, or the
// other way round.
func tapKey(raw string) string {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return raw
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	scheme = strings.ToLower(scheme)
	authority := strings.ToLower(rest[:end])
	if u, err := url.Parse(scheme + "://" + rest[:end]); err == nil && u.Hostname() != "" {
		host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
		if addr, err := netip.ParseAddr(host); err == nil {
			host = addr.Unmap().String()
		} else if name, err := idna.Lookup.ToASCII(host); err == nil && name != "" {
			host = name // else as written, as net/http dials it
		}
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
		authority = host
		if p, err := strconv.Atoi(u.Port()); err == nil && !(scheme == "http" && p == 80 || scheme == "https" && p == 443) {
			authority += ":" + strconv.Itoa(p)
		}
	}
	return scheme + "://" + authority + rest[end:]
}

// A capture is a response body that keeps a copy of what is read from it,
// up to maxInput+1 bytes, with the response's header. Of a whole tap, a
// Close before the Client's fetch ends leaves it open for rest.
type capture struct {
	io.ReadCloser
	header http.Header
	n      int // its number in the tap
	// Of the check that sent it (see fetcher.read): failed says the
	// Client could not read it, answering from another copy or none;
	// fetched is the FetchedAt of the copy the Client read from it, to
	// the millisecond (two read within one are not told apart).
	failed  atomic.Bool
	fetched time.Time
	arrived time.Time               // when its header came
	key     string                  // its URL, as the tap keys it
	stop    func() bool             // of a whole tap: parts the exchange from the Client's fetch
	end     context.CancelCauseFunc // of a whole tap: ends the exchange

	mu   sync.Mutex
	buf  []byte
	cut  error
	open bool          // left open by Close
	held *atomic.Int64 // the tap's count of bytes held, while it holds c
}

func (c *capture) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.mu.Lock()
	if keep := min(n, maxInput+1-len(c.buf)); keep > 0 {
		c.buf = append(c.buf, p[:keep]...)
		if c.held != nil {
			c.held.Add(int64(keep))
		}
	}
	c.mu.Unlock()
	return n, err
}

func (c *capture) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open || c.stop != nil && c.stop() {
		c.open = true
		return nil
	}
	return c.ReadCloser.Close()
}

// rest reads on, for at most timeout, a response Close left open, to its
// end or maxInput+1 bytes, and closes it; cut then says why it ended
// short, if it did. With timeout 0 it only closes it.
func (c *capture) rest(timeout time.Duration) {
	c.mu.Lock()
	open := c.open
	c.open = false
	c.mu.Unlock()
	if !open {
		return
	}
	defer c.ReadCloser.Close()
	defer c.end(nil)
	if timeout > 0 {
		t := time.AfterFunc(timeout, func() { c.end(context.DeadlineExceeded) })
		defer t.Stop()
		b, _ := c.bytes()
		_, err := io.Copy(io.Discard, io.LimitReader(c, int64(maxInput+1-len(b))))
		c.mu.Lock()
		c.cut = err
		c.mu.Unlock()
	}
}

// bytes returns what was read, and why reading stopped short, if it did.
func (c *capture) bytes() ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf, c.cut
}

// fetchConfig is how a robots.txt is fetched over HTTP.
type fetchConfig struct {
	userAgent string
	timeout   time.Duration
	// whole reads the robots.txt of each decision past what the Client
	// reads, up to maxInput, so that -full and lint see the whole file.
	whole bool
	// opts configure the Client further: the product token and mode of
	// the command's checks, which the hops of a fetch are checked with.
	opts []robotstxt.Option
}

// A fetcher checks live URLs through a Client over a tap, as a crawler
// would (same URL checks, redirects and status rules), and keeps the
// robots.txt each decision rests on, read once per fetch of it.
type fetcher struct {
	c       *robotstxt.Client
	tap     *tap
	timeout time.Duration
	docs    *simplelru.LRU[string, *document] // by authority: of its last fetch, while held
	held    int                               // bytes the documents in docs hold
	letGo   map[string]bool                   // the authorities whose document docs let go, not held again since
	copies  map[string]int                    // by a site's own robots.txt URL: the capture its last copy was read from, 0 for unknown
}

// newFetcher returns a fetcher whose Client fetches as cfg says.
func newFetcher(cfg fetchConfig) *fetcher {
	t := &tap{next: newTransport(), whole: cfg.whole, dropped: make(map[string]bool), asked: make(map[string]int), again: make(map[string]bool)}
	t.bodies, _ = simplelru.NewLRU(math.MaxInt, func(u string, c *capture) {
		c.let()
		t.dropped[u] = true
	})
	opts := append([]robotstxt.Option{robotstxt.WithUserAgent(cfg.userAgent), robotstxt.WithFetchTimeout(cfg.timeout),
		robotstxt.WithHTTPClient(&http.Client{Transport: t})}, cfg.opts...)
	f := &fetcher{c: robotstxt.NewClient(opts...), tap: t, timeout: cfg.timeout, copies: make(map[string]int), letGo: make(map[string]bool)}
	// The first Transport made for a Client paces its robots.txt
	// redirects to other sites: one with the defaults, as a crawler's
	// Client paces them, whatever a command's own pages ask (check's
	// spaces none).
	robotstxt.NewTransport(f.c, nil)
	f.docs, _ = simplelru.NewLRU(math.MaxInt, func(a string, d *document) { f.held -= d.footprint(); f.letGo[a] = true })
	return f
}

// close closes the Client, the responses left open and idle connections.
func (f *fetcher) close() {
	f.c.Close()
	f.tap.mu.Lock()
	defer f.tap.mu.Unlock()
	for _, c := range f.tap.bodies.Values() {
		c.rest(0)
	}
	f.tap.next.CloseIdleConnections()
}

// trim lets the least recently used captures and documents go until
// each holds at most maxHeld bytes, but for the last used: a site met
// again whose robots.txt the Client still has but the command no longer
// holds is refused (see read) rather than kept, over a list of sites of
// any length.
func (f *fetcher) trim(deadline time.Time) {
	f.tap.settle(deadline)
	f.tap.mu.Lock()
	for f.tap.held.Load() > int64(maxHeld) && f.tap.bodies.Len() > 1 {
		f.tap.bodies.RemoveOldest()
	}
	f.tap.mu.Unlock()
	for f.held > maxHeld && f.docs.Len() > 1 {
		f.docs.RemoveOldest()
	}
}

// read checks url and returns the Client's decision, the error of the
// check (a deferral, or a URL the Client cannot check) and the robots.txt
// the decision rests on, read once per fetch from the response the
// Client read, with the requests the check sent for it; nil when the
// Client made no decision. The Client bounds the fetch itself and reports
// a timeout as unreachable; the context only guards against a fetch that
// never returns. With whole set, the rest of the robots.txt, and of the
// others the check read, is read after the Client's fetch, by the end of
// the timeout from the check's start: -timeout bounds the whole.
func (f *fetcher) read(ctx context.Context, url string) (robotstxt.Decision, *document, error) {
	since, deadline := f.tap.made(), time.Now().Add(f.timeout)
	ctx, cancel := context.WithTimeout(ctx, f.timeout+time.Second)
	defer cancel()
	defer f.trim(deadline)
	d, err := f.c.Check(ctx, url)
	var c *capture // the last response for the robots.txt d rests on
	if d.Outcome != 0 {
		c = f.tap.body(robotsURL(d), since)
	}
	own := tapKey(ownRobots(d.Authority)) // keys f.copies
	if c != nil && c.n > since {
		// This check's: the Client read it, or answers from another
		// copy (an older one of another site, c a hop's), or none. The
		// copy's time is to the millisecond, and no earlier than c came.
		switch {
		case d.Outcome != robotstxt.OutcomeRules || d.Stale:
			c.failed.Store(true)
		case !d.FetchedAt.Before(c.arrived.Truncate(time.Millisecond)):
			c.fetched = d.FetchedAt
			f.copies[own] = c.n
			for _, r := range d.Redirects() {
				// The Client may keep it as that site's copy too, or not
				// (its own fresh): which, only their times tell.
				if u := tapKey(r.URL); u != own && strings.HasSuffix(u, "/robots.txt") {
					f.copies[u] = 0
				}
			}
		}
	}
	// src is c where the Client's copy was read from it: read for a
	// check, for this copy (another site's robots.txt may have redirected
	// here, the Client keeping it as this site's too), or for this site's
	// copy and kept as its last (a 304 revalidates it, moving its time);
	// or read for no check (a hop of a redirect checked against this
	// site's robots.txt), by the copy's time, no later request for its
	// URL sent since.
	var src *capture
	if c != nil && !c.failed.Load() && d.Outcome == robotstxt.OutcomeRules {
		switch {
		case !c.fetched.IsZero():
			// Of this copy's time, unless the site's copy is known to be
			// another response's (two read within one millisecond).
			// A URL answered more than once (a page two sites' robots.txt
			// lead to, one the other's hop) may have served this site's
			// copy in the response c replaced, read in the same
			// millisecond: only a copy known to be c's is.
			unknown := f.copies[own] == 0 && (c.key == own || !f.tap.answeredAgain(c))
			if c.fetched.Equal(d.FetchedAt) && unknown || c.n == f.copies[own] {
				src = c
			}
		case !c.arrived.After(d.FetchedAt.Add(time.Millisecond)) && f.tap.last(c): // FetchedAt is to the millisecond
			src = c
		}
	}
	doc, _ := f.docs.Get(d.Authority)
	var held bool
	switch {
	case doc == nil:
	case src != nil:
		held = doc.from == src.n
	case sameCopy(doc.live, &d):
		held = true
	case revalidated(doc.live, &d) && f.copies[own] == doc.from:
		// This site's copy, revalidated since, unless the last response
		// for its URL, read for no check, may have replaced it with
		// another entity: not where its ETag is the document's, nor
		// where it is not the copy's.
		held = true
		if c != nil && c.n != doc.from && !c.failed.Load() && c.fetched.IsZero() {
			etag := c.header.Get("ETag")
			held = etag != "" && (etag == doc.live.ETag || etag != d.ETag)
		}
	}
	if src != nil {
		f.copies[own] = src.n
	}
	if held {
		f.tap.body(doc.name, since) // used with its document: let go no sooner
	}
	if d.Outcome != 0 && !held {
		doc = &document{name: robotsURL(d), live: &d, liveErr: err, hops: f.requests(d, since, make(map[string]bool))}
		if d.Outcome == robotstxt.OutcomeRules {
			switch {
			case src != nil:
			case c != nil && c.key != own && f.tap.answeredAgain(c) && !c.failed.Load() && !f.letGo[d.Authority]:
				return d, nil, fmt.Errorf("%s: answered more than once in this run (another site's robots.txt leads there too), and which response the Client keeps as this site's cannot be told: check its URLs in a run of their own",
					doc.name)
			case c == nil && f.tap.wasDropped(doc.name), c != nil && !c.fetched.IsZero():
				// Let go, or read by the Client for another copy
				// (another site's redirected there, or this one's
				// since): this one's was let go.
				return d, nil, fmt.Errorf("%s: read earlier in this run and no longer held (the command holds %d MiB of robots.txt files): check its URLs in a run of their own",
					doc.name, maxHeld>>20)
			case c != nil && c.failed.Load():
				return d, nil, fmt.Errorf("%s: the Client answers from a copy the command no longer holds (the last response could not be read): check its URLs in a run of their own",
					doc.name)
			default:
				return d, nil, fmt.Errorf("%s: the body the Client read cannot be told apart", doc.name)
			}
			c = src
			doc.from = c.n
			f.tap.settle(deadline) // c, with the others the check read
			c.rest(until(deadline))
			raw, cut := c.bytes()
			header := c.header
			if d.Status == http.StatusNoContent || d.Status == http.StatusResetContent {
				// No content, whatever a header names or a body holds
				// (drained through the tap): the Client reads an empty file.
				raw, header = nil, nil
			}
			if derr := doc.decode(raw, header); derr != nil {
				return d, nil, derr
			}
			if doc.cut = cut; cut != nil && doc.body.Truncated {
				// Past what the Client read, the rest did not arrive:
				// read, as a rest that does not decode, only that part,
				// with -full too (a Client reading on would find the
				// file cut, and unreachable).
				doc.whole, doc.over, doc.partial = doc.body, false, true
			}
		}
		if old, ok := f.docs.Peek(d.Authority); ok {
			f.held -= old.footprint()
		}
		f.docs.Add(d.Authority, doc)
		delete(f.letGo, d.Authority)
		f.held += doc.footprint()
	}
	if doc != nil {
		doc.stale = d.Stale // of this check: a held document may be answered from stale
	}
	return d, doc, err
}

// sameCopy reports whether d, of a check that read no new response,
// rests on the robots.txt whose document was read for held: d is of the
// same check, or of the same copy of rules, fetched or revalidated at the
// same time (a copy standing in for a fetch that failed keeps its time;
// the last response, which the Client could not read, is not it).
func sameCopy(held, d *robotstxt.Decision) bool {
	return held.CheckedAt.Equal(d.CheckedAt) ||
		held.Outcome == robotstxt.OutcomeRules && d.Outcome == robotstxt.OutcomeRules &&
			held.FinalURL == d.FinalURL && held.FetchedAt.Equal(d.FetchedAt)
}

// revalidated reports whether d rests on rules of held's validators,
// where held is: revalidated since (a 304 moves the fetch's time), or
// fetched again with the same validators.
func revalidated(held, d *robotstxt.Decision) bool {
	return held.Outcome == robotstxt.OutcomeRules && d.Outcome == robotstxt.OutcomeRules && held.FinalURL == d.FinalURL &&
		(held.ETag != "" && held.ETag == d.ETag || held.LastModified != "" && held.LastModified == d.LastModified)
}

// A request is one request the Client sent for a robots.txt, as -v lists
// it.
type request struct {
	label  string // "robots.txt" for a site's own, "redirect" for where a redirect led
	url    string
	result string // "301 Moved Permanently", or why no response came (see cause)
}

// requests returns the requests the Client sent, since start, for the
// robots.txt d rests on, as d tells them: its authority's own robots.txt,
// and each redirect it followed, with what answered each; before a
// redirect the Client checked against the robots.txt of another site,
// the requests for that robots.txt, as the Client's cached decision for
// the redirect's URL tells them. None when the robots.txt was fetched
// before start, no decision was made, or listed holds its authority: a
// robots.txt is listed once. A redirect to another site's robots.txt
// whose copy the Client held, and so did not ask, is listed as such, as
// are the redirects of that copy after it. A
// redirect the Client refused is not in d: d's error names it and says
// why.
func (f *fetcher) requests(d robotstxt.Decision, since int, listed map[string]bool) []request {
	if d.Outcome == 0 || !f.tap.askedSince(ownRobots(d.Authority), since) || listed[d.Authority] {
		return nil
	}
	listed[d.Authority] = true
	reqs := []request{{label: "robots.txt", url: ownRobots(d.Authority)}}
	var redirects []int // reqs' indices of d's redirects
	for _, r := range d.Redirects() {
		reqs[len(reqs)-1].result = statusText(r.Status)
		// The hop's check came before d's fetch ended; a later one was
		// a fetch of its own, after the copy the check read expired.
		if r.Checked {
			if hop, err := f.c.Check(context.Background(), r.URL); err == nil && !hop.CheckedAt.After(d.CheckedAt) {
				reqs = append(reqs, f.requests(hop, since, listed)...)
			}
		}
		redirects = append(redirects, len(reqs))
		reqs = append(reqs, request{label: "redirect", url: r.URL})
	}
	err := d.Err
	var de *robotstxt.DeferredError
	if errors.As(err, &de) {
		err = de.Err // the failure itself
	}
	last := &reqs[len(reqs)-1]
	last.result = cause(0, err)
	if d.LastStatus != 0 {
		last.result = answered(d.LastStatus, err)
	}
	held := false
	for _, i := range redirects {
		// From another site's robots.txt on, whose copy the Client
		// held, d's redirects are that copy's.
		if held = held || !f.tap.askedSince(reqs[i].url, since); held {
			reqs[i].result = "not asked; held from an earlier request: " + reqs[i].result
		}
	}
	return reqs
}

// robotsURL returns the URL of the robots.txt d rests on: where redirects
// led, or else its authority's own.
func robotsURL(d robotstxt.Decision) string {
	if d.FinalURL != "" {
		return d.FinalURL
	}
	return ownRobots(d.Authority)
}

// ownRobots returns the URL of authority's own robots.txt, as the Client
// asks for it: without the scheme's default port.
func ownRobots(authority string) string {
	a := authority
	if s, p, ok := strings.Cut(a, "://"); ok && (s == "https" && strings.HasSuffix(p, ":443") || s == "http" && strings.HasSuffix(p, ":80")) {
		a = a[:strings.LastIndexByte(a, ':')]
	}
	return a + "/robots.txt"
}

// statusText is an HTTP status as -v shows it: "301 Moved Permanently".
func statusText(status int) string { return answered(status, nil) }

// answered is what answered a request, as -v shows it: its status, "200
// OK", and, unless it redirected, why its body could not be read when
// err, the fetch's error, says. The Client's error for a status that
// makes a robots.txt unreachable only restates the status, and wraps
// nothing: it adds nothing.
func answered(status int, err error) string {
	s := strconv.Itoa(status)
	if t := http.StatusText(status); t != "" {
		s += " " + t
	}
	if inner := errors.Unwrap(err); inner != nil && status/100 != 3 {
		s += ": " + failure(inner, errText(inner))
	}
	return s
}

// cause names why a robots.txt could not be fetched, in a few words: a
// refused connection, a DNS failure, a timeout, a TLS failure, or the
// status that answered and why its body could not be read (see answered).
// status is the HTTP status when one arrived.
func cause(status int, err error) string {
	switch {
	case status/100 == 3 && err != nil:
		// A redirect the Client would not follow: its error says why
		// (no usable Location, a hop refused).
		return "status " + statusText(status) + ": " + errText(err)
	case status != 0:
		return "status " + answered(status, err)
	case err == nil:
		return "no response"
	}
	other := innermost(err) // an answer net/http could not read (a Location), say
	if op := (*net.OpError)(nil); errors.As(err, &op) {
		other = "network error: " + other
	}
	return failure(err, other)
}

// failure names a failure of the network, of TLS or of time, in a few
// words, or returns other when err is none of them.
func failure(err error, other string) string {
	var (
		dns     *net.DNSError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
		verify  *tls.CertificateVerificationError
		record  tls.RecordHeaderError
		alert   tls.AlertError
		netErr  net.Error
		op      *net.OpError
	)
	switch {
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
		return "TLS: the server sent an alert: " + alert.Error()
	case errors.As(err, &op) && op.Op == "remote error": // an alert, as crypto/tls reports one over TCP
		return "TLS: the server sent an alert: " + errText(op.Err)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "connection closed before the response ended"
	}
	return other
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
