package robotstxt

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/robotsgate/robotstxt/internal/agent"
	"github.com/robotsgate/robotstxt/internal/logthrottle"
	"github.com/robotsgate/robotstxt/internal/target"
)

// ErrBadURL is wrapped by every error the Client returns for a URL it
// cannot check: not http or https, no host, a malformed host or port, or
// anything else net/url would reject and so could not be fetched.
var ErrBadURL = target.ErrBadURL

// A Client answers whether a crawler may fetch URLs, fetching each
// authority's robots.txt once, caching it by its HTTP freshness (at most 24
// hours by default) and applying RFC 9309's status rules. It is safe for
// concurrent use; a warm check takes well under a microsecond.
//
// Most callers want [Client.Allowed], the fastest check; [Client.Check]
// also returns the [Decision] and the robots.txt it rests on, and
// [Client.Stats] counts what the Client has done. A crawler on net/http
// can leave the checks to a [Transport].
//
// The zero value is not usable, and panics; make one with NewClient.
type Client struct {
	cfg      config
	tokens   []string // product tokens matched against user-agent lines
	tokenErr error    // why there is no usable token, or nil
	fetcher  fetcher
	cache    *memCache
	tier     *sharedTier        // the Store's use; nil without a Store
	group    singleflight.Group // fills, by key
	thaws    singleflight.Group // thaws of frozen entries, by key (see rulesOf)
	stats    counters
	logger   *slog.Logger

	pacer func() *memPacer          // shared by Transports without WithPacer
	hops  atomic.Pointer[Transport] // paces hops that leave the site (see hopPacing)

	base    context.Context // parent of every fetch; cancelled by Close
	cancel  context.CancelFunc
	slots   chan struct{} // one per fill under way (see load)
	mu      sync.Mutex    // guards closed, freed and the Add side of fetches
	closed  bool
	freed   chan struct{} // closed, and replaced, when a slot is given back
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
		cfg.leaseWait = cfg.fetchTimeout
	}
	c := &Client{cfg: cfg, slots: make(chan struct{}, cfg.maxFetches), freed: make(chan struct{})}
	c.pacer = sync.OnceValue(newMemPacer)
	c.fetcher.cfg = &c.cfg
	c.fetcher.admit = c.admitHop
	if cfg.httpClient != nil {
		c.fetcher.hc = *cfg.httpClient
	}
	c.fetcher.hc.CheckRedirect = noRedirects
	if cfg.tokens != nil {
		c.tokens, c.tokenErr = cfg.tokens, checkTokens(cfg.tokens)
	} else if tok, err := agent.ProductToken(cfg.userAgent); err == nil {
		c.tokens = []string{tok}
	} else {
		c.tokenErr = err
	}
	c.logger = cmp.Or(cfg.logger, slog.New(slog.DiscardHandler))
	c.cache = newMemCache(cfg.cacheSize, cfg.cacheBytes)
	c.base, c.cancel = context.WithCancel(context.Background())
	if cfg.store != nil {
		c.tier = &sharedTier{Client: c, store: cfg.store, throttle: logthrottle.New(logthrottle.Interval)}
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
// is not http or https, or is malformed, gives an error matching ErrBadURL.
func (c *Client) Allowed(ctx context.Context, rawURL string) (bool, error) {
	c.mustBeMade()
	if c.tokenErr != nil {
		return false, c.tokenErr
	}
	var buf [128]byte
	key, path, err := target.Split(rawURL, buf[:0])
	if err != nil {
		return false, err
	}
	e := c.cache.get(key)
	if e != nil && !e.stale && !c.expired(e) {
		// The hot path: fresh rules at hand, checked without a Decision.
		if cr := e.rules.Load(); cr != nil {
			c.stats.hits.add()
			ok, _ := servedCheck(cr, path)
			return ok, nil
		}
	}
	d, err := c.decide(ctx, key, path, e)
	return d.Allowed, err
}

// Check is like Allowed but returns the whole decision: the status it
// rests on, when it expires, the deciding rule and whether it was deferred
// or served from a stale copy.
func (c *Client) Check(ctx context.Context, rawURL string) (Decision, error) {
	c.mustBeMade()
	if c.tokenErr != nil {
		return Decision{}, c.tokenErr
	}
	var buf [128]byte
	key, path, err := target.Split(rawURL, buf[:0])
	if err != nil {
		return Decision{}, err
	}
	return c.decide(ctx, key, path, c.cache.get(key))
}

// Close stops fetches under way and waits for them to end. Checks that
// can be answered from memory keep working; others return ErrClosed.
func (c *Client) Close() error {
	c.mustBeMade()
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.cancel()
	c.fetches.Wait()
	return nil
}

// mustBeMade panics unless NewClient made c, before a nil dereference would.
func (c *Client) mustBeMade() {
	if c == nil || c.cache == nil {
		panic("robotstxt: Client used without NewClient")
	}
}

// decide answers for path at the authority key, whose cached entry is e.
func (c *Client) decide(ctx context.Context, key []byte, path string, e *entry) (Decision, error) {
	if e != nil && !c.expired(e) {
		c.stats.hits.add()
		return c.answer(e, path, false)
	}
	return c.miss(ctx, string(key), path, e)
}

func (c *Client) expired(e *entry) bool { return e.expired(c.cfg.now()) }

// answer matches path against e.
func (c *Client) answer(e *entry, path string, stale bool) (Decision, error) {
	var d Decision
	d.describe(e, c.cfg.mode)
	d.Stale = d.Stale || stale
	if stale {
		// An expired entry answers while it is fetched again: the answer
		// may change shortly, not at a time already past.
		d.Expires = c.cfg.now().Add(retryingPause)
	}
	switch e.outcome {
	case OutcomeRules:
		cr, err := c.rulesOf(e)
		if err != nil {
			return Decision{}, err
		}
		d.Allowed, d.Rule = servedCheck(cr, path)
		if d.Allowed {
			d.Usage = servedUsage(cr, path)
		}
	case OutcomeAllowAll:
		d.Allowed = true
	case OutcomeUnreachable:
		c.stats.deferred.Add(1)
		d.Deferred, d.Stale = true, false
		if stale {
			d.Err = e.deferral(d.Expires)
		}
		return d, d.Err // a *DeferredError (see Decision.describe)
	}
	if d.Stale {
		c.stats.stale.Add(1)
	}
	return d, nil
}

// miss answers a check without a fresh entry in memory; cached is the expired one.
func (c *Client) miss(ctx context.Context, key, path string, cached *entry) (Decision, error) {
	c.stats.misses.Add(1)
	if cached != nil && !cached.refreshing.CompareAndSwap(false, true) {
		// Someone is already fetching it again: do not wait for them.
		return c.answer(cached, path, true)
	}
	prev, looked := cached, false
	if cached == nil && c.tier != nil && c.base.Err() == nil {
		// Look in the Store here: a fill would cost a goroutine and two
		// hand-offs, several times the Store's answer.
		hit, fallback, err := c.tier.lookup(ctx, key, nil)
		switch {
		case err != nil:
			return Decision{}, fmt.Errorf("robotstxt: waiting for %s/robots.txt: %w", capQuote(key), err)
		case hit != nil:
			return c.answer(c.cache.put(hit), path, false)
		}
		prev, looked = fallback, true
	}
	e, err := c.load(ctx, key, prev, looked)
	if err != nil {
		if cached != nil && errors.Is(err, errNoSlot) {
			cached.refreshing.Store(false) // it never fetched
		}
		if cached != nil && ctx.Err() != nil {
			// The caller gave up on the revalidation, which goes on;
			// the expired copy is still a usable answer.
			return c.answer(cached, path, true)
		}
		return Decision{}, err
	}
	return c.answer(e, path, false)
}

// load returns a current entry for key. Concurrent loads of one key share
// one fill, detached from ctx so that a caller who gives up does not
// cancel it for the others, and holding a slot (see WithMaxFetches) so
// that such callers cannot pile up fetches; a hop's fill (see admitHop)
// runs in its fetch's slot and on ctx. looked says the caller has just
// looked in the Store.
func (c *Client) load(ctx context.Context, key string, prev *entry, looked bool) (*entry, error) {
	chain := hopChain(ctx)
	parent := c.base
	if chain != nil {
		parent = ctx
	}
	fill := func() (any, error) {
		if chain == nil {
			select {
			case c.slots <- struct{}{}:
				defer c.freeSlot()
			default:
				return nil, errNoSlot
			}
		}
		e, err := c.fill(parent, key, prev, looked)
		if err != nil {
			// Nothing replaces prev or the cached entry (which a joining
			// caller may have marked): the next miss may fetch again.
			for _, p := range [...]*entry{prev, c.cache.peek(key)} {
				if p != nil {
					p.refreshing.Store(false)
				}
			}
		}
		return e, err
	}
	for {
		c.mu.Lock()
		freed := c.freed // before the try, so that no slot given back after it is missed
		c.mu.Unlock()
		e, err := c.share(ctx, key, fill)
		switch {
		case errors.Is(err, errHopCut) && ctx.Err() == nil:
			continue // joined another fetch's hop, which ended: fill anew
		case err != errNoSlot:
			return e, err
		case chain != nil:
			continue // a hop's own fill needs no slot
		}
		select {
		case <-freed:
		case <-ctx.Done():
			return nil, fmt.Errorf("robotstxt: waiting for a fetch slot for %s/robots.txt: %w (%w)", capQuote(key), context.Cause(ctx), errNoSlot)
		}
	}
}

// errNoSlot is a fill's error when every slot is taken.
var errNoSlot = errors.New("robotstxt: no fetch slot free")

// errHopCut is a hop's fill's error when the fetch it served ended first.
var errHopCut = errors.New("the fetch it served ended")

// share runs fill for key, or joins the one under way, until ctx ends.
func (c *Client) share(ctx context.Context, key string, fill func() (any, error)) (*entry, error) {
	var r singleflight.Result
	if ctx.Done() == nil { // the caller cannot give up: fill in its goroutine
		r.Val, r.Err, _ = c.group.Do(key, fill)
	} else {
		select {
		case r = <-c.group.DoChan(key, fill):
		case <-ctx.Done():
			return nil, fmt.Errorf("robotstxt: waiting for %s/robots.txt: %w", capQuote(key), context.Cause(ctx))
		}
	}
	if r.Err != nil {
		return nil, r.Err
	}
	return r.Val.(*entry), nil
}

// freeSlot gives a fill's slot back and wakes the callers waiting for one.
func (c *Client) freeSlot() {
	<-c.slots
	c.mu.Lock()
	close(c.freed)
	c.freed = make(chan struct{})
	c.mu.Unlock()
}

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

// fill publishes a new entry for key: the Store's if it has a fresh one,
// else a fetch's on parent, after another process's lease if one is held.
func (c *Client) fill(parent context.Context, key string, prev *entry, looked bool) (*entry, error) {
	if !c.enter() {
		return nil, ErrClosed
	}
	defer c.fetches.Done()
	// A fill that finished since our caller's miss published a fresh entry.
	if e := c.cache.peek(key); e != nil && e != prev && !c.expired(e) {
		return e, nil
	}
	c.stats.inFlight.Add(1)
	defer c.stats.inFlight.Add(-1)

	if c.tier != nil {
		if !looked {
			e, newer, _ := c.tier.lookup(context.Background(), key, prev)
			if e != nil {
				return c.cache.put(e), nil
			}
			prev = newer
		}
		e, release := c.tier.awaitLease(key)
		if e != nil {
			return c.cache.put(c.tier.keepGood(e, prev)), nil
		}
		if release != nil {
			defer release() // once the result is in the Store
		}
	}
	e, err := c.refresh(parent, key, prev)
	if err == nil {
		c.cache.put(e)
		if c.tier != nil {
			c.tier.set(key, e)
		}
	}
	return e, err
}

// refresh fetches key's robots.txt on parent (c.base, or the fetch whose
// redirect hop needs it) and builds the entry that follows prev.
func (c *Client) refresh(parent context.Context, key string, prev *entry) (*entry, error) {
	chain := hopChain(parent)
	res := c.fetcher.fetch(context.WithValue(parent, chainKey{}, append(chain[:len(chain):len(chain)], key)), key, prev)
	switch {
	case c.base.Err() != nil:
		return nil, fmt.Errorf("robotstxt: fetching %s/robots.txt: %w", capQuote(key), ErrClosed)
	case parent.Err() != nil:
		// The fetch that needed it ended: no answer of key's server.
		return nil, fmt.Errorf("robotstxt: fetching %s/robots.txt for a redirect: %w (%w)", capQuote(key), errHopCut, context.Cause(parent))
	}
	now := c.cfg.now()
	at := stampOf(now)
	c.stats.countFetch(res.outcome, res.notModified)
	if res.notModified {
		lifetime, explicit := c.cfg.freshness(now, res.header)
		e := prev.clone()
		if !explicit {
			lifetime = c.cfg.clampFresh(prev.expires.sub(prev.fetched))
			if prev.stale {
				lifetime = c.cfg.maxFresh
			}
		}
		e.fetched, e.checked, e.expires = at, at, at.add(lifetime)
		e.stale, e.failStatus, e.failures, e.errText, e.since = false, 0, 0, "", 0
		return e.derive(), nil
	}
	e := &entry{key: key, persisted: persisted{
		outcome: res.outcome, status: int32(res.status), fetched: at, checked: at,
	}}
	if res.finalURL != robotsURL(key) {
		e.finalURL = capText(res.finalURL) // most entries keep no copy of their own URL
	}
	if res.outcome == OutcomeUnreachable {
		return c.unreachable(e, prev, res, now), nil // its expiry is its back-off
	}
	lifetime, _ := c.cfg.freshness(now, res.header)
	e.expires = at.add(lifetime)
	if res.outcome == OutcomeRules {
		e.setRules(res.body, compress(res.body), c.cfg.mode, c.tokens)
		e.etag = capValidator(res.header.Get("ETag"))
		e.lastMod = capValidator(res.header.Get("Last-Modified"))
	}
	c.logger.LogAttrs(c.base, slog.LevelDebug, "robots.txt fetched",
		slog.String("authority", key), slog.Int("status", res.status),
		slog.String("outcome", res.outcome.name()), durationAttr("fresh", lifetime))
	return e.derive(), nil
}

// unreachable completes e, a failed fetch's entry, for the back-off
// period, or returns the last good copy standing in for it (see standIn).
func (c *Client) unreachable(e, prev *entry, res fetchResult, now time.Time) *entry {
	at := e.fetched
	e.failStatus, e.failures, e.since = e.status, 1, at
	if prev != nil && prev.failures > 0 {
		e.failures, e.since = min(prev.failures+1, maxFailures), prev.since
		if e.since == 0 || e.since > at {
			e.since = prev.checked
		}
	}
	wait := c.cfg.retryIn(now, res.header, int(e.failures))
	e.expires = at.add(wait)
	if e.cause = capErr(res.err); e.cause != nil {
		e.errText = e.cause.Error()
	}
	c.logger.LogAttrs(c.base, slog.LevelWarn, "robots.txt unreachable",
		slog.String("authority", e.key), slog.Int("status", res.status),
		slog.Int("failures", int(e.failures)), durationAttr("retry_in", wait),
		slog.String("error", e.errText))
	if c.cfg.allowAfter > 0 && at.sub(e.since) >= c.cfg.allowAfter {
		// Unreachable for long enough with no usable copy: crawl as if
		// there were no robots.txt, and keep asking.
		e.outcome = OutcomeAllowAll
	}
	if good := c.cfg.standIn(prev, e.derive(), now); good != nil {
		return good
	}
	return e
}

// servedCheck checks path and its normal forms (see normalForms) against
// cr: the deciding rule is the first disallowed form's, else path's.
func servedCheck(cr *agentRules, path string) (bool, Rule) {
	ok, rule := cr.check(path)
	if !ok || spelledNormally(path) {
		return ok, rule
	}
	var scratch [normalScratch]byte
	forms, n := normalForms(path, scratch[:0])
	for _, f := range forms[:n] {
		if fok, frule := cr.check(f); !fok {
			return false, frule
		}
	}
	return true, rule
}

// servedUsage returns the Content-Usage preferences of cr for path and
// each of its normal forms and its Content-Signal preferences, combined;
// servedCheck allows them all.
func servedUsage(cr *agentRules, path string) Usage {
	t, mode := cr.t, cr.mode
	if !t.HasUsage(selected) {
		return cr.contentSignal()
	}
	u := stated(t, mode, selected, path)
	if !spelledNormally(path) {
		var scratch [normalScratch]byte
		forms, n := normalForms(path, scratch[:0])
		for _, f := range forms[:n] {
			u = u.combine(stated(t, mode, selected, f))
		}
	}
	return u.combine(cr.contentSignal())
}

// rulesOf returns the rules of e, whose outcome is OutcomeRules, thawing
// a frozen e from its body; concurrent thaws of e share one.
func (c *Client) rulesOf(e *entry) (*agentRules, error) {
	if cr := e.rules.Load(); cr != nil {
		return cr, nil
	}
	v, err, _ := c.thaws.Do(e.key, func() (any, error) {
		if cr := e.rules.Load(); cr != nil {
			return thawing{e, cr}, nil // thawed since the caller looked
		}
		cr, err := c.thaw(e)
		return thawing{e, cr}, err
	})
	if t := v.(thawing); t.e == e {
		return t.cr, err
	}
	// The thaw under way was of another entry for the key (one that has
	// since replaced or been replaced by e): its rules may differ.
	return c.thaw(e)
}

type thawing struct {
	e  *entry
	cr *agentRules
}

func (c *Client) thaw(e *entry) (*agentRules, error) {
	cr, err := e.rebuild(c.cfg.mode, c.tokens)
	if err != nil {
		return nil, err
	}
	c.stats.thaws.Add(1)
	return c.cache.thawed(e, cr), nil
}
