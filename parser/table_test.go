package parser

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/internal/longtest"
	"github.com/robotsgate/robotstxt/matcher"
)

// TestParseDoesNotAliasBody proves that a File and a Table keep their own
// copy of every string: overwriting the caller's buffer after parsing
// changes nothing.
func TestParseDoesNotAliasBody(t *testing.T) {
	src := "Sitemap: https://example.com/s.xml\nhost: example.com\n" +
		"User-agent: FooBot/1.0\nDisallow: /private/ # no\nAllow: /private/index.html\n" +
		"Crawl-delay: 2\nunknown-key: value\nUser agent: *\ndissallow: /x\n" +
		"Disallow: /ümlaut\nallow relative\n"
	body := []byte(src)
	got := Parse(body)
	table := Compile(body)
	want := Parse([]byte(src))
	copy(body, bytes.Repeat([]byte{'X'}, len(body)))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("File changed when the body was overwritten:\n got %+v\nwant %+v", got, want)
	}
	want.Diagnostics = nil
	if f := table.File(); !reflect.DeepEqual(f, want) {
		t.Fatalf("Table.File() after the body was overwritten:\n got %+v\nwant %+v", f, want)
	}
	if len(got.Groups) != 2 || len(got.Sitemaps) != 1 || len(got.Diagnostics) == 0 {
		t.Fatalf("unexpected parse: %+v", got)
	}
}

// Compile compiles body with the zero Parser.
func Compile(body []byte) *Table { return Parser{}.Compile(body) }

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

