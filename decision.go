package robotstxt

import (
	"errors"
	"fmt"
	"time"
)

// A Decision is the Client's answer for one URL and what it rests on.
// It embeds the [Verdict]: Allowed, the deciding Rule and Matched.
type Decision struct {
	// Verdict says whether the crawler may fetch the URL and which rule
	// decided; its Rule is the zero Rule when no rule matched or the
	// outcome is not OutcomeRules (see Matched).
	Verdict
	// Status is the HTTP status of the robots.txt response the decision
	// rests on (after redirects), or 0 when none arrived.
	Status int
	// Outcome is how that response was read; OutcomeNone when no decision
	// was made (the error says why).
	Outcome Outcome
	// Expires is when the cached robots.txt goes stale (for a deferred or
	// stale answer: when the server is asked again).
	Expires time.Time
	// Deferred reports that robots.txt is unreachable and no usable copy
	// is cached: Allowed is false and the error is a *DeferredError.
	Deferred bool
	// Stale reports that the answer comes from an expired or last good
	// copy, because the server is unreachable or is being asked again.
	Stale bool
	// Authority is the normalised authority whose robots.txt applies,
	// such as "https://example.com:443".
	Authority string
	// Usage is what robots.txt's Content-Usage rules say about the use
	// of the URL's content (see [Robots.Usage]), when the outcome is
	// OutcomeRules and the URL is allowed: the preferences for the URL
	// as spelled and for each normal form a server may serve for it (see
	// [Client.Allowed]), combined label by label (n if any says n, else
	// y if any says y), so that no spelling sheds a preference of the
	// path the server serves. Otherwise, and when the crawler's groups
	// have no Content-Usage rule, it is the zero Usage: every label
	// unknown. [Transport.Usage] adds what the response says.
	Usage Usage
}

// ErrDeferred is matched (with errors.Is) by the error returned when
// robots.txt is unreachable and no usable copy is cached. The crawler
// should not fetch the URL now and should come back later; errors.As with
// a *DeferredError tells when.
var ErrDeferred = errors.New("robotstxt: robots.txt unreachable, try later")

// ErrClosed is returned by checks that need a fetch after Close.
var ErrClosed = errors.New("robotstxt: client closed")

// A DeferredError says that an authority's robots.txt is unreachable,
// when to come back, and how many fetches have failed in a row.
type DeferredError struct {
	// Authority is the normalised authority.
	Authority string
	// Status is the HTTP status that made it unreachable (429, 503, …), or
	// 0 for a network error or timeout.
	Status int
	// RetryAt is when the Client will ask the server again; checks before
	// then get the same answer from cache.
	RetryAt time.Time
	// Failures counts the consecutive failed fetches of the authority's
	// robots.txt, this one included: 1 on the first. A frontier that gives
	// up on a site after a few deferrals reads it here.
	Failures int
	// Err is the underlying failure, if known.
	Err error
}

// Error describes the failure and when to retry, with the authority cut
// to 128 bytes and the failure's text to 256.
func (e *DeferredError) Error() string {
	msg := fmt.Sprintf("robotstxt: %s/robots.txt unreachable", capQuote(e.Authority))
	if e.Status != 0 {
		msg += fmt.Sprintf(" (status %d)", e.Status)
	}
	if e.Err != nil {
		msg += ": " + cut(e.Err.Error(), maxCauseText)
	}
	return msg + "; retry after " + e.RetryAt.UTC().Format(time.RFC3339)
}

// Unwrap returns ErrDeferred and the underlying failure, so errors.Is
// matches both.
func (e *DeferredError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrDeferred}
	}
	return []error{ErrDeferred, e.Err}
}

// RetryAfter returns how long after now to come back.
func (e *DeferredError) RetryAfter(now time.Time) time.Duration {
	return max(e.RetryAt.Sub(now), 0)
}
