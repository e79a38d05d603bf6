package main

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

func TestBodyKind(t *testing.T) {
	for _, tc := range []struct {
		body     string
		hasRules bool
		want     string
	}{
		{"<!DOCTYPE html><html><body>x</body></html>", false, "an HTML page"},
		{"\n\n  <HTML>\n<HEAD>", false, "an HTML page"},
		{"\ufeff<html>", false, "an HTML page"},
		{`<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>`, false, "an XML document"},
		{`{"error": "not found"}`, false, "a JSON document"},
		{"Sorry\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", false, "a binary file"},
		{"User-agent: *\nDisallow: /\x00\x00\x00\x00\x00\x00\x00\x00", true, ""},
		{"User-agent: *\nDisallow: /\n", true, ""},
		{"<script>x()</script>\nUser-agent: *\nDisallow: /\n", true, ""},
		{"{not json", false, ""},
		{"", false, ""},
	} {
		if got := bodyKind([]byte(tc.body), tc.hasRules); got != tc.want {
			t.Errorf("bodyKind(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
	// A robots.txt headed by an HTML comment, its group of Content-Usage
	// and Crawl-delay lines without a rule, is linted (lint88).
	fs := lintText(t, "<!-- robots.txt, generated -->\nUser-agent: *\nContent-Usage: /drafts/ train-ai=no\nCrawl-delay: 10\n")
	if slices.ContainsFunc(fs, func(f finding) bool { return f.Code == codeNotRobots }) || !slices.ContainsFunc(fs, func(f finding) bool { return f.Code == codeUsageValue }) {
		t.Errorf("a robots.txt headed by an HTML comment: %+v; want it linted (usage-value on line 3)", fs)
	}
}

// TestNoDirectives checks that no-directives is reported, alone, only for
// a body with no robots.txt line of any kind: a misplaced rule or a
// License line is one, and is linted.
func TestNoDirectives(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"Not Found", "Not Found\n", []string{"1:no-directives"}},
		{"unknown keys only", "Error: 404\nReason: not found\n", []string{"1:no-directives"}},
		{"comments only", "# nothing\n", nil},
		{"rules before any user-agent", "Disallow: /private/\nDisallow: /admin/\n", []string{"1:rule-outside-group", "2:rule-outside-group"}},
		{"a rule after prose", "Not Found\nDisallow: /x\n", []string{"2:rule-outside-group"}},
		{"with a sitemap", "Disallow: /private/\nSitemap: https://example.com/s.xml\n", []string{"1:rule-outside-group"}},
		{"a relative license", "License: /license.xml\nhello\n", []string{"1:license-relative"}},
		{"a hostless license", "License: https://:80/license.xml\nhello\n", []string{"1:license-relative"}},
		// Directives crawlers skip are errors of their own, once hidden
		// by one warning (lint88).
		{"no colons", "User-agent = *\nDisallow = /private\n", []string{"1:directive-skipped", "2:directive-skipped"}},
		{"keys misspelt past reading", "User-agnt: *\nDisallw: /private\n", []string{"1:directive-skipped", "2:directive-skipped"}},
		{"prose, then a skipped rule", "Not Found\nDisallow = /x\n", []string{"2:directive-skipped"}},
		// Words of a page, not lost directives (review158).
		{"a page's links", "Page not found\n\nHome\nSitemap\nLicense\n", []string{"1:no-directives"}},
		{"a sentence", "Access denied\nUser agent not allowed.\n", []string{"1:no-directives"}},
		{"a sentence with a path", "Access denied\nUser agent not allowed (see /help).\n", []string{"1:no-directives"}},
		{"a date", "Page\nDisallow = 2024/01\n", []string{"1:no-directives"}},
		{"a rule run into its key", "Disallow/x\n", []string{"1:directive-skipped"}},
		// The key as written, then any mark for the colon (review161).
		{"two blanks in the key", "User  agent *\n", []string{"1:directive-skipped"}},
		{"a dash for the colon", "Disallow-/x\n", []string{"1:directive-skipped"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := codesAt(lintText(t, tc.body), codeNoDirectives, codeOutsideGroup, codeLicenseRelative, codeDirectiveLost)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	r := runCmd(t, "Disallow: /private/\nDisallow: /admin/\n", "lint", "-")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "<stdin>:2: error: rule before any user-agent line") {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
	// Prose over the limit, the rules after it: no robots.txt line in
	// what crawlers read, and the rules never read, an error (lint88).
	body := strings.Repeat("This file is kept by the web team.\n", 600<<10/35) + "User-agent: *\nDisallow: /private/\n"
	if got := codesAt(lintText(t, body), codeNoDirectives, codeOverLimit); len(got) != 2 || !strings.HasSuffix(got[1], ":over-limit") {
		t.Errorf("prose over the limit, the rules after it: %q; want no-directives and over-limit", got)
	}
}

// TestLintCutUsageRule: a Content-Usage rule the 500 KiB limit cuts in
// its statement, which crawlers read as its path stating train-ai=n, is
// an over-limit error "which ends in this line", as a cut rule is, not
// the author's usage-syntax error followed by "no rule or other record is
// past it".
func TestLintCutUsageRule(t *testing.T) {
	comments := pastLimit("User-agent: *\nContent-Usage: train-ai=y\n")
	cut := comments[:crawlerLimit-len("Content-Usage: /private/ tr")-1] + "\nContent-Usage: /private/ train-ai=y\n"
	r := runCmd(t, cut, "lint", "-")
	if !strings.Contains(r.stdout, "[over-limit]") || strings.Contains(r.stdout, "no rule or other record is past it") || strings.Contains(r.stdout, "[usage-syntax]") {
		t.Errorf("a Content-Usage rule the limit cuts: exit %d, stdout %q; want an over-limit error for its line", r.code, r.stdout)
	}
}

// TestLintCutLineNotTooLong: a disallow of exactly MaxLineLength bytes
// that the 500 KiB limit cuts within its last character is padded only
// within MaxLineLength: padded past it, lint reported the author's line
// as "line over 16663 bytes" [line-too-long], which it is not.
func TestLintCutLineNotTooLong(t *testing.T) {
	stars := parser.MaxLineLength - len("Disallow: /") - len("é")
	line := "Disallow: /" + strings.Repeat("*", stars) + "é" // MaxLineLength bytes
	keep := len(line) - 1                                    // within é
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for b.Len() < crawlerLimit-keep-81 {
		b.WriteString("#" + strings.Repeat("x", 78) + "\n")
	}
	for b.Len() < crawlerLimit-keep-1 {
		b.WriteByte('#')
	}
	b.WriteString("\n" + line + "\nDisallow: /later\n")
	r := runCmd(t, b.String(), "lint", "-")
	if strings.Contains(r.stdout, "[line-too-long]") {
		t.Errorf("a line of %d bytes, cut by the limit: lint says it is too long:\n%s", len(line), r.stdout[:min(len(r.stdout), 2000)])
	}
}

// TestLintRestDoesNotDecode: a file whose gzip stream breaks off past the
// 500 KiB crawlers read is over the limit, what lies past it unknown:
// not "no rule or other record is past it".
func TestLintRestDoesNotDecode(t *testing.T) {
	s := gzipRobots(t, false)
	r := runCmd(t, "", "lint", "-timeout", "20s", s.URL+"/robots.txt") // time for a loaded machine
	if r.code != exitDisallowed || strings.Contains(r.stdout, "no rule or other record is past it") ||
		!strings.Contains(r.stdout, "the file is over 500 KiB (the rest does not decode); crawlers read the first 500 KiB (to line") || !strings.Contains(r.stdout, "[over-limit]") {
		t.Errorf("lint: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestNoDirectivesPastDiagnosticsLimit: a body with no
// robots.txt line is no-directives however long it is; past the parser's
// 1,000 diagnostics, an unknown record ("Server: nginx") has no
// UnknownKey diagnostic left, and noDirectives took it for a record some
// crawler reads.
func TestNoDirectivesPastDiagnosticsLimit(t *testing.T) {
	for _, n := range []int{10, 1001} {
		body := strings.Repeat("hello world foo\n", n) + "Server: nginx\n"
		if got := codesAt(lintText(t, body), codeNoDirectives); len(got) != 1 {
			t.Errorf("%d skipped lines, then an unknown key: no-directives findings %q, want one", n, got)
		}
	}
}

// cutInBlanks returns a file over the 500 KiB crawlers read whose line at
// the limit is line, followed by blanks the limit falls among: the line's
// text is read whole.
func cutInBlanks(line string) string {
	var b strings.Builder
	b.WriteString("User-agent: *\nAllow: /\n")
	start := crawlerLimit - len(line) - 5 // the limit falls 5 bytes into the blanks
	for b.Len() < start-81 {
		b.WriteString("#" + strings.Repeat("x", 78) + "\n")
	}
	b.WriteString(strings.Repeat("#", start-b.Len()-1) + "\n")
	b.WriteString(line + strings.Repeat(" ", 40) + "\nUser-agent: OtherBot\nDisallow: /\n")
	return b.String()
}

// TestLintLeavesOutTheLimitsNULs: body.Read ends a Content-Usage rule or
// Content-Signal record the body limit cuts with two NUL bytes of its
// own, which lint does not report as the file's, even where the line
// reads as written, the limit falling among its trailing blanks
// (review129).
func TestLintLeavesOutTheLimitsNULs(t *testing.T) {
	for _, line := range []string{"Content-Usage: train-ai=n", "Content-Signal: ai-train=no"} {
		body := cutInBlanks(line)
		if bytes.IndexByte([]byte(body), 0) >= 0 {
			t.Fatal("the file holds a NUL")
		}
		for _, f := range lintText(t, body) {
			if f.Code == codeNUL {
				t.Errorf("%s cut among its trailing blanks by the limit, in a file without a NUL byte: lint line %d %s: %s\n\t%q",
					line, f.Line, f.Code, f.Message, f.Text)
			}
		}
	}
}

// TestLintLeavesOutTheLimitsNULsOfAPartialBody: as above, for a gzip
// body whose stream breaks past the 500 KiB crawlers read, the line at
// the limit a Content-Usage rule cut in its statement.
func TestLintLeavesOutTheLimitsNULsOfAPartialBody(t *testing.T) {
	text := cutAtLimit("Content-Usage: train-ai=y, search=y", len("Content-Usage: train-ai=y, sea"))
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(text + strings.Repeat("# more past the limit, and then the stream breaks\n", 4000)))
	zw.Close()
	raw := z.Bytes()[:z.Len()-8] // the stream stops short of its trailer
	d := &document{name: "t"}
	if err := d.decode(raw, http.Header{"Content-Encoding": {"gzip"}}); err != nil {
		t.Fatal(err)
	}
	if !d.partial || !d.body.Truncated {
		t.Fatalf("partial %v truncated %v; the test wants a partial, truncated body", d.partial, d.body.Truncated)
	}
	for _, f := range lintDocument(d, robotstxt.ModeGoogle) {
		if f.Code == codeNUL {
			t.Errorf("a body without a NUL byte, its rest not decoding: lint line %d %s: %s\n\t%q", f.Line, f.Code, f.Message, f.Text)
		}
	}
}

// cutAtLimit returns a text whose line line starts so that the 500 KiB
// limit keeps keep bytes of it.
func cutAtLimit(line string, keep int) string {
	var b strings.Builder
	b.WriteString("User-agent: *\nAllow: /\n")
	start := crawlerLimit - keep
	for b.Len() < start-81 {
		b.WriteString("#" + strings.Repeat("x", 78) + "\n")
	}
	b.WriteString(strings.Repeat("#", start-b.Len()-1) + "\n")
	b.WriteString(line + "\nUser-agent: OtherBot\nDisallow: /\n")
	return b.String()
}
