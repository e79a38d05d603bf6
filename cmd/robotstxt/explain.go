package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/matcher"
	"github.com/robotsgate/robotstxt/parser"
)

// runExplain is "robotstxt explain": for each URL it shows the groups that
// apply to the agent and why, every rule that matches with its line, text
// as written and length, which one decides and why, rules of other groups
// that would match, the usage preferences of its Content-Usage rules and
// Content-Signal records, and where Google's reading and RFC 9309's
// differ; or with -json, for each URL, test's urlResult and the rules that
// match (an explanation). Its exit code is test's (check's when it
// fetches).
func runExplain(cmd *command, args []string, e env) int {
	fs := newFlags(cmd)
	rf := newReadFlags(fs, "default: each URL's own robots.txt", "read as RFC 9309 strictly does instead of as Google's parser", "one robots.txt fetch")
	args, code, done := parseArgs(fs, args, e)
	if done {
		return code
	}
	if len(args) == 0 {
		e.errorf("explain: no URL given")
		return exitUsage
	}
	return rf.eachURL(args, *rf.file != "", e, func(x *explainer, i int, t target) (int, error) {
		if *rf.asJSON {
			res := x.explanation(x.check(t))
			c, _ := expectation{}.judge(res.Verdict)
			return c, writeJSON(e.stdout, res)
		}
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		return x.explain(t), nil
	})
}

// explainJSONHelp is what explain's -json adds to urlJSONHelp.
const explainJSONHelp = `explain adds "matches", the Allow and Disallow rules of the agent's
groups that match the URL, in order of precedence (the deciding rule
first), each as "rule" is, with the "length" that its match weighs; []
when none matches.`

// An explanation is what explain prints with -json for one URL: test's
// urlResult and the rules that match.
type explanation struct {
	urlResult
	Matches []matchResult `json:"matches"`
}

// A matchResult is a rule that matches the URL, in an explanation.
type matchResult struct {
	ruleResult
	Length int `json:"length"`
}

// explanation returns the -json form of the explanation of c, which the
// text output prints too.
func (x *explainer) explanation(c checked) explanation {
	out := explanation{urlResult: x.result(c), Matches: []matchResult{}}
	if c.p == nil {
		return out
	}
	path := x.matched(c)
	ms := matches(c.p.file, appliedGroups(c.p.file, x.agent), path)
	out.Detail = decisionReason(ms, c.d, path, x.mode, c.p.lines)
	if c.d.Stale {
		out.Detail += "; stale copy"
	}
	for _, m := range ms {
		out.Matches = append(out.Matches, matchResult{*newRuleResult(robotstxt.Rule(*m.rule), c.p.lines), m.length})
	}
	return out
}

// An explainer answers for URLs from one document, as a Client reading it
// as the robots.txt of every site answers (or, for a live robots.txt
// without rules, as the Client answered for it), for one agent, and
// explains the answers.
type explainer struct {
	doc   *document
	c     *robotstxt.Client // nil when the document has no rules
	p     *parsed
	agent string
	mode  robotstxt.Mode
	full  bool
	other *robotstxt.Client // reads the document in the other mode
	// whole reads the whole file, when it is over the limit and read
	// cut, and wholeLines are its lines; whole is nil otherwise.
	whole      *robotstxt.Client
	wholeLines listing
	w          io.Writer
}

// newExplainer returns an explainer of d for agent in mode m, reading it
// whole when full is set, that prints to e's standard output, and notes
// on standard error when d is over the limit crawlers read.
func newExplainer(d *document, agent string, m robotstxt.Mode, full bool, e env) *explainer {
	x := &explainer{doc: d, agent: agent, mode: m, full: full, w: e.stdout}
	if d.readable() {
		d.noteLimit(full, e)
		x.c, x.p = d.client(agent, m, full), parse(d.text(full), m)
		x.other = d.client(agent, modeOf(m == robotstxt.ModeGoogle), full) // the other mode
		if d.body.Truncated && !full {
			x.whole, x.wholeLines = d.client(agent, m, true), newListing(d.whole.Text)
		}
	}
	return x
}

