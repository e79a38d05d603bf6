package main

import (
	"fmt"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

// runLint is "robotstxt lint": it prints the parser's diagnostics for each
// file as FILE:LINE: reason: text, then a summary line, and exits 1 when
// any file has a diagnostic.
func runLint(args []string, e env) int {
	fs := newFlags("lint", "[-q] [-rfc9309] FILE...",
		"Print what the parser skipped, tolerated or cut in each robots.txt\n"+
			"(FILE \"-\" is standard input). Every diagnostic counts as a problem.")
	quiet := fs.Bool("q", false, "print nothing; report through the exit code only")
	rfc := fs.Bool("rfc9309", false, "read files as RFC 9309 strictly does instead of as Google's parser")
	if code, done := parseFlags(fs, args, e); done {
		return code
	}
	files := fs.Args()
	if len(files) == 0 {
		e.errorf("lint: no file given")
		return exitUsage
	}
	mode := robotstxt.ModeGoogle
	if *rfc {
		mode = robotstxt.ModeRFC9309
	}
	code := exitOK
	for _, name := range files {
		code = worst(code, lintFile(name, mode, *quiet, e))
	}
	return code
}

// lintFile lints one file and returns its exit code.
func lintFile(name string, mode robotstxt.Mode, quiet bool, e env) int {
	body, err := readInput(name, e)
	if err != nil {
		e.errorf("lint: %v", err)
		return exitUsage
	}
	f := parser.Parser{RFC9309: mode == robotstxt.ModeRFC9309}.Parse(body)
	diags := f.Diagnostics
	if !quiet {
		shown := displayName(name)
		for _, d := range diags {
			fmt.Fprintln(e.stdout, diagnosticLine(shown, d))
		}
		fmt.Fprintln(e.stdout, summaryLine(shown, f))
	}
	if len(diags) > 0 {
		return exitDisallowed
	}
	return exitOK
}

// diagnosticLine formats d as "FILE:LINE: reason: text", quoting the text
// so control characters and trailing spaces stay visible.
func diagnosticLine(file string, d robotstxt.Diagnostic) string {
	if d.Text == "" {
		return fmt.Sprintf("%s:%d: %s", file, d.Line, d.Kind)
	}
	return fmt.Sprintf("%s:%d: %s: %q", file, d.Line, d.Kind, d.Text)
}

// summaryLine counts what the file holds:
// "FILE: 2 groups, 5 rules, 1 sitemap, 0 diagnostics".
func summaryLine(file string, f *parser.File) string {
	rules := 0
	for _, g := range f.Groups {
		rules += len(g.Rules)
	}
	return fmt.Sprintf("%s: %s, %s, %s, %s", file,
		plural(len(f.Groups), "group"), plural(rules, "rule"),
		plural(len(f.Sitemaps), "sitemap"), plural(len(f.Diagnostics), "diagnostic"))
}

// plural formats "1 rule" or "3 rules".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
