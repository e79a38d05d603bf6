package parser

import (
	"sync"
	"unsafe"
)

// Select returns a table that holds only the rules, Content-Usage rules
// and extension records of the given groups, merged into one group, group 0, with no user-agent
// lines, and no sitemaps: what one crawler obeys. It shares nothing with
// t.
//
// It reads the groups as they are, without indexing t: a table that
// nothing has checked yet (as when a fetched file is parsed only to make
// the rules of one crawler) is not indexed for the rules that Select then
// sorts again, nor for the groups it leaves out.
func (t *Table) Select(groups []int) *Table { return t.selectGroups(groups, true) }

// SelectUnindexed is Select without the index, for rules that may be
// checked only once: it copies the groups' rules, where Select also sorts
// them and notes what the index needs, and each check of a merged group
// of more than a few dozen rules then tries every rule (see
// [Table.Indexed]). Selecting group 0 of the result makes the table
// Select would have made. Over the corpus sample, SelectUnindexed takes
// a quarter of Select's time, and Select of its result a little less
// than Select (BenchmarkSelectUnindexed).
func (t *Table) SelectUnindexed(groups []int) *Table { return t.selectGroups(groups, false) }

// Indexed reports whether checks of t use an index where it pays: false
// only for a table made by [Table.SelectUnindexed] whose merged group has
// more than a few dozen rules.
func (t *Table) Indexed() bool { return !t.unsorted }

// selectGroups is Select, which indexes a merged group of more than
// smallGroup rules when index is set, and otherwise leaves it in file
// order, to be tried rule by rule (see Table.unsorted).
func (t *Table) selectGroups(groups []int, index bool) *Table {
	sc := getSortScratch()
	defer sc.release()
	records := t.records()
	nr, nrec, size := 0, 0, 0
	for _, g := range groups {
		s, e := t.span(g)
		nr += int(e.rules - s.rules)
		nrec += int(e.records - s.records)
		for _, r := range records[s.records:e.records] {
			size += int(r.n) + int(r.keyN)
		}
	}
	indexed := nr > smallGroup && index
	unsorted := nr > smallGroup && !index
	// The groups' rules, with their lines. Index builds t's order in
	// place: the rules are read under its lock.
	var lines []uint32
	if f := t.file; f != nil {
		f.mu.Lock()
		lines = f.lines
	}
	for _, g := range groups {
		s, e := t.span(g)
		var gl []uint32
		if lines != nil {
			gl = lines[s.rules:e.rules]
		}
		sc.items = orderItems(sc.items, t.text, t.rules[s.rules:e.rules], gl, indexed)
	}
	if f := t.file; f != nil {
		f.mu.Unlock()
	}
	if !unsorted {
		sc.order(indexed)
	}
	wide := false // some line does not fit rule.line
	for i := range sc.items {
		size += int(sc.items[i].r.n)
		wide = wide || sc.items[i].line >= wideLine
	}

	// The text, laid out in scratch space, which the index is noted
	// against, as it then reads the patterns in order: the patterns in
	// index order (in file order for a draft), sharing text where a
	// pattern starts the one laid out before it or extends it, then the
	// records' keys and values.
	if cap(sc.text) < size {
		sc.text = make([]byte, 0, size)
	}
	sc.text = layoutPatterns(t.text, sc.items, sc.text[:0])
	// Everything a group holds beyond its rules is copied here, group by
	// group, in file order.
	sc.records = sc.records[:0]
	for _, g := range groups {
		s, e := t.span(g)
		for _, r := range records[s.records:e.records] {
			v := t.str(r.off, int(r.n))
			r.off = uint32(len(sc.text))
			sc.text = append(sc.text, v...)
			if r.keyN > 0 {
				k := t.str(r.key, int(r.keyN))
				r.key = uint32(len(sc.text))
				sc.text = append(sc.text, k...)
			}
			sc.records = append(sc.records, r)
		}
	}
	text := view(sc.text)
	sc.rules = sc.rules[:0]
	for i := range sc.items {
		sc.rules = append(sc.rules, sc.items[i].r)
	}
	var ns notes
	ix := &sc.grams
	if indexed {
		sc.notes = append(sc.notes[:0], make(notes, nr)...)
		sc.noteRules(text, sc.rules, sc.notes, ix, 0)
		if !sc.notes.empty() {
			ns = sc.notes
		}
	}

	// One block holds the rules, lines, records, gram lists, notes and
	// text.
	nl := 0
	if wide {
		nl = nr
	}
	blk := newBlock(nr*int(unsafe.Sizeof(rule{})) + nl*4 + nrec*int(unsafe.Sizeof(record{})) +
		len(ix.blocks)*int(unsafe.Sizeof(gramBlock{})) + (len(ns)+len(ix.lists))*2 + len(text))
	out := &Table{rules: take[rule](&blk, nr), unsorted: unsorted}
	copy(out.rules, sc.rules)
	outLines := take[uint32](&blk, nl)
	for i := range outLines {
		outLines[i] = sc.items[i].line
	}
	outRecords := take[record](&blk, nrec)
	copy(outRecords, sc.records)
	if len(ix.blocks) > 0 {
		out.grams = &gramIndex{blocks: take[gramBlock](&blk, len(ix.blocks))}
		copy(out.grams.blocks, ix.blocks)
	}
	if ns != nil {
		out.notes = take[uint16](&blk, len(ns))
		copy(out.notes, ns)
	}
	if out.grams != nil {
		out.grams.lists = take[uint16](&blk, len(ix.lists))
		copy(out.grams.lists, ix.lists)
	}
	buf := take[byte](&blk, len(text))
	copy(buf, text)
	out.text = view(buf)
	if outRecords != nil || outLines != nil {
		out.file = &fileParts{groups: selectedGroups, records: outRecords, lines: outLines}
		out.file.indexed.Store(true) // sorted above, or a draft, never sorted
	}
	out.usage = t.selectUsage(groups)
	return out
}

