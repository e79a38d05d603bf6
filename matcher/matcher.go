// Package matcher matches single robots.txt patterns against URL paths
// exactly as Google's reference parser and RFC 9309 do; the robotstxt
// package matches whole files. Matching never backtracks: a check costs
// time linear in the lengths of the pattern and the path.
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
