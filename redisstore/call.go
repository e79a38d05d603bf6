package redisstore

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// call runs one Redis operation under the Store's timeout and circuit
// breaker, and wraps its error with op and key.
//
// When the go-redis client honours context deadlines on its sockets
// (ContextTimeoutEnabled), the operation runs in the caller's goroutine,
// under the caller's deadline when that is the nearer one. Otherwise it
// runs in a goroutine of its own, and call returns when the timeout
// passes even if go-redis is still waiting on the socket; that goroutine
// ends at go-redis' own read timeout.
func (s *Store) call(ctx context.Context, op, key string, fn func(ctx context.Context) error) error {
	ok, probe := s.brk.allow()
	if !ok {
		return fmt.Errorf("redisstore: %s %s: %w", op, key, ErrUnavailable)
	}
	start := time.Now()
	var err error
	if s.direct {
		tctx := ctx
		if d, ok := ctx.Deadline(); !ok || d.Sub(start) > s.cfg.timeout {
			var cancel context.CancelFunc
			tctx, cancel = context.WithTimeout(ctx, s.cfg.timeout)
			defer cancel()
		}
		err = fn(tctx)
	} else {
		tctx, cancel := context.WithTimeout(ctx, s.cfg.timeout)
		defer cancel()
		result := make(chan error, 1)
		go func() { result <- fn(tctx) }()
		select {
		case err = <-result:
		case <-tctx.Done():
			err = tctx.Err()
		}
	}
	s.brk.done(probe, classify(ctx, err, time.Since(start)), err)
	if err != nil {
		return fmt.Errorf("redisstore: %s %s: %w", op, key, err)
	}
	return nil
}

// honoursDeadlines reports whether client's sockets obey context
// deadlines, so that a call can run in the caller's goroutine and still
// end at its deadline.
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
