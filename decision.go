package robotstxt

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/robotsgate/robotstxt/internal/quote"
)

// A Decision is the answer for one URL: whether the crawler may fetch it,
// the deciding rule, the preferences robots.txt states for its content,
// and what robots.txt the answer rests on. [Robots.Check] gives the first
// three, with Outcome OutcomeRules; [Client.Check] all of it.
//
// Decisions are comparable with ==, and stay so: two checks answered from
// the same cached robots.txt with the same rule and preferences are
// equal, but for a deferral, whose Err is a new *[DeferredError] at each
// check (compare errors with errors.Is), and a stale answer while the
// copy is fetched again, whose Expires counts from the check. Lists, such
// as [Decision.Redirects], are methods.
type Decision struct {
	// Allowed reports whether the crawler may fetch the URL.
	Allowed bool
	// Rule is the deciding rule (for a directory, perhaps an allow of its
	// …/index.html), or the zero Rule (Line 0) when none matched or the
	// outcome is not OutcomeRules; and, disallowed, when the forms a
	// server may serve the URL's path as cost past a bound to check
	// against a hostile file's rules.
	Rule Rule
	// Served is the path and query a server would serve for the URL, when
	// that reading, not the URL's own spelling, is what robots.txt
	// disallows: "/private/x" for /a/../private/x or /%70rivate/x (see
	// [Client.Allowed]), or "/caf%C3%A9" for /caf%E9, the path its site
	// spells in Windows-1252 as a robots.txt read converted from that
	// charset spells it (see
	// [github.com/robotsgate/robotstxt/matcher.ServedForms]); else "".
	// Robots.Check reads the spelling alone.
	Served string
	// Usage is what robots.txt says of the URL's content (see
	// [Robots.Usage]) when the outcome is OutcomeRules and the URL is
	// allowed, else the zero Usage. From a Client, it is what the
	// preferences for the URL as spelled and for each normal form a server
	// may serve for it (see [Client.Allowed]) agree on, failing closed: a
	// no of any form counts, a yes only if every form is given it.
	// [Transport.Usage] adds what the response says.
	Usage Usage
	// Deferred reports that robots.txt is unreachable and no usable copy
	// is cached: Allowed is false and the error is a *DeferredError.
	Deferred bool

	// Authority is the normalised authority whose robots.txt applies,
	// such as "https://example.com:443".
	Authority string
	// Outcome is how the robots.txt response was read; the zero Outcome
	// when no decision was made (the error says why).
	Outcome Outcome
	// Status is the HTTP status of the robots.txt response the decision
	// rests on (after redirects), or 0 when none arrived.
	Status int
	// LastStatus is the HTTP status of the most recent fetch (0 when no
	// response arrived; see [DeferredError.Status]), a 304 Not Modified
	// that renewed the copy reading as the copy's: Status, unless a stale
	// copy stands in.
	LastStatus int
	// FinalURL is the robots.txt URL redirects led to, or "" when the
	// authority's own /robots.txt answered, cut to 512 bytes ending in
	// "…" as a [Redirect]'s URL is (a file kept at a longer URL is
	// fetched anew when it expires, not revalidated);
	// [Decision.Redirects] lists the hops with their statuses.
	FinalURL string
	// FetchedAt is when the rules were fetched or last revalidated,
	// CheckedAt when the server was last asked, and Expires when the cached
	// robots.txt goes stale (for a deferred or stale answer: when the
	// server is asked again); FetchedAt and CheckedAt are to the
	// millisecond, rounded down, as every process sharing a Store reads
	// them, by the clock of the process that asked: a copy another wrote
	// may be dated up to a minute past this Client's clock (a Store
	// refuses one dated further).
	FetchedAt, CheckedAt, Expires time.Time
	// ETag and LastModified are the validators the robots.txt is
	// revalidated with (none is sent for a file whose final URL is past
	// the 512 bytes the Client keeps of it: it is fetched anew).
	ETag, LastModified string
	// Stale reports that the answer comes from an expired or last good
	// copy, because the server is unreachable or is being asked again.
	Stale bool
	// Failures counts the consecutive failed fetches of the robots.txt
	// (a failure not asked again within the longest back-off, or
	// [WithUnreachableAllowAfter]'s limit, past its own begins the count
	// anew); Err is the last failure, nil after a successful fetch.
	Failures int
	Err      error
	// CrawlDelay is the crawl-delay robots.txt gives the Client's
	// product tokens (see [Robots.CrawlDelay]; of several, see
	// [WithProductTokens], the longest of those the groups the crawler
	// obeys give each) rounded up to a whole millisecond, or 0 when it
	// gives none.
	CrawlDelay time.Duration

	e    *entry // the cached robots.txt, for Robots
	mode Mode
}

