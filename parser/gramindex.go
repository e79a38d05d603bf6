package parser

import (
	"math/bits"
	"unsafe"

	"github.com/robotsgate/robotstxt/internal/ascii"
)

// A block of many rules with grams is also indexed by gram: its rules are
// listed in buckets by their gram, so that a check looks up the grams of
// the path, a byte at a time, and visits only the rules that have one of
// them (and those without a gram), in precedence order, instead of
// passing over every rule of the block. It visits every rule a pass with
// the path's gramSet would match (and a few more: a rule's gram is
// compared by its hash alone).
//
// Most grams of a path are no rule's, so a look-up first asks a bit set
// of the block's gram hashes (cut to its size), which a gram of the path
// passes only when some rule of the block has its hash, or most of it;
// only then does it visit the gram's bucket.
//
// When each rule's gram has a neighbour in its run, the piece one byte
// on, the block lists every such rule by both (gramPairs): wherever the
// run lies in a path, one of the two starts at an even offset, so a check
// looks up the path's grams at even offsets only, half of them. On
// 1432.txt, the corpus's costliest file, whose paths are long, a check
// takes 0.82 of the instructions and of the time, for gram lists that
// take 1.36 times the room (over the sample, 0.0020 of the body against
// 0.0015).
//
// The index also keeps each such block's bounds, so that a check that
// lands in it finds its start without searching.

// gramIndex holds the gram lists of the large blocks of a Table.
type gramIndex struct {
	blocks []gramBlock // by start
	// lists holds each block's lists: the bit set of its grams' hashes
	// (see gramBlock.hashBits), the starts of its buckets, the start of
	// its list of rules without a gram and the end of that list (heads,
	// relative to the entries), then the entries, the rules' places in
	// the block (marked with secondGram where listed by a pair's second
	// gram).
	lists []uint16
}

// gramBlock is one block of a gramIndex: its rules are those of the table
// from start to end, of which the first maxListed at most are listed (see
// listedRules).
type gramBlock struct {
	start uint32 // the table's index of the block's first rule
	end   uint32 // and one past its last
	at    uint32 // where its lists begin in gramIndex.lists
	mask  uint16 // the number of buckets, less one (see hashBits)
	kinds uint8  // gramLong | gramTwo: the kinds of gram its rules have; gramPairs
}

const (
	gramLong  = 1 << iota // some rule of the block has a gram of four bytes
	gramTwo               // some rule has a gram of two bytes
	gramPairs             // each rule with a gram of four bytes is listed by it and the next (see addBlock)
)

// minListed is the number of rules with a gram from which a block is
// indexed by gram (a block's first rule has none, so such a block has at
// least minListed+1 rules): few, because files repeat blocks of a few
// dozen wildcard rules under many prefixes ("/AT/*…", "/BE/*…"), and
// looking up a short path's grams costs less than matching the rules a
// pass matches before it notes them. Lowering it from 128 grams to 16
// rules took the costliest corpus file from 31 to 19–20 times the median
// check (BenchmarkCorpusCheck). Over the corpus (BenchmarkCorpusPass under
// callgrind) a check takes 2,287 instructions with 8 and 2,375 with 16;
// with 8 the 99th percentile of the files' mean check takes 6,196 against
// 7,133, and 1560.txt 10,641 against 12,184, for lists that take 0.015 of
// the body a Crawler's table is made from against 0.011.
//
// maxListed is the most rules of a block the index lists: a check notes
// the rules to visit in a bit set of that size on its stack (512 bytes),
// and rules past it are passed over as in a block without lists. The
// largest block of the corpus has 916 rules; BenchmarkHostileGrams
// checks a block of 4,096.
const (
	minListed = 8
	maxListed = 4096
)

