package robotstxt

import (
	"context"
	"errors"
	"hash/maphash"
	"time"
)

// ErrCacheMiss is returned by a Store's Get when it holds nothing under the
// key.
var ErrCacheMiss = errors.New("robotstxt: cache miss")

// A Store is a shared, second-level cache of robots.txt entries, such as a
// Redis server that a fleet of crawler processes shares. The Client keeps
// parsed entries in memory and consults the Store only on a memory miss.
//
// Values are opaque, versioned encodings made by the Client; a Store keeps
// them byte for byte. Keys are normalised authorities such as
// "https://example.com:443". A Store must be safe for concurrent use.
//
// Errors from a Store never reach the caller of Client.Allowed: the Client
// logs them and falls back to fetching robots.txt itself.
type Store interface {
	// Get returns the value stored under key, or ErrCacheMiss.
	Get(ctx context.Context, key string) ([]byte, error)
	// Set stores value under key for at least ttl.
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
}

// A Leaser is a Store that can hand out short exclusive leases, so that
// when many processes miss the same authority at once only one of them
// fetches its robots.txt while the others wait for the result to appear in
// the Store.
type Leaser interface {
	Store
	// Lease tries to take the lease on key for ttl. When it is taken, ok is
	// true and release gives it back (only the holder's release has any
	// effect, and a lease not released expires after ttl). When another
	// holder has it, ok is false and err is nil.
	Lease(ctx context.Context, key string, ttl time.Duration) (release func(), ok bool, err error)
}

// The in-process cache is an LRU of *entry keyed by a hash of the
// normalised authority (so the hot path need not build the key string);
// every lookup compares the entry's own key, and a hash collision is a miss.

// publish puts e in the in-memory cache, in place of the entry it
// follows.
func (c *Client) publish(e *entry) *entry {
	h := maphash.String(c.seed, e.key)
	if !c.cfg.clockSet {
		e.arm(time.Now())
	}
	if old, ok := c.cache.Peek(h); ok {
		old.disarm()
	}
	c.cache.Add(h, e)
	return e
}

// peek returns the in-memory entry for key without touching recency.
func (c *Client) peek(key string) *entry {
	e, ok := c.cache.Peek(maphash.String(c.seed, key))
	if !ok || e.key != key {
		return nil
	}
	return e
}

// fresh reports whether e may be used without asking the server. With
// the real clock it reads the flag e's timer sets, which is cheaper than
// reading the clock.
func (c *Client) fresh(e *entry) bool {
	if !c.cfg.clockSet {
		return !e.expired.Load()
	}
	return e.fresh(c.cfg.now())
}
