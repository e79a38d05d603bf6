package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

// groups reports, per crawler, rules that can never decide, rules given
// twice, named groups without rules and a * group that disallows
// everything; and user-agent lines that join a group they were not meant
// to (see joinedGroups).
func (lt *linter) groups() {
	lt.joinedGroups()
	f := lt.file
	all, global := ruleSets(f)
	sets := withinBudget(f, all)
	if left := all[len(sets):]; len(left) > 0 {
		lt.add(f.Groups[left[0][0]].Agents[0].Line, codeNotChecked,
			"%d of the sets of groups crawlers obey, the first this group's, were not checked for shadowed, duplicate or conflicting rules: past lint's budget of %d rules",
			len(left), maxSetRules)
	}
	// A rule is reported when it is shadowed (or repeated) for every
	// crawler whose rules hold it, those not checked too.
	in := make(map[int]int) // group → number of sets holding it
	for _, s := range all {
		for _, gi := range s {
			in[gi]++
		}
	}
	shadows := make(map[ruleRef][]*parser.Rule)
	dups := make(map[ruleRef][]*parser.Rule)
	for _, s := range sets {
		findShadows(f, s, shadows, dups)
	}
	var refs []ruleRef
	for ref := range shadows {
		refs = append(refs, ref)
	}
	for ref := range dups {
		if _, ok := shadows[ref]; !ok {
			refs = append(refs, ref)
		}
	}
	for _, ref := range refs {
		r := &f.Groups[ref.group].Rules[ref.rule]
		if by := shadows[ref]; len(by) == in[ref.group] {
			b := by[0]
			why := "a longer pattern wins"
			if len(b.Pattern) == len(r.Pattern) || indexDir(b) == r.Pattern { // the index page's weighs its directory's
				why = "allow wins a tie"
			}
			lt.add(r.Line, codeShadowed, "never decides: line %d (%s) matches every URL this rule matches and takes precedence (%s)",
				b.Line, writtenRule(robotstxt.Rule(*b), lt.lines), why)
		} else if by := dups[ref]; len(by) == in[ref.group] {
			lt.add(r.Line, codeDuplicate, "the same rule as line %d", by[0].Line)
		}
	}
	lt.emptyGroups(global)
}

// emptyGroups reports, on the line that first names it, each crawler
// whose groups have no rules when the * group has rules, and a * group
// that disallows everything, or all but what its Allow rules allow.
func (lt *linter) emptyGroups(global []int) {
	f := lt.file
	globalRules := 0
	for _, gi := range global {
		globalRules += len(f.Groups[gi].Rules)
	}
	done := make(map[string]bool) // tokens with rules, or reported
	for _, g := range f.Groups {
		for _, a := range g.Agents {
			k := strings.ToLower(a.Token)
			done[k] = done[k] || len(g.Rules) > 0
		}
	}
	for _, g := range f.Groups {
		for _, a := range g.Agents {
			if k := strings.ToLower(a.Token); k != "" && !done[k] && globalRules > 0 {
				done[k] = true
				lt.add(a.Line, codeNoRules, "this group has no rules: %s may fetch everything, and the * rules do not apply to it", a.Token)
			}
		}
	}
	if len(global) == 0 {
		return
	}
	// The first of the matching rules, in order of precedence, decides.
	// No pattern holds '#', which starts a comment, so a rule that
	// matches /# matches every path: the whole site is disallowed when
	// such a rule decides /# and a disallow decides /, but for the paths
	// of an Allow rule it does not outrank.
	root, all := matches(f, global, "/"), matches(f, global, "/#")
	if len(root) == 0 || root[0].rule.Allow || len(all) == 0 || all[0].rule.Allow {
		return
	}
	for _, gi := range global {
		for _, r := range f.Groups[gi].Rules {
			if r.Allow && !outranks(all[0].rule, all[0].length, &r, len(r.Pattern)) {
				lt.add(all[0].rule.Line, codeDisallowAll, "every crawler without a group of its own is disallowed every path but what Allow rules allow, such as line %d (%s)",
					r.Line, writtenRule(robotstxt.Rule(r), lt.lines))
				return
			}
		}
	}
	lt.add(all[0].rule.Line, codeDisallowAll, "every crawler without a group of its own is disallowed the whole site")
}

