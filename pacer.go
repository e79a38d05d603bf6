package robotstxt

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/robotsgate/robotstxt/internal/pacing"
)

// A Pacer spaces the requests a [Transport] sends to each authority, as
// the server sees them: from the end of a request's response to the
// sending of the next, so that two never reach a server closer than the
// interval, however long the network takes.
//
// A Pacer keeps the state and answers at once; the Transport calls Take
// until it gets the turn, sleeping as long as Take says, sends the
// request, and calls Done once the response's body has been read to its
// end or closed. Waiters are served in no particular order.
// [WithPacer] names the Pacers there are.
type Pacer interface {
	// The authority a Transport gives is the key of a site's pace, one
	// for its http, https and www. twin: its host without "www." and its
	// port, empty for the scheme's default ("a.test:" for
	// https://www.a.test:443 and http://a.test:80).
	//
	// Take takes the turn to send a request to authority when one may be
	// sent now: no other request to authority is in flight (when
	// interval > 0), interval has passed since the previous one ended,
	// and no hold set by Done is in force. It then returns wait == 0 and
	// the turn's id. A turn with interval > 0 is exclusive, its id not 0,
	// until Done ends it or a timeout (30 seconds, or interval if longer)
	// has passed, so that a request that never returns does not hold its
	// authority for ever; a turn with interval 0 is not, and its id is 0.
	//
	// A Pacer may forget a turn once the longest interval given at
	// authority and the lease have passed since it ended: a longer
	// interval asked after that (a site that raised its Crawl-delay)
	// counts from then.
	//
	// A site has one pace: while a turn at authority is in flight, and
	// until the pace has passed since the last one ended, interval counts
	// as at least that pace, the longest interval the turns since it last
	// lapsed were taken or ended with. A request whose caller knows no
	// Crawl-delay for the site, such as another site's robots.txt
	// redirect to it after its robots.txt left the cache, waits for the
	// pace its pages were given (and, the pace passed, goes as its own
	// interval says); a pace a site lowers lapses after one turn.
	//
	// Otherwise Take returns wait > 0, how long to wait before asking
	// again, never past the earliest moment the turn may come (at most
	// interval while another request is in flight, but for a hold). Take
	// never books a slot ahead and never blocks. A negative interval
	// counts as 0, and an interval or a hold longer than 24 hours as 24
	// hours. An error means Take could not tell: the request is not sent,
	// so a Pacer that cannot reach its state fails closed; but for a
	// robots.txt's redirect to another site, which the Client paces in
	// its process instead, lest a Store's outage be taken for the site's
	// (a robots.txt is fetched once a day; its site's own, unpaced).
	Take(ctx context.Context, authority string, interval time.Duration) (id uint64, wait time.Duration, err error)
	// Done ends the turn id that Take gave at authority for interval: the
	// next request may be sent interval after now, and not before hold
	// (from a Retry-After) has passed. It ends only that turn, not another
	// begun since its lease ran out. The Transport calls it once per turn,
	// also for a failed request, with the request's context: Done must end
	// the turn even if that has ended. It calls it with id 0, ending no
	// turn, to set a hold as soon as a response says one. Its error is
	// not returned.
	Done(ctx context.Context, authority string, id uint64, interval, hold time.Duration) error
}

// pacerUnit is the most a Pacer may round an interval up by, to the unit
// its state keeps (redisstore keeps microseconds): a wait that long past
// the interval is no hold.
const pacerUnit = time.Millisecond

// A turn is what a Transport took from its Pacer, to give back with Done.
type turn struct {
	authority string // the request's: its Pacer's key is paceKey's
	interval  time.Duration
	id        uint64
}

