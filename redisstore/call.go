package redisstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robotsgate/robotstxt/internal/logthrottle"
)

// call runs one Redis operation on key under the Store's timeout and the
// breaker of key's node; on a cluster, a failed or refused call reloads
// the slot map.
func (s *Store) call(ctx context.Context, op, key string, fn func(ctx context.Context) error) error {
	if s == nil || s.breakers == nil {
		panic("redisstore: Store used without New")
	}
	b := s.breaker(s.cluster.node(key))
	start, had := time.Now(), s.cfg.timeout
	if d, ok := ctx.Deadline(); ok {
		had = min(had, time.Until(d))
	}
	ok, probe, ask := b.allow(cutShort(had, s.cfg.timeout))
	if ask {
		go s.ask(b, key, true)
	}
	if !ok {
		s.cluster.reload()
		return fmt.Errorf("redisstore: %s %s: %w", op, key, ErrUnavailable)
	}
	ended := false
	defer func() {
		if !ended { // fn panicked: a probe ends all the same, or the breaker waits for it for ever
			b.done(probe, false, unjudged, nil)
		}
	}()
	err := s.run(ctx, fn)
	ended = true
	o := s.judge(classify(ctx, err, time.Since(start), had, s.cfg.timeout))
	b.done(probe, false, o, err)
	if o == short && b.ask() {
		go s.ask(b, key, false)
	}
	if err != nil {
		return fmt.Errorf("redisstore: %s %s: %w", op, key, err)
	}
	return nil
}

// judge returns o, the outcome of a call, as the breaker of its node
// records it, and tells a cluster's slot map of it.
func (s *Store) judge(o outcome) outcome {
	switch o {
	case healthy:
		s.cluster.answered()
	case failed:
		s.cluster.remap()
		if s.cluster.reload(); s.cluster.warming() {
			return unjudged // the slot map is still loading: no node is to blame
		}
	}
	return o
}

// ask asks Redis, under the Store's timeout, whether key exists, a read
// that goes to key's node, and records the outcome in its breaker b: a
// short call's caller left before Redis could answer, which tells a slow
// Redis from a hung one no better than a probe that is such a call
// (probe) would. It runs in a goroutine of its own, ending within the
// Store's timeout.
func (s *Store) ask(b *breaker, key string, probe bool) {
	o, err := unjudged, error(nil)
	defer func() {
		if r := recover(); r != nil { // a hook's: no caller to raise it in
			s.log.Log(context.Background(), slog.LevelError, "the Store's own Redis call panicked", "panic", panicText(r))
		}
		b.done(probe, true, o, err)
	}()
	start := time.Now()
	err = s.run(context.Background(), func(ctx context.Context) error { return s.rdb.Exists(ctx, key).Err() })
	o = s.judge(classify(context.Background(), err, time.Since(start), s.cfg.timeout, s.cfg.timeout))
}

// callerBound returns how long an ending call made for ctx's caller
// (a lease's release, a turn's end) may wait, which the caller waits for
// too: the Store's timeout, or less if ctx's deadline is sooner, but at
// least minJudged. What fails of such a call is sent again in the
// background.
func (s *Store) callerBound(ctx context.Context) time.Duration {
	bound := s.cfg.timeout
	if d, ok := ctx.Deadline(); ok {
		bound = min(bound, max(time.Until(d), minJudged))
	}
	return bound
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
	type ended struct {
		err      error
		panicked any // raised again in the caller's goroutine, which a Client recovers, not in this one, which would end the process
	}
	result := make(chan ended, 1)
	var claimed atomic.Bool // by fn's end or the caller's leaving, whichever comes first
	go func() {
		defer func() {
			r := recover()
			switch {
			case r == nil:
			case claimed.CompareAndSwap(false, true):
				result <- ended{panicked: r}
			default: // the caller left: no one to raise it in
				s.log.Log(context.Background(), slog.LevelError, "a Redis call panicked after its caller left", "panic", panicText(r))
			}
		}()
		err := fn(ctx)
		if claimed.CompareAndSwap(false, true) {
			result <- ended{err: err}
		}
	}()
	var e ended
	select {
	case e = <-result:
	case <-ctx.Done():
		if claimed.CompareAndSwap(false, true) {
			return ctx.Err()
		}
		e = <-result // fn ended first: its result is on its way
	}
	if e.panicked != nil {
		panic(e.panicked)
	}
	return e.err
}

