package redisstore

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt/internal/logthrottle"
)

// ErrUnavailable is returned, without calling Redis, while the Store
// considers a node (the server, or a master of a cluster) down: after three
// failures in a row, for a second at a time, until a probe call gets an
// answer. A call that runs out of a caller's deadline shorter than the
// Store's timeout (see [WithTimeout]) says nothing of Redis: the Store asks
// Redis itself then, in the background under its timeout, at most once a
// second, and a node that leaves that unanswered is down at once. So a
// Redis slower than a Client's WithStoreTimeout opens no breaker for a
// Pacer's calls under a timeout raised for them, while a hung one does; and
// such short calls, never a probe, have the Store probe in their stead.
var ErrUnavailable = errors.New("redisstore: redis unavailable")

const (
	// tripAfter failures in a row open a breaker, which lets a probe call
	// through every retryAfter.
	tripAfter  = 3
	retryAfter = time.Second
	// maxBreakers is above any cluster's node count: past it the Store
	// forgets all its breakers, so that addresses that come and go cannot
	// grow them.
	maxBreakers = 1024
	// minJudged is the least time a call must have had for a missed
	// deadline of the caller's to count against Redis.
	minJudged = 10 * time.Millisecond
)

// outcome classifies the result of one Redis call for the breaker.
type outcome int

const (
	healthy  outcome = iota // Redis answered (a nil reply, WRONGTYPE and OOM included)
	failed                  // Redis did not answer usefully: network error, timeout, LOADING…
	unjudged                // says nothing about Redis: the caller gave up, or a cluster's slot map was loading
	short                   // the caller's deadline, shorter than the Store's timeout, came first: the Store asks Redis itself
)

// classify tells how err, of a call that ran for ran under the caller's
// context parent, given had of the Store's timeout, reflects on Redis. A
// caller's deadline counts, since callers such as the robotstxt Client
// bound Store calls with the Store's own short timeout (and let a call
// run on to it when their own callers leave sooner); a cancellation does
// not, nor a client its caller closed, nor a deadline shorter than the
// timeout (see cutShort), which is short: a Redis slower than such a
// caller may answer the Store's other calls (a Pacer's, under a timeout
// raised for them), which a breaker it opened would refuse.
func classify(parent context.Context, err error, ran, had, timeout time.Duration) outcome {
	switch {
	case err == nil, errors.Is(err, redis.Nil), isWrongType(err),
		redis.HasErrorPrefix(err, "OOM"): // a full Redis refusing a write, which serves reads
		return healthy
	case errors.Is(parent.Err(), context.Canceled), parent.Err() != nil && ran < minJudged, errors.Is(err, redis.ErrClosed),
		redis.HasErrorPrefix(err, "TRYAGAIN"): // a cluster's slot moving to another node
		return unjudged
	case parent.Err() != nil && cutShort(had, timeout):
		return short
	}
	return failed
}

// cutShort reports whether a call given had of the Store's timeout was
// given less by its caller: by over minJudged, which a Client's own
// deadline of the same length is not.
func cutShort(had, timeout time.Duration) bool { return had < timeout-minJudged }

// isWrongType reports whether the key holds another type.
func isWrongType(err error) bool { return redis.HasErrorPrefix(err, "WRONGTYPE") }

// A breaker stops calls to a Redis node that keeps failing (see
// [ErrUnavailable]).
type breaker struct {
	node string // the node's address; "" for the whole of a Redis that is not a cluster
	log  *slog.Logger

	mu       sync.Mutex
	fails    int       // consecutive failed calls
	openedAt time.Time // when it opened or a probe last failed; zero while closed
	probing  bool      // a probe call is in flight
	asking   bool      // the Store's own call is in flight (see Store.ask)
	askedAt  time.Time // when it was last sent

	pending []logLine    // lines decided, not yet written (see writeLines)
	writing bool         // writeLines is running
	shown   bool         // the state last logged: open
	shownAt [2]time.Time // when each state was last logged, closed and open
	changes int          // changes of state since the last line
}

