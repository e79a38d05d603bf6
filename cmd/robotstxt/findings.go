package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/matcher"
	"github.com/robotsgate/robotstxt/parser"
)

// A severity ranks a finding.
type severity int

// The severities, least first.
const (
	sevInfo    severity = iota // tolerated or odd, but read as meant
	sevWarning                 // likely a mistake, or read by some crawlers only
	sevError                   // changes what crawlers do, or will surprise the owner
)

// String returns "info", "warning" or "error".
func (s severity) String() string {
	switch s {
	case sevError:
		return "error"
	case sevWarning:
		return "warning"
	}
	return "info"
}

// MarshalText writes the severity as its name, for -json.
func (s severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// parseSeverity reads a -level value.
func parseSeverity(s string) (severity, error) {
	for _, v := range []severity{sevInfo, sevWarning, sevError} {
		if s == v.String() {
			return v, nil
		}
	}
	return 0, fmt.Errorf("-level %q: want error, warning or info", s)
}

// The codes of lint findings: stable names for scripts. severityOf gives
// each its severity.
const (
	codeNotRobots        = "not-robots-txt"
	codeOverLimit        = "over-limit"
	codeOverLimitNoRules = "over-limit-no-rules"
	codeOutsideGroup     = "rule-outside-group"
	codeAgentCut         = "agent-cut"
	codeAgentNoToken     = "agent-no-token"
	codeNoSlash          = "no-leading-slash"
	codeShadowed         = "shadowed-rule"
	codeDirectiveLost    = "directive-skipped"
	codeKeyTypo          = "key-typo"
	codeSitemapRelative  = "sitemap-relative"
	codeCrawlDelay       = "crawl-delay"
	codeUnsupported      = "unsupported-rule"
	codeDuplicate        = "duplicate-rule"
	codeBadValue         = "bad-value"
	codeNoRules          = "agent-without-rules"
	codeUTF16            = "utf-16"
	codeLineTooLong      = "line-too-long"
	codeNUL              = "nul-byte"
	codeInvalidUTF8      = "invalid-utf8"
	codeNoDirectives     = "no-directives"
	codeUnknownKey       = "unknown-key"
	codeMisspeltKey      = "misspelt-key"
	codeMissingColon     = "missing-colon"
	codeAgentToken       = "agent-token"
	codeNotDirective     = "not-a-directive"
	codeCharset          = "charset"
	codeDisallowAll      = "disallow-all"
	codeParser           = "parser"
	codeTooMany          = "too-many-findings"
	codeUnknownDropped   = "unknown-records-dropped"
)

// severityOf returns the severity of a finding code. An error changes
// what crawlers do or will surprise the file's owner; a warning is likely
// a mistake, or concerns some crawlers only; an info is tolerated.
func severityOf(code string) severity {
	switch code {
	case codeNotRobots: // an HTML page or error body: the site has no robots.txt in effect
		return sevError
	case codeOverLimit: // rules past 500 KiB: no crawler reads them
		return sevError
	case codeOutsideGroup: // a rule before any user-agent line: no crawler obeys it
		return sevError
	case codeAgentCut: // MJ12bot is read as MJ: the group names another crawler than written
		return sevError
	case codeAgentNoToken: // "360Spider" has no token: its group applies to no crawler
		return sevError
	case codeNoSlash: // "Disallow: private" matches no URL: the rule does nothing
		return sevError
	case codeShadowed: // another rule always wins over it: the rule can never decide
		return sevError
	case codeDirectiveLost: // "Disallow /a /b" is no key-value line: a rule the owner wrote is skipped
		return sevError
	case codeKeyTypo: // an unknown key close to a known one: likely a mistake, the line is ignored
		return sevWarning
	case codeSitemapRelative: // not an absolute http(s) URL: crawlers skip the sitemap
		return sevWarning
	case codeCrawlDelay: // Google ignores Crawl-delay; Bing and Yandex read it
		return sevWarning
	case codeUnsupported: // Noindex, Nofollow, Noarchive: no major crawler reads them in robots.txt
		return sevWarning
	case codeDuplicate: // the same rule twice: harmless, but a sign of a stale edit
		return sevWarning
	case codeBadValue: // a crawl-delay that does not parse: crawlers that read the key skip it
		return sevWarning
	case codeNoRules: // a named group without rules frees its crawler from the * rules: often unmeant
		return sevWarning
	case codeUTF16: // Google reads robots.txt as UTF-8; many tools cannot read UTF-16
		return sevWarning
	case codeLineTooLong: // a line cut at 16,663 bytes: a cut rule matches more than written
		return sevWarning
	case codeNUL: // a NUL byte ends its line: the rest of the line is lost
		return sevWarning
	case codeInvalidUTF8: // declared UTF-8 but is not: non-ASCII rules may not match
		return sevWarning
	case codeNoDirectives: // "Not Found" served as robots.txt: allows everything, as no file does
		return sevWarning
	case codeOverLimitNoRules: // over 500 KiB, but only comments or records past it: nothing lost yet
		return sevWarning
	}
	// unknown-key, misspelt-key, missing-colon, agent-token,
	// not-a-directive, charset, disallow-all, parser, too-many-findings
	// (the parser stops reporting after parser.MaxDiagnostics lines) and
	// unknown-records-dropped (records no crawler is known to read): read
	// as meant, or worth knowing but harmless.
	return sevInfo
}

// A finding is one thing lint reports about a file. Line 0 is about the
// whole file.
type finding struct {
	Line     int      `json:"line"`
	Severity severity `json:"severity"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`
	Text     string   `json:"text"`
}

// A linter collects the findings of one document.
type linter struct {
	doc      *document
	mode     robotstxt.Mode
	text     []byte
	lines    listing
	file     *parser.File
	findings []finding
}

// lintDocument returns the findings for d read in mode, in line order.
func lintDocument(d *document, mode robotstxt.Mode) []finding {
	lt := &linter{doc: d, mode: mode, text: d.body.Text, lines: newListing(d.body.Text)}
	lt.file = parser.Parser{RFC9309: mode == robotstxt.ModeRFC9309}.Parse(lt.text)
	switch {
	case lt.notRobots():
	case lt.noDirectives():
	default:
		lt.overLimit()
		lt.charset()
		lt.diagnostics()
		lt.records()
		lt.groups()
	}
	slices.SortStableFunc(lt.findings, func(a, b finding) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return int(b.Severity - a.Severity)
	})
	return lt.findings
}

