package match

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/encoding/charmap"

	"github.com/robotsgate/robotstxt/internal/ascii"
)

// NormalForms returns the forms a server may serve for path (the path and
// query rules match), other than path and each other: none for most paths.
// Only the path part changes, but for a '?' that starts no query, which
// servers read as none: /x? is /x. nginx's form decodes escapes (see decodes),
// merges slashes, then removes dot segments (RFC 3986 §5.2.4), so
// /a//../x is /x; path.Clean's (Go's file server, Python's) drops the
// final '/' that a last dot segment or %2F, not a '/' as written, leaves
// there. Apache's keeps %2F and, before
// 2.4.49, removes dots before merging, so /a//../x is /a/x, and since,
// merges first. The last only writes the hex of its escapes in upper
// case, as a pattern's are, for a rule that keeps an escape servers
// decode. A form with a blank or a byte of ResentBytes is also given as a
// client sends it (see AppendSent), and with its escapes kept, for a rule
// written for what is sent.
// The forms lie in scratch's spare capacity, which the caller
// keeps unchanged while it uses them.
func NormalForms(path string, scratch []byte) (forms [MaxForms]string, n int) {
	b := scratch[:0]
	if legacyEscapes(path) {
		// The path and query as the Client's rules of a file converted
		// from Windows-1252 spell them, and the servers' forms of that:
		// /./caf%E9 is /caf%C3%A9 too.
		w := appendWindows1252(b, path)
		forms, n = appendForms(forms, n, path, [][]byte{w})
		cands, k, rest := serverForms(unsafe.String(unsafe.SliceData(w), len(w)), w[len(w):])
		forms, n = appendForms(forms, n, path, cands[:k])
		b = rest
	}
	cands, k, _ := serverForms(path, b)
	return appendForms(forms, n, path, cands[:k])
}

// serverForms returns the forms servers read path as (see NormalForms),
// none for a path spelled normally, each with its query, in b's spare
// capacity, how many, and the spare capacity after them.
func serverForms(path string, b []byte) (cands [maxServerForms][]byte, k int, rest []byte) {
	p, _, _ := strings.Cut(path, "?")
	query := path[len(p):] // with its '?'
	if query == "?" {
		// No query, to a server (nginx's $args, Go's RawQuery): the
		// page a "$" rule names (/private.html$) is served for
		// /private.html? too.
		query = ""
		if normal(p) {
			cands[0], b = withQuery(append(b, p...), "")
			return cands, 1, b
		}
	} else if normal(p) {
		return cands, 0, b
	}
	for _, server := range [3]int{nginx, apache, upperHex} {
		// Each step appends its result after its input.
		dec := appendDecoded(b, p, server)
		in := dec[len(b):]
		switch server {
		case nginx: // merge, then remove dots
			m := appendMerged(dec[len(dec):], in)
			f := appendDotsRemoved(m[len(m):], m)
			cands[k], b = withQuery(f, query)
			k++
			if len(f) > 1 && f[len(f)-1] == '/' && p[len(p)-1] != '/' {
				cands[k], b = withQuery(append(b, f[:len(f)-1]...), query) // path.Clean's
				k++
			}
		case apache: // remove dots, then merge; since 2.4.49, the other way
			d := appendDotsRemoved(dec[len(dec):], in)
			cands[k], b = withQuery(appendMerged(d[len(d):], d), query)
			m := appendMerged(b, in)
			cands[k+1], b = withQuery(appendDotsRemoved(m[len(m):], m), query)
			k += 2
		default:
			cands[k], b = withQuery(in, query)
			k++
		}
	}
	// A path with a '%' that begins no escape no client sends: its forms
	// are not given as sent.
	sendable := validEscapes(p)
	for _, c := range cands[:k] {
		// The form as a client sends it, when net/url would escape it
		// again: a rule for what is sent (/q%22, /itm/*/%7B%7B) must
		// see /./q%22 and //itm/1/{{x}}. And with the escapes it kept
		// kept, as a client escaping by hand sends it: net/url decodes
		// the %2F of Apache's form, which a rule for Apache's resource
		// (/docs%2Fmy%20file) names. A '%' a form decoded from %25
		// is sent as %25, as the rule for that file (/50%25off) is
		// written.
		if f := c[:len(c)-len(query)]; sendable && resent(f) {
			cands[k], b = withQuery(AppendSent(b, unsafe.String(unsafe.SliceData(f), len(f))), query)
			k++
			if bytes.IndexByte(f, '%') >= 0 {
				cands[k], b = withQuery(appendSentKeepingEscapes(b, f), query)
				k++
			}
		}
	}
	return cands, k, b
}

// appendForms adds to forms[:n] each of cands that is neither path nor
// one of them, and returns them.
func appendForms(forms [MaxForms]string, n int, path string, cands [][]byte) ([MaxForms]string, int) {
	for _, c := range cands {
		if s := unsafe.String(unsafe.SliceData(c), len(c)); s != path && !slices.Contains(forms[:n], s) {
			forms[n] = s
			n++
		}
	}
	return forms, n
}

