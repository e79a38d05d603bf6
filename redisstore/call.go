package redisstore

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// call runs one Redis operation on key under the Store's timeout and the
// breaker of key's node; on a cluster, a failed or refused call reloads
// the slot map.
func (s *Store) call(ctx context.Context, op, key string, fn func(ctx context.Context) error) error {
	if s == nil || s.breakers == nil {
		panic("redisstore: Store used without New")
	}
	b := s.breaker(s.cluster.node(key))
	ok, probe := b.allow()
	if !ok {
		s.cluster.reload()
		return fmt.Errorf("redisstore: %s %s: %w", op, key, ErrUnavailable)
	}
	start := time.Now()
	err := s.run(ctx, fn)
	o := classify(ctx, err, time.Since(start))
	switch {
	case o == healthy:
		s.cluster.answered()
	case o == failed:
		if s.cluster.reload(); s.cluster.warming() {
			o = unjudged // the slot map is still loading: no node is to blame
		}
	}
	b.done(probe, o, err)
	if err != nil {
		return fmt.Errorf("redisstore: %s %s: %w", op, key, err)
	}
	return nil
}

// run runs fn under the Store's timeout, in a goroutine of its own unless
// s.direct (see [New]).
func (s *Store) run(ctx context.Context, fn func(ctx context.Context) error) error {
	if d, ok := ctx.Deadline(); !ok || time.Until(d) > s.cfg.timeout {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.cfg.timeout)
		defer cancel()
	}
	if s.direct {
		return fn(ctx)
	}
	result := make(chan error, 1)
	go func() { result <- fn(ctx) }()
	select {
	case err := <-result:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// honoursDeadlines reports whether client's sockets obey context
// deadlines (ContextTimeoutEnabled).
func honoursDeadlines(client redis.UniversalClient) bool {
	switch c := client.(type) {
	case *redis.Client:
		return c.Options().ContextTimeoutEnabled
	case *redis.ClusterClient:
		return c.Options().ContextTimeoutEnabled
	case *redis.Ring:
		return c.Options().ContextTimeoutEnabled
	}
	return false
}
