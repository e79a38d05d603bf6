package parser

import (
	"math/bits"
	"strings"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/matcher"
)

// The rules of a group are indexed by their literal prefix, the part of
// the pattern before its first '*' (see matcher.Rule.Prefix): a rule can
// match a path only when its prefix starts the path. The rules are sorted
// by prefix, and rules with the same prefix form a block, in precedence
// order (see matcher.Precedence; file order on a tie), so that a block
// can be left at the first rule too short to win.
//
// The prefixes that start a path P are found by a binary search and a
// climb. Let K be the last prefix that sorts at or before P. Every prefix
// Q of P lies between Q and P in sort order, and so does K, which
// therefore begins with Q: the prefixes of P are K and prefixes of K, no
// longer than the common start of K and P. Each block notes its parent,
// the block of the longest prefix of its own (see parentLink); so the
// check climbs from K's block through the parents and searches each
// block whose prefix is no longer than that common start.
//
// A parent too far away to note ends the climb, and the binary search
// goes on among the rules before the block where it ended, with P cut to
// what can still start it: no longer than that common start, and shorter
// than the block's prefix. In practice a check takes one search.
//
// Blocks of many rules hold mostly rules with a '*' after their prefix,
// which the prefix alone does not rule out; "/*x" is in the block of "/".
// For each of them the index keeps a gram (see pickGram): four bytes (two
// when no literal run of the rule is longer) from a run that any path it
// matches contains, taken where the rule differs from the one before it.
// A check notes the grams of the path in a bit set, and passes over the
// rules whose gram it lacks without matching them. The grams are kept in
// Table.notes (see notes), only for tables with a group of more than
// smallGroup rules.

// orderItem is a rule being sorted into index order, with what the order
// compares: its literal prefix (empty in a group without index, whose
// rules are in precedence order alone) and its line.
type orderItem struct {
	pre  string
	line uint32
	r    rule
}

// orderItems appends to items the rules of a group, whose patterns are
// in text, with their lines (lines[i], or the rule's own when lines is
// nil), and their prefixes when the group is indexed: a group of more
// than smallGroup rules, of which the caller gives the number.
func orderItems(items []orderItem, text string, rules []rule, lines []uint32, indexed bool) []orderItem {
	for i := range rules {
		it := orderItem{line: uint32(rules[i].line), r: rules[i]}
		if lines != nil {
			it.line = lines[i]
		}
		if indexed {
			it.pre = prefixOf(text, &rules[i])
		}
		items = append(items, it)
	}
	return items
}

// order sorts sc.items, the rules of one group, into index order: by
// prefix when indexed, then by precedence (see matcher.Precedence), then
// by line.
//
// Prefixes are sorted by their digits (see prefixDigit), from the first
// byte in which a run's prefixes differ, so that a long start they share
// is read once and not at every comparison: a run of prefixes whose
// digits tie is sorted again by their next digits, and a run of equal
// prefixes by its rules' places in precedence order (see rankDigit).
// Keys compare as integers, which the sort compares without a call.
func (sc *sortScratch) order(indexed bool) {
	items := sc.items
	keys := sc.keys[:0]
	for i := range items {
		keys = append(keys, orderKey{i: uint32(i)})
	}
	if !indexed {
		sc.byRank(keys)
	} else {
		sc.byPrefix(keys)
	}
	sorted := sc.sorted[:0]
	for _, k := range keys {
		sorted = append(sorted, items[k.i])
	}
	sc.items, sc.sorted, sc.keys = sorted, items, keys
}

// orderKey stands for sc.items[i] in the sort, with a number that orders
// it among the keys being sorted.
type orderKey struct {
	key uint64
	i   uint32
}

// orderRun is a run of keys still to sort, whose prefixes share their
// first depth bytes.
type orderRun struct{ lo, hi, depth int }

// byPrefix sorts keys into index order.
func (sc *sortScratch) byPrefix(keys []orderKey) {
	items := sc.items
	work := append(sc.runs[:0], orderRun{0, len(keys), 0})
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		span := keys[r.lo:r.hi]
		if len(span) <= fewKeys {
			sc.fewByPrefix(span, r.depth)
			continue
		}
		d := r.depth + sc.commonStart(span, r.depth)
		for k := range span {
			span[k].key = prefixDigit(items[span[k].i].pre, d)
		}
		sortKeys(span)
		for lo := 0; lo < len(span); {
			hi := lo + 1
			for hi < len(span) && span[hi].key == span[lo].key {
				hi++
			}
			switch {
			case hi-lo == 1:
			case span[lo].key&0xff == moreDigits:
				work = append(work, orderRun{r.lo + lo, r.lo + hi, d + 7})
			default:
				sc.byRank(span[lo:hi]) // equal prefixes
			}
			lo = hi
		}
	}
	sc.runs = work
}

