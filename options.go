package robotstxt

import (
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/robotsgate/robotstxt/internal/agent"
	"github.com/robotsgate/robotstxt/internal/body"
	"github.com/robotsgate/robotstxt/internal/parse"
)

// The defaults of the other options.
const (
	defaultCacheSize    = 10000               // a crawl's active sites, at about 4 KB each
	defaultCacheBytes   = 128 << 20           // a bound no ordinary mix of files reaches before the count
	defaultMaxFreshness = 24 * time.Hour      // RFC 9309 §2.4
	defaultMinFreshness = time.Minute         // no fetch per check from a server that says max-age=0
	defaultFetchTimeout = 10 * time.Second    // what crawlers commonly allow a robots.txt
	defaultMaxRedirects = 5                   // RFC 9309 §2.3.1.2
	defaultStaleWindow  = 30 * 24 * time.Hour // how long Google keeps a last good copy
	defaultBackoff      = time.Minute
	defaultMaxBackoff   = time.Hour
	defaultStoreTimeout = 200 * time.Millisecond // a Store is a cache: slower than a fetch's share, skip it
	defaultLeasePoll    = 50 * time.Millisecond  // a Redis round trip is a fraction of it
	// defaultMaxFetches: fetches of tens of ms to a second each, 64 at once
	// fill hundreds of new sites a second yet hold at most 32 MiB of bodies.
	defaultMaxFetches = 64
	// maxBodyLimit is far beyond any robots.txt, and what Parse keeps of
	// it fits its 256 MiB: a byte grows at most ninefold, a Windows-1252
	// byte made three of UTF-8, each escaped as %XX.
	maxBodyLimit = 16 << 20
)

const (
	leaseMargin   = 5 * time.Second // lease TTL beyond the fill's Store calls and fetch
	retryingPause = time.Second     // RetryAt of a deferral being retried
	tdmrepPath    = "/.well-known/tdmrep.json"
	// tdmrepShare is the part of the byte budget the tdmrep.json cache
	// takes: the few sites that have one keep files of a few hundred bytes.
	tdmrepShare = 8
)

// An Option configures a Client. NewClient applies options in order;
// each documents its default. An option given a value it cannot take (a
// negative size or duration, a nil client, policy or clock) panics when
// it is made.
type Option func(*config)

type config struct {
	httpClient          *http.Client
	userAgent           string
	tokens              []string
	from                string
	cacheSize           int
	cacheBytes          int64
	maxFresh, minFresh  time.Duration
	fetchTimeout        time.Duration
	bodyLimit           int64
	maxRedirects        int
	maxFetches          int
	staleWindow         time.Duration
	backoff, maxBackoff time.Duration
	policy              func(status int) Outcome
	errPolicy           func(err error) Outcome // nil: every failure is OutcomeUnreachable
	allowAfter          time.Duration
	mode                Mode
	store               Store
	storeTimeout        time.Duration
	leaseWait           time.Duration
	leaseWaitSet        bool
	leasePoll           time.Duration
	tdmrep              bool
	logger              *slog.Logger
	now                 func() time.Time
	clockSet            bool
}

func defaultConfig() config {
	return config{
		userAgent:    agent.DefaultUserAgent,
		cacheSize:    defaultCacheSize,
		cacheBytes:   defaultCacheBytes,
		maxFresh:     defaultMaxFreshness,
		minFresh:     defaultMinFreshness,
		fetchTimeout: defaultFetchTimeout,
		bodyLimit:    body.DefaultLimit,
		maxRedirects: defaultMaxRedirects,
		maxFetches:   defaultMaxFetches,
		staleWindow:  defaultStaleWindow,
		backoff:      defaultBackoff,
		maxBackoff:   defaultMaxBackoff,
		policy:       defaultStatusPolicy,
		storeTimeout: defaultStoreTimeout,
		leasePoll:    defaultLeasePoll,
		now:          time.Now,
	}
}

// WithHTTPClient makes the Client fetch robots.txt through a copy of *hc,
// sharing its Transport; hc.CheckRedirect is ignored (see
// [WithMaxRedirects]), and so is hc.Jar: a robots.txt fetch sends no
// cookies and keeps none, since a redirect may take it to a site the
// file's owner chose. Its Transport must not follow redirects itself (an
// http.Client used as a RoundTripper does): a hop it followed was not
// checked, and the robots.txt is unreachable (as [NewTransport] tells
// one). By default the Client
// fetches through http.DefaultTransport (see [NewTransport] and
// [NewClientTransport]). It panics if hc is nil.
func WithHTTPClient(hc *http.Client) Option {
	if hc == nil {
		panic("robotstxt: WithHTTPClient(nil)")
	}
	return func(c *config) { c.httpClient = hc }
}