// bruteDecide decides path by matching every rule of the given groups in
// file order, with no index: the longest match wins, allow on a tie, the
// first on a full tie.
func bruteDecide(f *File, groups []int, path string) (Rule, bool) {
	var best matcher.Best
	var at Rule
	for _, g := range groups {
		for _, r := range f.Groups[g].Rules {
			m := matcher.NewRule(r.Pattern, 0, len(r.Pattern), r.Allow)
			if n, ok := m.Match(r.Pattern, path); ok && best.Beats(n, r.Allow, r.Line) {
				best.Take(n, r.Allow, r.Line)
				at = r
			}
		}
	}
	return at, best.Found
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
// groups, and so do the tables that Select and SelectUnindexed make for
// those groups; selecting a draft's group again makes Select's table.
func TestPropertyDecideAgreesWithBruteForce(t *testing.T) {
	longtest.Gate(t)
	rnd := rand.New(rand.NewPCG(41, 42))
	for range 3000 {
		body, paths := genIndexed(rnd)
		tb := Compile([]byte(body))
		f := tb.File()
		for _, tokens := range [][]string{{"FooBot"}, {"BarBot"}, {"FooBot", "BarBot"}, {"Other"}} {
			groups, _ := tb.AppendGroups(nil, tokens...)
			sel := tb.Select(groups)
			draft := tb.SelectUnindexed(groups)
			again := draft.Select([]int{0})
			if got, want := sel.Rules([]int{0}), tb.Rules(groups); !reflect.DeepEqual(got, want) {
				t.Fatalf("Select(%v).Rules = %v, want %v\nbody:\n%s", groups, got, want, body)
			}
			if got, want := draft.Rules([]int{0}), tb.Rules(groups); !reflect.DeepEqual(got, want) {
				t.Fatalf("SelectUnindexed(%v).Rules = %v, want %v\nbody:\n%s", groups, got, want, body)
			}
			if n := len(draft.rules); draft.Indexed() != (n <= smallGroup) || !again.Indexed() {
				t.Fatalf("a draft of %d rules: Indexed() = %v; selected again, %v", n, draft.Indexed(), again.Indexed())
			}
			if got, want := again.Size(), sel.Size(); got != want {
				t.Fatalf("SelectUnindexed(%v) selected again holds %d bytes, Select %d\nbody:\n%s", groups, got, want, body)
			}
			for _, p := range paths {
				want, wok := bruteDecide(f, groups, p)
				got, ok := tb.Decide(groups, p)
				if ok != wok || got != want {
					t.Fatalf("Decide(%v, %q) = %+v %v, brute force %+v %v\nbody:\n%s", groups, p, got, ok, want, wok, body)
				}
				for _, tab := range []struct {
					name string
					t    *Table
				}{{"Select", sel}, {"SelectUnindexed", draft}, {"SelectUnindexed then Select", again}} {
					if got, ok := tab.t.Decide([]int{0}, p); ok != wok || got != want {
						t.Fatalf("%s(%v).Decide(%q) = %+v %v, brute force %+v %v\nbody:\n%s", tab.name, groups, p, got, ok, want, wok, body)
					}
				}
			}
		}
	}
}

// TestDecideFarParent: a block whose parent lies more rules back than a
// parent link can say (farParent) is still climbed from, by a search.
func TestDecideFarParent(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /a\nAllow: /\n")
	for i := range farParent + 10 {
		fmt.Fprintf(&b, "Allow: /a/%05d/\n", i)
	}
	b.WriteString("Allow: /a/zz/*.gif\n")
	body := b.String()
	tb := Compile([]byte(body))
	groups, _ := tb.AppendGroups(nil, "FooBot")
	sel := tb.Select(groups)
	paths := []string{"/a/zz/x", "/a/zz/x.gif", "/a/zzz", "/a/70000", "/a/00007/x", "/a/", "/b", "/a"}
	agreeWithBruteForce(t, body, tb, sel, groups, paths)
	// The climb from /a/zz/ meets the far link and ends in the search,
	// which must find /a: the path is disallowed by it.
	if r, ok := sel.Decide([]int{0}, "/a/zz/x"); !ok || r.Pattern != "/a" {
		t.Fatalf(`Decide("/a/zz/x") = %+v %v, want /a`, r, ok)
	}
	tb.index()
	far := 0
	eachBlock(tb, func(b, _ int) {
		if tb.notes.parentOf(b) == farParent {
			far++
		}
	})
	if far == 0 {
		t.Fatal("no block has a far parent: the test does not reach the search")
	}
}

// TestDecideFarParentStaircase: a path that needs more searches than
// maxSteps, each after a parent too far back to note, is decided by
// trying the rules not yet passed, as matching every rule decides.
func TestDecideFarParentStaircase(t *testing.T) {
	longtest.Gate(t)
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for k := 1; k <= maxSteps+2; k++ {
		level := "/" + strings.Repeat("a", k)
		// A long wildcard rule at each level, so that the lowest
		// levels, reached past maxSteps, decide some paths.
		fmt.Fprintf(&b, "Disallow:%s\nAllow:%s*%d\nDisallow:%s*%s\n", level, level, k, level, strings.Repeat("z", 20-k))
		// Rules that sort between this level and the next, so that the
		// next one's parent lies too far back to note.
		for range farParent {
			fmt.Fprintf(&b, "Allow:%s0\n", level)
		}
	}
	body := b.String()
	tb := Compile([]byte(body))
	groups, _ := tb.AppendGroups(nil, "FooBot")
	sel := tb.Select(groups)
	top := "/" + strings.Repeat("a", maxSteps+2)
	paths := []string{top + "b", top + "b3", top + "3", "/a1", "/aa0", "/aaa0/x", top[:4] + "b",
		top + strings.Repeat("z", 19), top + strings.Repeat("z", 18) + "/3"}
	// The first path decided by level 1's rule, which a check reaches
	// only past maxSteps searches.
	if r, ok := sel.Decide([]int{0}, paths[7]); !ok || r.Pattern != "/a*"+strings.Repeat("z", 19) {
		t.Fatalf("Decide(%q) = %+v %v, want level 1's wildcard rule", paths[7], r, ok)
	}
	agreeWithBruteForce(t, body, tb, sel, groups, paths)
}

// TestDecideLongPaths: paths of any length below a chain of blocks of
// wildcard rules, long enough that a block matches its rules instead of
// noting the path's grams or short enough that it notes them, are decided
// as matching every rule decides: a rule of the chain's first level
// decides some.
func TestDecideLongPaths(t *testing.T) {
	for _, per := range []int{minListed + 1, 200} {
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
		groups, _ := tb.AppendGroups(nil, "FooBot")
		sel := tb.Select(groups)
		for _, n := range []int{shortPath / 2, 2 * shortPath, 300, 3000} {
			long := prefix + "/" + strings.Repeat("x", n)
			paths := []string{long + "MATCH-ME-AT-LEVEL-ONE", long + "QQ3001Z", long + "QQ0001Z/MATCH-ME-AT-LEVEL-ONE",
				long, long + "Z5", long + "QQ7001Z/Z2"}
			agreeWithBruteForce(t, body, tb, sel, groups, paths)
			if r, ok := sel.Decide([]int{0}, paths[0]); !ok || r.Pattern != "/a*MATCH-ME-AT-LEVEL-ONE" {
				t.Fatalf("Decide(%q) = %+v %v, want level one's rule", paths[0], r, ok)
			}
		}
	}
}

// TestDecideLongPrefixes: prefixes longer than the stretch of the path a
// check reads for a '*' (starStretch) are compared right with paths that
// hold a literal '*' before, at and past that stretch.
func TestDecideLongPrefixes(t *testing.T) {
	long := "/" + strings.Repeat("ab", starStretch)
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range smallGroup + 8 {
		at := i * len(long) / (smallGroup + 8)
		fmt.Fprintf(&b, "Disallow: %s*x%d\nAllow: %s\n", long[:at+1], i, long[:at+1]+"*")
	}
	b.WriteString("Allow: " + long + "*y\nDisallow: " + long + "\n")
	body := b.String()
	tb := Compile([]byte(body))
	groups, _ := tb.AppendGroups(nil, "FooBot")
	sel := tb.Select(groups)
	var paths []string
	for _, at := range []int{1, starStretch / 2, starStretch - 1, starStretch, starStretch + 1, len(long) - 1, len(long)} {
		p := long[:at] + "*" + long[at:]
		paths = append(paths, p, p+"y", p+"x3", long[:at]+"*x7", long+"*y")
	}
	agreeWithBruteForce(t, body, tb, sel, groups, paths)
}

// FuzzDecideAgreesWithBruteForce: for any body and path, the indexed
// check, on the table and on the tables Select and SelectUnindexed make
// (and Select makes of a draft), decides as matching every rule does. The seeds are indexed files of each kind the property
// tests draw, so that mutations reach the index, its gram lists and its
// parent links.
func FuzzDecideAgreesWithBruteForce(f *testing.F) {
	rnd := rand.New(rand.NewPCG(49, 50))
	for range 4 {
		body, paths := genIndexed(rnd)
		f.Add([]byte(body), paths[0])
		body, paths = genWildBlock(rnd, minListed+1+rnd.IntN(60))
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
			if got, ok := tb.Select(groups).Decide([]int{0}, path); ok != wok || got != want {
				t.Fatalf("Select(%v).Decide(%q) = %+v %v, brute force %+v %v", groups, path, got, ok, want, wok)
			}
			draft := tb.SelectUnindexed(groups)
			if got, ok := draft.Decide([]int{0}, path); ok != wok || got != want {
				t.Fatalf("SelectUnindexed(%v).Decide(%q) = %+v %v, brute force %+v %v", groups, path, got, ok, want, wok)
			}
			if got, ok := draft.Select([]int{0}).Decide([]int{0}, path); ok != wok || got != want {
				t.Fatalf("SelectUnindexed(%v), selected again: Decide(%q) = %+v %v, brute force %+v %v", groups, path, got, ok, want, wok)
			}
		}
	})
}

