package parse

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt/internal/longtest"
	"github.com/robotsgate/robotstxt/internal/match"
)

func TestSplitUsage(t *testing.T) {
	for _, tt := range []struct{ value, path, stmt string }{
		{"train-ai=n", "", "train-ai=n"},
		{"/ai-ok/ train-ai=y", "/ai-ok/", "train-ai=y"},
		{"/ai-ok/\t \ttrain-ai=y, search=n", "/ai-ok/", "train-ai=y, search=n"},
		{"/a/b", "/a/b", ""},
		{"/", "/", ""},
		{"/*.jpg$ train-ai=n", "/*.jpg$", "train-ai=n"},
		{"*.jpg train-ai=n", "", "*.jpg train-ai=n"}, // no '/': no path
		{"", "", ""},
		{"/a\vb c", "/a\vb", "c"}, // only SP and HTAB end the path
	} {
		path, stmt := splitUsage(tt.value)
		if path != tt.path || stmt != tt.stmt {
			t.Errorf("splitUsage(%q) = %q, %q; want %q, %q", tt.value, path, stmt, tt.path, tt.stmt)
		}
	}
}

func TestParseUsageRules(t *testing.T) {
	body := "Content-Usage: train-ai=n\n" + // 1: outside any group
		"User-agent: FooBot\n" +
		"CONTENT-USAGE: train-ai=y\n" + // 3
		"User-agent: BarBot\n" + // 4: the group goes on
		"Disallow: /private/\n" +
		"content-usage: /caf\u00e9/ train-ai=n # menus\n" + // 6
		"Content-Usage /x search=y\n" + // 7: three words without a colon
		"Content-Usage search=n\n" + // 8: two words, the colon tolerated
		"Content-Usages: /y train-ai=n\n" + // 9: another key
		"\n" +
		"Content-Signal: ai-train=no, search=yes\n" + // 11
		"User-agent: *\n" +
		"Content-Usage: /%7efred/ train-ai=n\n" // 13
	f := Parse([]byte(body))
	if got, want := agentsOf(f), [][]string{{"FooBot", "BarBot"}, {"*"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("groups %v, want %v: a Content-Usage line must not end the user-agent lines", got, want)
	}
	want := [][]UsageRule{
		{{"", "train-ai=y", 3, false}, {"/caf%C3%A9/", "train-ai=n", 6, false}, {"", "search=n", 8, false}},
		{{"/%7Efred/", "train-ai=n", 13, false}}, // escapes in upper case, as in rules
	}
	for g := range want {
		if got := f.Groups[g].Usage; !reflect.DeepEqual(got, want[g]) {
			t.Errorf("group %d: Usage %+v, want %+v", g, got, want[g])
		}
	}
	if got, want := f.Groups[0].Extensions, []Record{{"content-usages", "/y train-ai=n", 9, false}, {"content-signal", "ai-train=no, search=yes", 11, false}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Extensions %+v, want %+v", got, want)
	}
	if got, want := diagsOf(f), []string{"1:rule outside any group", "7:not a key-value line", "8:missing colon accepted", "9:unknown key"}; !slices.Equal(got, want) {
		t.Errorf("diagnostics %v, want %v", got, want)
	}
	// RFC 9309 mode decodes the escapes of unreserved characters in the
	// path, as it does in rules.
	rfc := Parser{RFC9309: true}.Parse([]byte(body))
	if got := rfc.Groups[1].Usage[0].Path; got != "/~fred/" {
		t.Errorf("RFC 9309 path %q, want /~fred/", got)
	}
}

// TestContentSignalIsKnown: a Content-Signal record is kept as a known
// extension, before any group too, with no diagnostic.
func TestContentSignalIsKnown(t *testing.T) {
	if knownExtensions[contentSignalKey-1] != "content-signal" || knownExtensions[crawlDelayKey-1] != "crawl-delay" {
		t.Fatal("contentSignalKey or crawlDelayKey does not number its key in knownExtensions")
	}
	f := Parse([]byte("Content-Signal: search=yes\nUser-agent: *\ncontent-signal: ai-train=no\n"))
	if len(f.Diagnostics) != 0 {
		t.Errorf("diagnostics %v", f.Diagnostics)
	}
	if got := f.Extensions; len(got) != 1 || got[0] != (Record{"content-signal", "search=yes", 1, false}) {
		t.Errorf("file extensions %+v", got)
	}
	tb := Compile([]byte("Content-Signal: search=yes\nUser-agent: *\ncontent-signal: ai-train=no\n"))
	if got := tb.FileExtensions(); len(got) != 1 || got[0].Line != 1 {
		t.Errorf("FileExtensions %+v", got)
	}
	if got := tb.Select([]int{0}, nil).FileExtensions(); got != nil {
		t.Errorf("a selected table's FileExtensions %+v", got)
	}
}

// runOf returns the user-agent lines of g, a group of f, that the
// Content-Usage rule or Content-Signal record on line speaks for, read
// from the lines of the rich form, as usageRun says.
func runOf(f *File, g Group, line int) []UserAgent {
	var agents, ruling []int
	for _, a := range g.Agents {
		agents = append(agents, a.Line)
	}
	for _, r := range g.Rules {
		ruling = append(ruling, r.Line)
	}
	for _, r := range g.Usage {
		ruling = append(ruling, r.Line)
	}
	for _, rs := range [][]Record{g.Extensions, f.Sitemaps, f.Licenses} {
		for _, r := range rs {
			ruling = append(ruling, r.Line)
		}
	}
	hi := sort.SearchInts(agents, line) // the last before line, and those before it back to a rule
	lo := hi - 1
	for lo > 0 && !slices.ContainsFunc(ruling, func(l int) bool { return agents[lo-1] < l && l < agents[lo] }) {
		lo--
	}
	return g.Agents[max(lo, 0):hi]
}

// speaksFor reports whether the user-agent lines of a run speak for a
// crawler known by tokens: one names a token when named, else one is "*".
func speaksFor(run []UserAgent, named bool, tokens []string) bool {
	return slices.ContainsFunc(run, func(a UserAgent) bool {
		if !named {
			return a.Global
		}
		return a.Token != "" && slices.ContainsFunc(tokens, func(tok string) bool { return strings.EqualFold(a.Token, tok) })
	})
}

// runsFor returns the groups that apply to a crawler known by tokens and
// the runs of theirs it reads, with those whose refusals alone it reads.
func runsFor(tb *Table, tokens ...string) (groups, runs []int) {
	groups, named := tb.AppendGroups(nil, tokens...)
	runs = tb.UsageRuns(nil, named, tokens...)
	return groups, tb.Theirs(runs, groups, runs)
}

// bruteAll returns the usage rules of the rich form whose run speaks for
// a crawler known by tokens, in file order.
func bruteAll(f *File, tb *Table, tokens ...string) []UsageRule {
	groups, named := tb.AppendGroups(nil, tokens...)
	var out []UsageRule
	for _, g := range groups {
		for _, r := range f.Groups[g].Usage {
			if speaksFor(runOf(f, f.Groups[g], r.Line), named, tokens) {
				out = append(out, r)
			}
		}
	}
	return out
}

// bruteUsage decides the usage rules of path for a crawler known by
// tokens by matching every rule of the rich form whose run speaks for it,
// and then, run by run, those of each other run whose group's other
// user-agent lines speak for it that refuse a use, marked Theirs.
func bruteUsage(f *File, tb *Table, path string, tokens ...string) []UsageRule {
	groups, named := tb.AppendGroups(nil, tokens...)
	decide := func(rules []UsageRule) []UsageRule {
		var out []UsageRule
		best := -1
		for _, r := range rules {
			if r.Path != "" && !match.Match(r.Path, path) || len(r.Path) < best {
				continue
			}
			if len(r.Path) > best {
				out, best = out[:0], len(r.Path)
			}
			out = append(out, r)
		}
		return out
	}
	var own []UsageRule
	var theirs [][]UsageRule // by run, in file order
	for _, g := range groups {
		grp := f.Groups[g]
		runs := make(map[int]int) // by its first user-agent line: its index in theirs
		for _, r := range grp.Usage {
			run := runOf(f, grp, r.Line)
			if speaksFor(run, named, tokens) {
				own = append(own, r)
				continue // read whole
			}
			i := slices.Index(grp.Agents, run[0])
			others := append(slices.Clone(grp.Agents[:i]), grp.Agents[i+len(run):]...)
			if !speaksFor(others, named, tokens) {
				continue
			}
			k, ok := runs[run[0].Line]
			if !ok {
				k = len(theirs)
				runs[run[0].Line] = k
				theirs = append(theirs, nil)
			}
			theirs[k] = append(theirs[k], r)
		}
	}
	out := decide(own)
	for _, rules := range theirs {
		for _, r := range decide(rules) {
			if r.Theirs = true; refuses(r.Statement, false) {
				out = append(out, r)
			}
		}
	}
	return out
}

func TestDecideUsage(t *testing.T) {
	// The example of draft-ietf-aipref-attach §4.5, and more.
	body := "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n" +
		"\nUser-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n" +
		"\nUser-Agent: TieBot\nContent-Usage: /a/ train-ai=y\nContent-Usage: /a/ train-ai=n\nContent-Usage: /a* search=n\n" +
		"Content-Usage: /b$ train-ai=n\nContent-Usage: /*.jpg$ train-ai=n\nContent-Usage: /c/ \n"
	tb := Compile([]byte(body))
	tests := []struct {
		agent, path string
		lines       []int
	}{
		{"Other", "/test", []int{4}},
		{"Other", "/never/test", []int{4}}, // what a crawler may fetch is not DecideUsage's to ask
		{"Other", "/ai-ok/test", []int{5}},
		{"Other", "/ai-ok", []int{4}},
		{"ExampleBot", "/ai-ok/test", []int{9}},
		{"TieBot", "/a/x", []int{12, 13, 14}}, // three paths of 3 bytes
		{"TieBot", "/ab", []int{14}},
		{"TieBot", "/b", []int{15}},
		{"TieBot", "/bc", nil},
		{"TieBot", "/x/y.jpg", []int{16}},
		{"TieBot", "/x/y.jpg?s=1", nil},
		{"TieBot", "/c/x", []int{17}},
	}
	for _, tt := range tests {
		groups, runs := runsFor(tb, tt.agent)
		var lines []int
		for _, r := range tb.DecideUsage(nil, runs, tt.path) {
			lines = append(lines, r.Line)
		}
		if !slices.Equal(lines, tt.lines) {
			t.Errorf("%s %s: deciding lines %v, want %v", tt.agent, tt.path, lines, tt.lines)
		}
		var selLines []int
		sel := tb.Select(groups, runs)
		for _, r := range sel.DecideUsage(nil, sel.SelectedRuns(), tt.path) {
			selLines = append(selLines, r.Line)
		}
		if !slices.Equal(selLines, tt.lines) {
			t.Errorf("%s %s: the selected table's deciding lines %v, want %v", tt.agent, tt.path, selLines, tt.lines)
		}
	}
	_, runs := runsFor(tb, "TieBot")
	if got := tb.DecideUsage(nil, runs, "/c/x"); len(got) != 1 || got[0] != (UsageRule{"/c/", "", 17, false}) {
		t.Errorf("a path without a statement: %+v", got)
	}
	if n := testing.AllocsPerRun(100, func() {
		var buf [4]UsageRule
		tb.DecideUsage(buf[:0], runs, "/a/x")
	}); n != 0 {
		t.Errorf("DecideUsage allocates %v times with room in dst", n)
	}
}

// genUsage returns a random robots.txt with Content-Usage lines among its
// rules, and paths to check.
func genUsage(rnd *rand.Rand) (string, []string) {
	segs := []string{"a", "b", "ab", "a/", "b/", "%7e", "~", "é", "*", "x.jpg", "abab", "/bab"}
	gen := func() string {
		p := "/"
		for range rnd.IntN(6) {
			p += segs[rnd.IntN(len(segs))]
		}
		return p
	}
	stmts := []string{"train-ai=n", "train-ai=y", "search=n", "train-ai=y, search=y", "", "TRAIN=n"}
	var b strings.Builder
	agents := []string{"*", "FooBot", "BarBot"}
	for range 1 + rnd.IntN(4) {
		for range 1 + rnd.IntN(2) {
			b.WriteString("User-agent: " + agents[rnd.IntN(len(agents))] + "\n")
		}
		// A third of the runs have no allow or disallow rule: the next
		// run's user-agent lines join their group.
		usageOnly := rnd.IntN(3) == 0
		n := rnd.IntN(70) // past smallGroup too, where grams filter
		if usageOnly && rnd.IntN(2) == 0 {
			n = rnd.IntN(3)
		}
		for range n {
			switch rnd.IntN(5) {
			case 0:
				if usageOnly {
					b.WriteString("Content-Signal: search=yes\n")
					continue
				}
				b.WriteString("Disallow: " + gen() + "\n")
			case 1:
				b.WriteString("Content-Usage: " + stmts[rnd.IntN(len(stmts))] + "\n")
			default:
				p := gen()
				if rnd.IntN(4) == 0 {
					p += "$"
				}
				b.WriteString("Content-Usage: " + p + " " + stmts[rnd.IntN(len(stmts))] + "\n")
			}
		}
	}
	var paths []string
	for range 10 {
		paths = append(paths, gen())
	}
	return b.String(), paths
}

// TestPropertyDecideUsageAgreesWithBruteForce: DecideUsage, on a table
// and on the table Select makes, finds the rules matching every rule of
// the rich form finds, in both modes; the selected table keeps exactly
// its groups' rules.
func TestPropertyDecideUsageAgreesWithBruteForce(t *testing.T) {
	longtest.Gate(t)
	rnd := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		body, paths := genUsage(rnd)
		for _, p := range []Parser{{}, {RFC9309: true}} {
			tb := p.Compile([]byte(body))
			f := tb.File()
			for _, tokens := range [][]string{{"FooBot"}, {"BarBot"}, {"FooBot", "BarBot"}, {"Other"}} {
				groups, runs := runsFor(tb, tokens...)
				sel := tb.Select(groups, runs)
				all := bruteAll(f, tb, tokens...)
				if got := usageRulesOf(sel, []int{0}); !reflect.DeepEqual(got, all) {
					t.Fatalf("Select(%v, %v).UsageRules = %v, want %v\nbody:\n%s", groups, runs, got, all, body)
				}
				if len(all) > 0 && !sel.HasUsage(sel.SelectedRuns()) || tb.HasUsage(runs) != sel.HasUsage(sel.SelectedRuns()) {
					t.Fatalf("HasUsage(%v) = %v, selected %v\nbody:\n%s", runs, tb.HasUsage(runs), sel.HasUsage(sel.SelectedRuns()), body)
				}
				for _, g := range f.Groups {
					var lines []int
					for _, r := range g.Usage {
						lines = append(lines, r.Line)
					}
					for _, r := range g.Extensions {
						if r.Key == "content-signal" {
							lines = append(lines, r.Line)
						}
					}
					if len(g.Speakers) != len(lines) {
						t.Fatalf("Speakers %v for lines %v\nbody:\n%s", g.Speakers, lines, body)
					}
					for _, l := range lines {
						b := g.Speakers[l]
						if got, want := g.Agents[b[0]:b[1]], runOf(f, g, l); !reflect.DeepEqual(got, want) {
							t.Fatalf("line %d speaks for %v, want %v\nbody:\n%s", l, got, want, body)
						}
					}
				}
				for _, path := range paths {
					want := bruteUsage(f, tb, path, tokens...)
					if got := tb.DecideUsage(nil, runs, path); !reflect.DeepEqual(got, want) {
						t.Fatalf("DecideUsage(%v, %q) = %+v, brute force %+v\nbody:\n%s", runs, path, got, want, body)
					}
					if got := sel.DecideUsage(nil, sel.SelectedRuns(), path); !reflect.DeepEqual(got, want) {
						t.Fatalf("selected DecideUsage(%q) = %+v, brute force %+v\nbody:\n%s", path, got, want, body)
					}
				}
			}
		}
	}
}

