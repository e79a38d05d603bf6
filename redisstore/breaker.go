package redisstore

import (
	"sync"
	"time"
)

const (
	// tripAfter consecutive failed calls open the breaker.
	tripAfter = 3
	// retryAfter is how long an open breaker refuses calls before it lets
	// one probe call through.
	retryAfter = time.Second
)

// A breaker stops calls to a Redis that keeps failing, so that a down or
// hung server costs callers nothing after the first few timeouts. While
// open it refuses calls; every retryAfter it lets a single probe through,
// and the first healthy answer closes it.
type breaker struct {
	log *throttledLog

	mu       sync.Mutex
	fails    int       // consecutive failed calls
	open     bool      // refusing calls
	openedAt time.Time // when open last began or a probe last failed
	probing  bool      // a probe call is in flight
}

// allow reports whether a call may go to Redis, and whether that call is the
// probe of an open breaker. Every allowed call must be followed by done.
func (b *breaker) allow() (ok, probe bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.open {
		return true, false
	}
	if b.probing || time.Since(b.openedAt) < retryAfter {
		return false, false
	}
	b.probing = true
	return true, true
}

// done records the outcome of an allowed call.
func (b *breaker) done(probe bool, o outcome, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if probe {
		b.probing = false
	}
	switch o {
	case healthy:
		b.fails = 0
		if b.open {
			b.open = false
			b.log.info("redis available again; sharing robots.txt entries resumes")
		}
	case failed:
		b.fails++
		switch {
		case b.open: // a failed probe, or a call let through before opening
			b.openedAt = time.Now()
		case b.fails >= tripAfter:
			b.open, b.openedAt = true, time.Now()
			b.log.warn("redis unavailable; fetching robots.txt directly until it answers again",
				"consecutive_failures", b.fails, "err", err)
		}
	}
}