// fewKeys is the number of keys up to which byPrefix sorts a run by
// comparing their prefixes whole: a run of equal digits is mostly of two
// or three, which sorting by their next digits costs more.
const fewKeys = 4

// fewByPrefix sorts span, whose prefixes share their first d bytes, by
// insertion.
func (sc *sortScratch) fewByPrefix(span []orderKey, d int) {
	items := sc.items
	for i := 1; i < len(span); i++ {
		k := span[i]
		x := &items[k.i]
		j := i
		for ; j > 0; j-- {
			y := &items[span[j-1].i]
			c := strings.Compare(x.pre[d:], y.pre[d:])
			if c > 0 || c == 0 && rankDigit(x) > rankDigit(y) {
				break
			}
			span[j] = span[j-1]
		}
		span[j] = k
	}
}

// commonStart returns the length of the start that the prefixes of span
// share beyond their first d bytes, which they share.
func (sc *sortScratch) commonStart(span []orderKey, d int) int {
	first := sc.items[span[0].i].pre[d:]
	n := len(first)
	for _, k := range span[1:] {
		if n = commonPrefix(first[:n], sc.items[k.i].pre[d:]); n == 0 {
			break
		}
	}
	return n
}

// byRank sorts span, whose prefixes are equal, by the rules' places in
// precedence order.
func (sc *sortScratch) byRank(span []orderKey) {
	for k := range span {
		span[k].key = rankDigit(&sc.items[span[k].i])
	}
	sortKeys(span)
}

// moreDigits is the low byte of a prefix digit after which the prefix
// goes on.
const moreDigits = 8

// prefixDigit returns the digit of prefix p at depth d: p[d:d+7],
// big-endian and padded with zeros, in its high seven bytes, and in its
// low byte how many bytes of p are left from d, or moreDigits when more
// than seven. Prefixes that share their first d bytes compare as their
// digits do when these differ: in their high bytes the first byte that
// differs decides (a padding zero stands where a prefix ended, before
// any byte of a longer one), and where only their counts differ, the
// shorter prefix starts the longer. Equal digits with a count below
// moreDigits end equal prefixes.
func prefixDigit(p string, d int) uint64 {
	rest := p[d:]
	if len(rest) >= 8 {
		return bits.ReverseBytes64(ascii.Load64(rest))&^0xff | moreDigits
	}
	var k uint64
	for i := range 7 {
		k <<= 8
		if i < len(rest) {
			k |= uint64(rest[i])
		}
	}
	return k<<8 | uint64(len(rest))
}

// rankDigit returns the number that orders rules of equal prefixes: their
// rank in precedence order (see matcher.Rank), then their line.
func rankDigit(it *orderItem) uint64 {
	// Ranks lie in [-2*MaxPatternLen-1, 0].
	rank := matcher.Rank(int(it.r.n), it.r.allow()) + 2*matcher.MaxPatternLen + 1
	return uint64(rank)<<32 | uint64(it.line)
}

// sortKeys sorts keys by key: a quicksort that splits off the keys equal
// to its pivot (runs of equal digits are common), which turns to a heap
// sort past 2·log₂(n) levels, so that no order of keys costs it more than
// n·log n comparisons, and to insertion for a few keys.
func sortKeys(keys []orderKey) { quickKeys(keys, 2*bits.Len(uint(len(keys)))) }

// quickKeys is sortKeys with limit levels of quicksort left.
func quickKeys(keys []orderKey, limit int) {
	for len(keys) > insertionKeys {
		if limit == 0 {
			heapKeys(keys)
			return
		}
		limit--
		// The median of the first, middle and last keys.
		a, b, c := keys[0].key, keys[len(keys)/2].key, keys[len(keys)-1].key
		p := max(min(a, b), min(max(a, b), c))
		// keys[:lt] < p, keys[lt:i] == p, keys[gt:] > p.
		lt, i, gt := 0, 0, len(keys)
		for i < gt {
			switch k := keys[i].key; {
			case k < p:
				keys[lt], keys[i] = keys[i], keys[lt]
				lt++
				i++
			case k > p:
				gt--
				keys[i], keys[gt] = keys[gt], keys[i]
			default:
				i++
			}
		}
		// Sort the smaller side by recursion, the larger in this loop.
		if lt < len(keys)-gt {
			quickKeys(keys[:lt], limit)
			keys = keys[gt:]
		} else {
			quickKeys(keys[gt:], limit)
			keys = keys[:lt]
		}
	}
	for i := 1; i < len(keys); i++ {
		k := keys[i]
		j := i
		for ; j > 0 && keys[j-1].key > k.key; j-- {
			keys[j] = keys[j-1]
		}
		keys[j] = k
	}
}

