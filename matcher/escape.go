package matcher

import "strings"

const upperHex = "0123456789ABCDEF"

// Escape normalises a rule value the way Google's parser does before any
// URL is compared with it: every byte at or above 0x80 becomes %XX with
// upper-case hex digits, and the hex digits of existing %xx escapes are
// upper-cased. Nothing is decoded. When no change is needed, Escape returns
// its argument without allocating.
func Escape(pattern string) string {
	if strings.IndexByte(pattern, '%') < 0 && !hasHighByte(pattern) {
		return pattern // the common case
	}
	extra, fix := 0, false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '%' && i+2 < len(pattern) && isHex(pattern[i+1]) && isHex(pattern[i+2]):
			fix = fix || isLowerHex(pattern[i+1]) || isLowerHex(pattern[i+2])
			i += 2
		case c >= 0x80:
			extra += 2
		}
	}
	if extra == 0 && !fix {
		return pattern
	}
	b := make([]byte, 0, len(pattern)+extra)
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '%' && i+2 < len(pattern) && isHex(pattern[i+1]) && isHex(pattern[i+2]):
			b = append(b, '%', upper(pattern[i+1]), upper(pattern[i+2]))
			i += 2
		case c >= 0x80:
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// Unescape decodes the percent-escapes of RFC 3986 unreserved characters
// (A-Z a-z 0-9 - . _ ~) and upper-cases the hex digits of every other
// escape, so that /%7Efred and /~fred compare equal while %2F stays
// encoded. It is the RFC 9309 reading of both rules and URLs.
// When no change is needed, Unescape returns its argument without
// allocating.
func Unescape(s string) string {
	i := 0
	for ; i+2 < len(s); i++ {
		if s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2]) {
			if isUnreserved(unhex(s[i+1])<<4|unhex(s[i+2])) || isLowerHex(s[i+1]) || isLowerHex(s[i+2]) {
				break
			}
			i += 2
		}
	}
	if i+2 >= len(s) {
		return s
	}
	return string(appendUnescaped(make([]byte, 0, len(s)), s))
}

// UnescapePath is Unescape for the path of a URL that is compared with
// patterns read by Unescape: it also encodes a literal '*' as %2A and '$'
// as %24, since in a URL they are plain characters, and RFC 9309 §2.2.3
// has a pattern match them literally only in that encoded form.
func UnescapePath(s string) string {
	if strings.ContainsAny(s, "*$") {
		// Decoding yields only unreserved characters, never '*' or '$',
		// so encoding them first is the same as encoding them after.
		s = encodeSpecials(s)
	}
	return Unescape(s)
}

// encodeSpecials encodes the characters that are special in patterns,
// '*' as %2A and '$' as %24, into a new string.
func encodeSpecials(s string) string {
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '*':
			b = append(b, "%2A"...)
		case '$':
			b = append(b, "%24"...)
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// appendUnescaped appends Unescape(s) to dst and returns the result.
func appendUnescaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			if d := unhex(s[i+1])<<4 | unhex(s[i+2]); isUnreserved(d) {
				dst = append(dst, d)
			} else {
				dst = append(dst, '%', upper(s[i+1]), upper(s[i+2]))
			}
			i += 2
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isLowerHex(c byte) bool { return 'a' <= c && c <= 'f' }

func upper(c byte) byte {
	if isLowerHex(c) {
		return c - 'a' + 'A'
	}
	return c
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	default:
		return c - 'a' + 10
	}
}

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// hasHighByte reports whether s has a byte at or above 0x80.
func hasHighByte(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}
