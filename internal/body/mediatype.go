package body

import (
	"iter"
	"net/http"
	"strings"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"golang.org/x/net/http/httpguts"
)

// ContentType returns the media type of h's Content-Type, lower-cased,
// and the charset it names, as browsers read them (the Fetch standard's
// "extract a MIME type"): every line and comma-separated value counts
// (but past the first 64), the last that parses wins, a parameter that
// does not parse is skipped rather than losing the type, and the charset
// of the first of a run of values of one type carries over to a later
// value of the run that names none.
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
	for m := range mimeTypes(h) {
		if strings.HasPrefix(m.essence, prefix) {
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

// carried yields the media type and charset of each value of
// [mimeTypes], a value without a charset parameter given that of the
// first of the run of values of its type it ends (a value of another
// type starts a run), as the Fetch standard's "extract a MIME type" does.
func carried(h http.Header) iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		var mediaType, carry string
		for m := range mimeTypes(h) {
			switch {
			case m.essence != mediaType:
				carry = m.charset
			case !m.hasCharset:
				m.charset = carry
			}
			mediaType = m.essence
			if !yield(m.essence, m.charset) {
				return
			}
		}
	}
}

// A mimeType is a Content-Type value that parses: its essence and its
// first charset parameter, which may be there and empty (charset="").
type mimeType struct {
	essence, charset string
	hasCharset       bool
}

// mimeTypes yields each value of h's Content-Type that parses, but */*,
// in order, of its first maxValues values.
func mimeTypes(h http.Header) iter.Seq[mimeType] {
	return func(yield func(mimeType) bool) {
		n := 0
		for v := range values(h) {
			if n++; n > maxValues {
				return
			}
			if m, ok := parseMIME(v); ok && m.essence != "*/*" && !yield(m) {
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

// parseMIME parses v as a MIME type, as the WHATWG MIME Sniffing
// standard does: its essence, lower-cased, and its first charset
// parameter. A parameter's name and unquoted value run to the next ';',
// whatever quotes they hold; a value that starts with '"' is a quoted
// string, which may be empty, and what follows it up to the next ';' is
// skipped; an unquoted empty value, or one holding a control character,
// is none.
func parseMIME(v string) (m mimeType, ok bool) {
	essence, params, _ := strings.Cut(v, ";")
	typ, sub, ok := strings.Cut(strings.TrimLeft(essence, " \t\r\n"), "/")
	sub = strings.TrimRight(sub, " \t\r\n")
	if !ok || !httpguts.ValidHeaderFieldName(typ) || !httpguts.ValidHeaderFieldName(sub) {
		return m, false // each an HTTP token: "text/html{" is none, which a browser reads as no type
	}
	m.essence = ascii.LowerString(typ + "/" + sub)
	for params != "" {
		params = strings.TrimLeft(params, " \t\r\n")
		i := strings.IndexAny(params, ";=")
		if i < 0 {
			break // a name with no value, at the end
		}
		name, sep := params[:i], params[i]
		params = params[i+1:]
		if sep == ';' {
			continue
		}
		value, quoted := "", strings.HasPrefix(params, `"`)
		if quoted {
			var n int
			value, n = unquote(params)
			params = params[n:]
		}
		rest, after, _ := strings.Cut(params, ";")
		params = after
		if !quoted {
			if value = strings.TrimRight(rest, " \t\r\n"); value == "" {
				continue
			}
		}
		if !m.hasCharset && ascii.EqualFold(name, "charset") && !strings.ContainsFunc(value, isControl) {
			m.charset, m.hasCharset = value, true
		}
	}
	return m, true
}

// isControl reports whether r may not stand in a parameter's value (MIME
// Sniffing's HTTP quoted-string token code points): a control character
// but tab.
func isControl(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7F }

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
// escapes undone, and its length: up to its closing quote, or all of s.
func unquote(s string) (value string, n int) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '"':
			return b.String(), i + 1
		case '\\':
			if i+1 < len(s) {
				i++
			}
		}
		b.WriteByte(s[i])
	}
	return b.String(), len(s)
}
