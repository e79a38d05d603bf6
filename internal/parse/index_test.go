package parse

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt/internal/longtest"
	"github.com/robotsgate/robotstxt/internal/match"
)

// bruteDecide decides path by matching every rule of the given groups in
// file order, with no index: the longest match wins, allow on a tie, the
// first on a full tie.
func bruteDecide(f *File, groups []int, path string) (Rule, bool) {
	var best match.Best
	var at Rule
	for _, g := range groups {
		for _, r := range f.Groups[g].Rules {
			if n, ok := match.MatchRule(r.Pattern, r.Allow, path); ok && best.Beats(n, r.Allow, r.Line) {
				best.Take(n, r.Allow, r.Line)
				at = r
			}
		}
	}
	return at, best.Found
}

// agreeWithBruteForce checks that tb, and sel (tb's groups selected),
// decide every path as trying every rule of groups does, and so does the
// first check of a selected table, which tries each rule.
func agreeWithBruteForce(t *testing.T, body string, tb, sel *Table, groups []int, paths []string) {
	t.Helper()
	f := tb.File()
	for _, p := range paths {
		want, wok := bruteDecide(f, groups, p)
		c := check{t: sel, path: p, at: -1}
		if c.each([]int{0}); (c.at >= 0) != wok || wok && sel.rule(c.at) != want {
			t.Fatalf("each(%q) = rule %d, brute force %+v %v\nbody:\n%.2000s", p, c.at, want, wok, body)
		}
		if got, ok := tb.Decide(groups, p); ok != wok || got != want {
			t.Fatalf("Decide(%q) = %+v %v, brute force %+v %v\nbody:\n%.2000s", p, got, ok, want, wok, body)
		}
		if got, ok := sel.Decide([]int{0}, p); ok != wok || got != want {
			t.Fatalf("Select.Decide(%q) = %+v %v, brute force %+v %v\nbody:\n%.2000s", p, got, ok, want, wok, body)
		}
	}
}

// TestIndexOrder: indexing sorts each group's rules by prefix (a group of
// more than smallGroup rules), then by precedence, then by line, and
// notes grams in the blocks of filteredBlock rules with pieces or more
// alone, each one of a piece of the rule's runs after its prefix.
func TestIndexOrder(t *testing.T) {
	rnd := rand.New(rand.NewPCG(81, 82))
	for range 300 {
		body, _ := genIndexed(rnd)
		if rnd.IntN(2) == 0 {
			body, _ = genWildBlock(rnd, 1+rnd.IntN(3*filteredBlock))
		}
		tb := Compile([]byte(body))
		tb.index()
		for _, table := range []*Table{tb, tb.Select([]int{0}, nil)} {
			table.index()
			rules, base := table.groupRules(0)
			prefix := table.prefix
			if len(rules) <= smallGroup {
				prefix = func(*rule) string { return "" }
			}
			for i := 1; i < len(rules); i++ {
				a, b := &rules[i-1], &rules[i]
				c := cmp.Or(strings.Compare(prefix(a), prefix(b)),
					match.Precedence(int(a.n), a.allow(), int(b.n), b.allow()), cmp.Compare(a.line, b.line))
				if c >= 0 {
					t.Fatalf("rules %q (line %d) and %q (line %d) out of order\nbody:\n%s",
						table.pattern(a), a.line, table.pattern(b), b.line, body)
				}
			}
			for b := 0; b < len(rules); {
				e := b + 1
				for e < len(rules) && prefix(&rules[e]) == prefix(&rules[b]) {
					e++
				}
				filtered := len(rules) > smallGroup && countWild(rules[b:e]) >= filteredBlock
				for i := b; i < e; i++ {
					r := &rules[i]
					var gram uint16
					if table.grams != nil {
						gram = table.grams[base+i]
					}
					has, pieces := false, false
					eachPiece(table.text, r, func(h uint16) { has, pieces = has || gramMark|h == gram, true })
					if gram != 0 && (!filtered || !has) {
						t.Fatalf("rule %q of a block of %d has gram %#x, not one of its pieces\nbody:\n%s",
							table.pattern(r), e-b, gram, body)
					}
					if gram == 0 && filtered && pieces {
						t.Fatalf("rule %q of a block of %d has pieces but no gram\nbody:\n%s", table.pattern(r), e-b, body)
					}
				}
				b = e
			}
		}
	}
}

