package robotstxt

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robotsgate/robotstxt/internal/agent"
	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/pacing"
	"github.com/robotsgate/robotstxt/internal/parse"
	"github.com/robotsgate/robotstxt/internal/target"
	"golang.org/x/net/idna"
)

// ErrDisallowed is matched (with errors.Is) by the error a [Transport]
// returns for a request that robots.txt disallows; errors.As with a
// *[DisallowedError] gives the decision.
var ErrDisallowed = errors.New("robotstxt: disallowed by robots.txt")

// A DisallowedError reports a request that a [Transport] did not send
// because robots.txt disallows it.
type DisallowedError struct {
	// Decision is the Client's decision, with the deciding rule.
	Decision Decision
	// URL is the request's URL without its userinfo, cut to 512 bytes
	// (a redirect's Location is the server's to choose).
	URL string
}

// Error names the URL, the path a server serves for it when that is what
// robots.txt disallows (see [Decision.Served]), and the rule, or the
// status, that disallows it, each cut to 128 bytes.
func (e *DisallowedError) Error() string {
	d, page := e.Decision, capQuote(e.URL)
	switch {
	case d.Rule.Line != 0 && d.Served != "":
		page += ", served as " + capQuote(d.Served) + ","
		fallthrough
	case d.Rule.Line != 0:
		return fmt.Sprintf("robotstxt: %s disallowed by robots.txt line %d (Disallow: %s)",
			page, d.Rule.Line, capQuote(d.Rule.Pattern))
	case d.Outcome == OutcomeDisallowAll:
		return fmt.Sprintf("robotstxt: %s disallowed: robots.txt answered status %d (disallow all)",
			page, d.Status)
	}
	return fmt.Sprintf("robotstxt: %s disallowed by robots.txt", page)
}

// Unwrap returns ErrDisallowed.
func (e *DisallowedError) Unwrap() error { return ErrDisallowed }

// A Transport is an http.RoundTripper that obeys robots.txt: give it to
// the http.Client (or colly Collector, through WithTransport) a crawler
// sends its requests with, and the crawler cannot disobey by accident.
// Use [Client.Check] instead when the crawler needs the decision before
// it builds a request, or does not use net/http.
//
// Every request, each redirect hop included, is first checked as
// [Client.Allowed] checks a URL, reading the request target as net/http
// writes it. A request without a User-Agent (or with a blank one, which
// net/http sends empty or not at all) is sent with the Client's;
// one whose User-Agent names another crawler is refused with
// [ErrAgentMismatch] (give a colly Collector the Client's User-Agent). A
// request whose Host names another authority than its URL must be allowed
// by both robots.txt files; a Host that is not an authority alone, a Host
// naming another host at another port than the one dialled (the scheme's
// when it names none: a server may pick the site by either), a Host key
// in the header other than Request.Host, a URL with an opaque part or a
// '#' in its RawQuery (which nginx and Apache end the query at), or one
// the Client cannot check gives [ErrBadURL]. A request goes out
// with the Host its site's robots.txt was fetched with ("a.test" for a
// Host or URL spelling it "A.TEST." or "a.test:80"), and to the host
// that fetch dialled and named in TLS, lest a resolver or a server that
// tells the spellings apart serve a site whose robots.txt was not read.
// A request robots.txt disallows is not sent: RoundTrip returns a
// *[DisallowedError], or while robots.txt is unreachable the Client's
// *[DeferredError] (one too, with Failures 0, when the request's
// deadline comes while robots.txt is being read). These errors reach
// the caller of http.Client.Do inside a *url.Error, which errors.Is and
// errors.As see through.
//
// Allowed requests are paced by a [Pacer] per site asked for (the
// authority of Request.Host when it names another host than the URL, else
// the URL's, and both the one dialled and the one its Host header names
// for a name net/http sends unmapped, in the URL or in a Request.Host
// naming the URL's host, or a Host naming the URL's host at another
// port), however it is spelled and whatever address it is sent to, its
// http and https and its www. twin paced as one site (most sites serve
// them from the same servers: an http link redirected to https waits for
// the turn after the redirect's, and a Retry-After one sends holds them
// all; where their robots.txt files give two Crawl-delays, the longer
// paces both while either's lasts, see [Pacer]; a twin whose file gives
// none, with no [WithDefaultInterval], waits for the other's pace, but
// its request, in a turn of interval 0, holds no paced one back). A redirect an
// http.Client sends to another server with the Host of the request before
// it kept (a Location "//other.test/x"; a Host a CheckRedirect sets is
// the caller's) takes the turns of both that Host's site and the
// server's, and a 429 or 503 holds both.
// Requests to one site reach it at least the Crawl-delay robots.txt
// gives the Client's product tokens apart (else
// [WithDefaultInterval]; for a Host of its own, the longer of the two
// files'), from the end of one response (its body read to its end or
// closed) to the sending of the next, while the turn's lease (see
// [Pacer]: 30 seconds, or the Crawl-delay if longer) lasts: a body
// never closed, or still coming when the lease runs out, holds its site
// no longer, and the next request may be sent beside it; but next's own
// retry of a replayable request (a GET on a fresh connection after a
// reused one closed with no response, as net/http's Transport does) goes
// in the same turn. A 429 or 503 response holds its site for its Retry-After
// (the longest of its values; at least a second, with none), up to
// [WithMaxHold], as one to the Client's robots.txt requests does. A
// request waits in RoundTrip for its turn unless it cannot come before
// the request's deadline ([WithMaxWait] without one), or is not free now
// under [WithNoWait], or, the second of two, cannot come within half the
// first's lease (see [Pacer]), held meanwhile: then it fails at once,
// unsent, with a *[PacedError].
// After each wait the request is checked again, as robots.txt stands
// then (the copy the cache holds, fetched again unless it was fetched
// since the request began), and paced by it: a Crawl-delay raised or a
// Retry-After met meanwhile counts; not while it holds a turn (the first
// of two), which a fetch of robots.txt redirected to that site would wait
// for.
// [Client.Close] ends a wait with [ErrClosed], unsent.
//
// [Transport.Stats] counts what the Transport did; refusals and holds are
// logged at Debug level ([WithLogger]). The Client's own requests (see
// [NewClientTransport]: for robots.txt, and the tdmrep.json files it
// checks itself, see [WithTDMRep]), and requests whose context comes
// from [SkipRobots], are passed to next as they are. A Transport is safe
// for concurrent use. It has no CloseIdleConnections method, so an
// http.Client's does not reach next: call next's ([Client.Close] does,
// for [NewClientTransport]'s).
type Transport struct {
	c     *Client
	next  http.RoundTripper
	cfg   transportConfig
	stats transportCounters
	agent atomic.Pointer[string] // the User-Agent last found to name the Client's token
}

