package robotstxt

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"math/bits"
	"strings"
	"sync/atomic"
	"time"

	"github.com/robotsgate/robotstxt/internal/logthrottle"
	"github.com/robotsgate/robotstxt/internal/sharedcall"
	"golang.org/x/net/http/httpguts"
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
// authorities such as "https://example.com:443", and with [WithTDMRep]
// such an authority followed by a file's path
// ("https://example.com:443/.well-known/tdmrep.json"), compared exactly.
// A Store must be safe for concurrent use, and return promptly once ctx
// is done, with an error wrapping ctx.Err() unless the call completed:
// the Store timeout reaches a Store only as ctx's deadline, and a Store
// that waits on past it holds the checks that wait for it. A call that
// ctx ends while it runs leaves nothing for a later call to read (a
// reply left on a connection would answer another key's Get). Package
// [github.com/robotsgate/robotstxt/storetest] checks all of this: that a
// call returns promptly for a ctx done before it, and the error and what
// is left behind for one done before and one ending during it.
//
// A Store may also hand out leases, so that one process fetches an
// authority's robots.txt while others wait for it: see [Leaser].
//
// A value carries a checksum, so that one the Store damaged is a miss;
// but values are not signed: whoever can write to the Store can make a
// Client believe a robots.txt, within what a Client itself would write
// (a value is bound to its key, dated no later than a minute ahead of the
// reader's clock, fresh for no longer than its freshness cap, rules only from a
// status the reader's [WithStatusPolicy] reads, and an allow-all, or a
// failure with a last good copy standing in, only if the reader's own
// [WithStatusPolicy], [WithErrorPolicy] and [WithUnreachableAllowAfter]
// give it: Clients configured otherwise may share a Store, the stricter
// answer standing, for the others too; but a body is read as the
// Client that fetched it cut it, whatever [WithBodyLimit] the reader has).
// A value is also bound to the User-Agent and product tokens of the Client
// that fetched it, since a server may answer one crawler otherwise than
// another (a 403 to one alone reads as allow-all) and a fetch's hops were
// checked for its tokens, and to whether it fetched through [PublicOnly],
// since a site's name may lead an unguarded Client to an internal
// service: a Client that differs in any reads it as a miss.
// Give each crawler a Store of its own (another redisstore prefix), lest
// they overwrite each other's values; so too processes whose requests a
// server may tell apart though they send one User-Agent, such as those
// that sign them (Web Bot Auth) and those that do not, since a 403 to
// one would read as allow-all to the other. Those are still one crawler
// to a site: a redisstore Store keeps its pacing under its prefix too, so
// give all their Transports one Store's pacing ([WithPacer]). Keep a
// shared Store as private as the crawler's own configuration.
type Store interface {
	// Get returns the value stored under key, or ErrCacheMiss.
	Get(ctx context.Context, key string) ([]byte, error)
	// Set stores value under key for at least ttl.
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
}

// A Leaser is a [Store] that hands out short exclusive leases on keys:
// of the processes that miss an authority at once, the one that takes
// the lease fetches its robots.txt, and the others wait for its result in
// the Store (see [WithLeaseWait]). [WithStore] uses the leases of a Store
// that implements Leaser; package storetest checks them too.
type Leaser interface {
	Store
	// Lease takes the lease on key for ttl: ok is true and release gives
	// it back (only the holder's release counts; an unreleased lease
	// expires after ttl). While another holds it, release is nil, ok
	// false and err nil. Like Get and Set, it returns promptly once ctx
	// is done. ctx bounds the call, not the lease: the Client cancels it
	// as Lease returns, and the lease stays held until release or ttl.
	// release must work after ctx is done: the Client calls it when its
	// fetch ends, long after Lease returned, and a process waiting for
	// the lease takes it once it is free. It must also return promptly
	// (bound it as Lease is bounded): the checks waiting for the fetch
	// have their answer once it returns. A Lease that fails, its ctx
	// ended while it ran, holds no lease: it gives back what it may have
	// taken, which no process would release, and every process's checks
	// of the key would wait it out.
	Lease(ctx context.Context, key string, ttl time.Duration) (release func(), ok bool, err error)
}