// paceKey returns the key authority is paced under, by its Pacer and its
// retryQueue: one for a site's http and https and its www. twin, which
// sameSite reads as one site and most sites serve from the same servers,
// so that an http link redirected to https, or a Retry-After one of them
// sends, paces them all. It is the host without "www." and the port,
// empty for the scheme's default ("a.test:" for https://www.a.test:443
// and http://a.test:80, "a.test:8080" for http://a.test:8080): a part of
// authority, so that a request allocates none.
func paceKey(authority string) string {
	scheme, rest, ok := strings.Cut(authority, "://")
	i := strings.LastIndexByte(rest, ':')
	if !ok || i < 0 {
		return authority // no authority Split gives
	}
	start := 0
	if strings.HasPrefix(rest[:i], "www.") {
		start = len("www.")
	}
	if port := rest[i+1:]; scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		return rest[start : i+1]
	}
	return rest[start:]
}

const (
	memShards = 64 // enough that concurrent requests seldom share a lock
	minSweep  = 64 // authorities a shard holds before it looks for state to drop
)

// A memPacer is the in-process [Pacer]. It keeps state only for the
// authorities that hold requests back or had a turn within the lease (30
// s), dropping the rest lazily, starts no goroutines or timers, and locks
// one shard at a time.
type memPacer struct {
	seed    maphash.Seed
	epoch   time.Time     // origin of the monotonic nanoseconds below
	timeout time.Duration // pacing.TurnTimeout, shorter in tests
	shards  [memShards]memShard
}

// A memShard's zero value is ready: its first sweep makes the map.
type memShard struct {
	mu      sync.Mutex
	m       map[string]paceState
	sweepAt int // sweep when the map reaches this size
	lastID  uint64
	_       [32]byte // one 64-byte cache line per shard
}

// paceState is what a memPacer knows of one authority, in nanoseconds
// since its epoch.
type paceState struct {
	busy      uint64 // ID of the turn in flight, 0 for none
	busyUntil int64  // when the turn in flight stops holding others back
	end       int64  // when the previous turn ended
	interval  int64  // the longest interval a turn was taken or ended with while s lived
	pace      int64  // the site's pace: the longest since it last lapsed (see Pacer)
	hold      int64  // no turn before this
}

// dropAt is when s no longer affects any Take with an interval no longer
// than the longest it was given, or than keep, the turns' lease: a
// shorter one another crawler's turn ended with must not drop the state a
// longer one waits for, and a Take whose interval is longer than any
// before (the site raised its Crawl-delay) must still find when the last
// turn ended, if it comes as soon as a busy crawler's next request does.
func (s *paceState) dropAt(keep int64) int64 {
	t := s.hold
	if s.end > 0 {
		t = max(t, s.end+max(s.interval, keep))
	}
	if s.busy != 0 {
		t = max(t, s.busyUntil)
	}
	return t
}

func newMemPacer() *memPacer {
	// The epoch lies a second back, so that no turn ends at 0, which says none has.
	return &memPacer{seed: maphash.MakeSeed(), epoch: time.Now().Add(-time.Second), timeout: pacing.TurnTimeout}
}

func (p *memPacer) now() int64 { return int64(time.Since(p.epoch)) }

func (p *memPacer) shard(authority string) *memShard {
	if p == nil || p.epoch.IsZero() {
		panic("robotstxt: memPacer used without newMemPacer")
	}
	return &p.shards[maphash.String(p.seed, authority)%memShards]
}

// Take implements [Pacer]. It does not use ctx: it never blocks.
func (p *memPacer) Take(_ context.Context, authority string, interval time.Duration) (id uint64, wait time.Duration, err error) {
	sh := p.shard(authority)
	iv, now := span(interval), p.now()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	s, ok := sh.m[authority]
	if ok {
		if s.busy != 0 && now < s.busyUntil || now < s.end+s.pace {
			iv = max(iv, s.pace)
		}
		t := s.hold
		if s.end > 0 { // a turn has ended: none ends at the epoch
			t = max(t, s.end+iv)
		}
		wait := max(t-now, 0)
		if s.busy != 0 && now < s.busyUntil && iv > 0 {
			wait = max(min(iv, s.busyUntil-now), s.hold-now) // no turn within a hold
		}
		if wait > 0 {
			if iv > s.interval {
				s.interval = iv // kept until the turn this Take waits for may come
				sh.m[authority] = s
			}
			return 0, time.Duration(wait), nil
		}
	}
	if iv == 0 {
		return 0, 0, nil // no exclusive slot, nothing to record
	}
	if !ok {
		sh.sweep(now, int64(p.timeout))
	}
	sh.lastID++
	s.busy, s.busyUntil = sh.lastID, now+max(int64(p.timeout), iv)
	s.interval, s.pace = max(s.interval, iv), iv
	sh.m[authority] = s
	return sh.lastID, 0, nil
}