// TestPropertyUsageLinesDoNotMoveRules: a file with Content-Usage and
// Content-Signal lines has the groups and rules, and decides every path,
// as the file with those lines blanked out.
func TestPropertyUsageLinesDoNotMoveRules(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	for range 2000 {
		body, paths := genUsage(rnd)
		// Content-Signal lines anywhere, between user-agent lines too.
		lines := strings.SplitAfter(body, "\n")
		for range rnd.IntN(3) {
			i := rnd.IntN(len(lines))
			lines = slices.Insert(lines, i, "Content-Signal: ai-train=no\n", "Content-Usage: train-ai=n\n")
		}
		body = strings.Join(lines, "")
		var blank strings.Builder
		for l := range strings.SplitAfterSeq(body, "\n") {
			if strings.HasPrefix(l, "Content-") {
				l = "\n"
			}
			blank.WriteString(l)
		}
		with, without := Compile([]byte(body)), Compile([]byte(blank.String()))
		if got, want := rulesOf(with.File()), rulesOf(without.File()); !reflect.DeepEqual(got, want) {
			t.Fatalf("rules %v, without the Content- lines %v\nbody:\n%s", got, want, body)
		}
		for _, token := range []string{"FooBot", "BarBot", "Other"} {
			g1, _ := with.AppendGroups(nil, token)
			g2, _ := without.AppendGroups(nil, token)
			for _, p := range paths {
				r1, ok1 := with.Decide(g1, p)
				r2, ok2 := without.Decide(g2, p)
				if r1 != r2 || ok1 != ok2 {
					t.Fatalf("%s %s: %+v %v, without the Content- lines %+v %v\nbody:\n%s", token, p, r1, ok1, r2, ok2, body)
				}
			}
		}
	}
}

