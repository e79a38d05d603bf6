package main

import (
	"slices"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

// usage reports Content-Usage statements that state nothing, preferences
// that are neither y nor n, labels crawlers do not read and rules of
// one path that disagree; of a rule the limit cut, overLimit reports.
func (lt *linter) usage() {
	for _, g := range lt.file.Groups {
		for _, r := range g.Usage {
			if r.Line == lt.cutLine {
				continue
			}
			for _, n := range usageNotes(r.Statement) {
				lt.add(r.Line, n.code, "%s", n.text)
			}
		}
	}
	lt.usageConflicts()
}

// usageConflicts reports, for each crawler's rules, a Content-Usage rule
// that gives a label of the vocabulary the opposite preference of an
// earlier rule with the same path: they combine, and n wins.
func (lt *linter) usageConflicts() {
	type said struct {
		line int
		pref robotstxt.Pref
	}
	reported := make(map[[2]int]bool)   // the two lines
	stated := make(map[int][]labelPref) // by line: each statement read once, whatever the crawlers sharing it
	first := make(map[[2]string]said)   // path and label → the first rule saying y or n, for one set at a time
	var rules []parser.UsageRule
	sets, _ := ruleSets(lt.file)
	for _, set := range withinBudget(lt.file, sets) { // groups reports those left
		clear(first)
		rules = rules[:0]
		for _, gi := range set {
			rules = append(rules, lt.file.Groups[gi].Usage...)
		}
		slices.SortFunc(rules, func(a, b parser.UsageRule) int { return a.Line - b.Line })
		for _, r := range rules {
			ps, ok := stated[r.Line]
			if !ok {
				read, _ := readPrefs("content-usage", r.Statement)
				ps = statedPrefs(read.pref)
				stated[r.Line] = ps
			}
			for _, p := range ps {
				k := [2]string{r.Path, p.label}
				s, ok := first[k]
				switch {
				case !ok:
					first[k] = said{r.Line, p.pref}
				case s.pref != p.pref && !reported[[2]int{s.line, r.Line}]:
					reported[[2]int{s.line, r.Line}] = true
					lt.add(r.Line, codeUsageConflict, "line %d says %s=%v for the same path, and this line %s=%v: rules of one path combine, and n wins",
						s.line, p.label, s.pref, p.label, p.pref)
				}
			}
		}
	}
}
