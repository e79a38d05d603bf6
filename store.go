package robotstxt

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/robotsgate/robotstxt/internal/logthrottle"
)

// ErrCacheMiss is returned by a Store's Get when it holds nothing under key.
var ErrCacheMiss = errors.New("robotstxt: cache miss")

// A Store is a shared, second-level cache of robots.txt entries (see
// [WithStore]), such as a Redis server a fleet of crawler processes shares.
// Its errors never reach a check: the Client logs them and fetches
// robots.txt itself.
//
// Values are opaque, versioned encodings made by the Client; a Store keeps
// them byte for byte, in its own copy (an empty value is a value, not a
// miss), and expires them after their TTL. Keys are normalised
// authorities such as "https://example.com:443", compared exactly. A Store
// must be safe for concurrent use, and return promptly once ctx is done,
// with an error wrapping ctx.Err() unless the call completed. Package
// [github.com/robotsgate/robotstxt/storetest] checks all of this.
//
// A Store may also hand out short exclusive leases, so that of the
// processes that miss an authority at once only one fetches its robots.txt
// while the others wait for its result in the Store. It does so with
//
//	Lease(ctx context.Context, key string, ttl time.Duration) (release func(), ok bool, err error)
//
// which takes the lease on key for ttl: ok is true and release gives it
// back (only the holder's release counts; an unreleased lease expires
// after ttl); while another holds it, release is nil, ok false and err
// nil. storetest checks it too.
//
// Values are not signed: whoever can write to the Store can make a Client
// believe a robots.txt, within what a Client itself would write (a value
// is bound to its key, dated no later than a minute ahead of the reader's
// clock, and fresh for no longer than its freshness cap). Keep a shared
// Store as private as the crawler's own configuration.
type Store interface {
	// Get returns the value stored under key, or ErrCacheMiss.
	Get(ctx context.Context, key string) ([]byte, error)
	// Set stores value under key for at least ttl.
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
}

// A leaser is a Store with leases (see [Store]).
type leaser interface {
	Store
	Lease(ctx context.Context, key string, ttl time.Duration) (release func(), ok bool, err error)
}

// A sharedTier is how a Client uses its Store. Every call is bounded by
// the Store timeout, and a failing Store never fails a check.
type sharedTier struct {
	*Client
	store    Store
	throttle *logthrottle.Throttle
}

// lookup returns the Store's fresh entry for key, or else nil and the more
// recent of prev and the Store's expired copy, to revalidate from. A ctx
// that can end bounds it too; its cause is the error when it ends.
func (t *sharedTier) lookup(ctx context.Context, key string, prev *entry) (*entry, *entry, error) {
	parent := t.base
	if ctx.Done() != nil {
		var cancel context.CancelCauseFunc
		parent, cancel = context.WithCancelCause(ctx)
		defer cancel(nil)
		defer context.AfterFunc(t.base, func() { cancel(context.Cause(t.base)) })()
	}
	e, _ := t.get(parent, key)
	if err := context.Cause(parent); err != nil && t.base.Err() == nil {
		return nil, nil, err
	}
	if e != nil && !e.expired(t.cfg.now()) {
		t.stats.storeHits.Add(1)
		return t.keepGood(e, prev), nil, nil
	}
	t.stats.storeMisses.Add(1)
	if e != nil && (prev == nil || e.checked > prev.checked && (e.good() || !prev.good())) {
		return nil, e, nil
	}
	return nil, prev, nil
}

// keepGood returns stored, or prev standing in for it when stored is
// another process's failure (see standIn).
func (t *sharedTier) keepGood(stored, prev *entry) *entry {
	if stored.good() {
		return stored
	}
	if good := t.cfg.standIn(prev, stored, t.cfg.now()); good != nil {
		return good
	}
	return stored
}

// get returns key's stored entry, or nil; failed reports a Store failure
// (not a miss, nor parent's end).
func (t *sharedTier) get(parent context.Context, key string) (e *entry, failed bool) {
	ctx, cancel := context.WithTimeout(parent, t.cfg.storeTimeout)
	defer cancel()
	b, err := t.store.Get(ctx, key)
	switch {
	case errors.Is(err, ErrCacheMiss), err != nil && parent.Err() != nil && parent != t.base:
		return nil, false // a miss, or the caller gave up: the Store did not fail
	case err != nil:
		t.fail("get", key, err)
		return nil, true
	}
	e, err = decodeEntry(key, b)
	if err == nil {
		err = t.plausible(e)
	}
	if err == nil && e.body != nil {
		// A body over three times the limit (bodies grow at most
		// threefold when converted to UTF-8) was not written by a
		// Client: decompress no further.
		var text []byte
		if text, err = decompress(e.body, 3*t.cfg.bodyLimit); err == nil {
			e.setRules(text, e.body, t.cfg.mode, t.tokens)
		}
	}
	if err != nil {
		t.log("decode", key, err)
		return nil, false
	}
	return e.derive(), false
}