// genIndexed draws a file whose patterns share prefixes at many depths,
// in several groups, with wildcards, '$' ends, index.html allows and
// duplicates, and paths that run along the same prefixes.
func genIndexed(rnd *rand.Rand) (body string, paths []string) {
	segs := []string{"a", "ab", "abc", "b", "", "x/y", "a/b"}
	gen := func() string {
		var b strings.Builder
		b.WriteByte('/')
		for range rnd.IntN(5) {
			b.WriteString(segs[rnd.IntN(len(segs))])
			if rnd.IntN(3) == 0 {
				b.WriteByte('/')
			}
		}
		return b.String()
	}
	var b strings.Builder
	agents := []string{"*", "FooBot", "BarBot"}
	for range 1 + rnd.IntN(4) {
		b.WriteString("User-agent: " + agents[rnd.IntN(len(agents))] + "\n")
		for range rnd.IntN(60) {
			p := gen()
			switch rnd.IntN(8) {
			case 0:
				p += "*" + segs[rnd.IntN(len(segs))]
			case 1:
				p += "$"
			case 2:
				p = "*" + p
			case 3:
				p += "index.html"
				if rnd.IntN(3) == 0 {
					p = p[:1] + "*" + p[1:] // a '*' before the index page
				}
			case 4:
				p = p[:rnd.IntN(len(p)+1)]
			}
			kind := "Disallow: "
			if rnd.IntN(2) == 0 {
				kind = "Allow: "
			}
			b.WriteString(kind + p + "\n")
		}
	}
	for range 20 {
		p := gen() + segs[rnd.IntN(len(segs))]
		if rnd.IntN(4) == 0 {
			// A '*' in a path is a literal byte, which a prefix's own
			// '*' does not equal.
			i := 1 + rnd.IntN(len(p))
			p = p[:i] + "*" + p[i:]
		}
		paths = append(paths, p)
	}
	return b.String(), paths
}

// TestPropertyDecideAgreesWithBruteForce: the indexed check decides as
// matching every rule does, with the same deciding rule, for any choice of
// groups, and so does the table that Select makes of those groups, which
// holds their rules.
func TestPropertyDecideAgreesWithBruteForce(t *testing.T) {
	longtest.Gate(t)
	rnd := rand.New(rand.NewPCG(41, 42))
	for range 3000 {
		body, paths := genIndexed(rnd)
		tb := Compile([]byte(body))
		for _, tokens := range [][]string{{"FooBot"}, {"BarBot"}, {"FooBot", "BarBot"}, {"Other"}} {
			groups, _ := tb.AppendGroups(nil, tokens...)
			sel := tb.Select(groups, nil)
			if got, want := sel.Rules([]int{0}), tb.Rules(groups); !reflect.DeepEqual(got, want) {
				t.Fatalf("Select(%v).Rules = %v, want %v\nbody:\n%s", groups, got, want, body)
			}
			agreeWithBruteForce(t, body, tb, sel, groups, paths)
		}
	}
}