// Robots returns the robots.txt the decision rests on, for what else it
// says (sitemaps, licences, other groups), parsed anew from the cached
// body at each call, so keep the result; nil unless Outcome is
// OutcomeRules and it came from a Client.
func (d Decision) Robots() *Robots {
	if d.e == nil || d.e.outcome != OutcomeRules {
		return nil
	}
	text, err := d.e.text()
	if err != nil {
		return nil
	}
	return ParseMode(text, d.mode)
}

// A Redirect is one redirect a robots.txt fetch followed.
type Redirect struct {
	// Status is the status of the response that redirected: a 3xx other
	// than 304 and 305 (one the Client does not know is followed as a
	// 300).
	Status int
	// URL is where its Location led, with no fragment or credentials,
	// cut to 512 bytes ending in "…" when longer.
	URL string
	// Checked reports that the redirect left the site of the robots.txt
	// fetched for a path other than /robots.txt, so that the Client
	// followed it only once that site's robots.txt allowed it (a check
	// whose decision the Client caches; see [Client.Check]). After a
	// redirect to another site's /robots.txt, the ones within that
	// site, which its own fetch would follow, are not checked.
	Checked bool
}

// Redirects returns the redirects the robots.txt fetch followed, in
// order, the last leading to FinalURL: nil when the authority's own
// /robots.txt answered. The request for the authority's own robots.txt
// answered with the first one's Status, each URL with the next one's.
// It lists at most ten: of more (see [WithMaxRedirects]), the first nine
// and the last.
func (d Decision) Redirects() []Redirect {
	if d.e == nil || d.e.redirects == "" {
		return nil
	}
	var rs []Redirect
	for line := range strings.SplitSeq(d.e.redirects, "\n") {
		rs = append(rs, redirectOf(line))
	}
	return rs
}

// redirectOf reads one line of persisted.redirects.
func redirectOf(line string) Redirect {
	status, url, ok := strings.Cut(line, " ")
	if !ok {
		return Redirect{URL: line}
	}
	status, checked := strings.CutSuffix(status, "*")
	n, _ := strconv.Atoi(status)
	return Redirect{Status: n, URL: url, Checked: checked}
}

// describe fills in what d rests on from e, the cached robots.txt, but
// the deferral, which the check makes (see Client.answer).
func (d *Decision) describe(e *entry, mode Mode) {
	d.Authority, d.Outcome, d.Status, d.LastStatus = e.key, e.outcome, int(e.status), int(e.status)
	if e.redirects != "" {
		d.FinalURL = e.finalURL()
	}
	d.FetchedAt, d.CheckedAt, d.Expires = e.fetched.time(), e.checked.time(), e.expires.time()
	d.ETag, d.LastModified, d.Stale, d.Failures = e.etag, e.lastMod, e.stale, int(e.failures)
	if e.stale || e.outcome == OutcomeUnreachable {
		d.LastStatus = int(e.failStatus)
	}
	if e.stale || e.failures > 0 {
		d.Err = e.cause
	}
	d.CrawlDelay, _ = e.crawlDelay()
	d.e, d.mode = e, mode
}

// ErrDeferred is matched (with errors.Is) by the error returned when
// robots.txt is unreachable and no usable copy is cached: the crawler
// should come back later; errors.As with a *DeferredError tells when.
var ErrDeferred = errors.New("robotstxt: robots.txt unreachable, try later")

