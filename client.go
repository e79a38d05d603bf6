package robotstxt

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/http/httpguts"
	"golang.org/x/sync/singleflight"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/robotsgate/robotstxt/internal/agent"
	"github.com/robotsgate/robotstxt/internal/logthrottle"
	"github.com/robotsgate/robotstxt/internal/match"
	"github.com/robotsgate/robotstxt/internal/parse"
	"github.com/robotsgate/robotstxt/internal/sharedcall"
	"github.com/robotsgate/robotstxt/internal/sturdylog"
	"github.com/robotsgate/robotstxt/internal/target"
	"github.com/robotsgate/robotstxt/internal/tdmrep"
)

// ErrBadURL is wrapped by every error the Client returns for a URL it
// cannot check: not http or https, no host, a malformed host or port,
// anything else net/url would reject and so could not be fetched, or
// what servers would read otherwise than the check (a blank in the query,
// a path and query past 8 KiB; see the package documentation).
var ErrBadURL = target.ErrBadURL

// A Client answers whether a crawler may fetch URLs, fetching each
// authority's robots.txt once, caching it by its HTTP freshness (at most 24
// hours by default) and applying RFC 9309's status rules. It is safe for
// concurrent use; a warm check takes well under a microsecond.
//
// Most callers want [Client.Allowed], the fastest check; [Client.Check]
// also returns the [Decision], and a crawler on net/http can leave the
// checks to a [Transport]. The zero value panics; make one with NewClient.
type Client struct {
	cfg      config
	tokens   []string // product tokens matched against user-agent lines
	setupErr error    // why no check can be answered (no usable token, a header that cannot be sent), or nil
	fetcher  fetcher
	robots   document
	tdm      *document          // tdmrep.json (WithTDMRep), or nil
	tier     *sharedTier        // the Store's use; nil without a Store
	thaws    singleflight.Group // thaws of frozen entries, by entry (see rulesOf)
	clock    *coarseClock       // nil under WithClock
	stats    counters
	logger   *slog.Logger

	pacer     func() *memPacer           // shared by Transports without WithPacer
	queue     retryQueue                 // the turns told to requests refused, by every Transport
	hops      atomic.Pointer[Transport]  // paces hops that leave the site (see hopPacing)
	hopsAlone func() *Transport          // paces hops before a Transport is made
	hopFailed *lru.Cache[string, *entry] // failures met by robots.txt redirected to a site (see keepTheirFailure)
	asking    asking                     // the other sites' robots.txt hops are asking for now

	base    context.Context // parent of every fetch; cancelled by Close
	cancel  context.CancelFunc
	slots   chan struct{} // one per fill under way (see load)
	mu      sync.Mutex    // guards closed and the Add side of fetches
	closed  bool
	fetches sync.WaitGroup
}

// NewClient returns a Client configured by opts. Without options it
// fetches through a default HTTP client with a 10 s fetch timeout, reads
// up to 500 KiB, follows 5 redirects, caches up to 10,000 authorities for
// 24 hours at most, and matches as "robotstxt" (its default User-Agent's).
func NewClient(opts ...Option) *Client {
	cfg := defaultConfig()
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if !cfg.leaseWaitSet {
		// A holder's lease and then one more fill: a live holder's
		// result, its fetch run to its timeout, is found, not fetched
		// again by every process waiting for it; and a holder that died
		// holding the lease leaves it to lapse, when one waiter takes it
		// over and fills while the others wait for its result, instead
		// of all fetching at the end of a shorter wait.
		cfg.leaseWait = time.Duration(stamp(cfg.leaseTTL()).add(cfg.fetchTimeout).add(cfg.storeTimeout).add(cfg.storeTimeout)) // saturating
	}
	c := &Client{cfg: cfg, slots: make(chan struct{}, cfg.maxFetches)}
	c.pacer = sync.OnceValue(newMemPacer)
	c.hopsAlone = sync.OnceValue(func() *Transport { return hopTransport(c, defaultTransportConfig()) })
	c.fetcher.c = c
	if cfg.httpClient != nil {
		c.fetcher.hc = *cfg.httpClient
	}
	c.fetcher.hc.CheckRedirect = noRedirects
	c.fetcher.hc.Jar = nil // see WithHTTPClient
	if cfg.tokens != nil {
		c.tokens, c.setupErr = cfg.tokens, checkTokens(cfg.tokens)
	} else if tok, err := agent.ProductToken(cfg.userAgent); err == nil {
		c.tokens = []string{tok}
	} else {
		c.setupErr = err
	}
	for _, h := range [...][2]string{{"User-Agent", cfg.userAgent}, {"From", cfg.from}} {
		if !httpguts.ValidHeaderFieldValue(h[1]) {
			// net/http would refuse every fetch: robots.txt unreachable
			// for ever, which an error policy may read as allow-all.
			c.setupErr = fmt.Errorf("robotstxt: a %s header net/http cannot send: %q", h[0], h[1])
		}
	}
	c.logger = sturdylog.New(cfg.logger)
	c.robots = document{path: "/robots.txt", name: "robots.txt", cache: newMemCache(cfg.cacheSize, cfg.cacheBytes, true), robots: true}
	c.hopFailed, _ = lru.New[string, *entry](maxHopFailures) // a size above 0 makes no error
	c.robots.cache.published = c.answered
	if cfg.tdmrep {
		c.tdm = &document{path: tdmrepPath, name: "tdmrep.json", cache: newMemCache(cfg.cacheSize, max(cfg.cacheBytes/tdmrepShare, 1), false)}
	}
	if !cfg.clockSet {
		c.clock = newCoarseClock()
	}
	c.base, c.cancel = context.WithCancel(context.Background())
	if cfg.store != nil {
		c.tier = &sharedTier{Client: c, store: cfg.store, throttle: logthrottle.New(logthrottle.Interval),
			crawler: sync.OnceValue(func() uint64 { return crawlerOf(cfg.userAgent, c.tokens, isGuard(c.fetcher.hc.Transport)) })}
	}
	return c
}

// Allowed reports whether the crawler may fetch rawURL. It fetches the
// authority's robots.txt if no fresh copy is cached, waiting at most until
// ctx ends. rawURL is allowed only if the path a server may serve for it is
// allowed too: /public/../private, //private and /%70rivate are checked as
// /private as well (see the package documentation). When robots.txt is
// unreachable and no usable copy is cached it returns false and an error
// matching ErrDeferred; a *DeferredError says when to come back. A URL that
// is not http or https, or is malformed, gives an error matching ErrBadURL,
// as does one whose host net/http dials as one site and names as another
// in the Host header it sends ("ｂ.test" is dialled as b.test, asked for as
// xn--ni7c.test): a [Transport] checks both of those sites.
func (c *Client) Allowed(ctx context.Context, rawURL string) (bool, error) {
	return c.check(ctx, rawURL, nil, true)
}

// Check is like Allowed but returns the whole decision: the status it
// rests on, when it expires, the deciding rule and whether it was deferred
// or served from a stale copy.
func (c *Client) Check(ctx context.Context, rawURL string) (Decision, error) {
	return c.decide(ctx, rawURL, true)
}

