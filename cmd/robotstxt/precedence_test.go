package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

func TestOutranks(t *testing.T) {
	rule := func(allow bool, line int) *parser.Rule { return &parser.Rule{Allow: allow, Line: line} }
	allow, disallow := rule(true, 5), rule(false, 3)
	for _, tc := range []struct {
		name string
		r    *parser.Rule
		n    int
		o    *parser.Rule
		m    int
		want bool
	}{
		{"longer wins", disallow, 6, allow, 5, true},
		{"shorter loses", allow, 4, disallow, 5, false},
		{"allow wins a tie", allow, 5, disallow, 5, true},
		{"disallow loses a tie", disallow, 5, allow, 5, false},
		{"first in file order wins a tie of kinds", rule(false, 2), 5, disallow, 5, true},
		{"later in file order loses", rule(false, 4), 5, disallow, 5, false},
		{"not itself", allow, 5, allow, 5, false},
	} {
		if got := outranks(tc.r, tc.n, tc.o, tc.m); got != tc.want {
			t.Errorf("%s: outranks = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestMatchesFirstDecides checks matches against the engine on the
// corpus: for each crawler a file names, and paths its rules match, the
// first of the matches is the rule Robots.Check decides by.
func TestMatchesFirstDecides(t *testing.T) {
	longTest(t)
	for _, d := range corpusDocuments(t) {
		name := d.name
		r := robotstxt.Parse(d.body.Text)
		f := parser.Parse(d.body.Text)
		sets, global := ruleSets(f)
		for i, set := range sets {
			agent := "NoSuchCrawlerAtAll"
			if i > 0 || global == nil {
				agent = agentOf(f, set)
			}
			for _, path := range setProbes(f, set) {
				url := "http://example.com" + path
				v := r.Check(agent, url)
				ms := matches(f, set, matchPath(url, robotstxt.ModeGoogle))
				if len(ms) > 0 != decided(v.Rule) || decided(v.Rule) && ms[0].rule.Line != v.Rule.Line {
					first := 0
					if len(ms) > 0 {
						first = ms[0].rule.Line
					}
					t.Errorf("%s, %s, %s: matches puts line %d first of %d; Check decides by line %d (matched %v)",
						name, agent, path, first, len(ms), v.Rule.Line, decided(v.Rule))
				}
			}
		}
	}
}

// setProbes returns "/" and, for up to 8 rules of the set, a path that
// starts with what every path the rule matches starts with.
func setProbes(f *parser.File, set []int) []string {
	paths := []string{"/"}
	for _, gi := range set {
		for i := range f.Groups[gi].Rules {
			if len(paths) > 8 {
				return paths
			}
			if p := literalStart(&f.Groups[gi].Rules[i]); len(p) > 1 && p[0] == '/' && p[1] != '/' {
				paths = append(paths, p+"x")
			}
		}
	}
	return paths
}

// agentOf returns a product token whose groups are set.
func agentOf(f *parser.File, set []int) string {
	for _, a := range f.Groups[set[0]].Agents {
		var named []int
		for gi, g := range f.Groups {
			for _, b := range g.Agents {
				if a.Token != "" && strings.EqualFold(a.Token, b.Token) {
					named = appendOnce(named, gi)
				}
			}
		}
		if slices.Equal(named, set) {
			return a.Token
		}
	}
	panic("no token names the groups of the set")
}
