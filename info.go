package robotstxt

import (
	"context"
	"errors"
	"time"
)

// Info describes the cached robots.txt of one authority.
type Info struct {
	// Authority is the normalised authority, e.g. "https://example.com:443".
	Authority string
	// Outcome is how the response was read.
	Outcome Outcome
	// Status is the HTTP status the rules rest on, 0 if none arrived.
	Status int
	// LastStatus is the HTTP status of the most recent fetch attempt: the
	// same as Status, unless a stale copy stands in for a server that last
	// answered, say, 503 (0 for a network error or timeout).
	LastStatus int
	// FinalURL is the robots.txt URL after redirects.
	FinalURL string
	// FetchedAt is when the rules were fetched (or last revalidated).
	FetchedAt time.Time
	// CheckedAt is when the server was last asked.
	CheckedAt time.Time
	// Expires is when the Client asks the server again.
	Expires time.Time
	// ETag and LastModified are the validators used to revalidate.
	ETag, LastModified string
	// Stale reports that the rules are a last good copy kept while the
	// server is unreachable.
	Stale bool
	// Failures counts consecutive unreachable fetches.
	Failures int
	// Err is the last fetch failure, nil after a successful fetch.
	Err error

	c   *Client
	e   *entry
	now func() time.Time
}

// Robots returns the whole parsed file; nil unless Outcome is
// OutcomeRules. The Client keeps only the rules of its own product tokens
// at hand: each call parses the cached body again, so keep the result.
func (i *Info) Robots() *Robots {
	b := i.Body()
	if b == nil {
		return nil
	}
	return ParseMode(b, i.c.cfg.mode)
}

// Body returns the body as parsed: converted to UTF-8 and cut at the body
// limit (see [ReadBody]); nil unless Outcome is OutcomeRules. Each call
// returns a new copy.
func (i *Info) Body() []byte {
	if i.e == nil {
		return nil
	}
	b, err := i.e.text()
	if err != nil {
		return nil
	}
	return b
}

// Expired reports whether the rules are past their expiry, by the
// Client's clock (time.Now for an Info the Client did not make).
func (i *Info) Expired() bool {
	now := time.Now
	if i.now != nil {
		now = i.now
	}
	return !now().Before(i.Expires)
}

// Sitemaps returns the sitemap URLs listed in robots.txt.
func (i *Info) Sitemaps() []string {
	if r := i.Robots(); r != nil {
		return r.Sitemaps()
	}
	return nil
}

// CrawlDelay returns the crawl-delay that applies to the Client's product
// tokens.
func (i *Info) CrawlDelay() (time.Duration, bool) {
	if i.e == nil || i.e.outcome != OutcomeRules {
		return 0, false
	}
	cr, err := i.c.crawler(i.e) // not a check: a draft has the records
	if err != nil {
		return 0, false
	}
	return cr.CrawlDelay()
}

// Lookup returns what the Client knows of the robots.txt for rawURL's
// authority, fetching it first if no fresh copy is cached. Its error is
// about the lookup (a bad URL, ctx ending, a closed Client); an
// unreachable robots.txt is reported in Info.Err and Info.Outcome.
func (c *Client) Lookup(ctx context.Context, rawURL string) (*Info, error) {
	c.mustBeMade()
	key, err := authorityKey(rawURL)
	if err != nil {
		return nil, err
	}
	e := c.cache.peek(key)
	if e == nil || c.expired(e) {
		if e, err = c.load(ctx, key, e, false); err != nil {
			return nil, err
		}
	}
	return c.info(e), nil
}

// Cached is like Lookup but never fetches: it reports what memory holds
// for rawURL's authority, fresh or not.
func (c *Client) Cached(rawURL string) (*Info, bool) {
	c.mustBeMade()
	key, err := authorityKey(rawURL)
	if err != nil {
		return nil, false
	}
	e := c.cache.peek(key)
	if e == nil {
		return nil, false
	}
	return c.info(e), true
}

// Forget drops rawURL's authority from memory, so the next check fetches
// its robots.txt again, or reads it from the Store: a fresh copy there,
// or a fetch already under way, still answers.
func (c *Client) Forget(rawURL string) {
	c.mustBeMade()
	if key, err := authorityKey(rawURL); err == nil {
		c.cache.forget(key)
	}
}

func (c *Client) info(e *entry) *Info {
	i := &Info{
		Authority: e.key, Outcome: e.outcome, Status: e.status,
		FinalURL: e.finalURL, c: c, e: e,
		FetchedAt: e.fetched, CheckedAt: e.checked, Expires: e.expires,
		ETag: e.etag, LastModified: e.lastMod, Stale: e.stale,
		Failures: e.failures, now: c.cfg.now,
		LastStatus: e.status,
	}
	if i.FinalURL == "" {
		i.FinalURL = robotsURL(e.key)
	}
	if e.stale || e.outcome == OutcomeUnreachable {
		i.LastStatus = e.failStatus
	}
	if e.deferErr != nil {
		i.Err = e.deferErr
	} else if e.stale || e.failures > 0 {
		i.Err = e.cause
		if i.Err == nil && e.errText != "" {
			i.Err = errors.New(e.errText)
		}
	}
	return i
}
