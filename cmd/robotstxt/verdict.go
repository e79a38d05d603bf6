package main

import (
	"fmt"
	"strings"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/usage"
)

// A verdict is what check, test and explain answer for a URL.
type verdict uint8

// The verdicts.
const (
	verdictAllowed    verdict = iota // the crawler may fetch the URL
	verdictDisallowed                // it may not
	verdictDeferred                  // robots.txt is unreachable: come back later
)

// verdictOf returns the verdict of a decision: allowed or disallowed.
func verdictOf(allowed bool) verdict {
	if allowed {
		return verdictAllowed
	}
	return verdictDisallowed
}

// word returns the verdict as the text output prints it: ALLOW, DISALLOW
// or DEFER.
func (v verdict) word() string {
	switch v {
	case verdictAllowed:
		return "ALLOW"
	case verdictDisallowed:
		return "DISALLOW"
	}
	return "DEFER"
}

// MarshalText writes the verdict as -json does: allowed, disallowed or
// deferred.
func (v verdict) MarshalText() ([]byte, error) {
	switch v {
	case verdictAllowed:
		return []byte("allowed"), nil
	case verdictDisallowed:
		return []byte("disallowed"), nil
	}
	return []byte("deferred"), nil
}

// A urlResult is what check, test and explain print with -json for one
// URL, as one line of JSON (see urlJSONHelp).
type urlResult struct {
	URL     string            `json:"url"`
	Agent   string            `json:"agent"`
	Verdict verdict           `json:"verdict"`
	Rule    *ruleResult       `json:"rule"`
	Usage   map[string]string `json:"usage"`
	Status  int               `json:"status,omitempty"`
	Detail  string            `json:"detail"`
}

// A ruleResult is an Allow or Disallow rule in -json output: its line,
// its kind, its pattern as matched and its line as written.
type ruleResult struct {
	Line    int    `json:"line"`
	Kind    string `json:"kind"`
	Pattern string `json:"pattern"`
	Text    string `json:"text"`
}

// newRuleResult returns the -json form of r, whose line l holds; nil
// when no rule decided (see decided).
func newRuleResult(r robotstxt.Rule, l listing) *ruleResult {
	if !decided(r) {
		return nil
	}
	return &ruleResult{Line: r.Line, Kind: strings.ToLower(kindWord(r.Allow)), Pattern: r.Pattern, Text: writtenRule(r, l)}
}

// documentResult returns what document d says of t for agent, as test
// and explain give it: p is d parsed, nil when d has no body to parse.
// For such a d the urlResult is the fallback's, with its detail; else it
// has the verdict, rule and usage of p's Decision, also returned, and the
// caller writes its detail.
func documentResult(d *document, p *parsed, agent string, t target) (urlResult, robotstxt.Decision) {
	res := urlResult{URL: t.arg, Agent: agent, Usage: map[string]string{}}
	if d.live != nil {
		res.Status = d.live.d.Status
	}
	if p == nil {
		res.Verdict, res.Detail = d.live.fallback()
		return res, robotstxt.Decision{}
	}
	v := p.robots.Check(agent, t.checkURL())
	res.Verdict, res.Rule, res.Usage = verdictOf(v.Allowed), newRuleResult(v.Rule, p.lines), usageJSON(v.Usage)
	return res, v
}

// usageJSON is the "usage" of -json output: the preferences u states
// that a crawler reads (see statedPrefs), "y" or "n" by label.
func usageJSON(u robotstxt.Usage) map[string]string {
	m := make(map[string]string)
	for _, p := range statedPrefs(u.Pref) {
		m[p.label] = p.pref.String()
	}
	return m
}

// urlJSONHelp is the help of check's, test's and explain's -json.
var urlJSONHelp = fmt.Sprintf(`With -json, each URL gives one JSON object on one line:
  {"url": "/private/x", "agent": "robotstxt", "verdict": "disallowed",
   "rule": {"line": 7, "kind": "disallow", "pattern": "/private/",
     "text": "Disallow: /private/"},
   "usage": {"train-ai": "n"}, "status": 200, "detail": "…"}
verdict is allowed, disallowed or deferred (robots.txt unreachable);
rule is the deciding Allow or Disallow rule, its pattern as matched and
its line as written, or null when no rule decided; status is the HTTP
status of the robots.txt, absent for a file or when no response
arrived; detail is what the text output says in parentheses; usage
holds, for a URL the crawler may fetch, the preferences y or n that
Content-Usage rules and Content-Signal records state for the
vocabulary's labels, %s.
Control and bidi characters in strings are JSON escapes such as \u001b.`, andList(usage.Labels[:]))
