package parser

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt/matcher"
)

// compareIndexOrder is index order spelt out: by prefix, then by
// precedence, then by line.
func compareIndexOrder(a, b orderItem) int {
	if c := strings.Compare(a.pre, b.pre); c != 0 {
		return c
	}
	if p := matcher.Precedence(int(a.r.n), a.r.allow(), int(b.r.n), b.r.allow()); p != 0 {
		return p
	}
	return cmp.Compare(a.line, b.line)
}

// genOrderItems draws n rules of one group whose prefixes share starts of
// every length around the sort's digits (7 bytes) and its runs, with
// NUL bytes, which pad digits too, equal prefixes, prefixes that start
// others, and lengths and kinds that tie.
func genOrderItems(rnd *rand.Rand, n int) []orderItem {
	stems := []string{"", "/", "/abcdef", "/abcdefg", "/abcdefgh", "/abcdefghijklmno", "/abcdefghijklmnop",
		strings.Repeat("/x", 40), "/\x00", "/\x00\x00", "/a\x00b"}
	tails := []string{"", "a", "b", "\x00", "ab", "abcdefghi", "zz", "/"}
	items := make([]orderItem, n)
	for i := range items {
		pre := stems[rnd.IntN(len(stems))]
		for range rnd.IntN(3) {
			pre += tails[rnd.IntN(len(tails))]
		}
		r := rule{n: uint16(len(pre) + rnd.IntN(3))}
		if rnd.IntN(2) == 0 {
			r.off |= ruleAllow
		}
		items[i] = orderItem{pre: pre, line: uint32(rnd.IntN(1 << 20)), r: r}
	}
	// Lines are distinct, as a file's are.
	seen := map[uint32]bool{}
	for i := range items {
		for seen[items[i].line] {
			items[i].line++
		}
		seen[items[i].line] = true
	}
	return items
}

// TestPropertyOrderIsIndexOrder: order sorts the rules of a group as
// comparing their prefixes, precedence and lines does, for groups with
// and without index, of sizes around each way order sorts a run.
func TestPropertyOrderIsIndexOrder(t *testing.T) {
	rnd := rand.New(rand.NewPCG(81, 82))
	sc := getSortScratch()
	defer sc.release()
	for i := range 3000 {
		n := rnd.IntN(2 * insertionKeys)
		switch i % 10 {
		case 0:
			n = rnd.IntN(3000)
		case 1:
			n = fewKeys + rnd.IntN(3)
		}
		items := genOrderItems(rnd, n)
		indexed := i%4 != 0
		if !indexed {
			for j := range items {
				items[j].pre = ""
			}
		}
		want := slices.Clone(items)
		slices.SortFunc(want, compareIndexOrder)
		sc.items = append(sc.items[:0], items...)
		sc.order(indexed)
		if !slices.Equal(sc.items, want) {
			for j := range want {
				if sc.items[j] != want[j] {
					t.Fatalf("%d rules, indexed %v: at %d, got %q (line %d), want %q (line %d)",
						n, indexed, j, sc.items[j].pre, sc.items[j].line, want[j].pre, want[j].line)
				}
			}
		}
	}
}

// TestSortKeysAnyOrder: sortKeys sorts keys in any order, with runs of
// equal keys, and so does the heap sort it turns to when a quicksort
// goes too deep.
func TestSortKeysAnyOrder(t *testing.T) {
	rnd := rand.New(rand.NewPCG(83, 84))
	for i := range 500 {
		n := rnd.IntN(400)
		keys := make([]orderKey, n)
		for j := range keys {
			keys[j] = orderKey{key: rnd.Uint64N(uint64(1 + i%50)), i: uint32(j)}
		}
		switch i % 3 {
		case 1:
			slices.SortFunc(keys, func(a, b orderKey) int { return cmp.Compare(a.key, b.key) })
		case 2:
			slices.SortFunc(keys, func(a, b orderKey) int { return cmp.Compare(b.key, a.key) })
		}
		quick, heap := slices.Clone(keys), slices.Clone(keys)
		sortKeys(quick)
		heapKeys(heap)
		for _, got := range [][]orderKey{quick, heap} {
			if !slices.IsSortedFunc(got, func(a, b orderKey) int { return cmp.Compare(a.key, b.key) }) {
				t.Fatalf("%d keys not sorted: %v", n, got)
			}
			ids := make([]int, n)
			for j, k := range got {
				ids[j] = int(k.i)
			}
			slices.Sort(ids)
			for j := range ids {
				if ids[j] != j {
					t.Fatalf("%d keys: the sort lost or repeated keys", n)
				}
			}
		}
	}
}