// A sharedTier is how a Client uses its Store. Every call is bounded by
// the Store timeout, and a failing Store never fails a check.
type sharedTier struct {
	*Client
	store    Store
	throttle *logthrottle.Throttle
	// crawler binds values to this Client's crawler (see crawlerOf),
	// worked out at first use: NewClientTransport's Transport, which the
	// Client fetches through, is made after the Client.
	crawler func() uint64
	lookups sharedcall.Group // lookups of checks that cannot wait the Store timeout, by key (see lookup)
	// someDisallowed is disallowsSomeFailure's answer once known: 1
	// true, -1 false, 0 not yet asked.
	someDisallowed atomic.Int32
}

// crawlerOf returns what binds a stored value to the crawler that fetched
// it: an FNV-1a hash of the User-Agent it sends, the product tokens it
// matches and whether it fetches through a guard (see PublicOnly), which
// refuses a site whose name leads to an internal address: a guarded
// Client must not take an unguarded one's answer from there.
func crawlerOf(userAgent string, tokens []string, guarded bool) uint64 {
	h := fnv.New64a()
	_, _ = io.WriteString(h, userAgent)
	for _, t := range tokens {
		_, _ = io.WriteString(h, "\x00"+t)
	}
	if guarded {
		_, _ = io.WriteString(h, "\x01") // in no token
	}
	return h.Sum64()
}

// get returns k's stored entry, or nil; vain reports that no result
// another process writes can reach this one through the Store: it failed
// (not a miss, nor parent's end), or holds k's, current, as reached
// through a hop the writer checked, which no Client reads (see
// ownOutcome), as the next writer's will be. With fresh, an expired
// entry is nil,
// before its body is decompressed and parsed: a process waiting for
// another's lease polls an expired 500 KiB file every leasePoll, and
// parsing it each time took a tenth of a core.
func (t *sharedTier) get(parent context.Context, k key, fresh bool) (e *entry, vain bool) {
	e, vain, _ = t.read(parent, k, fresh)
	return e, vain
}

// read is get that also returns the outage k's stored entry records, as
// written, whether get returns it or not (expired, reached through a
// checked hop, or an answer this Client's policies do not give: see
// ownOutcome), or nil for none.
func (t *sharedTier) read(parent context.Context, k key, fresh bool) (e *entry, vain bool, outage *entry) {
	ctx, cancel := context.WithTimeout(parent, t.cfg.storeTimeout)
	defer cancel()
	b, err := t.store.Get(ctx, k.store())
	switch {
	case errors.Is(err, ErrCacheMiss), err != nil && parent.Err() != nil && parent != t.base:
		return nil, false, nil // a miss, or the caller gave up: the Store did not fail
	case err != nil:
		t.fail("get", k, err)
		return nil, true, nil
	}
	e, err = decodeEntry(k, b, t.crawler())
	if err == nil && e.failures > 0 {
		outage = e
	}
	if err == nil && fresh && e.expired(t.cfg.now()) {
		return nil, false, outage
	}
	if err == nil && hopChecked(e) {
		return nil, true, outage
	}
	if err == nil && e.stale && e.expires > e.fetched.add(t.cfg.staleWindow).add(storedUnit) {
		// A copy standing in past this Client's stale window (a
		// writer's window is longer, or the failure's back-off
		// outlasts it) is the failure it stands for, going on from
		// the fleet's count and start: read as a miss, it had a
		// process joining the outage count it anew. As standIn
		// keeps this Client's own: the copy to its window's end for
		// an allow-all (of the outage's length, or of the error
		// policy for a failure with no response of a class or kind
		// kept that is no refusal), the failure past it, and for a
		// failure that defers.
		f := e.failure()
		noResponse := f.status == 0 && k.doc.robots && classified(f.cause) && f.causes&refusalClasses == 0
		if t.cfg.outageAllows(k, f.fetched, f.since) || noResponse && t.errorPolicyGives(f, OutcomeAllowAll) {
			f.outcome = OutcomeAllowAll
		}
		if end := e.fetched.add(t.cfg.staleWindow); f.outcome == OutcomeUnreachable || stampOf(t.cfg.now()) >= end {
			e = f
		} else {
			e = e.clone()
			e.expires = end
			e = e.derive()
		}
	}
	if err == nil {
		err = t.plausible(k, e)
	}
	if err == nil && e.body != nil {
		// A body over three times the limit (bodies grow at most
		// threefold when converted to UTF-8) was not written by a
		// Client: decompress no further.
		var text []byte
		if text, err = decompress(e.body, 3*t.cfg.readLimit(k.doc)); err == nil && k.doc.robots {
			e.setRules(text, e.body, t.cfg.mode, t.tokens)
		}
	}
	if errors.Is(err, errOtherCrawler) {
		// Not a failure: a fleet whose User-Agent changes in a rolling
		// deploy meets many.
		t.logger.LogAttrs(parent, slog.LevelDebug, "robots.txt store value of another crawler", slog.String("authority", k.store()))
		return nil, false, nil
	}
	if err != nil {
		t.log("decode", k, err)
		return nil, false, outage
	}
	return e.derive(), false, outage
}