// insertionKeys is the number of keys up to which sortKeys sorts by
// insertion.
const insertionKeys = 12

// heapKeys sorts keys by key with a heap.
func heapKeys(keys []orderKey) {
	down := func(i, n int) {
		for {
			c := 2*i + 1
			if c >= n {
				return
			}
			if c+1 < n && keys[c+1].key > keys[c].key {
				c++
			}
			if keys[c].key <= keys[i].key {
				return
			}
			keys[i], keys[c] = keys[c], keys[i]
			i = c
		}
	}
	for i := len(keys)/2 - 1; i >= 0; i-- {
		down(i, len(keys))
	}
	for n := len(keys) - 1; n > 0; n-- {
		keys[0], keys[n] = keys[n], keys[0]
		down(0, n)
	}
}

// noteRules notes, in ns, each block's parent (in its first rule) and the
// grams of the block's other rules, and the large blocks in ix: for
// rules, whose patterns are in text, a group of more than smallGroup
// rules in index order, whose prefixes sc.items holds. base is the
// table's index of rules[0].
func (sc *sortScratch) noteRules(text string, rules []rule, ns notes, ix *gramIndex, base int) {
	items := sc.items
	// The blocks whose prefixes start the current block's, the longest
	// last, each with its last rule.
	stack := sc.open[:0]
	for b := 0; b < len(rules); {
		p := items[b].pre
		e := b + 1
		for e < len(rules) && items[e].pre == p {
			e++
		}
		// A block's ancestors sort before it, and so do the blocks
		// between them, which all begin with the ancestor's prefix.
		for len(stack) > 0 && !strings.HasPrefix(p, stack[len(stack)-1].prefix) {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			ns.setParent(b, parentLink(b-stack[len(stack)-1].last))
		}
		stack = append(stack, openBlock{p, e - 1})
		if e-b > minListed {
			if sc.count == nil {
				sc.count = make([]uint16, 1<<gramBits)
			}
			next := sc.rareGrams(text, rules[b:e], ns[b:e])
			ix.addBlock(base+b, ns[b:e], next)
		} else {
			for i := b + 1; i < e; i++ {
				ns.setGram(i, pickGram(tailOf(text, &rules[i]), tailOf(text, &rules[i-1])))
			}
		}
		b = e
	}
	sc.open = stack
}

// openBlock is a block whose prefix starts that of the block noteRules
// is at, and its last rule.
type openBlock struct {
	prefix string
	last   int
}

// A block's parent link, in the notes of its first rule, is how many
// rules before that rule the last rule of its parent block lies: the
// block whose prefix is the longest proper prefix of its own that some
// block has. 0 means it has none, and farParent that the parent lies too
// far back to say. farParent is the largest number a note holds: notes
// are 16 bits, so that an indexed group costs 2 bytes a rule beside its
// 8-byte rules; a farther parent is found by a search (see maxSteps).
const farParent = 1<<16 - 1

// parentLink returns the link of a block whose parent's last rule lies d
// rules before its first.
func parentLink(d int) uint16 { return uint16(min(d, farParent)) }