// plausible rejects, as a miss, a stored entry this Client would never
// have written (others write the Store, clocks wrong or worse; see
// [Store]): one dated in the future would stand in as fresh for as long
// as it claims.
func (t *sharedTier) plausible(e *entry) error {
	if e.outcome == OutcomeRules && e.body == nil {
		return errors.New("stored rules without a body")
	}
	limit := stampOf(t.cfg.now()).add(maxClockSkew)
	for _, at := range [...]stamp{e.fetched, e.checked, e.since} {
		if at > limit {
			return fmt.Errorf("stored entry from the future (%v)", at.time())
		}
	}
	longest := t.cfg.maxFresh
	if e.stale || e.outcome == OutcomeUnreachable {
		longest = max(longest, t.cfg.maxBackoff)
	}
	if e.expires.sub(e.checked) > longest {
		return fmt.Errorf("stored entry fresh for %v, longer than %v", e.expires.sub(e.checked), longest)
	}
	if e.stale && e.expires > e.fetched.add(t.cfg.staleWindow) {
		return fmt.Errorf("stored last good copy from %v, older than the stale window", e.fetched.time())
	}
	return nil
}

// maxClockSkew is how far ahead of this clock a stored entry's times may be:
// synchronised clocks agree within milliseconds; a minute allows for lag.
const maxClockSkew = time.Minute

// awaitLease takes the lease on key, if the Store is a leaser, and returns
// its release; or, while another process holds it, polls for that
// process's result for up to the lease wait. Neither: fetch anyway.
func (t *sharedTier) awaitLease(key string) (e *entry, release func()) {
	l, ok := t.store.(leaser)
	if !ok {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(t.base, t.cfg.storeTimeout)
	release, got, err := l.Lease(ctx, key, min(t.cfg.fetchTimeout, math.MaxInt64-leaseMargin)+leaseMargin)
	cancel()
	switch {
	case err != nil:
		t.fail("lease", key, err)
		return nil, nil
	case got:
		// The previous holder may have published between our miss and
		// our lease: look once more before fetching.
		if e, _ := t.get(t.base, key); e != nil && !e.expired(t.cfg.now()) {
			release()
			t.stats.storeHits.Add(1)
			return e, nil
		}
		return nil, release
	}
	t.stats.leaseWaits.Add(1)
	deadline := time.Now().Add(t.cfg.leaseWait)
	tick := time.NewTicker(t.cfg.leasePoll)
	defer tick.Stop()
	for time.Now().Before(deadline) {
		select {
		case <-t.base.Done():
			return nil, nil
		case <-tick.C:
		}
		e, failed := t.get(t.base, key)
		if e != nil && !e.expired(t.cfg.now()) {
			t.stats.storeHits.Add(1)
			return e, nil
		}
		if failed {
			// The holder's result cannot reach us through a failing Store.
			return nil, nil
		}
	}
	return nil, nil
}

// set writes e to the Store, kept for its freshness plus, for a good
// copy, the stale window.
func (t *sharedTier) set(key string, e *entry) {
	until := e.expires
	if e.good() {
		until = until.add(t.cfg.staleWindow)
	}
	ttl := max(until.sub(stampOf(t.cfg.now())), time.Second)
	ctx, cancel := context.WithTimeout(t.base, t.cfg.storeTimeout)
	defer cancel()
	if err := t.store.Set(ctx, key, encodeEntry(e), ttl); err != nil {
		t.fail("set", key, err)
		return
	}
	t.stats.storeSets.Add(1)
}

func (t *sharedTier) fail(op, key string, err error) {
	t.stats.storeErrors.Add(1)
	t.log(op, key, err)
}

// log logs a Store problem, at most once per logthrottle.Interval.
func (t *sharedTier) log(op, key string, err error) {
	ok, held := t.throttle.Allow("store")
	if !ok {
		return
	}
	t.logger.LogAttrs(t.base, slog.LevelWarn, "robots.txt store failed",
		slog.String("op", op), slog.String("authority", key),
		slog.String("error", err.Error()), slog.Int("suppressed", held))
}
