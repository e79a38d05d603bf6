package main

import (
	"fmt"
	"strings"
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

// A code names a kind of lint finding. Its name, severity and meaning
// are its entry in codeTable, the one list of codes: a finding can only
// name a code of the table, and a code has no severity but its entry's.
type code int

// The codes, in the order of codeTable.
const (
	codeNotRobots code = iota
	codeOverLimit
	codeOutsideGroup
	codeAgentCut
	codeAgentNoToken
	codeNoSlash
	codeShadowed
	codeDirectiveLost
	codeKeyIntoValue
	codeTwoPaths
	codeTwoAgents
	codeUsageSyntax
	codeUsageValue
	codeUsageRepeated
	codeLicenseRelative
	codeKeyTypo
	codeSitemapRelative
	codeCrawlDelay
	codeDelayClamped
	codeUnsupported
	codeDuplicate
	codeBadValue
	codeTwoWords
	codeNoRules
	codeUsageLabel
	codeUsageConflict
	codeUsageGroup
	codeJoinedGroup
	codeSignalValue
	codeTDMRep
	codeUTF16
	codeLineTooLong
	codeNUL
	codeInvalidUTF8
	codeNoDirectives
	codeOverLimitNoRules
	codeUnknownKey
	codeMisspeltKey
	codeMissingColon
	codeAgentToken
	codeNotDirective
	codeCharset
	codeDisallowAll
	codeTooMany
	codeUnknownDropped
	codeNotChecked
	numCodes // not a code: the size of codeTable
)

// A codeEntry is what codeTable holds of a code.
type codeEntry struct {
	name     string // stable, for scripts: -json's "code"
	severity severity
	about    string // what it finds and why it has its severity, for the help
}

// codeTable is the table of lint codes, listed by lint's help in this
// order. An error changes what crawlers do or will surprise the file's
// owner; a warning is likely a mistake, or concerns some crawlers only;
// an info is read as meant, or worth knowing but harmless.
var codeTable = [numCodes]codeEntry{
	codeNotRobots:        {"not-robots-txt", sevError, "an HTML page or other body served as robots.txt"},
	codeOverLimit:        {"over-limit", sevError, "rules or other records past the 500 KiB crawlers read, or a rest that does not decode or did not arrive: never obeyed"},
	codeOutsideGroup:     {"rule-outside-group", sevError, "a rule or Crawl-delay before any user-agent line: none obeys it"},
	codeAgentCut:         {"agent-cut", sevError, "a user-agent read as another crawler: MJ12bot is MJ"},
	codeAgentNoToken:     {"agent-no-token", sevError, "a user-agent naming no crawler, such as 360Spider"},
	codeNoSlash:          {"no-leading-slash", sevError, "a pattern that matches no URL: Disallow: private"},
	codeShadowed:         {"shadowed-rule", sevError, "a rule another rule always beats: it never decides"},
	codeDirectiveLost:    {"directive-skipped", sevError, "a rule crawlers skip, such as Disallow /a /b"},
	codeKeyIntoValue:     {"key-into-value", sevError, "a key run into its value, Disallow http://a.test/x or User-agent=a b: crawlers read another pattern or crawler"},
	codeTwoPaths:         {"two-paths", sevError, "a rule of two paths, Disallow: /a /b: one pattern with a blank, it matches neither"},
	codeTwoAgents:        {"two-agents", sevError, "a user-agent of two crawlers, User-agent: GPTBot, CCBot or GPTBot CCBot: the second gets no group"},
	codeUsageSyntax:      {"usage-syntax", sevError, "a Content-Usage statement that does not parse, or none: it states nothing"},
	codeUsageValue:       {"usage-value", sevError, "a usage preference other than y or n, such as train-ai=no: unknown"},
	codeUsageRepeated:    {"usage-repeated", sevError, "a label given n, then last another value in one Content-Usage statement: the last counts, the refusal is lost"},
	codeLicenseRelative:  {"license-relative", sevError, "an RSL License that is not an absolute http(s) URL: it names no licence"},
	codeKeyTypo:          {"key-typo", sevWarning, "an unknown key near a known one other than a rule or user-agent: the line is ignored"},
	codeSitemapRelative:  {"sitemap-relative", sevWarning, "a sitemap that is not an absolute http(s) URL"},
	codeCrawlDelay:       {"crawl-delay", sevWarning, "Crawl-delay, which Google ignores and Bing reads"},
	codeDelayClamped:     {"crawl-delay-clamped", sevWarning, "a Crawl-delay over a day, which the robotstxt Client reads as a day"},
	codeUnsupported:      {"unsupported-rule", sevWarning, "Noindex and the like, which no major crawler reads"},
	codeDuplicate:        {"duplicate-rule", sevWarning, "the same rule twice: harmless, but a stale edit"},
	codeBadValue:         {"bad-value", sevWarning, "a crawl-delay that does not parse: it is skipped"},
	codeTwoWords:         {"two-words", sevWarning, "a user-agent of a word and a crawler's name, OpenAI GPTBot: one crawler's, or the second gets no group"},
	codeNoRules:          {"agent-without-rules", sevWarning, "a group without rules frees its crawler from * rules"},
	codeUsageLabel:       {"usage-label", sevWarning, "a Content-Usage label other than " + orList(labels) + ": no crawler reads it"},
	codeUsageConflict:    {"usage-conflict", sevWarning, "Content-Usage rules of one path, one saying y and one n: n wins"},
	codeUsageGroup:       {"usage-group", sevWarning, "a user-agent line that joins the group of Content-Usage rules above"},
	codeJoinedGroup:      {"joined-group", sevWarning, "a user-agent line that joins the group above across a Crawl-delay, a Sitemap or another record"},
	codeSignalValue:      {"signal-value", sevWarning, "a Content-Signal pair that states nothing, or only its refusals, such as ai-train=nope"},
	codeTDMRep:           {"tdmrep-unreadable", sevWarning, "a tdmrep.json crawlers cannot read: they take every page as reserved"},
	codeUTF16:            {"utf-16", sevWarning, "UTF-16 or UTF-32, where Google reads robots.txt as UTF-8"},
	codeLineTooLong:      {"line-too-long", sevWarning, "a line too long, cut: a cut rule matches more"},
	codeNUL:              {"nul-byte", sevWarning, "a NUL byte, which ends its line"},
	codeInvalidUTF8:      {"invalid-utf8", sevWarning, "invalid UTF-8: non-ASCII rules may not match"},
	codeNoDirectives:     {"no-directives", sevWarning, "a body with no robots.txt line, such as Not Found"},
	codeOverLimitNoRules: {"over-limit-no-rules", sevWarning, "over 500 KiB, but with no rule or other record past the limit"},
	codeUnknownKey:       {"unknown-key", sevInfo, "a key major crawlers do not read, such as Robot-version"},
	codeMisspeltKey:      {"misspelt-key", sevInfo, "a misspelt key read as meant, such as dissallow"},
	codeMissingColon:     {"missing-colon", sevInfo, "a line without a colon, read as if it had one"},
	codeAgentToken:       {"agent-token", sevInfo, "a user-agent cut to its token: Googlebot/2.1"},
	codeNotDirective:     {"not-a-directive", sevInfo, "a line that is not a robots.txt line: skipped"},
	codeCharset:          {"charset", sevInfo, "not UTF-8: read as declared or as Windows-1252"},
	codeDisallowAll:      {"disallow-all", sevInfo, "the * group disallows the whole site, or all but what it allows"},
	codeTooMany:          {"too-many-findings", sevInfo, "past the parser's limit of findings, only errors are reported"},
	codeUnknownDropped:   {"unknown-records-dropped", sevInfo, "unknown records dropped past the parser's limit"},
	codeNotChecked:       {"not-checked", sevInfo, "crawlers whose rules lint did not check for shadowed or conflicting rules: past its budget"},
}

// entry returns c's entry in codeTable. It panics for a code without
// one, so that no finding goes out with a made-up severity.
func (c code) entry() codeEntry {
	if c < 0 || c >= numCodes || codeTable[c].name == "" {
		panic(fmt.Sprintf("lint code %d has no entry in codeTable", int(c)))
	}
	return codeTable[c]
}

// String returns the code's name, such as "shadowed-rule".
func (c code) String() string { return c.entry().name }

// severity returns the code's severity.
func (c code) severity() severity { return c.entry().severity }

// MarshalText writes the code as its name, for -json.
func (c code) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// codesHelp lists the codes of codeTable under their severities, most
// severe first, one "name  about" line each, for lint's help. As the help
// is made when the program starts, a code without an entry stops it.
func codesHelp() string {
	width := 0
	for c := range numCodes {
		width = max(width, len(c.entry().name))
	}
	var b strings.Builder
	for _, sev := range []severity{sevError, sevWarning, sevInfo} {
		name := sev.String()
		fmt.Fprintf(&b, "%s%ss:\n", strings.ToUpper(name[:1]), name[1:])
		for c := range numCodes {
			if e := c.entry(); e.severity == sev {
				fmt.Fprintf(&b, "  %-*s  %s\n", width, e.name, e.about)
			}
		}
	}
	return b.String()
}