// heldNow reports whether a hold is in force at authority.
func (p *memPacer) heldNow(authority string) bool {
	sh := p.shard(authority)
	now := p.now()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return now < sh.m[authority].hold
}

// void gives back the turn id at authority, in which nothing was sent,
// as if Take had not given it: the previous turn's end still paces.
func (p *memPacer) void(authority string, id uint64) {
	sh := p.shard(authority)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if s, ok := sh.m[authority]; ok && s.busy == id {
		s.busy, s.busyUntil = 0, 0
		sh.m[authority] = s
	}
}

// span returns d, an interval or a hold, in the nanoseconds memPacer
// keeps: at least 0 and at most pacing.MaxAhead, so that a sum with the
// clock cannot overflow.
func span(d time.Duration) int64 { return int64(min(max(d, 0), pacing.MaxAhead)) }

// sweep drops the state that holds nothing back at now (see sweepMap).
func (sh *memShard) sweep(now, keep int64) {
	sweepMap(&sh.m, &sh.sweepAt, func(s paceState) bool { return now < s.dropAt(keep) })
}

// sweepMap drops the entries of *m that keep refuses once *m has reached
// *at entries, copying the rest so that a burst's memory is given back,
// and sets *at to twice what is left.
func sweepMap[V any](m *map[string]V, at *int, keep func(V) bool) {
	if len(*m) < *at {
		return
	}
	live := make(map[string]V, len(*m)/2)
	for k, v := range *m {
		if keep(v) {
			live[k] = v
		}
	}
	*m = live
	*at = max(2*len(live), minSweep)
}

// Done implements [Pacer].
func (p *memPacer) Done(_ context.Context, authority string, id uint64, interval, hold time.Duration) error {
	if id == 0 && hold <= 0 {
		return nil
	}
	now := p.now()
	sh := p.shard(authority)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	s, ok := sh.m[authority]
	if !ok {
		sh.sweep(now, int64(p.timeout))
	}
	if id != 0 && (s.busy == id || s.busy == 0 || now >= s.busyUntil) {
		// This turn's lease may have run out and another turn begun and
		// ended since; ending later than it did is only more cautious.
		s.busy, s.busyUntil = 0, 0
		s.end, s.interval, s.pace = now, max(s.interval, span(interval)), max(s.pace, span(interval))
	}
	if hold > 0 {
		s.hold = max(s.hold, now+span(hold))
	}
	if now >= s.dropAt(int64(p.timeout)) {
		delete(sh.m, authority)
		return nil
	}
	sh.m[authority] = s
	return nil
}

// ErrPaced is matched (with errors.Is) by the error a [Transport] returns
// for a request it did not send because its authority had no turn free in
// time; errors.As with a *[PacedError] tells when to come back.
var ErrPaced = errors.New("robotstxt: no pacing turn free")