// TestDecideTriesOnlyPrefixes: a check matches only rules whose prefix
// starts the path, and of those only the ones that can still win.
func TestDecideTriesOnlyPrefixes(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /a\nDisallow: *.gif$\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "Disallow: /%d/x\nAllow: /a/%d\n", i, i)
	}
	tb := Compile([]byte(b.String()))
	for _, c := range []struct {
		path  string
		tried int
	}{
		{"/b", 1},         // *.gif$
		{"/a/b", 2},       // /a, *.gif$
		{"/a/7/x", 2},     // /a/7 wins, so /a and *.gif$ cannot
		{"/a/7/x.gif", 2}, // /a/7 wins, as long as *.gif$, by allow
		{"/999/x", 2},     // /999/x, and *.gif$, as long and earlier
	} {
		if _, _, tried := tb.Run([]int{0}, c.path); tried != c.tried {
			t.Errorf("%s: the check matched %d rules, want %d", c.path, tried, c.tried)
		}
	}
	agreeWithBruteForce(t, b.String(), tb, tb.Select([]int{0}, nil), []int{0},
		[]string{"/b", "/a/b", "/a/7/x", "/a/7/x.gif", "/999/x", "/1000/x", "/a/1000"})
}

// TestDecideFarStar covers patterns whose first '*' lies far into them.
func TestDecideFarStar(t *testing.T) {
	long := "/" + strings.Repeat("a", 300)
	tb := Compile([]byte("user-agent: *\ndisallow: " + long + "*z\nallow: " + long + "*z*y$\n"))
	for _, c := range []struct {
		path string
		line int
	}{
		{long + "xxz", 2},
		{long + "xx", 0},
		{long + "zzy", 3},
		{long + "zzyq", 2},
	} {
		r, ok := tb.Decide([]int{0}, c.path)
		if ok != (c.line != 0) || r.Line != c.line {
			t.Errorf("Decide(…%s) = %+v %v, want line %d", c.path[len(c.path)-5:], r, ok, c.line)
		}
	}
}

// TestDecideManyRulesBetweenPrefixes: tens of thousands of rules sort
// between a block and the blocks of its longer prefixes, which the
// search passes over.
func TestDecideManyRulesBetweenPrefixes(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /a\nAllow: /\n")
	for i := range 70000 {
		fmt.Fprintf(&b, "Allow: /a/%05d/\n", i)
	}
	b.WriteString("Allow: /a/zz/*.gif\n")
	body := b.String()
	tb := Compile([]byte(body))
	paths := []string{"/a/zz/x", "/a/zz/x.gif", "/a/zzz", "/a/70000", "/a/00007/x", "/a/", "/b", "/a"}
	agreeWithBruteForce(t, body, tb, tb.Select([]int{0}, nil), []int{0}, paths)
	if r, ok := tb.Decide([]int{0}, "/a/zz/x"); !ok || r.Pattern != "/a" {
		t.Fatalf(`Decide("/a/zz/x") = %+v %v, want /a`, r, ok)
	}
}

// TestDecideStaircase: a path that hundreds of nested prefixes start,
// each with many rules between it and the next, is decided as matching
// every rule decides, and matched against the rules of those prefixes
// alone.
func TestDecideStaircase(t *testing.T) {
	const levels = 300
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for k := 1; k <= levels; k++ {
		level := "/" + strings.Repeat("a", k)
		fmt.Fprintf(&b, "Disallow:%s\nAllow:%s*%d\nDisallow:%s*%s\n", level, level, k, level, strings.Repeat("z", levels+20-k))
		for i := range 20 {
			fmt.Fprintf(&b, "Allow:%s0%d\n", level, i)
		}
	}
	body := b.String()
	tb := Compile([]byte(body))
	top := "/" + strings.Repeat("a", levels)
	paths := []string{top + "b", top + "b3", top + "3", "/a1", "/aa0", "/aaa0/x", top[:4] + "b",
		top + strings.Repeat("z", levels+19), top + strings.Repeat("z", levels+18) + "/3", top + "0"}
	agreeWithBruteForce(t, body, tb, tb.Select([]int{0}, nil), []int{0}, paths)
	// Level 1's wildcard rule is the longest: it decides the path, after
	// the longer prefixes' rules, all tried.
	if r, ok := tb.Decide([]int{0}, paths[7]); !ok || r.Pattern != "/a*"+strings.Repeat("z", levels+19) {
		t.Fatalf("Decide(%q) = %+v %v, want level 1's wildcard rule", paths[7], r, ok)
	}
	if _, _, tried := tb.Run([]int{0}, paths[7]); tried > 3*levels {
		t.Errorf("the check matched %d rules, more than the %d of the prefixes that start the path", tried, 3*levels)
	}
}