// NewTransport returns a Transport that checks requests with c and sends
// those allowed through next (http.DefaultTransport when next is nil),
// which must not follow redirects itself (an http.Client used as a
// RoundTripper does): the Transport returns an error in place of the
// answer to a hop it did not check, which was sent all the same (a hop
// is told by the answer's Request, which net/http links to the redirect
// it followed, or which asks another scheme, target or site: one that a
// RoundTripper below the follower rebuilt anew, back at the URL asked
// for, tells none; and one that sends http requests as https, following
// nothing, is taken for a hop to another site, its robots.txt unread).
// c fetches robots.txt through its own HTTP client, not next: so that no
// robots.txt is fetched unguarded while the pages are guarded, it panics
// when next is or wraps a [PublicOnly] transport and c's HTTP client
// neither is nor wraps one (use [NewClientTransport]); so that none is
// fetched unsigned while the pages are signed (a site refusing unsigned
// crawlers with a 403 would read as allowing everything), when next is
// or wraps botauth's signing transport and c's HTTP client neither is
// nor wraps one (nor one it cannot see into, which may sign, but
// http.DefaultTransport, which a signer given no next sends through);
// and too if c is nil or not made by NewClient. A RoundTripper wraps the one it sends
// through if it is a Transport or botauth's signing transport, or if it
// has a method Unwrap() http.RoundTripper that returns it: a wrapper of
// another module should have one, or these checks cannot see the guard
// or the signer.
// When next is or wraps another Transport of c, a request the outer one
// checked and paced passes through the inner one as it is.
func NewTransport(c *Client, next http.RoundTripper, opts ...TransportOption) *Transport {
	c.mustBeMade()
	if isGuard(next) && !isGuard(c.fetcher.hc.Transport) {
		panic("robotstxt: NewTransport(c, next) would guard the pages (next is or wraps a PublicOnly transport) " +
			"but not c's robots.txt fetches, which go through c's own HTTP client: make both with " +
			"NewClientTransport(next, clientOpts), or give c a guard with WithHTTPClient(&http.Client{Transport: next})")
	}
	if own := c.fetcher.hc.Transport; isSigner(next) && !isSigner(own) && (!opaque(own) || wraps(own, isDefault)) {
		// http.DefaultTransport, which a signer given no next sends
		// through too, is no signer, whatever wraps it.
		panic("robotstxt: NewTransport(c, next) would sign the pages (next is or wraps botauth's transport) " +
			"but not c's robots.txt fetches, whose 403 to an unsigned crawler would read as allow-all: make both with " +
			"NewClientTransport(next, clientOpts), or sign c's with WithHTTPClient(&http.Client{Transport: next})")
	}
	return newTransport(c, next, opts)
}

// newTransport is NewTransport without the guard's check. The first one
// made for c lends its configuration to c's hops (see Client.hopPacing).
func newTransport(c *Client, next http.RoundTripper, opts []TransportOption) *Transport {
	if next == nil {
		next = http.DefaultTransport
	}
	cfg := defaultTransportConfig()
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.pacer == nil {
		cfg.pacer = c.pacer() // shared, so that they keep each Crawl-delay between them
	}
	c.hops.CompareAndSwap(nil, hopTransport(c, cfg))
	return &Transport{c: c, next: next, cfg: cfg}
}

// NewClientTransport returns a Client configured by clientOpts and a
// Transport for it through which the Client fetches robots.txt, and so
// through next, such as [PublicOnly], from the first fetch. The Client's
// HTTP client has no timeout of its own (the fetch timeout bounds each
// fetch). It panics when clientOpts hold a [WithHTTPClient].
func NewClientTransport(next http.RoundTripper, clientOpts []Option, opts ...TransportOption) (*Client, *Transport) {
	var probe config
	for _, o := range clientOpts {
		if o != nil {
			o(&probe)
		}
	}
	if probe.httpClient != nil {
		panic("robotstxt: NewClientTransport with WithHTTPClient: the Client's fetches go through the Transport")
	}
	fwd := new(forwarder)
	c := NewClient(append(slices.Clone(clientOpts), WithHTTPClient(&http.Client{Transport: fwd}))...)
	t := newTransport(c, next, opts)
	fwd.t = t // set before c is returned, so before it can send anything
	return c, t
}

// forwarder hands the requests of NewClientTransport's Client to its
// Transport, which does not exist yet when the Client is made.
type forwarder struct{ t *Transport }

func (f *forwarder) RoundTrip(req *http.Request) (*http.Response, error) { return f.t.RoundTrip(req) }

// CloseIdleConnections closes the idle connections of the Transport's
// next, for Client.Close: of the transport under the Transports next is,
// if it is one, which have no such method.
func (f *forwarder) CloseIdleConnections() {
	next := f.t.next
	for t, ok := next.(*Transport); ok; t, ok = next.(*Transport) {
		next = t.next
	}
	if ci, ok := next.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
}

// skipKey marks contexts made by SkipRobots.
type skipKey struct{}

// SkipRobots returns a copy of ctx under which a Transport passes
// requests straight to the next RoundTripper, unchecked and unpaced: for
// fetches a crawler may make whatever robots.txt says, such as a page a
// person asked for (a link preview) or a URL the site's owner asked the
// crawler to fetch; not for the crawl itself.
func SkipRobots(ctx context.Context) context.Context {
	return context.WithValue(ctx, skipKey{}, true)
}

