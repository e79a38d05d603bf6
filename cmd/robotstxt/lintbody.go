package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/robotsgate/robotstxt/parser"
)

// notRobots reports, as one finding, a body that is not a robots.txt at
// all: its lines are not worth one finding each.
func (lt *linter) notRobots() bool {
	f := lt.file // a group without rules (Content-Usage, Crawl-delay) is robots.txt too
	kind := bodyKind(lt.doc.body.Text, rules(f) > 0 || len(f.Groups) > 0 || len(f.Sitemaps) > 0)
	if kind == "" {
		return false
	}
	msg := "this is not a robots.txt but " + kind + "; crawlers read it as text"
	if n := rules(lt.file); n > 0 {
		msg += fmt.Sprintf(" and obey the %s they find in it", plural(n, "rule"))
	} else {
		msg += " and find no rule: everything is allowed"
	}
	lt.add(0, codeNotRobots, "%s", msg)
	return true
}

// bodyKind names what a body that is not a robots.txt is ("an HTML
// page", "a binary file", …), or returns "". A body with rules (or
// groups, or sitemaps: hasRules) is not taken for a binary file for its
// control bytes, which cut lines and are reported one by one, nor for
// XML for a first "<" (an HTML comment heading a file).
func bodyKind(text []byte, hasRules bool) string {
	t := bytes.TrimLeft(text, " \t\r\n\f\v\ufeff")
	t = bytes.TrimPrefix(t, []byte("\ufeff"))
	head := bytes.ToLower(t[:min(len(t), 4096)])
	controls := 0
	for _, c := range head {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' {
			controls++
		}
	}
	switch {
	case len(head) > 0 && controls*16 > len(head) && !hasRules:
		return "a binary file"
	case bytes.HasPrefix(head, []byte("<")) && hasAny(head, "<!doctype html", "<html", "<head", "<body"):
		return "an HTML page"
	case bytes.HasPrefix(head, []byte("<?xml")), bytes.HasPrefix(head, []byte("<")) && !hasRules:
		return "an XML document"
	case (bytes.HasPrefix(t, []byte("{")) || bytes.HasPrefix(t, []byte("["))) && json.Valid(t):
		return "a JSON document"
	}
	return ""
}

// hasAny reports whether s holds any of the subs.
func hasAny(s []byte, subs ...string) bool {
	for _, sub := range subs {
		if bytes.Contains(s, []byte(sub)) {
			return true
		}
	}
	return false
}

// noDirectives reports, as one finding, text with lines but no
// robots.txt line of any kind, such as a "Not Found" page served as
// robots.txt: no group, no rule (even one outside any group), no
// sitemap, no licence, no extension a crawler knows.
func (lt *linter) noDirectives() bool {
	f := lt.file
	if len(f.Groups) > 0 || len(f.Sitemaps) > 0 || len(f.Licenses) > 0 {
		return false
	}
	unknown := make(map[int]bool)
	first := 0
	for _, dg := range f.Diagnostics {
		switch dg.Kind {
		case parser.RuleOutsideGroup:
			return false // a rule no crawler obeys: an error of its own
		case parser.UnknownKey:
			unknown[dg.Line] = true
			fallthrough
		case parser.NoKey:
			if lt.lostRule(dg) {
				return false // a directive crawlers skip: an error of its own
			}
			if first == 0 {
				first = dg.Line
			}
		}
	}
	for _, r := range f.Extensions {
		if !unknown[r.Line] && !unknownKey(r.Key) {
			return false // a record some crawler reads
		}
	}
	if first == 0 {
		return false // empty, or comments only: a valid file that allows all
	}
	lt.add(first, codeNoDirectives, "no robots.txt line in this body: it allows everything, as no robots.txt does")
	return true
}

// lostRule reports whether dg, a line the parser skipped, is a
// user-agent or rule line crawlers skip (see lostKey), as no page of
// prose holds: a key misspelt before its colon, or one whose value, a
// path or '*', follows it with no colon ("Disallow = /x", not "User
// agent not allowed (see /help)." nor a link's "Sitemap").
func (lt *linter) lostRule(dg parser.Diagnostic) bool {
	k := lt.lostKey(dg)
	if k == "" || dg.Kind == parser.UnknownKey {
		return k != ""
	}
	f := parser.Parse([]byte(k + ": /x\n"))
	if len(f.Groups) == 0 && !slices.ContainsFunc(f.Diagnostics, func(d parser.Diagnostic) bool { return d.Kind == parser.RuleOutsideGroup }) {
		return false
	}
	value := lt.lines.text(dg.Line)
	for _, w := range strings.Fields(k) { // the key as written: "User  agent"
		value = strings.TrimLeft(value, " \t"+bom)
		value = value[min(len(w), len(value)):]
	}
	// Past the marks that stand for the colon: "Disallow = /x",
	// "Disallow-/x", not "User agent not allowed (see /help).".
	value = strings.TrimLeftFunc(value, func(r rune) bool {
		return r != '/' && r != '*' && (unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r))
	})
	return strings.HasPrefix(value, "/") || strings.HasPrefix(value, "*")
}