func TestDiagnosticsAndUnknownRecordsAreCapped(t *testing.T) {
	const n = 5000
	body := []byte(strings.Repeat("b:\n", n) + "User-agent: *\nDisallow: /x\nCrawl-delay: 1\n")
	f := Parse(body)
	if len(f.Diagnostics) != MaxDiagnostics+2 {
		t.Fatalf("%d diagnostics, want %d", len(f.Diagnostics), MaxDiagnostics+2)
	}
	for i, d := range f.Diagnostics[:MaxDiagnostics] {
		if d.Kind != UnknownKey || d.Line != i+1 {
			t.Fatalf("diagnostic %d: %v", i, d)
		}
	}
	want := []Diagnostic{
		{Line: MaxDiagnostics + 1, Kind: TooManyDiagnostics, Text: strconv.Itoa(n - MaxDiagnostics)},
		{Line: MaxUnknownRecords + 1, Kind: UnknownRecordsDropped, Text: strconv.Itoa(n - MaxUnknownRecords)},
	}
	if got := f.Diagnostics[MaxDiagnostics:]; !reflect.DeepEqual(got, want) {
		t.Errorf("last diagnostics %v, want %v", got, want)
	}
	if len(f.Extensions) != MaxUnknownRecords {
		t.Errorf("%d unknown records kept, want %d", len(f.Extensions), MaxUnknownRecords)
	}
	if len(f.Groups) != 1 || len(f.Groups[0].Extensions) != 1 || len(f.Groups[0].Rules) != 1 {
		t.Errorf("known records and rules must all be kept: %+v", f.Groups)
	}
	// Known records are never dropped.
	f = Parse([]byte("User-agent: *\n" + strings.Repeat("crawl-delay: 1\n", 2*MaxUnknownRecords)))
	if len(f.Groups[0].Extensions) != 2*MaxUnknownRecords || len(f.Diagnostics) != 0 {
		t.Errorf("%d crawl-delays kept, %d diagnostics", len(f.Groups[0].Extensions), len(f.Diagnostics))
	}
}