// RoundTrip checks req against robots.txt, waits for its turn and sends
// it through next. See [Transport] for the errors it returns; a request it
// does not send has its body closed.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.mustBeMade()
	ctx := req.Context()
	if t.c.sentBy(req) {
		return t.next.RoundTrip(req)
	}
	if s, ok := ctx.Value(sentKey{}).(sentUnder); ok && s.t.c == t.c && s.req == sentOf(req) && s.sending.Load() {
		// Checked and paced by a Transport of t's Client above: stacked,
		// t would wait for the turn that one holds.
		t.stats.sent.add()
		return t.next.RoundTrip(req)
	}
	if ctx.Value(skipKey{}) != nil {
		t.stats.skipped.Add(1)
		asked, u := req.URL, dialledURL(req.URL)
		if u != asked {
			req = req.Clone(ctx)
			req.URL = u
		}
		resp, err := t.next.RoundTrip(req)
		if err == nil {
			showAsked(resp, asked, u)
		}
		return resp, err
	}
	req, err := t.withAgent(req)
	if err != nil {
		return t.refuse(ctx, req, err)
	}
	began := stampOf(t.c.cfg.now())
	served, dialed, err := t.check(req)
	if err != nil {
		return t.refuse(ctx, req, err)
	}
	// The site asked for (see Transport): the URL's unless Request.Host
	// names another host. A name net/http sends unmapped reaches both the
	// site dialled and the one its Host header names, as does a Host
	// naming the URL's host at another port (servers pick a site by
	// name): it takes both turns, in order, lest two requests each hold
	// the turn the other waits for. So does a Host an http.Client kept
	// on a redirect to another server (see hostKeptAcross).
	authority, also := dialed.Authority, ""
	kept, sentToBoth := hostKeptAcross(req), false
	switch {
	case namesAnother(req, served.Authority) && hostName(served.Authority) != hostName(dialed.Authority) && !mapsTo(req, dialed.Authority) && !kept:
		authority = served.Authority
	case served.Authority != dialed.Authority:
		// Receipt and Usage read both sites' robots.txt; one site's
		// twins take one turn, two sites' theirs in the order of their
		// keys, which every request takes two turns in: two taking them
		// otherwise each hold the one the other waits for.
		sentToBoth = true
		if ks, kd := paceKey(served.Authority), paceKey(dialed.Authority); ks != kd {
			authority, also = dialed.Authority, served.Authority
			if ks < kd {
				authority, also = also, authority
			}
		}
	}
	interval := max(t.interval(served), t.interval(dialed))
	// A redirect an http.Client follows within the site waits for its
	// turn whatever WithNoWait says: a frontier requeues the URL it asked
	// for, whose turn would again leave none for the redirect. Of a Host
	// kept across servers, each turn is another site's: each waits only
	// for a redirect within its own.
	within := redirectedWithin(req, authority)
	alsoWithin := also != "" && redirectedWithin(req, also)
	noWait, noWaitAlso := t.cfg.noWait && !within, t.cfg.noWait && !alsoWithin
	if !kept { // two turns of one server: a redirect within either waits for both
		noWait = noWait && noWaitAlso
		noWaitAlso = noWait
	}
	recheck := func() (time.Duration, error) { // after a wait: robots.txt may have changed
		// Read from the copy the cache holds, fetched since the request
		// began: a robots.txt stale again at every wait (fresh for less
		// than the crawl-delay), whose fetch a redirect sends to the site
		// whose turn the request waits for, took that turn each time, and
		// the request waited for ever.
		s, d, err := t.check(req.WithContext(context.WithValue(ctx, checkedSinceKey{}, began)))
		if err != nil {
			return 0, err
		}
		served, dialed = s, d // what the request is sent under
		return max(t.interval(s), t.interval(d)), nil
	}
	start := time.Now() // WithMaxWait bounds the request's waits together
	var tu, tu2 turn    // authority's, also's
	var tuAt time.Time  // when tu was given
	var w turnWait
	waiting := true // until the flight below ends the turns
	defer func() {
		if waiting { // a Pacer's panic while a turn is held: nothing was sent
			t.giveBackBoth(ctx, tu, tu2)
		}
	}()
	for again := true; again; {
		again = false
		var w1 turnWait
		tu, w1, err = t.awaitTurn(ctx, authority, interval, turn{}, start, noWait, recheck)
		w = max(w, w1)
		if err != nil || also == "" {
			break
		}
		tuAt = time.Now()
		// Not checked again while tu is held, lest a fetch of robots.txt
		// redirected to authority wait for tu; the wait is at most half
		// tu's lease.
		var w2 turnWait
		tu2, w2, err = t.awaitTurn(ctx, also, tu.interval, tu, start, noWaitAlso, nil)
		w = max(w, w2)
		if err == nil && w2 != turnFree && t.heldSince(ctx, tu) {
			// A Retry-After held authority while the request waited,
			// which its turn, taken before, does not see: both turns go
			// back, and the request waits for authority's again (the
			// hold), within its bound, and checked again. (Cleared
			// first: a Pacer's panic gives none back twice.)
			held, held2 := tu, tu2
			tu, tu2, again = turn{}, turn{}, true
			t.giveBackBoth(ctx, held, held2)
			continue
		}
		if err != nil {
			// Nothing was sent. A turn that cannot be given back holds
			// its site for the interval: no sooner is the request told.
			held := tu
			tu, tu2 = turn{}, turn{} // tu2 was not taken
			if next := t.giveBack(ctx, held); !next.IsZero() {
				if pe, ok := err.(*PacedError); ok && pe.RetryAt.Before(next) {
					pe.RetryAt = next
				}
			}
		}
	}
	interval = max(tu.interval, tu2.interval)
	t.count(w)
	waiting = false
	if err != nil { // its turns given back above, or none held
		return t.refuse(ctx, req, err)
	}
	var resp *http.Response
	var ends bool // whether resp's body ends the turns
	f := flight{t: t, ctx: ctx, authority: authority, turns: [2]turn{tu, tu2},
		within: [2]bool{within, alsoWithin}}
	if tu2.authority != "" {
		f.twin = &twinLease{sites: [2]string{tu.authority, tu2.authority}, until: tuAt.Add(t.lease(interval))} // the first turn's lease, which ends first
	}
	defer func() { // the turns end however the request does, a panic too
		if !ends {
			f.end(resp)
		}
	}()
	host := req.Host
	if sent := sentHost(served.Authority); cmp.Or(req.Host, req.URL.Host) != sent {
		// Sent with the Host its robots.txt was fetched with: a server
		// that tells "victim.test." or "VICTIM.TEST" from "victim.test"
		// would serve a site no robots.txt was read for. (An IDN's is
		// its A-label, which a signing RoundTripper below can sign.)
		host = sent
	}
	// Dialled, and named in TLS, as its robots.txt fetch was too: "a.test."
	// may resolve, and "A.TEST" be routed by its exact TLS name, to
	// another server than a.test (see fetcher.send).
	asked, out := req.URL, withHost(req.URL, sentHost(dialed.Authority))
	under := sentUnder{t: t, d: served, req: sentOf(req), body: &readBody{}, sending: new(atomic.Bool),
		answered: new(atomic.Pointer[http.Request]), twin: f.twin}
	if sentToBoth {
		d := dialed // a copy: taking dialed's address moved it to the heap for every request
		under.dialed = &d
	}
	under.req.host = host
	under.asked, under.req.urlHost = under.req, out.Host            // as asked, as sent
	req = req.WithContext(context.WithValue(ctx, sentKey{}, under)) // a copy, which Receipt and Usage read
	req.Host, req.URL = host, out
	if _, ok := req.Header["Host"]; ok {
		// It named the Host as asked (see headerHost), perhaps spelt
		// otherwise than the one sent now, which a RoundTripper below
		// (botauth's) would read as a second Host; net/http drops it.
		req.Header = req.Header.Clone()
		delete(req.Header, "Host")
	}
	t.stats.sent.add()
	for _, tu := range f.turns {
		if tu.authority != "" {
			t.c.queue.sending(tu.authority, tu.interval)
		}
	}
	f.sent = time.Now()
	under.sending.Store(true)
	func() {
		defer under.sending.Store(false)
		resp, err = t.next.RoundTrip(req)
	}()
	if err == nil && resp == nil {
		err = errors.New("robotstxt: the Transport's next RoundTripper returned a nil *Response and a nil error")
	}
	if err != nil {
		return resp, err
	}
	if resp.Request == nil {
		resp.Request = req // as http.Transport does, for Receipt and Usage
	}
	if followedBelow(resp, req) {
		// Where it led was neither checked nor paced; nor is the turn
		// held for a Retry-After of another site's.
		if resp.Body != nil {
			_ = resp.Body.Close()
		}
		to := resp.Request
		if !atSite(to, f.authority) {
			resp = nil
		}
		return nil, fmt.Errorf("robotstxt: %s: %w to %s, which the Transport did not check",
			capQuote(withoutUser(asked)), errFollowedBelow, capQuote(withoutUser(to.URL)))
	}
	showAsked(resp, asked, out)
	under.answered.Store(resp.Request) // what Receipt and Usage read; no other request of its context
	// A body that holds something is read through a readBody, for
	// Receipt, and an exclusive turn lasts until it has come (or the
	// lease runs out, for one never closed); a 101's body is the
	// connection, a caller's to assert to an io.Writer.
	if resp.Body != nil && resp.Body != http.NoBody && resp.StatusCode != http.StatusSwitchingProtocols &&
		req.Method != http.MethodHead && resp.StatusCode != http.StatusNoContent && resp.StatusCode != http.StatusNotModified &&
		resp.ContentLength != 0 { // bodies that hold nothing, which callers often leave open (HTTP/2 gives them its own)
		under.body.ReadCloser, resp.Body = resp.Body, under.body
		if interval > 0 {
			// A Retry-After holds the site from now: a caller may leave
			// the body open, and its turn end with the lease.
			if hold := t.hold(ctx, f.authority, resp); hold > 0 {
				for _, tu := range f.turns {
					t.done(ctx, turn{authority: tu.authority}, hold)
				}
			}
			resp.Body, ends = &turnBody{ReadCloser: resp.Body, f: f, resp: resp}, true
		}
	}
	return resp, nil
}