// add records a finding on line n, whose text is the line as written.
func (lt *linter) add(n int, code, format string, args ...any) {
	lt.findings = append(lt.findings, finding{
		Line: n, Severity: severityOf(code), Code: code,
		Message: fmt.Sprintf(format, args...), Text: lt.lines.text(n),
	})
}

// rules counts the rules of a parsed file.
func rules(f *parser.File) int {
	n := 0
	for _, g := range f.Groups {
		n += len(g.Rules)
	}
	return n
}

// notRobots reports, as one finding, a body that is not a robots.txt at
// all: its lines are not worth one finding each.
func (lt *linter) notRobots() bool {
	kind := bodyKind(lt.text, rules(lt.file) > 0)
	if kind == "" {
		return false
	}
	msg := "this is not a robots.txt but " + kind + "; crawlers read it as text"
	if n := rules(lt.file); n > 0 {
		msg += fmt.Sprintf(" and obey the %s they find in it", plural(n, "rule"))
	} else {
		msg += " and find no rule: everything is allowed"
	}
	lt.findings = append(lt.findings, finding{Severity: severityOf(codeNotRobots), Code: codeNotRobots, Message: msg})
	return true
}

// bodyKind names what a body that is not a robots.txt is ("an HTML
// page", "a binary file", …), or returns "". A body with rules is not
// taken for a binary file for its control bytes: they cut lines, and
// are reported one by one.
func bodyKind(text []byte, hasRules bool) string {
	t := bytes.TrimLeft(text, " \t\r\n\f\v\ufeff")
	t = bytes.TrimPrefix(t, []byte("\ufeff"))
	head := bytes.ToLower(t[:min(len(t), 4096)])
	controls := 0
	for _, c := range head {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' {
			controls++
		}
	}
	switch {
	case len(head) > 0 && controls*16 > len(head) && !hasRules:
		return "a binary file"
	case bytes.HasPrefix(head, []byte("<")) && hasAny(head, "<!doctype html", "<html", "<head", "<body"):
		return "an HTML page"
	case bytes.HasPrefix(head, []byte("<?xml")), bytes.HasPrefix(head, []byte("<")) && !hasRules:
		return "an XML document"
	case (bytes.HasPrefix(t, []byte("{")) || bytes.HasPrefix(t, []byte("["))) && json.Valid(t):
		return "a JSON document"
	}
	return ""
}

// hasAny reports whether s holds any of the subs.
func hasAny(s []byte, subs ...string) bool {
	for _, sub := range subs {
		if bytes.Contains(s, []byte(sub)) {
			return true
		}
	}
	return false
}

