package robotstxt

import (
	"bytes"
	"strings"
	"unsafe"

	"github.com/robotsgate/robotstxt/internal/ascii"
)

// Servers do not serve the path a URL spells but a normal form of it:
// nginx and Apache decode every escape, in either hex case, merge runs of
// '/' and resolve "." and ".." before they pick the file, so
// /public/../private/x, //private/x, /%70rivate/x, /wiki/Special%3aRandom
// and (on nginx) /public%2F..%2Fprivate/x reach /private/x and
// /wiki/Special:Random. A check that read only the spelling would let a
// crawler reach a disallowed path by another spelling, so wherever a
// request leaves the process (the Client and the Transport) a URL is
// allowed only when its spelling and its normal forms are all allowed.
// The parser-level checks ([Robots.Allowed], [Robots.Check]) stay
// exactly Google's.
//
// A normal form writes decoded every escape of a printable ASCII byte
// (space included: a rule may spell one) but three, whose escape it keeps,
// as it keeps those of other bytes, with upper-case hex, the way rules
// store them: '%', since a decoded '%' would begin an escape that the
// rules read otherwise; '?', since a decoded '?' would read as the start
// of a query (a file named "what?" is not a URL with a query, and
// "Disallow: /*?" must not refuse it); and '#', which no rule holds. Other
// readings some servers make are not added, since they would refuse URLs
// that nginx and Apache serve as other, allowed paths: ';' parameters
// dropped (servlet containers read /private;x=1/secret as
// /private/secret; on nginx it is another file), '\' read as '/' (IIS).
// A site served so should disallow those spellings too.

// normalForms returns the forms other than path itself that a server may
// serve for path, the path and query of a URL as rules are matched
// against it (it starts with '/'): none for most paths, which are normal
// already. Only the path part changes, never the query. The first form
// is nginx's: escapes decoded, '/' among them, then runs of '/' merged,
// then dot segments removed (RFC 3986 §5.2.4), so /a//../x is /x and
// /public%2F..%2Fprivate is /private. The second is Apache's, which keeps
// %2F: escapes but %2F decoded, dot segments removed, then slashes
// merged, so /a//../x is /a/x. Forms equal to path, or to each other, are
// left out.
//
// The forms are written into scratch's spare capacity and refer to it:
// the caller keeps scratch unchanged while it uses them. A scratch of
// normalScratch bytes on the caller's stack holds the forms of any path
// up to a few hundred bytes without allocating.
func normalForms(path string, scratch []byte) (forms [2]string, n int) {
	p, query := splitQuery(path)
	if normal(p) {
		return forms, 0
	}
	b := scratch[:0]
	for _, slash := range [2]bool{true, false} {
		// Each step appends its result after its input.
		dec := appendDecoded(b, p, slash)
		var f []byte
		if slash { // nginx: merge, then remove dots
			m := appendMerged(dec[len(dec):], dec[len(b):])
			f = appendDotsRemoved(m[len(m):], m)
		} else { // Apache: remove dots, then merge
			d := appendDotsRemoved(dec[len(dec):], dec[len(b):])
			f = appendMerged(d[len(d):], d)
		}
		f = append(f, query...)
		b = f[len(f):]
		s := unsafe.String(unsafe.SliceData(f), len(f))
		if s != path && (n == 0 || s != forms[0]) {
			forms[n] = s
			n++
		}
	}
	return forms, n
}

// normalScratch is the size of the scratch space normalForms is given on
// the hot path: the forms of a path of n bytes take at most 6n bytes and
// their queries, so 1 KiB covers the paths crawlers meet; a longer one
// allocates.
const normalScratch = 1024

// spelledNormally reports whether path, the path and query of a URL, is
// served as spelled: whether normalForms has no form for it. Callers ask
// it first, to keep the scratch space of normalForms off the hot path.
func spelledNormally(path string) bool {
	p, _ := splitQuery(path)
	return normal(p)
}

// splitQuery splits path at its query, which keeps its '?'.
func splitQuery(path string) (p, query string) {
	if i := strings.IndexByte(path, '?'); i >= 0 {
		return path[:i], path[i:]
	}
	return path, ""
}

// normal reports whether p, the path part of a URL, is its own normal
// form: no "//", no "." or ".." segment, and no escape that a form
// decodes or writes with other hex. It looks only at the bytes after each
// '/' and '%', so a typical path costs a few byte searches.
func normal(p string) bool {
	for i := strings.IndexByte(p, '%'); i >= 0; {
		if ascii.IsEscape(p, i) && (decodes(ascii.Unhex(p[i+1])<<4|ascii.Unhex(p[i+2]), true) || lowerHex(p[i+1]) || lowerHex(p[i+2])) {
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
		case rest[0] == '/':
			return false
		case rest[0] == '.' && dotSegment(rest):
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

// lowerHex reports whether c is a lower-case hex digit.
func lowerHex(c byte) bool { return 'a' <= c && c <= 'f' }

// decodes reports whether a form writes the escape of c decoded: every
// printable ASCII byte and space, but '%', '?' and '#' (see above), and
// '/' only in nginx's form (slash).
func decodes(c byte, slash bool) bool {
	switch {
	case c < ' ' || c >= 0x7f, c == '%', c == '?', c == '#':
		return false
	case c == '/':
		return slash
	}
	return true
}

// dotSegment reports whether s, which follows a '/', begins with a "."
// or ".." segment.
func dotSegment(s string) bool {
	seg := s
	if i := strings.IndexByte(s, '/'); i >= 0 {
		seg = s[:i]
	}
	return seg == "." || seg == ".."
}

// appendDecoded appends p to dst with the escapes decodes names decoded,
// '/' among them when slash is set, and the others with upper-case hex.
func appendDecoded(dst []byte, p string, slash bool) []byte {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if ascii.IsEscape(p, i) {
			d := ascii.Unhex(p[i+1])<<4 | ascii.Unhex(p[i+2])
			if decodes(d, slash) {
				dst = append(dst, d)
			} else {
				dst = ascii.AppendEscape(dst, d)
			}
			i += 2
			continue
		}
		dst = append(dst, c)
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
		// p starts with '/': take the segment after it.
		seg := p[1:]
		next := len(p)
		if i := bytes.IndexByte(seg, '/'); i >= 0 {
			seg, next = seg[:i], 1+i
		}
		last := next == len(p)
		switch string(seg) {
		case ".":
			if last {
				dst = append(dst, '/')
			}
		case "..":
			if i := lastSlash(dst[root:]); i >= 0 {
				dst = dst[:root+i]
			}
			if last {
				dst = append(dst, '/')
			}
		default:
			dst = append(dst, '/')
			dst = append(dst, seg...)
		}
		p = p[next:]
	}
	if len(dst) == root {
		dst = append(dst, '/')
	}
	return dst
}

func lastSlash(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '/' {
			return i
		}
	}
	return -1
}