// addBlock indexes the block of rules whose notes are ns, which starts at
// the table's rule start, when it has minListed grams or more. next is
// what rareGrams returned: nil, or for each rule the gram one byte after
// its own, in which case each rule is listed by both (gramPairs), so that
// any place of its run in a path puts one of the two at an even offset,
// and a check looks up only those.
func (ix *gramIndex) addBlock(start int, ns notes, next []uint16) {
	n := min(len(ns), maxListed)
	grams := 0
	var kinds uint8
	for i := 1; i < n; i++ {
		if p := ns.gramOf(0, i); p != 0 {
			grams++
			if p&gramShort != 0 {
				kinds |= gramTwo
			} else {
				kinds |= gramLong
			}
		}
	}
	if grams < minListed {
		return
	}
	if next != nil && kinds&gramLong != 0 {
		kinds |= gramPairs
	}
	// listing calls f with the gram (0 for none) and the entry of each
	// listing of a rule: by its own gram, then by its next one, marked.
	listing := func(f func(g, e uint16)) {
		for i := range n {
			f(ns.gramOf(0, i), uint16(i))
		}
		if kinds&gramPairs != 0 {
			for i := 1; i < n; i++ {
				if next[i] != 0 {
					f(next[i], uint16(i)|secondGram)
				}
			}
		}
	}
	entries, listedGrams := 0, 0
	listing(func(g, _ uint16) {
		entries++
		if g != 0 {
			listedGrams++
		}
	})
	// Two to four buckets a gram, at most one a hash.
	nb := min(1<<bits.Len(uint(2*listedGrams-1)), 1<<gramBits)
	at := len(ix.lists)
	gb := gramBlock{
		start: uint32(start), end: uint32(start + len(ns)), at: uint32(at),
		mask: uint16(nb - 1), kinds: kinds,
	}
	ix.blocks = append(ix.blocks, gb)
	ix.lists = append(ix.lists, make([]uint16, gb.hashBits()/16+nb+2+entries)...)
	hashes, heads, list := ix.listsOf(&gb)
	// heads[k] counts bucket k first, then becomes its start.
	listing(func(g, _ uint16) {
		heads[bucketOf(g, nb)]++
		if g != 0 {
			h := int(g) & (len(hashes)*16 - 1)
			hashes[h/16] |= 1 << (h % 16)
		}
	})
	sum := uint16(0)
	for k := range heads {
		heads[k], sum = sum, sum+heads[k]
	}
	// Fill each bucket from its start, then move the starts back.
	listing(func(g, e uint16) {
		k := bucketOf(g, nb)
		list[heads[k]] = e
		heads[k]++
	})
	copy(heads[1:], heads[:nb+1])
	heads[0] = 0
}

// secondGram marks an entry of the gram lists that lists its rule by the
// gram after its own (see addBlock): above the places of maxListed rules.
const secondGram = 1 << 15

// hashBits is the size of the block's bit set of gram hashes: eight bits
// a bucket, sixteen to thirty-two a gram, so that a gram of the path that
// no rule has passes it once in sixteen times or fewer; a block of more
// than 1,024 grams listed (a pair's counting two) has a bit for every
// hash (1<<gramBits), and a gram passes only when some rule has its hash.
// With buckets alone, four to eight a gram, such a gram fell in a bucket
// that held rules once in five times, nearly always rules of another
// hash, and the visits and the branches they missed took a fifth of a
// long path's check: 1432.txt, the
// corpus's costliest file, whose paths are 218 bytes on average, took
// 14,063 instructions a check (callgrind) against 13,416 with the bit
// set, and 5 % more time, for lists that took 64 to 128 bits a gram
// against 48 to 96.
func (gb *gramBlock) hashBits() int { return min(8*(int(gb.mask)+1), 1<<gramBits) }

// listsOf returns the lists of gb: the bit set of its grams' hashes, the
// heads of its buckets and the entries they index.
func (ix *gramIndex) listsOf(gb *gramBlock) (hashes, heads, entries []uint16) {
	nw, nb := gb.hashBits()/16, int(gb.mask)+1
	lists := ix.lists[gb.at:]
	return lists[:nw], lists[nw : nw+nb+2], lists[nw+nb+2:]
}

// bucketOf returns the bucket of a rule with gram p among nb, or nb for a
// rule without a gram.
func bucketOf(p uint16, nb int) int {
	if p == 0 {
		return nb
	}
	return int(p) & (nb - 1)
}