func TestCrawlDelay(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"1", time.Second, true},
		{"0.5", 500 * time.Millisecond, true},
		{"0", 0, true},
		{"86400", 24 * time.Hour, true},
		// Beyond the longest delay: clamped, so that the site is paced
		// as politely as any, never not at all.
		{"86401", 24 * time.Hour, true},
		{"1e9", 24 * time.Hour, true},
		{"1e400", 24 * time.Hour, true},
		{"Inf", 24 * time.Hour, true},
		{"-1", 0, false},
		{"-Inf", 0, false},
		{"NaN", 0, false},
		{"nan", 0, false},
		{"soon", 0, false},
		{"", 0, false},
	} {
		got, err := CrawlDelay(c.in)
		if got != c.want || (err == nil) != c.ok {
			t.Errorf("CrawlDelay(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
		if err != nil && !errors.Is(err, ErrBadValue) {
			t.Errorf("CrawlDelay(%q): %v does not wrap ErrBadValue", c.in, err)
		}
		diags := Parse([]byte("User-agent: *\nCrawl-delay: " + c.in)).Diagnostics
		if bad := len(diags) == 1 && diags[0].Kind == BadValue; bad == c.ok {
			t.Errorf("crawl-delay: %q gives diagnostics %v", c.in, diags)
		}
	}
}

// TestDecideWideLines covers rules past line 65535, whose lines a rule
// record cannot hold: before and after the first such line, in a group
// small enough to have no index and in one that has it, in the table and
// in what Select makes of it.
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
		sel := tb.Select([]int{0})
		draft := tb.SelectUnindexed([]int{0})
		again := draft.Select([]int{0})
		if got := f.Groups[0].Rules[len(f.Groups[0].Rules)-1].Line; got <= 1<<16 {
			t.Fatalf("last rule on line %d, want one past %d", got, 1<<16)
		}
		for _, tab := range []*Table{sel, draft, again} {
			if got, want := tab.Rules([]int{0}), tb.Rules([]int{0}); !reflect.DeepEqual(got, want) {
				t.Fatalf("Rules = %v, want %v", got, want)
			}
		}
		for range 200 {
			p := fmt.Sprintf("/a%d%s", rnd.IntN(8), []string{"", "x", "yx", "/q"}[rnd.IntN(4)])
			want, wok := bruteDecide(f, []int{0}, p)
			for _, tab := range []*Table{tb, sel, draft, again} {
				if got, ok := tab.Decide([]int{0}, p); ok != wok || got != want {
					t.Fatalf("%d rules: Decide(%q) = %+v %v, brute force %+v %v", rules, p, got, ok, want, wok)
				}
			}
		}
	}
}