// inRange panics, unless ok, with a message naming an option and the
// value it was given that it cannot take.
func inRange(ok bool, option string, v any) {
	if !ok {
		panic(fmt.Sprintf("robotstxt: %s(%v): out of range", option, v))
	}
}

// WithUserAgent sets the User-Agent header sent with every robots.txt
// request, and with every page a [Transport] sends without one (default
// "robotstxt/1.0 (+https://github.com/robotsgate/robotstxt)"). Unless
// [WithProductTokens] is given, the product token, [A-Za-z_-]+ (RFC 9309
// §2.2.1), is derived from it: the first product's name ("ExampleBot/1.0"
// gives ExampleBot), or, skipping browser products such as Mozilla, the
// one after "compatible;" ("Mozilla/5.0 (compatible; XBot/1.0)" gives
// XBot), else the first product that is not a browser's ("Mozilla/5.0
// (X11) Gecko/20100101 XBot/2" gives XBot). A header that gives none, such as "123bot/1.0", "Mozilla/5.0
// (compatible; MJ12bot/v1.4)" (the crawler's own name is no token: a
// later product's would be another's) or a plain browser string, makes
// every check fail with [ErrProductToken]; one
// net/http cannot send, such as one holding a line break, makes every
// check fail with an error saying so, as no fetch could be made.
func WithUserAgent(ua string) Option {
	return func(c *config) { c.userAgent = ua }
}

// WithProductTokens sets the product tokens matched against user-agent
// lines, overriding the one derived from the User-Agent header. A crawler
// known by several tokens names them all, most specific first (such as
// "Googlebot-Image", "Googlebot"): the groups that name any of them apply,
// merged. There must be at least one, each [A-Za-z_-]+, or every check
// fails with [ErrProductToken]. They are the crawler's, whatever the
// User-Agent sent says: a [Transport] sends requests with the Client's
// own User-Agent unchecked against them, so one naming another crawler
// ("ExampleBot/1.0" with tokens "XBot") fetches pages as ExampleBot that
// only XBot's groups were read for.
func WithProductTokens(tokens ...string) Option {
	return func(c *config) { c.tokens = append([]string{}, tokens...) }
}

// WithFrom sets the From header (an e-mail address for the crawler's
// operator) sent with every robots.txt request. By default none is sent.
// One net/http cannot send makes every check fail, as [WithUserAgent]'s.
func WithFrom(email string) Option {
	return func(c *config) { c.from = email }
}

// WithCacheSize bounds the in-process cache to n authorities (default
// 10,000). The least recently used authority is evicted first. So that a
// hit takes no lock, uses are noted in batches: of the authorities used
// since the last batch was applied (up to 1,024 uses, or until the cache
// next changes), each ranks by its first use in the batch.
func WithCacheSize(n int) Option {
	inRange(n >= 1, "WithCacheSize", n)
	return func(c *config) { c.cacheSize = n }
}

// WithCacheBytes bounds what the in-process cache retains to n bytes
// (default 128 MiB): each entry's parsed rules, its compressed body and
// bookkeeping. Over n, the least recently used authorities are frozen:
// they drop their parsed rules and keep their body, which a later check
// parses again without a fetch ([Stats] counts Frozen and Thaws). Once
// frozen bodies hold half of n (or every entry but the most recent is
// frozen), the least recently used frozen ones are evicted instead, so
// that the sites in use keep their rules as long as they need less than
// half of n, bodies included: more, beside frozen bodies no check uses,
// and each check of one parses it again. An authority whose rules alone
// exceed n keeps only its body, and each of its checks parses it.
// [WithTDMRep]'s cache of tdmrep.json files takes a further eighth of n.
func WithCacheBytes(n int64) Option {
	inRange(n >= 1, "WithCacheBytes", n)
	return func(c *config) { c.cacheBytes = n }
}

// WithMaxFreshness caps how long a fetched robots.txt is used before it is
// revalidated (default 24 hours, as RFC 9309 asks), and is the freshness
// of responses without caching headers.
func WithMaxFreshness(d time.Duration) Option {
	inRange(d > 0, "WithMaxFreshness", d)
	return func(c *config) { c.maxFresh = d }
}

