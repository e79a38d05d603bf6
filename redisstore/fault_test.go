package redisstore

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
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
