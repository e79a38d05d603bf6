package parser

import (
	"cmp"
	"slices"
	"strings"

	"github.com/robotsgate/robotstxt/matcher"
)

// The rules of a group are indexed by their literal prefix, the part of
// the pattern before its first '*' (see matcher.Rule.Prefix): a rule can
// match a path only when its prefix starts the path. The rules are sorted
// by prefix, and rules with the same prefix form a block, longest pattern
// first (allow first on a tie, then file order), so that a block can be
// left at the first rule too short to win.
//
// The prefixes that start a path P are found without looking at the
// others. Let B be the last block whose prefix sorts at or before P. Every
// prefix Q of P lies between Q and P in sort order, and so does B's
// prefix, which therefore begins with Q: the prefixes of P are all
// prefixes of B's prefix, no longer than the common start of B's prefix
// and P. Each block links to the nearest block before it whose prefix is a
// proper prefix of its own, which is the longest such (a shorter one is a
// prefix of it and sorts before it); following the links from B visits
// every prefix of B's prefix, longest first. A check therefore costs a
// binary search plus the blocks along that chain, which are bounded by
// the length of the path, and the rules in them that can still win.
//
// Blocks of many rules hold mostly rules with a '*' after their prefix,
// which the prefix alone does not rule out; "/*x" is in the block of "/".
// For each of them the index keeps two byte pairs of its required run
// (matcher.Rule.Required), which any path it matches contains; a check
// notes the byte pairs of the path in a small bit set, and passes over
// the rules whose pairs it lacks without matching them.
//
// rule.link holds the chain and the pairs: at the first rule of a block,
// the index of the first rule of the linked block, or -1; at the other
// rules, the pairs (see pairsOf).