// WithMinFreshness sets the shortest time a fetched robots.txt is used
// before the server is asked again (default one minute), so that one
// answering max-age=0, no-cache, a past Expires or an unreadable
// Cache-Control (stale by RFC 9111 §4.2.1) is not fetched on every check.
// Zero asks on every check. It never exceeds the freshness cap.
func WithMinFreshness(d time.Duration) Option {
	inRange(d >= 0, "WithMinFreshness", d)
	return func(c *config) { c.minFresh = d }
}

// WithFetchTimeout bounds one robots.txt fetch, redirects and body
// included (default 10 seconds); one that times out is unreachable.
func WithFetchTimeout(d time.Duration) Option {
	inRange(d > 0, "WithFetchTimeout", d)
	return func(c *config) { c.fetchTimeout = d }
}

// WithBodyLimit sets how many bytes of a robots.txt body are read, after
// content decoding (default 500 KiB, the minimum RFC 9309 allows); the
// rest is ignored. A body in a content coding is read only as far as its
// text earns (64 KiB, and 32 bytes for each byte it decodes to), and never
// past four times the limit and 64 KiB: one that runs on past that, as only padding such as empty gzip members makes
// it, is unreachable. Limits above 16 MiB read as 16 MiB, so
// that math.MaxInt64 says "no limit": the rules of a body of that size
// are always kept whole (see [Parse]).
func WithBodyLimit(n int64) Option {
	inRange(n >= 1, "WithBodyLimit", n)
	n = min(n, maxBodyLimit)
	return func(c *config) { c.bodyLimit = n }
}

// WithMaxRedirects sets how many consecutive redirects are followed
// (default 5). A robots.txt behind more redirects is treated as
// unavailable, which allows everything. Zero follows none.
func WithMaxRedirects(n int) Option {
	inRange(n >= 0, "WithMaxRedirects", n)
	return func(c *config) { c.maxRedirects = n }
}

// WithMaxFetches bounds the robots.txt fetches a Client runs at once
// (default 64), fetches its callers gave up on included, and waits for
// another process's fetch under a Store's lease (see [WithLeaseWait]). A
// check that needs a fetch when all n are under way waits for one to end,
// or returns its context's error; but a copy that expired less than the
// freshness cap ago (see [WithMaxFreshness]) answers it at once, marked
// Stale in its [Decision], as does a failure still in memory (which
// defers), as they answer a check that gives up waiting for its fetch. A
// redirect hop's fetch runs within its fetch's turn, and the fetches of a
// page's [Transport.Receipt] or [Transport.Usage] while it holds two
// sites' turns (see [Transport]) within none. It panics if n < 1.
func WithMaxFetches(n int) Option {
	inRange(n >= 1, "WithMaxFetches", n)
	return func(c *config) { c.maxFetches = n }
}

// WithStaleWindow sets how old a last good copy of robots.txt may be to
// stand in while the host is unreachable (default 30 days). A copy whose
// window ends before the back-off of a failure (see [WithBackoff]) does
// not stand in for it: the check defers until the host is asked again.
// For a failure read as allow-all ([WithUnreachableAllowAfter], an
// error policy's), which answers for more, it stands in to its window's
// end, when the host is asked again, before that back-off ends.
func WithStaleWindow(d time.Duration) Option {
	inRange(d >= 0, "WithStaleWindow", d)
	return func(c *config) { c.staleWindow = d }
}

// WithBackoff sets how long an unreachable result is cached before the
// host is asked again: base after the first failure, doubling with each
// further consecutive failure up to limit (defaults 1 minute and 1 hour). A
// Retry-After header replaces it, up to the longer of limit and the
// freshness cap; past the first failure it waits at least the back-off of
// the failures before, so that a host failing again when it said to come
// back (a Retry-After of 0) is not asked every second.
func WithBackoff(base, limit time.Duration) Option {
	inRange(base > 0 && limit >= base, "WithBackoff", fmt.Sprint(base, ", ", limit))
	return func(c *config) { c.backoff, c.maxBackoff = base, limit }
}