// A flight is a request sent in its turns, to end when its response has
// come. It is a value, kept on RoundTrip's stack unless a body needs it.
type flight struct {
	t         *Transport
	ctx       context.Context
	authority string // the site asked for, which a Retry-After holds
	turns     [2]turn
	sent      time.Time  // zero until the request is sent
	within    [2]bool    // of each turn's site, a redirect within it: its page took the turn before too
	twin      *twinLease // of two turns; else nil
}

// end ends f's turns, resp (nil for none) having come.
func (f *flight) end(resp *http.Response) {
	if f.twin != nil {
		f.twin.ended.Store(true)
	}
	hold := f.t.hold(f.ctx, f.authority, resp)
	for i, tu := range f.turns {
		// Turns told to come at a site last as long as this request
		// did: also at one with no interval, which a hold another
		// Client or process met through the Pacer may pace (their
		// refusals were all told its end).
		if tu.authority != "" && !f.sent.IsZero() {
			f.t.c.queue.ran(tu.authority, tu.interval, hold, time.Since(f.sent), f.within[i])
		}
		defer f.t.done(f.ctx, tu, hold) // each turn, though another's Done panics
	}
}

// lease returns how long a turn of interval lasts that is never ended
// (see Pacer): a body never closed holds its site no longer.
func (t *Transport) lease(interval time.Duration) time.Duration {
	d := pacing.TurnTimeout
	if p, ok := t.cfg.pacer.(*memPacer); ok {
		d = p.timeout // shorter in tests
	}
	return max(d, interval)
}

// A twinLease is a request's hold on two sites' turns (see
// Transport.RoundTrip), until its response has come or the first turn's
// lease has run out (a body never closed): while it lasts, a fetch its
// Receipt or Usage makes of one site's robots.txt or tdmrep.json
// redirected to the other takes no turn (see Client.pace), the request
// having taken it, which a caller reading its body as it asks for the
// receipt holds. Any other fetch between the two waits for its turn.
type twinLease struct {
	sites [2]string
	until time.Time
	ended atomic.Bool
}

// twinKey keys, in the context of a fetch for a Receipt or Usage, the
// *twinLease of the request it reads.
type twinKey struct{}

// live reports whether l, if not nil, still holds its turns: a fetch
// made for its page once they have ended is any other's.
func (l *twinLease) live() bool {
	return l != nil && !l.ended.Load() && time.Now().Before(l.until)
}

// holds reports whether l, if not nil, holds the turns of a and b (or of
// their twins, paced under one key: see paceKey).
func (l *twinLease) holds(a, b string) bool {
	if !l.live() {
		return false
	}
	a, b, s0, s1 := paceKey(a), paceKey(b), paceKey(l.sites[0]), paceKey(l.sites[1])
	return s0 == a && s1 == b || s0 == b && s1 == a
}

// A turnBody is the body of resp, sent in f's turns: they end once it
// has been read to its end (or an error) or closed.
type turnBody struct {
	io.ReadCloser
	once sync.Once
	f    flight
	resp *http.Response
}

func (b *turnBody) end() { b.f.end(b.resp) }

func (b *turnBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.once.Do(b.end)
	}
	return n, err
}

func (b *turnBody) Close() error {
	defer b.once.Do(b.end) // also when next's body panics in Close
	return b.ReadCloser.Close()
}

// sentKey is the context key of the sentUnder that RoundTrip records on
// the request it sends, which becomes its response's Request.
type sentKey struct{}

// sentUnder is the decision for the site served that a Transport sent a
// request under, and that request: a context made from its response's
// request carries it to others, which it does not speak for.
type sentUnder struct {
	t   *Transport
	d   Decision
	req sentRequest
	// asked is req with its URL's host as the caller wrote it, which
	// resp.Request shows (see showAsked).
	asked sentRequest
	body  *readBody  // its response's body, when it holds one
	twin  *twinLease // of a request in two sites' turns; else nil
	// dialed is the decision of the site the request was sent to, when
	// its Host names another whose turn it takes too (see
	// Transport.dialed); else nil: a Host of another host on the same
	// port names the site, reached by a pinned address.
	dialed *Decision
	// sending is set while t's RoundTrip hands the request on: a
	// Transport below it passes it on as it is, but not a request sent
	// again later in its context (resp.Request, retried), nor one a
	// RoundTripper between them sends after its RoundTrip returned,
	// which waits for t's turn to end with its body.
	sending *atomic.Bool
	// answered is the Request of the response RoundTrip returned: the
	// one request the decision speaks for.
	answered *atomic.Pointer[http.Request]
}

