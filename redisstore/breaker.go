package redisstore

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/robotsgate/robotstxt/internal/logthrottle"
)

const (
	// tripAfter consecutive failed calls open the breaker.
	tripAfter = 3
	// retryAfter is how long an open breaker refuses calls before it lets
	// one probe call through.
	retryAfter = time.Second
	// maxBreakers bounds the breakers a Store keeps, one per node address
	// it has called: more than a Redis Cluster has nodes. Past it the
	// Store forgets them all and starts afresh, so that addresses that
	// come and go (nodes replaced over months) cannot grow it.
	maxBreakers = 1024
)

// A breaker stops calls to a Redis node that keeps failing, so that a
// down or hung server costs callers nothing after the first few timeouts.
// While open it refuses calls; every retryAfter it lets a single probe
// through, and the first healthy answer closes it.
type breaker struct {
	node string // the node's address; "" for the whole of a Redis that is not a cluster
	log  *logthrottle.Logger

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
			b.logf(slog.LevelInfo, "redis available again; sharing robots.txt entries resumes")
		}
	case failed:
		b.fails++
		switch {
		case b.open: // a failed probe, or a call let through before opening
			b.openedAt = time.Now()
		case b.fails >= tripAfter:
			b.open, b.openedAt = true, time.Now()
			b.logf(slog.LevelWarn, "redis unavailable; fetching robots.txt directly until it answers again",
				"consecutive_failures", b.fails, "err", err)
		}
	}
}

// logf logs msg, naming the node when there is one; each node's news is
// throttled apart from the others'.
func (b *breaker) logf(level slog.Level, msg string, args ...any) {
	if b.node != "" {
		args = append(args, "node", b.node)
	}
	b.log.LogFor(context.Background(), b.node, level, msg, args...)
}

// A breakerSet holds a breaker for each Redis node, so that one failing
// node of a Redis Cluster stops the calls to its own slots and no others.
type breakerSet struct {
	log   *logthrottle.Logger
	whole *breaker // for node ""

	mu    sync.Mutex
	nodes map[string]*breaker
}

func newBreakerSet(log *logthrottle.Logger) *breakerSet {
	return &breakerSet{log: log, whole: &breaker{log: log}, nodes: map[string]*breaker{}}
}

// get returns the breaker of node.
func (s *breakerSet) get(node string) *breaker {
	if node == "" {
		return s.whole
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.nodes[node]
	if b == nil {
		if len(s.nodes) >= maxBreakers {
			clear(s.nodes)
		}
		b = &breaker{node: node, log: s.log}
		s.nodes[node] = b
	}
	return b
}
