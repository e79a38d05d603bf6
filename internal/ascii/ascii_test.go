package ascii

import (
	"fmt"
	"strings"
	"testing"
)

// TestIsASCII puts one high byte at every position of strings of every
// length up to 80, so each of the word-wise loops sees it.
func TestIsASCII(t *testing.T) {
	for n := 0; n <= 80; n++ {
		b := []byte(strings.Repeat("a", n))
		if !IsASCII(string(b)) {
			t.Fatalf("IsASCII of %d ASCII bytes = false", n)
		}
		for i := range b {
			b[i] = 0x80
			if IsASCII(string(b)) {
				t.Fatalf("IsASCII with 0x80 at %d of %d = true", i, n)
			}
			b[i] = 'a'
		}
	}
}

// TestHex checks every byte against the hex digits spelt out.
func TestHex(t *testing.T) {
	const digits = "0123456789abcdefABCDEF"
	for c := range 256 {
		b := byte(c)
		i := strings.IndexByte(digits, b)
		if IsHex(b) != (i >= 0) {
			t.Errorf("IsHex(%q) = %v", b, IsHex(b))
		}
		if IsLowerHex(b) != (10 <= i && i < 16) {
			t.Errorf("IsLowerHex(%q) = %v", b, IsLowerHex(b))
		}
		switch {
		case i < 0:
			if UpperHexDigit(b) != b {
				t.Errorf("UpperHexDigit(%q) = %q, want it unchanged", b, UpperHexDigit(b))
			}
		case i < 16:
			if Unhex(b) != byte(i) || UpperHex[i] != UpperHexDigit(b) {
				t.Errorf("%q: Unhex %d, UpperHexDigit %q", b, Unhex(b), UpperHexDigit(b))
			}
		default:
			if Unhex(b) != byte(i-6) || UpperHexDigit(b) != b {
				t.Errorf("%q: Unhex %d, UpperHexDigit %q", b, Unhex(b), UpperHexDigit(b))
			}
		}
		if got, want := string(AppendEscape([]byte("x"), b)), fmt.Sprintf("x%%%02X", c); got != want {
			t.Errorf("AppendEscape(%q) = %q, want %q", b, got, want)
		}
		want := 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || strings.IndexByte("-._~", b) >= 0
		if IsUnreserved(b) != want {
			t.Errorf("IsUnreserved(%q) = %v", b, IsUnreserved(b))
		}
	}
}

func TestLowerString(t *testing.T) {
	for in, want := range map[string]string{"": "", "abc": "abc", "AbC-D": "abc-d", "\u212a": "\u212a", "ÄB": "Äb", "X\xff": "x\xff"} {
		if got := LowerString(in); got != want {
			t.Errorf("LowerString(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEqualFold(t *testing.T) {
	for _, tc := range []struct {
		s, t string
		want bool
	}{
		{"Content-Usage", "content-usage", true},
		{"", "", true},
		{"https", "HTTPS", true},
		{"httpſ", "https", false}, // U+017F folds to "s" in Unicode only
		{"\u212aelvin", "kelvin", false},
		{"ab", "abc", false},
		{"a\xff", "A\xff", true},
		{"@", "`", false}, // the bytes beside the letters
		{"[", "{", false},
	} {
		if got := EqualFold(tc.s, tc.t); got != tc.want {
			t.Errorf("EqualFold(%q, %q) = %v, want %v", tc.s, tc.t, got, tc.want)
		}
	}
}

func TestIsEscape(t *testing.T) {
	for _, c := range []struct {
		s    string
		i    int
		want bool
	}{
		{"%2F", 0, true}, {"a%2f", 1, true}, {"%2", 0, false}, {"%g1", 0, false},
		{"%1g", 0, false}, {"a%2F", 0, false}, {"%%2F", 0, false}, {"%%2F", 1, true},
	} {
		if got := IsEscape(c.s, c.i); got != c.want {
			t.Errorf("IsEscape(%q, %d) = %v, want %v", c.s, c.i, got, c.want)
		}
	}
}

// TestIndexByte compares IndexByte with strings.IndexByte for every place
// of the byte in strings of up to 40 bytes, and without it.
func TestIndexByte(t *testing.T) {
	for n := 0; n <= 40; n++ {
		s := strings.Repeat("a", n)
		if IndexByte(s, '*') != -1 {
			t.Fatalf("IndexByte of %d bytes without '*' found one", n)
		}
		for i := range n {
			for _, s := range []string{s[:i] + "*" + s[i+1:], s[:i] + "*" + s[i+1:] + "*", s[:i] + "\xaa" + s[i+1:]} {
				for _, c := range []byte{'*', 0xaa} {
					if got, want := IndexByte(s, c), strings.IndexByte(s, c); got != want {
						t.Fatalf("IndexByte(%q, %q) = %d, want %d", s, c, got, want)
					}
				}
			}
		}
	}
}

// BenchmarkIndexByte times IndexByte against strings.IndexByte on the
// strings robots.txt patterns are: a '*' at 1 ("/*.pdf$") or 6
// ("/shop/*/x"), and none in 4, 12 or 40 bytes.
func BenchmarkIndexByte(b *testing.B) {
	for _, s := range []string{"/*.pdf$", "/shop/*/reviews/", "/abc", "/search?q=xy", strings.Repeat("/abcdefg", 5)} {
		for _, f := range []struct {
			name string
			f    func(string, byte) int
		}{{"ascii", IndexByte}, {"strings", strings.IndexByte}} {
			b.Run(fmt.Sprintf("%s/%d-%d", f.name, len(s), strings.IndexByte(s, '*')), func(b *testing.B) {
				for b.Loop() {
					sinkInt = f.f(s, '*')
				}
			})
		}
	}
}

var sinkInt int

func TestContainsFold(t *testing.T) {
	for _, c := range []struct {
		s, sub string
		want   bool
	}{
		{"<HTML><NoScript>", "<noscript", true},
		{"User-Agent: *", "user-agent", true},
		{"xx</NOSCRIPT", "</noscript", true},
		{"<noscrip", "<noscript", false},
		{"DisALLow: /", "allow", true},
		{"a-l-l-o-w", "allow", false},
		{"", "", true},
		{"abc", "", true},
		{"\u017fcript", "script", false}, // the long s folds to s in Unicode, not in ASCII
	} {
		if got := ContainsFold([]byte(c.s), c.sub); got != c.want {
			t.Errorf("ContainsFold(%q, %q) = %v, want %v", c.s, c.sub, got, c.want)
		}
	}
}