// A PacedError reports a request that a [Transport] did not send because
// its authority's turn was not free in time (a Crawl-delay, a request in
// flight or a Retry-After hold came first); a frontier crawler puts its
// URL back until RetryAt. It matches context.DeadlineExceeded too, unless
// under [WithNoWait] or for the second turn of a request that takes two
// (see [Transport]), which must come within half the first's lease.
type PacedError struct {
	// Authority is the normalised authority of the site asked for whose
	// turn is not free, e.g. "https://example.com:443".
	Authority string
	// URL is the URL of the request not sent, without its fragment but
	// with any userinfo (keep it from logs): the one to put back. Under
	// an http.Client that follows redirects it is where a redirect led,
	// not the URL asked for, whose request was sent: put back, that one
	// would spend the site's next turn on the redirect again. A redirect
	// loop through a paced site is paced at each turn (put back, a loop
	// comes back): a frontier caps the tries of a URL.
	URL string
	// RetryAt is when to come back: for the first request refused at an
	// authority, the earliest moment the turn may come as far as the
	// [Pacer] can tell (an interval from then, when a check of robots.txt
	// after a wait took the rest of the request's time); for each next
	// one, by any Transport of the Client, a turn later than the one told
	// before (the interval and the last request's duration, or a page's
	// two turns after a redirect within its site, and an eighth of that),
	// so that a frontier that puts each URL back until its RetryAt sends
	// them one a turn. It is advice, not a reservation: a request that
	// comes back before its turn is free is refused again.
	RetryAt time.Time

	reason string // what came before the turn, for Error
	cause  error  // also matched: context.DeadlineExceeded, or nil
}

// Error names the authority, when its turn may come and what came first.
func (e *PacedError) Error() string {
	msg := fmt.Sprintf("robotstxt: no turn at %s before %s", capQuote(e.Authority), e.RetryAt.UTC().Format("2006-01-02T15:04:05.000Z07:00"))
	if e.reason != "" {
		msg += ", " + e.reason
	}
	return msg
}

// Unwrap returns ErrPaced, and context.DeadlineExceeded when the
// request's deadline or the Transport's longest wait came before the turn.
func (e *PacedError) Unwrap() []error {
	if e.cause == nil {
		return []error{ErrPaced}
	}
	return []error{ErrPaced, e.cause}
}

const (
	// deadlineMargin is how long before a request's deadline its turn must
	// come for awaitTurn to wait, and the Transport's check must end, lest
	// the http.Client's own timeout take the PacedError's or the
	// DeferredError's place: far longer than timers are late, which on a
	// busy virtual machine was up to 15 ms (10 ms let the http.Client's
	// timeout win there), and short beside any request's timeout.
	deadlineMargin = 50 * time.Millisecond
	// minRetry is the least sleep between two calls of Take, so that a
	// Pacer answering a wait of 0 does not make awaitTurn spin.
	minRetry = time.Millisecond
)

// bound returns the moment before which the turns of a request that
// began to wait at start must come, the moment past which the request,
// woken for a turn, is refused all the same, and the PacedError, but for
// its Authority and RetryAt, of one that cannot; noWait says it may not
// wait (see WithNoWait).
func (t *Transport) bound(ctx context.Context, start time.Time, noWait bool) (turnBy, sendBy time.Time, _ PacedError) {
	var cause error = context.DeadlineExceeded
	switch {
	case noWait:
		return start, start, PacedError{reason: "and WithNoWait waits for none"}
	case t.cfg.noWait:
		// A redirect within the site waits for its turn, but a frontier
		// puts its URL back as any other PacedError's: not a timeout.
		cause = nil
	}
	if dl, ok := ctx.Deadline(); ok {
		dl = dl.Add(-deadlineMargin)
		return dl, dl, PacedError{reason: "which is past the request's deadline", cause: cause}
	}
	// The margin kept before a deadline is for the http.Client's timer,
	// which the Transport's own bound does not race: a turn within it is
	// waited for, and a request woken for it by a late timer, or after a
	// recheck that took a while, is sent.
	turnBy = start.Add(t.cfg.maxWait)
	return turnBy, turnBy.Add(deadlineMargin), PacedError{cause: cause,
		reason: fmt.Sprintf("which is past the longest wait %v (WithMaxWait)", t.cfg.maxWait)}
}

