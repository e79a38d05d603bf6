package parser

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSelectDropsTheRest: the table of a few groups holds only their text.
func TestSelectDropsTheRest(t *testing.T) {
	body := "User-agent: FooBot\nDisallow: /foo\nDisallow: /foo\nCrawl-delay: 3\nx-key: v\n" +
		"User-agent: *\nDisallow: /" + strings.Repeat("z", 1000) + "\n"
	tb := Compile([]byte(body))
	groups, named := tb.AppendGroups(nil, "foobot")
	if !named || len(groups) != 1 {
		t.Fatalf("AppendGroups = %v %v", groups, named)
	}
	sel := tb.Select(groups)
	if want := len("/foo") + len("3") + len("x-key") + len("v"); len(sel.text) != want {
		t.Errorf("selected text %q, want %d bytes", sel.text, want)
	}
	if got := sel.Extensions([]int{0}); len(got) != 2 || got[0] != (Record{"crawl-delay", "3", 4}) || got[1] != (Record{"x-key", "v", 5}) {
		t.Errorf("Extensions = %v", got)
	}
	if r, ok := sel.Decide([]int{0}, "/foo/bar"); !ok || r != (Rule{"/foo", 2, false}) {
		t.Errorf("Decide = %+v %v", r, ok)
	}
}

// TestSelectLeavesTheTableUnindexed: selecting the groups of a table that
// nothing has checked yet does not index it (the groups it leaves out are
// never sorted), and the selected table decides as the indexed one.
func TestSelectLeavesTheTableUnindexed(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: FooBot\nDisallow: /a\nAllow: /a/b\n")
	b.WriteString("User-agent: *\n")
	for i := range 2 * smallGroup {
		fmt.Fprintf(&b, "Disallow: /z/%d\n", i)
	}
	tb := Compile([]byte(b.String()))
	groups, _ := tb.AppendGroups(nil, "FooBot")
	sel := tb.Select(groups)
	if tb.file.indexed.Load() {
		t.Fatal("Select indexed the table it selected from")
	}
	for _, p := range []string{"/a", "/a/b", "/a/c", "/z/1"} {
		want, wok := tb.Decide(groups, p)
		if got, ok := sel.Decide([]int{0}, p); got != want || ok != wok {
			t.Errorf("Decide(%q) = %+v %v, the table's %+v %v", p, got, ok, want, wok)
		}
	}
}

// TestSelectWhileIndexing: Select reads the rules of a table while other
// goroutines index it, which sorts them in place, and selects what the
// indexed table holds. Run with -race.
func TestSelectWhileIndexing(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 4 * smallGroup {
		fmt.Fprintf(&b, "Disallow: /%d/*x%d\nAllow: /%d\n", 97-i%97, i, i)
	}
	body := []byte(b.String())
	want := Compile(body).Rules([]int{0})
	for range 20 {
		tb := Compile(body)
		var wg sync.WaitGroup
		sels := make([]*Table, 4)
		for i := range sels {
			wg.Go(func() {
				if i%2 == 0 {
					tb.Decide([]int{0}, "/5/x")
				}
				sels[i] = tb.Select([]int{0})
			})
		}
		wg.Wait()
		for _, sel := range sels {
			got := sel.Rules([]int{0})
			if len(got) != len(want) {
				t.Fatalf("Select holds %d rules, want %d", len(got), len(want))
			}
			for j := range got {
				if got[j] != want[j] {
					t.Fatalf("rule %d: %+v, want %+v", j, got[j], want[j])
				}
			}
		}
	}
}

// TestSelectUnindexed: a draft of a large group keeps its rules in file
// order with no notes, and a check of it tries every rule; selected
// again, it holds what Select holds (records, Content-Usage rules) and
// checks by its index. A draft of a small group is what Select makes.
func TestSelectUnindexed(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: FooBot\nCrawl-delay: 2\nContent-Usage: train-ai=n\nContent-Usage: /open/ train-ai=y\n")
	for i := range 3 * smallGroup {
		fmt.Fprintf(&b, "Disallow: /%d/*.php\nAllow: /%d/\n", 3*smallGroup-i, i)
	}
	b.WriteString("User-agent: BarBot\nDisallow: /bar\nAllow: /bar/open\n")
	tb := Compile([]byte(b.String()))
	for _, c := range []struct {
		token string
		rules int
	}{{"FooBot", 6 * smallGroup}, {"BarBot", 2}} {
		groups, _ := tb.AppendGroups(nil, c.token)
		sel, draft := tb.Select(groups), tb.SelectUnindexed(groups)
		again := draft.Select([]int{0})
		large := c.rules > smallGroup
		if draft.Indexed() == large || !sel.Indexed() || !again.Indexed() {
			t.Fatalf("%s: Indexed() = %v for the draft, %v for Select, %v selected again",
				c.token, draft.Indexed(), sel.Indexed(), again.Indexed())
		}
		if large && (draft.notes != nil || draft.grams != nil) {
			t.Errorf("%s: the draft keeps notes or gram lists", c.token)
		}
		if got, want := again.Size(), sel.Size(); got != want {
			t.Errorf("%s: selected again, %d bytes; Select, %d", c.token, got, want)
		}
		if got, want := draft.Extensions([]int{0}), sel.Extensions([]int{0}); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: draft's Extensions = %v, want %v", c.token, got, want)
		}
		for _, p := range []string{"/5/x.php", "/5/", "/bar/open/1", "/open/a", "/zzz"} {
			want, wok := sel.Decide([]int{0}, p)
			for _, tab := range []*Table{draft, again} {
				if got, ok := tab.Decide([]int{0}, p); got != want || ok != wok {
					t.Errorf("%s: Decide(%q) = %+v %v, Select's %+v %v", c.token, p, got, ok, want, wok)
				}
				if got, want := tab.DecideUsage(nil, []int{0}, p), sel.DecideUsage(nil, []int{0}, p); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: usage of %q = %+v, Select's %+v", c.token, p, got, want)
				}
			}
		}
		// A path no rule matches: the draft matches it against each.
		tried, triedAgain := 0, 0
		draft.run([]int{0}, "/zzz", &tried)
		again.run([]int{0}, "/zzz", &triedAgain)
		if large && (tried != c.rules || triedAgain >= c.rules) {
			t.Errorf("%s: a check matched %d rules of the draft, %d selected again; want all %d, then fewer", c.token, tried, triedAgain, c.rules)
		}
	}
}

