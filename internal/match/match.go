// Package match implements robots.txt pattern matching, which package
// matcher exports and documents. Matching never backtracks: a pattern is
// literal segments separated by '*', each found at its leftmost place
// after the previous one, which is exact when '*' is the only wildcard.
package match

import (
	"strings"

	"github.com/robotsgate/robotstxt/internal/ascii"
)

// Match is [github.com/robotsgate/robotstxt/matcher.Match].
func Match(pattern, path string) bool {
	if pattern == "" {
		return false
	}
	pat, end := strings.CutSuffix(pattern, "$")
	return match(pat, ascii.IndexByte(pat, '*'), path, end, nil)
}

// match matches pat, a pattern without its final '$' whose first '*' is
// at star (-1 for none); end says the match must reach the end of path. A
// non-nil steps counts the bytes searched, for tests of linear time.
func match(pat string, star int, path string, end bool, steps *int) bool {
	if star < 0 {
		if end {
			return path == pat
		}
		return strings.HasPrefix(path, pat)
	}
	if !strings.HasPrefix(path, pat[:star]) {
		return false
	}
	pos := star
	pat = pat[star+1:]
	for {
		j := ascii.IndexByte(pat, '*')
		if j < 0 {
			break
		}
		if seg := pat[:j]; seg != "" {
			k := strings.Index(path[pos:], seg)
			if k < 0 {
				count(steps, len(path)-pos)
				return false
			}
			count(steps, k+len(seg))
			pos += k + len(seg)
		}
		pat = pat[j+1:]
	}
	// pat is the last segment: it matches at the end, or after pos.
	if end {
		count(steps, len(pat))
		return len(path)-pos >= len(pat) && strings.HasSuffix(path, pat)
	}
	count(steps, len(path)-pos)
	return strings.Contains(path[pos:], pat)
}

func count(steps *int, n int) {
	if steps != nil {
		*steps += n
	}
}

// IndexDir returns the length of the directory part of an allow pattern
// that Google's parser widens to its directory ("/d/" of /d/index.html),
// or 0 for any other (see [MatchRule]).
func IndexDir(pattern string) int {
	i := strings.LastIndexByte(pattern, '/')
	if i < 0 || !strings.HasPrefix(pattern[i:], "/index.htm") {
		return 0
	}
	return i + 1
}

// matchDir reports whether the directory rule dir+"$" matches path.
func matchDir(dir, path string) bool {
	return match(dir, strings.IndexByte(dir, '*'), path, true, nil)
}