// TestDecideLongPaths: paths of any length below a chain of blocks of
// wildcard rules, long enough that a block matches its rules instead of
// hashing the path's grams or short enough that it hashes them, are
// decided as matching every rule decides: a rule of the chain's first
// level decides some.
func TestDecideLongPaths(t *testing.T) {
	for _, per := range []int{filteredBlock, 200} {
		var b strings.Builder
		b.WriteString("User-agent: *\nDisallow: /a*MATCH-ME-AT-LEVEL-ONE\n")
		prefix := ""
		for d := range 8 {
			prefix += "/a"
			for j := range per {
				fmt.Fprintf(&b, "Allow: %s*QQ%d%03dZ\n", prefix, d, j)
			}
			fmt.Fprintf(&b, "Allow: %s*Z%d$\n", prefix, d)
		}
		body := b.String()
		tb := Compile([]byte(body))
		sel := tb.Select([]int{0}, nil)
		for _, n := range []int{gramPath * per / 2, 2 * gramPath * per, 300, 3000} {
			long := prefix + "/" + strings.Repeat("x", n)
			paths := []string{long + "MATCH-ME-AT-LEVEL-ONE", long + "QQ3001Z", long + "QQ0001Z/MATCH-ME-AT-LEVEL-ONE",
				long, long + "Z5", long + "QQ7001Z/Z2"}
			agreeWithBruteForce(t, body, tb, sel, []int{0}, paths)
			if r, ok := sel.Decide([]int{0}, paths[0]); !ok || r.Pattern != "/a*MATCH-ME-AT-LEVEL-ONE" {
				t.Fatalf("Decide(%q) = %+v %v, want level one's rule", paths[0], r, ok)
			}
		}
	}
}

// TestDecideLongPrefixes: prefixes of hundreds of bytes are compared
// right with paths that hold a literal '*' before, at and past any point
// of them.
func TestDecideLongPrefixes(t *testing.T) {
	long := "/" + strings.Repeat("ab", 256)
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	const n = 40
	for i := range n {
		at := i * len(long) / n
		fmt.Fprintf(&b, "Disallow: %s*x%d\nAllow: %s\n", long[:at+1], i, long[:at+1]+"*")
	}
	b.WriteString("Allow: " + long + "*y\nDisallow: " + long + "\n")
	body := b.String()
	tb := Compile([]byte(body))
	var paths []string
	for _, at := range []int{1, 128, 255, 256, 257, len(long) - 1, len(long)} {
		p := long[:at] + "*" + long[at:]
		paths = append(paths, p, p+"y", p+"x3", long[:at]+"*x7", long+"*y")
	}
	agreeWithBruteForce(t, body, tb, tb.Select([]int{0}, nil), []int{0}, paths)
}

