package main

import (
	"fmt"

	"github.com/robotsgate/robotstxt"
)

// ruleText describes the deciding rule as "line 7: Disallow: /private/",
// or "no rule matched" when r is nil.
func ruleText(r *robotstxt.Rule) string {
	if r == nil {
		return "no rule matched"
	}
	kind := "Disallow"
	if r.Allow {
		kind = "Allow"
	}
	return fmt.Sprintf("line %d: %s: %s", r.Line, kind, r.Pattern)
}

// decisionWord is ALLOW or DISALLOW.
func decisionWord(allowed bool) string {
	if allowed {
		return "ALLOW"
	}
	return "DISALLOW"
}
