package match

import (
	"github.com/robotsgate/robotstxt/internal/ascii"
	"math/rand/v2"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"/a/b/c", "/a/b/c"},
		{"http://www.example.com", "http://www.example.com"},
		{"\u00e1", "%C3%A1"},
		{"/foo/bar/ツ", "/foo/bar/%E3%83%84"},
		{"%aa", "%AA"},
		{"%aA%Bb%cc", "%AA%BB%CC"},
		{"/%7e", "/%7E"},
		{"/%7E", "/%7E"},
		{"/%7Efred", "/%7Efred"}, // nothing is decoded
		{"/%62%61%7A", "/%62%61%7A"},
		{"/%2f", "/%2F"},
		{"/%g1", "/%g1"}, // not an escape: left alone
		{"/%a", "/%a"},   // too short
		{"/%", "/%"},
		{"/100%", "/100%"},
		{"/a%zz%ab", "/a%zz%AB"},
		{"/\xff\x80", "/%FF%80"},
		{"/ä%e4", "/%C3%A4%E4"},
		{"/*$", "/*$"},
		{"/%%aa", "/%%AA"},
	} {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestUnescape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"/", "/"},
		{"/%7Efred", "/~fred"},
		{"/%7efred", "/~fred"},
		{"/~fred", "/~fred"},
		{"/foo/bar/%62%61%7A", "/foo/bar/baz"},
		{"/%2D%2E%5F%7E%30%41%61", "/-._~0Aa"},
		{"/a%2Fb", "/a%2Fb"}, // reserved: stays encoded
		{"/a%2fb", "/a%2Fb"}, // … with upper-case hex
		{"/%2A", "/%2A"},
		{"/%24", "/%24"},
		{"/%3f", "/%3F"},
		{"/%E3%83%84", "/%E3%83%84"},
		{"/%e3%83%84", "/%E3%83%84"},
		{"/%zz", "/%zz"},
		{"/%7", "/%7"},
		{"/%", "/%"},
		{"%41", "A"},
		{"%2541", "%2541"}, // %25 is "%", not unreserved: it stays, and nothing is decoded twice
	} {
		if got := Unescape(c.in); got != c.want {
			t.Errorf("Unescape(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := string(appendUnescaped([]byte("x"), c.in)); got != "x"+c.want {
			t.Errorf("appendUnescaped(x, %q) = %q, want %q", c.in, got, "x"+c.want)
		}
	}
}

// TestPropertyEscapeIdempotent: normalising twice is normalising once, the
// result is ASCII, and its escapes have upper-case hex; Unescape likewise
// settles after one pass.
func TestPropertyEscapeIdempotent(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const alphabet = "/a%7eEfF2*$\x80\xc3\xa4~"
	for range 20000 {
		s := randomString(r, alphabet, 12)
		e := Escape(s)
		if Escape(e) != e {
			t.Fatalf("Escape not idempotent on %q: %q then %q", s, e, Escape(e))
		}
		for i := 0; i < len(e); i++ {
			if e[i] >= 0x80 {
				t.Fatalf("Escape(%q) = %q keeps a non-ASCII byte", s, e)
			}
			if ascii.IsEscape(e, i) && (ascii.IsLowerHex(e[i+1]) || ascii.IsLowerHex(e[i+2])) {
				t.Fatalf("Escape(%q) = %q keeps lower-case hex", s, e)
			}
		}
		u := Unescape(e)
		if Unescape(u) != u {
			// Decoding an unreserved byte can never form a new escape,
			// since '%' is not unreserved.
			t.Fatalf("Unescape not idempotent on %q: %q then %q", e, u, Unescape(u))
		}
	}
}
