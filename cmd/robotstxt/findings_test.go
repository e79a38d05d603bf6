package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

// lintText lints body as read from a file and returns the findings.
func lintText(t testing.TB, body string) []finding {
	t.Helper()
	d := &document{name: "t"}
	if err := d.decode([]byte(body), nil); err != nil {
		t.Fatal(err)
	}
	return lintDocument(d, robotstxt.ModeGoogle)
}

// codesAt returns the codes of the findings, as "line:code".
func codesAt(fs []finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, strings.Join([]string{itoa(f.Line), f.Code}, ":"))
	}
	return out
}

func itoa(n int) string {
	const digits = "0123456789"
	if n < 10 {
		return digits[n : n+1]
	}
	return itoa(n/10) + digits[n%10:n%10+1]
}

func TestShadowedRules(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string // line:code of shadowed-rule and duplicate-rule findings
	}{
		{"same pattern, allow wins the tie", "User-agent: *\nDisallow: /x\nAllow: /x\n", []string{"2:shadowed-rule"}},
		{"allow first", "User-agent: *\nAllow: /x\nDisallow: /x\n", []string{"3:shadowed-rule"}},
		{"longer prefix with a star", "User-agent: *\nAllow: /d/\nDisallow: /d/*\n", []string{"2:shadowed-rule"}},
		{"shorter pattern of the same paths loses", "User-agent: *\nDisallow: /a/b\nAllow: /a*\n", nil},
		{"equal length, disallow does not win a tie", "User-agent: *\nAllow: /ab\nDisallow: /a*\n", nil},
		{"equal length, allow wins a tie", "User-agent: *\nDisallow: /ab\nAllow: /a*\n", []string{"2:shadowed-rule"}},
		{"wildcard in the middle", "User-agent: *\nDisallow: /*.pdf\nAllow: /*.pdf\n", []string{"2:shadowed-rule"}},
		{"same kind is no shadow", "User-agent: *\nDisallow: /a\nDisallow: /a*\n", nil},
		{"anchored patterns differ", "User-agent: *\nDisallow: /a$\nAllow: /a\n", nil},
		{"duplicate", "User-agent: *\nDisallow: /a\nDisallow: /a\n", []string{"3:duplicate-rule"}},
		{"duplicate across merged groups", "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /a\n", []string{"5:duplicate-rule"}},
		{"not across crawlers", "User-agent: A\nDisallow: /a\n\nUser-agent: B\nDisallow: /a\nAllow: /a\n", []string{"5:shadowed-rule"}},
		{"only for one of the group's crawlers", "User-agent: A\nUser-agent: B\nDisallow: /a\n\nUser-agent: B\nAllow: /a\n", nil},
		{"for each of the group's crawlers", "User-agent: A\nUser-agent: B\nDisallow: /a\n\nUser-agent: B\nUser-agent: A\nAllow: /a\n", []string{"3:shadowed-rule"}},
		{"an index page also decides for its directory", "User-agent: *\nAllow: /d/index.html\nDisallow: /d/index.html*\n", nil},
		{"empty patterns match nothing", "User-agent: *\nDisallow:\nAllow:\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, c := range codesAt(lintText(t, tc.body)) {
				if strings.HasSuffix(c, ":"+codeShadowed) || strings.HasSuffix(c, ":"+codeDuplicate) {
					got = append(got, c)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestShadowedRuleNeverDecides checks the claim of every shadowed-rule
// finding on the corpus: for paths the rule matches, another rule decides.
func TestShadowedRuleNeverDecides(t *testing.T) {
	for _, f := range corpusFiles(t, "*.txt") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d := &document{name: f}
		if err := d.decode(b, nil); err != nil {
			t.Fatal(err)
		}
		r := robotstxt.Parse(d.body.Text)
		p := r.File()
		for _, x := range lintDocument(d, robotstxt.ModeGoogle) {
			if x.Code != codeShadowed {
				continue
			}
			for gi := range p.Groups {
				for _, ru := range p.Groups[gi].Rules {
					if ru.Line != x.Line {
						continue
					}
					path := literalStart(&ru) + "probe"
					for _, a := range p.Groups[gi].Agents {
						agent := a.Token
						if agent == "" && !a.Global {
							continue // names no crawler
						}
						if a.Global {
							agent = "NoSuchCrawlerAtAll"
						}
						if v := r.Check(agent, path); v.Matched() && v.Rule.Line == ru.Line {
							t.Errorf("%s:%d: reported as never deciding, but decides %s for %s", f, x.Line, path, agent)
						}
					}
				}
			}
		}
	}
}

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
}

func TestAgentCut(t *testing.T) {
	for value, code := range map[string]string{
		"MJ12bot":                 codeAgentCut,
		"Mail.RU_Bot":             codeAgentCut,
		"AI2Bot":                  codeAgentCut,
		"Googlebot/2.1":           codeAgentToken,
		"Googlebot (compatible)":  codeAgentToken,
		"Mediapartners-Google*":   codeAgentToken,
		"bingbot;+http://x.y/bot": codeAgentToken,
	} {
		fs := lintText(t, "User-agent: "+value+"\nDisallow: /\n")
		if len(fs) == 0 || fs[0].Code != code || fs[0].Line != 1 {
			t.Errorf("%q: %+v, want %s", value, fs, code)
		}
	}
}

// TestParserLimitsReported checks that the parser's caps on diagnostics
// and on records with unknown keys each give one info finding, on the
// line where the cap starts and with the number of lines past it, and
// that the findings past the cap are not reported.
func TestParserLimitsReported(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range parser.MaxDiagnostics + 5 {
		fmt.Fprintf(&b, "Disallow: private%d\n", i) // no-leading-slash, lines 2…1006
	}
	fs := lintText(t, b.String())
	counts := map[string]int{}
	var capped finding
	for _, f := range fs {
		counts[f.Code]++
		if f.Code == codeTooMany {
			capped = f
		}
	}
	if counts[codeNoSlash] != parser.MaxDiagnostics || counts[codeTooMany] != 1 {
		t.Fatalf("%d %s and %d %s findings, want %d and 1", counts[codeNoSlash], codeNoSlash,
			counts[codeTooMany], codeTooMany, parser.MaxDiagnostics)
	}
	if capped.Line != parser.MaxDiagnostics+2 || capped.Severity != sevInfo ||
		!strings.Contains(capped.Message, ": 5 more from this line on") || capped.Text != "Disallow: private1000" {
		t.Errorf("cap finding %+v", capped)
	}

	b.Reset()
	b.WriteString("User-agent: *\nDisallow: /x\n")
	for i := range parser.MaxUnknownRecords + 3 {
		fmt.Fprintf(&b, "X-Key-%d: v\n", i) // unknown-key, lines 3…1005
	}
	fs = lintText(t, b.String())
	var dropped []finding
	for _, f := range fs {
		if f.Code == codeUnknownDropped {
			dropped = append(dropped, f)
		}
	}
	// Record 1001, the first not kept, is on line 1003.
	if len(dropped) != 1 || dropped[0].Line != parser.MaxUnknownRecords+3 || dropped[0].Severity != sevInfo ||
		!strings.Contains(dropped[0].Message, ": 3 more from this line on") {
		t.Errorf("unknown-records-dropped findings %+v", dropped)
	}
}

func TestNearKey(t *testing.T) {
	for key, want := range map[string]string{
		"usr-agent": "user-agent", "User-Agen": "user-agent", "user_agent": "user-agent",
		"disalow": "disallow", "Disalllow": "disallow", "alow": "allow", "sitemaps": "sitemap",
		"crawldelay": "crawl-delay", "host": "", "clean-param": "", "request-rate": "",
	} {
		if got := nearKey(key); got != want {
			t.Errorf("nearKey(%q) = %q, want %q", key, got, want)
		}
	}
}

func TestSeverityOfEveryCodeIsDocumented(t *testing.T) {
	src, err := os.ReadFile("lint.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{
		codeNotRobots, codeOverLimit, codeOverLimitNoRules, codeOutsideGroup, codeAgentCut, codeAgentNoToken,
		codeNoSlash, codeShadowed, codeDirectiveLost, codeKeyTypo, codeSitemapRelative, codeCrawlDelay,
		codeUnsupported, codeDuplicate, codeBadValue, codeNoRules, codeUTF16, codeLineTooLong, codeNUL,
		codeInvalidUTF8, codeNoDirectives, codeUnknownKey, codeMisspeltKey, codeMissingColon, codeAgentToken,
		codeNotDirective, codeCharset, codeDisallowAll, codeParser, codeTooMany, codeUnknownDropped,
	} {
		// The help lists each code under its severity.
		section := map[severity]string{sevError: "Errors:", sevWarning: "Warnings:", sevInfo: "Infos:"}[severityOf(code)]
		i := strings.Index(string(src), section)
		j := strings.Index(string(src)[i:], "\n\n")
		if i < 0 || j < 0 || !strings.Contains(string(src)[i:i+j], code) {
			t.Errorf("lint help does not list %s under %s", code, section)
		}
	}
}

// FuzzLint lints and explains arbitrary bodies: nothing may panic, and
// every finding must be on a line of the body.
func FuzzLint(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /x\nAllow: /x*\n"))
	f.Add([]byte("\xff\xfeU\x00s\x00e\x00r\x00"))
	f.Add([]byte("<html><body>"))
	f.Add([]byte("User-agent: MJ12bot\nUser-agent: *\nDisallow: /d/index.html\nAllow: /d/index.html\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		d := &document{name: "fuzz"}
		if err := d.decode(body, nil); err != nil {
			t.Skip()
		}
		lines := newListing(d.whole.Text).len()
		for _, x := range lintDocument(d, robotstxt.ModeGoogle) {
			if x.Line < 0 || x.Line > lines {
				t.Fatalf("finding on line %d of %d: %+v", x.Line, lines, x)
			}
		}
		p := parser.Parse(d.body.Text)
		if n := newListing(d.body.Text).len(); n != p.Lines {
			t.Fatalf("listing has %d lines, the parser %d", n, p.Lines)
		}
		x := explainer{doc: d, agent: "FooBot", w: discard{}}
		x.explain(target{arg: "/", path: "/a/b?c"})
	})
}

// discard is an io.Writer that keeps nothing.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// corpusDocuments reads every corpus file as lint reads it.
func corpusDocuments(b *testing.B) []*document {
	var docs []*document
	for _, f := range corpusFiles(b, "*.txt") {
		raw, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		d := &document{name: f}
		if err := d.decode(raw, nil); err != nil {
			b.Fatal(err)
		}
		docs = append(docs, d)
	}
	return docs
}

// BenchmarkParseCorpus is the baseline of BenchmarkLintCorpus: parsing
// every corpus file, which lint does once too.
func BenchmarkParseCorpus(b *testing.B) {
	docs := corpusDocuments(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			parser.Parse(d.body.Text)
		}
	}
}

// BenchmarkLintCorpus lints every corpus file.
func BenchmarkLintCorpus(b *testing.B) {
	docs := corpusDocuments(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			lintDocument(d, robotstxt.ModeGoogle)
		}
	}
}
