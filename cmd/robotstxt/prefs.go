package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/matcher"
	"github.com/robotsgate/robotstxt/parser"
)

// A parsed is a robots.txt body as check, test and explain read it: its
// File in one mode, for the groups and Content-Usage rules, and its lines
// as written.
type parsed struct {
	file  *parser.File
	lines listing
	mode  robotstxt.Mode
}

// parse reads text in mode.
func parse(text []byte, mode robotstxt.Mode) *parsed {
	return &parsed{file: parseFile(text, mode), lines: newListing(text), mode: mode}
}

// parseFile parses text into its groups and diagnostics, read in mode.
func parseFile(text []byte, mode robotstxt.Mode) *parser.File {
	if mode == robotstxt.ModeRFC9309 {
		return parser.ParseRFC9309(text)
	}
	return parser.Parse(text)
}

// A prefItem is one line of what check, test and explain show of the
// usage preferences of a URL: "usage" for robots.txt's Content-Usage
// rules or "signal" for its Content-Signal records, the preferences (or
// "unknown"), and where they come from.
type prefItem struct {
	label, prefs, detail string
	// lines are the lines the preferences come from, as written, when
	// they are more than one.
	lines []string
	// notes say what in the deciding statements states no preference.
	notes []string
}

// prefItems returns what p says of the use of url's content by agent: an
// item for its Content-Usage rules when the agent's groups have any, and
// one for its Content-Signal records when any apply; none otherwise.
// allowed is the decision for url, and client the preferences the Client
// gave it, which the rules' own say overrides only where the Client
// failed closed (see robotstxt.Robots.Usage).
func prefItems(p *parsed, agent, url string, allowed bool, client robotstxt.Usage) []prefItem {
	f := p.file
	named, _ := agentGroups(f, agent)
	spoken := make(map[int]bool) // by the first of the user-agent lines they speak for: whether they speak for agent
	speaks := func(agents []parser.UserAgent) bool {
		if len(agents) == 0 {
			return false
		}
		run := agents[0].Line
		if _, ok := spoken[run]; !ok {
			spoken[run] = speaksFor(agents, agent, named != nil)
		}
		return spoken[run]
	}
	// theirs reports whether a statement of group gi that does not speak
	// for agent (see speaks) gives it its refusals: another of the
	// group's lines, whose crawlers obey the group's rules, speaks for
	// it (see parser.UsageRule.Agents). Told once a group: a group of
	// thousands of runs took seconds a URL told again for each statement.
	inGroup := make(map[int]bool) // by group: whether one of its user-agent lines speaks for agent
	theirs := func(gi int) bool {
		if _, ok := inGroup[gi]; !ok {
			inGroup[gi] = speaksFor(f.Groups[gi].Agents, agent, named != nil)
		}
		return inGroup[gi]
	}
	var usageRules []parser.UsageRule
	var theirRules [][]parser.UsageRule   // by the lines they speak for, which decide apart
	theirsRefuse := false                 // one of them refuses a use: else they say nothing to agent
	records := slices.Clone(f.Extensions) // those before the first group first, as Robots.Usage reads them
	var theirRecords []parser.Record
	for _, gi := range appliedGroups(f, agent) {
		runs := make(map[int]int) // by the first line they speak for: their index in theirRules
		for _, r := range f.Groups[gi].Usage {
			switch {
			case speaks(r.Agents):
				usageRules = append(usageRules, r)
			case theirs(gi):
				k, ok := runs[r.Agents[0].Line]
				if !ok {
					k = len(theirRules)
					runs[r.Agents[0].Line] = k
					theirRules = append(theirRules, nil)
				}
				theirRules[k] = append(theirRules[k], r)
				if stated, _ := readPrefs("content-usage", r.Statement); len(stated.refusals().labels) > 0 {
					theirsRefuse = true
				}
			}
		}
		for _, r := range f.Groups[gi].Extensions {
			switch {
			case speaks(r.Agents):
				records = append(records, r)
			case r.Key == "content-signal" && theirs(gi):
				theirRecords = append(theirRecords, r)
			}
		}
	}
	// The Content-Signal records that apply to the agent, those before
	// the first group first, as Robots.Usage reads them, and what they
	// say together.
	var signals []int
	var signal prefs
	var signalNotes []string // notes of the records cut short, or another's
	for _, rec := range records {
		if rec.Key == "content-signal" {
			signals = append(signals, rec.Line)
			stated, _ := readPrefs(rec.Key, rec.Value)
			signal.combine(stated)
			if rec.Cut && len(signalNotes) < maxListed {
				signalNotes = append(signalNotes, fmt.Sprintf("line %d is cut short: it reads as its refusals and ai-train=no, since what was cut may have been one", rec.Line))
			}
		}
	}
	for _, rec := range theirRecords {
		stated, _ := readPrefs(rec.Key, rec.Value)
		if no := stated.refusals(); len(no.labels) > 0 && !slices.Contains(signals, rec.Line) {
			signals = append(signals, rec.Line)
			signal.combine(no)
			if len(signalNotes) < maxListed {
				signalNotes = append(signalNotes, theirNote(rec.Line))
			}
		}
	}
	var items []prefItem
	if len(usageRules) > 0 || theirsRefuse {
		it := prefItem{label: "usage", prefs: "unknown"}
		path, spelled := matchPath(clientEscaped(url), p.mode), matchPath(clientEscaped(url), robotstxt.ModeGoogle)
		forms := matcher.ServedForms(spelled)
		rules, said := servedUsage(usageRules, append([]string{spelled}, forms...), p.mode)
		own := len(rules) // the rules that speak for the agent; the rest give their refusals
		for _, run := range theirRules {
			decided, stated := servedUsage(run, append([]string{spelled}, forms...), p.mode)
			if no := stated.refusals(); len(no.labels) > 0 {
				said.combine(no)
				for _, r := range decided {
					if r, _ := readPrefs("content-usage", r.Statement); len(r.refusals().labels) == 0 {
						continue // only a refusal counts
					}
					if !slices.ContainsFunc(rules, func(o parser.UsageRule) bool { return o.Line == r.Line }) {
						rules = append(rules, r)
						it.notes = append(it.notes, theirNote(r.Line))
					}
				}
			}
		}
		var bounded []string // labels the Client failed closed on, which the lines do not say
		past := false        // the Client read past its bound on the served forms
		for _, l := range labels {
			// Past its bound on the served forms (a path with others),
			// the Client fails closed: train-ai=n, whatever rules match,
			// and a yes the forms it left may lack counts for none.
			switch {
			case !allowed || forms == nil:
			case client.Pref(l) == robotstxt.PrefNo && said.pref(l) != robotstxt.PrefNo && signal.pref(l) != robotstxt.PrefNo:
				bounded = append(bounded, l)
				past = true
			case said.pref(l) == robotstxt.PrefYes && client.Pref(l) == robotstxt.PrefUnknown:
				past = true // review129: a train-ai=n the rules say hides the bound
			}
		}
		if past {
			// The forms left unread agree with what the rules say as the
			// Client's train-ai=n does: a yes they may lack counts for
			// none (cli81).
			no, _ := readPrefs("content-usage", "train-ai=n")
			said = said.agree(no)
		}
		for _, l := range bounded {
			it.notes = append(it.notes, l+"=n: the forms servers may serve the path as cost past the Client's bound to check against these rules, and it fails closed")
		}
		switch {
		case !allowed:
			it.detail = "disallowed: preferences apply only to URLs the crawler may fetch"
		case len(rules) == 0:
			it.prefs = usageText(said.pref)
			it.detail = "no Content-Usage rule of these groups matches " + path
		default:
			var lines []int
			for i, r := range rules {
				lines = append(lines, r.Line)
				if i >= maxListed {
					continue // nor their notes
				}
				if r.Cut {
					it.notes = append(it.notes, fmt.Sprintf("line %d is cut short: its statement reads as its refusals and train-ai=n, since what was cut may have been one", r.Line))
				}
				for _, n := range usageNotes(r.Statement) {
					it.notes = append(it.notes, fmt.Sprintf("line %d: %s", r.Line, n.text))
				}
			}
			it.prefs = usageText(said.pref)
			why := "their paths match with the same length: they combine, n before y"
			if forms != nil {
				why = "they decide for the URL or a path a server may serve it as: a no of any counts, a yes only if every one is given it"
			}
			if own < len(rules) {
				why = "they decide for the URL, for this crawler or for others of its group: they combine, n before y"
			}
			it.detail, it.lines = linesText(lines, p.lines, why)
		}
		items = append(items, it)
	}
	if len(signals) > 0 {
		it := prefItem{label: "signal", prefs: "unknown"}
		if allowed {
			it.prefs = signal.String()
			it.detail, it.lines = linesText(signals, p.lines, "they combine, no before yes")
			it.notes = signalNotes
		} else {
			it.detail = "disallowed: preferences apply only to URLs the crawler may fetch"
		}
		items = append(items, it)
	}
	return items
}

