package redisstore

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrUnavailable is returned, without calling Redis, while the Store
// considers Redis down after consecutive failures. It clears by itself once
// a probe call succeeds.
var ErrUnavailable = errors.New("redisstore: redis unavailable")

// outcome classifies the result of one Redis call for the circuit breaker.
type outcome int

const (
	healthy  outcome = iota // Redis answered (a nil reply and WRONGTYPE included)
	failed                  // Redis did not answer usefully: network error, timeout, LOADING…
	unjudged                // says nothing about Redis: the caller gave up, or a cluster's slot map was loading
)

// minJudged is the least time a call must have had before a missed
// deadline of the caller counts against Redis: a caller that left less
// than this gave Redis no fair chance.
const minJudged = 10 * time.Millisecond

// classify tells how err, returned by a call that ran for ran under the
// caller's context parent, reflects on Redis' health. A caller that
// cancelled says nothing about Redis; a caller whose deadline passed while
// Redis kept silent does (callers such as the robotstxt Client bound Store
// calls with the same short timeout as the Store).
func classify(parent context.Context, err error, ran time.Duration) outcome {
	switch {
	case err == nil, errors.Is(err, redis.Nil), isWrongType(err):
		return healthy
	case errors.Is(parent.Err(), context.Canceled):
		return unjudged
	case parent.Err() != nil && ran < minJudged:
		return unjudged
	default:
		return failed
	}
}

// isWrongType reports whether Redis refused the command because the key
// holds another type (a list or a hash written by someone else).
func isWrongType(err error) bool {
	return redis.HasErrorPrefix(err, "WRONGTYPE")
}