// close closes the explainer's Clients.
func (x *explainer) close() {
	for _, c := range []*robotstxt.Client{x.c, x.other, x.whole} {
		if c != nil {
			c.Close()
		}
	}
}

// matched returns the path that rules are matched against for c, read in
// the explainer's mode: the one a server serves for the URL when that is
// what decided (a path, which may start with "//"), else the URL's own.
func (x *explainer) matched(c checked) string {
	if c.d.Served != "" {
		return matchPath("http://h"+c.d.Served, x.mode)
	}
	return matchPath(clientEscaped(c.t.sent()), x.mode)
}

// field prints one labelled line of an explanation, made printable, as
// it shows lines of the file and what the server said.
func (x *explainer) field(label, format string, args ...any) {
	fmt.Fprintf(x.w, "%-9s %s\n", label, printable(fmt.Sprintf(format, args...)))
}

// more prints a continuation line of the field above.
func (x *explainer) more(format string, args ...any) {
	x.field("", format, args...)
}

// explain prints the explanation for t and returns its exit code.
func (x *explainer) explain(t target) int {
	c := x.check(t)
	res := x.explanation(c)
	x.field("URL", "%s", t.shown)
	sent := t.sent()
	spelled, path := matchPath(clientEscaped(sent), robotstxt.ModeGoogle), matchPath(clientEscaped(sent), x.mode)
	where := spelled
	if path != spelled {
		where += ", compared as " + path
		if why := rfcReading(spelled); why != "" {
			where += " (" + why + ")"
		}
	}
	if c.d.Served != "" {
		where += ", served as " + c.d.Served
	}
	x.field("path", "%s", where)
	x.field("agent", "%s", x.agent)
	x.field("robots", "%s", x.source())
	code, _ := expectation{}.judge(res.Verdict)
	if c.p == nil {
		for _, r := range x.doc.hops {
			x.more("%s → %s", r.url, r.result)
		}
		x.field("decision", "%s: %s", res.Verdict.word(), res.Detail)
		return code
	}
	f, l := c.p.file, c.p.lines
	x.groups(f, l)
	path = x.matched(c)
	x.rules(res, path)
	x.others(f, appliedGroups(f, x.agent), path, l)
	for _, it := range prefItems(c.p, x.agent, sent, c.d.Allowed, c.d.Usage) {
		x.field(it.label, "%s (%s)", it.prefs, it.detail)
		for _, w := range append(it.lines, it.notes...) {
			x.more("%s", w)
		}
	}
	if x.whole != nil {
		x.pastLimit(c)
	}
	x.compareModes(c)
	return code
}

// source describes where the robots.txt came from and how it was read.
func (x *explainer) source() string {
	d := x.doc
	s := d.name
	if d.live != nil && d.live.Status != 0 {
		s += fmt.Sprintf(" (status %d)", d.live.Status)
	}
	if !d.readable() {
		return s
	}
	s += fmt.Sprintf(", %d bytes, %s", len(d.raw), d.body.Charset)
	switch {
	case !d.body.Truncated:
	case x.full && !d.partial:
		s += ", read whole (-full), past the 500 KiB crawlers read"
	case d.partial:
		s += fmt.Sprintf(", cut at the %s crawlers read (the rest %s)", kib(crawlerLimit), d.lostRest())
	default:
		s += fmt.Sprintf(", cut at the %s crawlers read", kib(crawlerLimit))
	}
	return s
}

// agentGroups returns the groups of f that name agent, and the * groups.
// A group that names both is in both.
func agentGroups(f *parser.File, agent string) (named, global []int) {
	for i := range f.Groups {
		for _, a := range f.Groups[i].Agents {
			if a.Global {
				global = appendOnce(global, i)
			} else if names(a, agent) {
				named = appendOnce(named, i)
			}
		}
	}
	return named, global
}