// overLimit reports a body longer than the 500 KiB crawlers read: an
// error when lines crawlers obey (rules, Content-Usage, records such as
// Content-Signal, Crawl-delay or Sitemap) are past the limit, or a rule
// the limit cuts is read otherwise than written.
func (lt *linter) overLimit() {
	d := lt.doc
	if !d.body.Truncated {
		return
	}
	whole := parseFile(d.whole.Text, lt.mode)
	first := lt.lines.read() + 1 // the first line crawlers do not read
	firstPast := 0
	var rules, usage, records int
	past := func(line int, n *int) {
		if line >= first {
			*n++
			if firstPast == 0 || line < firstPast {
				firstPast = line
			}
		}
	}
	kept := [][]parser.Record{whole.Sitemaps, whole.Licenses, whole.Extensions}
	for _, g := range whole.Groups {
		for _, r := range g.Rules {
			past(r.Line, &rules)
		}
		for _, r := range g.Usage {
			past(r.Line, &usage)
		}
		kept = append(kept, g.Extensions)
	}
	for _, rs := range kept {
		for _, r := range rs {
			if r.Line >= first && !unknownKey(r.Key) {
				past(r.Line, &records)
			}
		}
	}
	// A rule the limit cuts is read as far as it goes (Disallow: / of
	// Disallow: /private, a Content-Usage rule without its statement), or
	// not at all, and a line skipped whole may be read as a rule cut
	// (Disallow /a of Disallow /a /b): not as written.
	read := fmt.Sprintf("the file is %s; crawlers read the first %s", d.size(), kib(crawlerLimit))
	last := first - 1
	readRule, readUsage := readAt(lt.file, last)
	wroteRule, wroteUsage := readAt(whole, last)
	cut := last > 0 && (readRule != wroteRule || readUsage != wroteUsage)
	if cut {
		lt.cutLine = last
		lt.addText(last, newListing(d.whole.Text).text(last), codeOverLimit, "%s, which ends in this line: they read it as %q%s",
			read, lt.lines.directive(last), lt.cutReading(last))
	}
	size := fmt.Sprintf("%s (to line %d)", read, last)
	if firstPast == 0 {
		switch {
		case cut:
		case d.partial:
			lt.add(first, codeOverLimit, "%s; what lies past it, crawlers never read", size)
		case d.over:
			lt.add(first, codeOverLimitNoRules, "%s; no rule or other record is past it in the first %d MiB", size, maxInput>>20)
		default:
			lt.add(first, codeOverLimitNoRules, "%s; no rule or other record is past it", size)
		}
		return
	}
	var lost []string
	for _, c := range []struct {
		n    int
		noun string
	}{{rules, "rule"}, {usage, "Content-Usage rule"}, {records, "other record"}} {
		if c.n > 0 {
			lost = append(lost, plural(c.n, c.noun))
		}
	}
	verb := "are"
	if rules+usage+records == 1 {
		verb = "is"
	}
	lt.addText(firstPast, newListing(d.whole.Text).text(firstPast), codeOverLimit,
		"%s: %s from this line on %s never read", size, andList(lost), verb)
}

// readAt returns the rule of f on line n and the path and statement of
// its Content-Usage rule or the value of its Content-Signal record on line
// n, or zero values.
func readAt(f *parser.File, n int) (rule parser.Rule, usage [2]string) {
	signal := func(rs []parser.Record) {
		for _, r := range rs {
			if r.Line == n && r.Key == "content-signal" {
				usage = [2]string{"", r.Value}
			}
		}
	}
	signal(f.Extensions)
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			if r.Line == n {
				rule = r
			}
		}
		for _, u := range g.Usage {
			if u.Line == n {
				usage = [2]string{u.Path, u.Statement}
			}
		}
		signal(g.Extensions)
	}
	return rule, usage
}

// unknownKey reports whether the parser reads key as one no major
// crawler reads (the diagnostics of a whole file stop at 1,000).
func unknownKey(key string) bool {
	return slices.ContainsFunc(parser.Parse([]byte(key+": x\n")).Diagnostics,
		func(d parser.Diagnostic) bool { return d.Kind == parser.UnknownKey })
}

// charset reports a body that is not UTF-8.
func (lt *linter) charset() {
	switch cs := lt.doc.body.Charset; {
	case strings.HasPrefix(cs, "utf-16"), strings.HasPrefix(cs, "utf-32"):
		// Google reads the ASCII of either between NULs: no rule.
		lt.add(0, codeUTF16, "the file is %s: Google reads robots.txt as UTF-8, and many tools cannot read %s; save it as UTF-8", strings.ToUpper(cs), strings.ToUpper(cs[:6]))
	case cs == "windows-1252":
		// Crawlers read a URL's escapes that are not UTF-8 as
		// Windows-1252 too (see matcher.ServedForms).
		lt.add(0, codeCharset, "the file is not UTF-8; it is read as %s (see parser.Read), so non-ASCII characters in rules match URLs that spell them in UTF-8 or, escaped, in %[1]s", cs)
	case cs != "utf-8" && cs != "":
		lt.add(0, codeCharset, "the file is not UTF-8; it is read as %s (see parser.Read), so non-ASCII characters in rules match URLs that spell them in UTF-8 or, escaped, in windows-1252, not in %[1]s where it spells them otherwise", cs)
	}
}
