package robotstxt

import (
	"log/slog"
	"sync/atomic"
	"time"
)

// TransportStats counts what a [Transport] has done since it was made.
// Every request but the Client's own robots.txt fetches ([Client.Stats])
// ends in exactly one of Sent, Disallowed, Deferred and Skipped, or in
// none when refused for another cause (a *[PacedError], a URL the Client
// cannot check, an ended context, a failing Pacer). Paced and Held also
// count requests counted elsewhere.
type TransportStats struct {
	// Sent counts the requests handed to the next RoundTripper, whatever
	// it then answered.
	Sent int64
	// Disallowed counts the requests refused with a *DisallowedError.
	Disallowed int64
	// Deferred counts the requests refused with a *DeferredError.
	Deferred int64
	// Paced counts the allowed requests whose authority's turn was not
	// free when they asked: whether they then waited and were sent, were
	// refused with a *PacedError, or saw their context end.
	Paced int64
	// Held counts the Paced requests whose wait was longer than their
	// interval, which only a Retry-After hold (set through anything
	// sharing the Pacer) explains; a hold that ends within the interval
	// counts in Paced alone.
	Held int64
	// Skipped counts the requests passed on unchecked because their
	// context came from [SkipRobots].
	Skipped int64
	// Waited is the time requests spent waiting for their turns, summed
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
// request, is striped: one word every core adds to would cost more than
// the rest of the bookkeeping.
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