// listedRules returns the number of the block's rules its lists hold, its
// first ones.
func (gb *gramBlock) listedRules() int { return min(int(gb.end-gb.start), maxListed) }

// holding returns the block that holds the table's rule i, or nil.
func (ix *gramIndex) holding(i int) *gramBlock {
	if ix == nil {
		return nil
	}
	lo, hi := 0, len(ix.blocks)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(ix.blocks[m].start) <= i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo > 0 && i < int(ix.blocks[lo-1].end) {
		return &ix.blocks[lo-1]
	}
	return nil
}

// size returns the bytes ix retains.
func (ix *gramIndex) size() int {
	if ix == nil {
		return 0
	}
	return int(unsafe.Sizeof(*ix)) + cap(ix.blocks)*int(unsafe.Sizeof(gramBlock{})) +
		cap(ix.lists)*int(unsafe.Sizeof(uint16(0)))
}

// listed looks for a better rule among rules[b:], a block whose prefix
// starts the path and which gb indexes; base is the index of rules[0] in
// the table. It visits the rules gb lists whose gram the path has (or,
// for a block listed by pairs, either of whose two grams the path has at
// an even offset; the second taken on its bucket alone), and those
// without a gram, in order, then passes over the rules past the listed
// ones as block does.
//
// A bucket's rules are taken when their gram's hash is the path gram's,
// whatever its length: the gram only filters, and a rule taken for a gram
// of the other length is matched all the same. A long path looks up each
// of its distinct grams once (a short one may look one up again, which
// costs less than noting them). A path whose grams fill the buckets
// beyond the block's size and the path's length (a gram that many rules
// share, repeated, or grams chosen to share buckets, as only a hostile
// file and path have) stops the look-ups and passes over the block as
// block does, so a check never costs much more than trying every rule.
func (c *check) listed(rules []rule, b, base int, gb *gramBlock) {
	t := c.t
	n := gb.listedRules()
	nb := int(gb.mask) + 1
	hashes, heads, entries := t.grams.listsOf(gb)
	ns := t.notes[base+b:][:n]
	// The rules to visit, in a bit set of the block's size: zeroing all
	// of maxListed would cost a short path more than its look-ups.
	var seen []uint64
	if n <= 256 {
		var small [256 / 64]uint64
		seen = small[:]
	} else {
		var large [maxListed / 64]uint64
		seen = large[:]
	}
	for _, e := range entries[heads[nb]:heads[nb+1]] {
		seen[e/64] |= 1 << (e % 64)
	}
	path := c.path
	var gs *gramSet // the grams of a long path looked up so far
	if len(path) > shortPath {
		gs = new(gramSet)
	}
	budget := n + len(path)
	// visit takes the rules of bucket k whose gram is h, the path's; the
	// caller knows that k holds some.
	visit := func(h uint16, k int) bool {
		if gs != nil {
			if gs.has(h) {
				return true
			}
			gs.add(h)
		}
		bucket := entries[heads[k]:heads[k+1]]
		if budget -= len(bucket); budget < 0 {
			return false
		}
		for _, e := range bucket {
			// A rule listed by its next gram is taken on the bucket
			// alone: that gram is not noted.
			if e&secondGram != 0 || ns.gramOf(0, int(e))&(1<<gramBits-1) == h {
				e &^= secondGram
				seen[e/64] |= 1 << (e % 64)
			}
		}
		return true
	}
	// Most of the path's grams are no rule's, and the bit set of the
	// block's hashes lets them by without a visit: a long path takes
	// about ten instructions a byte where every offset is looked up.
	mask, hmask := int(gb.mask), uint(len(hashes)*16-1)
	ok := true
	if gb.kinds&gramLong != 0 {
		// Four grams at a time, or the two at even offsets of four bytes
		// when each rule is listed by two neighbours (see nextHits);
		// then the last ones one at a time.
		pairs := gb.kinds&gramPairs != 0
		step := 1
		if pairs {
			step = 2
		}
		i := 0
	hits:
		for {
			var hit uint
			if i, hit = nextHits(path, i, hashes, hmask, pairs); hit == 0 {
				break
			}
			for ; hit != 0; hit &= hit - 1 {
				h := gramHash4(path[i+bits.TrailingZeros(hit):])
				if !visit(h, int(h)&mask) {
					ok = false
					break hits
				}
			}
			i += 4
		}
		for ; ok && i+4 <= len(path); i += step {
			h := gramHash4(path[i:])
			if hashBit(hashes, uint(h)&hmask) != 0 && !visit(h, int(h)&mask) {
				ok = false
			}
		}
	}
	if ok && gb.kinds&gramTwo != 0 {
		for i := 1; i < len(path); i++ {
			h := gramHash2(path[i-1], path[i])
			if hashBit(hashes, uint(h)&hmask) != 0 && !visit(h, int(h)&mask) {
				ok = false
				break
			}
		}
	}
	if !ok {
		if gs == nil {
			gs = new(gramSet)
		}
		// gs holds grams of the path only, of either length: admits adds
		// the rest.
		c.scan(rules, b, b, base, gs, 0)
		return
	}
	for w := range (n + 63) / 64 {
		for m := seen[w]; m != 0; m &= m - 1 {
			j := b + w*64 + bits.TrailingZeros64(m)
			if c.tooShort(&rules[j]) {
				return
			}
			c.try(&rules[j], base+j)
		}
	}
	if b+n < len(rules) {
		if gs == nil {
			gs = new(gramSet)
		}
		c.scan(rules, b, b+n, base, gs, 0)
	}
}

