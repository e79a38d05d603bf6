package parse

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/robotsgate/robotstxt/internal/match"
)

// The index. A rule can match a path only when its literal prefix (see
// match.Prefix) starts the path. On the first check the rules of each
// group of more than smallGroup rules are sorted by prefix, and the rules
// of one prefix, a block, in precedence order; a smaller group is one
// block. A check reads the path once, narrowing the rules to those whose
// prefix starts with more and more of it (see check.group), then tries
// the blocks found, longest prefix first, each up to the first rule that
// cannot beat the best match so far.
//
// A block of many wildcard rules ("/*?filter=…", 1,824 in one corpus file)
// is not narrowed by its prefix, so in a block of filteredBlock rules or
// more each rule notes a gram: the hash of the rarest four-byte piece of
// its literal runs after the prefix, which every path it matches holds. A
// check passes over the rules whose gram the path lacks.

// The tuning constants, with the instructions a check over the corpus
// takes (BenchmarkCorpusPass under callgrind, 3,224 files).
const (
	// smallGroup is the number of rules up to which a group is one
	// block: 2,594 instructions with 16, 2,463 with 32, 2,444 with 64,
	// 2,612 with 128; 32 halves 64's rules tried one by one.
	smallGroup = 32
	// filteredBlock is the number of rules from which a block notes
	// grams: 2,440 instructions with 4, 2,462 with 8, 2,560 with 16;
	// counting only rules with pieces, as Select's tables need, 0.3 %
	// more. Without grams the costliest file takes 95 times the median
	// check (BenchmarkCorpusAgentMix), against 14 with them.
	filteredBlock = 8
	// gramPath is how many bytes of path a rule of a filtered block may
	// stand for: a longer path tries each rule instead, so that a long
	// path below small blocks costs what trying them does
	// (BenchmarkHostileChain, HostileLongPath). 2, 4 and 16 tie.
	gramPath = 4
	// gramBits is the size of a gram's hash; a check clears a bit set of
	// 1<<gramBits bits first, and fewer bits let more collisions through.
	// 10 and 12 tie, 14 takes 1.8 % more.
	gramBits = 12
	// gramMark marks a rule's gram, so that 0 says it has none.
	gramMark = 1 << 15
	// maxBlocks is how many blocks a check keeps to try longest prefix
	// first; past that (a hostile file) they are tried as found. 2,460
	// instructions with 4, 2,462 with 8, 2,473 with 16.
	maxBlocks = 8
	// eachWork bounds the wildcard rules times the path's bytes of a
	// first check that tries each rule (see Table.Select): at 1<<16,
	// against a path that holds none of their grams, it takes 1.0 to
	// 1.2 times what indexing them and checking does
	// (BenchmarkSelectFirstCheck, 128 to 512 rules).
	eachWork = 1 << 16
)

// The states of a table's rules (Table.state).
const (
	fileOrder uint32 = iota // in file order: the next check indexes them
	once                    // in file order: the next check tries each rule instead
	indexed                 // in index order, grams noted
)

// index sorts each group's rules into index order, once.
func (t *Table) index() {
	if t.state.Load() != indexed {
		t.indexSlow()
	}
}

func (t *Table) indexSlow() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state.Load() == indexed {
		return
	}
	for g := range t.file.groups {
		rules, _ := t.groupRules(g)
		t.sortRules(rules)
	}
	t.noteGrams()
	t.state.Store(indexed)
}

// tryEach decides as run does by having c try each rule of groups, if
// t's state is once and that takes at most eachWork steps; done reports
// whether it did.
func (t *Table) tryEach(c *check, groups []int) (_ Rule, ok, done bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state.Load() != once {
		return Rule{}, false, false
	}
	t.state.Store(fileOrder)
	wild := 0
	for _, g := range groups {
		rules, _ := t.groupRules(g)
		wild += countWild(rules)
	}
	if wild*len(c.path) > eachWork {
		return Rule{}, false, false
	}
	if c.each(groups); c.at < 0 {
		return Rule{}, false, true
	}
	return t.rule(c.at), true, true // under mu: the next check sorts the rules
}

// each tries each rule of groups, in any order.
func (c *check) each(groups []int) {
	for _, g := range groups {
		rules, base := c.t.groupRules(g)
		for j := range rules {
			c.try(rules[j:j+1], base+j, nil)
		}
	}
}

// sortRules sorts a group's rules into index order.
func (t *Table) sortRules(rules []rule) {
	byPrecedence := func(a, b rule) int {
		return cmp.Or(match.Precedence(int(a.n), a.allow(), int(b.n), b.allow()), cmp.Compare(a.line, b.line))
	}
	if len(rules) <= smallGroup {
		slices.SortFunc(rules, byPrecedence) // one block
		return
	}
	slices.SortFunc(rules, func(a, b rule) int {
		if c := strings.Compare(t.prefix(&a), t.prefix(&b)); c != 0 {
			return c
		}
		return byPrecedence(a, b)
	})
}

