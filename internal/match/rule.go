package match

import "strings"

// Prefix is [github.com/robotsgate/robotstxt/matcher.Prefix].
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

// MatchRule is [github.com/robotsgate/robotstxt/matcher.MatchRule].
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