// TestUsageSizeAndReuse: every Content-Usage rule is kept, past the cap
// on unknown records, and Size counts them; the table Select makes keeps
// only its groups' rules; a parse after one with many rules keeps none of
// them.
func TestUsageSizeAndReuse(t *testing.T) {
	const n = 2 * MaxUnknownRecords
	plain := "User-agent: FooBot\nDisallow: /x\nUser-agent: *\nDisallow: /y\n"
	many := "User-agent: *\n" + strings.Repeat("Content-Usage: /photos/ train-ai=n\n", n)
	a, b := Compile([]byte(plain)), Compile([]byte(plain+many))
	if d := b.Size() - a.Size(); d < n*(len("/photos/train-ai=n")+16) {
		t.Errorf("%d Content-Usage rules add %d bytes to Size", n, d)
	}
	if f := Parse([]byte(plain + many)); len(f.Groups[2].Usage) != n || len(f.Diagnostics) != 0 {
		t.Errorf("%d rules kept of %d, diagnostics %v", len(f.Groups[2].Usage), n, f.Diagnostics[:min(3, len(f.Diagnostics))])
	}
	foo, fooRuns := runsFor(b, "FooBot")
	other, otherRuns := runsFor(b, "Other")
	if sel := b.Select(foo, fooRuns); sel.more.usage != nil || sel.Size() != a.Select(foo, nil).Size() {
		t.Errorf("FooBot's table keeps Content-Usage rules of another group: %d bytes, want %d", sel.Size(), a.Select(foo, nil).Size())
	}
	if sel := b.Select(other, otherRuns); len(usageRulesOf(sel, []int{0})) != n || sel.Size() < n*16 {
		t.Errorf("the * table keeps %d rules in %d bytes", len(usageRulesOf(sel, []int{0})), sel.Size())
	}
	if c := Compile([]byte(plain)); c.more.usage != nil || c.Size() != a.Size() {
		t.Errorf("a parse after one with Content-Usage rules has %v", usageRulesOf(c, []int{0, 1}))
	}
}

