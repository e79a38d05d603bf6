package parser

import (
	"sort"
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
// The prefixes that start a path P are found by binary searches alone.
// Let S be P, and K the last prefix that sorts at or before S. Every
// prefix Q of S lies between Q and S in sort order, and so does K, which
// therefore begins with Q: the prefixes of S are all prefixes of K, no
// longer than the common start of K and S. When K starts S, its block is
// searched, and the search goes on with S cut to one byte shorter than
// K; otherwise with S cut to that common start. S shortens at every
// step, and a step searches only the rules before K; in practice a check
// takes one to three steps.
//
// Blocks of many rules hold mostly rules with a '*' after their prefix,
// which the prefix alone does not rule out; "/*x" is in the block of "/".
// For each of them the index keeps two byte pairs of its required run
// (matcher.Rule.Required), which any path it matches contains; a check
// notes the byte pairs of the path in a small bit set, and passes over
// the rules whose pairs it lacks without matching them. The pairs are
// kept in Table.pairs, only for tables with a group of more than
// smallGroup rules.

// ruleSort sorts rules into index order, with their lines and prefix
// lengths when those are kept beside them.
type ruleSort struct {
	text  string
	rules []rule
	lines []uint32 // nil unless some line is wide
	pre   []uint16 // prefix lengths; nil for a group without index
}

func (s *ruleSort) Len() int { return len(s.rules) }

func (s *ruleSort) line(i int) uint32 {
	if s.lines != nil {
		return s.lines[i]
	}
	return uint32(s.rules[i].line)
}

func (s *ruleSort) Less(i, j int) bool {
	a, b := &s.rules[i], &s.rules[j]
	if s.pre != nil {
		pa := s.text[a.off>>ruleShift:][:s.pre[i]]
		pb := s.text[b.off>>ruleShift:][:s.pre[j]]
		if pa != pb {
			return pa < pb
		}
	}
	if a.n != b.n {
		return a.n > b.n
	}
	if a.allow() != b.allow() {
		return a.allow()
	}
	return s.line(i) < s.line(j)
}

func (s *ruleSort) Swap(i, j int) {
	s.rules[i], s.rules[j] = s.rules[j], s.rules[i]
	if s.lines != nil {
		s.lines[i], s.lines[j] = s.lines[j], s.lines[i]
	}
	if s.pre != nil {
		s.pre[i], s.pre[j] = s.pre[j], s.pre[i]
	}
}

// sortRules sorts rules, whose patterns are in text, into index order,
// moving lines (when not nil) with them, and notes the byte pairs of the
// rules of each block but its first in pairs (when not nil).
func sortRules(text string, rules []rule, lines []uint32, pairs []uint16) {
	s := &ruleSort{text: text, rules: rules, lines: lines}
	indexed := len(rules) > smallGroup
	if indexed {
		s.pre = make([]uint16, len(rules))
		for i := range rules {
			s.pre[i] = uint16(len(prefixOf(text, &rules[i])))
		}
	}
	sort.Sort(s)
	if !indexed || pairs == nil {
		return
	}
	prev := ""
	for i := range rules {
		p := text[rules[i].off>>ruleShift:][:s.pre[i]]
		if i > 0 && p == prev {
			pairs[i] = pairsOf(requiredOf(text, &rules[i]), requiredOf(text, &rules[i-1]))
		}
		prev = p
	}
}

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
	if r.off&ruleDir != 0 {
		return matcherOf(text, r).Prefix(text)
	}
	p := patternOf(text, r)
	return p[:prefixLen(p)]
}

// requiredOf returns the required run of r (see [matcher.Rule.Required]).
func requiredOf(text string, r *rule) string { return matcherOf(text, r).Required(text) }

// pairSet is a set of byte pairs, hashed to pairBits bits.
type pairSet [pairBits / 64]uint64

const pairBits = 128

func pairHash(a, b byte) uint16 {
	return uint16((uint32(a)*0x9E3779B1 ^ uint32(b)*0x85EBCA77) >> 25)
}

