package main

import (
	"slices"
	"strings"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/sfv"
	"github.com/robotsgate/robotstxt/parser"
)

// usage reports Content-Usage statements that state nothing, preferences
// that are neither y nor n, labels outside the vocabulary, rules of one
// path that disagree, and user-agent lines that join the group of the
// Content-Usage rules above them.
func (lt *linter) usage() {
	labels := robotstxt.UsageLabels()
	for _, g := range lt.file.Groups {
		for _, r := range g.Usage {
			lt.statement(r, labels)
		}
	}
	lt.usageConflicts()
	lt.usageGroups()
}

// statement reports what in the statement of r states nothing or what no
// crawler reads.
func (lt *linter) statement(r parser.UsageRule, labels []string) {
	ms, err := scanStatement(r.Statement)
	switch {
	case err != nil:
		lt.add(r.Line, codeUsageSyntax, "the statement %q is not a Dictionary of RFC 9651 (%v): every preference of this rule is unknown", r.Statement, err)
		return
	case len(ms) == 0:
		lt.add(r.Line, codeUsageSyntax, "no statement of preference: every preference of the paths this rule matches is unknown")
		return
	}
	// A repeated key counts with its last value, where it first appears.
	var keys []string
	last := make(map[string]sfv.Member)
	for _, m := range ms {
		if _, ok := last[m.Key]; !ok {
			keys = append(keys, m.Key)
		}
		last[m.Key] = m
	}
	for _, k := range keys {
		m := last[k]
		switch {
		case !slices.Contains(labels, k):
			lt.add(r.Line, codeUsageLabel, "label %q is not one of the vocabulary's, %s: crawlers read no preference from it", k, orList(labels))
		case m.Kind != sfv.Token || m.Value != "y" && m.Value != "n":
			written := k
			if m.Value != "" {
				written += "=" + m.Value
			}
			lt.add(r.Line, codeUsageValue, "%s states no preference: a preference is %s=y or %s=n, and anything else leaves it unknown", written, k, k)
		}
	}
}

// usageConflicts reports, for each crawler's rules, a Content-Usage rule
// that gives a label the opposite preference of an earlier rule with the
// same path: they combine, and n wins.
func (lt *linter) usageConflicts() {
	type said struct {
		line int
		pref robotstxt.Pref
	}
	reported := make(map[[2]int]bool) // the two lines
	sets, _ := ruleSets(lt.file)
	for _, set := range sets {
		first := make(map[string]map[string]said) // path → label → the first rule saying y or n
		var rules []parser.UsageRule
		for _, gi := range set {
			rules = append(rules, lt.file.Groups[gi].Usage...)
		}
		slices.SortFunc(rules, func(a, b parser.UsageRule) int { return a.Line - b.Line })
		for _, r := range rules {
			ms, err := scanStatement(r.Statement)
			if err != nil {
				continue
			}
			u := robotstxt.ParseUsage(r.Statement)
			byLabel := first[r.Path]
			if byLabel == nil {
				byLabel = make(map[string]said)
				first[r.Path] = byLabel
			}
			for _, m := range ms {
				p := u.Pref(m.Key)
				if p == robotstxt.PrefUnknown {
					continue
				}
				s, ok := byLabel[m.Key]
				switch {
				case !ok:
					byLabel[m.Key] = said{r.Line, p}
				case s.pref != p && !reported[[2]int{s.line, r.Line}]:
					reported[[2]int{s.line, r.Line}] = true
					lt.add(r.Line, codeUsageConflict, "line %d says %s=%v for the same path, and this line %s=%v: rules of one path combine, and n wins",
						s.line, m.Key, s.pref, m.Key, p)
				}
			}
		}
	}
}

// usageGroups reports a user-agent line that follows Content-Usage rules
// with no Allow or Disallow between: as Google's parser reads groups (it
// knows no Content-Usage rule), the line joins their group, so that they
// apply to its crawler too, and the group's Allow and Disallow rules to
// the crawlers above.
func (lt *linter) usageGroups() {
	inRule, agents, usageAt := false, false, 0
	for l := range parser.Lines(string(lt.text)) {
		switch l.Key {
		case parser.KeyUserAgent:
			if inRule {
				inRule, usageAt = false, 0
			} else if usageAt > 0 {
				lt.add(l.Num, codeUsageGroup, "this user-agent line joins the group of the Content-Usage rule on line %d, which applies to this crawler too: "+
					"a group ends only at an Allow or Disallow rule, so give that group one (Allow: / allows what no rule disallows)", usageAt)
				usageAt = 0
			}
			agents = true
		case parser.KeyAllow, parser.KeyDisallow:
			inRule = agents
		case parser.KeyContentUsage:
			if agents && !inRule && usageAt == 0 {
				usageAt = l.Num
			}
		}
	}
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
