package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/robotsgate/robotstxt"
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

// verdictWords are the words of each verdict: as the text output prints
// it and as -json writes it.
var verdictWords = [...][2]string{
	verdictAllowed:    {"ALLOW", "allowed"},
	verdictDisallowed: {"DISALLOW", "disallowed"},
	verdictDeferred:   {"DEFER", "deferred"},
}

// word returns the verdict as the text output prints it: ALLOW, DISALLOW
// or DEFER.
func (v verdict) word() string { return verdictWords[v][0] }

// MarshalText writes the verdict as -json does: allowed, disallowed or
// deferred.
func (v verdict) MarshalText() ([]byte, error) { return []byte(verdictWords[v][1]), nil }

// A urlResult is what check, test and explain print with -json for one
// URL, as one line of JSON (see urlJSONHelp).
type urlResult struct {
	URL     string            `json:"url"`
	Agent   string            `json:"agent"`
	Verdict verdict           `json:"verdict"`
	Rule    *ruleResult       `json:"rule"`
	Served  string            `json:"served,omitempty"`
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

// usageJSON is the "usage" of -json output: the preferences pref, the
// Pref method of a Usage, states that a crawler reads (see statedPrefs),
// "y" or "n" by label.
func usageJSON(pref func(label string) robotstxt.Pref) map[string]string {
	m := make(map[string]string)
	for _, p := range statedPrefs(pref) {
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
its line as written (cut to 160 bytes, ending in …, when longer), or
null when no rule decided; served is the path
and query a server would serve for the URL when that, not the URL as
written, is what robots.txt disallows (/private/x for /a/../private/x),
absent otherwise; status is the HTTP status of the robots.txt, absent
for a file or when no response arrived; detail is what the text output
says in parentheses; usage holds, for a URL the crawler may fetch, the
preferences y or n that Content-Usage rules and Content-Signal records
state for the labels crawlers read, %s.
Control and bidi characters in strings are JSON escapes such as \u001b.`, andList(labels))

// A checked is what a command found for one URL: the Client's decision,
// the error of its check (a deferral), and the robots.txt the decision
// rests on, parsed, when the Client read rules from it.
type checked struct {
	t   target
	d   robotstxt.Decision
	err error
	p   *parsed
	led string // where the URL redirected, which d disallows or defers; "" for the URL itself (check)
}

// lines returns the lines of the robots.txt as written, none without one.
func (c checked) lines() listing {
	if c.p == nil {
		return listing{}
	}
	return c.p.lines
}

// verdict returns the verdict of the check.
func (c checked) verdict() verdict {
	if c.err != nil || c.d.Deferred {
		return verdictDeferred
	}
	return verdictOf(c.d.Allowed)
}

// result returns the -json form of c for agent, with the usage pref
// states and the detail the text output gives (see detail).
func (c checked) result(agent string, pref func(label string) robotstxt.Pref, withStatus bool) urlResult {
	return urlResult{URL: c.t.shown, Agent: agent, Verdict: c.verdict(), Rule: newRuleResult(c.d.Rule, c.lines()),
		Served: c.d.Served, Usage: usageJSON(pref), Status: c.d.Status, Detail: c.detail(withStatus)}
}

// detail is what the text output says of c in parentheses: why (see
// reason), after the status of the robots.txt when withStatus is set and
// where the URL redirected when c is of that, and whether the answer is
// stale.
func (c checked) detail(withStatus bool) string {
	s := c.reason()
	if withStatus {
		status := "no response"
		if c.d.Status != 0 {
			status = fmt.Sprintf("status %d", c.d.Status)
		}
		s = status + "; " + s
	}
	if c.led != "" {
		s = "redirected to " + c.led + "; " + s
	}
	if c.d.Stale {
		s += "; stale copy"
	}
	return s
}

// reason says why the decision is what it is: the deciding rule as
// written, and the path a server serves for the URL when that is what the
// rule disallows; or why no rule decides.
func (c checked) reason() string {
	var de *robotstxt.DeferredError
	switch d := c.d; {
	case errors.As(c.err, &de):
		return "robots.txt unreachable: " + cause(de.Status, de.Err) + "; retry after " + de.RetryAt.UTC().Format(time.RFC3339)
	case c.err != nil:
		return "deferred: " + errText(c.err)
	case d.Outcome == robotstxt.OutcomeAllowAll && d.Err != nil:
		return errText(d.Err) + ": allow all"
	case d.Outcome == robotstxt.OutcomeAllowAll:
		return "no robots.txt: allow all"
	case d.Outcome == robotstxt.OutcomeDisallowAll:
		return "robots.txt forbidden: disallow all"
	case unchecked(d):
		return uncheckedText
	case d.Served != "":
		return "served as " + d.Served + "; " + ruleText(d.Rule, c.lines())
	}
	return ruleText(c.d.Rule, c.lines())
}