// A sentRequest is what tells a request apart (a RoundTripper below may
// send a copy, whose pointer differs).
type sentRequest struct {
	method, host, scheme, urlHost, opaque, path, rawPath, query string
	forceQuery                                                  bool
}

// showAsked gives resp a request that shows asked, the URL as the caller
// wrote it, when it shows sent, the copy dialled (a RoundTripper
// below may have sent a copy of that): the caller may compare it with
// its own (has a redirect been followed?).
func showAsked(resp *http.Response, asked, sent *url.URL) {
	if asked == sent || resp == nil || resp.Request == nil || resp.Request.URL == nil || resp.Request.URL.String() != sent.String() {
		return
	}
	r := resp.Request.WithContext(resp.Request.Context())
	r.URL = asked
	resp.Request = r
}

// dialledURL returns u, or when its host is not ASCII a copy whose host
// is the A-label net/http dials (see fetcher.send: its HTTP/2 pool would
// dial such a host for ever).
func dialledURL(u *url.URL) *url.URL {
	if u == nil || ascii.IsASCII(u.Host) {
		return u
	}
	key, _, err := target.Split(u.Scheme+"://"+u.Host+"/", nil) // a path of any length
	if err != nil {
		return u
	}
	return withHost(u, sentHost(string(key)))
}

// withHost returns u, or a copy of it whose host is host when u's is
// another.
func withHost(u *url.URL, host string) *url.URL {
	if u.Host == host {
		return u
	}
	v := *u
	v.Host = host
	return &v
}

func sentOf(req *http.Request) sentRequest {
	u := req.URL
	return sentRequest{req.Method, req.Host, u.Scheme, u.Host, u.Opaque, u.Path, u.RawPath, u.RawQuery, u.ForceQuery}
}

// sent returns what t recorded of req when it sent it; false for a
// request t did not send.
func (t *Transport) sent(req *http.Request) (sentUnder, bool) {
	if req == nil {
		return sentUnder{}, false
	}
	s, ok := req.Context().Value(sentKey{}).(sentUnder)
	return s, ok && s.t == t && req.URL != nil && s.answered.Load() == req && (s.req == sentOf(req) || s.asked == sentOf(req))
}

// sentDecision returns the decision for the site req's Host serves that t
// sent req under, or, for a request t did not send, checks that site now,
// whether or not its caller has cancelled it (see Client.fillContext):
// the page is its, whatever the site dialled says.
func (t *Transport) sentDecision(req *http.Request) (Decision, error) {
	if s, ok := t.sent(req); ok {
		return s.d, nil
	}
	if req.URL == nil {
		return Decision{}, fmt.Errorf("%w: request without a URL", ErrBadURL)
	}
	if _, err := servedURL(req); err != nil {
		return Decision{}, err // a URL the Transport would not send names no site for sure
	}
	ctx, cancel := t.c.fillContext(req.Context())
	defer cancel()
	r := req.WithContext(ctx)
	if host, err := headerHost(req); err == nil && host != req.URL.Host {
		u := *req.URL
		u.Host = host
		r.URL, r.Host = &u, ""
	}
	d, _, err := t.check(r)
	return d, err
}

// refuse closes the body of req, not sent for err, as http.RoundTripper
// requires, and returns err, naming req's URL when it says to come back
// (a PacedError's, a DeferredError's); a refusal by robots.txt is
// counted, and every one logged.
func (t *Transport) refuse(ctx context.Context, req *http.Request, err error) (*http.Response, error) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
	switch e := err.(type) {
	case *PacedError:
		e.URL = sentURL(req)
	case *DeferredError:
		e.URL = sentURL(req)
	}
	var dis *DisallowedError
	var def *DeferredError
	switch {
	case errors.As(err, &dis):
		t.stats.disallowed.Add(1)
		t.c.logger.LogAttrs(ctx, slog.LevelDebug, "request disallowed",
			slog.String("url", dis.URL), slog.Int("line", dis.Decision.Rule.Line),
			slog.String("rule", dis.Decision.Rule.Pattern), slog.Int("status", dis.Decision.Status))
	case errors.As(err, &def):
		t.stats.deferred.Add(1)
		t.c.logger.LogAttrs(ctx, slog.LevelDebug, "request deferred",
			slog.String("authority", def.Authority), slog.Int("status", def.Status),
			durationAttr("retry_in", time.Until(def.RetryAt)))
	case !errors.As(err, new(*PacedError)): // paced logs those
		shown := ""
		if u := req.URL; u != nil {
			part := u.Opaque + u.Host
			if u.Host == "" || !strings.HasPrefix(u.Path, "/") {
				part += u.Path // "http:/alice:secret@h/": a browser's userinfo; JoinPath's "alice:secret@h/x"
			}
			shown = withheld(part, requestURL(u))
		}
		t.c.logger.LogAttrs(ctx, slog.LevelDebug, "request refused", slog.String("url", shown), slog.String("error", err.Error()))
	}
	return nil, err
}

// badRequestURL returns an ErrBadURL naming why u, a request's URL, is
// not one the Transport checks and sends, or nil.
func badRequestURL(u *url.URL) error {
	switch {
	case u == nil:
		return fmt.Errorf("%w: request without a URL", ErrBadURL)
	case u.Opaque != "": // sent as it is, it may name another authority or path
		return fmt.Errorf("%w: a request URL with an opaque part (%s) is not checked", ErrBadURL, quotedUnlessCredentials(u.Opaque))
	case u.EscapedPath() != "" && u.EscapedPath()[0] != '/': // url.JoinPath on a URL without a path makes one
		return fmt.Errorf("%w: a request path (%s) that does not start with \"/\" is not checked", ErrBadURL,
			quotedUnlessCredentials(u.EscapedPath())) // "alice:secret@h/x": a URL's userinfo, once joined
	case notAuthority(u.Host): // a URL built by hand: pasted into the check, it would end there
		return fmt.Errorf("%w: request URL host %s is not an authority", ErrBadURL, quotedUnlessCredentials(u.Host))
	case strings.Contains(u.RawQuery, "#"): // a URL built by hand: net/http sends it, nginx and Apache end the query there
		return fmt.Errorf("%w: a request query with a '#' (%q) is not checked", ErrBadURL, capQuote(u.RawQuery))
	}
	return nil
}

// badHost returns an ErrBadURL when host, a request's Host, is not an
// authority, which servers would read each their own way; else nil.
func badHost(host string) error {
	if notAuthority(host) {
		return fmt.Errorf("%w: request Host %s is not an authority", ErrBadURL, quotedUnlessCredentials(host))
	}
	return nil
}