// How a request's turn came, as TransportStats counts it: a request that
// takes two turns counts once, as the one that waited longer.
type turnWait uint8

const (
	turnFree   turnWait = iota // Take gave the turn at once
	turnWaited                 // Take said to wait (TransportStats.Paced)
	turnHeld                   // a wait was longer than the interval asked (TransportStats.Held)
)

// count counts a request whose turns came as w.
func (t *Transport) count(w turnWait) {
	if w >= turnWaited {
		t.stats.paced.Add(1)
	}
	if w == turnHeld {
		t.stats.held.Add(1)
	}
}

// awaitTurn calls Take until it gives the turn at authority, sleeping as
// long as Take says. A turn that cannot come before the request's bound
// (see bound; start is when the request began to wait, so that its
// turns share it) fails at once with a *PacedError; so does one that
// cannot come within half the lease of holding (see Pacer.Take), a turn
// the request holds meanwhile: past its lease another request would take
// that turn while this one is out, so the request keeps at least half of
// it. Close of the Client ends the wait with ErrClosed. w says whether
// Take said to wait; the caller counts it. noWait says the request may
// not wait (see bound). After each wait, recheck, unless nil, checks the
// request again, robots.txt having perhaps changed meanwhile: its error
// ends the wait, and the interval it returns is the one Take asks for, so
// that a raised crawl-delay, or a hold a fetch of robots.txt met, paces
// the request.
func (t *Transport) awaitTurn(ctx context.Context, authority string, interval time.Duration, holding turn, start time.Time, noWait bool,
	recheck func() (time.Duration, error)) (_ turn, w turnWait, _ error) {
	if err := ctx.Err(); err != nil {
		return turn{}, turnFree, fmt.Errorf("robotstxt: waiting for a turn at %s: %w", authority, err)
	}
	interval = max(interval, 0)
	key := paceKey(authority)
	id, wait, err := t.cfg.pacer.Take(ctx, key, interval)
	if err != nil || wait <= 0 {
		return turn{authority, interval, id}, turnFree, err
	}
	now := time.Now()
	turnBy, sendBy, pe := t.bound(ctx, start, noWait)
	if half := now.Add(max(pacing.TurnTimeout, holding.interval)/2 - deadlineMargin); holding.id != 0 && half.Before(turnBy) {
		turnBy, sendBy, pe = half, half, PacedError{reason: "which would leave it less than half the lease of the turn it holds at " + holding.authority}
	}
	var slept time.Duration
	defer func() { t.stats.addWaited(slept) }()
	w = turnWaited
	for {
		if wait > interval+pacerUnit { // only a hold explains that
			w = turnHeld
		}
		retryAt := now.Add(max(wait, minRetry))
		if !retryAt.Before(turnBy) {
			return turn{}, w, t.paced(ctx, pe, authority, interval, retryAt)
		}
		timer := time.NewTimer(retryAt.Sub(now))
		select {
		case <-timer.C:
		case <-ctx.Done():
		case <-t.c.base.Done():
		}
		timer.Stop()
		slept += time.Since(now)
		switch {
		case ctx.Err() == context.DeadlineExceeded:
			// A timer later than deadlineMargin: pacing all the same.
			return turn{}, w, t.paced(ctx, pe, authority, interval, retryAt)
		case ctx.Err() != nil:
			return turn{}, w, fmt.Errorf("robotstxt: waiting for a turn at %s: %w", authority, ctx.Err())
		case t.c.base.Err() != nil:
			return turn{}, w, fmt.Errorf("robotstxt: waiting for a turn at %s: %w", authority, ErrClosed)
		}
		if recheck != nil {
			if interval, err = recheck(); err != nil {
				return turn{}, w, err
			}
			interval = max(interval, 0)
			if now = time.Now(); !now.Before(sendBy) {
				// A fetch of robots.txt took the rest of the bound.
				return turn{}, w, t.paced(ctx, pe, authority, interval, now.Add(max(interval, minRetry)))
			}
		}
		id, wait, err = t.cfg.pacer.Take(ctx, key, interval)
		if err != nil || wait <= 0 {
			return turn{authority, interval, id}, w, err
		}
		now = time.Now()
	}
}