// WithStatusPolicy replaces the mapping from the HTTP status of a final
// robots.txt response to an outcome; redirects (every 3xx but 304 and
// 305), and a 304 Not Modified to the Client's revalidation, are handled
// before it. The default
// follows RFC 9309 (see the package documentation); [LegacyStatusPolicy]
// reads 401 and 403 as disallow all.
// An outcome a response cannot have (the zero Outcome, or none of the
// named ones) counts as OutcomeUnreachable.
func WithStatusPolicy(p func(status int) Outcome) Option {
	if p == nil {
		panic("robotstxt: WithStatusPolicy(nil)")
	}
	return func(c *config) { c.policy = p }
}

// WithErrorPolicy replaces the mapping from a robots.txt fetch that got no
// response (a DNS or TLS failure, a refused or reset connection, a
// timeout) to an outcome: by default OutcomeUnreachable, as RFC 9309
// §2.3.1.4 asks. errors.As finds a *net.DNSError or *net.OpError in the
// HTTP client's error; an archiver may return OutcomeAllowAll for a host
// that no longer resolves. OutcomeRules counts as OutcomeUnreachable, as
// does any outcome for a connection [PublicOnly] refused or an answer the
// server began (it sent a byte of it), whether net/http could not read it
// or the clock or the network cut it. With a
// [Store], p is also asked of another process's failure, with an error
// that holds its text and what errors.Is and errors.As tell of it (the
// Store keeps its class: a timeout, a name not found, a refused or reset
// connection, a TLS alert, a certificate; its kind: a resolver's failure
// (temporary, timed out), a dial's, a read's or a write's, one of the
// HTTP client's proxy, an x509.UnknownAuthorityError, an
// x509.CertificateInvalidError's Reason, a tls.RecordHeaderError, not an
// x509.HostnameError; see [DeferredError]'s Err):
// the Client takes that process's allow-all only if p allows all then
// too, and its failure (a last good copy standing in, an outage's
// allow-all) only if p would not have disallowed all (of an outage, p is
// asked once of each class and kind, as the Store keeps only the last
// failure, and its answers kept: p must answer alike for alike errors);
// otherwise it fetches itself, and counts an outage from its own first
// failure, while the failures it writes to the Store go on from the
// outage recorded there (see [WithUnreachableAllowAfter]). Such an
// allow-all is a failure all the same: a good copy younger than
// [WithStaleWindow] stands in for it, it is asked again on the
// [WithBackoff] back-off, and as no copy of a robots.txt it never stands
// in for a later failure, and a receipt resting on it fails closed. A disallow-all p gives is a failure too,
// in the Decision's Failures and Err and asked again on the back-off,
// and no copy stands in for it.
func WithErrorPolicy(p func(err error) Outcome) Option {
	if p == nil {
		panic("robotstxt: WithErrorPolicy(nil)")
	}
	return func(c *config) { c.errPolicy = p }
}

// WithUnreachableAllowAfter sets what happens to an authority whose
// robots.txt stays unreachable with no usable copy: by default (d = 0) its
// URLs are deferred for as long as that lasts. With d > 0, once that has
// lasted d, the authority is crawled as if it had no robots.txt
// (OutcomeAllowAll) while the Client keeps asking on its back-off, as
// Google documents with d = 30 days. The outage counts from the first
// failure any process sharing the Store recorded, on its clock (the
// Store keeps it for d and the back-off: a Store must keep a TTL so
// long): keep d well above a fleet's clock skew. An outage no check asks
// of for that long past a failure's back-off (the longer of d and the
// longest back-off) is forgotten, in memory as in the Store, and the next
// failure begins one anew: failures further apart, nothing seen between,
// are no one outage. A failure that is the Client's own
// refusal is no outage and never allows all, and an outage counts from
// the last: a hop that may not be sent, a Location it cannot follow, an
// answer it cannot read (a body in a coding it cannot read, a part of
// the file), an address [PublicOnly] refuses. An answer the network or
// the clock cuts is an outage's (but a header net/http reads as
// malformed, as it reads some cut within a line), and so is an HTTP/2
// stream its server resets but for a fault of the protocol.
func WithUnreachableAllowAfter(d time.Duration) Option {
	inRange(d >= 0, "WithUnreachableAllowAfter", d)
	return func(c *config) { c.allowAfter = d }
}

// WithMode selects how fetched files are parsed and matched: [ModeGoogle]
// (default) or [ModeRFC9309].
func WithMode(m Mode) Option {
	inRange(m == ModeGoogle || m == ModeRFC9309, "WithMode", m)
	return func(c *config) { c.mode = m }
}