// withheld returns shown, unless part, the opaque part or host of a URL
// net/url did not read as a URL with userinfo (or a host-less URL's
// path), holds an '@': then what it shows may be a password
// ("http:alice:secret@h/", "http:///alice:secret@h/"), and a note stands
// in its place in an error or a log.
func withheld(part, shown string) string {
	if strings.Contains(part, "@") {
		return "(withheld: it may hold credentials)"
	}
	return shown
}

// quotedUnlessCredentials returns s, a part of a request's URL or Host,
// cut and quoted for an error, unless it may hold credentials (see
// withheld).
func quotedUnlessCredentials(s string) string { return withheld(s, strconv.Quote(capQuote(s))) }

// sentURL returns the URL of req, checked and so not nil, without its
// fragment: the one a crawler puts back.
func sentURL(req *http.Request) string {
	u := *req.URL
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// hold returns how long resp, a response from authority or nil, holds
// further requests to it: for a 429 or 503, its Retry-After, at least
// minHold and at most WithMaxHold, logged; else 0.
func (t *Transport) hold(ctx context.Context, authority string, resp *http.Response) time.Duration {
	if resp == nil || resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		return 0
	}
	h, ok := retryAfter(time.Now(), resp.Header)
	if !ok {
		h = 0
	}
	hold := min(max(h, minHold), t.cfg.maxHold, pacing.MaxAhead) // no Pacer holds longer: a RetryAt past it would be late
	t.c.logger.LogAttrs(ctx, slog.LevelDebug, "authority held",
		slog.String("authority", authority), slog.Int("status", resp.StatusCode),
		durationAttr("hold", hold), durationAttr("retry_after", h))
	return hold
}

func (t *Transport) mustBeMade() {
	if t == nil || t.c == nil {
		panic("robotstxt: Transport used without NewTransport")
	}
}

// check checks req against the robots.txt of its URL's authority and,
// since a server picks the site by the Host header, of the Host's. It
// returns the decisions for the site served and the authority dialled,
// the same one unless the Host names another.
func (t *Transport) check(req *http.Request) (served, dialed Decision, err error) {
	if err := badRequestURL(req.URL); err != nil {
		return Decision{}, Decision{}, err
	}
	u := req.URL
	rawURL := requestURL(u)
	ctx := req.Context()
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, checkDeadline(deadline, time.Now()))
		defer cancel()
	}
	d, err := t.c.decide(ctx, rawURL, false)
	if err != nil {
		return d, d, t.unfinished(ctx, req, rawURL, err)
	}
	if !d.Allowed {
		return d, d, &DisallowedError{Decision: d, URL: capText(rawURL)}
	}
	host, err := headerHost(req)
	if err != nil {
		return Decision{}, Decision{}, err
	}
	if host == u.Host {
		return d, d, nil
	}
	if err := badHost(host); err != nil {
		return Decision{}, Decision{}, err
	}
	v := *u
	v.Host = host
	site := requestURL(&v)
	// A Host naming another host at another port than the one dialled
	// (the scheme's when it names none): servers such as nginx pick the
	// site by the Host's name and the port dialled, RFC 9110 by the
	// Host's port, which the Transport leaves out when it is the
	// scheme's. It names neither site for sure.
	if named, _, err := target.Split(site, nil); err == nil && namesNeither(string(named), d.Authority) {
		return Decision{}, Decision{}, fmt.Errorf("%w: request Host %q names another port than the %s it is sent to",
			ErrBadURL, capQuote(host), portOf(d.Authority))
	}
	hd, err := t.c.decide(ctx, site, false)
	if err == nil && !hd.Allowed {
		err = &DisallowedError{Decision: hd, URL: capText(site)}
	}
	return hd, d, t.unfinished(ctx, req, site, err)
}

// namesNeither reports whether a request to the authority dialed whose
// Host names the authority named, another host at another port, names
// neither site for sure (see Transport.check).
func namesNeither(named, dialed string) bool {
	return hostName(named) != hostName(dialed) && portOf(named) != portOf(dialed)
}

// checkDeadline returns when a check of a request whose deadline is
// deadline, at now before it, answers: before the http.Client's timeout
// would take the DeferredError's place (see unfinished), by
// deadlineMargin or, with no more time left, by half the time left, its
// fetch starting all the same for the request put back. (Just over the
// margin left, it answers at once: the margin is what the timer needs,
// and half of it would be less.)
func checkDeadline(deadline, now time.Time) time.Time {
	if left := deadline.Sub(now); left <= deadlineMargin {
		return now.Add(left / 2)
	}
	return deadline.Add(-deadlineMargin)
}

// unfinished returns err, from a check of rawURL under ctx, as a
// *DeferredError when ctx's deadline came while the check waited for
// robots.txt, whose fill goes on: the request is put back as it is
// while robots.txt is unreachable, not lost to a timeout, and tried
// again once the fill has ended (RetryAt, the longest it may take:
// Store look-up, lease wait and fetch).
// A check under req's own context, which had no time left (see check),
// is no such check.
func (t *Transport) unfinished(ctx context.Context, req *http.Request, rawURL string, err error) error {
	var def *DeferredError
	if ctx == req.Context() || !errors.Is(ctx.Err(), context.DeadlineExceeded) || !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &def) {
		return err
	}
	authority, _, _ := target.Split(rawURL, nil) // checked by the Client
	return &DeferredError{Authority: string(authority), RetryAt: time.Now().Add(t.c.fillBound()), Err: err}
}

// notAuthority reports whether host, a request URL's or Host's, holds a
// byte that ends an authority or none may hold (a path, query, fragment
// or userinfo delimiter, a blank, a control): checked in a URL, the rest
// would be read as its path.
func notAuthority(host string) bool {
	return strings.ContainsFunc(host, func(r rune) bool { return r <= ' ' || r == 0x7f || strings.ContainsRune("/?#@\\", r) })
}

// namesAnother reports whether req's Host, whose authority is served,
// names another site than the one net/http asks for without it.
func namesAnother(req *http.Request, served string) bool {
	if req.Host == "" || req.Host == req.URL.Host {
		return false
	}
	asked, err := askedFor(req.URL)
	return err != nil || asked != served
}

// mapsTo reports whether req's Host, read as the dial reads a URL's host
// (mapped: see target.Split), names authority's host: "ａ.test" names
// a.test, though net/http sends it as xn--mi7c.test.
func mapsTo(req *http.Request, authority string) bool {
	k := target.Authority(req.URL.Scheme, req.Host)
	return k != "" && hostName(k) == hostName(authority)
}

