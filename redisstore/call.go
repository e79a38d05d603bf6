package redisstore

import (
	"context"
	"fmt"
	"time"
)

// call runs one Redis operation under the Store's timeout and circuit
// breaker, and wraps its error with op and key. The operation runs in its
// own goroutine and call returns when the timeout passes even if go-redis
// is still waiting on the socket (go-redis honours context deadlines on
// sockets only with ContextTimeoutEnabled, which the caller's client may
// not set); the goroutine then ends at go-redis' own read timeout.
func (s *Store) call(ctx context.Context, op, key string, fn func(ctx context.Context) error) error {
	ok, probe := s.brk.allow()
	if !ok {
		return fmt.Errorf("redisstore: %s %s: %w", op, key, ErrUnavailable)
	}
	start := time.Now()
	tctx, cancel := context.WithTimeout(ctx, s.cfg.timeout)
	defer cancel()
	result := make(chan error, 1)
	go func() { result <- fn(tctx) }()
	var err error
	select {
	case err = <-result:
	case <-tctx.Done():
		err = tctx.Err()
	}
	s.brk.done(probe, classify(ctx, err, time.Since(start)), err)
	if err != nil {
		return fmt.Errorf("redisstore: %s %s: %w", op, key, err)
	}
	return nil
}