// maybeSent reports whether a call that failed with err may have reached
// Redis, and run there: any but a refusal of the breaker or of a closed
// client. go-redis sends a call again after a cut connection, a failed
// dial or a busy node, and reports the last attempt's error only: a dial
// refused may hide a first attempt that ran.
func maybeSent(err error) bool {
	return !errors.Is(err, ErrUnavailable) && !errors.Is(err, redis.ErrClosed)
}

// maxUndos bounds the undos of each kind (turns, holds, leases) a Store
// sends at once (see undo): a stall cuts off every call in flight, and
// past the bound what a cut call did ends by itself (a turn or lease runs
// out), rather than each call leaving a goroutine behind to wait on a
// stalled Redis. A kind each, so that a stall's leases leave its turns
// room, and its cut turns the Retry-After holds, which do not end by
// themselves but are lost.
const maxUndos = 64

// undo runs try, which undoes what a call that failed may have done all
// the same, or sends again what it failed to send, in a goroutine of its
// own, so that the call returns at once, and past the breaker, which
// that call's own failure may just have opened: every second (the
// breaker's probe interval), each try within the Store's timeout, until
// try reports it done, for at most within; a closed client ends it. A
// try that fails reloads a cluster's slot map. At most maxUndos of a
// kind, which holds a slot in slots while under way, are; past them,
// none is sent. what names it in the log, and what its loss costs.
func (s *Store) undo(slots chan struct{}, what string, within time.Duration, try func(ctx context.Context) (done bool, err error)) {
	select {
	case slots <- struct{}{}:
	default:
		s.log.Log(context.Background(), slog.LevelWarn, "too many to send again at once; dropped", "what", what)
		return
	}
	go func() {
		defer func() { <-slots }()
		defer logPanic(s.log, "sending again panicked; given up", "what", what)
		giveUp := time.Now().Add(within)
		for {
			ctx, cancel := context.WithTimeout(context.Background(), s.cfg.timeout)
			done, err := try(ctx)
			cancel()
			if done {
				return
			}
			if err != nil {
				s.cluster.reload() // a replica promoted since: its slots moved
			}
			if errors.Is(err, redis.ErrClosed) || !time.Now().Add(retryAfter).Before(giveUp) {
				if err != nil {
					s.log.Log(context.Background(), slog.LevelWarn, "sending again failed; given up", "what", what, "err", err)
				}
				return
			}
			time.Sleep(retryAfter)
		}
	}()
}

// honoursDeadlines reports whether client's sockets obey context
// deadlines: ContextTimeoutEnabled, and no ReadTimeout or WriteTimeout
// of -2, which go-redis keeps as -1 and which sets no socket deadline,
// a context's either.
func honoursDeadlines(client redis.UniversalClient) bool {
	obeys := func(ctxTimeout bool, read, write time.Duration) bool {
		return ctxTimeout && read >= 0 && write >= 0
	}
	switch c := client.(type) {
	case *redis.Client:
		o := c.Options()
		return obeys(o.ContextTimeoutEnabled, o.ReadTimeout, o.WriteTimeout)
	case *redis.ClusterClient:
		o := c.Options()
		return obeys(o.ContextTimeoutEnabled, o.ReadTimeout, o.WriteTimeout)
	case *redis.Ring:
		o := c.Options()
		return obeys(o.ContextTimeoutEnabled, o.ReadTimeout, o.WriteTimeout)
	}
	return false
}

// logPanic, deferred in a goroutine of the Store's with no caller to
// raise a panic in (it would end the process), recovers one and logs it
// as msg, with args.
func logPanic(log *logthrottle.Logger, msg string, args ...any) {
	if r := recover(); r != nil {
		log.Log(context.Background(), slog.LevelError, msg, append(args, "panic", panicText(r))...)
	}
}

// panicText prints v, a recovered panic's value, for a log: a value whose
// String method panics with such a value again makes fmt panic, which in
// a goroutine of the Store's would end the process.
func panicText(v any) (s string) {
	defer func() {
		if recover() != nil {
			s = fmt.Sprintf("a %T that panics when printed", v)
		}
	}()
	return fmt.Sprint(v)
}
