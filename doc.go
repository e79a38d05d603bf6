// Package robotstxt tells a crawler whether it may fetch a URL, reading
// robots.txt exactly as Google's reference parser does (RFC 9309 plus
// Google's tolerance for real-world files), and fetching, caching and
// sharing each site's robots.txt so that a crawler, or a fleet of them,
// asks each site once.
//
// # Which type to use
//
// Most crawlers want a [Client], which fetches and caches each
// authority's robots.txt and answers [Client.Allowed] or [Client.Check].
// A crawler built on net/http (colly included) can instead send its
// requests through a [Transport], which checks every request and redirect
// hop before it is sent and keeps each site's Crawl-delay and Retry-After.
// [Parse] and [Robots] are for a body the caller already has; they do no
// I/O.
//
// A crawler of the open web should connect through [PublicOnly], so that
// no page, redirect or robots.txt can point it at a loopback, private or
// cloud-metadata address, and, in a frontier loop, use [WithNoWait], so
// that a site within its Crawl-delay gives a [PacedError] to requeue
// instead of holding a worker.
//
// Subpackages: parser (the line reader, with diagnostics for linting),
// matcher (single patterns), meta (robots META tags, X-Robots-Tag and
// TDMRep META tags), redisstore (a [Store] on Redis for fleets),
// boltstore (a Store in a bbolt file), storetest (the Store contract),
// botauth (Web Bot Auth request signing, under [NewClientTransport]), and
// the robotstxt command. The module otelrobotstxt exports [Client.Stats] and
// [Transport.Stats] to OpenTelemetry.
//
// # How a file is read
//
// Lines end at LF, CR or CRLF; a UTF-8 byte-order mark (even a partial
// one) is skipped; a line keeps at most 16,663 bytes
// ([github.com/robotsgate/robotstxt/parser.MaxLineLength]); '#' starts a
// comment. Keys are matched case-insensitively by prefix, common typos
// accepted ("useragent", "dissallow", "site-map"), and a line of two
// words without a colon is read as key and value. A bad line is skipped,
// never fatal.
//
// A group is one or more user-agent lines and the rules after them. A
// user-agent value is cut to its product token, the leading run of
// [A-Za-z_-] ("Googlebot/2.1" names Googlebot, "MJ12bot" names MJ), and
// compared case-insensitively. All groups that name the crawler are
// merged; only when none does do the "*" groups apply. Rules before the
// first user-agent line are ignored. Sitemap lines belong to no group;
// other records (crawl-delay, content-signal, ...) are kept in their
// group and never change a decision, nor do Content-Usage rules.
//
// Rule patterns are normalised once (bytes at or above 0x80
// percent-encoded, escapes given upper-case hex) and matched against a
// URL's path, params and query as the request line carries them: as
// given, but that a path with a blank, a byte that is not printable ASCII
// or one of " < > \ ^ ` { | } is decoded and escaped again, as net/http
// sends it (/x{/%70rivate goes as /x%7B/private), bytes above 0x7f in the
// query are escaped, and a blank in the query, which net/http sends as it
// is and servers read as the end of the request, is refused: '*'
// matches any run of bytes, a final '$' anchors the end, and the longest
// matching pattern, in bytes, wins; an allow wins a tie; no match allows.
// An allow of ".../index.html" also allows its directory. Matching never
// backtracks (see package matcher). [ModeRFC9309] reads two points the
// RFC's way: /robots.txt itself is always allowed, and escaped
// unreserved characters are decoded; everything else, Google's tolerance
// and its index.html rule among it, it reads as ModeGoogle does.
//
// Where a request leaves the process, the Client and the Transport add
// one rule: servers such as nginx and Apache decode escapes, merge runs
// of '/' and resolve "." and ".." before they pick what to serve, so
// /public/../private/x, //private/x and /%70rivate/x reach /private/x. A
// URL is allowed only if its spelling and its normal forms are all
// allowed: in the path only (but that a '?' that starts no query is
// dropped, as servers read none: /private.html? is /private.html, and
// is disallowed with it whatever an "Allow: /private.html?" says),
// escapes decoded (but for those of '%', '?',
// '#' and of bytes that are not printable ASCII, kept with upper-case hex
// as rules store them), slashes merged and dot segments removed; once
// with %2F decoded first, as nginx does (and with the '/' a last dot
// segment leaves dropped, as Go's and Python's file servers do), and with
// it kept, as Apache does, which merges before removing dots since 2.4.49
// and after before; and the spelling with its escapes' hex upper-cased
// alone, as rules store them; and each form with a blank or one of
// " < > \ ^ ` { | } as net/http would send it, its escapes decoded and
// escaped again, for a rule written for what is sent (/a/../q%22 is
// served as /q" and sent as /q%22). [Robots.Allowed] and [Robots.Check] stay exactly
// Google's, reading the spelling alone. Readings nginx and Apache do not
// make (';' parameters dropped, '\' read as '/', escapes in a rule's
// pattern decoded: a rule for /tags/c%2B%2B matches that spelling only,
// in either hex case) are not added, since they would refuse URLs those
// servers serve as other, allowed paths; a site served so should
// disallow those spellings too.
//
// # Usage preferences
//
// Sites also say what may be done with what a crawler fetches: in
// robots.txt's Content-Usage rules and Content-Signal records
// ([Robots.Usage], [Decision.Usage]), in a response's headers and META
// tags, and in TDMRep, the EU's opt-out of text and data mining
// ([WithTDMRep]). The package reads them all into the vocabulary of the
// IETF AIPREF drafts, a [Usage]. [Transport.Usage] answers for a
// response; [Transport.Receipt] also lists each [Signal] behind the
// answer, the record a compliance log keeps. None of this changes what
// Allow and Disallow decide.
//
// # How a robots.txt is fetched
//
// The Client fetches scheme://host:port/robots.txt through the caller's
// *http.Client with its User-Agent header. The authority is normalised:
// scheme and host lower-cased, the default port made explicit,
// internationalised names in punycode, IPv6 literals in canonical form
// and IPv4-mapped ones ([::ffff:7f00:1]) as the IPv4 address they are
// dialled as, userinfo dropped. A URL that net/url would reject, that is
// not http or https, whose host ends in a number without being an IPv4
// address in dotted decimal ("127.1", "0x7f.0.0.1", "127.0.0.1."), which
// resolvers read each their own way, is an unspecified address (0.0.0.0,
// [::]), is a name net/http's IDNA lookup refuses (and so dials as
// written) or maps otherwise than the Client's (its Unicode
// normalisation is an older golang.org/x/text's), whose query holds a blank (servers end the request there),
// or whose path and query pass 8 KiB (servers refuse longer), is
// [ErrBadURL]. So is a request URL built by hand whose host holds a
// delimiter or a blank.
//
// Redirects are followed across hosts ([WithMaxRedirects]); the rules
// apply to the authority first asked. A hop that leaves the site (other
// than between http and https, to its www. twin, or to another
// authority's /robots.txt, and then within that authority's site, as its
// own fetch follows) must be allowed by its authority's robots.txt.
// A robots.txt redirected to another authority's /robots.txt takes that
// authority's entry while it holds a fresh one from a server that
// answered, in memory or in the Store (as that authority's own check
// would), and keeps a good answer to the hop as that authority's own
// (after the redirects within its site its own fetch follows too), so
// that the sites redirected there after the first send it nothing; those
// under way at once wait for the first hop's answer while its request
// is out, else up to 2 seconds, at most half of what their fetch has
// left, once for each such file; and look for it again when their paced
// turn comes, or should their own request be cut or time out (in one
// process: a fleet's processes each ask once, and a hop asks beside that
// authority's own check); while that authority's
// own robots.txt fails, within its back-off, or a failure of its own
// whoever asks that such a redirected fetch met (an error status, a
// failure to connect as its name not found, its connections refused,
// its certificate not verified, or an answer the Client cannot read: a
// coding it did not ask for, a part of the file, a redirect it cannot
// follow) is within its back-off, a robots.txt redirected there is unreachable too, and sends it
// nothing, until that authority answers again (to this Client, or to
// another that stored the answer). Every request that leaves the site,
// or that another site's robots.txt, fetched to check a hop, sends back
// into it, takes its turn in that authority's pacing (that of the first
// [Transport] made for the Client, else the Client's in-process one),
// waiting for it within the fetch's timeout, but for one of a
// [Transport.Receipt] or [Transport.Usage], of either site's robots.txt
// or tdmrep.json, into the other site, while the page it reads, sent in
// both sites' turns (a Host at another port, or kept across servers),
// is in flight. A hop that may not be
// sent, or a redirect without a usable http or https Location (one that
// parses and names a host, of at most 16 KiB), leaves the robots.txt
// unreachable, never allow-all, whatever [WithErrorPolicy] says; only
// more than five redirects (a loop followed to the limit) read as no
// robots.txt. One check sends at most 3×(redirects+1) requests, 18 by
// default, the robots.txt files its hops need included, nested at most
// three deep; a robots.txt fetched for another site's hop keeps a good
// answer, or a failure of that site's own whoever asks (as above) for its
// back-off, its last good copy standing in, but no other failure, which
// may be the chain's doing (a timeout, a cut, the bounds above), so that
// no site's chain can leave such a failure on another. [PublicOnly] keeps every
// hop off internal addresses, and a robots.txt it refused defers for the
// longest back-off, with an error matching [ErrNonPublic].
//
// The status decides ([WithStatusPolicy] replaces this mapping):
//
//	2xx                           parse the body (a 206 of part of it:
//	                              unreachable)
//	304 on revalidation           keep the rules, renew their freshness
//	4xx but 429 (401, 403 too)    unavailable: allow everything
//	more than five redirects      unavailable: allow everything
//	a redirect not followed       unreachable (see above)
//	429, 5xx, other codes,        unreachable: the last good copy younger than
//	network errors, timeouts      30 days stands in (until the back-off ends,
//	                              or not at all if it is older by then);
//	                              without one, nothing is allowed and the
//	                              check returns ErrDeferred
//
// The body is read as a browser would: gzip and deflate codings are
// undone (any other, or a body still compressed that no line declared,
// is unreachable, never parsed as text), at most 500 KiB of decoded body
// is read ([WithBodyLimit]), of the line the limit cuts only a disallow
// (its pattern cut short covers more) or a line the parser reads as the
// whole (its comment, or its text past the parser's line limit or a NUL,
// began before the cut) is kept, and the text is converted to UTF-8 (by a UTF-32 or UTF-16
// byte-order mark or NULs, else as UTF-8, else by a Content-Type charset
// that keeps the ASCII directives readable, else as Windows-1252; in
// Windows-1252 and its kin, what the parser reads of a line is kept as it
// is when it is UTF-8: see [github.com/robotsgate/robotstxt/parser.Read]). HTML
// served as robots.txt is parsed like any text; its lines do not match.
//
// # Caching and failure
//
// Rules are fresh for as long as Cache-Control or Expires say, within
// [WithMinFreshness] and [WithMaxFreshness], then revalidated; an
// unreachable robots.txt is asked again after a [WithBackoff]. Concurrent
// checks of a cold authority share one fetch, which a caller that gives
// up does not cancel.
//
// The Client fails closed: a fault never becomes "allow everything" unless
// the status rules above say so. A deferral ([ErrDeferred]) disallows, a
// cut or undecodable body is unreachable, and a Decision returned with an
// error never allows (its Outcome is zero, or OutcomeUnreachable beside a
// [DeferredError]). Every wait is bounded: fetches by the fetch timeout,
// Store calls by the Store timeout, checks by the caller's context, and
// [Client.Close] stops fetches whatever a server does. Error texts quote
// at most 128 bytes of each text a server or file chose, and 256 of an
// underlying failure's. [WithUnreachableAllowAfter] and [WithErrorPolicy]
// let a crawler read a lasting outage or a network error its own way.
//
// The in-memory cache is bounded ([WithCacheSize], [WithCacheBytes]). A
// [Store] adds a shared second level: a fleet of crawlers with one Redis
// (see package redisstore) fetches each robots.txt once between them,
// but for an allow-all their own policies would not give (see [Store]).
package robotstxt
