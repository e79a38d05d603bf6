package match

import (
	"strings"

	"github.com/robotsgate/robotstxt/internal/ascii"
)

// escapeClass tells EscapePath what to do with each byte: 0 keep, 1 escape
// (controls, space, DEL, non-ASCII), 3 '#' (end of the part to match).
var escapeClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c <= ' ' || c >= 0x7f:
			t[c] = 1
		case c == '#':
			t[c] = 3
		}
	}
	return t
}()

// EscapePath turns the part of a URL after the authority (or a path) into
// the string matched against rules, as the Client does with every URL:
// the fragment is dropped, an empty path becomes "/", and bytes that are
// not printable ASCII (controls, space, DEL, bytes ≥ 0x80) are
// percent-encoded with upper-case hex, as a fetcher sends them. Existing
// escapes are kept byte for byte: Google's matcher compares the URL as
// given, so "%2b" in a URL does not match "%2B" in a rule. It returns a
// substring of its input (no allocation) when nothing needs rewriting.
func EscapePath(tail string) string {
	i := 0
	for i < len(tail) && escapeClass[tail[i]] == 0 {
		i++
	}
	rewrite := len(tail) == 0 || tail[0] != '/'
	if i == len(tail) && !rewrite {
		return tail
	}
	for ; i < len(tail); i++ {
		switch escapeClass[tail[i]] {
		case 1:
			rewrite = true
		case 3:
			tail = tail[:i]
		}
	}
	if !rewrite {
		return tail
	}
	return rewritePath(tail)
}

// rewritePath is the allocating half of EscapePath, for a tail without
// fragment.
func rewritePath(tail string) string {
	return string(appendEscapedPath(make([]byte, 0, len(tail)+16), tail))
}

// appendEscapedPath appends EscapePath(tail) to dst and returns the
// extended buffer, for a caller that keeps the result in a buffer of its
// own.
func appendEscapedPath(dst []byte, tail string) []byte {
	if h := strings.IndexByte(tail, '#'); h >= 0 {
		tail = tail[:h]
	}
	if tail == "" || tail[0] != '/' {
		dst = append(dst, '/')
	}
	for i := 0; i < len(tail); i++ {
		c := tail[i]
		if escapeClass[c] == 1 {
			dst = ascii.AppendEscape(dst, c)
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}