// hostName returns the host of a normalised authority, such as
// "example.com" of "https://example.com:443".
func hostName(authority string) string {
	_, hostPort, _ := strings.Cut(authority, "://")
	return hostPort[:strings.LastIndexByte(hostPort, ':')]
}

// portOf returns the port of a normalised authority, such as "443" of
// "https://example.com:443".
func portOf(authority string) string { return authority[strings.LastIndexByte(authority, ':')+1:] }

// askedFor returns the authority net/http asks u's server for when the
// request sets no Host: u's own, unless its name is sent unmapped (see
// headerHost).
func askedFor(u *url.URL) (string, error) {
	host, err := headerHost(&http.Request{URL: u})
	if err != nil {
		return "", err
	}
	key, _, err := target.Split(u.Scheme+"://"+host+"/", nil)
	return string(key), err
}

// headerHost returns the Host header net/http will send for req, in
// punycode without the UTS #46 mapping the dial applies: for "ｂ.test"
// the connection goes to b.test but the server is asked for
// xn--ni7c.test, whose robots.txt must then allow the request too. A
// "Host" key in req.Header, which net/http ignores, gives ErrBadURL unless
// it names that host; any other spelling of it, which net/http sends as a
// second Host line, always does.
func headerHost(req *http.Request) (string, error) {
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	if k := target.ExtraHost(req); k != "" {
		v := strings.Join(req.Header[k], ", ")
		return "", fmt.Errorf("%w: the request's header holds %q: %s, which a server may read as its Host; "+
			"set Request.Host", ErrBadURL, capQuote(k), quotedUnlessCredentials(v))
	}
	if ascii.IsASCII(host) {
		return host, nil
	}
	name, port := host, ""
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		name, port = host[:i], host[i:]
	}
	p, err := idna.Punycode.ToASCII(name)
	if err != nil {
		return "", fmt.Errorf("%w: request Host %q cannot be sent: %w", ErrBadURL, capQuote(host), err)
	}
	return p + port, nil
}

// interval returns the pacing interval for the authority of d: its
// crawl-delay, or the default, within the bounds. The crawl-delay is d's,
// which the cache may no longer hold.
func (t *Transport) interval(d Decision) time.Duration {
	if d.CrawlDelay > 0 {
		return t.bounded(d.CrawlDelay)
	}
	return t.intervalAt(d.Authority)
}

// intervalAt returns the pacing interval for authority (see interval).
func (t *Transport) intervalAt(authority string) time.Duration {
	iv := t.cfg.defaultInterval
	if e := t.c.robots.cache.peek(authority); e != nil {
		if delay, ok := e.crawlDelay(); ok {
			iv = delay
		}
	}
	return t.bounded(iv)
}

// bounded returns iv within the configured bounds, and the 24 hours a
// Pacer keeps, so that no RetryAt lies past when the turn comes.
func (t *Transport) bounded(iv time.Duration) time.Duration {
	return min(max(iv, t.cfg.minInterval), t.cfg.maxInterval, pacing.MaxAhead)
}

// redirectedWithin reports whether req is a redirect an http.Client
// follows from a request to the site paced as authority, as req is (see
// paceKey): one whose URL or Host header (which an http.Client keeps on
// a redirect that names no scheme) named it.
func redirectedWithin(req *http.Request, authority string) bool {
	if req.Response == nil || req.Response.Request == nil || req.Response.Request.URL == nil {
		return false
	}
	from, key := req.Response.Request, paceKey(authority)
	for _, host := range [...]string{from.URL.Host, from.Host} {
		if a := target.Authority(from.URL.Scheme, host); host != "" && a != "" && paceKey(a) == key {
			return true
		}
	}
	return false
}

// hostKeptAcross reports whether req is a redirect an http.Client sends
// with the Host of the request before it kept, as it does for a Location
// with no scheme, to a server other than the one that Host was set for:
// one a Location named ("//other.test/x"), or the same server as a hop
// before that was ("/x" after it). The server dialled is then no address
// of the site the Host names, and its turn is taken too.
func hostKeptAcross(req *http.Request) bool {
	// Back along the redirects, at most maxKeptHops: a RoundTripper that
	// hands out one *http.Response twice may make them loop.
	for range maxKeptHops {
		from := req.Response
		if req.Host == "" || from == nil || from.Request == nil || from.Request.URL == nil ||
			target.Authority(req.URL.Scheme, sentAs(req.Host)) != target.Authority(req.URL.Scheme, sentAs(from.Request.Host)) {
			return false // the Host sent before, as net/http keeps it or the Transport sent it
		}
		// Not a Host the caller's CheckRedirect set, nor a URL it changed
		// (a crawler pinning each site's address): a Location with no
		// scheme, and the server it names, if any, the one dialled.
		loc, err := url.Parse(from.Header.Get("Location"))
		if err != nil || loc.Scheme != "" || loc.Host != "" && loc.Host != req.URL.Host {
			return false
		}
		a, b := target.Authority(req.URL.Scheme, req.URL.Host), target.Authority(from.Request.URL.Scheme, from.Request.URL.Host)
		if a == "" || a != b {
			return loc.Host != "" // naming none, the Location kept the server, unless a CheckRedirect moved it
		}
		req = from.Request
	}
	return true // both turns: the cautious answer
}

// sentAs returns host as net/http writes it in a Host header (see
// headerHost): a name not in ASCII in Punycode, unmapped, which the
// normal authority maps otherwise (ＡＢ.test is ab.test, its header
// xn--…).
func sentAs(host string) string {
	if host == "" {
		return ""
	}
	if h, err := headerHost(&http.Request{Host: host}); err == nil {
		return h
	}
	return host
}

// maxKeptHops bounds how far back hostKeptAcross follows redirects: past
// any limit an http.Client's CheckRedirect sets (net/http's is 10).
const maxKeptHops = 64

// requestURL returns the URL a request for u reaches: scheme, host and
// the request target net/http writes, any '#' in it escaped, lest the
// check read what follows as a fragment (check refuses a query with one).
func requestURL(u *url.URL) string {
	return u.Scheme + "://" + u.Host + strings.ReplaceAll(u.RequestURI(), "#", "%23")
}

// A TransportOption configures a Transport. As with [Option], one given a
// value it cannot take panics when it is made.
type TransportOption func(*transportConfig)

type transportConfig struct {
	pacer                                     Pacer
	defaultInterval, minInterval, maxInterval time.Duration
	maxHold, maxWait                          time.Duration
	noWait                                    bool
	hops                                      bool // paces a Client's hops: its PacedErrors reach no crawler
}

// Defaults of the Transport's options.
const (
	defaultMaxHold = time.Hour       // bounds the hold a Retry-After sets
	defaultMaxWait = 5 * time.Minute // bounds a turn's wait without a deadline
)

