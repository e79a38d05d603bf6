package match

import "strings"

// Prefix returns the literal start of the rule of pattern, normalised
// (see [Escape]), an allow rule when allow is set: every path the rule
// matches begins with it. It is the pattern up to its first '*' or final
// '$', and for an allow of …/index.html at most its directory.
func Prefix(pattern string, allow bool) string {
	dir := 0
	if allow {
		dir = IndexDir(pattern)
	}
	if dir > 0 {
		pattern = pattern[:dir]
	}
	if i := strings.IndexByte(pattern, '*'); i >= 0 {
		return pattern[:i]
	}
	if dir == 0 && pattern != "" && pattern[len(pattern)-1] == '$' {
		return pattern[:len(pattern)-1]
	}
	return pattern
}

// MatchRule reports whether the rule of pattern, normalised, an allow
// rule when allow is set, matches path, and the length its match weighs:
// the pattern's, or for an allow of …/index.html that matches only its
// directory (as if "Allow: …/$" were there), that of "…/$".
func MatchRule(pattern string, allow bool, path string) (length int, ok bool) {
	if Match(pattern, path) {
		return len(pattern), true
	}
	if allow {
		if d := IndexDir(pattern); d > 0 && matchDir(pattern[:d], path) {
			return d + 1, true
		}
	}
	return 0, false
}
