package redisstore

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/redistest"
)

// ceiling is the generous bound on any one Store call during a fault; a
// normal call takes well under a millisecond.
const ceiling = 2 * time.Second

// timed runs fn and fails the test if it took longer than ceiling.
func timed(t *testing.T, what string, fn func() error) error {
	t.Helper()
	start := time.Now()
	err := fn()
	if d := time.Since(start); d > ceiling {
		t.Fatalf("%s took %v, over the %v ceiling", what, d, ceiling)
	}
	return err
}

// TestRedisDownFailsFastThenOpens: with Redis killed, calls return errors
// (not misses, not panics) within the ceiling, and after a few failures
// the Store stops calling Redis and answers ErrUnavailable.
func TestRedisDownFailsFastThenOpens(t *testing.T) {
	s, _, srv := newStore(t, WithTimeout(defaultTimeout))
	srv.Kill()
	for i := range tripAfter {
		err := timed(t, "Get on a killed Redis", func() error {
			_, err := s.Get(t.Context(), authority)
			return err
		})
		if err == nil || errors.Is(err, robotstxt.ErrCacheMiss) {
			t.Fatalf("call %d on a killed Redis: err = %v, want a Redis error", i, err)
		}
	}
	err := timed(t, "Set with the breaker open", func() error {
		return s.Set(t.Context(), authority, []byte("v"), time.Minute)
	})
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("after %d failures: err = %v, want ErrUnavailable", tripAfter, err)
	}
	_, ok, err := s.Lease(t.Context(), authority, time.Minute)
	if ok || !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Lease with the breaker open: ok=%v err=%v, want false, ErrUnavailable", ok, err)
	}
}

// TestRedisHungTimesOut: a server that accepts but never answers (SIGSTOP)
// costs each call its timeout, not go-redis' 3 s read timeout.
func TestRedisHungTimesOut(t *testing.T) {
	s, _, srv := newStore(t, WithTimeout(50*time.Millisecond))
	srv.Pause()
	defer srv.Resume()
	err := timed(t, "Get on a hung Redis", func() error {
		_, err := s.Get(t.Context(), authority)
		return err
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Get on a hung Redis: err = %v, want DeadlineExceeded", err)
	}
}

// TestCancelledCallsGiveBack: a Take or a Lease whose caller gave up
// while Redis was slow, by a cancellation or at its deadline, but which
// Redis then granted, is given back: no turn or lease is held by no one
// until it runs out. (A client with ContextTimeoutEnabled calls in the
// caller's goroutine, which waits for the reply.)
func TestCancelledCallsGiveBack(t *testing.T) {
	srv := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	s := New(rdb, WithLogger(quietLogger), WithTimeout(5*time.Second))
	// A connection made and the scripts loaded before the pause, so that
	// the call's one command waits in Redis.
	if _, _, err := s.Take(t.Context(), "https://warm.test:443", time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Lease(t.Context(), "https://warm.test:443", time.Millisecond); err != nil {
		t.Fatal(err)
	}
	// Each call gives back what it takes, so that the next may take it.
	calls := []struct {
		name string
		try  func(ctx context.Context) (bool, error)
	}{
		{"Take", func(ctx context.Context) (bool, error) {
			id, _, err := s.Take(ctx, "https://a.test:443", 100*time.Millisecond)
			if id != 0 {
				_ = s.Done(ctx, "https://a.test:443", id, 0, 0)
			}
			return id != 0, err
		}},
		{"Lease", func(ctx context.Context) (bool, error) {
			release, ok, err := s.Lease(ctx, authority, time.Minute)
			if ok {
				release()
			}
			return ok, err
		}},
	}
	for _, deadline := range []bool{false, true} {
		for _, call := range calls {
			srv.Pause()
			ctx, cancel := context.WithCancel(t.Context())
			if deadline { // go-redis ends the call at it too, with an error of its own
				ctx, cancel = context.WithTimeout(t.Context(), 20*time.Millisecond)
			} else {
				time.AfterFunc(20*time.Millisecond, cancel)
			}
			time.AfterFunc(150*time.Millisecond, srv.Resume)
			if got, err := call.try(ctx); got || err == nil {
				t.Fatalf("%s cut short on a paused Redis (deadline %v): %v, %v", call.name, deadline, got, err)
			}
			cancel()
			waitUntil(t, call.name+" given back", func() bool {
				got, err := call.try(t.Context())
				return got && err == nil
			})
		}
	}
}

// TestRedisRestartResumes: after Redis comes back (empty, on the same
// port) the same Store uses it again without being recreated.
func TestRedisRestartResumes(t *testing.T) {
	s, _, srv := newStore(t, WithTimeout(defaultTimeout))
	srv.Kill()
	for range tripAfter + 1 {
		_, _ = s.Get(t.Context(), authority)
	}
	srv.Restart()
	deadline := time.Now().Add(10 * time.Second) // the breaker retries every second
	for {
		err := s.Set(t.Context(), authority, []byte("back"), time.Minute)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Redis restarted, Store still failing: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got, err := s.Get(t.Context(), authority); err != nil || string(got) != "back" {
		t.Fatalf("Get after restart = %q, %v", got, err)
	}
}

// TestCallerCancelDoesNotOpen: callers giving up say nothing about Redis
// and must not make the Store stop using it.
func TestCallerCancelDoesNotOpen(t *testing.T) {
	s, _, _ := newStore(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for range 3 * tripAfter {
		if _, err := s.Get(ctx, authority); err == nil {
			t.Fatal("Get with a cancelled context: no error")
		}
	}
	if _, err := s.Get(t.Context(), authority); !errors.Is(err, robotstxt.ErrCacheMiss) {
		t.Fatalf("Get after cancelled calls: err = %v, want ErrCacheMiss", err)
	}
}

// TestHungRedisOpensUnderCallerDeadline: a caller (like the robotstxt
// Client) that bounds each call with the same timeout as the Store still
// makes a hung Redis count as failing, so later calls return at once.
func TestHungRedisOpensUnderCallerDeadline(t *testing.T) {
	s, _, srv := newStore(t, WithTimeout(50*time.Millisecond))
	srv.Pause()
	defer srv.Resume()
	for range tripAfter {
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		_, _ = s.Get(ctx, authority)
		cancel()
	}
	if _, err := s.Get(t.Context(), authority); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("after %d timeouts: err = %v, want ErrUnavailable", tripAfter, err)
	}
}

// TestExpiredCallerDoesNotOpen: calls made with an already expired
// deadline give Redis no chance and must not count against it.
func TestExpiredCallerDoesNotOpen(t *testing.T) {
	s, _, _ := newStore(t)
	ctx, cancel := context.WithTimeout(t.Context(), -time.Second)
	defer cancel()
	for range 3 * tripAfter {
		_, _ = s.Get(ctx, authority)
	}
	if _, err := s.Get(t.Context(), authority); !errors.Is(err, robotstxt.ErrCacheMiss) {
		t.Fatalf("after expired-deadline calls: err = %v, want ErrCacheMiss", err)
	}
}