// minHold is the least a 429 or 503 holds its site, with a Retry-After
// of 0 or none (RFC 6585 makes it optional): the server asked for fewer
// requests, and a frontier that retries at once, as the README's loop
// does, then sends one a second, not as fast as it can.
const minHold = time.Second

func defaultTransportConfig() transportConfig {
	return transportConfig{maxInterval: parse.MaxCrawlDelay, maxHold: defaultMaxHold, maxWait: defaultMaxWait}
}

// WithPacer sets the Pacer that spaces requests, which Transports that
// share it keep between them: by default every Transport of one Client
// shares its in-process pacer; a *redisstore.Store paces every process
// that uses the same Redis and prefix. Processes of one crawler that keep
// their values apart (see [Store]) pace through one Store.
func WithPacer(p Pacer) TransportOption {
	return func(c *transportConfig) {
		if p != nil {
			c.pacer = p
		}
	}
}

// WithNoWait makes RoundTrip never wait for a pacing turn: a request whose
// authority's turn is not free now fails at once, not sent, with a
// *[PacedError] saying when to come back. A redirect an http.Client
// follows within the site (one whose Request.Response is set) still
// waits for the site's next turn, within its deadline, lest a frontier
// that requeues the URL it asked for never reach the URL it redirects to.
func WithNoWait() TransportOption {
	return func(c *transportConfig) { c.noWait = true }
}

// WithDefaultInterval sets the interval between requests to an authority
// whose robots.txt, if any, gives the Client's product tokens no crawl-delay
// (default 0: no pacing). It panics if d is negative.
func WithDefaultInterval(d time.Duration) TransportOption {
	inRange(d >= 0, "WithDefaultInterval", d)
	return func(c *transportConfig) { c.defaultInterval = d }
}

// WithIntervalBounds keeps every interval, from a crawl-delay or the
// default, within [lo, hi] (default 0 and 24 hours, the longest
// crawl-delay read): lo is politer than robots.txt asks; hi caps a
// crawl-delay, disobeying it. No Pacer keeps an interval longer than 24
// hours. It panics if lo is negative or hi < lo.
func WithIntervalBounds(lo, hi time.Duration) TransportOption {
	inRange(lo >= 0 && hi >= lo, "WithIntervalBounds", fmt.Sprint(lo, ", ", hi))
	return func(c *transportConfig) { c.minInterval, c.maxInterval = lo, hi }
}

// WithMaxHold bounds how long a Retry-After of a 429 or 503 response
// holds its authority (default one hour; no Pacer holds one longer than
// 24 hours). It panics if d is not positive.
func WithMaxHold(d time.Duration) TransportOption {
	inRange(d > 0, "WithMaxHold", d)
	return func(c *transportConfig) { c.maxHold = d }
}

// WithMaxWait bounds how long a request whose context has no deadline
// waits for its turn, or its two turns together (see [Transport]; default
// five minutes); one with a deadline, as an http.Client with a Timeout
// gives, waits until that deadline (see [PacedError]). It panics if d is
// not positive.
func WithMaxWait(d time.Duration) TransportOption {
	inRange(d > 0, "WithMaxWait", d)
	return func(c *transportConfig) { c.maxWait = d }
}

// ErrAgentMismatch is wrapped by the error a [Transport] returns, before
// anything is sent, for a request whose User-Agent names a crawler other
// than the one its Client obeys robots.txt for, or that carries several
// User-Agent values (under one key or spellings of it, such as
// "user-agent"): robots.txt was read for one product token and the site
// would see another.
var ErrAgentMismatch = errors.New("robotstxt: the request's User-Agent names another crawler")

// withAgent returns req as the Transport sends it, or an error wrapping
// ErrAgentMismatch: req itself when its one User-Agent names one of the
// Client's product tokens or is the Client's own, else a copy that
// carries it, or the Client's when req has none or a blank one, under
// the canonical key alone, since net/http writes every spelling of the
// key that req.Header holds.
func (t *Transport) withAgent(req *http.Request) (*http.Request, error) {
	var ua string
	n, canonical := 0, true
	for k, vv := range req.Header {
		if target.IsField(k, "User-Agent") {
			n += len(vv)
			canonical = canonical && k == "User-Agent"
			if len(vv) > 0 {
				ua = vv[0]
			}
		}
	}
	switch {
	case n > 1:
		return req, fmt.Errorf("%w: the request carries %d User-Agent values; send one, the Client's (WithUserAgent)",
			ErrAgentMismatch, n)
	case n == 0 || strings.Trim(ua, " \t") == "":
		// None, or one empty, which net/http does not send (as
		// httputil.ReverseProxy sets it for a request without one).
		ua = t.c.cfg.userAgent
	case canonical:
		if p := t.agent.Load(); p != nil && *p == ua {
			return req, nil // the User-Agent checked last time
		}
		fallthrough
	default:
		// The Client's own User-Agent passes, as it does when the
		// Transport sets it, whatever it names.
		if err := t.namesClient(ua); err != nil && ua != t.c.cfg.userAgent {
			return req, err
		}
		if canonical {
			checked := ua // only this branch lets a string escape
			t.agent.Store(&checked)
			return req, nil
		}
	}
	r := req.Clone(req.Context())
	r.Trailer = req.Trailer // the caller's, which it may fill while the body is read
	if !canonical {
		for k := range r.Header {
			if target.IsField(k, "User-Agent") {
				delete(r.Header, k)
			}
		}
	}
	if r.Header == nil {
		r.Header = make(http.Header, 1)
	}
	r.Header["User-Agent"] = []string{ua}
	return r, nil
}

// namesClient returns nil when the User-Agent ua names one of the
// Client's product tokens, and begins with no other crawler's, and an
// error wrapping ErrAgentMismatch if not.
func (t *Transport) namesClient(ua string) error {
	obeys := func(tok string) bool {
		return slices.ContainsFunc(t.c.tokens, func(s string) bool { return ascii.EqualFold(s, tok) })
	}
	tok, err := agent.ProductToken(ua)
	if first := agent.FirstProduct(ua); err == nil && first != "" && !obeys(first) {
		tok = first // "Googlebot/2.1 (compatible; ExampleBot/1.0)" is Googlebot's
	} else if err == nil && obeys(tok) {
		return nil
	}
	named := "no product token"
	if err == nil {
		named = fmt.Sprintf("%q", capQuote(tok))
	}
	return fmt.Errorf("%w: User-Agent %q names %s, but the Client obeys robots.txt as %q; "+
		"send the Client's User-Agent (WithUserAgent), or none, which the Transport then sets, "+
		"or name the token with WithProductTokens",
		ErrAgentMismatch, capQuote(ua), named, t.c.tokens)
}
