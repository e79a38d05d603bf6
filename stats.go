package robotstxt

import (
	"log/slog"
	"math"
	"sync/atomic"
	"time"
	"unsafe"
)

// Stats counts what a Client has done since it was made. Its checks are
// those its callers asked for (through Allowed, Check, a [Transport], a
// receipt), not those the Client makes itself: of where a robots.txt
// redirect leads, against that site's robots.txt, or of tdmrep.json.
type Stats struct {
	// Hits are checks answered from a fresh in-memory entry (a Transport
	// checks a request that waits for its turn before and after the wait).
	Hits uint64
	// Misses are checks that found no fresh in-memory entry.
	Misses uint64
	// StaleServed are checks answered from an expired copy while it was
	// being fetched again, or from a last good copy of an unreachable host.
	StaleServed uint64
	// Deferred are checks answered with ErrDeferred.
	Deferred uint64
	// Fetches counts completed robots.txt fetches by what they gave.
	Fetches struct {
		Rules       uint64 // 2xx, parsed
		AllowAll    uint64 // unavailable: 4xx, too many redirects
		DisallowAll uint64 // e.g. 401/403 under LegacyStatusPolicy
		Unreachable uint64 // 429, 5xx, network errors, timeouts (whatever WithErrorPolicy answers)
		NotModified uint64 // 304 on revalidation
	}
	// Evictions are entries dropped by the LRU to make room.
	Evictions uint64
	// Thaws are checks and lookups that parsed a frozen entry's kept body
	// again ([WithCacheBytes]); concurrent ones of an authority count once.
	Thaws uint64
	// InFlight is the number of fetches under way now: of robots.txt
	// files and, under [WithTDMRep], tdmrep.json files, which Fetches
	// does not count.
	InFlight int64
	// Entries is the number of authorities in memory now.
	Entries int
	// Frozen is how many of those are kept without their parsed rules now,
	// to stay within the byte budget ([WithCacheBytes]).
	Frozen int
	// Bytes is what those entries retain, as counted against the budget.
	Bytes int64
	// Store counts traffic to the shared Store.
	Store struct {
		Hits       uint64 // fresh entries found in the Store
		Misses     uint64 // nothing usable found (absent, expired, corrupt, or a failed Get)
		Errors     uint64 // failed or timed-out Store calls
		Sets       uint64 // entries written
		LeaseWaits uint64 // times another process held the lease and we waited
	}
}

// LogValue makes Stats one attribute of a log line:
// logger.Info("robots.txt", "client", c.Stats()).
func (s Stats) LogValue() slog.Value {
	f := s.Fetches
	return slog.GroupValue(
		slog.Uint64("hits", s.Hits), slog.Uint64("misses", s.Misses),
		slog.Uint64("stale_served", s.StaleServed), slog.Uint64("deferred", s.Deferred),
		slog.Group("fetches", slog.Uint64("rules", f.Rules), slog.Uint64("allow_all", f.AllowAll),
			slog.Uint64("disallow_all", f.DisallowAll), slog.Uint64("unreachable", f.Unreachable),
			slog.Uint64("not_modified", f.NotModified)),
		slog.Uint64("evictions", s.Evictions), slog.Uint64("thaws", s.Thaws),
		slog.Int64("in_flight", s.InFlight), slog.Int("entries", s.Entries),
		slog.Int("frozen", s.Frozen), slog.Int64("bytes", s.Bytes),
		slog.Group("store", slog.Uint64("hits", s.Store.Hits), slog.Uint64("misses", s.Store.Misses),
			slog.Uint64("errors", s.Store.Errors), slog.Uint64("sets", s.Store.Sets),
			slog.Uint64("lease_waits", s.Store.LeaseWaits)),
	)
}

type counters struct {
	hits                                stripedCounter
	misses, stale, deferred, thaws      atomic.Uint64
	inFlight                            atomic.Int64
	storeHits, storeMisses, storeErrors atomic.Uint64
	storeSets, leaseWaits               atomic.Uint64

	fetches [OutcomeUnreachable + 1]atomic.Uint64 // by Outcome; 304s at 0
}

// Stats returns a snapshot of the Client's counters.
func (c *Client) Stats() Stats {
	c.mustBeMade()
	s := &c.stats
	st := Stats{
		Hits: s.hits.load(), Misses: s.misses.Load(),
		StaleServed: s.stale.Load(), Deferred: s.deferred.Load(),
		Thaws: s.thaws.Load(), InFlight: s.inFlight.Load(),
	}
	st.Entries, st.Bytes, st.Frozen, st.Evictions = c.robots.cache.counts()
	f, n := &st.Fetches, &s.fetches
	f.Rules, f.AllowAll = n[OutcomeRules].Load(), n[OutcomeAllowAll].Load()
	f.DisallowAll, f.Unreachable = n[OutcomeDisallowAll].Load(), n[OutcomeUnreachable].Load()
	f.NotModified = n[0].Load()
	t := &st.Store
	t.Hits, t.Misses, t.Errors = s.storeHits.Load(), s.storeMisses.Load(), s.storeErrors.Load()
	t.Sets, t.LeaseWaits = s.storeSets.Load(), s.leaseWaits.Load()
	return st
}

func (s *counters) countFetch(o Outcome, notModified bool) {
	if notModified {
		o = 0
	}
	s.fetches[o].Add(1)
}

// stripedCounter is a counter that goroutines on different cores add to
// without contending: each adds to the stripe its stack's address picks,
// and a load sums them. One word would have its cache line travel between
// cores on every hit, which costs more than the check.
type stripedCounter struct {
	stripes [8]struct {
		n atomic.Uint64
		_ [56]byte
	}
}

func (c *stripedCounter) add() {
	var probe byte
	i := uintptr(unsafe.Pointer(&probe)) >> 13 // goroutine stacks lie apart
	c.stripes[(i^i>>3)&7].n.Add(1)
}

func (c *stripedCounter) load() uint64 {
	var n uint64
	for i := range c.stripes {
		n += c.stripes[i].n.Load()
	}
	return n
}

// TransportStats counts what a [Transport] has done since it was made.
// Every request but the Client's own fetches ([Client.Stats])
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
	// interval, which a Retry-After hold (set through anything sharing
	// the Pacer) explains, or the site's pace where their interval was
	// shorter (see Pacer); a hold that ends within the interval counts
	// in Paced alone.
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

// transportCounters are a Transport's counts; Sent, counted on every
// request, is striped.
type transportCounters struct {
	sent                        stripedCounter
	disallowed, deferred, paced atomic.Int64
	held, skipped               atomic.Int64
	waited                      atomic.Int64 // nanoseconds, held at math.MaxInt64 (see addWaited)
}

// addWaited adds d to the time waited, which stops at the longest
// Duration rather than wrap: a counter that goes back reads as a reset
// (10,000 requests waiting at once sum the longest in 11 days).
func (c *transportCounters) addWaited(d time.Duration) {
	for {
		old := c.waited.Load()
		n := old + int64(d)
		if n < old {
			n = math.MaxInt64
		}
		if c.waited.CompareAndSwap(old, n) {
			return
		}
	}
}

// Stats returns a snapshot of the Transport's counts.
func (t *Transport) Stats() TransportStats {
	t.mustBeMade()
	s := &t.stats
	held := s.held.Load() // before paced, which count adds to first: no snapshot has more held
	return TransportStats{
		Sent: int64(s.sent.load()), Disallowed: s.disallowed.Load(), Deferred: s.deferred.Load(),
		Paced: s.paced.Load(), Held: held, Skipped: s.skipped.Load(),
		Waited: time.Duration(s.waited.Load()),
	}
}