// rareGrams notes the grams of the rules of a large block but its first.
// Rules of such a block often share most of their runs ("/*.teaser.html",
// "/*.poll.html"), and a gram from a shared piece admits every path that
// has it; so each rule's gram is, of the four-byte pieces of its runs,
// the one the fewest of the block's runs hold. A rule whose runs are all
// shorter takes its gram as pickGram does. sc.count is 1<<gramBits zeros,
// which rareGrams leaves zero.
//
// When every rule of the block with pieces (of those the gram lists hold)
// has two in a row in one run, each rule's gram is instead the first of a
// pair of neighbours, the pair whose more common piece the fewest runs
// hold, and rareGrams returns, for each rule, the gram of the second
// (marked, as notes mark grams), so that a path need only be looked up at
// every other byte (see gramIndex.addBlock); otherwise it returns nil.
func (sc *sortScratch) rareGrams(text string, rules []rule, ns notes) (next []uint16) {
	count := sc.count
	// The hashes of the pieces of each rule but the first, one rule after
	// another, and where each rule's end; a piece whose neighbour in its
	// run follows it is marked with pieceNext.
	hs, ends := sc.hashes[:0], sc.ends[:0]
	for i := 1; i < len(rules); i++ {
		tail := tailOf(text, &rules[i])
		for at := 0; at < len(tail); {
			n := strings.IndexByte(tail[at:], '*')
			if n < 0 {
				n = len(tail) - at
			}
			for k := at; k+4 <= at+n; k++ {
				h := gramHash4(tail[k:])
				count[h] = max(count[h], count[h]+1)
				if k+5 <= at+n {
					h |= pieceNext
				}
				hs = append(hs, h)
			}
			at += n + 1
		}
		ends = append(ends, uint32(len(hs)))
	}
	// Pairs only when every rule the lists hold that has pieces has a
	// pair (see gramIndex.addBlock); else each notes its rarest piece.
	pairs := true
	start := uint32(0)
	for i := 1; i < min(len(rules), maxListed) && pairs; i++ {
		end := ends[i-1]
		if start < end {
			pairs = false
			for _, h := range hs[start:end] {
				if h&pieceNext != 0 {
					pairs = true
					break
				}
			}
		}
		start = end
	}
	if pairs {
		next = append(sc.next[:0], make([]uint16, len(rules))...)
	}
	start = 0
	for i := 1; i < len(rules); i++ {
		end := ends[i-1]
		if start == end {
			ns.setGram(i, pickGram(tailOf(text, &rules[i]), tailOf(text, &rules[i-1])))
			continue
		}
		// The rarest piece, and the rarest pair: the pair of neighbours
		// whose more common piece is the least common.
		least, pair, pairCount := hs[start]&^pieceNext, -1, uint16(0)
		for j := start; j < end; j++ {
			h := hs[j] &^ pieceNext
			if count[h] < count[least] {
				least = h
			}
			if hs[j]&pieceNext != 0 {
				c := max(count[h], count[hs[j+1]&^pieceNext])
				if pair < 0 || c < pairCount {
					pair, pairCount = int(j), c
				}
			}
		}
		if pairs && pair >= 0 {
			ns.setGram(i, gramMark|hs[pair]&^pieceNext)
			next[i] = gramMark | hs[pair+1]&^pieceNext
		} else {
			ns.setGram(i, gramMark|least)
		}
		start = end
	}
	for _, h := range hs {
		count[h&^pieceNext] = 0
	}
	sc.hashes, sc.ends = hs, ends
	if next != nil {
		sc.next = next
	}
	return next
}

// pieceNext marks, in rareGrams, a piece whose neighbour one byte on is
// in the same run: above the gramBits bits of a hash.
const pieceNext = 1 << 15

// patternOf returns the pattern of r, which lies in text.
func patternOf(text string, r *rule) string {
	off := r.off >> ruleShift
	return text[off : off+uint32(r.n)]
}

// matcherOf returns r compiled for matching.
func matcherOf(text string, r *rule) matcher.Rule {
	start := int(r.off >> ruleShift)
	return matcher.NewRule(text, start, start+int(r.n), r.allow())
}

// prefixOf returns the literal prefix of r (see [matcher.Rule.Prefix]).
func prefixOf(text string, r *rule) string {
	p := patternOf(text, r)
	switch r.kind() {
	case kindPlain:
		return p
	case kindDir:
		return matcherOf(text, r).Prefix(text)
	}
	return p[:prefixLen(p)]
}

// A rule's gram is a piece of its required run that any path it matches
// contains: four bytes, or two when the run is shorter than four, hashed
// to gramBits bits. Bit 15 of the stored value marks a gram, bit 14 a
// gram of two bytes. gramBits is what is left of a 16-bit note (see
// farParent): a path's grams are noted in a set of 1<<gramBits bits, 2
// KiB, and the fewer the bits, the more often a rule's gram is one the
// path does not have but shares a hash with: with 12 the files with the
// largest blocks take 2–3 % more (BenchmarkCorpusPass under callgrind:
// 1432.txt 13,171 instructions a check against 12,803).
const (
	gramBits  = 14
	gramMark  = 1 << 15
	gramShort = 1 << 14
)

func gramHash4(s string) uint16 {
	return gramHashWord(uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24)
}

// gramHashWord is gramHash4 of the four bytes of w, little-endian.
func gramHashWord(w uint32) uint16 { return uint16(w * 0x9E3779B1 >> (32 - gramBits)) }

func gramHash2(a, b byte) uint16 {
	return uint16((uint32(a)<<8 | uint32(b)) * 0x85EBCA77 >> (32 - gramBits))
}

// tailOf returns what follows the first '*' after the prefix of r,
// without a final '$': literal runs split by '*', each of which every
// path r matches contains. It is "" when r has no such '*', when the
// runs are all empty, or when r also matches its directory.
func tailOf(text string, r *rule) string {
	if k := r.kind(); k == kindPlain || k == kindDir {
		return ""
	}
	p := patternOf(text, r)
	star := strings.IndexByte(p, '*') // the prefix ends there, or before a final '$'
	if star < 0 {
		return ""
	}
	tail := strings.TrimSuffix(p[star+1:], "$")
	for i := range len(tail) {
		if tail[i] != '*' {
			return tail
		}
	}
	return ""
}

