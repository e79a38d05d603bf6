// Package matcher matches robots.txt patterns against URL paths exactly
// as Google's reference parser and RFC 9309 do, and orders the rules that
// match by precedence; the robotstxt package matches whole files.
// Matching never backtracks: each run of the pattern between '*'s is
// searched for once, after the previous run's match, so a check costs at
// most the path's length times the pattern's, and time linear in both
// unless a run nearly recurs all along the path (strings.Index's worst
// case).
package matcher

import "github.com/robotsgate/robotstxt/internal/match"

// Match reports whether pattern matches path. '*' matches any run of
// bytes, including none; '$' anchors the end of the path, but only as the
// last byte of the pattern. Matching starts at the beginning of path and is
// case-sensitive; an empty pattern matches nothing. The pattern is compared
// as given: normalise a pattern read from a file with [Escape] first, as
// robots.txt rules are.
func Match(pattern, path string) bool { return match.Match(pattern, path) }

// Escape normalises a rule value as Google's parser does: every byte at
// or above 0x80 becomes %XX, and the hex digits of existing escapes are
// upper-cased. Nothing is decoded.
func Escape(pattern string) string { return match.Escape(pattern) }

// Path returns the part of url that rules are matched against: the path,
// ;params and query, always starting with "/" (a URL with no path gives
// "/"), neither decoded nor escaped. url may be absolute,
// scheme-relative ("//host/p") or a path. It cuts url as Google's parser
// does: the authority ends at the first '/', '?' or ';', so that
// "http://x;@example.com/p" gives "/;@example.com/p" where net/url finds
// the host example.com (a crawler passes such a URL's path, behind a
// scheme and host such as "http://h" when it starts with "//": "//a/b"
// alone reads as host a and path /b), and the result ends at a NUL byte,
// which ends a C string.
func Path(url string) string { return match.Path(url) }

// UnescapePath reads a path as RFC 9309 matches it: the escapes of
// unreserved characters (letters, digits and -._~) are decoded and the
// hex digits of the others upper-cased, so that /%7Efred is /~fred while
// %2F stays encoded; '*' and '$', which a pattern matches only escaped,
// become %2A and %24. The robotstxt package's ModeRFC9309 reads paths so,
// and [github.com/robotsgate/robotstxt/parser.ParseRFC9309] patterns.
func UnescapePath(path string) string { return match.UnescapePath(path) }

// ServedForms returns the other paths a server may serve for path (a
// path, ;params and query starting with "/", as [Path] gives it): first,
// when its escapes spell bytes from 0x80 up that are not UTF-8, path and
// query with those read as Windows-1252 and escaped in UTF-8 (/caf%E9 is
// /caf%C3%A9), as a rule of a robots.txt in that charset, read converted
// to UTF-8, names the path its site spells in it, and the forms below of
// that; then the forms nginx and Apache read it as, with the escapes of printable ASCII
// and space decoded but for %3F, %23 and a %25 that could begin another
// escape (%2F in nginx's alone: /50%25off is /50%off, /50%2541 stays) and
// the others' hex upper-cased, doubled slashes merged and "." and ".."
// segments removed, in the order each applies (Apache's both ways: it
// merges first since 2.4.49), and nginx's without a final '/' the path
// does not end in as written (a last dot segment or %2F leaves one),
// as Go's and Python's file servers read it; then the path with only the
// hex of its escapes upper-cased, as a pattern's are; then each of those
// with a blank or one of " < > \ ^ ` { | } as a client sends it, net/url's
// way (its escapes decoded and escaped again: /./q%22 is served as /q"
// and sent as /q%22, which "Disallow: /q%22" names), and as a client
// escaping by hand sends it, its escapes kept (Apache serves
// /./docs%2Fmy%20file as /docs%2Fmy file, sent as /docs%2Fmy%20file,
// where net/url's way decodes the %2F). The query is changed only in
// the Windows-1252 reading and its forms, but for a '?' that starts no
// query, which servers read as none: /private.html? is /private.html,
// which "Disallow: /private.html$" names. It returns nil for a path that is its own form, as most are.
// The robotstxt Client disallows a URL that any of them is disallowed
// by, and of their Content-Usage preferences keeps a no of any, a yes
// only if all are given it.
func ServedForms(path string) []string {
	forms, n := match.NormalForms(path, nil)
	if n == 0 {
		return nil
	}
	return forms[:n:n]
}

// MatchRule reports whether a rule of pattern, normalised, matches path,
// and the length its match weighs in [Precedence]: the pattern's. An
// allow rule of …/index.htm… also matches its directory, as Google's
// parser reads it: "Allow: /d/index.html" matches "/d/" as "Allow: /d/$"
// would, with that rule's length.
func MatchRule(pattern string, allow bool, path string) (length int, ok bool) {
	return match.MatchRule(pattern, allow, path)
}

// Prefix returns the literal start of a rule of pattern, normalised:
// every path the rule matches begins with it. It is the pattern up to its
// first '*' or final '$', and for an allow rule of …/index.htm… at most
// its directory (see [MatchRule]).
func Prefix(pattern string, allow bool) string { return match.Prefix(pattern, allow) }

// Precedence compares two rules that match one path, as RFC 9309 §2.2.2
// orders them and Google's parser applies it: the one whose match weighs
// more (its length, see [MatchRule]) decides, and of two that weigh the
// same, the allow. It returns a negative number when a rule of aLen and
// aAllow decides, a positive one when a rule of bLen and bAllow does, and
// 0 when they tie: then the first in file order decides.
func Precedence(aLen int, aAllow bool, bLen int, bAllow bool) int {
	return match.Precedence(aLen, aAllow, bLen, bAllow)
}