// shortPath is the length up to which a path's grams are looked up in a
// block's lists without noting which were looked up already (a short path
// may look one up twice, which costs less than noting them in a 2 KiB
// set), and from which listedPath weighs a path against a block's rules.
// Most paths are shorter (of the corpus's queries, 2 % are longer); the
// corpus hardly moves with it (BenchmarkCorpusPass: 1,987 instructions a
// check with 32, 1,984 with 64 or 128), while a long path that repeats
// a gram (BenchmarkHostileGrams, 1,000 bytes) looks each up once.
const shortPath = 64

// nextHits looks for grams of path that pass the bit set hashes, whose
// size less one is hmask, from i on in steps of four: the grams that start
// at i, i+1, i+2 and i+3, read from the eight bytes at i, or only those at
// i and i+2 when pairs is set (i is even). It returns the first i at which
// some of them pass, with which ones as bits of hit (bit k for i+k), or,
// when none do, the first i without eight bytes from it and 0. Kept apart
// from listed, so that its few values stay in registers: most of a long
// path's check is spent here.
func nextHits(path string, i int, hashes []uint16, hmask uint, pairs bool) (_ int, hit uint) {
	if pairs {
		for ; i+8 <= len(path); i += 4 {
			x := ascii.Load64(path[i:])
			b := hashBit(hashes, uint(gramHashWord(uint32(x)))&hmask) |
				hashBit(hashes, uint(gramHashWord(uint32(x>>16)))&hmask)<<2
			if b != 0 {
				return i, uint(b)
			}
		}
		return i, 0
	}
	for ; i+8 <= len(path); i += 4 {
		x := ascii.Load64(path[i:])
		b := hashBit(hashes, uint(gramHashWord(uint32(x)))&hmask) |
			hashBit(hashes, uint(gramHashWord(uint32(x>>8)))&hmask)<<1 |
			hashBit(hashes, uint(gramHashWord(uint32(x>>16)))&hmask)<<2 |
			hashBit(hashes, uint(gramHashWord(uint32(x>>24)))&hmask)<<3
		if b != 0 {
			return i, uint(b)
		}
	}
	return i, 0
}

// hashBit returns 1 when bit h of the bit set hashes is set, else 0. It
// reads the word without the bounds check the compiler cannot prove
// needless (h is masked to the set's size by the caller): one in every
// look-up of a path's gram.
func hashBit(hashes []uint16, h uint) uint16 {
	w := *(*uint16)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(hashes)), 2*(h/16)))
	return w >> (h % 16) & 1
}