// pickGram returns the gram of a rule whose tail (see tailOf) is tail,
// marked, or 0 when no run of it has two bytes. Rules of a block often
// differ from their neighbours in a small part only ("/*?id=1&name=a",
// "/*?id=1&name=b"), so the gram is taken where tail first differs from
// prev, the tail of the rule before it, in the first run of four bytes or
// more that reaches there, which makes it tell the rules apart; else in
// the longest run.
func pickGram(tail, prev string) uint16 {
	d := commonPrefix(tail, prev)
	long, longAt := 0, 0
	for at := 0; at < len(tail); {
		n := strings.IndexByte(tail[at:], '*')
		if n < 0 {
			n = len(tail) - at
		}
		if n >= 4 && at+n > d {
			i := max(at, min(d, at+n-4))
			return gramMark | gramHash4(tail[i:])
		}
		if n > long {
			long, longAt = n, at
		}
		at += n + 1
	}
	switch {
	case long >= 4:
		return gramMark | gramHash4(tail[longAt:])
	case long >= 2:
		i := longAt + max(0, min(d-longAt, long-2))
		return gramMark | gramShort | gramHash2(tail[i], tail[i+1])
	}
	return 0
}

// gramSet is the set of the grams of a path, of each length noted on
// first need.
type gramSet struct {
	bits        [1 << gramBits / 64]uint64
	long, short bool // whether the grams of four, of two bytes are in
}

func (gs *gramSet) add(h uint16) { gs.bits[h/64] |= 1 << (h % 64) }

func (gs *gramSet) has(h uint16) bool { return gs.bits[h/64]&(1<<(h%64)) != 0 }

// admits reports whether the gram of a rule is in the set of path's.
func (gs *gramSet) admits(gram uint16, path string) bool {
	if gram&gramShort != 0 {
		if !gs.short {
			gs.short = true
			for i := 1; i < len(path); i++ {
				gs.add(gramHash2(path[i-1], path[i]))
			}
		}
	} else if !gs.long {
		gs.long = true
		for i := 0; i+4 <= len(path); i++ {
			gs.add(gramHash4(path[i:]))
		}
	}
	h := gram & (1<<gramBits - 1)
	return gs.bits[h/64]&(1<<(h%64)) != 0
}

// Decide finds the rule that decides for path among the rules of the
// given groups: the longest match, an allow on a tie, the first in file
// order on a full tie (see [matcher.Best]). path is what rules are
// matched against, as matcher.Path or matcher.EscapePath return it. ok is
// false when no rule matches, and the path is allowed.
func (t *Table) Decide(groups []int, path string) (_ Rule, ok bool) {
	i := t.decidingRule(groups, path)
	if i < 0 {
		return Rule{}, false
	}
	return t.rule(i), true
}

// Allowed reports whether path is allowed by the rules of the given
// groups: whether the rule [Table.Decide] finds, if any, is an allow.
func (t *Table) Allowed(groups []int, path string) bool {
	i := t.run(groups, path, nil)
	return i < 0 || t.rules[i].off&ruleAllow != 0
}

// decidingRule returns the index of the rule that decides for path among
// the rules of groups, or -1.
func (t *Table) decidingRule(groups []int, path string) int { return t.run(groups, path, nil) }

// run is decidingRule, which also adds to tried, when it is not nil, the number
// of rules the check matched against the path (see check.tried).
func (t *Table) run(groups []int, path string, tried *int) int {
	if f := t.file; f != nil && !f.indexed.Load() {
		t.indexSlow() // t.index(), without a call
	}
	// Field by field: a composite literal is built aside and copied, and
	// the copy reads what was just written in smaller pieces, which
	// stalls the CPU (a tenth of a small check).
	var c check
	c.t, c.path, c.at, c.pre = t, path, -1, -1
	c.best.Len = -1 // until a rule is found, so that every rule beats it
	if t.file != nil {
		c.lines = t.file.lines
	}
	for _, g := range groups {
		switch rules, base := t.groupRules(g); {
		case len(rules) <= smallGroup:
			c.small(rules, base)
		case t.unsorted:
			c.each(rules, base)
		default:
			c.indexed(rules, base)
		}
	}
	if tried != nil {
		*tried += c.tried
	}
	return c.at
}

// check is the state of one run.
type check struct {
	t     *Table
	lines []uint32 // t.file.lines
	path  string
	best  matcher.Best
	at    int // the deciding rule, or -1
	// tried counts the rules matched against the path, for the tests
	// that bound the work of a check.
	tried int
	// pre is the length of the prefix of the rules being tried, all of one
	// block, or -1 when they are not.
	pre int
}

// match is t.match(r, c.path, c.pre), counted.
func (c *check) match(r *rule) (int, bool) {
	c.tried++
	return c.t.match(r, c.path, c.pre)
}