// blockEnd returns the end of the block that starts at rules[b], a
// large group in index order.
func (t *Table) blockEnd(rules []rule, b int) int {
	e := b + 1
	for e < len(rules) && t.prefix(&rules[e]) == t.prefix(&rules[b]) {
		e++
	}
	return e
}

// noteGrams notes in t.grams, made if need be, the gram of each rule of
// a block of filteredBlock rules with pieces (see eachPiece) or more: of
// its pieces, the one whose hash the fewest pieces of the block have,
// marked with gramMark; other rules 0.
func (t *Table) noteGrams() {
	var counts []uint16
	for g := range t.file.groups {
		rules, base := t.groupRules(g)
		if len(rules) <= smallGroup {
			continue
		}
		for b := 0; b < len(rules); {
			e := t.blockEnd(rules, b)
			if e-b >= filteredBlock && countWild(rules[b:e]) >= filteredBlock {
				if t.grams == nil {
					t.grams = make([]uint16, len(t.rules))
				}
				if counts == nil {
					counts = make([]uint16, 1<<gramBits)
				}
				noteBlockGrams(t.text, rules[b:e], t.grams[base+b:base+e], counts)
			}
			b = e
		}
	}
}

// countWild returns how many of rules have pieces (see eachPiece).
func countWild(rules []rule) int {
	n := 0
	for i := range rules {
		if rules[i].wild() {
			n++
		}
	}
	return n
}

// noteBlockGrams sets grams[i] to the gram of block[i]. counts is
// 1<<gramBits zeros, which it leaves zero: clearing them all takes fewer
// instructions over the corpus than hashing the block's pieces again.
func noteBlockGrams(text string, block []rule, grams, counts []uint16) {
	for i := range block {
		eachPiece(text, &block[i], func(h uint16) { counts[h] = max(counts[h], counts[h]+1) })
	}
	for i := range block {
		eachPiece(text, &block[i], func(h uint16) {
			if grams[i] == 0 || counts[h] < counts[grams[i]&^gramMark] {
				grams[i] = gramMark | h
			}
		})
	}
	clear(counts)
}

// eachPiece calls f with the hash of each four-byte piece of the literal
// runs of r's pattern after its prefix, which every path r matches
// holds. A rule without a '*' after its prefix, or of kindDir, has none.
func eachPiece(text string, r *rule, f func(h uint16)) {
	if !r.wild() {
		return
	}
	p := text[r.off() : r.off()+uint32(r.n)]
	for run := range strings.SplitSeq(strings.TrimSuffix(p[r.pre+1:], "$"), "*") {
		for k := 0; k+4 <= len(run); k++ {
			f(gramHash(run[k:]))
		}
	}
}

// gramHash returns the hash of the first four bytes of s.
func gramHash(s string) uint16 {
	w := uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
	return uint16(w * 0x9E3779B1 >> (32 - gramBits))
}

// gramSet is the set of the grams of a path.
type gramSet [1 << gramBits / 64]uint64

// add adds the grams of path to the set.
func (s *gramSet) add(path string) {
	for i := 0; i+4 <= len(path); i++ {
		h := gramHash(path[i:])
		s[h/64] |= 1 << (h % 64)
	}
}

// has reports whether gram, a rule's, is in the set.
func (s *gramSet) has(gram uint16) bool {
	h := gram &^ gramMark
	return s[h/64]&(1<<(h%64)) != 0
}

// Decide finds the rule that decides for path, as match.Path or
// target.Split return it, among the rules of the given groups, by
// [match.Best]. ok is false when no rule matches: the path is allowed.
// Each rule it matches costs time linear in path.
func (t *Table) Decide(groups []int, path string) (_ Rule, ok bool) {
	r, ok, _ := t.Run(groups, path)
	return r, ok
}

// Run is Decide, and returns the number of rules it matched against
// path, each at a cost linear in path.
func (t *Table) Run(groups []int, path string) (_ Rule, ok bool, tried int) {
	c := check{t: t, path: path, at: -1}
	if t.state.Load() == once {
		if r, ok, done := t.tryEach(&c, groups); done {
			return r, ok, c.tried
		}
	}
	t.index()
	for _, g := range groups {
		if rules, base := t.groupRules(g); len(rules) <= smallGroup {
			c.try(rules, base, nil)
		} else {
			c.group(rules, base)
		}
	}
	if c.at < 0 {
		return Rule{}, false, c.tried
	}
	return t.rule(c.at), true, c.tried
}

