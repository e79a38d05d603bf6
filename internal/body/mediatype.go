package body

import (
	"iter"
	"mime"
	"net/http"
	"strings"

	"github.com/robotsgate/robotstxt/internal/ascii"
)

// ContentType returns the media type of h's Content-Type, lower-cased,
// and the charset it names, as browsers read them (the Fetch standard's
// "extract a MIME type"): every line and comma-separated value counts
// (but past the first 64), the last that parses wins, a parameter that
// does not parse is skipped rather than losing the type, and the charset
// of the first value of a type carries over to a later value of the same
// type that names none.
// Both are "" when no value parses.
func ContentType(h http.Header) (mediaType, charset string) {
	for mt, cs := range carried(h) {
		mediaType, charset = mt, cs
	}
	return mediaType, charset
}

// AnyMediaType reports whether a value of h's Content-Type that parses
// has a media type starting with prefix, whichever [ContentType] takes.
func AnyMediaType(h http.Header, prefix string) bool {
	for mt := range mimeTypes(h) {
		if strings.HasPrefix(mt, prefix) {
			return true
		}
	}
	return false
}

// AnyCharset reports whether is reports true for the media type and
// charset of a value of h's Content-Type that parses, whichever
// [ContentType] takes; a value naming no charset is given the one
// [ContentType] would carry to it, or "".
func AnyCharset(h http.Header, is func(mediaType, charset string) bool) bool {
	for mt, cs := range carried(h) {
		if is(mt, cs) {
			return true
		}
	}
	return false
}

// carried yields the values of [mimeTypes], each value naming no charset
// given that of the value before it when both are of one type.
func carried(h http.Header) iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		var mediaType, carry string
		for mt, cs := range mimeTypes(h) {
			switch {
			case mt != mediaType:
				carry = cs
			case cs == "":
				cs = carry
			}
			mediaType = mt
			if !yield(mt, cs) {
				return
			}
		}
	}
}

// mimeTypes yields the media type and charset of each value of h's
// Content-Type that parses, but */*, in order, of its first maxValues
// values.
func mimeTypes(h http.Header) iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		n := 0
		for v := range values(h) {
			if n++; n > maxValues {
				return
			}
			if mt, cs, ok := parseMIME(v); ok && mt != "*/*" && !yield(mt, cs) {
				return
			}
		}
	}
}

// ManyValues reports whether h's Content-Type has more values than its
// readers read (see [ContentType]): then what a browser takes, the last
// that parses, is not known.
func ManyValues(h http.Header) bool {
	n := 0
	for range values(h) {
		if n++; n > maxValues {
			return true
		}
	}
	return false
}

// values yields the values of h's Content-Type, each line's
// comma-separated, but blank ones (no value, RFC 9110 §5.6.1).
func values(h http.Header) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, line := range h.Values("Content-Type") {
			for v := range splitUnquoted(line, ',') {
				if strings.TrimLeft(v, " \t\r\n") != "" && !yield(v) {
					return
				}
			}
		}
	}
}

// maxValues bounds the Content-Type values read: a server sends one, a
// proxy may add a few, and a hostile server's megabytes of them cost
// seconds of parsing a page.
const maxValues = 64

// parseMIME parses v as a MIME type: its essence, lower-cased, and its
// first charset parameter, as the WHATWG MIME Sniffing standard does.
func parseMIME(v string) (mediaType, charset string, ok bool) {
	essence, params, _ := strings.Cut(v, ";")
	if !ascii.IsASCII(essence) { // which mime lower-cases by Unicode: "text/plaİn" read as text/plain
		return "", "", false
	}
	mediaType, _, err := mime.ParseMediaType(essence)
	if err != nil || !strings.Contains(mediaType, "/") {
		return "", "", false
	}
	for p := range splitUnquoted(params, ';') {
		name, value, found := strings.Cut(p, "=")
		if !found || charset != "" || !ascii.EqualFold(strings.TrimLeft(name, " \t\r\n"), "charset") {
			continue
		}
		if strings.HasPrefix(value, `"`) {
			value = unquote(value)
		} else {
			value = strings.TrimRight(value, " \t\r\n")
		}
		charset = value
	}
	return mediaType, charset, true
}

// splitUnquoted yields the parts of s between the seps that are not
// within a quoted string.
func splitUnquoted(s string, sep byte) iter.Seq[string] {
	return func(yield func(string) bool) {
		start, quoted := 0, false
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case c == '\\' && quoted:
				i++
			case c == '"':
				quoted = !quoted
			case c == sep && !quoted:
				if !yield(s[start:i]) {
					return
				}
				start = i + 1
			}
		}
		yield(s[start:])
	}
}

// unquote returns the value of the quoted string s starts with, its
// escapes undone; what follows its closing quote is ignored.
func unquote(s string) string {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '"':
			return b.String()
		case '\\':
			if i+1 < len(s) {
				i++
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