// names reports whether user-agent line a names agent, a product token,
// as crawlers compare them: ignoring case, and never by an empty token.
func names(a parser.UserAgent, agent string) bool {
	return a.Token != "" && strings.EqualFold(a.Token, agent)
}

// appliedGroups returns the groups of f whose rules agent obeys: those
// that name it, or else the * groups.
func appliedGroups(f *parser.File, agent string) []int {
	named, global := agentGroups(f, agent)
	if len(named) > 0 {
		return named
	}
	return global
}

// groups prints which groups apply to the agent and why.
func (x *explainer) groups(f *parser.File, l listing) {
	named, global := agentGroups(f, x.agent)
	switch {
	case len(named) > 0:
		x.field("groups", "%s has its own group: %s", x.agent, x.agentLines(f, named[:1], l))
		if len(named) > 1 {
			x.more("merged with %s: every group that names %s applies", x.agentLines(f, named[1:], l), x.agent)
		}
		// A group that names both * and the agent applies as the agent's.
		var others []int
		for _, g := range global {
			if !slices.Contains(named, g) {
				others = append(others, g)
			}
		}
		if len(others) > 0 {
			x.more("the * group, %s, does not apply: %s has a group of its own", x.agentLines(f, others, l), x.agent)
		}
	case len(global) > 0:
		x.field("groups", "no group names %s, so the * group applies: %s", x.agent, x.agentLines(f, global[:1], l))
		if len(global) > 1 {
			x.more("merged with %s: every * group applies", x.agentLines(f, global[1:], l))
		}
	default:
		x.field("groups", "no group names %s and there is no * group: every URL is allowed", x.agent)
	}
	for i := range f.Groups {
		for _, a := range f.Groups[i].Agents {
			if a.Global || a.Token == "" || strings.EqualFold(a.Token, x.agent) {
				continue
			}
			if len(a.Value) > len(x.agent) && strings.EqualFold(a.Value[:len(x.agent)], x.agent) {
				x.more("line %d (%s) names %s, not %s", a.Line, l.text(a.Line), a.Token, x.agent)
			}
		}
	}
}

// agentLines lists the user-agent lines of the given groups as
// "line 4 (User-agent: FooBot)".
func (x *explainer) agentLines(f *parser.File, groups []int, l listing) string {
	var parts []string
	for _, gi := range groups {
		for _, a := range f.Groups[gi].Agents {
			if a.Global || strings.EqualFold(a.Token, x.agent) {
				parts = append(parts, fmt.Sprintf("line %d (%s)", a.Line, l.text(a.Line)))
			}
		}
	}
	return strings.Join(parts, ", ")
}

// rules prints every rule of the applying groups that matches path, as
// res lists them, and the decision with its reason.
func (x *explainer) rules(res explanation, path string) {
	if len(res.Matches) == 0 {
		x.field("rules", "no rule of these groups matches %s", path)
	}
	for i, m := range res.Matches {
		label := ""
		if i == 0 {
			label = "rules"
		}
		s := fmt.Sprintf("line %-4d %s  (length %d", m.Line, m.Text, m.Length)
		if m.Length != len(m.Pattern) {
			s += fmt.Sprintf(": the directory %s$ of an index page", m.Pattern[:m.Length-1])
		} else if len(m.Text) < maxShown && !strings.HasSuffix(m.Text, " "+m.Pattern) { // a line shown cut may be written so
			s += ", normalised " + m.Pattern
		}
		s += ")"
		if res.Rule != nil && m.ruleResult == *res.Rule {
			s += "  ← decides"
		}
		x.field(label, "%s", s)
	}
	x.field("decision", "%s", res.Detail)
}

