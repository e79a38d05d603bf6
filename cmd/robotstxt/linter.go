package main

import (
	"fmt"
	"slices"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

// A finding is one thing lint reports about a file. Line 0 is about the
// whole file.
type finding struct {
	Line     int      `json:"line"`
	Severity severity `json:"severity"`
	Code     code     `json:"code"`
	Message  string   `json:"message"`
	Text     string   `json:"text"`
}

// A linter collects the findings of one document, parsed as crawlers
// read it.
type linter struct {
	*parsed
	doc      *document
	findings []finding
	agents   map[int]parser.UserAgent // by line, made for the first cut agent
	cut      map[int]string           // what each cut statement reads as, by line, made for the first cut line
	named    map[int]bool             // agent lines whose group names a crawler, made for the first agent-no-token
	// cutLine is the last line crawlers read when the limit cuts it and
	// they read it otherwise than written (see overLimit), else 0.
	cutLine int
	// errorsOnly drops the findings of lesser severity (see tailErrors).
	errorsOnly bool
	// headerChecks counts the user-agent lines read as User-Agent
	// headers, up to maxHeaderChecks; asRead is the file as the library
	// reads it, parsed for the first.
	headerChecks int
	asRead       *robotstxt.Robots
	// groupsOf holds the groups (by index) naming each token, in lower
	// case, and groupAt the group of each user-agent line (see
	// namedElsewhere).
	groupsOf map[string][]int
	groupAt  map[int]int
}

// lintDocument returns the findings for d read in mode, in line order.
func lintDocument(d *document, mode robotstxt.Mode) []finding {
	lt := &linter{parsed: parse(d.body.Text, mode), doc: d}
	switch {
	case lt.notRobots():
	case lt.noDirectives():
		lt.overLimit() // the rules may all lie past the limit
	default:
		lt.overLimit()
		lt.charset()
		lt.keyIntoValue() // before diagnostics, whose missing colon it says more of
		lt.diagnostics()
		lt.twoPaths()
		lt.starAgents()
		lt.records()
		lt.groups()
		lt.usage()
	}
	slices.SortStableFunc(lt.findings, func(a, b finding) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return int(b.Severity - a.Severity)
	})
	return lt.findings
}

// add records a finding on line n, whose text is the line as written.
func (lt *linter) add(n int, c code, format string, args ...any) {
	lt.addText(n, lt.lines.text(n), c, format, args...)
}

// found reports whether line n has a finding of code c.
func (lt *linter) found(n int, c code) bool {
	return slices.ContainsFunc(lt.findings, func(f finding) bool { return f.Line == n && f.Code == c })
}

// addText records a finding on line n whose line, as written, is text:
// the only place a finding is made, with its code's severity.
func (lt *linter) addText(n int, text string, c code, format string, args ...any) {
	if lt.errorsOnly && c.severity() < sevError {
		return
	}
	lt.findings = append(lt.findings, finding{
		Line: n, Severity: c.severity(), Code: c,
		Message: fmt.Sprintf(format, args...), Text: text,
	})
}

// rules counts the rules of a parsed file.
func rules(f *parser.File) int {
	n := 0
	for _, g := range f.Groups {
		n += len(g.Rules)
	}
	return n
}

// plural formats "1 rule" or "3 rules".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