// smallGroup is the number of rules up to which a group has no index:
// its rules are sorted by precedence alone (see matcher.Precedence; file
// order on a tie) and tried one by one up to the first that cannot beat
// the best (see small), which for so few costs less than the index's
// search and climb, and keeps no notes. Most groups are this small. Over
// the corpus (BenchmarkCorpusPass under callgrind) a check takes 2,054
// instructions with 16, 2,004 with 24, 1,985 with 32, 2,040 with 48 and
// 2,126 with 64.
const smallGroup = 32

// match reports whether r matches path and the length its match weighs,
// as [matcher.Rule.Match] does, but decides plain patterns here, leaves
// those with one '*' to [matcher.MatchOne] and the rest but index-page
// allows to [matcher.Match]. pre is the length of r's prefix, when the
// caller knows it (where a '*' may be), or -1.
func (t *Table) match(r *rule, path string, pre int) (int, bool) {
	p := t.pattern(r)
	switch r.kind() {
	case kindPlain:
		return len(p), !secondDiffers(p, path) && strings.HasPrefix(path, p)
	case kindOne:
		star := pre // the prefix ends at the '*', or before a final '$'
		if pre < 0 {
			star = ascii.IndexByte(p, '*')
		} else if p[pre] != '*' {
			star = -1
		}
		return len(p), !secondDiffers(p, path) && matcher.MatchOne(p, star, path)
	case kindWild:
		return len(p), matcher.Match(p, path)
	}
	return t.matcher(r).Match(t.text, path)
}

// secondDiffers reports whether the first two bytes of pattern p, which
// is not an allow of …/index.htm*, are literals and the second is not
// path's, so that p cannot match path. Most patterns begin with '/', as
// all paths do, and most that do not match path differ from it there:
// this spares them the call that compares strings.
func secondDiffers(p, path string) bool {
	if len(p) < 2 || p[0] == '*' || p[1] == '*' || p[1] == '$' && len(p) == 2 {
		return false
	}
	return len(path) < 2 || path[1] != p[1]
}

// beats is c.best.Beats for the rule at index i of the table, of length
// n and kind allow; it reads the rule's line only on a tie.
func (c *check) beats(n int, allow bool, i int) bool {
	p := matcher.Precedence(n, allow, c.best.Len, c.best.Allow)
	return p < 0 || p == 0 && c.line(i) < c.best.Order
}

// line is t.line(i), for the table of the check.
func (c *check) line(i int) int {
	if c.lines != nil {
		return int(c.lines[i])
	}
	return int(c.t.rules[i].line)
}

// maxSteps bounds the searches of the index in one group for one check.
// A check searches once, and again only after a parent link too far back
// to note (farParent), which takes a group of more than 65,535 rules; a
// group with that many, whose paths need more searches than this, is
// checked rule by rule past them, so that a staircase of far parents (as
// only a hostile file has; TestDecideFarParentStaircase) costs a few
// searches more than trying every rule, not a search a step. No corpus
// file has a far parent (the largest group has 47,064 rules, in blocks of
// at most 916), so no benchmark moves with it: four spares the searches
// of the paths of a real group that large (a path has seldom more than
// four nested prefixes with far parents) and bounds the rest.
const maxSteps = 4

// each looks for a better rule than the best so far among rules, whose
// first is the group's rule base, trying every one.
func (c *check) each(rules []rule, base int) {
	for j := range rules {
		c.try(&rules[j], base+j)
	}
}

// try matches r, the table's rule i, when its length could beat the best
// so far, and takes it when it matches and its match does.
func (c *check) try(r *rule, i int) {
	allow := r.allow()
	if !c.beats(int(r.n), allow, i) {
		return
	}
	if m, ok := c.match(r); ok && c.beats(m, allow, i) {
		c.best.Take(m, allow, c.t.line(i))
		c.at = i
	}
}

// tooShort reports whether r, and so every rule after it in precedence
// order, is too short to beat the best so far: even an allow of its
// length would not.
func (c *check) tooShort(r *rule) bool {
	return matcher.Precedence(int(r.n), true, c.best.Len, c.best.Allow) > 0
}

