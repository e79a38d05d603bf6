package main

import (
	"context"

	"github.com/robotsgate/robotstxt"
)

// runTest is "robotstxt test": it checks URLs against a robots.txt read
// from a file, standard input or a URL, through a Client that reads it as
// it reads any robots.txt, and prints one line per URL:
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
	r := newReader(d, tok, modeOf(*rfc), *full, e)
	defer r.close()
	width := columnWidth(args)
	code = exitOK
	for _, t := range targets {
		c := r.check(t)
		res := r.result(c)
		got, note := x.judge(res.Verdict)
		code = worst(code, got)
		if *asJSON {
			if err := writeJSON(e.stdout, res); err != nil {
				e.fail(err)
				return exitUsage
			}
			continue
		}
		printDecision(e.stdout, res.Verdict.word(), width, t.arg, res.Detail+note)
		if c.p != nil && c.d.Allowed {
			printPrefs(e.stdout, width, prefItems(c.p, tok, t.url, true))
		}
	}
	return code
}

// A reader answers for URLs from one document, as a Client reading it as
// the robots.txt of every site answers: or, for a live robots.txt without
// rules, as the Client answered for it.
type reader struct {
	doc   *document
	c     *robotstxt.Client // nil when the document has no rules
	p     *parsed
	agent string
	mode  robotstxt.Mode
	full  bool
}

// newReader returns a reader of d for agent in mode m, reading it whole
// when full is set, and notes on standard error when d is over the limit
// crawlers read.
func newReader(d *document, agent string, m robotstxt.Mode, full bool, e env) *reader {
	r := &reader{doc: d, agent: agent, mode: m, full: full}
	if d.readable() {
		d.noteLimit(full, e)
		r.c, r.p = d.client(agent, m, full), parse(d.text(full), m)
	}
	return r
}

// close closes the reader's Client.
func (r *reader) close() {
	if r.c != nil {
		r.c.Close()
	}
}

// check returns what the document says of t.
func (r *reader) check(t target) checked {
	if r.c == nil {
		return checked{t: t, d: *r.doc.live, err: r.doc.liveErr}
	}
	d, err := r.c.Check(context.Background(), t.url)
	return checked{t: t, d: d, err: err, p: r.p}
}

// result returns the -json form of c, which r gave: its detail gives the
// status of a live robots.txt without rules, and its status is that of a
// live robots.txt, none for a file.
func (r *reader) result(c checked) urlResult {
	res := c.result(r.agent, c.d.Usage, c.p == nil && c.verdict() != verdictDeferred)
	res.Status = 0
	if r.doc.live != nil {
		res.Status = r.doc.live.Status
	}
	return res
}
