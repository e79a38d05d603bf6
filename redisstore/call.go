package redisstore

import (
	"context"
	"fmt"
	"time"
)

// call runs one Redis operation on key under the Store's timeout and the
// breaker of key's node; on a cluster, a failed or refused call reloads
// the slot map. undo, if not nil, gives back what fn took when fn
// succeeds after ctx ended and call returned (see run).
func (s *Store) call(ctx context.Context, op, key string, fn func(ctx context.Context) error, undo func()) error {
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
	err := s.run(ctx, fn, undo)
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

// run runs fn under the Store's timeout, in a goroutine of its own, so
// that it returns once ctx ends: go-redis heeds a context's deadline on a
// socket (with ContextTimeoutEnabled), never its cancellation. fn may
// then still succeed, Redis having run it: undo, if not nil, runs after
// it does, so that a lease or a pacing turn no caller holds is given back.
func (s *Store) run(ctx context.Context, fn func(ctx context.Context) error, undo func()) error {
	if d, ok := ctx.Deadline(); !ok || time.Until(d) > s.cfg.timeout {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.cfg.timeout)
		defer cancel()
	}
	result := make(chan error, 1)
	go func() { result <- fn(ctx) }()
	select {
	case err := <-result:
		return err
	case <-ctx.Done():
		if undo != nil {
			go func() {
				if <-result == nil {
					undo()
				}
			}()
		}
		return ctx.Err()
	}
}