// indexed looks for a better rule than the best so far among rules, a
// group of more than smallGroup rules in index order whose first is the
// table's rule base.
func (c *check) indexed(rules []rule, base int) {
	t := c.t
	at := c.path
	hi := len(rules)
	// The path has no '*' before noStar. Prefixes are rarely long, so the
	// path is read no further than starStretch: a prefix that agrees with
	// a longer path beyond it looks for its own '*' there.
	noStar := min(len(at), starStretch)
	if i := strings.IndexByte(at[:noStar], '*'); i >= 0 {
		noStar = i
	}
search:
	for step := 0; ; step++ {
		if step == maxSteps {
			// A path that many blocks with far parents start (a
			// staircase of prefixes, as only a hostile file has) costs
			// a search a step: finish with the rules not yet passed, one
			// by one, so a check never costs much more than trying every
			// rule.
			c.each(rules[:hi], base)
			return
		}
		// The last rule before hi whose prefix sorts at or before at,
		// and the length of their common start. All prefixes between
		// two that start with at[:n] start with it too, so comparisons
		// skip what both bounds share with at. (A loop, not
		// slices.BinarySearchFunc: handing the path to a function value
		// would make every caller's path escape to the heap.)
		lo, h := 0, hi
		nlo, nhi := 0, 0
		for lo < h {
			m := int(uint(lo+h) >> 1)
			if cmp, n := t.comparePrefix(&rules[m], at, min(nlo, nhi), noStar); cmp <= 0 {
				lo, nlo = m+1, n
			} else {
				h, nhi = m, n
			}
		}
		i := lo - 1
		if i < 0 {
			return
		}
		// Climb from the block that ends at i, K's, through its parents:
		// each that is no longer than K's common start with the path
		// starts the path. Every climb goes back in the rules, so it
		// costs no more than a pass over them.
		for {
			key := t.prefix(&rules[i])
			gb := t.grams.holding(base + i) // a large block's bounds, at hand
			lo := 0
			if gb != nil {
				lo = int(gb.start) - base
			} else {
				lo = t.blockStart(rules, i, key)
			}
			if nlo >= len(key) && c.beats(int(rules[lo].n), rules[lo].allow(), base+lo) {
				c.pre = len(key)
				if gb != nil && (len(c.path) <= shortPath || len(c.path) <= listedPath*gb.listedRules()) {
					c.listed(rules[:i+1], lo, base, gb)
				} else {
					c.block(rules[:i+1], lo, base)
				}
				c.pre = -1
			}
			link := t.notes.parentOf(base + lo)
			switch link {
			case 0:
				return // no prefix of key, so none of the path, has a block
			case farParent:
				at, hi = at[:min(nlo, len(key)-1)], lo
				continue search
			}
			i = lo - int(link)
		}
	}
}

// small looks for a better rule than the best so far among rules, a
// group of at most smallGroup rules in precedence order whose first is
// the table's rule base. It stops at the first rule that cannot beat the
// best, which no rule after it can either, and at the first that matches
// with its whole length, which no rule after it can beat.
func (c *check) small(rules []rule, base int) {
	text, path := c.t.text, c.path
	second := -1 // the path's second byte, when it has one
	if len(path) > 1 {
		second = int(path[1])
	}
	// Every rule from the first to the one the loop stops at is matched
	// (or tested by its second byte): counted once, at the end.
	// Until some rule matches (mostly, in one group), any rule beats
	// the best: found spares the test.
	j, found := 0, c.best.Found
	for ; j < len(rules); j++ {
		r := &rules[j]
		n, allow := int(r.n), r.allow()
		if found {
			if p := matcher.Precedence(n, allow, c.best.Len, c.best.Allow); p > 0 || p == 0 && c.line(base+j) >= c.best.Order {
				break
			}
		}
		off, k := int(r.off>>ruleShift), r.kind()
		p := text[off : off+n]
		var m int
		var ok bool
		switch {
		case k == kindDir:
			m, ok = c.t.match(r, path, -1)
		case n > 2 && p[0] != '*' && p[1] != '*' && int(p[1]) != second:
			// Most rules begin with '/', as every path does, and most
			// that do not match differ from the path in their second
			// byte: when both are literals, that byte tells, without a
			// call (a third byte makes a second '$' a literal).
			continue
		case k == kindPlain:
			m, ok = n, strings.HasPrefix(path, p)
		case k == kindOne:
			// Most of these begin with "/*", and the rest mostly have
			// their '*' in their first word (see ascii.IndexByte).
			star := 0
			switch {
			case n > 1 && p[1] == '*':
				star = 1
			case n == 0 || p[0] != '*':
				star = ascii.IndexByte(p, '*')
			}
			m, ok = n, matcher.MatchOne(p, star, path)
		default:
			m, ok = n, matcher.Match(p, path)
		}
		if !ok || m < n && !c.beats(m, allow, base+j) {
			continue // an index-page allow may match its directory alone, and weigh less
		}
		c.best.Take(m, allow, c.line(base+j))
		c.at, found = base+j, true
		if m == n {
			j++
			break
		}
	}
	c.tried += j
}

