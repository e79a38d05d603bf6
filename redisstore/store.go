package redisstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/logthrottle"
)

// A Store keeps robots.txt entries in Redis for a fleet of Clients. It
// is safe for concurrent use.
type Store struct {
	rdb      redis.UniversalClient
	cluster  *cluster // nil unless rdb is a *redis.ClusterClient
	ring     bool     // rdb is a *redis.Ring, which cannot pace (see Store.Take)
	cfg      config
	logger   *slog.Logger // the caller's, naming the component
	log      *logthrottle.Logger
	direct   bool          // client obeys context deadlines: call Redis in the caller's goroutine
	voids    chan struct{} // a slot for each void under way (see Store.undo)
	holds    chan struct{} // a slot for each turn's end sent again with a Retry-After hold
	releases chan struct{} // a slot for each release of a lease a failed Lease may have taken

	mu       sync.Mutex
	breakers map[string]*breaker // by node address
}

var _ interface {
	robotstxt.Leaser
	robotstxt.Pacer
} = (*Store)(nil)

// New returns a Store that keeps entries in Redis through client, which
// must not be nil and which the caller closes. Set ContextTimeoutEnabled
// in its options: without it, each call runs in a goroutine of its own,
// so that the timeout holds while go-redis waits on a socket, which costs
// about a third more. With it, a call runs in the caller's goroutine and
// ends at its context's deadline or the Store's timeout: go-redis does not
// see a cancellation on a socket, so a call cancelled earlier returns at
// one of them. A call's timeout runs from before it waits for one of the
// client's pooled connections: give the client a PoolSize of at least the
// requests the crawler has in flight at once (go-redis's default is ten
// per CPU), lest a burst that waits for connections read as a Redis that
// does not answer, and open the breaker (see [ErrUnavailable]). For a
// *redis.ClusterClient, New starts loading the slot map in the background
// (for at most two seconds), so that the Store's first calls find it
// loaded; should that fail, the first call that fails before one is
// known looks for it again.
func New(client redis.UniversalClient, opts ...Option) *Store {
	if client == nil {
		panic("redisstore: New with a nil client")
	}
	cfg := config{prefix: defaultPrefix, timeout: defaultTimeout, logger: slog.New(slog.DiscardHandler), maxValue: defaultMaxValue}
	for _, o := range opts {
		o(&cfg)
	}
	s := &Store{
		rdb:      client,
		direct:   honoursDeadlines(client),
		cfg:      cfg,
		logger:   cfg.logger.With("component", "redisstore"),
		breakers: map[string]*breaker{},
		voids:    make(chan struct{}, maxUndos),
		holds:    make(chan struct{}, maxUndos),
		releases: make(chan struct{}, maxUndos),
	}
	s.log = logthrottle.NewLogger(s.logger)
	s.cluster = newCluster(client, s.valueKey(""), s.log)
	_, s.ring = client.(*redis.Ring)
	return s
}

// Get returns the value stored under key, or an error wrapping
// robotstxt.ErrCacheMiss if there is none or the Redis key holds another
// type than a string (the next Set replaces it).
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	k := s.valueKey(key)
	var val []byte
	err := s.call(ctx, "GET", k, func(ctx context.Context) error {
		// GETRANGE reads at most one byte past the bound; it answers ""
		// for a missing key, which emptyScript tells from an empty value,
		// reading both at once, lest a Set come between.
		var err error
		val, err = s.rdb.GetRange(ctx, k, 0, s.cfg.maxValue).Bytes()
		if err == nil && len(val) == 0 {
			var v string
			v, err = emptyScript.Run(ctx, s.rdb, []string{k}, s.cfg.maxValue).Text() // redis.Nil for none
			val = []byte(v)
		}
		return err
	})
	switch {
	case errors.Is(err, redis.Nil), isWrongType(err):
		return nil, fmt.Errorf("redisstore: GET %s: %w", k, robotstxt.ErrCacheMiss)
	case err != nil:
		return nil, err
	case int64(len(val)) > s.cfg.maxValue:
		return nil, fmt.Errorf("redisstore: GET %s: value longer than %d bytes, not read", k, s.cfg.maxValue)
	}
	return val, nil
}

// emptyScript returns the first ARGV[1]+1 bytes of KEYS[1], or nil when
// it is missing. A script that writes nothing, it runs on a Redis over
// its maxmemory, which serves reads: MULTI and EXEC would be refused
// whole there.
var emptyScript = redis.NewScript(`
if redis.call("EXISTS", KEYS[1]) == 0 then
	return false
end
return redis.call("GETRANGE", KEYS[1], 0, ARGV[1])
`)

// Set stores value under key for ttl, replacing whatever the Redis key
// held. Redis keeps whole milliseconds: ttl is rounded up to one; a
// non-positive ttl is an error.
func (s *Store) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	k := s.valueKey(key)
	if ttl <= 0 {
		return fmt.Errorf("redisstore: SET %s: non-positive ttl %v", k, ttl)
	}
	return s.call(ctx, "SET", k, func(ctx context.Context) error {
		return s.rdb.Set(ctx, k, value, roundUp(ttl, time.Millisecond)).Err()
	})
}

// roundUp returns d rounded up to a whole unit, so that a span Redis
// keeps is never shorter than the one asked for; the longest d, which
// cannot be, rounded down.
func roundUp(d, unit time.Duration) time.Duration {
	if d > math.MaxInt64-unit {
		return d.Truncate(unit)
	}
	return (d + unit - 1).Truncate(unit)
}

// valueKey is the Redis key of key's value, with key as hash tag.
func (s *Store) valueKey(key string) string {
	return s.cfg.prefix + "{" + key + "}"
}

// leaseKey is the Redis key of key's fetch lease, in valueKey's slot.
func (s *Store) leaseKey(key string) string {
	return s.valueKey(key) + ":lease"
}