// decide is Check; sent says rawURL is sent as it is, so that a host
// net/http sends otherwise than it dials is refused (see
// target.SplitSent): the Transport, which checks the site of the Host it
// sends too, decides for the site it dials.
func (c *Client) decide(ctx context.Context, rawURL string, sent bool) (Decision, error) {
	var d Decision
	_, err := c.check(ctx, rawURL, &d, sent)
	return d, err
}

// Close stops fetches under way, waits for them to end and closes the
// idle connections of the transport it fetches through, unless that is or
// wraps (as [NewTransport] says) http.DefaultTransport, which others
// share ([WithHTTPClient];
// [NewClientTransport]'s Transport shares the Client's). Checks that can
// be answered from memory keep working; others return ErrClosed, as do a
// [Transport]'s requests waiting for their turn.
func (c *Client) Close() error {
	c.mustBeMade()
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.cancel()
	if c.clock != nil {
		c.clock.stop()
	}
	c.fetches.Wait()
	if !wraps(c.fetcher.hc.Transport, func(rt http.RoundTripper) bool {
		t, ok := rt.(*http.Transport) // a stub put as DefaultTransport may not compare (review145)
		return ok && t == http.DefaultTransport
	}) {
		c.fetcher.hc.CloseIdleConnections()
	}
	return nil
}

// mustBeMade panics unless NewClient made c, before a nil dereference would.
func (c *Client) mustBeMade() {
	if c == nil || c.robots.cache == nil {
		panic("robotstxt: Client used without NewClient")
	}
}

// The load path. A check finds its authority's entry in memory (cache.go);
// a fresh one answers (answer) until it expires (fresh). Without one,
// current looks in the Store, then load runs one fill for all the checks
// that wait: it takes the Store's copy, waits for another process's
// (awaitLease), or fetches (fetch.go) and builds the entry (refresh,
// unreachable, standIn). An expired entry answers, stale, the checks that
// do not wait for its fill, which marks it refreshing while it runs,
// unless it is older than the stale window (stands); one
// whose rules the byte budget dropped is parsed again (rulesOf).
//
// A fill runs detached from the checks that wait for it, so that one that
// gives up does not cut it for the others. One that a redirect hop needs
// (hop.go) runs in its fetch's slot and context, and publishes a good
// result, or an error status the site sent itself: any other failure
// there may be the chain's doing.

// A key names one document the Client caches for one authority.
type key struct {
	authority string // normalised by target.Split: "https://example.com:443"
	doc       *document
}

// A document is a file the Client caches per authority, each in a cache
// of its own: robots.txt, and under WithTDMRep tdmrep.json.
type document struct {
	path   string // such as "/robots.txt"
	name   string // for logs: "robots.txt"
	cache  *memCache
	fills  sharedcall.Group // by authority
	robots bool             // robots.txt: read for the rules; another is kept as its body
}

// url returns the document's URL, without the scheme's default port.
func (k key) url() string {
	scheme, _, _ := strings.Cut(k.authority, "://")
	return scheme + "://" + sentHost(k.authority) + k.doc.path
}

// sentHost returns the Host the Client sends for authority's documents,
// and the Transport for its pages: its host and port, without the
// scheme's default port.
func sentHost(authority string) string {
	scheme, hostPort, _ := strings.Cut(authority, "://")
	if scheme == "http" {
		return strings.TrimSuffix(hostPort, ":80")
	}
	return strings.TrimSuffix(hostPort, ":443")
}

// readLimit returns how many bytes of d a Client reads: robots.txt's
// WithBodyLimit, or tdmrep.json's own limit and a byte to tell a file
// over it.
func (c *config) readLimit(d *document) int64 {
	if d.robots {
		return c.bodyLimit
	}
	return tdmrep.MaxSize + 1
}

// store returns the key of k's document in a Store: its authority for
// robots.txt, else the authority followed by the document's path.
func (k key) store() string {
	if k.doc.robots {
		return k.authority
	}
	return k.authority + k.doc.path
}

// check answers for rawURL, filling in d unless it is nil (Allowed); sent
// as decide says.
func (c *Client) check(ctx context.Context, rawURL string, d *Decision, sent bool) (bool, error) {
	c.mustBeMade()
	if c.setupErr != nil {
		return false, c.setupErr
	}
	var buf [128]byte
	var authority []byte
	var path string
	var err error
	if sent {
		authority, path, err = target.SplitSent(rawURL, buf[:0])
	} else {
		authority, path, err = target.Split(rawURL, buf[:0])
	}
	if err != nil {
		return false, err
	}
	return c.checkAt(ctx, authority, path, d, true)
}

// checkAt answers for path at an authority cut by target.Split; counted
// says it is a caller's check, which Stats counts, not one the Client
// makes itself (of a redirect's target, of tdmrep.json).
func (c *Client) checkAt(ctx context.Context, authority []byte, path string, d *Decision, counted bool) (bool, error) {
	e := c.robots.cache.get(authority)
	if e != nil && (c.fresh(e) || fetchedSince(ctx, e)) {
		if counted {
			c.stats.hits.add()
		}
		return c.answer(e, path, false, d, counted)
	}
	if counted {
		c.stats.misses.Add(1)
	}
	cur, stale, err := c.current(ctx, key{string(authority), &c.robots}, e)
	if err != nil {
		return false, err
	}
	return c.answer(cur, path, stale, d, counted)
}

// checkedSinceKey keys, in the context of a check, the stamp since which
// a copy of robots.txt fetched answers it, fresh or not (see
// Transport.RoundTrip's recheck).
type checkedSinceKey struct{}

// fetchedSince reports whether e's copy was fetched after the stamp
// ctx's check names, if any: a failed attempt, answered by a last good
// copy or a policy's outcome, is tried again past its back-off.
func fetchedSince(ctx context.Context, e *entry) bool {
	since, ok := ctx.Value(checkedSinceKey{}).(stamp)
	return ok && e.failures == 0 && e.fetched > since
}

// fillContext returns a context with ctx's values for a fetch made after
// ctx's request: its caller may have cancelled it (an http.Client with a
// Timeout does when the body is closed), which is no failure of the
// site's, so the wait is bounded by what a fill may take instead, after
// a wait for a fetch slot, which another fill holds as long.
func (c *Client) fillContext(ctx context.Context) (context.Context, context.CancelFunc) {
	b := c.fillBound()
	return context.WithTimeout(context.WithoutCancel(ctx), time.Duration(stamp(b).add(b))) // saturating
}

// leaseTTL is the TTL of a Store lease: it outlives the fill it guards,
// a look in the Store, the fetch and the write of its result.
func (cfg *config) leaseTTL() time.Duration {
	return time.Duration(stamp(leaseMargin).add(cfg.storeTimeout).add(cfg.fetchTimeout).add(cfg.storeTimeout)) // saturating
}

// fillBound is the longest a fill may take: the fetch, and with a Store
// its look-up and write, and a Leaser's lease wait.
func (c *Client) fillBound() time.Duration {
	cfg := &c.cfg
	d := stamp(cfg.fetchTimeout)
	if cfg.store != nil {
		d = d.add(cfg.storeTimeout).add(cfg.storeTimeout) // saturating
		if _, ok := cfg.store.(Leaser); ok {
			d = d.add(cfg.leaseWait)
		}
	}
	return time.Duration(d)
}

