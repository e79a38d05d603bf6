package main

import "fmt"

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