// check is the state of one run.
type check struct {
	t     *Table
	path  string
	best  match.Best
	at    int // the deciding rule, or -1
	tried int // the rules matched against the path
}

// group looks for a better rule than the best so far among rules, a
// group in index order, the first of which is the table's rule base.
func (c *check) group(rules []rule, base int) {
	t, path := c.t, c.path
	var found [maxBlocks]struct{ start, end int }
	n := 0
	lo, hi, d := 0, len(rules), 0
	for lo < hi {
		// rules[lo:hi] are the rules whose prefix starts with path[:d],
		// those whose prefix is path[:d] first.
		if end := t.above(rules, lo, hi, d, -1); end > lo {
			if n < maxBlocks {
				found[n].start, found[n].end = lo, end
				n++
			} else {
				c.block(rules[lo:end], base+lo)
			}
			lo = end
		}
		if lo == hi || d == len(path) {
			break
		}
		b := int(path[d])
		if lo = t.above(rules, lo, hi, d, b-1); lo == hi {
			break
		}
		if hi = t.above(rules, lo, hi, d, b); lo == hi {
			break
		}
		// Skip what the rules left share, as far as the path agrees.
		first := t.prefix(&rules[lo])
		k := d + 1 + commonPrefix(first[d+1:], path[d+1:])
		d += 1 + commonPrefix(first[d+1:k], t.prefix(&rules[hi-1])[d+1:])
	}
	for n > 0 {
		n--
		c.block(rules[found[n].start:found[n].end], base+found[n].start)
	}
}

// above returns the first of rules[lo:hi] (lo < hi, sorted prefixes that
// share d bytes) whose byte d is above b, -1 standing for the end of a
// prefix; hi when none is. It tries rules[hi-1], then gallops from lo:
// most searches narrow the range by little.
func (t *Table) above(rules []rule, lo, hi, d, b int) int {
	at := func(i int) int {
		if int(rules[i].pre) <= d {
			return -1
		}
		return int(t.text[rules[i].off()+uint32(d)])
	}
	end := hi - 1
	if at(end) <= b {
		return hi
	}
	// rules[end] is above b: the first that is lies in rules[lo:end+1].
	for step := 1; lo < end; step *= 2 {
		j := min(lo+step-1, end)
		if at(j) > b {
			end = j
			break
		}
		lo = j + 1
	}
	return lo + sort.Search(end-lo, func(i int) bool { return at(lo+i) > b })
}

// block is try for a block that starts the path, filtered by grams
// when it is large enough.
func (c *check) block(block []rule, base int) {
	if len(block) < filteredBlock || len(c.path) > gramPath*len(block) || c.t.grams == nil {
		c.try(block, base, nil)
		return
	}
	var grams gramSet
	grams.add(c.path)
	c.try(block, base, &grams)
}

// try looks for a better rule than the best so far among block, a block
// or a small group in precedence order whose first rule is the table's
// rule base, passing over the rules whose gram is not in a non-nil grams.
func (c *check) try(block []rule, base int, grams *gramSet) {
	t, path := c.t, c.path
	for j := range block {
		r := &block[j]
		if !c.best.Beats(int(r.n), r.allow(), int(r.line)) {
			return // nor can any rule after it
		}
		if grams != nil {
			if g := t.grams[base+j]; g != 0 && !grams.has(g) {
				continue
			}
		}
		// Most prefixes that do not start the path differ from it in
		// their second byte, which tells without a call.
		if pre := int(r.pre); pre > 1 && (len(path) < 2 || t.text[r.off()+1] != path[1]) ||
			pre > len(path) || t.prefix(r) != path[:pre] {
			continue
		}
		c.tried++
		if m, ok := t.match(r, path); ok && c.best.Beats(m, r.allow(), int(r.line)) {
			c.best.Take(m, r.allow(), int(r.line))
			c.at = base + j
			if m == int(r.n) {
				return // no rule after it beats it
			}
		}
	}
}

// match is [match.MatchRule] for r, whose prefix starts path.
func (t *Table) match(r *rule, path string) (int, bool) {
	p := t.pattern(r)
	switch r.kind() {
	case kindPlain:
		return len(p), p != "" // the empty pattern matches nothing
	case kindEnd:
		return len(p), len(path) == int(r.pre)
	case kindOne: // the last run after a '*' (see match.Match)
		run, end := strings.CutSuffix(p[r.pre+1:], "$")
		if end {
			return len(p), len(path)-int(r.pre) >= len(run) && strings.HasSuffix(path, run)
		}
		return len(p), strings.Contains(path[r.pre:], run)
	case kindWild:
		return len(p), match.Match(p[r.pre:], path[r.pre:])
	}
	return match.MatchRule(p, true, path)
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
