package main

import (
	"context"
	"strings"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
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
func runTest(cmd *command, args []string, e env) int {
	fs := newFlags(cmd)
	file := fs.String("file", "", "robots.txt to read: a file, \"-\" for standard input, or an http(s) URL (required)")
	agent := fs.String("agent", defaultAgent, "crawler product token matched against user-agent lines, or a User-Agent to take it from")
	rfc := fs.Bool("rfc9309", false, "read the file as RFC 9309 strictly does instead of as Google's parser")
	full := fs.Bool("full", false, "read the whole file, past the 500 KiB that crawlers read")
	expect := fs.String("expect", "", "allow or disallow: exit 0 only when every URL gets this decision, 1 otherwise")
	timeout := timeoutFlag(fs, "fetching a robots.txt given as a URL")
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
	d, err := readDocument(context.Background(), *file, fetchConfig{robotstxt.DefaultUserAgent, *timeout}, e)
	if err != nil {
		e.fail(err)
		return exitUsage
	}
	width := columnWidth(args)
	code = exitOK
	if !d.readable() {
		word, detail, allowed, c := d.live.fallback()
		switch {
		case c != exitDeferred:
			c = x.code(allowed)
			detail += x.note(allowed)
		case x.set:
			c, detail = exitDisallowed, detail+x.unmet()
		}
		for _, t := range targets {
			printDecision(e.stdout, word, width, t.arg, detail)
		}
		return c
	}
	d.noteLimit(*full, e)
	text := d.text(*full)
	r := robotstxt.ParseMode(text, modeOf(*rfc))
	table := parser.Parser{RFC9309: *rfc}.Compile(text)
	l := newListing(text)
	for _, t := range targets {
		v := r.Check(tok, t.checkURL())
		printDecision(e.stdout, decisionWord(v.Allowed), width, t.arg, ruleText(v.Rule, v.Matched(), l)+x.note(v.Allowed))
		code = worst(code, x.code(v.Allowed))
		if !v.Allowed {
			continue
		}
		for _, it := range prefItems(r, table, l, modeOf(*rfc), tok, t.checkURL(), v.Allowed) {
			printDecision(e.stdout, "", width, it.label+" "+it.prefs, strings.Join(append([]string{it.detail}, it.notes...), "; "))
		}
	}
	return code
}
