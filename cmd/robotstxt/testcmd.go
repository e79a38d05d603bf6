package main

import (
	"fmt"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/matcher"
)

// runTest is "robotstxt test": it checks URLs against a local robots.txt,
// with no network, and prints one line per URL:
//
//	DISALLOW  /private/x  (line 7: Disallow: /private/)
//	ALLOW     /           (no rule matched)
func runTest(args []string, e env) int {
	fs := newFlags("test", "-file FILE [-agent TOKEN] [-rfc9309] URL...",
		"Check URLs or paths against a local robots.txt, offline.")
	file := fs.String("file", "", "robots.txt to read (\"-\" for standard input; required)")
	agent := fs.String("agent", defaultAgent, "crawler product token matched against user-agent lines")
	rfc := fs.Bool("rfc9309", false, "read the file as RFC 9309 strictly does instead of as Google's parser")
	if code, done := parseFlags(fs, args, e); done {
		return code
	}
	urls := fs.Args()
	switch {
	case *file == "":
		e.errorf("test: -file is required")
		return exitUsage
	case len(urls) == 0:
		e.errorf("test: no URL given")
		return exitUsage
	}
	tok, err := agentToken(*agent, e)
	if err != nil {
		e.errorf("test: %v", err)
		return exitUsage
	}
	body, err := readInput(*file, e)
	if err != nil {
		e.errorf("test: %v", err)
		return exitUsage
	}
	mode := robotstxt.ModeGoogle
	if *rfc {
		mode = robotstxt.ModeRFC9309
	}
	r := robotstxt.ParseMode(body, mode)
	width := columnWidth(urls)
	code := exitOK
	for _, u := range urls {
		// Escape as the Client does, so a URL typed with raw non-ASCII
		// characters matches the normalised rules.
		v := r.Check(tok, matcher.EscapePath(matcher.Path(u)))
		var rule *robotstxt.Rule
		if v.Matched() {
			rule = &v.Rule
		}
		fmt.Fprintf(e.stdout, "%-8s  %-*s  (%s)\n", decisionWord(v.Allowed), width, u, ruleText(rule))
		if !v.Allowed {
			code = worst(code, exitDisallowed)
		}
	}
	return code
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