// tdmrep returns the tdmrep.json entry of authority (WithTDMRep), fresh,
// or stale while it is fetched again, waiting at most until ctx ends; an
// entry with OutcomeUnreachable means the file could not be read. Before
// it asks for the file, robots.txt must allow it, as a crawler's own
// check finds (RFC 9309 exempts only /robots.txt): else an error.
func (c *Client) tdmrep(ctx context.Context, authority string) (*entry, error) {
	e := c.tdm.cache.get([]byte(authority))
	if e != nil && c.fresh(e) {
		return e, nil
	}
	switch ok, err := c.checkAt(ctx, []byte(authority), tdmrepPath, nil, false); {
	case err != nil:
		return nil, fmt.Errorf("robotstxt: %s cannot be checked: %w", tdmrepPath, err)
	case !ok:
		return nil, fmt.Errorf("robotstxt: robots.txt disallows %s", tdmrepPath)
	}
	e, _, err := c.current(ctx, key{authority, c.tdm}, e)
	return e, err
}

// fresh reports whether e may answer without asking its server again, by
// the coarse clock far from its expiry; near it, and for a deferral or a
// stale copy, whose RetryAt a crawler comes back at, by the exact one.
func (c *Client) fresh(e *entry) bool {
	if c.clock != nil && e.outcome != OutcomeUnreachable && !e.stale {
		if now := c.clock.load(); now >= e.checked && now < e.expires-exactMargin {
			return true // now is 0 while the clock is stopped
		}
	}
	now := c.cfg.now()
	if c.clock != nil && c.clock.now.Load() == 0 {
		c.clock.start(stampOf(now))
	}
	return !e.expired(now)
}

// answer is the one place a check is answered from an entry, filling in
// d unless it is nil; stale says e has expired and is being fetched
// again, and counted that Stats counts the check (see checkAt).
func (c *Client) answer(e *entry, path string, stale bool, d *Decision, counted bool) (bool, error) {
	var ok bool
	var rule Rule
	var err error
	switch e.outcome {
	case OutcomeRules:
		cr, rerr := c.rulesOf(e)
		if rerr != nil {
			return false, rerr
		}
		if d == nil {
			ok, rule = servedCheck(cr, path, nil)
		} else if ok, rule = servedCheck(cr, path, &d.Served); ok {
			d.Usage = servedUsage(cr, path)
		}
	case OutcomeAllowAll:
		ok = true
	case OutcomeUnreachable:
		if counted {
			c.stats.deferred.Add(1)
		}
		retryAt := e.expires.time()
		if stale {
			// Being fetched again: the answer may change shortly, not
			// at a time already past.
			retryAt = c.cfg.now().Add(retryingPause)
		}
		err = e.deferral(retryAt)
	}
	if counted && err == nil && (stale || e.stale) {
		c.stats.stale.Add(1)
	}
	if d != nil {
		d.describe(e, c.cfg.mode)
		d.Allowed, d.Rule = ok, rule
		switch {
		case e.outcome == OutcomeUnreachable:
			d.Deferred, d.Stale, d.Err = true, false, err
			d.Expires = err.(*DeferredError).RetryAt
		case stale:
			d.Stale, d.Expires = true, c.cfg.now().Add(retryingPause)
		}
	}
	return ok, err
}

// current returns the entry to answer for k from, when e, the entry in
// memory, is not fresh: a current one, or e itself, stale, when another
// fill is fetching it again or the caller cannot wait for a fetch.
func (c *Client) current(ctx context.Context, k key, e *entry) (_ *entry, stale bool, _ error) {
	if e != nil && e.refreshing() && c.stands(e) {
		return e, true, nil // do not wait for another's fill
	}
	prev, looked := e, false
	if e == nil && c.tier != nil && c.base.Err() == nil {
		// Here: a fill costs a goroutine and two hand-offs, several times
		// the Store's answer.
		hit, older, err := c.tier.lookup(ctx, k, nil)
		switch {
		case err != nil:
			return nil, false, fmt.Errorf("robotstxt: waiting for %s: %w", capQuote(k.url()), err)
		case hit != nil:
			return k.doc.cache.putNewer(hit, nil, c.cfg.now()), false, nil // not over a fill's
		}
		prev, looked = older, true
	}
	fresh, err := c.load(ctx, k, prev, looked)
	switch {
	case err == nil:
		return fresh, false, nil
	case c.spares(prev) && (ctx.Err() != nil || errors.Is(err, errNoSlot)) && c.base.Err() == nil:
		// The caller cannot wait for the fetch, which goes on or will be
		// tried again (not after Close); the expired copy is still a
		// usable answer.
		return prev, true, nil
	}
	return nil, false, err
}

// stands reports whether e, expired, may answer a check that does not
// wait for its fill: a failure, which defers, or a good copy younger than
// the stale window, as one may stand in for an unreachable server (not
// the allow-all of WithUnreachableAllowAfter, which the next fetch
// decides anew).
func (c *Client) stands(e *entry) bool {
	return e.outcome == OutcomeUnreachable || e.good() && stampOf(c.cfg.now()).sub(e.fetched) < c.cfg.staleWindow
}

// spares reports whether prev, expired, may answer a check that cannot
// wait for its fetch (its context ended, or every fetch slot is taken):
// it stands, and a good copy expired less than the freshness cap ago, so
// that a crawl keeping every slot busy does not answer for weeks from a
// copy no fetch was tried for.
func (c *Client) spares(prev *entry) bool {
	return prev != nil && c.stands(prev) && (!prev.good() || stampOf(c.cfg.now()).sub(prev.expires) < c.cfg.maxFresh)
}

// load returns a current entry for k from one fill that concurrent loads
// of k share; looked says the caller has just looked in the Store. With
// every fetch slot taken it waits for one until ctx ends, unless it has
// prev, an expired entry that spares it, which current answers from
// instead. A slot given back goes to one waiting load (the first), which
// hands it to its fill, or gives it back at once when it joins another
// load's fill, which has its own: waking every waiting load for each slot
// given back cost a cold start of 4,000 sites over 8 slots about 100
// goroutines a check and 17 to 20 times the CPU.
func (c *Client) load(ctx context.Context, k key, prev *entry, looked bool) (*entry, error) {
	hop := chainOf(ctx) != nil
	held := new(atomic.Bool) // a slot this load waited for, until its fill takes it
	giveBack := func() {
		if held.CompareAndSwap(true, false) {
			c.freeSlot()
		}
	}
	defer giveBack()
	fill := c.fillOnce(ctx, k, prev, looked, held)
	// A hop shares only hops' fills: a crawler's own fill may wait for
	// another process's lease past the hop's fetch (see fill). A fill for
	// a page's Receipt or Usage, which may go where the page holds the
	// turn (see twinLease), shares only those of the same page, while it
	// is in flight: another's would wait for that turn.
	shared := k.authority
	if hop {
		shared = "hop " + k.authority
	}
	if twin := ctx.Value(twinKey{}); twin != nil {
		shared = fmt.Sprintf("twin %p %s", twin, shared)
	}
	var hf *hopFailure
	for {
		var v any
		var err error
		if ctx.Done() == nil && !held.Load() { // the caller cannot give up: fill in its goroutine
			// (Holding a slot, it starts the fill: Do cannot tell it
			// joined another's, which would keep the slot idle.)
			v, err = k.doc.fills.Do(shared, fill)
		} else if ctx.Err() != nil {
			// Given up already: no fill for it.
			return nil, fmt.Errorf("robotstxt: waiting for %s: %w", capQuote(k.url()), context.Cause(ctx))
		} else {
			call, began := k.doc.fills.Start(shared, fill)
			if !began {
				giveBack() // joined another load's fill, which has a slot or needs none
			}
			select {
			case <-call.Done():
				v, err = call.Val, call.Err
			case <-ctx.Done():
				return nil, fmt.Errorf("robotstxt: waiting for %s: %w", capQuote(k.url()), context.Cause(ctx))
			}
		}
		giveBack() // the fill took it, or the call ended before it ran
		if p, ok := err.(*fillPanic); ok {
			panic(p)
		}
		e, _ := v.(*entry)
		switch {
		case errors.Is(err, errHopCut) && ctx.Err() == nil,
			errors.As(err, &hf) && hf.by != chainOf(ctx).requests:
			continue // a hop that joined another fetch's hop, whose result is not ours: fill anew
		case err != errNoSlot || c.spares(prev):
			return e, err // a hop's fill, which needs no slot, never finds none
		case len(c.slots) < cap(c.slots):
			// The fill we joined tried before a slot was given back:
			// try again.
			continue
		}
		if e, err := c.awaitSlot(ctx, k, prev, held); e != nil || err != nil {
			return e, err
		}
	}
}

