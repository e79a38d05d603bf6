package match

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNormalForms(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"/", nil},
		{"/public/x", nil},
		{"/a.b/c..d/.e/..f", nil},
		{"/x?a=/../b//c&%70", nil}, // the query is never touched
		{"/x?", []string{"/x"}},    // but a '?' that starts none is none, to a server
		{"/?", []string{"/"}},
		{"/x??", nil},
		{"", nil},
		{"//x?", []string{"/x", "//x"}},
		{"/caf%C3%A9/%2", nil},                         // no escape a server decodes
		{"/caf%C3%A9/%2F/x", []string{"/caf%C3%A9/x"}}, // nginx decodes %2F; Apache keeps it
		{"/caf%c3%a9", []string{"/caf%C3%A9"}},         // hex in either case
		{"/wiki/Special%3ARandom", []string{"/wiki/Special:Random"}},
		{"/wiki/Special%3aRandom", []string{"/wiki/Special:Random", "/wiki/Special%3ARandom"}}, // the last as a rule keeps it
		{"/tags/c%2B%2B", []string{"/tags/c++"}},
		{"/a%20b%21%40%24%26%28%29%2A%2C%3B%3D%5B%5D", []string{"/a b!@$&()*,;=[]", "/a%20b%21@$&%28%29%2A,;=%5B%5D"}},
		// As a client sends a form with a byte net/url escapes, for a
		// rule that holds the escape.
		{"/./q%22", []string{"/q\"", "/q%22"}},
		{"//itm/1/%7B%7Bx%7D%7D", []string{"/itm/1/{{x}}", "/itm/1/%7B%7Bx%7D%7D"}},
		{"/a/../itm/1/{{x}}?q={", []string{"/itm/1/{{x}}?q={", "/itm/1/%7B%7Bx%7D%7D?q={", "/a/../itm/1/%7B%7Bx%7D%7D?q={"}},
		// Apache's form keeps %2F, which net/url decodes: as a client
		// escaping by hand sends it too.
		{"/./docs%2Fmy%20file", []string{"/docs/my file", "/docs%2Fmy file", "/docs/my%20file", "/docs%2Fmy%20file"}},
		{"/docs%2F%6Dy%20file", []string{"/docs/my file", "/docs%2Fmy file", "/docs/my%20file", "/docs%2Fmy%20file"}},
		{"/./a%zz{", []string{"/a%zz{"}},                         // no escape net/url could send
		{"/a%3Fb%23c%2541%00%7F", nil},                           // '?', '#', '%' before hex and controls stay escaped
		{"/a%3fb%25%7f", []string{"/a%3Fb%%7F", "/a%3Fb%25%7F"}}, // a '%' before a control, and upper-case hex
		// A '%' that begins no escape once decoded is the file a rule
		// names with a bare '%'; one that may stays escaped.
		{"/sale/50%25off", []string{"/sale/50%off"}},
		{"/100%25/x%25", []string{"/100%/x%"}},
		{"/%25a/%25a%", []string{"/%a/%a%"}}, // a '%' at the end begins no escape
		{"/%25ab/%25a%C3/%25%C3", []string{"/%25ab/%25a%C3%83/%25%C3%83", "/%25ab/%a%C3%83/%%C3%83", "/%25ab/%a%C3/%%C3"}}, // %C3 decodes to no hex digit, nor UTF-8
		// Reached another way, the file is also sent as its rule
		// (/sale/50%25off, as RFC 9309 writes it) names it.
		{"/./sale/50%25off", []string{"/sale/50%off", "/sale/50%25off"}},
		{"/a//../sale/50%25off", []string{"/sale/50%off", "/a/sale/50%off", "/sale/50%25off", "/a/sale/50%25off"}},
		// As sent, such a '%' is %25 again.
		{"/./my%20file%25x", []string{"/my file%x", "/my%20file%25x"}},
		{"//q%22%25off", []string{"/q\"%off", "/q%22%25off"}},
		{"/a%3fb?q=%3f", []string{"/a%3Fb?q=%3f"}}, // the query untouched
		{"/%2Fprivate", []string{"/private"}},      // nginx decodes %2F and merges
		{"/public%2F..%2Fprivate/x", []string{"/private/x"}},
		{"/%2fprivate/x", []string{"/private/x", "/%2Fprivate/x"}},
		{"/public/../private/x", []string{"/private/x"}},
		{"//private/x", []string{"/private/x"}},
		{"/%70rivate/x", []string{"/private/x"}},
		{"/%7euser/%41", []string{"/~user/A", "/%7Euser/%41"}},
		{"/./private", []string{"/private"}},
		{"/%2e%2E/private", []string{"/private", "/%2E%2E/private"}},
		{"/a/b/..", []string{"/a/", "/a"}}, // RFC 3986's, and path.Clean's
		{"/a/b/.", []string{"/a/b/", "/a/b"}},
		{"/files/doc.pdf/%2e", []string{"/files/doc.pdf/", "/files/doc.pdf", "/files/doc.pdf/%2E"}},
		{"/files/doc.pdf%2F", []string{"/files/doc.pdf/", "/files/doc.pdf"}}, // Python's server serves the file
		{"/..", []string{"/"}},
		{"/../../x", []string{"/x"}},
		{"/a///b//", []string{"/a/b/"}},
		{"/public//x?q=1", []string{"/public/x?q=1"}},
		{"/public/..?q=/../x", []string{"/?q=/../x"}},
		// Servers that merge first and RFC 3986 disagree here.
		{"/a//../x", []string{"/x", "/a/x"}},
		// Apache since 2.4.49 merges first too, keeping %2F.
		{"/x//../private/..%2Fpage", []string{"/page", "/x/private/..%2Fpage", "/private/..%2Fpage"}},
		// Escapes of bytes that are not UTF-8, read as Windows-1252 (a
		// legacy robots.txt is read converted to UTF-8), the query too
		// (parse88).
		{"/caf%E9", []string{"/caf%C3%A9"}},
		{"/Notre-soci%e9t%E9/x", []string{"/Notre-soci%C3%A9t%C3%A9/x", "/Notre-soci%E9t%E9/x"}},
		{"/suche?ort=M%FCnchen", []string{"/suche?ort=M%C3%BCnchen"}},
		{"/%80%e2%82%ac", []string{"/%E2%82%AC%E2%82%AC", "/%80%E2%82%AC"}}, // the euro sign, then one in UTF-8
		{"/caf%C3%A9?q=%c3%a9", nil}, // UTF-8: none
		// The five bytes Windows-1252 leaves undefined are kept
		// (review159: eBay's "Disallow: /sch/*%EF").
		{"/sch/i.html?_nkw=%90V%8C%5E", []string{"/sch/i.html?_nkw=%90V%C5%92%5E"}},
		{"/x%90", nil},
		// And the servers' forms of that (receipt88).
		{"/./caf%E9", []string{"/./caf%C3%A9", "/caf%C3%A9", "/caf%E9"}},
		{"/%63af%E9", []string{"/%63af%C3%A9", "/caf%C3%A9", "/caf%E9"}},
		{"/./suche?ort=M%FCnchen", []string{"/./suche?ort=M%C3%BCnchen", "/suche?ort=M%C3%BCnchen", "/suche?ort=M%FCnchen"}},
	} {
		forms, n := NormalForms(c.in, nil)
		if got := forms[:n]; !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("NormalForms(%q) = %q, want %q", c.in, got, c.want)
		}
		if SpelledNormally(c.in) && n > 0 {
			t.Errorf("SpelledNormally(%q), but NormalForms gives %q", c.in, forms[:n])
		}
	}
}

