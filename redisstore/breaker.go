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
// considers a node (the server, or a master of a cluster) down: after
// three failures in a row, for a second at a time, until a probe call
// gets an answer. A call that runs out of a caller's deadline under half
// the Store's timeout (see [WithTimeout]) is a failure only once no call
// has had an answer for that timeout, calls coming with no pause that
// long: a Redis slower than a Client's WithStoreTimeout opens no breaker
// for a Pacer's calls under a timeout raised for them, while a hung one
// does.
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
	healthy  outcome = iota // Redis answered (a nil reply and WRONGTYPE included)
	failed                  // Redis did not answer usefully: network error, timeout, LOADING…
	unjudged                // says nothing about Redis: the caller gave up, or a cluster's slot map was loading
)

// classify tells how err, of a call that ran for ran under the caller's
// context parent, given had of the Store's timeout, reflects on Redis. A
// caller's deadline counts, since callers such as the robotstxt Client
// bound Store calls with the Store's own short timeout (and let a call
// run on to it when their own callers leave sooner); a cancellation does
// not, nor a deadline under half the timeout while Redis answered some
// call within it (quiet false): a Redis slower than such a caller may
// answer the Store's other calls (a Pacer's, under a timeout raised for
// them), which a breaker it opened would refuse.
func classify(parent context.Context, err error, ran, had, timeout time.Duration, quiet bool) outcome {
	switch {
	case err == nil, errors.Is(err, redis.Nil), isWrongType(err):
		return healthy
	case errors.Is(parent.Err(), context.Canceled), parent.Err() != nil && (ran < minJudged || had < timeout/2 && !quiet),
		redis.HasErrorPrefix(err, "TRYAGAIN"): // a cluster's slot moving to another node
		return unjudged
	}
	return failed
}

// isWrongType reports whether the key holds another type.
func isWrongType(err error) bool { return redis.HasErrorPrefix(err, "WRONGTYPE") }

// A breaker stops calls to a Redis node that keeps failing (see
// [ErrUnavailable]).
type breaker struct {
	node    string // the node's address; "" for the whole of a Redis that is not a cluster
	log     *slog.Logger
	timeout time.Duration // the Store's (see WithTimeout)

	mu       sync.Mutex
	fails    int       // consecutive failed calls
	openedAt time.Time // when it opened or a probe last failed; zero while closed
	probing  bool      // a probe call is in flight
	answered time.Time // when a call last had an answer, or the breaker was made
	missFrom time.Time // the start of the first call since then that had none, after no pause; zero for none
	lastEnd  time.Time // when the last call ended

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
		b = &breaker{node: node, log: s.logger, timeout: s.cfg.timeout, answered: time.Now()}
		s.breakers[node] = b
	}
	return b
}

// allow reports whether a call may go to Redis, and whether it is the
// probe of an open breaker. Every allowed call must be followed by done.
func (b *breaker) allow() (ok, probe bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.openedAt.IsZero() {
		return true, false
	}
	if b.probing || time.Since(b.openedAt) < retryAfter {
		return false, false
	}
	b.probing = true
	return true, true
}

// done records the outcome of an allowed call started at start.
func (b *breaker) done(probe bool, start time.Time, o outcome, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.probing = b.probing && !probe
	was := !b.openedAt.IsZero()
	if o != healthy && (b.missFrom.IsZero() || start.Before(b.missFrom) || b.paused(start)) {
		b.missFrom = start
	}
	b.lastEnd = time.Now()
	switch o {
	case healthy:
		b.fails, b.openedAt, b.answered, b.missFrom = 0, time.Time{}, time.Now(), time.Time{}
	case failed:
		if b.fails++; was || b.fails >= tripAfter { // a failed probe, or a call let through before opening
			b.openedAt = time.Now()
		}
	}
	if open := !b.openedAt.IsZero(); open != was {
		b.changes++
	}
	b.show(err)
}

// silent reports whether calls have gone unanswered for over the
// Store's timeout: the one started at start, or the first since the last
// answer, started that long ago and after that answer, with no pause
// since. A Store that made no call for a while is no silent Redis, nor
// are the calls before such a pause, which callers may have left early.
func (b *breaker) silent(start time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	since := start
	if !b.missFrom.IsZero() && b.missFrom.Before(since) && !b.paused(start) {
		since = b.missFrom
	}
	if since.Before(b.answered) {
		since = b.answered
	}
	return time.Since(since) > b.timeout
}

// paused reports whether no call was under way for over the Store's
// timeout before start: a miss after it starts a new run. (Calls rarer
// than that to a hung Redis open no breaker; each costs its caller's
// deadline.)
func (b *breaker) paused(start time.Time) bool {
	return start.Sub(b.lastEnd) > b.timeout
}

// show logs the breaker's state, naming the node, when it is not the
// state last logged, and that state's line was not logged within
// logthrottle.Interval: a flapping Redis costs each line once an
// interval, and a change held back is logged at the first call to end
// after it, so that the last line logged is the state the node is in.
func (b *breaker) show(err error) {
	open := !b.openedAt.IsZero()
	if open == b.shown {
		return // every call of a healthy Redis: no clock read
	}
	now := time.Now()
	i := 0
	if open {
		i = 1
	}
	if now.Sub(b.shownAt[i]) < logthrottle.Interval {
		return
	}
	b.shown, b.shownAt[i] = open, now
	level, msg, args := slog.LevelInfo, "redis available again; sharing robots.txt entries resumes", []any(nil)
	if open {
		level, msg = slog.LevelWarn, "redis unavailable; fetching robots.txt directly until it answers again"
		args = []any{"consecutive_failures", b.fails, "err", err}
	}
	if b.node != "" {
		args = append(args, "node", b.node)
	}
	if b.changes > 1 {
		args = append(args, "suppressed", b.changes-1)
	}
	b.changes = 0
	b.log.Log(context.Background(), level, msg, args...)
}