// noDirectives reports, as one finding, text with lines but no
// robots.txt record at all, such as a "Not Found" page served as
// robots.txt: no group, no sitemap, no extension a crawler knows.
func (lt *linter) noDirectives() bool {
	f := lt.file
	if len(f.Groups) > 0 || len(f.Sitemaps) > 0 {
		return false
	}
	unknown := make(map[int]bool)
	first := 0
	for _, dg := range f.Diagnostics {
		switch dg.Kind {
		case parser.UnknownKey:
			unknown[dg.Line] = true
			fallthrough
		case parser.NoKey, parser.RuleOutsideGroup:
			if first == 0 {
				first = dg.Line
			}
		}
	}
	for _, r := range f.Extensions {
		if !unknown[r.Line] {
			return false // a record some crawler reads
		}
	}
	if first == 0 {
		return false // empty, or comments only: a valid file that allows all
	}
	lt.add(first, codeNoDirectives, "no robots.txt line in this body: it allows everything, as no robots.txt does")
	return true
}

// overLimit reports a body longer than the 500 KiB crawlers read: an
// error when rules are past the limit.
func (lt *linter) overLimit() {
	d := lt.doc
	if !d.body.Truncated {
		return
	}
	whole := parser.Parser{RFC9309: lt.mode == robotstxt.ModeRFC9309}.Parse(d.whole.Text)
	// The cut text ends with a line end, so its last (empty) line is
	// the first one crawlers do not read.
	first := lt.lines.len()
	if t := lt.text; len(t) > 0 && t[len(t)-1] != '\n' && t[len(t)-1] != '\r' {
		first++ // a cut line too long to keep whole was kept
	}
	past, firstPast := 0, 0
	for _, g := range whole.Groups {
		for _, r := range g.Rules {
			if r.Line >= first {
				past++
				if firstPast == 0 {
					firstPast = r.Line
				}
			}
		}
	}
	size := fmt.Sprintf("the file is %s; crawlers read the first %s (to line %d)",
		kib(len(d.whole.Text)), kib(robotstxt.DefaultBodyLimit), first-1)
	if past == 0 {
		lt.add(first, codeOverLimitNoRules, "%s; no rule is past it", size)
		return
	}
	wl := newListing(d.whole.Text)
	lt.findings = append(lt.findings, finding{
		Line: firstPast, Severity: severityOf(codeOverLimit), Code: codeOverLimit, Text: wl.text(firstPast),
		Message: fmt.Sprintf("%s: %s from this line on are never read", size, plural(past, "rule")),
	})
}

// charset reports a body that is not UTF-8.
func (lt *linter) charset() {
	switch cs := lt.doc.body.Charset; {
	case strings.HasPrefix(cs, "utf-16"):
		lt.add(0, codeUTF16, "the file is %s: Google reads robots.txt as UTF-8, and many tools cannot read UTF-16; save it as UTF-8", strings.ToUpper(cs))
	case cs != "utf-8" && cs != "":
		lt.add(0, codeCharset, "the file is not UTF-8; it is read as %s, so non-ASCII characters in rules match their UTF-8 form in URLs", cs)
	}
}

// diagnostics turns the parser's diagnostics into findings.
func (lt *linter) diagnostics() {
	var agents map[int]parser.UserAgent // by line, made for the first cut agent
	for _, dg := range lt.file.Diagnostics {
		switch dg.Kind {
		case parser.NoKey:
			if k := directiveWord(lt.lines.text(dg.Line)); k != "" {
				lt.add(dg.Line, codeDirectiveLost, "looks like a %s line but is not \"key: value\": crawlers skip it", k)
			} else {
				lt.add(dg.Line, codeNotDirective, "not a robots.txt line: skipped")
			}
		case parser.UnknownKey:
			if want := nearKey(dg.Text); want != "" {
				lt.add(dg.Line, codeKeyTypo, "unknown key %q, perhaps %s: crawlers ignore the line", dg.Text, want)
			} else {
				lt.add(dg.Line, codeUnknownKey, "key %q is not read by major crawlers", dg.Text)
			}
		case parser.RuleOutsideGroup:
			lt.add(dg.Line, codeOutsideGroup, "rule before any user-agent line: no crawler obeys it")
		case parser.MissingColon:
			lt.add(dg.Line, codeMissingColon, "no colon after the key; read as if there were one")
		case parser.MisspeltKey:
			lt.add(dg.Line, codeMisspeltKey, "misspelt key %q; read as meant, as Google does", dg.Text)
		case parser.LineTooLong:
			lt.add(dg.Line, codeLineTooLong, "line over %d bytes: the rest is dropped", parser.MaxLineLength)
		case parser.NULByte:
			lt.add(dg.Line, codeNUL, "a NUL byte ends the line: the rest of it is dropped")
		case parser.InvalidUTF8:
			lt.add(dg.Line, codeInvalidUTF8, "the line is not valid UTF-8")
		case parser.AgentCut:
			if agents == nil {
				agents = agentsByLine(lt.file)
			}
			lt.agentCut(agents[dg.Line])
		case parser.EmptyAgent:
			lt.add(dg.Line, codeAgentNoToken, "user-agent %q has no product token (letters, - and _): its group applies to no crawler", dg.Text)
		case parser.NoLeadingSlash:
			lt.add(dg.Line, codeNoSlash, "pattern %q starts with neither / nor *: it matches no URL", dg.Text)
		case parser.BadValue:
			lt.add(dg.Line, codeBadValue, "value %q does not parse: crawlers that read the key skip it", dg.Text)
		case parser.TooManyDiagnostics:
			lt.add(dg.Line, codeTooMany, "over %d lines the parser skipped, tolerated or cut: %s more from this line on are not reported", parser.MaxDiagnostics, dg.Text)
		case parser.UnknownRecordsDropped:
			lt.add(dg.Line, codeUnknownDropped, "over %d records with unknown keys: %s more from this line on are dropped (no major crawler reads them)", parser.MaxUnknownRecords, dg.Text)
		default:
			lt.add(dg.Line, codeParser, "%s", dg.Kind)
		}
	}
}