// TestNormalFormsAgainstReference compares NormalForms with references
// written another way on random paths made of the pieces that matter:
// path.Clean for the forms of servers that merge slashes first (nginx,
// Go's file server), and RFC 3986 §5.2.4's own steps for Apache's.
func TestNormalFormsAgainstReference(t *testing.T) {
	pieces := []string{"/", "//", ".", "..", "a", "b", "%2e", "%2E", "%70", "%2F", "%2f", "%", "%zz", "~", "?", "/./", "/../",
		"%3a", "%3F", "%25", "%23", "f", "%25o", "%25a", "%c3%a9", "%20", "%0A", "%7f", "+", "%22", "%7B", "{", "%21", "%5D",
		"%E9", "%c3", "%80", "%9d", "?%FC", "%E2%82", "%ac"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		b.WriteString("/")
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		checkNormalForms(t, b.String())
	}
}

// FuzzNormalForms compares NormalForms with the references on any path.
func FuzzNormalForms(f *testing.F) {
	for _, p := range []string{"/a//../x", "/sale/50%25off", "/%25a%41", "/./q%22", "/x?a=/../b", "/./my%20file%25x"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "#") {
			return // a path as a URL gives it
		}
		checkNormalForms(t, p)
	})
}

// checkNormalForms fails t unless NormalForms(p) gives the forms the
// references do, in their order.
func checkNormalForms(t *testing.T, p string) {
	t.Helper()
	var want []string
	if w := referenceWindows1252(p); w != p {
		// Read as Windows-1252, and the servers' forms of that.
		want = append(want, w)
		for _, f := range referenceServerForms(t, w) {
			if f != p && !slices.Contains(want, f) {
				want = append(want, f)
			}
		}
	}
	for _, f := range referenceServerForms(t, p) {
		if f != p && !slices.Contains(want, f) {
			want = append(want, f)
		}
	}
	forms, n := NormalForms(p, nil)
	if !slices.Equal(forms[:n], want) && n+len(want) > 0 {
		t.Fatalf("NormalForms(%q) = %q, want %q", p, forms[:n], want)
	}
	if SpelledNormally(p) && n > 0 {
		t.Fatalf("SpelledNormally(%q), but NormalForms gives %q", p, forms[:n])
	}
}

