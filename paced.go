package robotstxt

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// ErrPaced is matched (with errors.Is) by the error a [Transport] returns
// for a request it did not send because its authority had no turn free in
// time; errors.As with a *[PacedError] tells when to come back.
var ErrPaced = errors.New("robotstxt: no pacing turn free")

// A PacedError reports a request that a [Transport] did not send because
// its authority's turn was not free in time (a Crawl-delay, a request in
// flight or a Retry-After hold came first); a frontier crawler puts its
// URL back until RetryAt. It matches context.DeadlineExceeded too, unless
// under [WithNoWait].
type PacedError struct {
	// Authority is the normalised authority of the site asked for whose
	// turn is not free, e.g. "https://example.com:443".
	Authority string
	// RetryAt is when to come back. The Transport spreads the requests it
	// refuses at one authority over its coming turns, as a reservation
	// scheduler would: the first is told the earliest moment the turn may
	// come, as far as the [Pacer] can tell (while another request is in
	// flight, the interval from now), each next one a turn after the one
	// told before (the interval and the last request's duration, and an
	// eighth of that), so that a frontier that puts each URL back until
	// its RetryAt sends them one a turn. It is advice, not a reservation:
	// the Pacer alone decides when a request is sent, and a request that
	// comes back before its turn is free is refused again and told a
	// later one.
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
	// come for awaitTurn to wait, lest the http.Client's own timeout take
	// the PacedError's place: far longer than an unloaded machine's timers
	// are late.
	deadlineMargin = 10 * time.Millisecond
	// minRetry is the least sleep between two calls of Take, so that a
	// Pacer answering a wait of 0 does not make awaitTurn spin.
	minRetry = time.Millisecond
)

// bound returns the moment before which a request's turn must come, and
// the PacedError, but for its Authority and RetryAt, of one that cannot.
func (t *Transport) bound(ctx context.Context, now time.Time) (time.Time, PacedError) {
	if t.cfg.noWait {
		return now, PacedError{reason: "and WithNoWait waits for none"}
	}
	if dl, ok := ctx.Deadline(); ok {
		return dl, PacedError{reason: "which is past the request's deadline", cause: context.DeadlineExceeded}
	}
	return now.Add(t.cfg.maxWait), PacedError{cause: context.DeadlineExceeded,
		reason: fmt.Sprintf("which is past the longest wait %v (WithMaxWait)", t.cfg.maxWait)}
}

// awaitTurn calls Take until it gives the turn at authority, sleeping as
// long as Take says. A turn that cannot come before the request's bound
// fails at once with a *PacedError. waited says it slept.
func (t *Transport) awaitTurn(ctx context.Context, authority string, interval time.Duration) (_ turn, waited bool, _ error) {
	if err := ctx.Err(); err != nil {
		return turn{}, false, fmt.Errorf("robotstxt: waiting for a turn at %s: %w", authority, err)
	}
	interval = max(interval, 0)
	id, wait, err := t.cfg.pacer.Take(ctx, authority, interval)
	if err != nil || wait <= 0 {
		return turn{authority, interval, id}, false, err
	}
	// The turn is not free: from here on the request counts as paced.
	t.stats.paced.Add(1)
	now := time.Now()
	limit, pe := t.bound(ctx, now)
	var slept time.Duration
	held := false
	defer func() {
		t.stats.waited.Add(int64(slept))
		if held {
			t.stats.held.Add(1)
		}
	}()
	for {
		held = held || wait > interval // only a hold explains that
		retryAt := now.Add(max(wait, minRetry))
		if !retryAt.Before(limit.Add(-deadlineMargin)) {
			return turn{}, true, t.paced(ctx, pe, authority, interval, retryAt)
		}
		timer := time.NewTimer(retryAt.Sub(now))
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			slept += time.Since(now)
			if ctx.Err() == context.DeadlineExceeded {
				// A timer later than deadlineMargin: pacing all the same.
				return turn{}, true, t.paced(ctx, pe, authority, interval, retryAt)
			}
			return turn{}, true, fmt.Errorf("robotstxt: waiting for a turn at %s: %w", authority, ctx.Err())
		}
		slept += time.Since(now)
		id, wait, err = t.cfg.pacer.Take(ctx, authority, interval)
		if err != nil || wait <= 0 {
			return turn{authority, interval, id}, true, err
		}
		now = time.Now()
	}
}

// paced returns and logs pe, from bound, for a turn at interval that may
// come at retryAt, telling it the turn the queue gives it.
func (t *Transport) paced(ctx context.Context, pe PacedError, authority string, interval time.Duration, retryAt time.Time) error {
	pe.Authority, pe.RetryAt = authority, t.queue.retryAt(authority, interval, retryAt)
	t.c.logger.LogAttrs(ctx, slog.LevelDebug, "request paced",
		slog.String("authority", authority), durationAttr("retry_in", time.Until(pe.RetryAt)),
		slog.String("reason", pe.reason))
	return &pe
}

// done ends tu even if ctx has ended: a turn left open would hold the
// authority until its lease ran out. hold is from a Retry-After.
func (t *Transport) done(ctx context.Context, tu turn, hold time.Duration) {
	_ = t.cfg.pacer.Done(context.WithoutCancel(ctx), tu.authority, tu.id, tu.interval, hold)
}

// spreadSlack is the share of a turn (the interval and the last
// request's duration) by which the turns a retryQueue tells exceed it:
// room for a frontier to come back late and a request to take longer than
// the last, so that few come back before their turn is free, for an
// eighth of the pace. With both cores of a test machine busy, the
// README's loop (BenchmarkCrawlLoop) met up to 1.68 PacedErrors a page
// with a sixteenth and crawled no faster, up to 1.16 with an eighth.
const spreadSlack = 8

// A retryQueue spreads the RetryAt of the requests refused at an authority
// over its coming turns, as a reservation scheduler would: the first is
// told the earliest moment its turn may come, each next one a turn later.
// A frontier that puts every URL back for its RetryAt then brings them
// back one a turn, not all at once, to be refused again but one. It keeps
// state only for authorities with turns told and not yet come. The zero
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
}

// retryAt returns the turn to tell a request refused at authority for a
// turn at interval that, as far as the Pacer can tell, may come at at.
func (q *retryQueue) retryAt(authority string, interval time.Duration, at time.Time) time.Time {
	q.mu.Lock()
	defer q.mu.Unlock()
	e, ok := q.m[authority]
	if !ok {
		q.sweep(time.Now())
	}
	if at.Before(e.next) {
		at = e.next
	}
	turn := interval + e.took
	e.next = at.Add(turn + turn/spreadSlack)
	q.m[authority] = e
	return at
}

// ran records how long a request sent to authority took, for the turns
// told from now on, and drops the authority once its turns have come.
func (q *retryQueue) ran(authority string, took time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	e, ok := q.m[authority]
	switch {
	case !ok:
	case !time.Now().Before(e.next):
		delete(q.m, authority)
	default:
		e.took = took
		q.m[authority] = e
	}
}

// sweep drops the authorities whose turns have all come once the map has
// doubled, copying the rest so that a burst's memory is given back.
func (q *retryQueue) sweep(now time.Time) {
	if len(q.m) < q.sweepAt {
		return
	}
	live := make(map[string]queued, len(q.m)/2)
	for k, e := range q.m {
		if now.Before(e.next) {
			live[k] = e
		}
	}
	q.m = live
	q.sweepAt = max(2*len(live), minSweep)
}