// ownOutcome reports whether e, k's document read from the Store, allows
// no more than this Client would have: an allow-all stands only if its
// own status policy gives it for the status, its WithUnreachableAllowAfter
// for failures that long, a WithErrorPolicy of its own for a failure with
// no response, or, for too many redirects, a WithMaxRedirects as low;
// rules only if its status policy reads the status's body (another's may
// parse an error page). Neither stands when reached through a hop to
// another site that the writer checked with its own policies. Answers
// stricter than allow-all stand. A failure (unreachable, a last good copy
// standing in for it, an outage's allow-all) stands only if this Client's
// policies do not read it as disallow-all (see disallowsFailure). Only
// robots.txt has those policies; a tdmrep.json has the default status
// policy and its redirects' rules.
func (t *sharedTier) ownOutcome(k key, e *entry) bool {
	if t.disallowsFailure(k, e) {
		return false
	}
	if hopChecked(e) {
		return false
	}
	robots, policy := k.doc.robots, defaultStatusPolicy
	if robots {
		policy = t.cfg.policy
	}
	switch {
	case e.outcome == OutcomeRules:
		return valid(policy(int(e.status))) == OutcomeRules
	case e.outcome == OutcomeDisallowAll:
		// Stricter for a robots.txt; for a tdmrep.json, which no Client
		// stores so (the default policy gives none), it reads as no file.
		return robots
	case e.outcome != OutcomeAllowAll:
		return true
	case e.status == 0 && robots && t.errorPolicyGives(e, OutcomeAllowAll):
		// A failure with no response, of the classes the Store keeps:
		// this Client's policy allows all too.
		return true
	case e.failures > 0 && !e.stale: // not a last good copy standing in
		// An outage long enough, if every failure it may have held is
		// one to this Client too: the Store keeps only the last. Its
		// times are kept to the storedUnit, rounded down.
		return robots && t.cfg.allowAfter > 0 && e.checked.sub(e.since) >= t.cfg.allowAfter-storedUnit && !t.disallowsSomeFailure()
	case e.status == 0:
		return false
	case followed(int(e.status)):
		// Too many redirects, if this Client's limit runs out as soon.
		// (The list keeps at most maxKeptRedirects: under a higher
		// limit, such an allow-all is fetched again.)
		n := 0
		if e.redirects != "" {
			n = strings.Count(e.redirects, "\n") + 1
		}
		return n >= t.cfg.maxRedirects
	}
	return valid(policy(int(e.status))) == OutcomeAllowAll
}