// sortRules sorts rules, whose patterns are in text, into index order and
// links their blocks.
func sortRules(text string, rules []rule) {
	small := len(rules) <= smallGroup
	slices.SortFunc(rules, func(a, b rule) int {
		if small {
			// No index: by precedence only (see smallGroup).
		} else if c := strings.Compare(a.m.Prefix(text), b.m.Prefix(text)); c != 0 {
			return c
		}
		if c := cmp.Compare(b.m.Len(), a.m.Len()); c != 0 {
			return c
		}
		if a.m.Allow() != b.m.Allow() {
			if a.m.Allow() {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.line, b.line)
	})
	if small {
		return
	}
	// stack holds the first rule of each block on the chain of the
	// current block.
	var buf [32]int32
	stack := buf[:0]
	prev := ""
	for i := range rules {
		p := rules[i].m.Prefix(text)
		if i > 0 && p == prev {
			rules[i].link = pairsOf(rules[i].m.Required(text), rules[i-1].m.Required(text))
			continue
		}
		for len(stack) > 0 && !strings.HasPrefix(p, rules[stack[len(stack)-1]].m.Prefix(text)) {
			stack = stack[:len(stack)-1]
		}
		rules[i].link = -1
		if len(stack) > 0 {
			rules[i].link = stack[len(stack)-1]
		}
		prev = p
		stack = append(stack, int32(i))
	}
}

// pairSet is a set of byte pairs, hashed to pairBits bits.
type pairSet [pairBits / 64]uint64

const pairBits = 4096

func pairHash(a, b byte) uint32 { return (uint32(a)<<4 ^ uint32(b)*37) % pairBits }

// pairsOf returns two byte pairs of req, hashed, with bit 30 set, or 0
// when req is shorter than a pair. Rules of a block often differ from
// their neighbours in a small part only ("/*?id=1&name=a", "/*?id=1&name=b"),
// so the pairs are taken where req first and last differs from prev, the
// required run of the rule before it, which makes them tell the rules
// apart.
func pairsOf(req, prev string) int32 {
	if len(req) < 2 {
		return 0
	}
	i := min(commonPrefix(req, prev), len(req)-2)
	j := max(len(req)-2-commonSuffix(req, prev), 0)
	h1, h2 := pairHash(req[i], req[i+1]), pairHash(req[j], req[j+1])
	return int32(1<<30 | h1<<12 | h2)
}

// fill notes the byte pairs of s.
func (ps *pairSet) fill(s string) {
	for i := 1; i < len(s); i++ {
		h := pairHash(s[i-1], s[i])
		ps[h/64] |= 1 << (h % 64)
	}
}

// admits reports whether the pairs of a rule's link are all in the set.
func (ps *pairSet) admits(link int32) bool {
	if link&(1<<30) == 0 {
		return true
	}
	h1, h2 := uint32(link>>12)&(pairBits-1), uint32(link)&(pairBits-1)
	return ps[h1/64]&(1<<(h1%64)) != 0 && ps[h2/64]&(1<<(h2%64)) != 0
}

// Decide finds the rule that decides for path among the rules of the
// given groups: the longest match, an allow on a tie, the first in file
// order on a full tie (see [matcher.Best]). path is what rules are
// matched against, as matcher.Path or matcher.EscapePath return it. ok is
// false when no rule matches, and the path is allowed.
func (t *Table) Decide(groups []int, path string) (_ Rule, ok bool) {
	t.index()
	c := check{t: t, path: path, at: -1}
	for _, g := range groups {
		c.group(g)
	}
	if c.at < 0 {
		return Rule{}, false
	}
	return t.rule(&t.rules[c.at]), true
}

// check is the state of one Decide.
type check struct {
	t    *Table
	path string
	best matcher.Best
	at   int // the deciding rule, or -1
}

// smallGroup is the number of rules up to which a group has no index:
// its rules are sorted by precedence alone (longest first, allow first on
// a tie, then file order) and searched one by one up to the first that is
// too short to win, which is quicker than the index for so few.
const smallGroup = 32

// group looks for a better rule than the best so far among group g's.
func (c *check) group(g int) {
	t := c.t
	s, e := t.span(g)
	rules := t.rules[s.rules:e.rules]
	if len(rules) <= smallGroup {
		for j := range rules {
			r := &rules[j]
			n, allow := r.m.Len(), r.m.Allow()
			if c.best.Found && n < c.best.Len {
				return // no rule from here on is long enough to win
			}
			if !c.best.Beats(n, allow, int(r.line)) || !strings.HasPrefix(c.path, r.m.Prefix(t.text)) {
				continue
			}
			if m, ok := r.m.Match(t.text, c.path); ok && c.best.Beats(m, allow, int(r.line)) {
				c.best.Take(m, allow, int(r.line))
				c.at = int(s.rules) + j
			}
		}
		return
	}
	// The last rule whose prefix sorts at or before path.
	// (A loop, not slices.BinarySearchFunc: handing the path to a
	// function value would make every caller's path escape to the heap.)
	lo, hi := 0, len(rules)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if rules[m].m.Prefix(t.text) <= c.path {
			lo = m + 1
		} else {
			hi = m
		}
	}
	i := lo - 1
	if i < 0 {
		return
	}
	key := rules[i].m.Prefix(t.text)
	b, _ := slices.BinarySearchFunc(rules[:i], key, func(r rule, k string) int {
		return strings.Compare(r.m.Prefix(t.text), k)
	})
	common := commonPrefix(key, c.path)
	for ; b >= 0; b = int(rules[b].link) {
		key := rules[b].m.Prefix(t.text)
		if len(key) > common || !c.best.Beats(rules[b].m.Len(), rules[b].m.Allow(), int(rules[b].line)) {
			continue // not a prefix of path, or its longest rule cannot win
		}
		c.block(rules, b, key, int(s.rules))
	}
}