// breaker returns the breaker of node.
func (s *Store) breaker(node string) *breaker {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.breakers[node]
	if b == nil {
		if len(s.breakers) >= maxBreakers {
			clear(s.breakers)
		}
		b = &breaker{node: node, log: s.logger}
		s.breakers[node] = b
	}
	return b
}

// allow reports whether a call may go to Redis, and whether it is the
// probe of an open breaker; of a short call (one its caller gives less
// than the Store's timeout), which cannot tell a slow Redis from a hung
// one, whether the Store is to probe in its stead (see Store.ask). Every
// allowed call and every probe asked for must be followed by done.
func (b *breaker) allow(short bool) (ok, probe, ask bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.openedAt.IsZero() {
		return true, false, false
	}
	if b.probing || time.Since(b.openedAt) < retryAfter {
		return false, false, false
	}
	b.probing = true
	if short {
		b.asking, b.askedAt = true, time.Now()
		return false, true, true
	}
	return true, true, false
}

// ask reports whether the Store is to ask Redis itself after a short
// call (see classify) missed: no call of its own is in flight, and none
// was sent within retryAfter. Then it must be followed by done.
func (b *breaker) ask() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.asking || time.Since(b.askedAt) < retryAfter {
		return false
	}
	b.asking, b.askedAt = true, time.Now()
	return true
}

// done records the outcome of an allowed call, or of the Store's own
// (asked), which a failure opens at once: Redis left it unanswered for
// the Store's whole timeout.
func (b *breaker) done(probe, asked bool, o outcome, err error) {
	b.mu.Lock()
	b.probing = b.probing && !probe
	b.asking = b.asking && !asked
	was := !b.openedAt.IsZero()
	switch o {
	case healthy:
		b.fails, b.openedAt = 0, time.Time{}
	case failed:
		if b.fails++; was || asked || b.fails >= tripAfter { // a failed probe, or a call let through before opening
			b.openedAt = time.Now()
		}
	}
	if open := !b.openedAt.IsZero(); open != was {
		b.changes++
	}
	l, ok := b.line(err)
	if !ok {
		b.mu.Unlock()
		return
	}
	b.pending = append(b.pending, l)
	start := !b.writing
	b.writing = true
	b.mu.Unlock()
	if start {
		go b.writeLines()
	}
}

// A logLine is a line of the breaker's, to be written.
type logLine struct {
	level slog.Level
	msg   string
	args  []any
}

// writeLines writes the pending lines in order, those decided meanwhile
// too, in a goroutine of the Store's: no call waits for a log that blocks
// (a full pipe), which would hold calls to the node past their deadlines.
// Lines come at most twice per logthrottle.Interval, so few queue.
func (b *breaker) writeLines() {
	for {
		b.mu.Lock()
		lines := b.pending
		b.pending, b.writing = nil, len(lines) > 0
		b.mu.Unlock()
		if len(lines) == 0 {
			return
		}
		for _, l := range lines {
			b.log.Log(context.Background(), l.level, l.msg, l.args...) // a panic is dropped (see WithLogger)
		}
	}
}

// line returns the line that logs the breaker's state, naming the node,
// and ok when it is not the state last logged, and that state's line was
// not logged within logthrottle.Interval: a flapping Redis costs each
// line once an interval, and a change held back is logged at the first
// call to end after it, so that the last line logged is the state the
// node is in (see writeLines).
func (b *breaker) line(err error) (l logLine, ok bool) {
	open := !b.openedAt.IsZero()
	if open == b.shown {
		return l, false // every call of a healthy Redis: no clock read
	}
	now := time.Now()
	i := 0
	if open {
		i = 1
	}
	if now.Sub(b.shownAt[i]) < logthrottle.Interval {
		return l, false
	}
	b.shown, b.shownAt[i] = open, now
	l.level, l.msg = slog.LevelInfo, "redis available again; sharing robots.txt entries resumes"
	if open {
		l.level, l.msg = slog.LevelWarn, "redis unavailable; fetching robots.txt directly until it answers again"
		l.args = []any{"consecutive_failures", b.fails, "err", err}
	}
	if b.node != "" {
		l.args = append(l.args, "node", b.node)
	}
	if b.changes > 1 {
		l.args = append(l.args, "suppressed", b.changes-1)
	}
	b.changes = 0
	return l, true
}