// agentCut reports a user-agent value that the parser cut to its product
// token: an error when the token stops inside a word (MJ12bot is MJ),
// information when a version or comment is dropped (Googlebot/2.1 is
// Googlebot).
func (lt *linter) agentCut(a parser.UserAgent) {
	switch a.Value[len(a.Token)] {
	case ' ', '\t', '/', '(', ';', ',', '+', '*':
		lt.add(a.Line, codeAgentToken, "user-agent %q is read as %s", a.Value, a.Token)
	default:
		lt.add(a.Line, codeAgentCut, "user-agent %q is read as %s, which names another crawler: a token has only letters, - and _", a.Value, a.Token)
	}
}

// agentsByLine returns the user-agent lines of f by line number.
func agentsByLine(f *parser.File) map[int]parser.UserAgent {
	m := make(map[int]parser.UserAgent)
	for _, g := range f.Groups {
		for _, a := range g.Agents {
			m[a.Line] = a
		}
	}
	return m
}

// directiveWord returns the directive that a skipped line starts with,
// such as "Disallow", or "".
func directiveWord(line string) string {
	word, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	w := strings.ToLower(strings.TrimRight(word, ":"))
	for _, k := range []string{"user-agent", "allow", "disallow", "sitemap"} {
		if w == k {
			return word
		}
	}
	return ""
}

// nearKey returns the known key that an unknown key is most likely a typo
// of, or "".
func nearKey(key string) string {
	key = strings.ToLower(key)
	for _, k := range []string{"user-agent", "disallow", "allow", "sitemap", "crawl-delay"} {
		limit := 2
		if len(k) <= 5 {
			limit = 1
		}
		if editDistance(key, k) <= limit {
			return k
		}
	}
	if strings.Contains(key, "agent") {
		return "user-agent"
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// records reports Crawl-delay (once), unsupported rules and sitemaps that
// are not absolute URLs.
func (lt *linter) records() {
	f := lt.file
	all := slices.Clone(f.Extensions)
	for _, g := range f.Groups {
		all = append(all, g.Extensions...)
	}
	slices.SortFunc(all, func(a, b parser.Record) int { return a.Line - b.Line })
	delays, firstDelay := 0, 0
	for _, r := range all {
		switch r.Key {
		case "crawl-delay":
			if delays++; delays == 1 {
				firstDelay = r.Line
			}
		case "noindex", "nofollow", "noarchive":
			lt.add(r.Line, codeUnsupported, "no major crawler reads %s in robots.txt (Google stopped in 2019): use a robots meta tag or X-Robots-Tag", r.Key)
		}
	}
	if delays > 0 {
		lt.add(firstDelay, codeCrawlDelay, "Google ignores Crawl-delay (%s in this file); Bing and Yandex read it", plural(delays, "line"))
	}
	for _, s := range f.Sitemaps {
		u, err := url.Parse(s.Value)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			lt.add(s.Line, codeSitemapRelative, "sitemap %q is not an absolute http or https URL: crawlers skip it", s.Value)
		}
	}
}

// groups reports, per crawler, rules that can never decide, rules given
// twice, named groups without rules and a * group that disallows
// everything.
func (lt *linter) groups() {
	f := lt.file
	sets, global := ruleSets(f)
	// A rule is reported when it is shadowed (or repeated) for every
	// crawler whose rules hold it.
	in := make(map[int]int) // group → number of sets holding it
	for _, s := range sets {
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
			if len(b.Pattern) == len(r.Pattern) {
				why = "allow wins a tie"
			}
			lt.add(r.Line, codeShadowed, "never decides: line %d (%s) matches every URL this rule matches and takes precedence (%s)",
				b.Line, writtenRule(*b, lt.lines), why)
		} else if by := dups[ref]; len(by) == in[ref.group] {
			lt.add(r.Line, codeDuplicate, "the same rule as line %d", by[0].Line)
		}
	}
	lt.emptyGroups(sets, global)
}