// BenchmarkSelectUnindexed times, over the corpus sample in the
// repository's testdata (each body cut at 500 KiB), what a fill does with
// a parsed file for one crawler (Googlebot), against the parse: Select,
// SelectUnindexed, and SelectUnindexed then Select of the draft (an
// authority checked twice). Each is timed in turn in every round, so
// that the ratios, to the parse, are of one run; one op is a round.
func BenchmarkSelectUnindexed(b *testing.B) {
	bodies := corpusSample(b)
	tables := make([]*Table, len(bodies))
	groups := make([][]int, len(bodies))
	for i, raw := range bodies {
		tables[i] = Compile(raw)
		groups[i], _ = tables[i].AppendGroups(nil, "Googlebot")
	}
	var keep *Table
	steps := []func(i int){
		func(i int) { keep = Compile(bodies[i]) },
		func(i int) { keep = tables[i].Select(groups[i]) },
		func(i int) { keep = tables[i].SelectUnindexed(groups[i]) },
		func(i int) { keep = tables[i].SelectUnindexed(groups[i]).Select([]int{0}) },
	}
	took := make([]time.Duration, len(steps))
	for b.Loop() {
		for k, step := range steps {
			start := time.Now()
			for i := range bodies {
				step(i)
			}
			took[k] += time.Since(start)
		}
	}
	_ = keep
	ratio := func(k int) float64 { return float64(took[k]) / float64(took[0]) }
	b.ReportMetric(ratio(1), "select/parse")
	b.ReportMetric(ratio(2), "unindexed/parse")
	b.ReportMetric(ratio(3), "unindexed+select/parse")
}

// corpusSample reads the corpus sample in the repository's testdata, each
// body cut at 500 KiB as the Client cuts it.
func corpusSample(b *testing.B) [][]byte {
	dir := filepath.Join("..", "testdata", "corpus", "files")
	ents, err := os.ReadDir(dir)
	if err != nil {
		b.Skipf("corpus sample: %v", err)
	}
	var bodies [][]byte
	for _, e := range ents {
		body, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		bodies = append(bodies, body[:min(len(body), 500<<10)])
	}
	return bodies
}

// BenchmarkSelectSize reports where the bytes of the tables that Select
// makes go, per body byte, over the corpus sample in the repository's
// testdata (each body cut at 500 KiB, as the Client cuts it), for the
// groups Googlebot obeys: the breakdown of [Table.Size], which the
// Crawler of a cached robots.txt holds. One op is a pass over the sample.
func BenchmarkSelectSize(b *testing.B) {
	bodies := corpusSample(b)
	var sum tableSizes
	body := 0
	for b.Loop() {
		sum, body = tableSizes{}, 0
		for _, raw := range bodies {
			tb := Compile(raw)
			groups, _ := tb.AppendGroups(nil, "Googlebot")
			s := tb.Select(groups).sizes()
			sum.text += s.text
			sum.rules += s.rules
			sum.notes += s.notes
			sum.grams += s.grams
			sum.records += s.records
			sum.lines += s.lines
			sum.fixed += s.fixed
			body += len(raw)
		}
	}
	per := func(n int) float64 { return float64(n) / float64(body) }
	b.ReportMetric(per(sum.text), "text/B")
	b.ReportMetric(per(sum.rules), "rules/B")
	b.ReportMetric(per(sum.notes), "notes/B")
	b.ReportMetric(per(sum.grams), "grams/B")
	b.ReportMetric(per(sum.records+sum.lines), "records+lines/B")
	b.ReportMetric(per(sum.fixed), "fixed/B")
	b.ReportMetric(per(sum.text+sum.rules+sum.notes+sum.grams+sum.records+sum.lines+sum.fixed), "table/B")
}