// selectedGroups is the one group of a table that Select makes.
var selectedGroups = []group{{}}

// layoutPatterns appends the patterns of the rules of items, which lie
// in text, in their order to buf, which has room for them all, and points
// the rules and their prefixes at them there: a pattern that starts the
// last one laid out is pointed into it, and one that extends it adds only
// what follows.
func layoutPatterns(text string, items []orderItem, buf []byte) []byte {
	last, at := "", 0 // the last pattern laid out, and where
	for i := range items {
		it := &items[i]
		p := patternOf(text, &it.r)
		start := len(buf)
		switch {
		case i > 0 && len(p) <= len(last) && (p == "" || last[len(p)-1] == p[len(p)-1]) && last[:len(p)] == p:
			// (Rules of a block share their prefix: the last byte tells
			// most that differ, without comparing the prefix again.)
			start = at
		case i > 0 && at+len(last) == len(buf) && len(p) > len(last) && p[:len(last)] == last:
			start = at
			buf = append(buf, p[len(last):]...)
			last = p
		default:
			buf = append(buf, p...)
			last, at = p, start
		}
		it.r.off = uint32(start)<<ruleShift | it.r.off&(1<<ruleShift-1)
		it.pre = view(buf[start : start+len(it.pre)])
	}
	return buf
}

// A block is one allocation that holds arrays of values without pointers,
// one after another, and text: a table made of one costs one object to
// the garbage collector, which does not scan it, and no array of it has
// room to spare.
type block struct {
	buf []byte
	at  int // where the next array starts
}

// newBlock allocates a block of size bytes, aligned for any array.
func newBlock(size int) block {
	words := make([]uint64, (size+7)/8)
	return block{buf: unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), size)}
}

// take returns the next n values of type T of b, nil when n is 0. The
// caller takes the arrays in an order that keeps each aligned for its
// type: those of larger alignment first.
func take[T any](b *block, n int) []T {
	if n == 0 {
		return nil
	}
	p := unsafe.Pointer(unsafe.SliceData(b.buf[b.at:]))
	b.at += n * int(unsafe.Sizeof(*new(T)))
	return unsafe.Slice((*T)(p), n)
}

// sortScratch is scratch space for sorting rules into index order (see
// Table.build and Select), reused from table to table.
type sortScratch struct {
	items, sorted []orderItem
	keys          []orderKey
	runs          []orderRun
	open          []openBlock // for noteRules
	rules         []rule
	notes         notes
	grams         gramIndex
	text          []byte // for Select
	records       []record
	count         []uint16 // for rareGrams: 1<<gramBits zeros, or nil
	hashes        []uint16 // for rareGrams
	ends          []uint32 // for rareGrams
	next          []uint16 // for rareGrams
}

var sortPool = sync.Pool{New: func() any { return new(sortScratch) }}

func getSortScratch() *sortScratch { return sortPool.Get().(*sortScratch) }

// release returns sc to the pool, cleared, unless it grew past maxPooled
// rules.
func (sc *sortScratch) release() {
	if max(cap(sc.items), cap(sc.sorted), cap(sc.hashes), cap(sc.text)/64) > maxPooled {
		return
	}
	// The prefixes point into a table's text.
	clear(sc.items)
	clear(sc.sorted)
	clear(sc.open[:cap(sc.open)])
	sc.items, sc.sorted, sc.keys = sc.items[:0], sc.sorted[:0], sc.keys[:0]
	sc.rules, sc.notes, sc.hashes, sc.ends, sc.next = sc.rules[:0], sc.notes[:0], sc.hashes[:0], sc.ends[:0], sc.next[:0]
	sc.text, sc.records = sc.text[:0], sc.records[:0]
	sc.grams.blocks, sc.grams.lists = sc.grams.blocks[:0], sc.grams.lists[:0]
	sortPool.Put(sc)
}
