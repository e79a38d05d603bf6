package robotstxt

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
	// Authority is the normalised authority of the site served whose turn
	// is not free, e.g. "https://example.com:443".
	Authority string
	// RetryAt is the earliest moment the turn may come, as far as the
	// [Pacer] can tell, not a reservation. While another request to the
	// authority is in flight, it is the interval from now (or sooner, when
	// that request's lease runs out first); the turn comes later if that
	// request takes longer.
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
			return turn{}, true, t.paced(ctx, pe, authority, retryAt)
		}
		timer := time.NewTimer(retryAt.Sub(now))
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			slept += time.Since(now)
			if ctx.Err() == context.DeadlineExceeded {
				// A timer later than deadlineMargin: pacing all the same.
				return turn{}, true, t.paced(ctx, pe, authority, retryAt)
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

// paced returns and logs pe, from bound, for a turn at retryAt.
func (t *Transport) paced(ctx context.Context, pe PacedError, authority string, retryAt time.Time) error {
	pe.Authority, pe.RetryAt = authority, retryAt
	t.c.logger.LogAttrs(ctx, slog.LevelDebug, "request paced",
		slog.String("authority", authority), durationAttr("retry_in", time.Until(retryAt)),
		slog.String("reason", pe.reason))
	return &pe
}

// done ends tu even if ctx has ended: a turn left open would hold the
// authority until its lease ran out. hold is from a Retry-After.
func (t *Transport) done(ctx context.Context, tu turn, hold time.Duration) {
	_ = t.cfg.pacer.Done(context.WithoutCancel(ctx), tu.authority, tu.id, tu.interval, hold)
}