// paced returns and logs pe, from bound, for a turn at interval that may
// come at retryAt, telling it the turn the queue gives it, unless it is a
// hop's, which no crawler comes back at: it takes no place in the queue.
func (t *Transport) paced(ctx context.Context, pe PacedError, authority string, interval time.Duration, retryAt time.Time) error {
	pe.Authority, pe.RetryAt = authority, retryAt
	if !t.cfg.hops {
		pe.RetryAt = t.c.queue.retryAt(authority, interval, retryAt)
	}
	t.c.logger.LogAttrs(ctx, slog.LevelDebug, "request paced",
		slog.String("authority", authority), durationAttr("retry_in", time.Until(pe.RetryAt)),
		slog.String("reason", pe.reason))
	return &pe
}

// done ends tu, if taken, with the request's context ctx: the Pacer ends
// it even if ctx has ended (a turn left open would hold the authority
// until its lease ran out), and may bound its wait by ctx's deadline, as
// redisstore does (the request's goroutine waits for it). hold is from a
// Retry-After.
func (t *Transport) done(ctx context.Context, tu turn, hold time.Duration) {
	if tu.authority == "" {
		return // none taken
	}
	_ = t.cfg.pacer.Done(ctx, paceKey(tu.authority), tu.id, tu.interval, hold)
}

// giveBack ends tu, a turn in which nothing was sent, as if it had not
// been taken where the Pacer can (the in-process one); another's Done
// ends it as a request's, which holds its site for the interval: then
// it returns when the site's next turn may come, else the zero Time.
func (t *Transport) giveBack(ctx context.Context, tu turn) (next time.Time) {
	if tu.authority == "" {
		return time.Time{} // none taken
	}
	if p, ok := t.cfg.pacer.(*memPacer); ok && tu.id != 0 {
		p.void(paceKey(tu.authority), tu.id)
		return time.Time{}
	}
	t.done(ctx, tu, 0)
	return time.Now().Add(tu.interval)
}

// giveBackBoth gives back b, then a, a too when the Pacer's Done panics
// for b; either may be none.
func (t *Transport) giveBackBoth(ctx context.Context, a, b turn) {
	defer t.giveBack(ctx, a)
	t.giveBack(ctx, b)
}

// heldSince reports whether authority, whose turn tu the request holds,
// was held by a Retry-After since the turn was taken. The in-process
// Pacer says so; of another, Take, asked for an exclusive turn again,
// says to wait longer than the turn's interval, which only a hold
// explains (a turn in flight is waited for at most the interval), so a
// hold that ends within the interval goes unseen there, as does any hold
// of a turn that is not exclusive (no Crawl-delay), whose wait the pace
// of another Transport's interval may explain. A Take that fails cannot
// tell, and reads as a hold: the request asks for its turns again, and
// is not sent while the Pacer fails.
func (t *Transport) heldSince(ctx context.Context, tu turn) bool {
	if p, ok := t.cfg.pacer.(*memPacer); ok {
		return p.heldNow(paceKey(tu.authority))
	}
	if tu.id == 0 {
		return false
	}
	id, wait, err := t.cfg.pacer.Take(ctx, paceKey(tu.authority), tu.interval)
	if id != 0 {
		t.giveBack(ctx, turn{tu.authority, tu.interval, id}) // not asked for: a Pacer that gives a turn twice
	}
	return err != nil || wait > tu.interval+pacerUnit
}

// spreadSlack divides a turn (the interval and the last request's
// duration) into the margin a retryQueue adds to each turn it tells: room
// for a frontier to come back late and a request to take longer than the
// last, for an eighth of the pace. With both cores of a test machine
// busy, the README's loop (BenchmarkCrawlLoop) met up to 1.16 PacedErrors
// a page with an eighth, 1.68 with a sixteenth, which crawled no faster.
const spreadSlack = 8