// speaksFor reports whether a Content-Usage rule or Content-Signal record
// speaking for agents speaks for agent: one names it, when a group does
// (named), or else one is "*".
func speaksFor(agents []parser.UserAgent, agent string, named bool) bool {
	return slices.ContainsFunc(agents, func(a parser.UserAgent) bool {
		if named {
			return names(a, agent)
		}
		return a.Global
	})
}

// servedUsage returns the Content-Usage rules that decide the preferences
// for paths, a path and the forms a server may serve it as, read in mode
// m: those that decide for any, in file order; and the preferences they
// give, as the Client reads them: each path's rules combined, and the
// paths' agreeing (see prefs.agree).
func servedUsage(rules []parser.UsageRule, paths []string, m robotstxt.Mode) ([]parser.UsageRule, prefs) {
	var out []parser.UsageRule
	var said prefs
	seen := make(map[int]bool) // the lines in out
	for i, f := range paths {
		if m == robotstxt.ModeRFC9309 {
			f = matcher.UnescapePath(f)
		}
		var form prefs
		for _, r := range decidingUsage(rules, f) {
			stated, _ := readPrefs("content-usage", r.Statement)
			form.combine(stated)
			if !seen[r.Line] {
				seen[r.Line] = true
				out = append(out, r)
			}
		}
		if i == 0 {
			said = form
		} else {
			said = said.agree(form)
		}
	}
	slices.SortFunc(out, func(a, b parser.UsageRule) int { return a.Line - b.Line })
	return out, said
}

