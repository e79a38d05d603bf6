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
// rule.link holds the chain: at the first rule of a block, the index of
// the first rule of the linked block, or -1; at the other rules of a
// block, -2 minus the index of the block's first rule.

// sortRules sorts rules, whose patterns are in text, into index order and
// links their blocks.
func sortRules(text string, rules []rule) {
	slices.SortFunc(rules, func(a, b rule) int {
		if c := strings.Compare(a.m.Prefix(text), b.m.Prefix(text)); c != 0 {
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
	// stack holds the first rule of each block on the chain of the
	// current block.
	var buf [32]int32
	stack := buf[:0]
	start := int32(-1)
	prev := ""
	for i := range rules {
		p := rules[i].m.Prefix(text)
		if start >= 0 && p == prev {
			rules[i].link = -2 - start
			continue
		}
		for len(stack) > 0 && !strings.HasPrefix(p, rules[stack[len(stack)-1]].m.Prefix(text)) {
			stack = stack[:len(stack)-1]
		}
		rules[i].link = -1
		if len(stack) > 0 {
			rules[i].link = stack[len(stack)-1]
		}
		start, prev = int32(i), p
		stack = append(stack, start)
	}
}

// Decide finds the rule that decides for path among the rules of the
// given groups: the longest match, an
// allow on a tie, the first in file order on a full tie (see
// [matcher.Best]). path is what rules are matched against, as
// matcher.Path or matcher.EscapePath return it. ok is false when no rule
// matches, and the path is allowed.
func (t *Table) Decide(groups []int, path string) (_ Rule, ok bool) {
	var best matcher.Best
	at := -1
	for _, g := range groups {
		t.decide(g, path, &best, &at)
	}
	if at < 0 {
		return Rule{}, false
	}
	return t.rule(&t.rules[at]), true
}

// decide looks for a better rule than best among group g's.
func (t *Table) decide(g int, path string, best *matcher.Best, at *int) {
	s, e := t.span(g)
	rules := t.rules[s.rules:e.rules]
	// The last rule whose prefix sorts at or before path.
	i, _ := slices.BinarySearchFunc(rules, path, func(r rule, p string) int {
		if r.m.Prefix(t.text) <= p {
			return -1
		}
		return 1
	})
	i--
	if i < 0 {
		return
	}
	b := blockOf(rules, i)
	common := commonPrefix(rules[b].m.Prefix(t.text), path)
	for ; b >= 0; b = int(rules[b].link) {
		r := &rules[b]
		if len(r.m.Prefix(t.text)) > common {
			continue
		}
		if !best.Beats(r.m.Len(), r.m.Allow(), int(r.line)) {
			continue // the block's longest rule cannot win
		}
		for j := b; j < len(rules) && (j == b || blockOf(rules, j) == b); j++ {
			r := &rules[j]
			n, allow := r.m.Len(), r.m.Allow()
			if best.Found && n < best.Len {
				break // no rule from here on is long enough to win
			}
			if !best.Beats(n, allow, int(r.line)) {
				continue
			}
			if m, ok := r.m.Match(t.text, path); ok && best.Beats(m, allow, int(r.line)) {
				best.Take(m, allow, int(r.line))
				*at = int(s.rules) + j
			}
		}
	}
}

// blockOf returns the index of the first rule of rule i's block.
func blockOf(rules []rule, i int) int {
	if l := rules[i].link; l <= -2 {
		return int(-2 - l)
	}
	return i
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
	var rules []rule
	var records []record
	size := 0
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
	return &Table{text: view(buf), groups: []group{{}}, rules: rules, records: records, lines: t.lines}
}
