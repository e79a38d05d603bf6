package match

import (
	"go/parser"
	"go/token"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// refMatch is the reference matcher the fast one is checked against: the
// textbook O(len(pattern)·len(path)) dynamic programme over the pattern
// with '*' as "any run of bytes" and a final '$' as "end of path". It is
// deliberately written the slow, obvious way.
func refMatch(pattern, path string) bool {
	if pattern == "" {
		return false
	}
	anchored := pattern[len(pattern)-1] == '$'
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	// reach[j]: pattern[:i] matches path[:j] exactly.
	reach := make([]bool, len(path)+1)
	reach[0] = true
	for i := 0; i < len(pattern); i++ {
		next := make([]bool, len(path)+1)
		if pattern[i] == '*' {
			seen := false
			for j := 0; j <= len(path); j++ {
				seen = seen || reach[j]
				next[j] = seen
			}
		} else {
			for j := 1; j <= len(path); j++ {
				next[j] = reach[j-1] && path[j-1] == pattern[i]
			}
		}
		reach = next
	}
	if anchored {
		return reach[len(path)]
	}
	for _, ok := range reach {
		if ok {
			return true
		}
	}
	return false
}

func TestRefMatchSelfCheck(t *testing.T) {
	// The reference must itself be right, or agreeing with it proves
	// nothing.
	for _, c := range []struct {
		pat, path string
		want      bool
	}{
		{"", "/", false},
		{"/", "/", true},
		{"/a", "/", false},
		{"/a*c", "/abbbc", true},
		{"/a*c$", "/acx", false},
		{"$", "", true},
		{"*", "", true},
		{"/a$b", "/a$b", true},
	} {
		if got := refMatch(c.pat, c.path); got != c.want {
			t.Errorf("refMatch(%q, %q) = %v, want %v", c.pat, c.path, got, c.want)
		}
	}
}

func TestMatch(t *testing.T) {
	cases := []struct {
		pat, path string
		want      bool
	}{
		// Empty pattern matches nothing.
		{"", "/", false},
		{"", "", false},
		// Plain prefixes, anchored at the start, case-sensitive.
		{"/", "/", true},
		{"/", "/anything", true},
		{"/fish", "/fish", true},
		{"/fish", "/fish.html", true},
		{"/fish", "/fish/salmon.html", true},
		{"/fish", "/Fish.asp", false},
		{"/fish", "/catfish", false},
		{"/fish", "/?id=fish", false},
		{"/fish/", "/fish", false},
		{"fish", "/fish", false},
		// '*' matches any run, including none.
		{"/fish*", "/fish", true},
		{"/fish*", "/fishheads/yummy.html", true},
		{"/*.php", "/index.php", true},
		{"/*.php", "/folder/filename.php?parameters", true},
		{"/*.php", "/windows.PHP", false},
		{"/*.php", "/", false},
		{"*", "/", true},
		{"*", "", true},
		{"**", "/x", true},
		{"/a*b*c", "/abc", true},
		{"/a*b*c", "/axxbyyc", true},
		{"/a*b*c", "/acb", false},
		{"/a*a", "/a", false},
		{"/a*a", "/aa", true},
		// A final '$' anchors the end of path and query.
		{"/*.php$", "/filename.php", true},
		{"/*.php$", "/folder/filename.php", true},
		{"/*.php$", "/filename.php?parameters", false},
		{"/*.php$", "/filename.php5", false},
		{"/fish$", "/fish", true},
		{"/fish$", "/fish/", false},
		{"/$", "/", true},
		{"/$", "/a", false},
		{"$", "/", false},
		{"*$", "/", true},
		{"/a*$", "/a/b", true},
		{"/*b$", "/ab", true},
		{"/*b$", "/abb", true},
		{"/*b$", "/aba", false},
		{"/*ab$", "/ab", true},
		{"/a*ab$", "/ab", false}, // the literal tail may not overlap the head
		{"/a*ab$", "/aab", true},
		// '$' elsewhere is a literal byte.
		{"/a$b", "/a$b", true},
		{"/a$b", "/ab", false},
		{"/a$$", "/a$", true},
		{"/a$$", "/a", false},
		{"/$*", "/$x", true},
		{"/$*", "/x", false},
		// Percent escapes and reserved bytes are compared as bytes.
		{"/%7E", "/~", false},
		{"/%AA", "/%aa", false},
		{"/a?b", "/a?b=1", true},
		{"/a;b", "/a;b", true},
	}
	for _, c := range cases {
		if got := Match(c.pat, c.path); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pat, c.path, got, c.want)
		}
		if ref := refMatch(c.pat, c.path); ref != c.want {
			t.Errorf("test table wrong: refMatch(%q, %q) = %v", c.pat, c.path, ref)
		}
	}
}

// randomString draws a string of up to max bytes from alphabet.
func randomString(r *rand.Rand, alphabet string, max int) string {
	n := r.IntN(max + 1)
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// TestPropertyMatchAgreesWithReference compares Match with the
// dynamic-programming reference on random patterns and paths over a small alphabet, where collisions of
// literals, wildcards and anchors are frequent.
func TestPropertyMatchAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 60000
	if testing.Short() {
		n = 5000
	}
	for range n {
		pat := randomString(r, "ab/*$", 8)
		if r.IntN(2) == 0 {
			pat = "/" + pat
		}
		path := "/" + randomString(r, "ab/*$", 10)
		want := refMatch(pat, path)
		if got := Match(pat, path); got != want {
			t.Fatalf("Match(%q, %q) = %v, reference says %v", pat, path, got, want)
		}
	}
}