// genWildBlock draws a group that is one large block of wildcard rules
// with long shared runs that differ in a digit or two, in runs of one to
// six bytes, some ending in '$', so that the grams of neighbours and of
// paths collide often; paths are rules with their '*' filled in, mutated.
// It draws n rules, or 33 to 122 when n is 0; when n is smallGroup or
// fewer, plain rules of their own blocks ("/pad7") follow, so that the
// group is indexed all the same, and a few paths reach them.
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
	for i := n; i <= smallGroup; i++ {
		fmt.Fprintf(&b, "Disallow: /pad%d\n", i)
		if i%8 == 0 {
			paths = append(paths, fmt.Sprintf("/pad%d/x", i))
		}
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

// agreeWithBruteForce checks that tb, and sel (tb's groups selected),
// decide every path as trying every rule of groups does.
func agreeWithBruteForce(t *testing.T, body string, tb, sel *Table, groups []int, paths []string) {
	t.Helper()
	f := tb.File()
	for _, p := range paths {
		want, wok := bruteDecide(f, groups, p)
		if got, ok := tb.Decide(groups, p); ok != wok || got != want {
			t.Fatalf("Decide(%q) = %+v %v, brute force %+v %v\nbody:\n%s", p, got, ok, want, wok, body)
		}
		if got, ok := sel.Decide([]int{0}, p); ok != wok || got != want {
			t.Fatalf("Select.Decide(%q) = %+v %v, brute force %+v %v\nbody:\n%s", p, got, ok, want, wok, body)
		}
	}
}

// TestPropertyWildBlockAgreesWithBruteForce: the gram filter of a large
// wildcard block passes over no rule that matches.
func TestPropertyWildBlockAgreesWithBruteForce(t *testing.T) {
	longtest.Gate(t)
	rnd := rand.New(rand.NewPCG(43, 44))
	for range 1500 {
		body, paths := genWildBlock(rnd, 0)
		tb := Compile([]byte(body))
		groups, _ := tb.AppendGroups(nil, "FooBot")
		sel := tb.Select(groups)
		agreeWithBruteForce(t, body, tb, sel, groups, paths)
	}
}

// TestPropertyListedPairsAgreeWithBruteForce: a block whose rules all
// have a run of five bytes or more is listed by pairs of neighbouring
// grams and looked up at even offsets of the path only (gramPairs); a
// rule whose run lies anywhere in a path, at an odd offset or an even one,
// long path or short, is still visited.
func TestPropertyListedPairsAgreeWithBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(49, 50))
	words := []string{"/bopa/", "2011-10", ".pdf", "?p_id=", "portlet", "&title=", "/docs/", "Web_", "x9", "-"}
	run := func() string {
		var b strings.Builder
		for b.Len() < 5 || rnd.IntN(3) > 0 {
			b.WriteString(words[rnd.IntN(len(words))])
			if rnd.IntN(2) == 0 {
				b.WriteString(strconv.Itoa(rnd.IntN(100)))
			}
		}
		return b.String()
	}
	paired, unpaired := 0, 0 // blocks listed by pairs, and not
	for k := range 200 {
		n := minListed + 1 + rnd.IntN(300)
		if k == 0 {
			n = maxListed + 1 + rnd.IntN(100) // pairs for the listed rules, a pass past them
		}
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		prefix := []string{"", "/", "*"}[rnd.IntN(3)]
		var runs []string
		for range n {
			r := run()
			runs = append(runs, r)
			p := prefix + "*" + r
			if rnd.IntN(3) == 0 {
				p += "*" + run()
			}
			if rnd.IntN(5) == 0 {
				p += "$"
			}
			fmt.Fprintf(&body, "%s: %s\n", []string{"Disallow", "Allow"}[rnd.IntN(3)/2], p)
		}
		// Some blocks also have a rule of two-byte grams, which pairs
		// leave to their own look-up, or one whose only run is four
		// bytes, which has no pair and so leaves the block unpaired.
		switch rnd.IntN(4) {
		case 0:
			fmt.Fprintf(&body, "Disallow: %s*x9\n", prefix)
		case 1:
			fmt.Fprintf(&body, "Allow: %s*Web_\n", prefix)
		}
		var paths []string
		for range 40 {
			var p strings.Builder
			p.WriteString("/")
			for range 1 + rnd.IntN(6) {
				p.WriteString(strings.Repeat("z", rnd.IntN(4))) // odd and even offsets
				p.WriteString(runs[rnd.IntN(len(runs))])
			}
			paths = append(paths, p.String(), p.String()+strings.Repeat("q", rnd.IntN(200)))
		}
		tb := Compile([]byte(body.String()))
		groups, _ := tb.AppendGroups(nil, "FooBot")
		sel := tb.Select(groups)
		tb.index()
		if tb.grams != nil {
			for _, gb := range tb.grams.blocks {
				if gb.kinds&gramPairs != 0 {
					paired++
				} else {
					unpaired++
				}
			}
		}
		agreeWithBruteForce(t, body.String(), tb, sel, groups, paths)
	}
	if paired < 100 || unpaired < 20 {
		t.Errorf("%d blocks listed by pairs and %d not: the test does not reach both", paired, unpaired)
	}
}