// awaitSlot waits for a fetch slot for a fill of k, which held then
// holds, or for another load's fill of k to publish an entry newer than
// prev, which it returns: a check of a site that came while its fill
// waited for a slot (and so shared no call with it) answers with it, not
// when its own turn for a slot comes.
func (c *Client) awaitSlot(ctx context.Context, k key, prev *entry, held *atomic.Bool) (*entry, error) {
	filled, unwatch := k.doc.cache.watch(k.authority)
	defer unwatch()
	if e := c.newer(k.doc.cache.peek(k.authority), prev); e != nil {
		return e, nil // published since our fill found no slot
	}
	select {
	case c.slots <- struct{}{}: // taken for this load's fill
		held.Store(true)
		return nil, nil
	case <-filled: // by a fill, another site's redirected there, a Store
		return c.newer(k.doc.cache.peek(k.authority), prev), nil // or, if none is fresh, fill anew
	case <-ctx.Done():
		return nil, fmt.Errorf("robotstxt: waiting for a fetch slot for %s: %w", capQuote(k.url()), context.Cause(ctx))
	}
}

// newer returns cur, an entry in memory, if it is another than prev, the
// one its caller looked up, and not expired: a fill published it since.
func (c *Client) newer(cur, prev *entry) *entry {
	if cur != nil && cur != prev && !cur.expired(c.cfg.now()) {
		return cur
	}
	return nil
}

// fillOnce returns the function of a fill of k for k.doc.fills, whose
// concurrent loads share it. A panic in it (a caller's RoundTripper,
// Store or policy) is its error, a *fillPanic, which each load raises
// again in its own goroutine, where the caller may recover it
// (singleflight would raise it where none can), and which it logs, for
// when every caller has left.
func (c *Client) fillOnce(ctx context.Context, k key, prev *entry, looked bool, held *atomic.Bool) func() (any, error) {
	fill := recovering(func() (any, error) { return c.fill(ctx, k, prev, looked, held) })
	return func() (any, error) {
		v, err := fill()
		if p, ok := err.(*fillPanic); ok && !p.logged.Swap(true) { // its callers may all have left
			c.logger.LogAttrs(c.base, slog.LevelError, k.doc.name+" fill panicked",
				slog.String("authority", k.authority), slog.String("panic", p.Error()))
		}
		return v, err
	}
}

// recovering returns f, a call singleflight shares, with a panic in it
// returned as a *fillPanic: singleflight would raise it where none can
// recover it.
func recovering(f func() (any, error)) func() (any, error) {
	return func() (_ any, err error) {
		defer func() {
			switch v := recover().(type) {
			case nil:
			case *fillPanic: // raised again (see stopBody.cut), its stack kept
				err = v
			default:
				err = newFillPanic(v)
			}
		}()
		return f()
	}
}

// A fillPanic is a panic of a fill or a Store lookup, with its stack,
// raised again in each check that shares the call.
type fillPanic struct {
	value  string
	stack  []byte
	logged atomic.Bool // by the fill of a hop's chain it is raised again in, not twice
}

// newFillPanic returns the fillPanic of v, recovered just now. It prints
// v once, here: a value whose String method panics with such a value
// again makes fmt panic, which in a goroutine of the library's would end
// the process.
func newFillPanic(v any) *fillPanic {
	p := &fillPanic{stack: debug.Stack()}
	func() {
		defer func() {
			if recover() != nil {
				p.value = fmt.Sprintf("a %T that panics when printed", v)
			}
		}()
		p.value = fmt.Sprint(v)
	}()
	return p
}

func (p *fillPanic) Error() string {
	return "robotstxt: panic in a robots.txt fill or Store lookup: " + p.value + "\n\n" + string(p.stack)
}

// Errors of a fill that its joiners may not take for their own.
var (
	errNoSlot    = errors.New("robotstxt: no fetch slot free")
	errHopCut    = errors.New("the fetch it served ended")
	errHopFailed = errors.New("robots.txt unusable for the redirect")
)

// freeSlot gives a fill's slot back, to the first load waiting for one.
func (c *Client) freeSlot() { <-c.slots }

// enter registers a fill so Close can wait for it; it fails once closed.
func (c *Client) enter() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	c.fetches.Add(1)
	return true
}