// legacyEscapes reports whether s, a path and query, escapes bytes from
// 0x80 up that are not UTF-8: text in a legacy charset, as a browser
// sends a link's query in the charset of its page, and as a site whose
// robots.txt is in Windows-1252 spells its paths there. The Client reads
// such a robots.txt converted to UTF-8 (its rules escape the UTF-8
// bytes); Google's parser reads its bytes, and its rules then match the
// path as sent.
func legacyEscapes(s string) bool {
	for i := strings.IndexByte(s, '%'); i >= 0; {
		if ascii.IsEscape(s, i) && ascii.Unhex(s[i+1]) >= 8 {
			n := utf8Escaped(s[i:])
			if n == 0 {
				return true
			}
			i += n
		} else {
			i++
		}
		j := strings.IndexByte(s[i:], '%')
		if j < 0 {
			break
		}
		i += j
	}
	return false
}

// utf8Escaped returns the length of the escapes at the start of s that
// spell one UTF-8 character of two to four bytes, or 0 when they spell
// none.
func utf8Escaped(s string) int {
	var buf [utf8.UTFMax]byte
	n := 0
	for ; n < len(buf) && 3*n+2 < len(s) && s[3*n] == '%' && ascii.IsEscape(s, 3*n); n++ {
		buf[n] = ascii.Unhex(s[3*n+1])<<4 | ascii.Unhex(s[3*n+2])
		if r, size := utf8.DecodeRune(buf[:n+1]); r != utf8.RuneError && size == n+1 {
			if size == 1 {
				return 0 // ASCII: no character of this run
			}
			return 3 * size
		}
	}
	return 0
}

// appendWindows1252 appends s, a path and query, to b, with each escape
// of a byte from 0x80 up that is not part of a UTF-8 character read as
// Windows-1252 and escaped in UTF-8 (but for the five bytes it leaves
// undefined), and each escape of a byte from 0x80 up in upper-case hex,
// as a rule of a robots.txt converted from that charset holds it:
// /caf%E9 is /caf%C3%A9.
func appendWindows1252(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		if s[i] != '%' || !ascii.IsEscape(s, i) || ascii.Unhex(s[i+1]) < 8 {
			b = append(b, s[i])
			i++
			continue
		}
		if n := utf8Escaped(s[i:]); n > 0 {
			for end := i + n; i < end; i += 3 {
				b = ascii.AppendEscape(b, ascii.Unhex(s[i+1])<<4|ascii.Unhex(s[i+2]))
			}
			continue
		}
		var enc [utf8.UTFMax]byte
		c := ascii.Unhex(s[i+1])<<4 | ascii.Unhex(s[i+2])
		r := charmap.Windows1252.DecodeByte(c)
		if r == utf8.RuneError {
			// One of the five it leaves undefined, kept: as U+FFFD,
			// a Shift_JIS query (%90...) met eBay's "Disallow:
			// /sch/*%EF", which no reading of the file gives it.
			b = ascii.AppendEscape(b, c)
			i += 3
			continue
		}
		for _, c := range enc[:utf8.EncodeRune(enc[:], r)] {
			b = ascii.AppendEscape(b, c)
		}
		i += 3
	}
	return b
}

// resent reports whether a client sends form f otherwise than as it is:
// it holds a blank, a byte of ResentBytes or a '%' that begins no escape.
func resent(f []byte) bool {
	return bytes.ContainsAny(f, " "+ResentBytes) || !validEscapes(unsafe.String(unsafe.SliceData(f), len(f)))
}