// pairsOf returns two byte pairs of req, hashed, with bit 15 set, or 0
// when req is shorter than a pair. Rules of a block often differ from
// their neighbours in a small part only ("/*?id=1&name=a", "/*?id=1&name=b"),
// so the pairs are taken where req first and last differs from prev, the
// required run of the rule before it, which makes them tell the rules
// apart.
func pairsOf(req, prev string) uint16 {
	if len(req) < 2 {
		return 0
	}
	i := min(commonPrefix(req, prev), len(req)-2)
	j := max(len(req)-2-commonSuffix(req, prev), 0)
	return 1<<15 | pairHash(req[i], req[i+1])<<7 | pairHash(req[j], req[j+1])
}

// fill notes the byte pairs of s.
func (ps *pairSet) fill(s string) {
	for i := 1; i < len(s); i++ {
		h := pairHash(s[i-1], s[i])
		ps[h/64] |= 1 << (h % 64)
	}
}

// admits reports whether the pairs of a rule are all in the set.
func (ps *pairSet) admits(pairs uint16) bool {
	h1, h2 := pairs>>7&(pairBits-1), pairs&(pairBits-1)
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
	return t.rule(c.at), true
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

// match reports whether r matches path and the length its match weighs,
// as [matcher.Rule.Match] does, but decides patterns without a '*' here.
func (t *Table) match(r *rule, path string) (int, bool) {
	p := t.pattern(r)
	if r.off&rulePlain != 0 {
		return len(p), strings.HasPrefix(path, p)
	}
	if r.off&ruleDir == 0 {
		for i := 0; i < len(p); i++ {
			c := p[i]
			if c == '*' {
				// Not an allow of a directory's index page: Match
				// weighs the whole pattern.
				if matcher.Match(p, path) {
					return len(p), true
				}
				return 0, false
			}
			if c == '$' && i == len(p)-1 {
				return len(p), len(path) == i
			}
			if i == len(path) || c != path[i] {
				return 0, false
			}
		}
		return len(p), p != ""
	}
	return t.matcher(r).Match(t.text, path)
}

// beats is c.best.Beats for the rule at index i of the table, of length
// n and kind allow; it reads the rule's line only on a tie.
func (c *check) beats(n int, allow bool, i int) bool {
	b := &c.best
	if !b.Found || n != b.Len || allow != b.Allow {
		return !b.Found || n > b.Len || n == b.Len && allow
	}
	return c.t.line(i) < b.Order
}

// group looks for a better rule than the best so far among group g's.
func (c *check) group(g int) {
	t := c.t
	s, e := t.span(g)
	base := int(s.rules)
	rules := t.rules[s.rules:e.rules]
	if len(rules) <= smallGroup {
		for j := range rules {
			r := &rules[j]
			n, allow := int(r.n), r.allow()
			if c.best.Found && n < c.best.Len {
				return // no rule from here on is long enough to win
			}
			if !c.beats(n, allow, base+j) {
				continue
			}
			if m, ok := t.match(r, c.path); ok && c.beats(m, allow, base+j) {
				c.best.Take(m, allow, t.line(base+j))
				c.at = base + j
			}
		}
		return
	}
	at := c.path
	hi := len(rules)
	for {
		// The last rule before hi whose prefix sorts at or before at.
		// (A loop, not slices.BinarySearchFunc: handing the path to a
		// function value would make every caller's path escape to the
		// heap.)
		lo, h := 0, hi
		for lo < h {
			m := int(uint(lo+h) >> 1)
			if t.comparePrefix(&rules[m], at) <= 0 {
				lo = m + 1
			} else {
				h = m
			}
		}
		i := lo - 1
		if i < 0 {
			return
		}
		key := t.prefix(&rules[i])
		if n := commonPrefix(key, at); n < len(key) {
			at, hi = at[:n], i
			continue
		}
		// key starts the path; its block ends at i.
		lo, h = 0, i
		for lo < h {
			m := int(uint(lo+h) >> 1)
			if t.comparePrefix(&rules[m], key) < 0 {
				lo = m + 1
			} else {
				h = m
			}
		}
		if c.beats(int(rules[lo].n), rules[lo].allow(), base+lo) {
			c.block(rules[:i+1], lo, base)
		}
		if key == "" {
			return
		}
		at, hi = at[:len(key)-1], lo
	}
}

// block looks for a better rule among rules[b:], a block whose prefix
// starts the path; base is the index of rules[0] in the table. It notes
// the byte pairs of the path only once unfilteredRules rules that could
// use them have been matched, so that checks against small blocks do not
// pay for them.
func (c *check) block(rules []rule, b, base int) {
	if j := c.scan(rules, b, b, base, nil); j >= 0 {
		var ps pairSet
		ps.fill(c.path)
		c.scan(rules, b, j, base, &ps)
	}
}

// unfilteredRules is the number of rules with byte pairs that a block
// matches before it notes the pairs of the path.
const unfilteredRules = 8

// scan is block from rules[from] on. When ps is nil, it stops at the
// rule with byte pairs after unfilteredRules of them and returns its
// index; otherwise it returns -1.
func (c *check) scan(rules []rule, b, from, base int, ps *pairSet) int {
	t := c.t
	unfiltered := 0
	for j := from; j < len(rules); j++ {
		r := &rules[j]
		n, allow := int(r.n), r.allow()
		if c.best.Found && n < c.best.Len {
			break // no rule from here on is long enough to win
		}
		if !c.beats(n, allow, base+j) {
			continue
		}
		if j > b && t.pairs != nil && t.pairs[base+j] != 0 {
			switch {
			case ps != nil:
				if !ps.admits(t.pairs[base+j]) {
					continue // the path lacks a byte pair the rule needs
				}
			case unfiltered == unfilteredRules:
				return j
			default:
				unfiltered++
			}
		}
		if m, ok := t.match(r, c.path); ok && c.beats(m, allow, base+j) {
			c.best.Take(m, allow, t.line(base+j))
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
	t.index()
	nr, nrec := 0, 0
	t.eachGroup(groups, func(s, e group) {
		nr += int(e.rules - s.rules)
		nrec += int(e.records - s.records)
	})
	// Of their exact sizes: a cache holds many Tables.
	rules := make([]rule, 0, nr)
	var records []record
	if nrec > 0 {
		records = make([]record, 0, nrec)
	}
	var lines []uint32
	if t.file != nil && t.file.lines != nil && nr > 0 {
		lines = make([]uint32, 0, nr)
	}
	src := t.records()
	t.eachGroup(groups, func(s, e group) {
		rules = append(rules, t.rules[s.rules:e.rules]...)
		records = append(records, src[s.records:e.records]...)
		if lines != nil {
			lines = append(lines, t.file.lines[s.rules:e.rules]...)
		}
	})
	var pairs []uint16
	if len(rules) > smallGroup {
		pairs = make([]uint16, len(rules))
	}
	sortRules(t.text, rules, lines, pairs)
	if !hasPairs(pairs) {
		pairs = nil
	}
	// Lay the patterns out in index order, sharing text where a pattern
	// starts the one laid out before it or extends it, then keys and
	// values.
	size := layoutPatterns(t.text, rules, nil)
	for i := range records {
		size += int(records[i].n) + int(records[i].keyN)
	}
	buf := make([]byte, 0, size)
	buf = buf[:layoutPatterns(t.text, rules, buf[:size])]
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
	out := &Table{text: view(buf), rules: rules, pairs: pairs}
	if records != nil || lines != nil {
		out.file = &fileParts{groups: []group{{}}, records: records, lines: lines}
		out.file.indexed.Do(func() {}) // sorted above
	}
	return out
}

// layoutPatterns lays out the patterns of rules, which lie in text, in
// their order into buf and points the rules at them, or when buf is nil,
// only measures; it returns the bytes they take. A pattern that starts
// the last one laid out is pointed into it; one that extends it adds only
// what follows.
func layoutPatterns(text string, rules []rule, buf []byte) int {
	n := 0
	last, at := "", 0 // the last pattern laid out, and where
	for i := range rules {
		r := &rules[i]
		p := patternOf(text, r)
		start := n
		switch {
		case i > 0 && len(p) <= len(last) && last[:len(p)] == p:
			start = at
		case i > 0 && at+len(last) == n && len(p) > len(last) && p[:len(last)] == last:
			start = at
			if buf != nil {
				copy(buf[n:], p[len(last):])
			}
			n += len(p) - len(last)
			last = p
		default:
			if buf != nil {
				copy(buf[n:], p)
			}
			n += len(p)
			last, at = p, start
		}
		if buf != nil {
			r.off = uint32(start)<<ruleShift | r.off&(1<<ruleShift-1)
		}
	}
	return n
}

// hasPairs reports whether some rule has byte pairs.
func hasPairs(pairs []uint16) bool {
	for _, p := range pairs {
		if p != 0 {
			return true
		}
	}
	return false
}