// TestPropertyListedBlockAgreesWithBruteForce: the gram lists of a block
// of many wildcard rules (see gramIndex), and the pass over the rules past
// the listed ones in a block longer than maxListed, visit every rule that
// matches, in precedence order.
func TestPropertyListedBlockAgreesWithBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(45, 46))
	smallListed := 0 // blocks of smallGroup rules or fewer with lists
	defer func() {
		if smallListed == 0 && !t.Failed() {
			t.Errorf("no block of %d rules or fewer had gram lists", smallGroup)
		}
	}()
	for i := range 300 {
		n := minListed + 1 + rnd.IntN(400)
		if i%3 == 0 {
			n = minListed + 1 + rnd.IntN(smallGroup)
		}
		if i%100 == 0 {
			n = maxListed + 1 + rnd.IntN(300)
		}
		body, paths := genWildBlock(rnd, n)
		tb := Compile([]byte(body))
		groups, _ := tb.AppendGroups(nil, "FooBot")
		sel := tb.Select(groups)
		tb.index()
		grams := 0 // the rules with a gram
		eachBlock(tb, func(b, e int) {
			for j := b; j < e; j++ {
				if tb.notes.gramOf(b, j) != 0 {
					grams++
				}
			}
		})
		if grams >= minListed && (tb.grams == nil || sel.grams == nil) {
			t.Fatalf("a block of %d wildcard rules, %d with grams, has no gram lists:\n%s", n, grams, body)
		}
		if n <= smallGroup && tb.grams != nil {
			smallListed++
		}
		agreeWithBruteForce(t, body, tb, sel, groups, paths)
	}
}

// TestListedBlockHostileGrams: a path whose grams all pass the bit set of
// a block's hashes as the gram every rule of the block shares does, and
// so fall in that gram's bucket, each a different gram, spends the
// look-up budget; the check then passes over the block and still decides
// as matching every rule does.
//
// The block has a parent (the block of "*zz"), whose link its first rule
// holds where the others hold their grams; that rule, the block's longest,
// decides some paths, which it can only do when neither the lists nor
// the pass take its link for a gram.
func TestListedBlockHostileGrams(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nAllow: *zz\n")
	const longest = "/*aaaa*LONGEST-RULE-OF-THE-BLOCK"
	b.WriteString("Disallow: " + longest + "\n")
	const n = 200
	for i := range n {
		fmt.Fprintf(&b, "Disallow: /*aaaa*x%02d\n", i%100)
	}
	body := b.String()
	tb := Compile([]byte(body))
	groups, _ := tb.AppendGroups(nil, "FooBot")
	sel := tb.Select(groups)
	tb.index()
	if tb.grams == nil || len(tb.grams.blocks) != 1 {
		t.Fatal("the block has no gram lists")
	}
	gb := tb.grams.blocks[0]
	if first := tb.rules[gb.start]; tb.pattern(&first) != longest || tb.notes.parentOf(int(gb.start)) == 0 {
		t.Fatalf("the block's first rule is %q with parent link %d, want %q with one",
			tb.pattern(&first), tb.notes.parentOf(int(gb.start)), longest)
	}
	// Four-letter grams that pass the block's bit set of hashes as
	// "aaaa" does, each with a hash of its own, and so visit its bucket.
	hmask := gb.hashBits() - 1
	k := int(gramHash4("aaaa")) & hmask
	var path strings.Builder
	path.WriteString("/")
	seen := map[uint16]bool{}
	for w := 0; w < 26*26*26*26 && len(seen) < 1<<gramBits/(hmask+1); w++ {
		g := string([]byte{byte('a' + w%26), byte('a' + w/26%26), byte('a' + w/676%26), byte('a' + w/17576)})
		if h := gramHash4(g); int(h)&hmask == k && !seen[h] {
			seen[h] = true
			path.WriteString(g + "/")
		}
	}
	if visits := len(seen) * n; visits <= n+path.Len()+8 {
		t.Fatalf("the path's grams visit %d rules, within the budget: the test does not reach the pass", visits)
	}
	p := path.String()
	if len(p) > listedPath*n {
		t.Fatalf("the path is too long for the lists: the test does not reach them")
	}
	paths := []string{p, p + "x07", p + "x99/", p + "aaa", "/aaaa/x42",
		p + "LONGEST-RULE-OF-THE-BLOCK", "/aaaa/LONGEST-RULE-OF-THE-BLOCK"}
	agreeWithBruteForce(t, body, tb, sel, groups, paths)
	for _, p := range paths[5:] {
		if r, ok := sel.Decide([]int{0}, p); !ok || r.Pattern != longest {
			t.Fatalf("Decide(%q) = %+v %v, want %s", p, r, ok, longest)
		}
	}
}

