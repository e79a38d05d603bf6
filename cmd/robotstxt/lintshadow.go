package main

import (
	"slices"
	"strings"

	"github.com/robotsgate/robotstxt/matcher"
	"github.com/robotsgate/robotstxt/parser"
)

// A ruleRef names a rule by its group and its index in the group.
type ruleRef struct{ group, rule int }

// A kinds holds one rule of each kind.
type kinds struct{ allow, disallow *parser.Rule }

// of returns the rule of the given kind.
func (k *kinds) of(allow bool) **parser.Rule {
	if allow {
		return &k.allow
	}
	return &k.disallow
}

// findShadows adds, for each rule of the set of groups that can never
// decide, the rule that beats it (to shadows), and for each rule given a
// second time the first one (to dups).
//
// A rule A can never decide when a rule B of the other kind matches every
// path A matches and outranks A: B has A's pattern, or B is a plain prefix
// (a literal and trailing '*'s) of the literal that A's paths start with,
// or B allows …/index.html and A is the rule of its directory, "…/$",
// which B also is (see matcher.MatchRule).
func findShadows(f *parser.File, set []int, shadows, dups map[ruleRef][]*parser.Rule) {
	byPattern := make(map[string]*kinds)  // the first rule of each kind
	prefixes := make(map[string]*kinds)   // by literal: the longest plain prefix of each kind
	dirs := make(map[string]*parser.Rule) // by "…/$": the first allow of …/index.html
	var lens []int                        // the lengths of prefixes' keys
	maxStars := 0
	for _, gi := range set {
		for i := range f.Groups[gi].Rules {
			r := &f.Groups[gi].Rules[i]
			if r.Pattern == "" {
				continue // matches nothing
			}
			k := byPattern[r.Pattern]
			if k == nil {
				k = &kinds{}
				byPattern[r.Pattern] = k
			}
			if first := *k.of(r.Allow); first != nil {
				dups[ruleRef{gi, i}] = append(dups[ruleRef{gi, i}], first)
			} else {
				*k.of(r.Allow) = r
			}
			if d := indexDir(r); d != "" && dirs[d] == nil {
				dirs[d] = r
			}
			lit, stars, ok := plainPrefix(r.Pattern)
			if !ok {
				continue
			}
			maxStars = max(maxStars, stars)
			p := prefixes[lit]
			if p == nil {
				p = &kinds{}
				prefixes[lit] = p
				lens = append(lens, len(lit))
			}
			if b := p.of(r.Allow); *b == nil || len(r.Pattern) > len((*b).Pattern) {
				*b = r
			}
		}
	}
	slices.Sort(lens)
	lens = slices.Compact(lens)
	for _, gi := range set {
		for i := range f.Groups[gi].Rules {
			r := &f.Groups[gi].Rules[i]
			by := beater(r, byPattern, prefixes, lens, maxStars)
			if d := dirs[r.Pattern]; by == nil && !r.Allow && d != nil && outranks(d, len(r.Pattern), r, len(r.Pattern)) {
				by = d
			}
			if by != nil {
				shadows[ruleRef{gi, i}] = append(shadows[ruleRef{gi, i}], by)
			}
		}
	}
}

// beater returns a rule of the other kind than r that beats r wherever r
// matches, or nil: one that matches every path r matches and outranks r.
// It looks prefixes up by the prefixes of r's literal as long as a key
// (lens): each of them would cost lint the square of a long rule's
// length once a rule of many '*'s lets a short one outrank it (a
// hostile file of 500 KiB took a minute).
func beater(r *parser.Rule, byPattern, prefixes map[string]*kinds, lens []int, maxStars int) *parser.Rule {
	if r.Pattern == "" || r.Pattern[0] != '/' {
		return nil
	}
	beats := func(b *parser.Rule) bool {
		return b != nil && outranks(b, len(b.Pattern), r, len(r.Pattern))
	}
	if b := *byPattern[r.Pattern].of(!r.Allow); beats(b) {
		return b
	}
	lit := literalStart(r)
	i, _ := slices.BinarySearch(lens, len(lit)+1)
	for i--; i >= 0 && lens[i] >= len(r.Pattern)-maxStars; i-- {
		if p := prefixes[lit[:lens[i]]]; p != nil && beats(*p.of(!r.Allow)) {
			return *p.of(!r.Allow)
		}
	}
	return nil
}

// indexDir returns the rule of the directory, "…/$", that r also is when
// it allows …/index.html (Google's parser widens it so), else "".
func indexDir(r *parser.Rule) string {
	dir := r.Pattern[:strings.LastIndexByte(r.Pattern, '/')+1]
	if n, ok := matcher.MatchRule(r.Pattern, true, dir); !r.Allow || !ok || n != len(dir)+1 || strings.Contains(dir, "$") {
		return ""
	}
	return dir + "$"
}

// plainPrefix reports whether pattern is a literal followed only by '*'s
// (so it matches every path that starts with the literal), and returns
// the literal and the number of '*'s.
func plainPrefix(pattern string) (lit string, stars int, ok bool) {
	lit = strings.TrimRight(pattern, "*")
	if lit == "" || strings.ContainsAny(lit, "*") || strings.HasSuffix(lit, "$") {
		return "", 0, false
	}
	return lit, len(pattern) - len(lit), true
}

// literalStart returns the literal text every path r matches starts with:
// the pattern up to its first '*' or a final '$', and for an allow of
// …/index.html, which also allows its directory, at most that directory
// (see matcher.Prefix).
func literalStart(r *parser.Rule) string {
	return matcher.Prefix(r.Pattern, r.Allow)
}
