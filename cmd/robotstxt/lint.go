package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

// lintHelp is the long help of lint, with its codes.
var lintHelp = `Report what in a robots.txt changes what crawlers do or will surprise its
owner (error), what is likely a mistake or read by some crawlers only
(warning), and what is tolerated (info). Each file is read as crawlers read
it (content coding, charset, UTF-16, the 500 KiB limit); an http or https
URL lints the robots.txt of its site, fetched as check does. A FILE or URL
whose name ends in tdmrep.json is read as a TDMRep tdmrep.json instead:
a file as it stands, a URL as its site's /.well-known/tdmrep.json, read
as a crawler given WithTDMRep reads it, the crawler -agent names, whose
robots.txt group decides whether it may fetch the file. The exit code is
1 only when a file has an error; 2 when a file cannot be read or holds
nothing to lint; 3 when a robots.txt fetched over HTTP is unreachable.

` + codesHelp()

// lintJSONHelp is the help of lint's -json.
const lintJSONHelp = `With -json, each file gives one JSON object on one line:
  {"file": "robots.txt", "bytes": 1234, "charset": "utf-8",
   "truncated": false, "errors": 1, "warnings": 0, "infos": 2,
   "diagnostics": [{"line": 3, "severity": "error",
     "code": "rule-outside-group", "message": "…", "text": "Disallow: /x"}]}
bytes is the size of the file, or of the body as received, before it
is decoded as crawlers decode it (16 MiB and a byte for any larger,
which is read no further); charset is the encoding it was read in;
truncated is true when a robots.txt is over the 500 KiB crawlers read (a
tdmrep.json over its limit is not cut but unreadable); line 0
is about the whole file; text is the line as written, white space
trimmed (cut to 160 bytes, ending in …, when longer). A file that could
not be linted gives an object with no diagnostics and an "error" saying
why. Control and bidi characters in strings are JSON escapes such as
\u001b, which decode to them. -level does not change the counts.`

// runLint is "robotstxt lint".
func runLint(cmd *command, args []string, e env) int {
	fs := newFlags(cmd)
	asJSON := fs.Bool("json", false, "print one JSON object per file")
	quiet := fs.Bool("q", false, "print nothing; report by exit code only")
	level := fs.String("level", "info", "print only findings of this severity or above: error, warning or info")
	rfc := fs.Bool("rfc9309", false, "read as RFC 9309 strictly does instead of as Google's parser")
	agent := fs.String("agent", defaultAgent, "crawler product token a tdmrep.json is read as, or a User-Agent to take it from")
	timeout := timeoutFlag(fs, "fetching a file given as a URL")
	files, code, done := parseArgs(fs, args, e)
	if done {
		return code
	}
	if len(files) == 0 {
		e.errorf("lint: no file given (\"-\" reads standard input)")
		return exitUsage
	}
	if i := slices.Index(files, "-"); i >= 0 && slices.Contains(files[i+1:], "-") {
		// The second would read what the first left: nothing, a valid file.
		e.errorf("lint: \"-\" given twice: standard input is read once")
		return exitUsage
	}
	least, err := parseSeverity(*level)
	if err != nil {
		e.fail(err)
		return exitUsage
	}
	noted := e
	if *quiet {
		noted.stderr = io.Discard // of a note on -agent: nothing is printed
	}
	tok, err := agentToken(*agent, noted)
	if err != nil {
		e.fail(err)
		return exitUsage
	}
	cfg := fetchConfig{userAgent: defaultUserAgent, timeout: *timeout, opts: []robotstxt.Option{robotstxt.WithMode(modeOf(*rfc))}}
	// A robots.txt is linted for every crawler, fetched as check does for
	// the default one; a tdmrep.json for the crawler -agent names.
	tdm := cfg
	tdm.opts = append(slices.Clip(cfg.opts), robotstxt.WithProductTokens(tok))
	code = exitOK
	for _, name := range files {
		lint, with := lintRobots, cfg
		if strings.HasSuffix(name, "tdmrep.json") {
			lint, with = lintTDMRep, tdm
		}
		r, c := lint(name, with, modeOf(*rfc), e)
		r.count(least)
		if r.Errors > 0 {
			c = worst(c, exitDisallowed)
		}
		code = worst(code, c)
		switch {
		case *quiet:
		case *asJSON:
			if err := writeJSON(e.stdout, r); err != nil {
				e.fail(err)
				return exitUsage
			}
		case r.Error == "":
			r.print(e)
		}
	}
	return code
}

// lintRobots lints the robots.txt name, a file or the robots.txt of a
// URL's site, and returns its report, with every finding, and the exit
// code of reading it: exitOK, or for a file it could not lint, exitUsage,
// or exitDeferred when it is unreachable, with the reason on standard
// error.
func lintRobots(name string, cfg fetchConfig, mode robotstxt.Mode, e env) (report, int) {
	d, err := readDocument(context.Background(), name, cfg, e)
	if err != nil {
		e.fail(err)
		return report{File: withheld(name), Error: errText(err)}, exitUsage
	}
	if !d.readable() {
		c := checked{d: *d.live, err: d.liveErr}
		code := exitUsage
		if c.verdict() == verdictDeferred {
			code = exitDeferred
		}
		e.errorf("%s: nothing to lint: %s", d.name, c.detail(code != exitDeferred))
		return report{File: d.name, Error: "nothing to lint: " + c.detail(code != exitDeferred)}, code
	}
	p := parser.Parse(d.body.Text)
	return report{File: d.name, Bytes: len(d.raw), Charset: d.body.Charset, Truncated: d.body.Truncated,
		Diagnostics: lintDocument(d, mode),
		summary:     plural(len(p.Groups), "group") + ", " + plural(rules(p), "rule") + ", " + plural(len(p.Sitemaps), "sitemap")}, exitOK
}

// A report is lint's result for one file, as -json prints it.
type report struct {
	File        string    `json:"file"`
	Bytes       int       `json:"bytes"`
	Charset     string    `json:"charset"`
	Truncated   bool      `json:"truncated"`
	Errors      int       `json:"errors"`
	Warnings    int       `json:"warnings"`
	Infos       int       `json:"infos"`
	Diagnostics []finding `json:"diagnostics"`
	Error       string    `json:"error,omitempty"`
	summary     string    // what the file holds, for the text output
}

// count counts the findings and keeps those of at least severity least.
func (r *report) count(least severity) {
	all := r.Diagnostics
	r.Diagnostics = []finding{}
	for _, f := range all {
		switch f.Severity {
		case sevError:
			r.Errors++
		case sevWarning:
			r.Warnings++
		default:
			r.Infos++
		}
		if f.Severity >= least {
			r.Diagnostics = append(r.Diagnostics, f)
		}
	}
}

// print writes the report as text: one "FILE:LINE: severity: message
// [code]" line per finding, with the line as written under it, then a
// summary.
func (r report) print(e env) {
	for _, f := range r.Diagnostics {
		where := r.File
		if f.Line > 0 {
			where = fmt.Sprintf("%s:%d", r.File, f.Line)
		}
		fmt.Fprintf(e.stdout, "%s: %s: %s [%s]\n", printable(where), f.Severity, printable(f.Message), f.Code)
		if f.Text != "" {
			fmt.Fprintf(e.stdout, "\t%s\n", printable(f.Text))
		}
	}
	fmt.Fprintf(e.stdout, "%s: %s: %s, %s, %s\n", printable(r.File), r.summary,
		plural(r.Errors, "error"), plural(r.Warnings, "warning"), plural(r.Infos, "info"))
}
