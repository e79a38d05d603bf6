package robotstxt

import (
	"log/slog"
	"sync/atomic"
	"time"
)

// TransportStats counts what a [Transport] has done since it was made.
// Every request RoundTrip is given, other than the Client's own robots.txt
// fetches (counted in [Client.Stats]), ends in exactly one of Sent,
// Disallowed, Deferred and Skipped, or in none of them when it is refused
// for another cause: a *[PacedError], a URL the Client cannot check, a
// context that ended, a Pacer that failed. Paced and Held count requests
// that also count elsewhere.
type TransportStats struct {
	// Sent counts the requests checked, given their turn and handed to
	// the next RoundTripper, whatever it then answered. A request that
	// waited for its turn and was then sent counts here and in Paced.
	Sent int64
	// Disallowed counts the requests refused with a *DisallowedError.
	Disallowed int64
	// Deferred counts the requests refused with a *DeferredError:
	// robots.txt was unreachable.
	Deferred int64
	// Paced counts the allowed requests whose authority's turn was not
	// free when they asked: those that waited and were sent (also in
	// Sent), those refused with a *PacedError, and those whose context
	// ended while they waited.
	Paced int64
	// Held counts the Paced requests that a Retry-After hold delayed or
	// refused: their wait was longer than their interval, which only a
	// hold explains (one set by a 429 or 503 response through this
	// Transport or anything sharing its Pacer). A hold that ends within
	// what is left of the interval counts in Paced alone.
	Held int64
	// Skipped counts the requests passed to next unchecked and unpaced
	// because their context came from [SkipRobots].
	Skipped int64
	// Waited is the time requests spent waiting for their turns, added up
	// over requests: two that wait a second at once add two seconds.
	Waited time.Duration
}

// LogValue makes TransportStats one attribute of a log line, its Waited
// rounded to the millisecond: logger.Info("crawl", "transport", rt.Stats()).
func (s TransportStats) LogValue() slog.Value {
	return slog.GroupValue(
		slog.Int64("sent", s.Sent), slog.Int64("disallowed", s.Disallowed),
		slog.Int64("deferred", s.Deferred), slog.Int64("paced", s.Paced),
		slog.Int64("held", s.Held), slog.Int64("skipped", s.Skipped),
		durationAttr("waited", s.Waited),
	)
}

// transportCounters are a Transport's counts. Sent, counted on every
// request, is striped like the Client's hits: one word that every core
// adds to would cost more than the rest of the bookkeeping.
type transportCounters struct {
	sent                        stripedCounter
	disallowed, deferred, paced atomic.Int64
	held, skipped               atomic.Int64
	waited                      atomic.Int64 // nanoseconds
}

// Stats returns a snapshot of the Transport's counts.
func (t *Transport) Stats() TransportStats {
	t.mustBeMade()
	s := &t.stats
	return TransportStats{
		Sent: int64(s.sent.load()), Disallowed: s.disallowed.Load(), Deferred: s.deferred.Load(),
		Paced: s.paced.Load(), Held: s.held.Load(), Skipped: s.skipped.Load(),
		Waited: time.Duration(s.waited.Load()),
	}
}