// TestDecideWideLines covers rules past line 65535, in a small group and
// a large one, in the table and in what Select makes of it.
func TestDecideWideLines(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	for _, rules := range []int{3, 80} {
		var b strings.Builder
		b.WriteString("User-agent: *\n")
		for i := range rules {
			fmt.Fprintf(&b, "Disallow: /a%d*x\nAllow: /a%d\n", i%7, i%5)
			if i == rules/2 {
				b.WriteString(strings.Repeat("#\n", 1<<16))
			}
		}
		b.WriteString("Disallow: /\n")
		tb := Compile([]byte(b.String()))
		f := tb.File()
		sel := tb.Select([]int{0}, nil)
		if got := f.Groups[0].Rules[len(f.Groups[0].Rules)-1].Line; got <= 1<<16 {
			t.Fatalf("last rule on line %d, want one past %d", got, 1<<16)
		}
		if got, want := sel.Rules([]int{0}), tb.Rules([]int{0}); !reflect.DeepEqual(got, want) {
			t.Fatalf("Rules = %v, want %v", got, want)
		}
		for range 200 {
			p := fmt.Sprintf("/a%d%s", rnd.IntN(8), []string{"", "x", "yx", "/q"}[rnd.IntN(4)])
			want, wok := bruteDecide(f, []int{0}, p)
			for _, tab := range []*Table{tb, sel} {
				if got, ok := tab.Decide([]int{0}, p); ok != wok || got != want {
					t.Fatalf("%d rules: Decide(%q) = %+v %v, brute force %+v %v", rules, p, got, ok, want, wok)
				}
			}
		}
	}
}

// genWildBlock draws a group that is one block of n wildcard rules, or
// 33 to 122 when n is 0, with long shared runs that differ in a digit or
// two, in runs of one to six bytes, some ending in '$', so that the grams
// of neighbours and of paths collide often; paths are rules with their
// '*' filled in, mutated.
func genWildBlock(rnd *rand.Rand, n int) (body string, paths []string) {
	runs := []string{"/doc?id=", "&ref=20", "ab", "x", "a/b", "&p=1", "index.html", "/d"}
	digits := func() string { return strconv.Itoa(rnd.IntN(40)) }
	var pats []string
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	prefix := []string{"", "/", "/d", "*"}[rnd.IntN(4)]
	if n == 0 {
		n = 33 + rnd.IntN(90)
	}
	for range n {
		var p strings.Builder
		p.WriteString(prefix)
		for range 1 + rnd.IntN(4) {
			p.WriteString("*" + runs[rnd.IntN(len(runs))])
			if rnd.IntN(2) == 0 {
				p.WriteString(digits())
			}
		}
		if rnd.IntN(5) == 0 {
			p.WriteString("$")
		}
		pats = append(pats, p.String())
		kind := "Disallow: "
		if rnd.IntN(3) == 0 {
			kind = "Allow: "
		}
		b.WriteString(kind + p.String() + "\n")
	}
	for range 30 {
		p := pats[rnd.IntN(len(pats))]
		p = strings.TrimSuffix(strings.ReplaceAll(p, "*", runs[rnd.IntN(len(runs))]), "$")
		if p == "" || p[0] != '/' {
			p = "/" + p
		}
		switch rnd.IntN(4) {
		case 0:
			p += digits()
		case 1:
			i := rnd.IntN(len(p))
			p = p[:i] + digits() + p[i+1:]
		case 2:
			p = p[:rnd.IntN(len(p)+1)]
		}
		paths = append(paths, p)
	}
	return b.String(), paths
}

// TestPropertyWildBlockAgreesWithBruteForce: the gram filter of a large
// block of wildcard rules passes over no rule that matches.
func TestPropertyWildBlockAgreesWithBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(43, 44))
	for i := range 1500 {
		n := 0
		if i%4 == 0 {
			n = 1 + rnd.IntN(2*filteredBlock)
		}
		body, paths := genWildBlock(rnd, n)
		tb := Compile([]byte(body))
		agreeWithBruteForce(t, body, tb, tb.Select([]int{0}, nil), []int{0}, paths)
	}
}