// fill publishes a new entry for k: the Store's if it has a fresh one,
// else a fetch's, after another process's lease if one is held. It runs
// on c.base, with the twinLease of a Receipt's or Usage's fetch, or for a
// hop on ctx, the hop's fetch (see the load path); held, if not nil, may
// hold a slot its load waited for.
func (c *Client) fill(ctx context.Context, k key, prev *entry, looked bool, held *atomic.Bool) (*entry, error) {
	parent, hop := c.base, chainOf(ctx) != nil
	twin := ctx.Value(twinKey{})
	if twin != nil {
		parent = context.WithValue(parent, twinKey{}, twin)
	}
	switch {
	case hop:
		parent = ctx
	case twin != nil:
		// No slot, as a hop's: the fills holding them may all be waiting
		// for the turn the page holds (see twinLease). One a page.
	case held != nil && held.CompareAndSwap(true, false):
		defer c.freeSlot()
	default:
		select {
		case c.slots <- struct{}{}:
			defer c.freeSlot()
		default:
			if c.base.Err() != nil {
				return nil, ErrClosed // no slot will come, nor a copy stand in (see current)
			}
			return nil, errNoSlot
		}
	}
	if !c.enter() {
		return nil, ErrClosed
	}
	defer c.fetches.Done()
	cur := k.doc.cache.peek(k.authority)
	if e := c.newer(cur, prev); e != nil {
		return e, nil // a fill that ended since our caller's miss published it
	}
	if cur != nil {
		cur.setRefreshing(true)
		defer cur.setRefreshing(false)
		if prev == nil || cur.checked > prev.checked {
			// Published since, expired already (a wait for a slot may
			// outlast its freshness): the copy to revalidate, and to
			// stand in, is the newer.
			prev = cur
		}
	}
	leased, storeDown := false, false
	if c.tier != nil {
		if !looked {
			e, older, _ := c.tier.lookup(context.Background(), k, prev)
			if e != nil {
				return k.doc.cache.putNewer(e, cur, c.cfg.now()), nil // not over an answer published since
			}
			prev = older
		}
		// A hop does not wait: its fetch's deadline would pass first,
		// and the redirecting site be stored as unreachable; nor does a
		// page's Receipt or Usage with a twinLease: the fill holding the
		// lease may be waiting for the turn the page holds.
		e, release, down := c.awaitLease(k, !hop && twin == nil)
		storeDown = down
		if e != nil {
			return k.doc.cache.putNewer(c.keepGood(e, prev), cur, c.cfg.now()), nil
		}
		if release != nil {
			leased = true
			defer release() // once the result is in the Store
		}
	}
	var asked []func() // see refresh: after this fill has kept its answer
	defer func() {
		for _, end := range asked {
			end()
		}
	}()
	e, err := c.refresh(parent, k, prev, &asked)
	switch {
	case err != nil:
		return nil, err
	case hop && (e.failures > 0 || !e.good()): // failed, a stale copy standing in, or an error policy's answer
		if !serversOwn(int(e.failStatus), e.cause) {
			// A failure that is not the server's whoever asks may be
			// the other site's doing (its chain, a redirect it refused,
			// its fetch's deadline): not this authority's to keep, nor
			// to answer. (What a policy reads the server's own failure
			// as, an outage's allow-all too, is, as its own check's.)
			return nil, &hopFailure{chainOf(ctx).requests, fmt.Errorf("%w: %w", errHopFailed, e.deferral(e.expires.time()))}
		}
		// The server's own failure is kept, or the last good copy standing in for
		// it, for its back-off as a check's would be, so that the next
		// site redirecting there asks it nothing; but not over an entry
		// a fill published meanwhile (this process's check may have
		// fetched beside the hop), nor in the Store unless under the
		// lease, or with a Store that has none (another process's may
		// have).
		_, leases := c.cfg.store.(Leaser)
		owned := leased || c.tier != nil && !leases // no lease to hold: as a check's fill, storeFailure decides
		if (e.stale || e.outcome == OutcomeAllowAll) && c.tier != nil && !owned && !storeDown {
			// Another process, holding the lease, may have stored the
			// file's rules since: a copy, or a policy's allow-all, is
			// kept, so that the sites redirecting there ask nothing,
			// only as long as the least freshness. (A deferral, or a
			// policy's disallow-all, allows nothing those rules would
			// not: it keeps its back-off; and with the Store failing,
			// no stored rules could be read in its place.)
			e.expires = min(e.expires, stampOf(c.cfg.now()).add(c.cfg.minFresh))
		}
		if held := k.doc.cache.putOver(e, cur, c.cfg.now()); held != e || !owned {
			return held, nil
		}
		return c.storeFailure(k, e, e, prev), nil
	case e.failures > 0 || !e.good():
		// Nor is a check's failure, or the copy standing in for it,
		// kept over an answer a chain redirected here published while
		// it fetched (see keepTheirs): that one is the newer.
		held := k.doc.cache.putOver(e, cur, c.cfg.now())
		switch {
		case c.tier == nil:
			return held, nil
		case held != e && leased && held.failures == 0 && !held.stale:
			// Under the lease the Store hears of this fetch: the newer
			// answer, or else this failure and its back-off (not a
			// copy a chain kept standing in for a minute).
			c.tier.set(k, held)
			return held, nil
		case held != e && !leased:
			return held, nil
		}
		return c.storeFailure(k, e, held, prev), nil
	default:
		k.doc.cache.put(e)
	}
	if c.tier != nil {
		c.tier.set(k, e)
	}
	return e, nil
}

// storeFailure writes e, a fill's failure or the copy standing in for
// it, which went on from prev (see goesOn), to the Store, unless the Store holds a fresh answer: another
// process's, or one a chain redirected here wrote without the lease
// while this fill fetched, which is the newer. That one then takes the
// place of seen, the entry memory held for k, and is returned. A bare
// failure over another process's stand-in is written with that copy
// standing in for it; an answer memory holds, checked since (a fetch of
// this process's beside this one), is written back over it.
func (c *Client) storeFailure(k key, e, seen, prev *entry) *entry {
	s, _, outage := c.tier.read(c.base, k, true)
	if s != nil && s.answers() {
		return k.doc.cache.putOver(s, seen, c.cfg.now())
	}
	if s != nil && s.good() && !e.good() {
		// Another process's last good copy, standing in: it stands in
		// for this failure too, in the Store and, unless memory holds
		// another entry, in memory (a bare failure would defer the site
		// for every process without a copy of its own).
		if in := c.keepGood(e, s); in != e {
			if seen == e {
				seen = k.doc.cache.putOver(in, seen, c.cfg.now())
			}
			e = in
		}
	}
	kept, mine := c.goesOn(k, e, prev, outage)
	c.tier.set(k, kept)
	if mine != e && seen == e {
		seen = k.doc.cache.putOver(mine, seen, c.cfg.now())
	}
	if m := k.doc.cache.peek(k.authority); m != nil && m != e && m.answers() && m.checked >= e.checked {
		// A fetch of this process's answered beside this one (a hop's
		// and a check's are not shared) and may have written the Store
		// first: it publishes in memory before, so its answer, seen
		// here, is written back over this failure.
		c.tier.set(k, m)
		return m
	}
	return seen
}

// goesOn returns e, a failure that went on from prev, as the Store is to
// keep it (kept) and as this Client answers (mine): going on from outage,
// the one the Store records, when this fetch continues it (as
// Client.unreachable reads an outage) and prev shows no answer the Store
// missed since (a good copy fetched after the Store's record: an
// outage of its own begun later, the Store down when it began, shows
// none), with its start, so that the start is the one every process
// recorded; and with the last good copy standing in there still standing
// in, which the readers whose policies take it read in place of the
// failure, within their stale windows. A Client that counts
// from its own first failure, not taking the Store's (its error policy
// reads a failure the Store does not keep as disallow-all, or it has no
// WithUnreachableAllowAfter), once wrote its start over the fleet's: an
// earlier one, and every process deferred the site for another
// WithUnreachableAllowAfter; or a later one, an outage it remembered
// that had ended (the site answered another process), and every process
// allowed all too soon; and its bare failure over the fleet's copy. Its
// own answer takes the Store's start only when that is later.
func (c *Client) goesOn(k key, e, prev, outage *entry) (kept, mine *entry) {
	if !c.cfg.continues(k, e.fetched, outage) || e.failures == 0 || refused(e.cause) || outage.since == 0 || outage.since > e.fetched ||
		prev != nil && prev.good() && prev.fetched > outage.checked {
		return e, e
	}
	ours := !e.stale && (e.outcome == OutcomeUnreachable || e.outcome == OutcomeAllowAll && c.cfg.outageAllows(k, e.fetched, e.since))
	// An error policy's allow-all for a failure with no response: the
	// fleet's copy stands in for it too, as a reader's own would to its
	// window's end (review161: a member of a shorter window, first to
	// ask again, wrote it bare over the copy).
	policy := !e.stale && !ours && e.outcome == OutcomeAllowAll && e.status == 0
	bare := e
	if outage.since != e.since {
		bare = e.clone()
		bare.failures, bare.since = min(outage.failures+1, maxFailures), outage.since
		if ours {
			// The outcome of the outage's length, not of a policy's.
			bare.outcome = OutcomeUnreachable
			if c.cfg.outageAllows(k, bare.fetched, bare.since) {
				bare.outcome = OutcomeAllowAll
			}
		}
		bare = bare.derive()
	}
	kept, mine = bare, e
	if bare.since > e.since {
		mine = bare // the outage this process remembered had ended
	}
	if (ours || policy) && outage.stale && outage.good() && !hopChecked(outage) {
		// The Store's copy goes on standing in, for the failure's
		// back-off, whatever this Client's stale window: each reader
		// takes it within its own, and past it the failure (see
		// sharedTier.read). Cut to a writer's window, it was the bare
		// failure, an outage's allow-all, to a fleet whose window is
		// longer, or refused by the readers of a shorter one.
		kept = outage.standingFor(bare)
	}
	return kept, mine
}

