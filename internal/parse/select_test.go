package parse

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
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
	sel := tb.Select(groups, nil)
	if want := 2*len("/foo") + len("3") + len("x-key") + len("v"); len(sel.text) != want {
		t.Errorf("selected text %q, want %d bytes", sel.text, want)
	}
	if got := sel.Extensions([]int{0}); len(got) != 2 || got[0] != (Record{"crawl-delay", "3", 4, false}) || got[1] != (Record{"x-key", "v", 5, false}) {
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
	for i := range 100 {
		fmt.Fprintf(&b, "Disallow: /z/%d\n", i)
	}
	tb := Compile([]byte(b.String()))
	groups, _ := tb.AppendGroups(nil, "FooBot")
	sel := tb.Select(groups, nil)
	if tb.state.Load() == indexed {
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
	for i := range 100 {
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
				sels[i] = tb.Select([]int{0}, nil)
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

// TestSelectFirstChecks: the first check of a table Select makes tries
// each rule, the second indexes it, and checks that race them, one
// trying each rule while another sorts, all decide as the indexed table
// does. Run with -race.
func TestSelectFirstChecks(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 100 {
		fmt.Fprintf(&b, "Disallow: /%d/*x%d\nAllow: /%d\n", 97-i%97, i, i)
	}
	tb := Compile([]byte(b.String()))
	paths := []string{"/5/x", "/5/ax5", "/12/y", "/96/x3x", "/"}
	sel := tb.Select([]int{0}, nil)
	if sel.Decide([]int{0}, paths[0]); sel.state.Load() != fileOrder {
		t.Fatalf("after the first check, state %d", sel.state.Load())
	}
	if sel.Decide([]int{0}, paths[0]); sel.state.Load() != indexed {
		t.Fatalf("after the second check, state %d", sel.state.Load())
	}
	for range 20 {
		sel := tb.Select([]int{0}, nil)
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				p := paths[i%len(paths)]
				want, wok := tb.Decide([]int{0}, p)
				if got, ok := sel.Decide([]int{0}, p); got != want || ok != wok {
					t.Errorf("Decide(%q) = %+v %v, want %+v %v", p, got, ok, want, wok)
				}
			})
		}
		wg.Wait()
	}
}

// corpusSample reads the corpus sample in the repository's testdata, each
// body cut at 500 KiB as the Client cuts it.
func corpusSample(b *testing.B) [][]byte {
	dir := filepath.Join("..", "..", "testdata", "corpus", "files")
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

// BenchmarkSelectSize reports the bytes of the tables that Select makes
// per body byte (Table.Size), over the corpus sample in the repository's
// testdata (each body cut at 500 KiB, as the Client cuts it), for the
// groups Googlebot obeys: what the Crawler of a cached robots.txt holds.
// One op is a pass over the sample.
func BenchmarkSelectSize(b *testing.B) {
	bodies := corpusSample(b)
	size, body := 0, 0
	for b.Loop() {
		size, body = 0, 0
		for _, raw := range bodies {
			tb := Compile(raw)
			sel, _ := tb.SelectFor("Googlebot")
			size += sel.Size()
			body += len(raw)
		}
	}
	b.ReportMetric(float64(size)/float64(body), "table/B")
}

// BenchmarkSelectFirstCheck is the first check of a table Select makes,
// which tries each rule ("each"), against indexing the table first
// ("index"): a group of wildcard rules (and three times as many plain
// ones) and a path that holds none of their grams, so that the index
// matches none of them, whose product is eachWork.
func BenchmarkSelectFirstCheck(b *testing.B) {
	for _, wild := range []int{128, 256, 512} {
		var sb strings.Builder
		sb.WriteString("User-agent: *\n")
		for i := range wild {
			fmt.Fprintf(&sb, "Disallow: /*q%dz\nDisallow: /dir%d/a/\nDisallow: /dir%d/b/\nAllow: /dir%d/c/\n", i, i, i, i)
		}
		tb := Compile([]byte(sb.String()))
		path := "/" + strings.Repeat("ab", eachWork/wild/2)
		for _, index := range []bool{false, true} {
			name := fmt.Sprintf("each/wild=%d", wild)
			if index {
				name = fmt.Sprintf("index/wild=%d", wild)
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					sel := tb.Select([]int{0}, nil)
					if index {
						sel.index()
					}
					sel.Decide([]int{0}, path)
				}
			})
		}
	}
}