// validEscapes reports whether every '%' in p begins an escape.
func validEscapes(p string) bool {
	for i := strings.IndexByte(p, '%'); i >= 0; {
		if !ascii.IsEscape(p, i) {
			return false
		}
		j := strings.IndexByte(p[i+1:], '%')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return true
}

// MaxForms is how many forms NormalForms may give: the servers' forms of
// the path and, for escapes of a legacy charset (see legacyEscapes), its
// Windows-1252 reading and their forms of that.
const MaxForms = 1 + 2*maxServerForms

// maxServerForms is how many forms servers read a path as: five, and
// each as a client sends it, both ways.
const maxServerForms = 15

// withQuery appends query to f, a form's path part in scratch, and
// returns it and the scratch after it.
func withQuery(f []byte, query string) (form, rest []byte) {
	f = append(f, query...)
	return f, f[len(f):]
}

// The forms NormalForms gives, by the server that reads a path so.
const (
	nginx    = iota // decodes escapes (but for %3F, %23 and a %25 that may begin one)
	apache          // decodes them but for %2F too
	upperHex        // decodes none
)

// NormalScratch is the scratch space NormalForms is given on the hot path:
// the forms of a path of n bytes take at most 12n bytes and their
// queries, so 1.5 KiB covers the paths crawlers meet; a longer one
// allocates, as may one whose forms are escaped again as sent (up to 30n
// bytes more).
const NormalScratch = 1536

// SpelledNormally reports whether NormalForms has no form for path, the
// path and query of a URL. Callers ask it first, to keep the scratch space
// of NormalForms off the hot path.
func SpelledNormally(path string) bool {
	p := path
	if i := strings.IndexByte(path, '?'); i >= 0 {
		if i == len(path)-1 {
			return false // a '?' that starts no query (see serverForms)
		}
		p = path[:i] // IndexByte, unlike Cut, inlines on this hot path
	}
	return normal(p) && (strings.IndexByte(path, '%') < 0 || !legacyEscapes(path))
}

// normal reports whether p, the path part of a URL, is its own normal
// form: no "//", no "." or ".." segment, and no escape that a form
// decodes or writes with other hex. It looks only at the bytes after each
// '/' and '%', so a typical path costs a few byte searches.
func normal(p string) bool {
	for i := strings.IndexByte(p, '%'); i >= 0; {
		if ascii.IsEscape(p, i) && (decodes(ascii.Unhex(p[i+1])<<4|ascii.Unhex(p[i+2]), nginx) || ascii.IsLowerHex(p[i+1]) || ascii.IsLowerHex(p[i+2]) || literalPercent(p, i)) {
			return false
		}
		j := strings.IndexByte(p[i+1:], '%')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	for i := strings.IndexByte(p, '/'); i >= 0; {
		rest := p[i+1:]
		switch {
		case rest == "":
			return true
		case rest[0] == '/', rest[0] == '.' && dotSegment(rest):
			return false
		}
		j := strings.IndexByte(rest, '/')
		if j < 0 {
			return true
		}
		i += 1 + j
	}
	return true
}

// decodes reports whether the form of server writes the escape of c
// decoded: every printable ASCII byte and space but '%' (it may begin
// another escape: see literalPercent), '?' (it would start a query:
// "Disallow: /*?" must not refuse a file named "what?") and '#' (no rule
// holds one), and '/' only in nginx's form; none in upperHex's.
func decodes(c byte, server int) bool {
	switch {
	case server == upperHex, c < ' ' || c >= 0x7f, c == '%', c == '?', c == '#':
		return false
	case c == '/':
		return server == nginx
	}
	return true
}

// literalPercent reports whether the escape at p[i] is a %25 that nginx
// and Apache decode to a '%' beginning no escape, as in /50%25off, the
// file a rule names as /50%off: the two bytes after it, read as a form
// has them (an escape of a hex digit decoded, as every form but
// upperHex's decodes it; any other escape starts with '%'), are not both
// hex digits. So decoding it never makes an escape of what was not one,
// and /50%25%6Fff, which servers also read as /50%off, is read so too.
func literalPercent(p string, i int) bool {
	if p[i+1] != '2' || p[i+2] != '5' {
		return false
	}
	j := i + 3
	for range 2 {
		if j >= len(p) {
			return true
		}
		c := p[j]
		if ascii.IsEscape(p, j) {
			c = ascii.Unhex(p[j+1])<<4 | ascii.Unhex(p[j+2])
			if !ascii.IsHex(c) {
				c = '%' // kept, or decoded to no hex digit: either way none
			}
			j += 3
		} else {
			j++
		}
		if !ascii.IsHex(c) {
			return true
		}
	}
	return false
}

// dotSegment reports whether s, after a '/', begins with a "." or ".." segment.
func dotSegment(s string) bool {
	seg, _, _ := strings.Cut(s, "/")
	return seg == "." || seg == ".."
}

// appendDecoded appends p to dst with the escapes decodes names for
// server decoded, and the others with upper-case hex.
func appendDecoded(dst []byte, p string, server int) []byte {
	for i := 0; i < len(p); i++ {
		if ascii.IsEscape(p, i) {
			d := ascii.Unhex(p[i+1])<<4 | ascii.Unhex(p[i+2])
			if decodes(d, server) || server != upperHex && literalPercent(p, i) {
				dst = append(dst, d)
			} else {
				dst = ascii.AppendEscape(dst, d)
			}
			i += 2
			continue
		}
		dst = append(dst, p[i])
	}
	return dst
}

// appendMerged appends p to dst with every run of '/' made one '/'.
func appendMerged(dst []byte, p []byte) []byte {
	for i, c := range p {
		if c == '/' && i > 0 && p[i-1] == '/' {
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

// appendDotsRemoved appends p, which starts with '/', to dst with its "."
// and ".." segments removed as RFC 3986 §5.2.4 does: "." is dropped, ".."
// drops the segment before it (never past the root), and a path ending
// in either ends with '/'.
func appendDotsRemoved(dst []byte, p []byte) []byte {
	root := len(dst)
	for len(p) > 0 {
		seg, _, more := bytes.Cut(p[1:], []byte{'/'}) // p starts with '/'
		p = p[1+len(seg):]
		switch string(seg) {
		case ".": // dropped
		case "..":
			if i := bytes.LastIndexByte(dst[root:], '/'); i >= 0 {
				dst = dst[:root+i]
			}
		default:
			dst = append(append(dst, '/'), seg...)
			continue
		}
		if !more {
			dst = append(dst, '/')
		}
	}
	if len(dst) == root {
		dst = append(dst, '/')
	}
	return dst
}