// ErrClosed is returned by checks that need a fetch after Close, and by a
// [Transport] for a request whose wait for its turn Close ended.
var ErrClosed = errors.New("robotstxt: client closed")

// A DeferredError says that an authority's robots.txt is unreachable and
// when to come back; from a [Transport], also that it was not yet read
// when the request's deadline came (Failures 0).
type DeferredError struct {
	// Authority is the normalised authority.
	Authority string
	// URL is, from a [Transport], the URL of the request not sent, as
	// [PacedError.URL] is: where a redirect led, under an http.Client
	// that follows redirects, and the one to put back. A Client's check
	// leaves it empty.
	URL string
	// Status is the HTTP status that made it unreachable (429, 503, …), or
	// 0 when no response arrived (a network error or timeout before its
	// header) or none whose status could be read, as of a redirect whose
	// Location net/http cannot parse (it gives the error alone, which
	// says so); a response whose body could not be read, cut by the
	// network or the fetch timeout, keeps its status (200).
	Status int
	// RetryAt is when the Client will ask the server again; checks before
	// then get the same answer from cache. With Failures 0, it is when
	// the fetch under way (a Store look-up and a wait for another
	// process's lease before it) will have ended, at the latest: a check
	// may answer sooner.
	RetryAt time.Time
	// Failures counts the consecutive failed fetches of the authority's
	// robots.txt, this one included, as [Decision].Failures does: 1 on
	// the first, and at most 2^20; 0 when none failed, from a
	// [Transport] whose request's deadline came while robots.txt was
	// being read (looked up or fetched).
	Failures int
	// Err is the underlying failure, if known: a copy that a cache may
	// keep, of its text (errors.Unwrap walks the errors it wrapped, four
	// at most) and of what errors.Is and errors.As tell apart: the
	// context's errors, os.ErrDeadlineExceeded, net.ErrClosed,
	// io.ErrUnexpectedEOF and io.EOF, [ErrNonPublic],
	// a *net.OpError or *net.DNSError, a timeout (net.Error), and a
	// *tls.CertificateVerificationError, x509.UnknownAuthorityError,
	// x509.CertificateInvalidError, tls.AlertError or
	// tls.RecordHeaderError, without the certificates or connection they
	// hold. Read from a [Store], it is the same text (without the
	// errors it wrapped), sentinels and timeout, and of the types only a
	// *net.DNSError's IsNotFound, IsTemporary and IsTimeout, a
	// *net.OpError's Op if "dial", "read" or "write", or
	// "proxyconnect" around any of the errors kept, one of a refused or
	// reset connection (syscall.ECONNREFUSED, syscall.ECONNRESET) or of
	// a TLS alert the server sent (Op "remote error"), a
	// *tls.CertificateVerificationError, an x509.UnknownAuthorityError,
	// an x509.CertificateInvalidError's Reason and a
	// tls.RecordHeaderError, each holding nothing more: the failures a
	// crawler branches on read alike in every process.
	Err error
}

// Error describes the failure and when to retry, with the authority cut
// to 128 bytes and the failure's text to 256.
func (e *DeferredError) Error() string {
	msg := fmt.Sprintf("robotstxt: %s/robots.txt unreachable", capQuote(e.Authority))
	if e.Failures == 0 {
		msg = fmt.Sprintf("robotstxt: %s/robots.txt not yet read", capQuote(e.Authority))
	}
	if e.Status != 0 {
		msg += fmt.Sprintf(" (status %d)", e.Status)
	}
	if e.Err != nil {
		msg += ": " + quote.Cut(e.Err.Error(), maxCauseText)
	}
	return msg + "; retry after " + e.RetryAt.UTC().Format(time.RFC3339)
}

// Unwrap returns ErrDeferred and the underlying failure.
func (e *DeferredError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrDeferred}
	}
	return []error{ErrDeferred, e.Err}
}