// FuzzDecideAgreesWithBruteForce: for any body and path, the indexed
// check, on the table and on the table Select makes, decides as matching
// every rule does. The seeds are files of each kind the property tests
// draw, so that mutations reach the index and its grams.
func FuzzDecideAgreesWithBruteForce(f *testing.F) {
	rnd := rand.New(rand.NewPCG(49, 50))
	for range 4 {
		body, paths := genIndexed(rnd)
		f.Add([]byte(body), paths[0])
		body, paths = genWildBlock(rnd, filteredBlock+rnd.IntN(60))
		f.Add([]byte(body), paths[0])
	}
	f.Fuzz(func(t *testing.T, body []byte, path string) {
		if len(body) > 1<<16 || len(path) > 1<<12 {
			return
		}
		tb := Compile(body)
		file := tb.File()
		for _, token := range []string{"FooBot", "BarBot"} {
			groups, _ := tb.AppendGroups(nil, token)
			want, wok := bruteDecide(file, groups, path)
			if got, ok := tb.Decide(groups, path); ok != wok || got != want {
				t.Fatalf("Decide(%v, %q) = %+v %v, brute force %+v %v", groups, path, got, ok, want, wok)
			}
			if got, ok := tb.Select(groups, nil).Decide([]int{0}, path); ok != wok || got != want {
				t.Fatalf("Select(%v).Decide(%q) = %+v %v, brute force %+v %v", groups, path, got, ok, want, wok)
			}
		}
	})
}

// TestSpec2_6_HostileFile: many wildcard rules that each defeat a
// backtracking matcher, against a long URL, and one allow, longer than any
// of them, that matches it. The check matches the allow alone, since its
// block's prefix is the longest and no other rule can beat it, and counts
// the rules it matched (a check that tried rules it need not would match
// them all); the matcher's own work on each is bounded by matcher's
// TestSpec2_6_LinearTime.
func TestSpec2_6_HostileFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: FooBot\n")
	for i := range 200 {
		b.WriteString("Disallow: /" + strings.Repeat("*a", 40+i%20) + "b\n")
	}
	b.WriteString("Allow: /" + strings.Repeat("a*", 100) + "$\n")
	path := "/" + strings.Repeat("a", 16000)
	for _, tb := range []*Table{Compile([]byte(b.String())), Compile([]byte(b.String())).Select([]int{0}, nil)} {
		r, ok, tried := tb.Run([]int{0}, path)
		if !ok || r.Line != 202 || !r.Allow {
			t.Fatalf("the check decided by %+v %v, want the allow on line 202", r, ok)
		}
		if tried != 1 {
			t.Errorf("the check matched %d rules, want the allow alone", tried)
		}
	}
}

// TestCorpusDecideAgreesWithBruteForce: over the real corpus (the
// repository's sample in testdata when the full corpus is not beside the
// repository), for the crawlers each file names and one it does not, the
// indexed check of the table and of the Crawler's table decides paths
// drawn from the file's own rules as trying every rule does.
func TestCorpusDecideAgreesWithBruteForce(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "files")
	if _, err := os.Stat(dir); err != nil || testing.Short() {
		dir = filepath.Join("..", "..", "testdata", "corpus", "files")
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Skipf("corpus: %v", err)
	}
	fixed := []string{"/", "/index.html", "/search?q=robots", "/wp-admin/admin-ajax.php", "/a/b/c/d/e"}
	for _, e := range ents {
		body, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		tb := Compile(body)
		f := tb.File()
		tokens := []string{"Googlebot", "ZzyzxCrawler"}
		for _, g := range f.Groups[:min(len(f.Groups), 4)] {
			for _, a := range g.Agents[:min(len(g.Agents), 1)] {
				tokens = append(tokens, a.Token)
			}
		}
		for _, tok := range tokens {
			groups, _ := tb.AppendGroups(nil, tok)
			rules := tb.Rules(groups)
			paths := slices.Clone(fixed)
			for i := 0; i < len(rules); i += max(1, len(rules)/24) {
				p := strings.ReplaceAll(strings.TrimSuffix(rules[i].Pattern, "$"), "*", "x")
				paths = append(paths, p, p+"x/y.html", "/"+p)
			}
			agreeWithBruteForce(t, e.Name(), tb, tb.Select(groups, nil), groups, paths)
		}
	}
}
