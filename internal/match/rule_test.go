package match

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestRuleMatch(t *testing.T) {
	for _, c := range []struct {
		pattern string
		allow   bool
		path    string
		n       int
		ok      bool
	}{
		{"/d/index.html", true, "/d/index.html", 13, true},
		{"/d/index.html", true, "/d/index.html?x", 13, true},
		{"/d/index.html", true, "/d/", 4, true}, // as "/d/$"
		{"/d/index.html", true, "/d/?x", 0, false},
		{"/d/index.html", true, "/d/x", 0, false},
		{"/e/index.htm", true, "/e/", 4, true},
		{"/d/index.html", false, "/d/", 0, false}, // only allows widen to the directory
		{"/*/index.html", true, "/x/y/", 4, true},
		{"/f/", true, "/f/x", 3, true},
		{"", false, "/", 0, false}, // empty pattern matches nothing
		{"/a$", false, "/a", 3, true},
		{"/a$", false, "/ab", 0, false},
		{"/a*c", false, "/abc", 4, true},
		{"/a*c$", false, "/abcd", 0, false},
		{"/a*c*e", false, "/abcde", 6, true},
	} {
		n, ok := MatchRule(c.pattern, c.allow, c.path)
		if n != c.n || ok != c.ok {
			t.Errorf("rule %q (allow %v) Match(%q) = %d %v, want %d %v", c.pattern, c.allow, c.path, n, ok, c.n, c.ok)
		}
	}
}

func TestRulePrefix(t *testing.T) {
	for _, c := range []struct {
		pattern string
		allow   bool
		want    string
	}{
		{"", false, ""},
		{"/", false, "/"},
		{"/a/b", false, "/a/b"},
		{"/a/b$", false, "/a/b"},
		{"/a$b", false, "/a$b"},
		{"/a*b", false, "/a"},
		{"*", false, ""},
		{"/a*b*c$", false, "/a"},
		{"/d/index.html", true, "/d/"},
		{"/d/index.html", false, "/d/index.html"},
		{"/d*/index.html", true, "/d"},
		{"/d/index.htm*", true, "/d/"},
	} {
		if got := Prefix(c.pattern, c.allow); got != c.want {
			t.Errorf("Prefix of %q (allow %v) = %q, want %q", c.pattern, c.allow, got, c.want)
		}
	}
}

// TestPropertyRulePrefixStartsEveryMatch: every path a rule matches begins
// with its prefix, which is what indexing rules by prefix rests on; and
// MatchRule agrees with the reference.
func TestPropertyRulePrefixStartsEveryMatch(t *testing.T) {
	rnd := rand.New(rand.NewPCG(31, 32))
	const alphabet = "ab/*$."
	gen := func(n int) string {
		var b strings.Builder
		b.WriteByte('/')
		for range rnd.IntN(n) {
			b.WriteByte(alphabet[rnd.IntN(len(alphabet))])
		}
		return b.String()
	}
	for range 20000 {
		p := gen(8)
		if rnd.IntN(4) == 0 {
			p += "/index.html"
		}
		allow := rnd.IntN(2) == 0
		path := gen(12)
		n, ok := MatchRule(p, allow, path)
		if ok && !strings.HasPrefix(path, Prefix(p, allow)) {
			t.Fatalf("%q matches %q, which does not start with its prefix %q", p, path, Prefix(p, allow))
		}
		want, wantN := refMatch(p, path), len(p)
		if !want && allow {
			if d := IndexDir(p); d > 0 && refMatch(p[:d]+"$", path) {
				want, wantN = true, d+1
			}
		}
		if ok != want || ok && n != wantN {
			t.Fatalf("%q (allow %v) Match(%q) = %d %v, reference %d %v", p, allow, path, n, ok, wantN, want)
		}
	}
}