// blockStart returns the first rule of the block that ends at rules[i],
// whose prefix is key. It gallops back from i, so that a small block
// takes a comparison or two.
func (t *Table) blockStart(rules []rule, i int, key string) int {
	first, step := i, 1
	out := -1 // the last rule known to be outside the block
	for {
		j := first - step
		if j < 0 || !t.isPrefix(&rules[j], key) {
			out = max(j, -1)
			break
		}
		first, step = j, step*2
	}
	lo, h := out+1, first
	for lo < h {
		m := int(uint(lo+h) >> 1)
		if t.isPrefix(&rules[m], key) {
			h = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// block looks for a better rule among rules[b:], a block whose prefix
// starts the path; base is the index of rules[0] in the table. It notes
// the grams of the path only once unfilteredRules rules that could
// use them have been matched, so that checks against small blocks do not
// pay for them, and only when the rules left are not so few against the
// path's length that noting its grams would cost more than matching them
// (a rule ending in '$' fails at once, whatever the path's length).
func (c *check) block(rules []rule, b, base int) {
	j := c.scan(rules, b, b, base, nil, unfilteredRules)
	if j < 0 {
		return
	}
	if len(c.path) > shortPath && len(c.path) > listedPath*(len(rules)-j) {
		c.scan(rules, b, j, base, nil, len(rules))
		return
	}
	var gs gramSet
	c.scan(rules, b, j, base, &gs, 0)
}

// starStretch is how much of a path a check reads to know where it has
// no '*' (see comparePrefix): prefixes are seldom long (125 of the
// corpus's 263,159 rules have one of more than 256 bytes), and one that
// agrees with the path beyond it looks for its own '*' there. Reading the
// whole path instead made a check of a 100 KB path against ten '$' rules
// cost 362 times trying every rule (BenchmarkHostileLongPath; 3.9 times
// with this bound and listedPath, all of it reading the URL).
const starStretch = 256

// listedPath is how many times the rules of a block a path longer than
// shortPath may be for the check to look its grams up in the block's
// lists (see listed) or note them (see block); past that, looking up or
// noting the grams of the path would cost more than matching the rules,
// which are matched instead. So no block costs a check much more than
// matching its rules, however long the path: a chain of 100 small blocks
// under a 2,000-byte path cost 3.6 to 6.5 times trying every rule before
// (BenchmarkHostileChain), about 1.1 times with this bound, and ten '$'
// rules under a 2 KB path 6.8 times, 0.7 times with it
// (BenchmarkHostileLongPath). The corpus does not move with it
// (BenchmarkCorpusPass: the same instructions a check with 2, 4 or 8).
const listedPath = 4

// unfilteredRules is the number of rules with grams that a block
// matches before it notes the grams of the path: a check that finds its
// rule among the first few of a block never pays for noting the path's
// grams in a 2 KiB set. The corpus hardly moves with it
// (BenchmarkCorpusPass: 1,976 instructions a check with 4, 1,984 with 8,
// 1,988 with 16).
const unfilteredRules = 8

// scan is block from rules[from] on. When ps is nil, it matches rules
// with a gram too, and stops at the one after limit of them and returns
// its index; otherwise it passes over the rules whose gram ps lacks and
// returns -1.
func (c *check) scan(rules []rule, b, from, base int, ps *gramSet, limit int) int {
	t := c.t
	unfiltered := 0
	for j := from; j < len(rules); j++ {
		r := &rules[j]
		if c.tooShort(r) {
			break
		}
		if !c.beats(int(r.n), r.allow(), base+j) {
			continue // before the gram, which may cost noting the path's
		}
		if gram := t.notes.gramOf(base+b, base+j); gram != 0 {
			switch {
			case ps != nil:
				if !ps.admits(gram, c.path) {
					continue // the path lacks the gram the rule needs
				}
			case unfiltered == limit:
				return j
			default:
				unfiltered++
			}
		}
		c.try(r, base+j)
	}
	return -1
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := ascii.Load64(a[i:]) ^ ascii.Load64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for ; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// notes holds a number for each rule of the indexed groups of a table:
// for the first rule of a block, the link to its parent block (see
// parentLink); for each other rule, its gram (see pickGram), or 0. Code
// reads them through parentOf and gramOf only, which tell the two apart.
type notes []uint16

// parentOf returns the parent link of the block whose first rule is rule
// b; 0 when ns is nil.
func (ns notes) parentOf(b int) uint16 {
	if ns == nil {
		return 0
	}
	return ns[b]
}

// gramOf returns the gram of rule i of the block whose first rule is b:
// 0 for the first rule, whose number is its block's parent link, and
// when ns is nil.
func (ns notes) gramOf(b, i int) uint16 {
	if ns == nil || i == b {
		return 0
	}
	return ns[i]
}

// setParent notes the parent link of the block whose first rule is b.
func (ns notes) setParent(b int, link uint16) { ns[b] = link }

// setGram notes the gram of rule i, which is not the first of its block.
func (ns notes) setGram(i int, gram uint16) { ns[i] = gram }

// empty reports whether no rule has a note: neither a gram nor a parent
// link.
func (ns notes) empty() bool {
	for _, p := range ns {
		if p != 0 {
			return false
		}
	}
	return true
}
