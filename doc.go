// Package robotstxt tells a crawler whether it may fetch a URL, reading
// robots.txt exactly as Google's reference parser does (RFC 9309 plus
// Google's tolerance for real-world files), and fetching, caching and
// sharing each site's robots.txt so that a crawler, or a fleet of them,
// asks each site once.
//
// # Which type to use
//
// Most crawlers want a [Client]: it fetches /robots.txt once per
// authority, caches it by its HTTP freshness, maps failures to the
// behaviour RFC 9309 asks for, and answers [Client.Allowed] or
// [Client.Check] in well under a microsecond once warm:
//
//	c := robotstxt.NewClient(robotstxt.WithUserAgent("ExampleBot/1.0 (+https://example.com/bot)"))
//	defer c.Close()
//	ok, err := c.Allowed(ctx, "https://example.com/some/page")
//
// A crawler built on net/http (colly included) can instead send its
// requests through a [Transport]: every request and every redirect hop is
// checked before it is sent, and requests to one site keep its
// Crawl-delay and Retry-After. Nothing disallowed leaves the process.
//
// [Parse] and [Robots] are for a body the caller already has: a tool, a
// test, or a crawler with its own fetching. They do no I/O. A [Robots]
// keeps the groups of the first crawler it checks at hand, the fast way
// to check many URLs against one file.
//
// A crawler of the open web should connect through [PublicOnly], so that
// no page, redirect or robots.txt can point it at a loopback, private or
// cloud-metadata address, and, in a frontier loop, use [WithNoWait]: a
// request whose site is within its Crawl-delay returns a [PacedError] at
// once, to be requeued, instead of holding a worker.
//
// Subpackages: parser (the line reader, with diagnostics for linting),
// matcher (patterns and their escapes), meta (robots META tags and
// X-Robots-Tag), redisstore (a [Store] on Redis for fleets), boltstore (a
// Store in a bbolt file, for one process that restarts), storetest (the
// contract every Store passes), botauth (Web Bot Auth: a crawler that
// signs its requests, robots.txt fetches included, by composing
// botauth.NewTransport under [NewClientTransport]), and the robotstxt
// command in cmd/robotstxt. The module otelrobotstxt exports [Client.Stats] and
// [Transport.Stats] to OpenTelemetry.
//
// # How a file is read
//
// A body is read as Google's parser reads it. Lines end at LF, CR or CRLF;
// a UTF-8 byte-order mark (also a partial one) is skipped; a line keeps at
// most 16,663 bytes ([github.com/robotsgate/robotstxt/parser.MaxLineLength]); '#' starts a comment. Keys
// are matched case-insensitively by prefix, with common typos accepted
// ("useragent", "dissallow", "site-map"), and a line of two words without
// a colon is read as key and value. A bad line is skipped, never fatal.
//
// A group is one or more user-agent lines and the rules after them. A
// user-agent value is cut to its product token, the leading run of
// [A-Za-z_-] ("Googlebot/2.1" names Googlebot, "MJ12bot" names MJ), and
// compared case-insensitively. All groups that name the crawler are
// merged; only when none does do the "*" groups apply. Rules before the
// first user-agent line are ignored. Sitemap lines belong to no group;
// other records (crawl-delay, host, clean-param, content-signal, ...) are
// kept, scoped to their group, and never change a decision; nor do
// Content-Usage rules (see "Usage preferences" below).
//
// A URL is matched by its path, params and query. Rule patterns are
// normalised once: bytes at or above 0x80 are percent-encoded, and
// existing escapes get upper-case hex; the URL is compared as given (the
// Client escapes only bytes that are not printable ASCII, as a fetcher
// sends them, and keeps every existing escape byte for byte). '*' matches
// any run of bytes, and '$' at the end of a pattern anchors the end. The
// longest matching pattern wins, counted in bytes of the normalised
// pattern; an allow wins a tie; no match allows. An allow of
// ".../index.html" also allows its directory. Matching never backtracks:
// a check costs time linear in the path for each pattern that can match.
//
// The Client and the Transport add one rule where a request leaves the
// process: servers such as nginx and Apache decode every escape, in
// either hex case, merge runs of '/' and resolve "." and ".." before they
// pick what to serve, so /public/../private/x, //private/x, /%70rivate/x,
// /wiki/Special%3aRandom and /tags/c%2B%2B reach /private/x,
// /wiki/Special:Random and /tags/c++. A URL is allowed only if its
// spelling and its normal forms are all allowed: in the path only,
// escapes decoded (but those of '%', '?', '#' and of bytes that are not
// printable ASCII, which keep their escape with upper-case hex, as rules
// store them), slashes merged and dot segments removed; once with %2F
// decoded to '/' first, as nginx reads a path, and once with it kept, as
// Apache does. The query is read as it is. What is checked is what the
// request line carries: a Transport reads the request target net/http
// writes, a '#' in the query included. [Robots.Allowed] and
// [Robots.Check] stay exactly Google's, reading the spelling alone.
// Readings that nginx and Apache do not make are not added, since they
// would refuse URLs those servers serve as other, allowed paths: ';'
// parameters dropped (servlet containers), '\' read as '/' (IIS), and
// escapes in a rule's pattern decoded (a rule for /tags/c%2B%2B matches
// that spelling only, as in Google's parser); a site served so should
// disallow those spellings too.
//
// [ModeRFC9309] reads the two points where RFC 9309 and Google's parser
// differ the RFC's way: /robots.txt itself is always allowed, and
// percent-encoded unreserved characters are decoded on both sides
// (/%7Efred is /~fred; %2F stays encoded).
//
// # Usage preferences
//
// robots.txt can also say what may be done with what a crawler fetches.
// The IETF AIPREF drafts add a Content-Usage rule to a group, with an
// optional path and a statement of preference in their vocabulary:
//
//	User-agent: *
//	Disallow: /never/
//	Content-Usage: train-ai=n
//	Content-Usage: /ai-ok/ train-ai=y
//
// [Robots.Usage] and [Decision.Usage] read these rules as a [Usage], whose
// [Usage.Pref] answers for one label ("train-ai", training AI models;
// "search", search applications: the labels of the vocabulary)
// [PrefYes], [PrefNo] or [PrefUnknown]. Content-Usage rules merge across
// the groups that name a crawler as Allow and Disallow do; for a URL the
// rule with the longest matching path decides, matched as Allow and
// Disallow patterns are (a rule without a path matches every URL, with
// length 0), and rules matching with the same length combine label by
// label, n before y. Preferences apply only to URLs the crawler may
// fetch: for a disallowed URL every label is unknown. A statement is an
// RFC 9651 Dictionary in which only the Tokens y and n count; one that
// does not parse states nothing. A statement may be as long as a
// robots.txt line, with as many members as fit (far more than the 1,024
// RFC 9651 asks parsers to accept).
//
// Content-Usage lines never change what Allow and Disallow decide: like
// the lines Google's parser does not know, they do not end a group's
// user-agent lines, so that a user-agent line right after Content-Usage
// lines, with no Allow or Disallow between, joins their group, whose
// rules of both kinds then apply to it (the robotstxt command's lint
// warns of it).
//
// [Transport.Usage] gives the whole answer for a response: robots.txt's
// preferences for the request's URL, the response's Content-Usage header
// field, and the signals that came before the vocabulary mapped to
// "train-ai=n" (X-Robots-Tag noai, noimageai on an image, and the W3C
// TDMRep header tdm-reservation: 1), combined with a "no" from any of
// them winning. Cloudflare's Content-Signal records ("Content-Signal:
// search=yes, ai-train=no"), a vocabulary of their own, are read by
// [Robots.ContentSignal]: a record belongs to its group, one before the
// first user-agent line to every crawler.
//
// # How a robots.txt is fetched
//
// The Client fetches scheme://host:port/robots.txt through the caller's
// *http.Client (so keep-alive connections are reused), with its
// User-Agent header, following up to five redirects across hosts; the
// rules apply to the authority first asked. The authority is normalised:
// scheme and host lower-cased, the default port made explicit,
// internationalised names in punycode, userinfo dropped. A URL that
// net/url would reject, or that is not http or https, is [ErrBadURL].
//
// Up to five redirects are followed (RFC 9309 §2.3.1.2), but a hop is a
// request like any other, sent under the crawler's name, so a site
// cannot use its robots.txt to make the Client request what another site
// disallows. A hop that stays on the site is followed as it is: to
// another path of the same authority, from http to https, from a host to
// its www. twin. So is a hop to another authority's own /robots.txt. Any
// other hop must be allowed by its authority's robots.txt (which the
// Client fetches for it), and takes its turn in the pacing of that
// authority's pages (the Pacer and intervals of the first [Transport]
// made for the Client, else an in-process one), within the fetch's
// timeout. A hop that may not be sent, and a redirect without a usable
// http or https Location, leave the robots.txt unreachable, never
// allow-all; only more than five redirects, or a loop, read as no
// robots.txt. [PublicOnly] keeps every hop off internal addresses.
//
// The status decides ([defaultStatusPolicy], replaceable):
//
//	2xx                           parse the body
//	304 on revalidation           keep the rules, renew their freshness
//	4xx but 429 (401, 403 too)    unavailable: allow everything
//	more than five redirects      unavailable: allow everything
//	a redirect not followed       unreachable (see above)
//	429, 5xx, other codes,        unreachable: the last good copy younger than
//	network errors, timeouts      30 days stands in; without one, nothing is
//	                              allowed and the check returns ErrDeferred
//
// The body is read as a browser would: gzip and deflate content codings are
// undone (any other coding is unreachable: bytes that cannot be read are
// never parsed as text), at most 500 KiB of the decoded body is read and
// the line the limit cuts is dropped, and the text is converted to UTF-8
// (a UTF-16 byte-order mark, or UTF-16's NULs, else UTF-8, else the
// Content-Type charset, else Windows-1252; a charset label that would
// read the ASCII directives as something else is not believed). HTML
// served as robots.txt is parsed like any text; its lines simply do not
// match.
//
// # Caching and failure
//
// Rules are fresh for as long as Cache-Control or Expires say, at least a
// minute ([WithMinFreshness]) and at most 24 hours ([WithMaxFreshness]),
// then revalidated with the server's validators. Concurrent checks of a
// cold authority share one fetch; a caller that gives up does not cancel
// it. An unreachable robots.txt is asked again after a back-off that
// doubles up to an hour, or after the server's Retry-After.
//
// The Client fails closed. A fault never becomes "allow everything"
// unless the status rules above say so: a deferral ([ErrDeferred], with a
// [DeferredError] saying when to come back) disallows, a cut or undecodable
// body is unreachable, and a Decision returned with an error never
// allows: it has the zero Outcome, or OutcomeUnreachable beside a
// DeferredError. Every wait is bounded: fetches by the fetch timeout, Store
// calls by the Store timeout, checks by the caller's context, and
// [Client.Close] stops fetches whatever a server does. So is what waits:
// a check that gives up leaves its fetch to the others that need it, but
// at most 64 fetches run at once ([WithMaxFetches]), so callers with short
// deadlines cannot pile them up. Error texts quote at most 128 bytes of
// each URL, host or pattern a server or file chose, and 256 of an
// underlying failure's text. A site that stays
// unreachable with no usable copy is deferred for as long as that lasts;
// [WithUnreachableAllowAfter] gives Google's documented behaviour instead
// (after 30 days, crawl as if there were no robots.txt), and
// [WithErrorPolicy] lets an archiver read network errors its own way.
//
// The in-memory cache is bounded by an entry count and a byte budget
// ([WithCacheSize], [WithCacheBytes]), least recently used first. Each
// authority keeps its rules for the Client's product tokens and its body,
// compressed; under the byte budget, entries first drop their parsed
// rules and keep only the compressed body, parsed again without a fetch
// when next checked; only then are they evicted. A
// [Store] adds a shared second level: a fleet of crawlers with one Redis
// (see package redisstore) fetches each robots.txt once between them, and a
// failing Store is skipped, never fatal.
package robotstxt
