package match

import "strings"

// Prefix returns the literal start of the rule of pattern, which has been
// normalised (see [Escape]), an allow rule when allow is set: every path
// the rule matches begins with it. It is the pattern up to its first '*'
// or a final '$'; for an allow of …/index.html, which also matches its
// directory, it is at most that directory.
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

// MatchRule reports whether the rule of pattern, which has been
// normalised, an allow rule when allow is set, matches path, and the
// length its match weighs in precedence: the length of the pattern, or
// for an allow of …/index.html that matches only its directory (as if
// "Allow: …/$" were there), the length of that directory pattern.
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
