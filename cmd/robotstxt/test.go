package main

import (
	"context"
)

// runTest is "robotstxt test": it checks URLs against a robots.txt read
// from a file, standard input or a URL, through the Client's body
// pipeline, and prints one line per URL:
//
//	DISALLOW  /private/x  (line 7: Disallow: /private/)
//	ALLOW     /           (no rule matched)
//
// and under an allowed URL the usage preferences of the crawler's
// Content-Usage rules and Content-Signal records, when it has any:
//
//	usage train-ai=n  (line 9: Content-Usage: train-ai=n)
//
// With -json it prints one urlResult per URL instead.
func runTest(cmd *command, args []string, e env) int {
	fs := newFlags(cmd)
	file := fs.String("file", "", "robots.txt to read: a file, \"-\" for standard input, or an http(s) URL (required)")
	agent := fs.String("agent", defaultAgent, "crawler product token matched against user-agent lines, or a User-Agent to take it from")
	rfc := fs.Bool("rfc9309", false, "read the file as RFC 9309 strictly does instead of as Google's parser")
	full := fs.Bool("full", false, "read the whole file, past the 500 KiB that crawlers read")
	expect := fs.String("expect", "", "allow or disallow: exit 0 only when every URL gets this decision, 1 otherwise")
	timeout := timeoutFlag(fs, "fetching a robots.txt given as a URL")
	asJSON := fs.Bool("json", false, "print one JSON object per URL")
	args, code, done := parseArgs(fs, args, e)
	if done {
		return code
	}
	switch {
	case *file == "":
		e.errorf("test: -file is required: a robots.txt file, \"-\" for standard input, or a URL")
		return exitUsage
	case len(args) == 0:
		e.errorf("test: no URL given")
		return exitUsage
	}
	x, err := parseExpectation(*expect)
	if err != nil {
		e.fail(err)
		return exitUsage
	}
	tok, err := agentToken(*agent, e)
	if err != nil {
		e.fail(err)
		return exitUsage
	}
	targets, err := parseTargets(args, true)
	if err != nil {
		e.fail(err)
		return exitUsage
	}
	d, err := readDocument(context.Background(), *file, fetchConfig{defaultUserAgent, *timeout}, e)
	if err != nil {
		e.fail(err)
		return exitUsage
	}
	var p *parsed
	if d.readable() {
		d.noteLimit(*full, e)
		p = parse(d.text(*full), modeOf(*rfc))
	}
	width := columnWidth(args)
	code = exitOK
	for _, t := range targets {
		res, v := documentResult(d, p, tok, t)
		if p != nil {
			res.Detail = ruleText(v.Rule, p.lines)
		}
		c, note := x.judge(res.Verdict)
		code = worst(code, c)
		if *asJSON {
			if err := writeJSON(e.stdout, res); err != nil {
				e.fail(err)
				return exitUsage
			}
			continue
		}
		printDecision(e.stdout, res.Verdict.word(), width, t.arg, res.Detail+note)
		if p != nil && v.Allowed {
			printPrefs(e.stdout, width, prefItems(p, tok, t.checkURL(), true))
		}
	}
	return code
}