// disallowsFailure reports whether e, k's stored robots.txt, records a
// failure (its failStatus, or 0 for no response) that this Client's
// status or error policy reads as disallow-all, where the writer's read
// it as unreachable (or, by an error policy, allow-all): this Client
// would have answered disallow-all, not let a good copy stand in or count
// an outage; not when the writer's read it as disallow-all too. A
// refusal and a redirect that cannot be followed are failures under
// every policy.
func (t *sharedTier) disallowsFailure(k key, e *entry) bool {
	switch s := int(e.failStatus); {
	case !k.doc.robots || e.failures == 0 || e.outcome == OutcomeDisallowAll || followed(s):
		return false
	case s == 0:
		return e.causes&causeNonPublic == 0 && t.errorPolicyGives(e, OutcomeDisallowAll)
	}
	return valid(t.cfg.policy(int(e.failStatus))) == OutcomeDisallowAll
}

// errorPolicyGives reports whether this Client's error policy reads as o
// e's failure with no response, the last of an outage, of what the Store
// keeps of it: its text, classes and TLS kind (see storedCause).
func (t *sharedTier) errorPolicyGives(e *entry, o Outcome) bool {
	if t.cfg.errPolicy == nil {
		return false
	}
	cause := e.cause
	if cause == nil {
		cause = storedCause(storedFailure, e.causes, 0)
	}
	return t.policyGives(cause, o)
}

// policyGives reports whether this Client's error policy reads err as o.
func (t *sharedTier) policyGives(err error, o Outcome) bool {
	return t.cfg.errPolicy != nil && valid(t.cfg.errPolicy(err)) == o
}

// disallowsSomeFailure reports whether this Client's policies read some
// failure as disallow-all: a failure with no response, of no class the
// Store keeps or of any one of them but a refusal (which no policy
// reads), or of any kind (see kindOf), or a status the default policy
// reads as unreachable (429, 5xx, …). An outage's failures but its last
// are not kept. The policies are asked once (some 1,600 calls, about a
// millisecond), their answer kept for the Client's life; a panic of one
// is not kept, and the next read asks again.
func (t *sharedTier) disallowsSomeFailure() bool {
	if known := t.someDisallowed.Load(); known != 0 {
		return known > 0
	}
	some := t.policiesDisallowSome()
	known := int32(-1)
	if some {
		known = 1
	}
	t.someDisallowed.Store(known)
	return some
}

// policiesDisallowSome asks the policies of disallowsSomeFailure.
func (t *sharedTier) policiesDisallowSome() bool {
	for i := -1; i < bits.Len16(causeAll) && t.cfg.errPolicy != nil; i++ {
		c := uint16(0) // no class, then each
		if i >= 0 {
			c = 1 << i
		}
		if c != causeNonPublic && t.policyGives(storedCause(storedFailure, c, 0), OutcomeDisallowAll) {
			return true
		}
	}
	for kind := uint16(1); kind <= maxKind && t.cfg.errPolicy != nil; kind++ {
		// Each kind alone, in a certificate verification error (a
		// certificate's), and timed out (a dial's).
		for _, c := range [...]uint16{0, causeCertificate, causeTimeout} {
			if knownKind(kind) && t.policyGives(storedCause(storedFailure, c, kind), OutcomeDisallowAll) {
				return true
			}
		}
	}
	for s := 100; s < 600; s++ {
		if defaultStatusPolicy(s) == OutcomeUnreachable && !followed(s) && valid(t.cfg.policy(s)) == OutcomeDisallowAll {
			return true
		}
	}
	return false
}

// hopChecked reports whether e, rules or an allow-all, was reached
// through a hop to another site that its writer checked against that
// site's robots.txt with its own policies, which a reader's may refuse; a
// list kept cut may have lost one.
func hopChecked(e *entry) bool {
	if e.outcome != OutcomeRules && e.outcome != OutcomeAllowAll {
		return false
	}
	lines := 0
	for line := range strings.SplitSeq(e.redirects, "\n") {
		if lines++; redirectOf(line).Checked || lines >= maxKeptRedirects {
			return true
		}
	}
	return false
}