// decidingUsage returns the Content-Usage rules that decide the
// preferences for path, as Robots.Usage reads them: those whose path
// matches it with the greatest length, a rule without a path matching
// with length 0.
func decidingUsage(rules []parser.UsageRule, path string) []parser.UsageRule {
	var out []parser.UsageRule
	best := -1
	for _, r := range rules {
		if len(r.Path) < best || r.Path != "" && !matcher.Match(r.Path, path) {
			continue
		}
		if len(r.Path) > best {
			out, best = out[:0], len(r.Path)
		}
		out = append(out, r)
	}
	return out
}

// printPrefs writes items under the line of a URL, as check and test
// print them:
//
//	usage train-ai=n  (line 9: Content-Usage: train-ai=n)
func printPrefs(w io.Writer, width int, items []prefItem) {
	for _, it := range items {
		printDecision(w, "", width, it.label+" "+it.prefs, strings.Join(append([]string{it.detail}, it.notes...), "; "))
	}
}

// labels are the labels whose preferences crawlers read, as the Client
// reads them (TestLabelsAreTheClients holds them to it): the usage
// categories of the IETF AIPREF vocabulary, and ai-input of Content
// Signals.
var labels = []string{"train-ai", "search", "ai-input"}

// A labelPref is a label of the vocabulary and the preference a Usage
// states for it.
type labelPref struct {
	label string
	pref  robotstxt.Pref
}

// statedPrefs returns the labels crawlers read for which pref, the
// Pref method of a Usage or of prefs, gives y or n, in labels'
// order: all that a crawler reads of the preferences. Other labels, and
// other values, state no preference (see usageNotes).
func statedPrefs(pref func(label string) robotstxt.Pref) []labelPref {
	var ps []labelPref
	for _, l := range labels {
		if p := pref(l); p != robotstxt.PrefUnknown {
			ps = append(ps, labelPref{l, p})
		}
	}
	return ps
}