// emptyGroups reports named groups without rules when the * group has
// rules, and a * group that disallows everything.
func (lt *linter) emptyGroups(sets [][]int, global []int) {
	f := lt.file
	globalRules := 0
	for _, gi := range global {
		globalRules += len(f.Groups[gi].Rules)
	}
	for _, s := range sets {
		if slices.Equal(s, global) {
			continue
		}
		n := 0
		for _, gi := range s {
			n += len(f.Groups[gi].Rules)
		}
		if n == 0 && globalRules > 0 {
			g := f.Groups[s[0]]
			line := g.Agents[0].Line
			for _, a := range g.Agents {
				if !a.Global && a.Token != "" {
					line = a.Line
					break
				}
			}
			lt.add(line, codeNoRules, "this group has no rules: the crawler it names may fetch everything, and the * rules do not apply to it")
		}
	}
	if len(global) == 0 {
		return
	}
	// The first of the matching rules, in order of precedence, decides.
	if ms := matches(f, global, "/"); len(ms) > 0 && !ms[0].rule.Allow {
		lt.add(ms[0].rule.Line, codeDisallowAll, "every crawler without a group of its own is disallowed the whole site")
	}
}

// A ruleRef names a rule by its group and its index in the group.
type ruleRef struct{ group, rule int }

// ruleSets returns the sets of groups whose rules one crawler obeys
// together: the * groups, and for each product token the file names, the
// groups that name it. global is the * set, nil when there is none.
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
	if global != nil {
		sets = append(sets, global)
	}
	for _, k := range tokens {
		sets = append(sets, byToken[k])
	}
	return sets, global
}

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
// path A matches and takes precedence: B has A's pattern and is an allow
// (allow wins a tie), or B is a plain prefix (a literal and trailing
// '*'s) of the literal that A's paths start with, and B is longer, or as
// long and an allow.
func findShadows(f *parser.File, set []int, shadows, dups map[ruleRef][]*parser.Rule) {
	byPattern := make(map[string]*kinds) // the first rule of each kind
	prefixes := make(map[string]*kinds)  // by literal: the longest plain prefix of each kind
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
			lit, stars, ok := plainPrefix(r.Pattern)
			if !ok {
				continue
			}
			maxStars = max(maxStars, stars)
			p := prefixes[lit]
			if p == nil {
				p = &kinds{}
				prefixes[lit] = p
			}
			if b := p.of(r.Allow); *b == nil || len(r.Pattern) > len((*b).Pattern) {
				*b = r
			}
		}
	}
	for _, gi := range set {
		for i := range f.Groups[gi].Rules {
			r := &f.Groups[gi].Rules[i]
			if by := beater(r, byPattern, prefixes, maxStars); by != nil {
				shadows[ruleRef{gi, i}] = append(shadows[ruleRef{gi, i}], by)
			}
		}
	}
}

// beater returns a rule of the other kind than r that beats r wherever r
// matches, or nil.
func beater(r *parser.Rule, byPattern, prefixes map[string]*kinds, maxStars int) *parser.Rule {
	if r.Pattern == "" || r.Pattern[0] != '/' {
		return nil
	}
	if !r.Allow {
		if a := byPattern[r.Pattern].allow; a != nil {
			return a
		}
	}
	lit := literalStart(r)
	for k := len(lit); k >= 1 && k >= len(r.Pattern)-maxStars; k-- {
		p := prefixes[lit[:k]]
		if p == nil {
			continue
		}
		if b := *p.of(!r.Allow); b != nil && (len(b.Pattern) > len(r.Pattern) || len(b.Pattern) == len(r.Pattern) && b.Allow) {
			return b
		}
	}
	return nil
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
// (see matcher.Rule.Prefix).
func literalStart(r *parser.Rule) string {
	return matcher.NewRule(r.Pattern, 0, len(r.Pattern), r.Allow).Prefix(r.Pattern)
}

// plural formats "1 rule" or "3 rules".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
