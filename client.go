package robotstxt

import (
	"context"
	"hash/maphash"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/sync/singleflight"

	"github.com/robotsgate/robotstxt/parser"
)

// A Client answers whether a crawler may fetch URLs, fetching each
// authority's robots.txt once, caching it by its HTTP freshness (at most 24
// hours by default) and applying RFC 9309's status rules. It is safe for
// concurrent use; a warm check takes well under a microsecond.
//
// The zero value is not usable; make one with NewClient.
type Client struct {
	cfg    config
	agent  string
	hc     http.Client
	seed   maphash.Seed
	cache  *lru.Cache[uint64, *entry]
	group  singleflight.Group
	stats  counters
	logger *slog.Logger

	base    context.Context // parent of every fetch; cancelled by Close
	cancel  context.CancelFunc
	mu      sync.Mutex // guards closed and the Add side of fetches
	closed  bool
	fetches sync.WaitGroup

	lastStoreLog atomic.Int64 // unix nanos of the last Store error logged
	quietErrors  atomic.Int64 // Store errors not logged since then
}

// NewClient returns a Client configured by opts. Without options it
// fetches through a default HTTP client with a 10 s fetch timeout, reads
// up to 500 KiB, follows 5 redirects, caches up to 10,000 authorities for
// at most 24 hours, and matches as the product token of DefaultUserAgent.
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
	c := &Client{cfg: cfg, seed: maphash.MakeSeed()}
	if cfg.httpClient != nil {
		c.hc = *cfg.httpClient
	}
	c.hc.CheckRedirect = noRedirects
	c.agent = parser.Token(cfg.userAgent)
	if cfg.agentSet {
		c.agent = cfg.agent
	}
	c.logger = cfg.logger
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
	}
	c.cache, _ = lru.NewWithEvict(cfg.cacheSize, func(_ uint64, e *entry) {
		e.disarm()
		c.stats.evictions.Add(1)
	})
	c.base, c.cancel = context.WithCancel(context.Background())
	return c
}

// Agent returns the product token matched against user-agent lines.
func (c *Client) Agent() string { return c.agent }

// Allowed reports whether the crawler may fetch rawURL. It fetches the
// authority's robots.txt if no fresh copy is cached, waiting at most until
// ctx ends. When robots.txt is unreachable and no usable copy is cached it
// returns false and an error matching ErrDeferred; a *DeferredError says
// when to come back. A URL that is not http or https, or is malformed,
// gives an error matching ErrBadURL.
func (c *Client) Allowed(ctx context.Context, rawURL string) (bool, error) {
	d, err := c.decide(ctx, c.agent, rawURL)
	return d.Allowed, err
}

// Check is like Allowed but returns the whole decision: the status it
// rests on, when it expires, the deciding rule and whether it was deferred
// or served from a stale copy.
func (c *Client) Check(ctx context.Context, rawURL string) (Decision, error) {
	return c.decide(ctx, c.agent, rawURL)
}

// CheckAgent is like Check for another product token than the Client's,
// for a crawler known by several (such as "Googlebot-Image" and
// "Googlebot").
func (c *Client) CheckAgent(ctx context.Context, agent, rawURL string) (Decision, error) {
	return c.decide(ctx, agent, rawURL)
}

// Close stops fetches under way and waits for them to end. Checks that
// can be answered from memory keep working; others return ErrClosed.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.cancel()
	c.fetches.Wait()
	return nil
}

// decide is the hot path: split the URL, find a fresh entry, match.
func (c *Client) decide(ctx context.Context, agent, rawURL string) (Decision, error) {
	var buf [128]byte
	key, _, path, err := splitTarget(rawURL, buf[:0])
	if err != nil {
		return Decision{}, err
	}
	e, ok := c.cache.Get(maphash.Bytes(c.seed, key))
	if ok && e.key == string(key) && c.fresh(e) {
		c.stats.hits.Add(1)
		return c.answer(e, agent, path, false)
	}
	if ok && e.key != string(key) {
		e = nil // another authority with the same hash
	}
	return c.miss(ctx, agent, string(key), path, e)
}

// answer matches path against e.
func (c *Client) answer(e *entry, agent, path string, stale bool) (Decision, error) {
	d := Decision{
		Status: e.status, Outcome: e.outcome, Expires: e.expires,
		Stale: stale || e.stale, Authority: e.key,
	}
	switch e.outcome {
	case OutcomeRules:
		v := e.robots.checkPath(agent, path)
		d.Allowed = v.Allowed
		if v.Matched() {
			rule := v.Rule
			d.Rule, d.Line = &rule, rule.Line
		}
	case OutcomeAllowAll:
		d.Allowed = true
	case OutcomeUnreachable:
		c.stats.deferred.Add(1)
		d.Deferred, d.Stale = true, false
		if stale {
			// The deferral has expired and is being retried: come back
			// after a short pause, not at a time already past.
			de := *e.deferErr
			de.RetryAt = c.cfg.now().Add(retryingPause)
			d.Expires = de.RetryAt
			return d, &de
		}
		return d, e.deferErr
	}
	if d.Stale {
		c.stats.stale.Add(1)
	}
	return d, nil
}