// prefs are what statements of preference say, label by label, each
// label in the order it first appears.
type prefs struct {
	labels []string
	value  map[string]string
	lost   []string // labels whose n a later value replaced, in order
}

// readPrefs reads a statement of preference of the kind key names (see
// parser.Preferences): each label with the last value written for it,
// and why the statement, or a part of it, states nothing.
func readPrefs(key, stmt string) (prefs, error) {
	members, err := parser.Preferences(key, stmt)
	var p prefs
	for label, v := range members {
		p.set(label, v)
	}
	return p, err
}

// set gives label the value v.
func (p *prefs) set(label, v string) {
	if p.value == nil {
		p.value = make(map[string]string)
	}
	switch old, ok := p.value[label]; {
	case !ok:
		p.labels = append(p.labels, label)
	case old == "n" && v != "n" && !slices.Contains(p.lost, label):
		p.lost = append(p.lost, label)
	}
	p.value[label] = v
}

// refusals returns the labels p says n to.
func (p prefs) refusals() prefs {
	var out prefs
	for _, l := range p.labels {
		if p.value[l] == "n" {
			out.set(l, "n")
		}
	}
	return out
}

// theirNote says that the statement on line speaks for other crawlers of
// the agent's group, and only its refusals count for the agent.
func theirNote(line int) string {
	return fmt.Sprintf("line %d speaks for other crawlers of this group, whose rules this one obeys: only its refusals count", line)
}

// combine adds what q says to p, label by label, as the vocabulary
// combines statements (draft-ietf-aipref-vocab §5.1): n if either says
// n, else y if either says y, else p's value if it has one.
func (p *prefs) combine(q prefs) {
	for _, label := range q.labels {
		v, ok := p.value[label]
		if w := q.value[label]; !ok || w == "n" || w == "y" && v != "n" {
			p.set(label, w)
		}
	}
}

// agree returns what p and q, the preferences of two forms of one path,
// agree on, failing closed, as the Client reads them: a label's n if
// either says n, else its value where both give the same.
func (p prefs) agree(q prefs) prefs {
	var out prefs
	for _, l := range p.labels {
		v := p.value[l]
		w, ok := q.value[l]
		switch {
		case v == "n" || w == "n":
			out.set(l, "n")
		case ok && v == w:
			out.set(l, v)
		}
	}
	for _, l := range q.labels {
		if _, ok := p.value[l]; !ok && q.value[l] == "n" {
			out.set(l, "n")
		}
	}
	return out
}

// pref returns the preference p states for label: only the values y and
// n state one.
func (p prefs) pref(label string) robotstxt.Pref {
	switch p.value[label] {
	case "y":
		return robotstxt.PrefYes
	case "n":
		return robotstxt.PrefNo
	}
	return robotstxt.PrefUnknown
}

// String shows every label with its value, "train-ai=n, ai-input=y", or
// "unknown" when p holds none.
func (p prefs) String() string {
	if len(p.labels) == 0 {
		return "unknown"
	}
	parts := make([]string, len(p.labels))
	for i, l := range p.labels {
		parts[i] = l + "=" + p.value[l]
	}
	return strings.Join(parts, ", ")
}

// usageText shows the preferences pref gives (see statedPrefs), as
// "train-ai=n, search=y", or "unknown" when it gives none.
func usageText(pref func(label string) robotstxt.Pref) string {
	var parts []string
	for _, p := range statedPrefs(pref) {
		parts = append(parts, p.label+"="+p.pref.String())
	}
	if len(parts) == 0 {
		return "unknown"
	}
	return strings.Join(parts, ", ")
}

// A usageNote says what in a Content-Usage statement states no
// preference that a crawler reads: lint reports it with its code, and
// check, test and explain show it under the usage of a URL the statement
// decides.
type usageNote struct {
	code code
	text string
}

// maxNamed bounds how many labels one note names.
const maxNamed = 3