// TestUsageHostileFile: a body of 500 KiB of Content-Usage lines keeps
// about its own size, and a crawler's table no more.
func TestUsageHostileFile(t *testing.T) {
	const limit = 500 << 10
	line := "Content-Usage: /a*b*c train-ai=n\n"
	body := "User-agent: *\n" + strings.Repeat(line, limit/len(line))
	tb := Compile([]byte(body))
	rules := limit / len(line)
	// Each rule keeps its path and statement, and 16 bytes.
	if size, max := tb.Size(), len(body)+rules*16+1024; size > max {
		t.Errorf("Size %d, want at most %d", size, max)
	}
	sel, _ := tb.SelectFor("Other")
	if got := len(usageRulesOf(sel, []int{0})); got != rules {
		t.Errorf("the crawler keeps %d rules, want %d", got, rules)
	}
	if got := sel.DecideUsage(nil, []int{0}, "/a-b-c"); len(got) != rules {
		t.Errorf("%d rules decide, want all %d", len(got), rules)
	}
}

// FuzzDecideUsage: for any body and path, DecideUsage on the table and on
// the table Select makes agrees with matching every rule of the rich
// form whose run, read from its lines, speaks for the crawler, every rule
// is split as the drafts say, and speaks for that run.
func FuzzDecideUsage(f *testing.F) {
	rnd := rand.New(rand.NewPCG(11, 12))
	for range 4 {
		body, paths := genUsage(rnd)
		f.Add([]byte(body), paths[0])
	}
	f.Add([]byte("User-agent: *\nContent-Usage:\t/a\t \tb=n\nContent-Usage: c"), "/a")
	f.Fuzz(func(t *testing.T, body []byte, path string) {
		if len(body) > 1<<16 || len(path) > 1<<12 {
			return
		}
		lines := bytes.Count(body, []byte("\n"))
		for _, p := range []Parser{{}, {RFC9309: true}} {
			tb := p.Compile(body)
			file := tb.File()
			for _, g := range file.Groups {
				for _, r := range g.Usage {
					if r.Path != "" && r.Path[0] != '/' || strings.ContainsAny(r.Path, " \t") ||
						r.Statement != "" && (r.Statement[0] == ' ' || r.Statement[0] == '\t') {
						t.Fatalf("rule %+v: path or statement split wrongly", r)
					}
					// (Unknown records past MaxUnknownRecords end runs
					// too, though the rich form drops them.)
					if b := g.Speakers[r.Line]; lines <= MaxUnknownRecords && !reflect.DeepEqual(g.Agents[b[0]:b[1]], runOf(file, g, r.Line)) {
						t.Fatalf("rule %+v speaks for %v, want %v", r, g.Agents[b[0]:b[1]], runOf(file, g, r.Line))
					}
				}
			}
			for _, token := range []string{"FooBot", "BarBot"} {
				groups, runs := runsFor(tb, token)
				want := bruteUsage(file, tb, path, token)
				if got := tb.DecideUsage(nil, runs, path); !reflect.DeepEqual(got, want) {
					t.Fatalf("DecideUsage(%v, %q) = %+v, brute force %+v", runs, path, got, want)
				}
				if sel := tb.Select(groups, runs); !reflect.DeepEqual(sel.DecideUsage(nil, sel.SelectedRuns(), path), want) {
					got := sel.DecideUsage(nil, sel.SelectedRuns(), path)
					t.Fatalf("selected DecideUsage(%q) = %+v, brute force %+v", path, got, want)
				}
			}
		}
	})
}

