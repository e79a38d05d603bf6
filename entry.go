package robotstxt

import (
	"errors"
	"sync/atomic"
	"time"
	"weak"
)

// entry is what the Client caches for one authority. It is immutable once
// published, except for the refreshing flag.
type entry struct {
	key      string // normalised authority
	outcome  Outcome
	status   int     // status of the response the rules rest on
	robots   *Robots // parsed body; nil unless outcome is OutcomeRules
	body     []byte  // body as parsed (UTF-8); nil unless OutcomeRules
	fetched  time.Time
	checked  time.Time // last fetch attempt
	expires  time.Time // when to revalidate or retry
	etag     string
	lastMod  string
	finalURL string

	// stale marks a last good copy kept while the host is unreachable;
	// failStatus, failures and errText describe the failures.
	stale      bool
	failStatus int
	failures   int
	since      time.Time // when the failures began
	errText    string
	cause      error // the failure itself, when it happened in this process

	deferErr   *DeferredError // set for OutcomeUnreachable
	refreshing atomic.Bool

	// With the real clock, a timer sets expired at expires, so the hot
	// path need not read the clock.
	expired atomic.Bool
	timer   *time.Timer
}

// arm starts the timer that marks e expired. The timer holds e weakly,
// so an entry dropped from the cache is not kept alive until it fires.
func (e *entry) arm(now time.Time) {
	wp := weak.Make(e)
	e.timer = time.AfterFunc(e.expires.Sub(now), func() {
		if e := wp.Value(); e != nil {
			e.expired.Store(true)
		}
	})
}

// disarm stops the timer of an entry leaving the cache, so the timer does
// not keep it alive.
func (e *entry) disarm() {
	if e.timer != nil {
		e.timer.Stop()
	}
}

// good reports whether e holds a usable answer from a reachable server:
// not a deferral, and not the allow-all that stands in for a server
// unreachable for too long (see WithUnreachableAllowAfter).
func (e *entry) good() bool {
	return e.outcome != OutcomeUnreachable && (e.failures == 0 || e.stale)
}

// fresh reports whether e may be used at now without asking the server.
func (e *entry) fresh(now time.Time) bool { return now.Before(e.expires) }

// finish computes the fields derived from the stored ones.
func (e *entry) finish(mode Mode) *entry {
	if e.outcome == OutcomeRules && e.robots == nil {
		e.robots = ParseMode(e.body, mode)
	}
	if e.outcome == OutcomeUnreachable {
		cause := e.cause
		if cause == nil && e.errText != "" {
			cause = errors.New(e.errText)
		}
		e.deferErr = &DeferredError{Authority: e.key, Status: e.status, RetryAt: e.expires, Err: cause}
	}
	return e
}

// clone copies the stored fields of e (not the refreshing flag).
func (e *entry) clone() *entry {
	return &entry{
		key: e.key, outcome: e.outcome, status: e.status, robots: e.robots,
		body: e.body, fetched: e.fetched, checked: e.checked, expires: e.expires,
		etag: e.etag, lastMod: e.lastMod, finalURL: e.finalURL, stale: e.stale,
		failStatus: e.failStatus, failures: e.failures, since: e.since, errText: e.errText,
	}
}
