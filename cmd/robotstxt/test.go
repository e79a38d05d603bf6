package main

import (
	"context"
	"flag"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
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
	rf := newReadFlags(fs, "required", "read the file as RFC 9309 strictly does instead of as Google's parser", "fetching a robots.txt given as a URL")
	expect := fs.String("expect", "", "allow or disallow: exit 0 only when every URL gets this decision, 1 otherwise")
	args, code, done := parseArgs(fs, args, e)
	if done {
		return code
	}
	switch {
	case *rf.file == "":
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
	width := columnWidth(args)
	return rf.eachURL(args, true, e, func(r *explainer, _ int, t target) (int, error) {
		c := r.check(t)
		res := r.result(c)
		code, note := x.judge(res.Verdict)
		res.Detail += note
		if *rf.asJSON {
			return code, writeJSON(e.stdout, res)
		}
		printDecision(e.stdout, res.Verdict.word(), width, t.shown, res.Detail)
		if c.p != nil && c.d.Allowed {
			printPrefs(e.stdout, width, prefItems(c.p, r.agent, t.sent(), true, c.d.Usage))
		}
		return code, nil
	})
}

// readFlags are the flags with which test and explain read a robots.txt
// and print what it says of URLs.
type readFlags struct {
	file, agent       *string
	rfc, full, asJSON *bool
	timeout           *time.Duration
}

// newReadFlags defines the readFlags on fs, with what -file defaults to,
// and the help of -rfc9309 and of what -timeout bounds.
func newReadFlags(fs *flag.FlagSet, fileDefault, rfcHelp, timeoutHelp string) readFlags {
	return readFlags{
		file:    fs.String("file", "", "robots.txt to read: a file, \"-\" for standard input, or an http(s) URL ("+fileDefault+")"),
		agent:   fs.String("agent", defaultAgent, "crawler product token matched against user-agent lines, or a User-Agent to take it from"),
		rfc:     fs.Bool("rfc9309", false, rfcHelp),
		full:    fs.Bool("full", false, "read the whole file, past the 500 KiB that crawlers read"),
		timeout: timeoutFlag(fs, timeoutHelp),
		asJSON:  fs.Bool("json", false, "print one JSON object per URL"),
	}
}

// maxExplainers is how many explainers eachURL keeps: a list of URLs that
// interleaves a few sites parses each site's robots.txt once, and one
// over thousands of sites does not keep an explainer a site (three
// Clients with the site's rules: about 100 KiB for a 4 KiB robots.txt,
// 2 MiB for a 200 KiB one). Their documents are held within maxHeld too.
const maxExplainers = 16

// eachURL reads the URL arguments args as parseTargets does, bare paths
// too when bare is set, and calls do for each target, in turn, with the
// explainer of the robots.txt it is checked against: -file, read once,
// or without one the target's own robots.txt, as the Client fetched it
// for the target, read whole. Each document has one explainer, so that it
// is read and parsed once while it is among the maxExplainers last used.
// eachURL returns the worst of do's exit codes,
// or exitUsage for an -agent or URL it cannot read, or at a robots.txt
// it cannot read or an answer do cannot write.
func (rf readFlags) eachURL(args []string, bare bool, e env, do func(x *explainer, i int, t target) (int, error)) int {
	agent, err := agentToken(*rf.agent, e)
	if err != nil {
		e.fail(err)
		return exitUsage
	}
	targets, err := parseTargets(args, bare)
	if err != nil {
		e.fail(err)
		return exitUsage
	}
	cfg := fetchConfig{userAgent: defaultUserAgent, timeout: *rf.timeout, whole: true,
		opts: []robotstxt.Option{robotstxt.WithProductTokens(agent), robotstxt.WithMode(modeOf(*rf.rfc))}}
	held := 0 // the footprint of the documents xs holds
	xs, _ := simplelru.NewLRU(maxExplainers, func(d *document, x *explainer) { held -= d.footprint(); x.close() })
	defer xs.Purge()
	f := newFetcher(cfg)
	defer f.close()
	var doc *document
	code := exitOK
	for i, t := range targets {
		switch {
		case *rf.file == "":
			_, doc, err = f.read(context.Background(), t.sent())
		case doc == nil:
			doc, err = readDocument(context.Background(), *rf.file, cfg, e)
		}
		if doc == nil {
			e.fail(err)
			return worst(code, exitUsage)
		}
		x, ok := xs.Get(doc)
		if !ok {
			x = newExplainer(doc, agent, modeOf(*rf.rfc), *rf.full, e)
			xs.Add(doc, x)
			// Within maxHeld, as the fetcher holds documents: one kept
			// here after the fetcher let it go (and its Clients, each
			// with the file's rules) holds on past that bound otherwise.
			for held += doc.footprint(); held > maxHeld && xs.Len() > 1; {
				xs.RemoveOldest()
			}
		}
		c, err := do(x, i, t)
		if err != nil {
			e.fail(err)
			return worst(code, exitUsage)
		}
		code = worst(code, c)
	}
	return code
}

// check returns what the document says of t.
func (x *explainer) check(t target) checked {
	if x.c == nil {
		return checked{t: t, d: *x.doc.live, err: x.doc.liveErr}
	}
	d, err := x.c.Check(context.Background(), t.sent())
	d.Stale = d.Stale || x.doc.live != nil && x.doc.stale // as the live Client answered
	return checked{t: t, d: d, err: err, p: x.p}
}

// result returns the -json form of c, which x gave: its detail gives the
// status of a live robots.txt without rules, and its status is that of a
// live robots.txt, none for a file.
func (x *explainer) result(c checked) urlResult {
	res := c.result(x.agent, c.d.Usage.Pref, c.p == nil && c.verdict() != verdictDeferred)
	res.Status = 0
	if x.doc.live != nil {
		res.Status = x.doc.live.Status
	}
	return res
}