// referenceServerForms returns the forms servers read p as, and as
// clients send them, by the references, in NormalForms' order.
func referenceServerForms(t *testing.T, p string) []string {
	t.Helper()
	if base, ok := strings.CutSuffix(p, "?"); ok && !strings.Contains(base, "?") {
		// A '?' that starts no query is none to a server: the forms are
		// those of the path without it, or that path.
		if refs := referenceServerForms(t, base); len(refs) > 0 {
			return refs
		}
		return []string{base}
	}
	refs := []string{referenceMergeFirst(p), referenceClean(p), referenceDotsFirst(p), referenceApacheMergeFirst(p), referenceUpperHex(p)}
	if !slices.ContainsFunc(refs, func(f string) bool { return f != p }) {
		refs = nil // a path spelled normally has no forms, nor how they are sent
	}
	asked, _, _ := strings.Cut(p, "?")
	_, err := url.PathUnescape(asked)
	sendable := err == nil // no client sends p, nor its forms
	for _, f := range refs {
		if path, query, _ := strings.Cut(f, "?"); sendable && (strings.ContainsAny(path, " "+ResentBytes) || bareEscaped(path) != path) {
			// A '%' of a form that begins no escape is one a server
			// decoded from %25, which no client sends as it is.
			decoded, err := url.PathUnescape(bareEscaped(path))
			if err != nil {
				t.Fatalf("the reference's %q of %q: %v", path, p, err)
			}
			sent := (&url.URL{Path: decoded}).EscapedPath()
			// And escaped by hand: what net/url escapes between the
			// escapes, which stay.
			kept, at := "", 0
			for _, e := range regexp.MustCompile(`%[0-9a-fA-F]{2}`).FindAllStringIndex(path, -1) {
				kept += escapedPiece(path[at:e[0]]) + path[e[0]:e[1]]
				at = e[1]
			}
			kept += escapedPiece(path[at:])
			if strings.Contains(f, "?") {
				sent += "?" + query
				kept += "?" + query
			}
			refs = append(refs, sent)
			if strings.Contains(path, "%") {
				refs = append(refs, kept)
			}
		}
	}
	return refs
}

