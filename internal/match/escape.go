package match

import (
	"strings"
	"unsafe"

	"github.com/robotsgate/robotstxt/internal/ascii"
)

// Escape is [github.com/robotsgate/robotstxt/matcher.Escape]. It
// allocates only when it changes pattern.
func Escape(pattern string) string {
	if strings.IndexByte(pattern, '%') < 0 && ascii.IsASCII(pattern) {
		return pattern // the common case
	}
	extra, fix := 0, false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case ascii.IsEscape(pattern, i):
			fix = fix || ascii.IsLowerHex(pattern[i+1]) || ascii.IsLowerHex(pattern[i+2])
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
		case ascii.IsEscape(pattern, i):
			b = append(b, '%', ascii.UpperHexDigit(pattern[i+1]), ascii.UpperHexDigit(pattern[i+2]))
			i += 2
		case c >= 0x80:
			b = ascii.AppendEscape(b, c)
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// Unescape decodes the escapes of RFC 3986 unreserved characters and
// upper-cases the hex digits of the others, so that /%7Efred and /~fred
// compare equal while %2F stays encoded: the RFC 9309 reading of rules
// and URLs. It allocates only when it changes s.
func Unescape(s string) string {
	i := 0
	for ; i+2 < len(s); i++ {
		if ascii.IsEscape(s, i) {
			if ascii.IsUnreserved(unescape(s, i)) || ascii.IsLowerHex(s[i+1]) || ascii.IsLowerHex(s[i+2]) {
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

// UnescapePattern is Unescape for a pattern matched against a path that
// UnescapePath read: a '$' the pattern does not end with, which stands
// for itself, is escaped as the path's is.
func UnescapePattern(p string) string {
	p = Unescape(p)
	if i := strings.IndexByte(p, '$'); i >= 0 && i < len(p)-1 {
		p = strings.ReplaceAll(p[:len(p)-1], "$", "%24") + p[len(p)-1:]
	}
	return p
}

// UnescapePath is [github.com/robotsgate/robotstxt/matcher.UnescapePath]:
// Unescape that also encodes '*' and '$'.
func UnescapePath(s string) string {
	if strings.ContainsAny(s, "*$") {
		// Decoding yields neither '*' nor '$': encoding them first is the same.
		s = encodeSpecials(s)
	}
	return Unescape(s)
}

// encodeSpecials returns s with '*' as %2A and '$' as %24, in a new
// string. (A strings.Replacer would move the caller's buffer to the heap.)
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
		if ascii.IsEscape(s, i) {
			if d := unescape(s, i); ascii.IsUnreserved(d) {
				dst = append(dst, d)
			} else {
				dst = append(dst, '%', ascii.UpperHexDigit(s[i+1]), ascii.UpperHexDigit(s[i+2]))
			}
			i += 2
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

// unescape returns the byte the escape at s[i] encodes.
func unescape(s string, i int) byte { return ascii.Unhex(s[i+1])<<4 | ascii.Unhex(s[i+2]) }

// AppendSent appends path as net/url sends a path it does not keep as it
// is (one with a blank, a byte above 0x7e or one of ResentBytes):
// decoded, then every byte escaped but letters, digits and
// -._~$&+,/:;=@. A '%' that begins no escape is a '%' (a served form's
// decoded %25: see literalPercent). Runs of bytes kept as they are are
// copied whole.
func AppendSent(p []byte, path string) []byte {
	run := 0
	for i := 0; i < len(path); i++ {
		c := path[i]
		if sentAsIs[c] {
			continue
		}
		p = append(p, path[run:i]...)
		if c == '%' && ascii.IsEscape(path, i) {
			c = unescape(path, i)
			i += 2
		}
		if sentAsIs[c] {
			p = append(p, c)
		} else {
			p = ascii.AppendEscape(p, c)
		}
		run = i + 1
	}
	return append(p, path[run:]...)
}

// appendSentKeepingEscapes appends path as AppendSent does but with its
// escapes kept as they are.
func appendSentKeepingEscapes(p, path []byte) []byte {
	run := 0
	for i, c := range path {
		if !sentAsIs[c] && (c != '%' || !ascii.IsEscape(unsafe.String(unsafe.SliceData(path), len(path)), i)) {
			p = ascii.AppendEscape(append(p, path[run:i]...), c)
			run = i + 1
		}
	}
	return append(p, path[run:]...)
}

// sentAsIs holds the bytes AppendSent does not escape.
var sentAsIs = func() (t [256]bool) {
	for c := range 256 {
		t[c] = ascii.IsUnreserved(byte(c)) || strings.IndexByte("$&+,/:;=@", byte(c)) >= 0
	}
	return t
}()

// ResentBytes are the bytes of a path, other than those below '!' or
// above '~', that make net/url send it decoded and escaped again.
const ResentBytes = "\"<>\\^`{|}"