// block looks for a better rule among the rules of the block that starts
// at rules[b], whose prefix is key and starts the path; base is the index
// of rules[0] in the table. It notes the byte pairs of the path only once
// unfilteredRules rules that could use them have been matched, so that
// checks against small blocks do not pay for them.
func (c *check) block(rules []rule, b int, key string, base int) {
	if j := c.scan(rules, b, b, key, base, nil); j >= 0 {
		var ps pairSet
		ps.fill(c.path)
		c.scan(rules, b, j, key, base, &ps)
	}
}

// unfilteredRules is the number of rules with byte pairs that a block
// matches before it notes the pairs of the path.
const unfilteredRules = 8

// scan is block from rules[from] on. When pairs is nil, it stops at the
// rule with byte pairs after unfilteredRules of them and returns its
// index; otherwise it returns -1.
func (c *check) scan(rules []rule, b, from int, key string, base int, pairs *pairSet) int {
	text := c.t.text
	unfiltered := 0
	for j := from; j < len(rules); j++ {
		r := &rules[j]
		if j > b && r.m.Prefix(text) != key {
			break // the next block
		}
		n, allow := r.m.Len(), r.m.Allow()
		if c.best.Found && n < c.best.Len {
			break // no rule from here on is long enough to win
		}
		if !c.best.Beats(n, allow, int(r.line)) {
			continue
		}
		if j > b && r.link != 0 {
			switch {
			case pairs != nil:
				if !pairs.admits(r.link) {
					continue // the path lacks a byte pair the rule needs
				}
			case unfiltered == unfilteredRules:
				return j
			default:
				unfiltered++
			}
		}
		if m, ok := r.m.Match(text, c.path); ok && c.best.Beats(m, allow, int(r.line)) {
			c.best.Take(m, allow, int(r.line))
			c.at = base + j
		}
	}
	return -1
}

// commonSuffix returns the length of the longest common suffix of a and b.
func commonSuffix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[len(a)-1-i] != b[len(b)-1-i] {
			return i
		}
	}
	return n
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

// Select returns a table that holds only the rules and extension records
// of the given groups, merged into one group, group 0, with no user-agent
// lines, and no sitemaps: what one crawler obeys. It shares nothing with
// t.
func (t *Table) Select(groups []int) *Table {
	nr, nrec := 0, 0
	t.eachGroup(groups, func(s, e group) {
		nr += int(e.rules - s.rules)
		nrec += int(e.records - s.records)
	})
	// Of their exact sizes: a cache holds many Tables.
	rules := make([]rule, 0, nr)
	records := make([]record, 0, nrec)
	size := 0
	t.index()
	t.eachGroup(groups, func(s, e group) {
		rules = append(rules, t.rules[s.rules:e.rules]...)
		records = append(records, t.records[s.records:e.records]...)
	})
	sortRules(t.text, rules)
	// Lay the patterns out in index order, once for each run of equal
	// patterns, then keys and values.
	prev := ""
	for i := range rules {
		if p := rules[i].m.Pattern(t.text); i == 0 || p != prev {
			size += len(p)
			prev = p
		}
	}
	for i := range records {
		size += int(records[i].n) + int(records[i].keyN)
	}
	buf := make([]byte, 0, size)
	for i := range rules {
		p := rules[i].m.Pattern(t.text)
		start := len(buf)
		if i > 0 && p == prev {
			start -= len(p)
		} else {
			buf = append(buf, p...)
			prev = p
		}
		rules[i].m = matcher.NewRule(view(buf), start, start+len(p), rules[i].m.Allow())
	}
	for i := range records {
		r := &records[i]
		v := t.str(r.off, int(r.n))
		r.off = uint32(len(buf))
		buf = append(buf, v...)
		if r.keyN > 0 {
			k := t.str(r.key, int(r.keyN))
			r.key = uint32(len(buf))
			buf = append(buf, k...)
		}
	}
	out := &Table{text: view(buf), groups: []group{{}}, rules: rules, records: records, lines: t.lines}
	out.indexed.Do(func() {}) // sorted above
	return out
}