// usageRulesOf returns the Content-Usage rules of the given groups of t,
// in file order within each group.
func usageRulesOf(t *Table, groups []int) []UsageRule {
	var out []UsageRule
	for _, g := range groups {
		out = append(out, t.usageOf(g)...)
	}
	return out
}

// TestUsageSpeaksForItsRun: a Content-Usage rule or Content-Signal record
// speaks for the user-agent lines before it up to the last rule of any
// kind, not for those after it that join its group because no allow or
// disallow rule came between (consent80: ExampleBot was given GPTBot's
// train-ai=y); allow and disallow rules keep Google's grouping. Its
// refusals reach every crawler of its group, which obeys the group's
// rules (consent84: LateBot was refused nothing LastBot's line refused).
func TestUsageSpeaksForItsRun(t *testing.T) {
	body := "User-agent: GPTBot\nContent-Usage: train-ai=y\nContent-Signal: ai-train=yes\n" +
		"\nUser-agent: ExampleBot\nUser-agent: *\nDisallow: /private/\nContent-Usage: /x search=n\n" +
		"User-agent: LateBot\nContent-Signal: search=no\nUser-agent: LastBot\nContent-Usage: /y train-ai=n\n"
	tb := Compile([]byte(body))
	lines := func(rules []UsageRule) (out []int) {
		for _, r := range rules {
			out = append(out, r.Line)
		}
		return out
	}
	for _, tt := range []struct {
		agent          string
		usage, signals []int // the lines that speak for agent
	}{
		{"GPTBot", []int{2, 8}, []int{3}}, // line 8's search=n, of its group
		{"ExampleBot", []int{8}, nil},
		{"Other", []int{8}, nil}, // named nowhere: the "*" run's
		{"LateBot", []int{12}, []int{10}},
		{"LastBot", []int{12}, []int{10}},
	} {
		groups, runs := runsFor(tb, tt.agent)
		var got []int
		for _, p := range []string{"/a", "/x", "/y"} {
			got = append(got, lines(tb.DecideUsage(nil, runs, p))...)
		}
		slices.Sort(got)
		got = slices.Compact(got)
		if !slices.Equal(got, tt.usage) {
			t.Errorf("%s: Content-Usage lines %v, want %v", tt.agent, got, tt.usage)
		}
		var sig []int
		for _, r := range tb.Signals(runs) {
			sig = append(sig, r.Line)
		}
		if !slices.Equal(sig, tt.signals) {
			t.Errorf("%s: Content-Signal lines %v, want %v", tt.agent, sig, tt.signals)
		}
		if r, ok := tb.Decide(groups, "/private/a"); tt.agent != "LateBot" && tt.agent != "LastBot" && (!ok || r.Line != 7) {
			t.Errorf("%s: /private/a decided by %+v, %v; want line 7's disallow", tt.agent, r, ok)
		}
	}
}