// refresh fetches k's document on parent (c.base, or the fetch whose
// redirect hop needs it) and builds the entry that follows prev; to asked
// it adds what ends the other sites' robots.txt its fetch asked for (see
// asking), for its caller to call once their answers are kept.
func (c *Client) refresh(parent context.Context, k key, prev *entry, asked *[]func()) (*entry, error) {
	res := c.fetcher.fetch(parent, k, prev, asked)
	switch {
	case c.base.Err() != nil:
		return nil, fmt.Errorf("robotstxt: fetching %s: %w", capQuote(k.url()), ErrClosed)
	case parent.Err() != nil:
		// The fetch that needed it ended: no answer of k's server.
		return nil, fmt.Errorf("robotstxt: fetching %s for a redirect: %w (%w)", capQuote(k.url()), errHopCut, context.Cause(parent))
	}
	// To the unit the Store keeps, so that every process, and a receipt
	// made after the entry left memory, tells this fetch by one time.
	now := c.cfg.now().Truncate(storedUnit)
	at := stampOf(now)
	if k.doc.robots {
		counted := res.outcome
		if res.unanswered() {
			counted = OutcomeUnreachable // an outage, whatever WithErrorPolicy answers
		}
		c.stats.countFetch(counted, res.notModified)
	}
	if res.theirs != nil {
		// What that site's entry says, for as long as it says it.
		e := res.theirs.clone()
		e.key, e.redirects, e.checked = k.authority, res.redirects, at
		return c.keepTheirs(res, e.derive(), now), nil
	}
	if res.notModified {
		e := prev.clone()
		fresh := c.renew(now, prev, res.header, e)
		e.fetched = at
		if res.otherBody {
			// A 304 of another body revalidated nothing: the copy is
			// kept, as fetched when it was, for the least freshness,
			// without the validators that drew the 304, and given to
			// none of the sites the redirects passed through: the next
			// fetch, in a turn of its own, reads the file whole.
			e.etag, e.lastMod, e.fetched, fresh = "", "", prev.fetched, c.cfg.clampFresh(0)
			res.froms = nil
		}
		e.checked, e.expires, e.redirects = at, at.add(fresh), res.redirects
		e.stale, e.causes, e.failStatus, e.failures, e.errText, e.since = false, 0, 0, 0, "", 0
		e.cause = nil
		c.logFetched(k, http.StatusNotModified, e.outcome, fresh)
		return c.keepTheirs(res, e.derive(), now), nil
	}
	e := &entry{key: k.authority, persisted: persisted{
		outcome: res.outcome, status: int16(res.status), fetched: at, checked: at, redirects: res.redirects,
	}}
	if res.outcome == OutcomeUnreachable || res.unanswered() {
		// A WithErrorPolicy answer is a failure too, asked again on the
		// back-off: a good copy stands in for its allow-all, not for its
		// disallow-all.
		c.keepTheirFailure(res, now)
		return c.unreachable(k, e, prev, res, now), nil // its expiry is its back-off
	}
	fresh, lifetime, _ := c.cfg.freshness(now, res.header)
	e.expires = at.add(fresh)
	e.setLifetime(lifetime)
	if res.outcome == OutcomeRules {
		if k.doc.robots {
			e.setRules(res.body, compress(res.body), c.cfg.mode, c.tokens)
		} else {
			e.body = compress(res.body)
		}
		if !res.cut {
			// A body cut at this Client's limit is no copy of the file
			// to revalidate: a Client of a higher limit that took it
			// from the Store would renew the part as the whole.
			e.etag = capValidator(res.header.Get("ETag"))
			e.lastMod = capValidator(res.header.Get("Last-Modified"))
		}
	}
	c.logFetched(k, res.status, res.outcome, fresh)
	return c.keepTheirs(res, e.derive(), now), nil
}

// logFetched logs, at Debug level, a fetch of k's document that answered
// with status, and the outcome it gave for fresh.
func (c *Client) logFetched(k key, status int, outcome Outcome, fresh time.Duration) {
	c.logger.LogAttrs(c.base, slog.LevelDebug, k.doc.name+" fetched",
		slog.String("authority", k.authority), slog.Int("status", status),
		slog.String("outcome", outcome.name()), durationAttr("fresh", fresh))
}

// keepTheirs returns e, the entry res gave, after keeping it as the entry
// of each other site whose own fetch it is too (res.froms), which the
// next robots.txt redirected there takes (see theirs), unless the cache
// holds a current good one: a failure's back-off, or a last good copy
// standing in, ends with a fetch that succeeded, as it would with the
// site's own, in the Store too.
func (c *Client) keepTheirs(res fetchResult, e *entry, now time.Time) *entry {
	for _, from := range res.froms {
		if res.err != nil {
			break
		}
		their := e.clone()
		their.key, their.redirects = from.authority, from.redirects
		if cur := c.robots.cache.peek(from.authority); cur == nil || cur.expired(now) || cur.failures > 0 {
			c.robots.cache.put(their.derive())
			if c.tier != nil && res.theirs == nil {
				// Fetched now, as the site's own fetch would, lest a
				// failure stored before outlive it; not a copy held in
				// memory, older than what another process may have stored.
				c.tier.set(key{from.authority, &c.robots}, their)
			}
		}
	}
	return e
}

// keepTheirFailure keeps the failure res ended with, when it is its
// server's own whoever asks (see serversOwn), as the failure of each
// other site whose own fetch res is too (res.froms), for its
// back-off, for the robots.txt files redirected there meanwhile, which
// send it nothing (see failing), lest a host many sites redirect their
// robots.txt to be asked once a site while it is down. Not as the site's
// own entry: its own check, which this fetch did not look in the Store
// for, asks the Store, or the site, itself. Another failure (a timeout,
// a body cut, by the chain's deadline maybe) is kept for none; nor is one
// kept beside a current entry of the site's, or a failure a fetch beside
// this one kept (one outage, counted once).
func (c *Client) keepTheirFailure(res fetchResult, now time.Time) {
	if !serversOwn(res.status, res.err) {
		return
	}
	at := stampOf(now)
	for _, from := range res.froms {
		prev := c.latest(from.authority) // its failures, if any, go on
		if prev != nil && !prev.expired(now) {
			continue
		}
		e := &entry{key: from.authority, persisted: persisted{
			outcome: res.outcome, status: int16(res.status), fetched: at, checked: at, redirects: from.redirects,
		}}
		// The failure, completed, not the last good copy unreachable
		// would have stand in: a chain redirected there reads no rules,
		// and a copy kept here would be outside the cache's budget.
		c.unreachable(key{from.authority, &c.robots}, e, prev, res, now)
		c.hopFailed.Add(from.authority, e)
		if own := c.robots.cache.peek(from.authority); own != nil {
			c.answered(own) // published since latest looked: it may be the newer
		}
	}
}