// storedFailure is the text of the error a Client's error policy is
// asked of a stored failure with no response, beside its classes.
const storedFailure = "robotstxt: another process's robots.txt fetch got no response (the Store keeps its classes, not its error)"

// plausible rejects, as a miss, a stored entry this Client would never
// have written (others write the Store, clocks wrong or worse; see
// [Store]): one dated in the future would stand in as fresh for as long
// as it claims, and an allow-all that another Client's policy gave
// would answer for this one's (see ownOutcome), and a validator
// net/http refuses to send would keep the site from being asked again.
func (t *sharedTier) plausible(k key, e *entry) error {
	if e.outcome == OutcomeRules && e.body == nil {
		return errors.New("stored rules without a body")
	}
	if !t.ownOutcome(k, e) {
		return fmt.Errorf("stored %s (status %d) is not this Client's policy's", e.outcome.name(), e.status)
	}
	// net/http receives no header value it would refuse to send: a
	// validator that fails the request stood in as unreachable each
	// time, and the site was never asked again.
	if etag, lastMod := e.validators(); !httpguts.ValidHeaderFieldValue(etag) || !httpguts.ValidHeaderFieldValue(lastMod) {
		return errors.New("stored validator no server sends")
	}
	limit := stampOf(t.cfg.now()).add(maxClockSkew)
	for _, at := range [...]stamp{e.fetched, e.checked, e.since} {
		if at > limit {
			return fmt.Errorf("stored entry from the future (%v)", at.time())
		}
	}
	longest := t.cfg.maxFresh
	if e.failures > 0 || e.outcome == OutcomeUnreachable {
		// Its expiry is a back-off: a failure, a copy standing in for
		// one, or the allow-all of WithUnreachableAllowAfter.
		longest = max(longest, t.cfg.maxBackoff)
	}
	if e.expires > e.checked.add(longest).add(storedUnit) { // sums that stop at the last stamp, never wrap
		return fmt.Errorf("stored entry fresh for %v, longer than %v", e.expires.sub(e.checked), longest)
	}
	return nil
}

// maxClockSkew is how far ahead of this clock a stored entry's times may be:
// synchronised clocks agree within milliseconds; a minute allows for lag.
const maxClockSkew = time.Minute

// set writes e to the Store, kept past its expiry for as long as it
// serves there: a good copy for the stale window, in which it may stand
// in for a failure; a failure for as long as its outage goes on unseen
// (see config.outageKept), in which its count and start go on into the
// next fetch's, in whichever process makes it (see Client.unreachable).
func (t *sharedTier) set(k key, e *entry) {
	keep := t.cfg.maxBackoff
	if e.good() {
		keep = t.cfg.staleWindow
	}
	if e.failures > 0 {
		keep = max(keep, t.cfg.outageKept(k))
	}
	ttl := max(e.expires.add(keep).sub(stampOf(t.cfg.now())), time.Second)
	ctx, cancel := context.WithTimeout(t.base, t.cfg.storeTimeout)
	defer cancel()
	if err := t.store.Set(ctx, k.store(), encodeEntry(k, e, t.crawler()), ttl); err != nil {
		t.fail("set", k, err)
		return
	}
	t.stats.storeSets.Add(1)
}

func (t *sharedTier) fail(op string, k key, err error) {
	if t.base.Err() != nil && errors.Is(err, context.Canceled) {
		return // a call Close cut: not the Store's failure
	}
	t.stats.storeErrors.Add(1)
	t.log(op, k, err)
}

// log logs a Store problem, at most once per logthrottle.Interval.
func (t *sharedTier) log(op string, k key, err error) {
	if ok, held := t.throttle.Allow("store"); ok {
		t.logger.LogAttrs(t.base, slog.LevelWarn, "robots.txt store failed",
			slog.String("op", op), slog.String("authority", k.store()),
			slog.String("error", err.Error()), slog.Int("suppressed", held))
	}
}