// TestUsageRunEndsAtAnyRecord: a record that is no rule (a crawl-delay, a
// sitemap, an unknown key) ends a run of user-agent lines as a rule does:
// the statement after it speaks for the crawler named after it alone,
// though Google's grouping joins both crawlers (review128: GPTBot read
// ExampleBot's train-ai=y past GPTBot's own Crawl-delay).
func TestUsageRunEndsAtAnyRecord(t *testing.T) {
	for _, between := range []string{"Crawl-delay: 10", "Sitemap: https://example.com/s.xml", "Request-rate: 1/10", "License: https://example.com/l"} {
		body := "User-agent: GPTBot\n" + between + "\n\nUser-agent: ExampleBot\nContent-Usage: train-ai=y\nContent-Signal: search=yes\nDisallow: /private/\n"
		tb := Compile([]byte(body))
		for agent, want := range map[string][]int{"GPTBot": nil, "ExampleBot": {5, 6}} {
			groups, runs := runsFor(tb, agent)
			var got []int
			for _, r := range tb.DecideUsage(nil, runs, "/a") {
				got = append(got, r.Line)
			}
			for _, r := range tb.Signals(runs) {
				got = append(got, r.Line)
			}
			if !slices.Equal(got, want) {
				t.Errorf("after %q: %s reads lines %v, want %v", between, agent, got, want)
			}
			if r, ok := tb.Decide(groups, "/private/x"); !ok || r.Line != 7 {
				t.Errorf("after %q: %s's /private/x decided by %+v, %v; want line 7 (the groups join)", between, agent, r, ok)
			}
		}
	}
}