// unreachable completes e, a failed fetch's entry, for the back-off
// period, or returns the last good copy standing in for it (see standIn),
// but for an error policy's disallow-all.
func (c *Client) unreachable(k key, e, prev *entry, res fetchResult, now time.Time) *entry {
	at := e.fetched
	e.failStatus, e.failures, e.since = e.status, 1, at
	if c.cfg.continues(k, at, prev) {
		e.failures, e.since = min(prev.failures+1, maxFailures), prev.since
		if e.since == 0 || e.since > at {
			e.since = prev.checked
		}
	}
	wait := c.cfg.retryIn(now, res.header, int(e.failures))
	e.cause = capErr(res.err)
	if e.causes = causesOf(e.cause); e.causes&causeNonPublic != 0 { // of the copy kept, as a Store keeps them
		wait = c.cfg.maxBackoff // an address does not become public in a minute
	}
	e.expires = at.add(wait)
	if e.cause != nil {
		e.errText = e.cause.Error()
	}
	c.logger.LogAttrs(c.base, slog.LevelWarn, k.doc.name+" unreachable",
		slog.String("authority", e.key), slog.Int("status", res.status),
		slog.Int("failures", int(e.failures)), durationAttr("retry_in", wait),
		slog.String("error", e.errText))
	if refused(res.err) {
		e.since = at // no outage: a refusal starts none, and ends one
	}
	switch {
	case e.outcome == OutcomeDisallowAll: // an error policy's: stricter than any copy
		return e.derive()
	case c.cfg.outageAllows(k, at, e.since):
		// Unreachable for long enough with no usable copy: crawl as if
		// there were no robots.txt, and keep asking.
		e.outcome = OutcomeAllowAll
	}
	return cmp.Or(c.standIn(prev, e.derive(), now), e)
}

// standIn returns good, the last copy from a reachable server, marked
// stale with failed's failures and expiry, to stand in for failed until
// the stale window ends; nil when good is already that old, or when its
// window ends within failed's back-off (a Retry-After's): the failure,
// which defers, stands then, lest the host be asked again as the window
// ends, before the back-off does. (A copy stands in to its window's end
// for an allow-all, which answers for more.)
func (c *Client) standIn(good, failed *entry, now time.Time) *entry {
	if good == nil || !good.good() || stampOf(now).sub(good.fetched) >= c.cfg.staleWindow ||
		failed.outcome == OutcomeUnreachable && good.fetched.add(c.cfg.staleWindow) < failed.expires {
		return nil
	}
	e := good.standingFor(failed)
	e.expires = min(e.expires, good.fetched.add(c.cfg.staleWindow))
	return e
}

// keepGood returns stored, or prev standing in for it when stored is
// another process's failure (not an error policy's disallow-all, for
// which none stands in), or its stand-in older than prev (see standIn).
func (c *Client) keepGood(stored, prev *entry) *entry {
	if stored.outcome == OutcomeDisallowAll && stored.failures > 0 && !stored.stale ||
		stored.good() && (!stored.stale || prev == nil || !prev.good() || prev.fetched <= stored.fetched) {
		return stored
	}
	return cmp.Or(c.standIn(prev, stored, c.cfg.now()), stored)
}

// lookup returns the Store's fresh entry for k, or else nil and the more
// recent of prev and the Store's expired copy, to revalidate from. A ctx
// that can end bounds it too; its cause is the error when it ends. A
// deadline sooner than the Store timeout leaves the Store's call running
// on to that timeout, past the caller's return: a Store that does not
// answer must read as failing (redisstore's breaker counts its
// deadlines), or checks that cannot wait the Store timeout would all
// wait in vain, for as long as it hangs, and fail. Such lookups of one
// key share one call, which keeps a fresh answer in memory, or else
// tries to fill k, as a check's fill runs on past its caller. (A hop's
// lookup is its fetch's, whose own fill needs no slot.)
func (t *sharedTier) lookup(ctx context.Context, k key, prev *entry) (*entry, *entry, error) {
	if ctx.Err() != nil {
		return nil, nil, context.Cause(ctx)
	}
	var e *entry
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < t.cfg.storeTimeout && chainOf(ctx) == nil { // a hop's fill is its fetch's
		// One call a key at a time, whose answer it keeps in memory for
		// the next check when its callers have left: a Store slower than
		// their deadlines would fail them all, for ever.
		lookup := recovering(func() (any, error) {
			if !t.enter() {
				return nil, ErrClosed
			}
			defer t.fetches.Done()
			e, _ := t.get(t.base, k, false)
			t.countLookup(e) // once, for every caller or none
			switch {
			case e != nil && !e.expired(t.cfg.now()):
				k.doc.cache.putNewer(t.keepGood(e, nil), nil, t.cfg.now()) // not over a fill's
			case t.base.Err() == nil && k.doc.cache.peek(k.authority) == nil:
				// A fill, which the callers still here join, while their
				// copy answers those that cannot wait for it. One try:
				// with no fetch slot free the next check tries again,
				// none waiting for one past its callers. Started, or
				// joined when under way: one goroutine a site, however
				// many checks miss meanwhile.
				var older *entry
				if e != nil {
					// In memory, for the checks that cannot wait for the
					// fill to answer from, stale, as from an expired
					// copy of their own: each would ask the Store again.
					if older = t.keepGood(e, nil); k.doc.cache.putOver(older, nil, t.cfg.now()) != older {
						return e, nil // a fill published another since
					}
				}
				k.doc.fills.Start(k.authority, t.fillOnce(t.base, k, older, true, nil)) // a panic logged
			}
			return e, nil
		})
		got, _ := t.lookups.Start(k.store(), func() (any, error) {
			v, err := lookup()
			if p, ok := err.(*fillPanic); ok { // its callers may all have left
				t.logger.LogAttrs(t.base, slog.LevelError, k.doc.name+" Store lookup panicked",
					slog.String("authority", k.authority), slog.String("panic", p.Error()))
			}
			return v, err
		})
		select {
		case <-got.Done():
			if p, ok := got.Err.(*fillPanic); ok {
				panic(p)
			}
			if got.Err != nil {
				return nil, nil, got.Err
			}
			e, _ = got.Val.(*entry)
		case <-ctx.Done():
			return nil, nil, context.Cause(ctx)
		}
		if e != nil && !e.expired(t.cfg.now()) {
			return t.keepGood(e, prev), nil, nil
		}
	} else {
		parent := t.base
		if ctx.Done() != nil {
			var cancel context.CancelCauseFunc
			parent, cancel = context.WithCancelCause(ctx)
			defer cancel(nil)
			defer context.AfterFunc(t.base, func() { cancel(context.Cause(t.base)) })()
		}
		e, _ = t.get(parent, k, false)
		if err := context.Cause(parent); err != nil && t.base.Err() == nil {
			return nil, nil, err
		}
		if t.countLookup(e) {
			return t.keepGood(e, prev), nil, nil
		}
	}
	if e != nil && (prev == nil || e.checked > prev.checked) {
		return nil, t.keepGood(e, prev), nil // a good prev carries the stored failures on
	}
	return nil, prev, nil
}

