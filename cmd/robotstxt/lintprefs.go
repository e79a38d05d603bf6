package main

import (
	"fmt"
	"slices"
	"strings"

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
// earlier rule with the same path: they combine, and n wins. A crawler
// reads the rules that speak for it (see parser.UsageRule.Agents): those
// naming its product token, or for one named nowhere, "*"; crawlers that
// read the same rules are checked once.
func (lt *linter) usageConflicts() {
	type said struct {
		line int
		pref robotstxt.Pref
	}
	runs := make(map[int][]parser.UsageRule) // by the first of the user-agent lines they speak for
	reads := make(map[string][]int)          // crawler → the runs it reads, by their first line
	var crawlers []string
	for _, g := range lt.file.Groups {
		for _, r := range g.Usage {
			if r.Cut {
				continue // what the line says is not what it is read as
			}
			run := r.Agents[0].Line
			if _, ok := runs[run]; !ok {
				for _, c := range crawlersOf(r.Agents) {
					if _, ok := reads[c]; !ok {
						crawlers = append(crawlers, c)
					}
					reads[c] = append(reads[c], run)
				}
			}
			runs[run] = append(runs[run], r)
		}
	}
	reported := make(map[[2]int]bool)   // the two lines
	stated := make(map[int][]labelPref) // by line: each statement read once, whatever the crawlers sharing it
	first := make(map[[2]string]said)   // path and label → the first rule saying y or n, for one crawler at a time
	checked := make(map[string]bool)    // the runs of crawlers checked
	var rules []parser.UsageRule
	n := 0
	for i, c := range crawlers {
		key := fmt.Sprint(reads[c])
		if checked[key] {
			continue
		}
		clear(first)
		rules = rules[:0]
		for _, run := range reads[c] {
			rules = append(rules, runs[run]...)
		}
		if n += len(rules); n > maxSetRules {
			left := 0 // crawlers reading rules no crawler checked read
			for _, o := range crawlers[i:] {
				if !checked[fmt.Sprint(reads[o])] {
					left++
				}
			}
			lt.add(rules[0].Line, codeNotChecked, "the Content-Usage rules of %d crawlers, the first %s, were not checked for conflicting rules: past lint's budget of %d rules",
				left, c, maxSetRules)
			return
		}
		checked[key] = true
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

// crawlersOf returns the crawlers user-agent lines speak for, each once:
// the product tokens they name, in lower case, and "*".
func crawlersOf(agents []parser.UserAgent) []string {
	var out []string
	for _, a := range agents {
		c := strings.ToLower(a.Token)
		if a.Global {
			c = "*"
		}
		if c != "" {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