// TestRefusals: a statement cut short reads as the refusals before the
// cut, each member read as the whole statement's would be, and a refusal
// of training, in each vocabulary's spelling; a yes, a member that is not
// one (an invalid key: review129) and a member the cut split state
// nothing.
func TestRefusals(t *testing.T) {
	for _, tc := range []struct {
		stmt   string
		signal bool
		want   string
	}{
		{"", false, "train-ai=n"},
		{"train-ai=y", false, "train-ai=n"},
		{"search=n, train-ai=y, ai=n;q=1, Foo=n, 1x=n, -x=n, x y=n, search=n, trai", false, "search=n, ai=n, train-ai=n"},
		{"train-ai=n, search=n", false, "train-ai=n, search=n"},
		// review130: a tab after a comma, a comma in a String.
		{"train-ai=y,\tsearch=n, tr", false, "search=n, train-ai=n"},
		{`search=n;why="a, b", tr`, false, "search=n, train-ai=n"},
		{"search=no, ai-train=yes, ai-input=n", true, "search=no, ai-input=no, ai-train=no"}, // n read as no, as the whole record reads it
		{"Search=No, AI-Input = no", true, "search=no, ai-input=no, ai-train=no"},
		{"search=yes; ai-input=no", true, "ai-input=no, ai-train=no"},
		{"/blog/ search=no", true, "search=no, ai-train=no"},
		{"ai-train=no", true, "ai-train=no"},
	} {
		if got := refusals(tc.stmt, tc.signal); got != tc.want {
			t.Errorf("refusals(%q, %v) = %q, want %q", tc.stmt, tc.signal, got, tc.want)
		}
	}
}