// decisionReason says what the decision is and why.
func decisionReason(ms []match, v robotstxt.Decision, path string, mode robotstxt.Mode, l listing) string {
	word := verdictOf(v.Allowed).word()
	if unchecked(v) {
		return word + ": " + uncheckedText + ", and it fails closed"
	}
	if !decided(v.Rule) {
		if mode == robotstxt.ModeRFC9309 && isRobotsPath(path) {
			return word + ": RFC 9309 always allows /robots.txt"
		}
		return word + ": no rule matches, and what no rule disallows is allowed"
	}
	s := fmt.Sprintf("%s by line %d (%s)", word, v.Rule.Line, writtenRule(v.Rule, l))
	if v.Served != "" {
		s += ", served as " + v.Served
	}
	s += ": "
	if len(ms) == 1 {
		return s + "the only rule that matches"
	}
	win := ms[0].length
	if ms[1].length < win {
		return s + fmt.Sprintf("the longest matching pattern wins (%d bytes, against %d)", win, ms[1].length)
	}
	for _, m := range ms[1:] {
		if m.length == win && m.rule.Allow != v.Rule.Allow {
			return s + fmt.Sprintf("the longest patterns tie at %d bytes, and allow wins a tie", win)
		}
	}
	return s + fmt.Sprintf("the longest matching pattern wins (%d bytes)", win)
}

// isRobotsPath reports whether path, decoded as RFC 9309 reads it, is
// /robots.txt with no query, which RFC 9309 always allows.
func isRobotsPath(path string) bool {
	return path == "/robots.txt"
}

// maxOthers bounds how many rules of other groups are listed.
const maxOthers = 10

// others prints the rules of groups that do not apply to the agent but
// would match the URL: the usual surprise is a "*" rule that a crawler
// with its own group does not obey.
func (x *explainer) others(f *parser.File, applied []int, path string, l listing) {
	var rest []int
	for i := range f.Groups {
		if !slices.Contains(applied, i) {
			rest = append(rest, i)
		}
	}
	ms := matches(f, rest, path)
	slices.SortStableFunc(ms, func(a, b match) int { return a.rule.Line - b.rule.Line })
	for i, m := range ms {
		if i == maxOthers {
			x.more("and %d more", len(ms)-maxOthers)
			break
		}
		label := ""
		if i == 0 {
			label = "not read"
		}
		x.field(label, "line %-4d %s  (matches, but its group, %s, does not apply to %s)",
			m.rule.Line, writtenRule(robotstxt.Rule(*m.rule), l), l.text(f.Groups[m.group].Agents[0].Line), x.agent)
	}
}

// pastLimit prints what the rules past the 500 KiB limit would decide
// for c, when that is not what crawlers decide.
func (x *explainer) pastLimit(c checked) {
	w, err := x.whole.Check(context.Background(), c.t.sent())
	if err != nil || sameVerdict(w, c.d) {
		return
	}
	x.field("limit", "the file goes on past the %s crawlers read (up to line %d); read whole it would say",
		kib(crawlerLimit), c.p.lines.read())
	x.more("%s (%s), which no crawler sees", verdictOf(w.Allowed).word(), checked{d: w, p: &parsed{lines: x.wholeLines}}.reason())
}