// bareEscaped is s with each '%' that begins no escape written %25.
func bareEscaped(s string) string {
	var b strings.Builder
	for i := range len(s) {
		if s[i] == '%' && !(i+2 < len(s) && isHexDigit(s[i+1]) && isHexDigit(s[i+2])) {
			b.WriteString("%25")
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHexDigit(c byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", c) >= 0 }

// escapedPiece is s, a piece of a path, as net/url escapes it in a path
// (under a '/', since net/url leaves a path of "*" alone).
func escapedPiece(s string) string {
	return (&url.URL{Path: "/" + s}).EscapedPath()[1:]
}

// referenceDecode decodes the escapes of the path part of p as servers
// do, and returns it with its query (from '?') apart: each escape of a
// byte from ' ' to '~' is decoded, but those of '?' and '#', of '/'
// unless slash is set, and of a '%' that what follows may make an escape
// of; the others are written with upper-case hex.
func referenceDecode(p string, slash bool) (dec, query string) {
	i := strings.IndexByte(p, '?')
	if i < 0 {
		i = len(p)
	}
	p, query = p[:i], p[i:]
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '%' && i+2 < len(p) {
			if v, err := strconv.ParseUint(p[i+1:i+3], 16, 8); err == nil {
				c := byte(v)
				keep := c < ' ' || c > '~' || strings.IndexByte("?#", c) >= 0 || c == '/' && !slash ||
					c == '%' && mayBeginEscape(p[i+3:])
				if keep {
					b.WriteString(strings.ToUpper(p[i : i+3]))
				} else {
					b.WriteByte(c)
				}
				i += 2
				continue
			}
		}
		b.WriteByte(p[i])
	}
	return b.String(), query
}

// mayBeginEscape reports whether the text after a %25, its escapes
// decoded, begins with two hex digits: decoding the %25 would then make
// an escape of what was not one.
func mayBeginEscape(s string) bool {
	var d []byte
	for len(d) < 2 && s != "" {
		if v, err := strconv.ParseUint(s[1:min(3, len(s))], 16, 8); s[0] == '%' && len(s) >= 3 && err == nil {
			d, s = append(d, byte(v)), s[3:]
			continue
		}
		d, s = append(d, s[0]), s[1:]
	}
	return len(d) == 2 && isHexDigit(d[0]) && isHexDigit(d[1])
}

// referenceUpperHex is p with the hex of the escapes of its path part in
// upper case.
// referenceWindows1252 is p with the bytes its escapes spell that are
// not UTF-8 read as Windows-1252 and written in UTF-8, every escape of a
// byte from 0x80 up in upper-case hex, when any such byte is not UTF-8.
func referenceWindows1252(p string) string {
	esc := regexp.MustCompile(`(%[89a-fA-F][0-9a-fA-F])+`)
	legacy := false
	out := esc.ReplaceAllStringFunc(p, func(run string) string {
		raw, _ := url.PathUnescape(run)
		var b strings.Builder
		for s := raw; s != ""; {
			r, size := utf8.DecodeRuneInString(s)
			if r == utf8.RuneError && size == 1 {
				legacy = true
				r = windows1252[s[0]-0x80]
				if r == 0 {
					r = utf8.RuneError // undefined
				}
			}
			if r == utf8.RuneError {
				fmt.Fprintf(&b, "%%%02X", s[0]) // undefined: kept
				s = s[size:]
				continue
			}
			for _, c := range []byte(string(r)) {
				fmt.Fprintf(&b, "%%%02X", c)
			}
			s = s[size:]
		}
		return b.String()
	})
	if !legacy {
		return p
	}
	return out
}

// windows1252 holds the characters of Windows-1252's bytes 0x80 to 0xFF
// (0 for the five it leaves undefined), written out from its table.
var windows1252 = func() (t [128]rune) {
	copy(t[:32], []rune("€\x00‚ƒ„…†‡ˆ‰Š‹Œ\x00Ž\x00\x00‘’“”•–—˜™š›œ\x00žŸ"))
	for i := 32; i < 128; i++ {
		t[i] = rune(0x80 + i) // Latin-1
	}
	return t
}()

func referenceUpperHex(p string) string {
	i := strings.IndexByte(p, '?')
	if i < 0 {
		i = len(p)
	}
	re := regexp.MustCompile(`%[0-9a-fA-F]{2}`)
	return re.ReplaceAllStringFunc(p[:i], strings.ToUpper) + p[i:]
}

// referenceMergeFirst is the path nginx serves for p: escapes decoded
// ('/' among them), slashes merged, dots
// resolved, a final slash kept.
func referenceMergeFirst(p string) string {
	d, query := referenceDecode(p, true)
	out := path.Clean(d)
	last := d[strings.LastIndexByte(d, '/')+1:]
	if out != "/" && (strings.HasSuffix(d, "/") || last == "." || last == "..") {
		out += "/"
	}
	return out + query
}

// referenceClean is the path path.Clean makes of p, escapes decoded
// ('/' among them), a final slash kept only where p has one as written
// (a file server tells a directory by it, before decoding).
func referenceClean(p string) string {
	d, query := referenceDecode(p, true)
	out := path.Clean(d)
	if out != "/" && strings.HasSuffix(p[:len(p)-len(query)], "/") {
		out += "/"
	}
	return out + query
}

// referenceDotsFirst is the path Apache before 2.4.49 serves for p:
// escapes but %2F decoded, then RFC 3986 §5.2.4 step by step, then
// slashes merged.
func referenceDotsFirst(p string) string {
	in, query := referenceDecode(p, false)
	return merged(dotsRemoved(in)) + query
}

// referenceApacheMergeFirst is the path Apache since 2.4.49 serves for p:
// escapes but %2F decoded, slashes merged, then RFC 3986 §5.2.4.
func referenceApacheMergeFirst(p string) string {
	in, query := referenceDecode(p, false)
	return dotsRemoved(merged(in)) + query
}

// merged is p with its runs of '/' made one.
func merged(p string) string {
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	return p
}

// dotsRemoved is RFC 3986 §5.2.4 step by step.
func dotsRemoved(in string) string {
	out := ""
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			out = out[:max(strings.LastIndexByte(out, '/'), 0)]
		case in == "/..":
			in = "/"
			out = out[:max(strings.LastIndexByte(out, '/'), 0)]
		case in == "." || in == "..":
			in = ""
		default:
			j := strings.IndexByte(in[1:], '/')
			if j < 0 {
				j = len(in)
			} else {
				j++
			}
			out += in[:j]
			in = in[j:]
		}
	}
	if out == "" {
		out = "/"
	}
	return out
}

func BenchmarkNormalFormsNormal(b *testing.B) {
	for range b.N {
		if _, n := NormalForms("/products/shoes/running-shoe-4711.html?color=red&size=42", nil); n != 0 {
			b.Fatal(n)
		}
	}
}

// TestNormalFormsLiteralPercentBeforeAnEscape: nginx and Apache decode
// /sale/50%25%6Fff once, to /sale/50%off: the '%' of the %25 is followed
// by 'o', no hex digit, once %6F is decoded, so the form is /sale/50%off,
// as for /sale/50%25off, which "Disallow: /sale/50%off" names.
func TestNormalFormsLiteralPercentBeforeAnEscape(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"/sale/50%25%6Fff", "/sale/50%off"},
		{"/sale/50%25%6fff", "/sale/50%off"},
		{"/a%25f%67", "/a%fg"},
		{"/discount-100%25%2Fx", "/discount-100%/x"},
	} {
		forms, n := NormalForms(tt.path, nil)
		if !slices.Contains(forms[:n], tt.want) {
			t.Errorf("NormalForms(%q) = %q, want %q among them", tt.path, forms[:n], tt.want)
		}
	}
	// Kept: decoding the %25 would make an escape of what was not one.
	for _, p := range []string{"/a%25%34%31", "/a%25a%62", "/./a%2541"} {
		forms, n := NormalForms(p, nil)
		for _, f := range forms[:n] {
			if !strings.Contains(f, "%25") {
				t.Errorf("NormalForms(%q) has %q, the %%25 decoded before an escape", p, f)
			}
		}
	}
}