// TestSpec2_6_LinearTime feeds the matcher patterns that make a
// backtracking matcher explore an exponential (or at best polynomial of
// high degree) number of alignments, and counts the bytes of the path its
// searches pass over (see match): a linear matcher passes over each byte
// once, a backtracking one again and again. The answers are checked too.
func TestSpec2_6_LinearTime(t *testing.T) {
	long := strings.Repeat("a", 20000)
	cases := []struct {
		pat, path string
		want      bool
	}{
		{"/" + strings.Repeat("*a", 60) + "b", "/" + long, false},
		{"/" + strings.Repeat("*a", 60) + "b$", "/" + long, false},
		{"/" + strings.Repeat("a*", 60) + "$", "/" + long, true},
		{"/" + strings.Repeat("*a", 60) + "$", "/" + long, true},
		{"/" + strings.Repeat("*aa", 200) + "*ab", "/" + long + "b", true},
		{"/" + strings.Repeat("*", 5000) + "b$", "/" + long, false},
		{"/" + strings.Repeat("a*", 3000) + "c", "/" + long, false},
		{"/" + strings.Repeat("*ab", 30) + "*c", "/" + strings.Repeat("ab", 5000), false},
	}
	for i, c := range cases {
		if got := Match(c.pat, c.path); got != c.want {
			t.Errorf("case %d: Match = %v, want %v", i, got, c.want)
		}
		steps := 0
		pat, end := strings.CutSuffix(c.pat, "$")
		if got := match(pat, strings.IndexByte(pat, '*'), c.path, end, &steps); got != c.want {
			t.Errorf("case %d: match = %v, want %v", i, got, c.want)
		}
		if bound := len(c.path) + len(c.pat); steps > bound {
			t.Errorf("case %d: the searches passed over %d bytes of a %d-byte path, more than %d", i, steps, len(c.path), bound)
		}
	}
}

// TestMatcherUsesNoRegexp checks that the matcher uses no regular
// expressions, so that a hostile file cannot make a check slow, by
// looking at what the matcher's source imports.
func TestMatcherUsesNoRegexp(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == "regexp" || strings.HasPrefix(p, "regexp/") {
				t.Errorf("%s imports %s", name, p)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no source files found")
	}
}

func TestIndexDir(t *testing.T) {
	for _, c := range []struct {
		pat  string
		want int
	}{
		{"/index.html", 1},
		{"/index.htm", 1},
		{"/d/index.html", 3},
		{"/d/index.htmlx", 3}, // Google compares a prefix of the last segment
		{"/d/e/index.htm", 5},
		{"/d/index.php", 0},
		{"/d/Index.html", 0},
		{"/d/xindex.html", 0},
		{"/index.html/x", 0},
		{"index.html", 0},
		{"", 0},
		{"/*/index.html", 3},
	} {
		if got := IndexDir(c.pat); got != c.want {
			t.Errorf("IndexDir(%q) = %d, want %d", c.pat, got, c.want)
		}
	}
}

func TestMatchDir(t *testing.T) {
	for _, c := range []struct {
		dir, path string
		want      bool
	}{
		{"/d/", "/d/", true},
		{"/d/", "/d/x", false},
		{"/d/", "/d/?q", false},
		{"/d/", "/d", false},
		{"/", "/", true},
		{"/*/", "/a/b/", true},
		{"/*/", "/a/b", false},
	} {
		if got := matchDir(c.dir, c.path); got != c.want {
			t.Errorf("matchDir(%q, %q) = %v, want %v", c.dir, c.path, got, c.want)
		}
		if ref := refMatch(c.dir+"$", c.path); ref != c.want {
			t.Errorf("test table wrong for %q %q", c.dir, c.path)
		}
	}
}

// FuzzMatch compares the matcher with the reference on arbitrary input.
// The reference is quadratic, so inputs are capped to keep each run fast.
func FuzzMatch(f *testing.F) {
	for _, s := range [][2]string{
		{"/", "/"},
		{"/a*b$", "/aab"},
		{"*.gif$", "/x.gif"},
		{"/a$b", "/a$b"},
		{"/*a*a*a*b", "/aaaaaaaa"},
		{"", "/"},
		{"$", ""},
		{"/fish*", "/fish.html"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pat, path string) {
		if len(pat) > 256 || len(path) > 1024 {
			return
		}
		want := refMatch(pat, path)
		if got := Match(pat, path); got != want {
			t.Fatalf("Match(%q, %q) = %v, reference says %v", pat, path, got, want)
		}
		if n := IndexDir(pat); n > 0 {
			dir := pat[:n]
			if got, ref := matchDir(dir, path), refMatch(dir+"$", path); got != ref {
				t.Fatalf("matchDir(%q, %q) = %v, reference says %v", dir, path, got, ref)
			}
		}
		// MatchRule, as a disallow and as an allow, agrees; the
		// paths it matches start with its prefix.
		for _, allow := range []bool{false, true} {
			n, ok := MatchRule(pat, allow, path)
			wantN := len(pat)
			if allow && !want {
				if d := IndexDir(pat); d > 0 && refMatch(pat[:d]+"$", path) {
					want, wantN = true, d+1
				}
			}
			if ok != want || ok && n != wantN {
				t.Fatalf("Rule %q (allow %v) Match(%q) = %d %v, reference %d %v", pat, allow, path, n, ok, wantN, want)
			}
			if ok && !strings.HasPrefix(path, Prefix(pat, allow)) {
				t.Fatalf("Rule %q matches %q outside its prefix %q", pat, path, Prefix(pat, allow))
			}
		}
	})
}