// WithStore adds a shared second-level cache, consulted on a memory miss
// and written after every fetch. If s also implements [Leaser], processes
// sharing s fetch each robots.txt once between them.
func WithStore(s Store) Option {
	return func(c *config) { c.store = s }
}

// WithStoreTimeout bounds every Store call (default 200 ms); a slower one
// counts as failing, and the Client goes on without it. A check whose
// deadline comes sooner returns at its deadline, and leaves the call to
// run on to the timeout, so that a Store that hangs reads as failing;
// with no fresh copy found, the call then starts a fetch of robots.txt
// if a fetch slot is free (see [WithMaxFetches]), for the next check to
// answer from; a check that cannot wait for it answers from an expired
// copy that may stand in, as for a copy in memory.
func WithStoreTimeout(d time.Duration) Option {
	inRange(d > 0, "WithStoreTimeout", d)
	return func(c *config) { c.storeTimeout = d }
}

// WithLeaseWait bounds how long a Client waits for another process
// holding the Store lease on an authority to publish its result before
// it fetches the robots.txt itself, polling every poll (default 50 ms;
// zero keeps it) for the result, or for the lease, which it takes when
// the holder gives it up without one or its TTL lapses, and once more
// at the end of the wait. The default wait outlasts the lease of a
// holder that died while holding it (the fetch timeout, twice the Store
// timeout and 5 s), and then one more look-up, fetch and write, so that
// one waiter takes such a lease over and the others find its result;
// a shorter wait has every waiter fetch at its end.
func WithLeaseWait(wait, poll time.Duration) Option {
	inRange(wait >= 0 && poll >= 0, "WithLeaseWait", fmt.Sprint(wait, ", ", poll))
	return func(c *config) {
		c.leaseWait, c.leaseWaitSet = wait, true
		if poll > 0 {
			c.leasePoll = poll
		}
	}
}

// WithTDMRep makes the Client fetch, cache and share each authority's
// /.well-known/tdmrep.json (W3C TDMRep) as it does robots.txt, in a cache
// of its own bounded by the entry count and an eighth of the byte budget,
// so that [Transport.Receipt] and [Transport.Usage] read its
// reservations. Unlike robots.txt, the file and each redirect must be
// allowed by robots.txt; like it, a request within the site takes no
// pacing turn (one per freshness lifetime: a receipt made as a page's
// body is read must not wait for that page's turn). While the file is
// unreachable with no usable copy, not allowed, over 256 KiB (never read
// in part, whatever [WithBodyLimit] says of robots.txt), or neither in
// UTF-8, as JSON is, nor read without U+FFFD in the charset its
// Content-Type names or its byte-order mark tells (a U+FFFD of its own
// cannot be told from a byte not of that charset), it reads as a
// reservation (train-ai=n); a page served for it (markup, in any charset
// and at any length) or an empty body is no file, as a 404 is. A file
// behind more redirects than
// [WithMaxRedirects] allows reads, as robots.txt does, as none: only the
// site itself can send its file round so.
func WithTDMRep() Option {
	return func(c *config) { c.tdmrep = true }
}

// WithLogger sets where the Client and its Transports log: fetch failures
// (once per authority and back-off), Store errors (rate-limited), panics
// in a fill (a caller's RoundTripper, Store or Pacer; at Error level, with
// the stack, raised in its checks too), and at Debug level every fetch
// and every request a Transport refuses or holds, durations as Go
// duration strings ("1m30s"). The default discards everything. A panic in
// l's handler drops the record: the Client logs from goroutines of its
// own, where nothing could recover it.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// WithClock replaces time.Now, for tests that move time forward.
func WithClock(now func() time.Time) Option {
	if now == nil {
		panic("robotstxt: WithClock(nil)")
	}
	return func(c *config) { c.now, c.clockSet = now, true }
}

// ErrProductToken is wrapped by the error of every check made by a Client
// without a usable product token (see [WithUserAgent] and
// [WithProductTokens]): it decides nothing rather than obey another
// crawler's group.
var ErrProductToken = agent.ErrProductToken

// checkTokens returns an error wrapping ErrProductToken unless every token
// is a product token.
func checkTokens(tokens []string) error {
	if len(tokens) == 0 {
		return fmt.Errorf("%w: no token given", ErrProductToken)
	}
	for _, t := range tokens {
		if !parse.ValidToken(t) {
			return fmt.Errorf("%w: %q is not a product token ([A-Za-z_-]+)", ErrProductToken, t)
		}
	}
	return nil
}