// A retryQueue tells the RetryAt of the requests refused at each
// authority (see PacedError.RetryAt), keeping state only for authorities
// with turns told, or a request's interval, yet to come. The zero
// retryQueue is ready: its first sweep makes the map.
type retryQueue struct {
	mu      sync.Mutex
	m       map[string]queued
	sweepAt int // sweep when the map reaches this size
}

// queued is what a retryQueue knows of one authority.
type queued struct {
	next time.Time // the earliest turn the next request refused may be told
	// took is how long the last request sent took, send to response: a
	// turn lasts that beyond the interval. Without it, a site answering in
	// a quarter of its Crawl-delay made the README's loop meet 1.84
	// PacedErrors a page instead of 1.04-1.16.
	took time.Duration
	// keep is until when the sweep keeps took, however many sites come:
	// while a request sent in a turn there may be in flight, its turn's
	// lease; after it, a lease's length, for a hold another Client or
	// process sharing the Pacer meets meanwhile (this queue sees no
	// hold of theirs: its refusals were all told the hold's end).
	keep time.Time
}

// get returns the state of the authorities paced as key (see paceKey),
// first sweeping the map if it has none, lest a new key grow it for ever.
func (q *retryQueue) get(key string, now time.Time) queued {
	e, ok := q.m[key]
	if !ok {
		sweepMap(&q.m, &q.sweepAt, func(e queued) bool { return now.Before(e.next) || now.Before(e.keep) })
	}
	return e
}

// retryAt returns the turn to tell a request refused at authority for a
// turn at interval that, as far as the Pacer can tell, may come at at.
func (q *retryQueue) retryAt(authority string, interval time.Duration, at time.Time) time.Time {
	key := paceKey(authority)
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.get(key, time.Now())
	if at.Before(e.next) {
		at = e.next
	}
	turn := interval + e.took
	e.next = at.Add(turn + turn/spreadSlack)
	q.m[key] = e
	return at
}

// sending records that a request is sent to authority in a turn at
// interval, which ran ends: until then, or the turn's lease ends, the
// queue keeps what it knows of authority.
func (q *retryQueue) sending(authority string, interval time.Duration) {
	if interval <= 0 {
		return // no turns are told there, but while a hold lasts
	}
	key := paceKey(authority)
	q.mu.Lock()
	defer q.mu.Unlock()
	now := time.Now()
	e := q.get(key, now)
	e.keep = now.Add(max(interval, pacing.TurnTimeout))
	q.m[key] = e
}

// ran records how long a request sent to authority for a turn at
// interval took, for the turns told from now on, keeping it at least
// until the next turn may come, or the hold its response began ends, and
// a turn's lease (see queued.keep): the requests refused meanwhile are
// told turns that last as long. A redirect within the site (hop) is its
// page's second turn: the page took both, and the turns told are told
// for pages (a site whose links redirect met 1.9 PacedErrors a page in
// the README's loop, 0.96 so).
func (q *retryQueue) ran(authority string, interval, hold, took time.Duration, hop bool) {
	key := paceKey(authority)
	q.mu.Lock()
	defer q.mu.Unlock()
	now := time.Now()
	e := q.get(key, now)
	if end := now.Add(max(interval, hold)); e.next.Before(end) {
		e.next = end
	}
	took = min(took, pacing.TurnTimeout) // a body read slowly holds the site no longer than its lease
	if hop && interval > 0 {
		// Its page's first request ran the turn before, at this interval:
		// the page took both (a chain of redirects a turn a hop, up to
		// the ten an http.Client follows).
		took = min(took+interval+e.took, 10*(interval+pacing.TurnTimeout))
	}
	e.took, e.keep = took, now.Add(pacing.TurnTimeout)
	q.m[key] = e
}
