package main

import (
	"fmt"
	"io"

	"github.com/robotsgate/robotstxt"
)

// decided reports whether r, the Rule of a Decision, is a rule that
// decided: not the zero Rule, with line 0, of a Decision that no rule
// made.
func decided(r robotstxt.Rule) bool { return r.Line != 0 }

// unchecked reports whether d disallows by no rule: the forms servers
// may serve its path as cost past the Client's bound to check against a
// hostile file's rules, and it fails closed (see robotstxt.Decision.Rule).
func unchecked(d robotstxt.Decision) bool {
	return d.Outcome == robotstxt.OutcomeRules && !d.Allowed && !decided(d.Rule)
}

// uncheckedText says why an unchecked decision disallows.
const uncheckedText = "not checked: the forms servers may serve the path as cost past the Client's bound to check against these rules"

// ruleText describes the deciding rule as "line 7: Disallow: /private/",
// the rule as written in l, or "no rule matched" when none decided.
func ruleText(r robotstxt.Rule, l listing) string {
	if !decided(r) {
		return "no rule matched"
	}
	return fmt.Sprintf("line %d: %s", r.Line, writtenRule(r, l))
}

// writtenRule is the rule's line as written, "Disallow: /café", or its
// normalised form when the listing does not hold the line.
func writtenRule(r robotstxt.Rule, l listing) string {
	if w := l.directive(r.Line); w != "" {
		return w
	}
	return kindWord(r.Allow) + ": " + r.Pattern
}

// printDecision writes the line of one URL that check and test print,
//
//	DISALLOW  /private/x  (line 7: Disallow: /private/)
//
// with the URL in a column width bytes wide and the URL and the detail
// made printable.
func printDecision(w io.Writer, word string, width int, url, detail string) {
	fmt.Fprintf(w, "%-8s  %-*s  (%s)\n", word, width, printable(url), printable(detail))
}

// kindWord is Allow or Disallow.
func kindWord(allow bool) string {
	if allow {
		return "Allow"
	}
	return "Disallow"
}

// An expectation is the -expect flag: the decision every URL must get.
type expectation struct {
	set, allow bool
}

// parseExpectation reads "allow", "disallow" or "" (none).
func parseExpectation(s string) (expectation, error) {
	switch s {
	case "":
		return expectation{}, nil
	case "allow":
		return expectation{set: true, allow: true}, nil
	case "disallow":
		return expectation{set: true}, nil
	}
	return expectation{}, fmt.Errorf("-expect %q: want allow or disallow", s)
}

// judge returns the exit code of a verdict, and the note the text output
// adds to its detail: without an expectation, exitDisallowed for a
// disallowed URL and exitDeferred for a deferred one; with one,
// exitDisallowed and "; expected allow" (or disallow) for a verdict that
// does not meet it, as no deferral does.
func (x expectation) judge(v verdict) (code int, note string) {
	switch {
	case !x.set && v == verdictDeferred:
		return exitDeferred, ""
	case !x.set && v == verdictDisallowed:
		return exitDisallowed, ""
	case !x.set, v == verdictOf(x.allow):
		return exitOK, ""
	case x.allow:
		return exitDisallowed, "; expected allow"
	}
	return exitDisallowed, "; expected disallow"
}

// columnWidth is the width that aligns the given strings, capped so one
// long URL does not push every line far to the right.
func columnWidth(ss []string) int {
	w := 0
	for _, s := range ss {
		w = max(w, len(s))
	}
	return min(w, 60)
}

// modeOf returns the mode the -rfc9309 flag selects.
func modeOf(rfc bool) robotstxt.Mode {
	if rfc {
		return robotstxt.ModeRFC9309
	}
	return robotstxt.ModeGoogle
}