// TestTheirsIsNotListed: a group of thousands of runs, each one
// crawler's and its statement, gives each crawler the others' refusals
// (see Table.Theirs) without the table listing them: its size stays
// within a few times the body's, as each crawler's runs do (review142:
// 8,000 runs listed 591 MB, and a Client's first check took 2 GB).
func TestTheirsIsNotListed(t *testing.T) {
	var b strings.Builder
	const n = 8000
	for i := range n {
		fmt.Fprintf(&b, "User-agent: b%c%c%c\nContent-Usage: /x%d$ train-ai=n\n", 'a'+i%26, 'a'+i/26%26, 'a'+i/676, i)
	}
	b.WriteString("Disallow: /private/\n")
	tb := Compile([]byte(b.String()))
	groups, runs := runsFor(tb, "baaa")
	if len(groups) != 1 || len(runs) != n {
		t.Fatalf("groups %d, runs %d; want one group and all %d runs", len(groups), len(runs), n)
	}
	if got := tb.DecideUsage(nil, runs, "/x7999"); len(got) != 1 || got[0].Line != 2*n || !got[0].Theirs {
		t.Errorf("the last crawler's statement, for the first: %+v", got)
	}
	if size := tb.Size(); size > 4*b.Len() {
		t.Errorf("Size %d for a body of %d bytes", size, b.Len())
	}
	if sel := tb.Select(groups, runs); sel.Size() > 4*b.Len() {
		t.Errorf("the crawler's selected table: Size %d for a body of %d bytes", sel.Size(), b.Len())
	}
}

// TestRunIndexSizeAndNoTokens: Size counts the index of runs, which it
// builds as it does the rules', so that it never changes once asked; and
// a crawler known by no token reads the "*" runs, as it obeys the "*"
// groups (review131).
func TestRunIndexSizeAndNoTokens(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "User-agent: bot%c%c\nContent-Usage: /x%d train-ai=n\n", 'a'+i%26, 'a'+i/26, i)
	}
	b.WriteString("User-agent: *\nContent-Usage: search=n\n")
	tb := Compile([]byte(b.String()))
	plain := Compile([]byte(strings.ReplaceAll(b.String(), "Content-Usage", "X-Usage")))
	size := tb.Size()
	tb.RunsOf("botaa", true)
	if again := tb.Size(); again != size || size <= plain.Size() {
		t.Errorf("Size %d, then %d once a crawler's runs were found; %d without statements", size, again, plain.Size())
	}
	if got, want := tb.UsageRuns(nil, true), tb.RunsOf("", false); !slices.Equal(got, want) || len(want) != 1 {
		t.Errorf("UsageRuns with no token = %v, want the * runs %v", got, want)
	}
	if sel, _ := tb.SelectFor(); len(sel.DecideUsage(nil, []int{0}, "/a")) != 1 {
		t.Errorf("SelectFor() keeps no Content-Usage rule of the * group")
	}
}