// countLookup counts a lookup that found e (nil for none) in the Store,
// a hit when it is fresh, and reports whether it was.
func (t *sharedTier) countLookup(e *entry) bool {
	if e != nil && !e.expired(t.cfg.now()) {
		t.stats.storeHits.Add(1)
		return true
	}
	t.stats.storeMisses.Add(1)
	return false
}

// lookLeased looks for k in the Store once more under its lease, which
// release gives back: the previous holder may have published between our
// miss and our lease. It gives the lease back when it finds an entry, or
// when the look panics (a Store's Get), which held it for its TTL.
func (c *Client) lookLeased(k key, release func()) (e *entry) {
	looked := false
	defer func() {
		if !looked || e != nil {
			release()
		}
	}()
	e, _ = c.tier.get(c.base, k, true)
	looked = true
	return e
}

// awaitLease takes the Store's lease on k, if the Store is a [Leaser],
// and returns its release; or, while another process holds it and wait
// is set, polls for that process's result for up to the lease wait,
// taking the lease when the holder gives it up without one (a failed
// hop, a Close). Neither: fetch anyway; down then says the Store failed
// to answer, rather than another process holding the lease.
func (c *Client) awaitLease(k key, wait bool) (e *entry, release func(), down bool) {
	t := c.tier
	l, ok := t.store.(Leaser)
	if !ok {
		return nil, nil, false
	}
	deadline := time.Now()
	if wait {
		deadline = deadline.Add(c.cfg.leaseWait)
	}
	ttl := c.cfg.leaseTTL()
	for waited := false; ; waited = true {
		ctx, cancel := context.WithTimeout(c.base, c.cfg.storeTimeout)
		release, got, err := l.Lease(ctx, k.store(), ttl)
		cancel()
		switch {
		case err != nil:
			t.fail("lease", k, err)
			return nil, nil, true
		case got:
			if e := c.lookLeased(k, release); e != nil {
				c.stats.storeHits.Add(1)
				return e, nil, false
			}
			return nil, release, false
		case !waited && wait:
			c.stats.leaseWaits.Add(1)
		}
		if !time.Now().Before(deadline) {
			return nil, nil, false
		}
		select {
		case <-c.base.Done():
			return nil, nil, false
		case <-time.After(min(c.cfg.leasePoll, time.Until(deadline))):
		}
		e, vain := t.get(c.base, k, true)
		if e != nil {
			c.stats.storeHits.Add(1)
			return e, nil, false
		}
		if vain {
			// The holder's result cannot reach us (a failing Store, or
			// one no Client reads): fetch now, not after it in line.
			return nil, nil, true
		}
	}
}

// servedCheck checks path and its normal forms (see match.NormalForms) against
// cr: the deciding rule is the first disallowed form's, else path's. When
// served is not nil, a form that decided is copied there.
func servedCheck(cr *agentRules, path string, served *string) (bool, Rule) {
	ok, rule, work := cr.check(path)
	if !ok || match.SpelledNormally(path) {
		return ok, rule
	}
	if frule, disallowed := formsCheck(cr, path, served, work); disallowed {
		return false, frule
	}
	return true, rule
}

// maxCheckWork bounds the work (see decideWork) of the checks of a path
// and its normal forms, against the rules, and again against the
// Content-Usage rules (see formsUsage): about that of an 8 KiB path
// (target.MaxPath, the longest Split takes) against 16,000 wildcard rules
// each matched across it, some 130 ms, the most a check of one path
// costs on a hostile site. Checked form by form, a path spelled
// otherwise cost that up to sixteen times over; past it, the forms left
// are not checked and the path is disallowed (for its usage train-ai=n
// stands), failing closed. No check of the 3,224 real files and long
// escaped paths comes past 0.61 of it (review71), but a path whose
// escapes are read in Windows-1252 too, with twice the forms: a link of
// some 7,000 bytes with a "//" passes it against a newspaper's file
// (review161), and is disallowed.
const maxCheckWork = 1 << 27

// formsCheck checks the normal forms of path against cr, for servedCheck:
// the first disallowed one's rule, copied to served unless it is nil; the
// zero Rule, disallowed, when the work done, from work for path's own
// check, passes maxCheckWork before a form is checked.
// Apart, so that the forms and their scratch space, over 2 KiB, are no
// part of the frame of a check of a path spelled normally: in it, they
// cost a warm check of an escaped path 8–10%
// (BenchmarkClientWarmPath/escaping). Inlined, it would be part of it.
//
//go:noinline
func formsCheck(cr *agentRules, path string, served *string, work int) (Rule, bool) {
	var scratch [match.NormalScratch]byte
	forms, n := match.NormalForms(path, scratch[:0])
	for _, f := range forms[:n] {
		if work > maxCheckWork {
			return Rule{}, true
		}
		fok, frule, w := cr.check(f)
		if !fok {
			if served != nil {
				*served = strings.Clone(f)
			}
			return frule, true
		}
		work += w
	}
	return Rule{}, false
}

// servedUsage returns the Content-Usage preferences of cr for path and
// its normal forms, which servedCheck allows, as they agree (see
// usage.Agree: a form's no counts, a yes only if every form is given it),
// combined with its Content-Signal ones.
func servedUsage(cr *agentRules, path string) Usage {
	t, mode := cr.t, cr.mode
	if !t.HasUsage(t.SelectedRuns()) {
		return cr.contentSignal()
	}
	var forms [match.MaxForms]string
	n := 0
	var scratch [match.NormalScratch]byte
	if !match.SpelledNormally(path) {
		forms, n = match.NormalForms(path, scratch[:0])
	}
	var buf [4]parse.UsageRule
	u, _, _ := formsUsage(buf[:0], t, mode, t.SelectedRuns(), path, forms[:n])
	return u.combine(cr.contentSignal())
}

// rulesOf returns the rules of e, whose outcome is OutcomeRules, thawing
// a frozen e from its body; concurrent thaws of e share one.
func (c *Client) rulesOf(e *entry) (*agentRules, error) {
	if cr := e.rules.Load(); cr != nil {
		return cr, nil
	}
	// By e's address, not its key: another entry for the key, which has
	// replaced or been replaced by e, may have other rules.
	v, err, _ := c.thaws.Do(fmt.Sprintf("%p", e), func() (any, error) {
		if cr := e.rules.Load(); cr != nil {
			return cr, nil // thawed since the caller looked
		}
		cr, err := e.rebuild(c.cfg.mode, c.tokens)
		if err != nil {
			return nil, err
		}
		c.stats.thaws.Add(1)
		return c.robots.cache.thawed(e, cr), nil
	})
	cr, _ := v.(*agentRules)
	return cr, err
}

// hopFailure is the error of a hop's fill that failed, and the chain
// (by its request count) whose fill it was.
type hopFailure struct {
	by  *atomic.Int64
	err error
}

func (h *hopFailure) Error() string { return h.err.Error() }
func (h *hopFailure) Unwrap() error { return h.err }