// usageNotes returns the notes of a Content-Usage statement: that it is
// not a Dictionary of RFC 9651, or is empty; else, for each label of the
// vocabulary whose value, the last written for it, is not the Token y or
// n, that it states no preference; for each whose n a later value
// replaced, that its refusal is lost; then, in one note, the labels outside
// the vocabulary, which no crawler reads. It takes time linear in the
// statement's length.
func usageNotes(stmt string) []usageNote {
	p, err := readPrefs("content-usage", stmt)
	switch {
	case err != nil:
		return []usageNote{{codeUsageSyntax, fmt.Sprintf("the statement %q is not a Dictionary of RFC 9651 (%v): every preference of this rule is unknown",
			clip(stmt, maxShown), err)}}
	case len(p.labels) == 0:
		return []usageNote{{codeUsageSyntax, "no statement of preference: every preference of the paths this rule matches is unknown"}}
	}
	var notes []usageNote
	for _, l := range labels {
		v, ok := p.value[l]
		if !ok || p.pref(l) != robotstxt.PrefUnknown {
			continue
		}
		written := l
		if v != "" {
			written += "=" + v
		}
		notes = append(notes, usageNote{codeUsageValue, written + " states no preference: only the Tokens y and n count"})
	}
	for _, l := range p.lost {
		if slices.Contains(labels, l) && p.value[l] != "n" { // n, y, n says n
			notes = append(notes, usageNote{codeUsageRepeated, fmt.Sprintf("%s is given n, then %s: the last value of a label counts, and its refusal is lost",
				l, cmp.Or(p.value[l], "again"))})
		}
	}
	for _, l := range paramLabels(stmt) {
		notes = append(notes, usageNote{codeUsageValue, fmt.Sprintf("%s after a ';' is a parameter of the preference before it, which crawlers ignore, "+
			"not a preference: separate preferences with ','", l)})
	}
	var others []string // labels outside the vocabulary, in order
	for _, l := range p.labels {
		if !slices.Contains(labels, l) {
			others = append(others, l)
		}
	}
	if len(others) > 0 {
		named := make([]string, min(len(others), maxNamed))
		for i := range named {
			named[i] = fmt.Sprintf("%q", others[i])
		}
		text := "label " + named[0] + " is none of those crawlers read, " + orList(labels) + ": no preference is read from it"
		if len(others) > 1 {
			if len(others) > maxNamed {
				named = append(named, fmt.Sprintf("%d more", len(others)-maxNamed))
			}
			text = "labels " + andList(named) + " are none of those crawlers read, " + orList(labels) + ": no preference is read from them"
		}
		notes = append(notes, usageNote{codeUsageLabel, text})
	}
	return notes
}

// paramLabels returns the labels crawlers read that stmt, a
// Dictionary, holds as parameter keys ("search=y; train-ai=n"): after a
// ';' outside a String.
func paramLabels(stmt string) []string {
	var found []string
	quoted := false
	for i := 0; i < len(stmt); i++ {
		switch c := stmt[i]; {
		case quoted && c == '\\':
			i++ // an escaped character
		case c == '"':
			quoted = !quoted
		case !quoted && c == ';':
			key := strings.TrimLeft(stmt[i+1:], " ")
			if end := strings.IndexFunc(key, func(r rune) bool { return !strings.ContainsRune("abcdefghijklmnopqrstuvwxyz0123456789_-.*", r) }); end >= 0 {
				key = key[:end]
			}
			if slices.Contains(labels, key) {
				found = append(found, key)
			}
		}
	}
	return found
}

// linesText describes where preferences come from: "line 7: Content-Usage:
// train-ai=n", the line as written, or for several lines "lines 7 and 9:
// why", with each line as written for the caller to list.
func linesText(lines []int, l listing, why string) (string, []string) {
	if len(lines) == 1 {
		return fmt.Sprintf("line %d: %s", lines[0], l.directive(lines[0])), nil
	}
	var nums, written []string
	for _, n := range lines[:min(len(lines), maxListed)] {
		nums = append(nums, fmt.Sprint(n))
		written = append(written, fmt.Sprintf("line %d: %s", n, l.directive(n)))
	}
	if more := len(lines) - maxListed; more > 0 {
		nums = append(nums, fmt.Sprintf("%d more", more))
	}
	return "lines " + andList(nums) + ": " + why, written
}

// maxListed bounds the lines a URL's preferences are shown to come from:
// a hostile file's 34,000 rules of one path printed 3.9 MB for one URL.
const maxListed = 16
