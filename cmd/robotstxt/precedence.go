package main

import (
	"slices"

	"github.com/robotsgate/robotstxt/matcher"
	"github.com/robotsgate/robotstxt/parser"
)

// outranks reports whether rule r, when its match weighs n, takes
// precedence over rule o, when its match weighs m. The order is
// matcher.Precedence's, the library's one definition of robots.txt
// precedence: the longer match wins, on a tie an allow beats a disallow,
// and then the rule first in file order.
func outranks(r *parser.Rule, n int, o *parser.Rule, m int) bool {
	c := matcher.Precedence(n, r.Allow, m, o.Allow)
	return c < 0 || c == 0 && r.Line < o.Line
}

// A match is a rule that matches the URL's path.
type match struct {
	rule   *parser.Rule
	group  int // index of the rule's group
	length int // the length that counts for precedence
}

// matches returns the rules of the given groups that match path, in order
// of precedence: the first decides.
func matches(f *parser.File, groups []int, path string) []match {
	var ms []match
	for _, gi := range groups {
		for i := range f.Groups[gi].Rules {
			ru := &f.Groups[gi].Rules[i]
			if n, ok := matcher.MatchRule(ru.Pattern, ru.Allow, path); ok {
				ms = append(ms, match{ru, gi, n})
			}
		}
	}
	slices.SortFunc(ms, func(a, b match) int {
		switch {
		case outranks(a.rule, a.length, b.rule, b.length):
			return -1
		case outranks(b.rule, b.length, a.rule, a.length):
			return 1
		}
		return 0
	})
	return ms
}