// ruleSets returns the sets of groups whose rules one crawler obeys
// together, each once: the * groups, and for each product token the file
// names, the groups that name it. global is the * set, nil when there is
// none.
func ruleSets(f *parser.File) (sets [][]int, global []int) {
	byToken := make(map[string][]int)
	var tokens []string
	for gi, g := range f.Groups {
		for _, a := range g.Agents {
			switch {
			case a.Global:
				global = appendOnce(global, gi)
			case a.Token != "":
				k := strings.ToLower(a.Token)
				if _, ok := byToken[k]; !ok {
					tokens = append(tokens, k)
				}
				byToken[k] = appendOnce(byToken[k], gi)
			}
		}
	}
	// Crawlers that obey the same groups make one set: a group naming
	// thousands of tokens was linted once for each.
	seen := make(map[string]bool)
	add := func(s []int) {
		if key := fmt.Sprint(s); !seen[key] {
			seen[key] = true
			sets = append(sets, s)
		}
	}
	if global != nil {
		add(global)
	}
	for _, k := range tokens {
		add(byToken[k])
	}
	return sets, global
}

// maxSetRules bounds the rules and Content-Usage rules lint checks
// crawler by crawler, counted once for each set of ruleSets: a file that
// names many crawlers in one large group, each also in a group of its
// own, would cost crawlers times rules (114 MB for 27 KB, tens of
// gigabytes for 500 KiB). The largest of 3,224 real files needs 47,064.
const maxSetRules = 1 << 17

// withinBudget returns the first of sets whose rules, counted for each,
// are within maxSetRules.
func withinBudget(f *parser.File, sets [][]int) [][]int {
	n := 0
	for i, s := range sets {
		for _, gi := range s {
			n += len(f.Groups[gi].Rules) + len(f.Groups[gi].Usage)
		}
		if n > maxSetRules {
			return sets[:i]
		}
	}
	return sets
}

// joinedGroups reports a user-agent line that follows other lines of a
// group, Content-Usage rules or records (a Crawl-delay, a Content-Signal,
// a Sitemap, any key), with no Allow or Disallow between: as Google's
// parser reads groups, only those end one, so the line joins the group
// above. Its rules and records then apply to this crawler too (but for
// the yes of Content-Usage rules and Content-Signal records, which
// speaks only for the lines before them: see parser.UsageRule), and
// this group's rules to the crawlers above, where the author meant a
// group of their own.
func (lt *linter) joinedGroups() {
	const fix = "a group ends only at an Allow or Disallow rule, so give that group one (Allow: / allows what no rule disallows)"
	f := lt.file
	for _, g := range f.Groups {
		one := true // the lines before i all name the crawler of the first
		for i, last := 1, 0; i < len(g.Agents); i++ {
			if one = one && sameCrawler(g.Agents[0], g.Agents[i]); one {
				continue // it joins its own group: nothing changes
			}
			// Since the last line not left alone: a line naming the
			// group's own crawler joins nothing, but the next may.
			lo, hi := g.Agents[last].Line, g.Agents[i].Line
			own := g.Agents[last+1 : i] // the lines between, which name the group's own crawler
			last = i
			usageAt := firstBetween(g.Usage, func(r parser.UsageRule) int { return r.Line }, lo, hi)
			recordAt := 0
			for _, recs := range [][]parser.Record{g.Extensions, f.Sitemaps, f.Licenses} {
				if n := firstBetween(recs, func(r parser.Record) int { return r.Line }, lo, hi); n > 0 && (recordAt == 0 || n < recordAt) {
					recordAt = n
				}
			}
			if recordAt == 0 {
				// A line crawlers skip (Crawl delay 10, Disallow /a /b)
				// shows the group above was meant to end as a record does.
				for n := lo + 1; n < hi; n++ {
					if len(own) > 0 && own[0].Line == n {
						own = own[1:]
						continue
					}
					if text, _, _ := strings.Cut(lt.lines.text(n), "#"); strings.TrimSpace(text) != "" {
						recordAt = n
						break
					}
				}
			}
			switch {
			case usageAt > 0:
				lt.add(hi, codeUsageGroup, "this user-agent line joins the group of the Content-Usage rule on line %d, whose yes speaks only for the crawlers above it but whose refusals reach this one, and this group's rules apply to those crawlers too: "+fix, usageAt)
			case recordAt > 0:
				past := lt.lines.directive(recordAt)
				if past == "" { // a line crawlers skip
					past = clip(strings.TrimSpace(lt.lines.text(recordAt)), maxShown)
				}
				lt.add(hi, codeJoinedGroup, "this user-agent line joins the group above, past line %d (%s), so that its crawlers get this group's rules: "+fix,
					recordAt, past)
			}
		}
	}
}

// sameCrawler reports whether a and b name one crawler.
func sameCrawler(a, b parser.UserAgent) bool {
	return a.Global == b.Global && (a.Global || strings.EqualFold(a.Token, b.Token))
}

// firstBetween returns the line of the first of s, in line order, after
// line lo and before hi; 0 when none is.
func firstBetween[T any](s []T, line func(T) int, lo, hi int) int {
	i, _ := slices.BinarySearchFunc(s, lo+1, func(x T, n int) int { return line(x) - n })
	if i < len(s) && line(s[i]) < hi {
		return line(s[i])
	}
	return 0
}