// compareModes prints where the other reading (RFC 9309 for Google's,
// and the reverse) decides c's URL otherwise.
func (x *explainer) compareModes(c checked) {
	label := "RFC 9309"
	if x.mode == robotstxt.ModeRFC9309 {
		label = "Google"
	}
	o, err := x.other.Check(context.Background(), c.t.sent())
	if err != nil || sameVerdict(o, c.d) && o.Usage == c.d.Usage {
		x.field(label, "reads it the same way")
		return
	}
	rfc := o // RFC 9309's decision
	if x.mode == robotstxt.ModeRFC9309 {
		rfc = c.d
	}
	served := c.d.Served // the path Google's reading disallows, if a served form
	if served == "" {
		served = o.Served
	}
	if sameVerdict(o, c.d) {
		// Only the usage preferences differ.
		x.field(label, "%s, but usage %s", verdictOf(o.Allowed).word(), usageText(o.Usage.Pref))
	} else {
		x.field(label, "%s (%s)", verdictOf(o.Allowed).word(), checked{d: o, p: c.p}.reason())
	}
	switch {
	case rfc.Allowed && !decided(rfc.Rule) && (isRobotsPath(matchPath(c.t.sent(), robotstxt.ModeRFC9309)) ||
		served != "" && isRobotsPath(matchPath("http://h"+served, robotstxt.ModeRFC9309))):
		x.more("RFC 9309 always allows /robots.txt; Google's parser matches it like any path")
	default:
		path := served // the path Google's reading decided by
		if path == "" {
			path = matchPath(clientEscaped(c.t.sent()), robotstxt.ModeGoogle)
		}
		if why := rfcReading(path, c.p.lines.directive(c.d.Rule.Line), c.p.lines.directive(o.Rule.Line)); why != "" {
			x.more("%s", why)
			x.more("before it compares rules and paths; Google's parser compares them as written")
		}
	}
}

// rfcReading says why RFC 9309 reads path, as Google's parser spells it,
// and rules, as written, otherwise than Google's parser: it decodes the
// escapes of letters, digits and -._~; it upper-cases the hex digits of
// the path's other escapes (Google's parser those of rules only); it matches a path's '*' and '$'
// as %2A and %24, a reason when the path has them and no rule is given
// or one writes %2A or %24; and it reads a rule's '$' before its end as
// %24, three bytes in precedence (see robotstxt.ModeRFC9309), a reason
// when no escape decodes; "" when none of those is why (a Content-Usage
// rule's, which rules does not hold).
func rfcReading(path string, rules ...string) string {
	specials := strings.NewReplacer("*", "%2A", "$", "%24")
	coded := specials.Replace(path)
	decodes, special, dollar := matcher.UnescapePath(path) != upperEscapes(coded), len(rules) == 0, false
	for _, r := range rules {
		r = upperEscapes(r) // as Google's parser reads a rule
		decodes = decodes || matcher.UnescapePath(r) != specials.Replace(r)
		special = special || strings.Contains(r, "%2A") || strings.Contains(r, "%24")
		r = strings.TrimRight(r, " \t")
		dollar = dollar || strings.Contains(strings.TrimSuffix(r, "$"), "$")
	}
	var why []string
	if decodes {
		why = append(why, "decodes %-escaped letters, digits and -._~, as %7E to ~")
	}
	if upperEscapes(path) != path {
		why = append(why, "upper-cases the hex digits of the path's escapes, as %2a to %2A")
	}
	if special && coded != path {
		why = append(why, "reads * and $ in the path as %2A and %24")
	}
	if dollar && !decodes {
		why = append(why, "reads a rule's $ before its end as %24, three bytes in precedence")
	}
	if len(why) == 0 {
		return ""
	}
	return "RFC 9309 " + strings.Join(why, ", and ")
}

// upperEscapes returns s with the hex digits of its %-escapes
// upper-cased.
func upperEscapes(s string) string {
	const hex = "0123456789abcdefABCDEF"
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' && strings.IndexByte(hex, b[i+1]) >= 0 && strings.IndexByte(hex, b[i+2]) >= 0 {
			copy(b[i+1:], strings.ToUpper(s[i+1:i+3]))
		}
	}
	return string(b)
}

// sameVerdict reports whether a and b decide alike, by the rule on the
// same line or both by none (line 0).
func sameVerdict(a, b robotstxt.Decision) bool {
	return a.Allowed == b.Allowed && a.Rule.Line == b.Rule.Line
}

// appendOnce appends i to s unless s already ends with it.
func appendOnce(s []int, i int) []int {
	if len(s) > 0 && s[len(s)-1] == i {
		return s
	}
	return append(s, i)
}