// TestGramListsVisitWhatTheFilterAdmits: for a path, the rules the gram
// lists of a block name are exactly those the block's first rule, the
// rules without a gram and the rules whose gram the path's gramSet holds.
func TestGramListsVisitWhatTheFilterAdmits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(47, 48))
	for range 50 {
		body, paths := genWildBlock(rnd, minListed+1+rnd.IntN(300)>>rnd.IntN(4))
		tb := Compile([]byte(body))
		tb.index()
		if tb.grams == nil {
			t.Fatalf("no gram lists:\n%s", body)
		}
		for bi := range tb.grams.blocks {
			gb := &tb.grams.blocks[bi]
			nb := int(gb.mask) + 1
			hashes, heads, entries := tb.grams.listsOf(gb)
			pairs := 0 // entries by a rule's next gram
			for _, e := range entries[:heads[nb+1]] {
				if e&secondGram != 0 {
					pairs++
				}
			}
			if int(heads[nb+1])-pairs != gb.listedRules() || (pairs > 0) != (gb.kinds&gramPairs != 0) {
				t.Fatalf("lists hold %d rules and %d by their next grams, want %d rules, pairs %v",
					int(heads[nb+1])-pairs, pairs, gb.listedRules(), gb.kinds&gramPairs != 0)
			}
			ns := tb.notes[gb.start:][:gb.listedRules()]
			for j := range ns {
				if g := ns.gramOf(0, j); g != 0 && hashBit(hashes, uint(g)&uint(len(hashes)*16-1)) == 0 {
					t.Fatalf("rule %d has gram %#x, which the block's bit set of hashes lacks", j, g)
				}
			}
			for _, p := range paths {
				listed := map[int]bool{}
				for _, e := range entries[heads[nb]:heads[nb+1]] {
					listed[int(e)] = true
				}
				for k := range nb {
					for _, e := range entries[heads[k]:heads[k+1]] {
						if e&secondGram != 0 {
							continue
						}
						var gs gramSet
						if g := ns.gramOf(0, int(e)); g != 0 && gs.admits(g, p) {
							listed[int(e)] = true
						}
					}
				}
				for j := range ns {
					var gs gramSet
					g := ns.gramOf(0, j)
					want := g == 0 || gs.admits(g, p)
					if listed[j] != want {
						t.Fatalf("path %q, rule %d (gram %#x): listed %v, filter admits %v", p, j, g, listed[j], want)
					}
				}
			}
		}
	}
}

// eachBlock calls f with the bounds of each block of tb's groups, whose
// rules are in index order (see Table.index).
func eachBlock(tb *Table, f func(b, e int)) {
	for g := range tb.Groups() {
		s, e := tb.span(g)
		for b := int(s.rules); b < int(e.rules); {
			end := b + 1
			for end < int(e.rules) && tb.prefix(&tb.rules[end]) == tb.prefix(&tb.rules[b]) {
				end++
			}
			f(b, end)
			b = end
		}
	}
}

// TestSpec2_6_HostileFile: many wildcard rules that each defeat a
// backtracking matcher, against a long URL, and one allow, longer than any
// of them, that matches it. The check matches the allow alone, since no
// other rule can beat it, and counts the rules it matched (a check that
// tried rules it need not would match them all); the matcher's own work
// on each is bounded by matcher's TestSpec2_6_LinearTime.
func TestSpec2_6_HostileFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: FooBot\n")
	for i := range 200 {
		b.WriteString("Disallow: /" + strings.Repeat("*a", 40+i%20) + "b\n")
	}
	b.WriteString("Allow: /" + strings.Repeat("a*", 100) + "$\n")
	path := "/" + strings.Repeat("a", 16000)
	for _, tb := range []*Table{Compile([]byte(b.String())), Compile([]byte(b.String())).Select([]int{0})} {
		tried := 0
		at := tb.run([]int{0}, path, &tried)
		if at < 0 || tb.rule(at).Line != 202 || !tb.rule(at).Allow {
			t.Fatalf("the check decided by rule %d, want the allow on line 202", at)
		}
		if tried != 1 {
			t.Errorf("the check matched %d rules, want the allow alone", tried)
		}
	}
}
