package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

// TestDiagnosticsOfEveryKind checks that each of the parser's
// diagnostics, of every kind, gives one finding on its line.
func TestDiagnosticsOfEveryKind(t *testing.T) {
	body := "Disallow: /outside\nUser-agent: Googlebot/2.1\nUser-agent: 360Spider\nnot a line\nDisallow /colon\n" +
		"Dissallow: /x\nDisallow: /" + strings.Repeat("a", parser.MaxLineLength) + "\nDisallow: /a\x00b\nDisallow: /\xff\n" +
		"Disallow: private\nCrawl-delay: soon\n" + strings.Repeat("Robot-version: 2.0\n", 1001)
	lt := &linter{parsed: parse([]byte(body), robotstxt.ModeGoogle)}
	seen := make(map[parser.Kind]bool)
	for _, dg := range lt.file.Diagnostics {
		seen[dg.Kind] = true
	}
	for k := parser.Kind(1); !strings.HasPrefix(k.String(), "Kind("); k++ {
		if !seen[k] {
			t.Errorf("the body gives no diagnostic of kind %v", k)
		}
	}
	lt.diagnostics()
	if len(lt.findings) != len(lt.file.Diagnostics) {
		t.Fatalf("%d findings of %d diagnostics", len(lt.findings), len(lt.file.Diagnostics))
	}
	for i, dg := range lt.file.Diagnostics {
		if f := lt.findings[i]; f.Line != dg.Line {
			t.Errorf("the diagnostic %v gives a finding on line %d: %+v", dg, f.Line, f)
		}
	}
}

func TestAgentCut(t *testing.T) {
	for value, code := range map[string]code{
		"MJ12bot":                 codeAgentCut,
		"Mail.RU_Bot":             codeAgentCut,
		"AI2Bot":                  codeAgentCut,
		"Googlebot/2.1":           codeAgentToken,
		"Googlebot (compatible)":  codeAgentToken,
		"Mediapartners-Google*":   codeAgentToken,
		"bingbot;+http://x.y/bot": codeAgentToken,
		"Googlebot.":              codeAgentToken,
		"Googlebot:":              codeAgentToken,
		"Googlebot...":            codeAgentToken,
		"Googlebot!!":             codeAgentToken,
		"Googlebot\u00a0":         codeAgentToken, // lint88: a no-break space after it
		"Googlebot\u200b":         codeAgentToken,
		"Googlebot\u00a0/2.1":     codeAgentToken, // review158: before a version
		"Googlebot\u00a0(bot)":    codeAgentToken,
		"Googlebot\u00a02.1":      codeAgentToken,
		"Googlebot\u00a0v2":       codeAgentToken,
		"Googlebot2":              codeAgentCut,
		"Googlebot.é":             codeAgentCut,
		"Foo.Bar":                 codeAgentCut,
		"Yahoo! Slurp":            codeAgentCut,
		"LWP::Simple":             codeAgentCut,
		// A second crawler after a blank, ',' or ';' gets no group.
		"GPTBot CCBot":                 codeTwoAgents,
		"Googlebot, Bingbot":           codeTwoAgents,
		"Yandex;Baiduspider":           codeTwoAgents,
		"Googlebot *":                  codeTwoAgents,
		"Googlebot +http://x.y/bot":    codeAgentToken,
		"Googlebot http://x.y/bot":     codeAgentToken,
		"Googlebot 2.1":                codeAgentToken,
		"Googlebot; (compatible; bot)": codeAgentToken,
		"Googlebot - the bot":          codeAgentToken,
		"Googlebot v2":                 codeAgentToken,
		"Googlebot r1.5":               codeAgentToken,
		"Googlebot; compatible":        codeAgentToken,
		"Googlebot googlebot":          codeAgentToken,
		"Googlebot AI2Bot":             codeTwoAgents,
		"Googlebot Mail.RU_Bot/1.0":    codeTwoAgents,
		"Googlebot and Slurp":          codeTwoAgents,
		// After a crawler's name, any name but a word that ends many.
		"Googlebot Slurp":       codeTwoAgents,
		"GPTBot ChatGPT-User":   codeTwoAgents,
		"CCBot anthropic-ai":    codeTwoAgents,
		"Echobot Bot":           codeAgentToken,
		"Googlebot, spider":     codeAgentToken,
		"OpenAI GPTBot":         codeTwoWords,
		"Flaming AttackBot/1.0": codeTwoWords,
		// One crawler's name of two words, which its own User-Agent
		// (Offline Explorer/2.5) cuts to the same token: not two.
		"Offline Explorer": codeAgentToken,
		"Kenjin Spider":    codeAgentToken,
		"Download Ninja":   codeAgentToken,
	} {
		fs := lintText(t, "User-agent: "+value+"\nDisallow: /\n")
		if len(fs) == 0 || fs[0].Code != code || fs[0].Line != 1 {
			t.Errorf("%q: %+v, want %s", value, fs, code)
		}
	}
}

// TestTwoAgentsAfterTheStar: a crawler named after * on its line gets no
// group of its own, but obeys the line's group as * unless another
// group names it: only then is the line read otherwise than written
// (lint88 found every such line an error).
func TestTwoAgentsAfterTheStar(t *testing.T) {
	for _, value := range []string{"* CCBot", "*\tGPTBot", "* Google-Extended"} {
		second := strings.TrimLeft(value, "*\t ")
		alone := "User-agent: " + value + "\nDisallow: /\n"
		if fs := lintText(t, alone); slices.ContainsFunc(fs, func(f finding) bool { return f.Code == codeTwoAgents }) {
			t.Errorf("%q, %s named nowhere else: %+v; want no %s", value, second, fs, codeTwoAgents)
		}
		other := "User-agent: " + second + "\nAllow: /\n"
		if fs := lintText(t, alone+"\n"+other); len(fs) == 0 || fs[0].Code != codeTwoAgents || fs[0].Line != 1 {
			t.Errorf("%q, then a group %q: %+v; want %s", value, other, fs, codeTwoAgents)
		}
	}
	// Each name after *: the second too (review158).
	for _, value := range []string{"* CCBot GPTBot", "* CCBot, GPTBot", "* CCBot and GPTBot", "* CCBot/2.0 GPTBot", "* GPTBot.", "* CCBot / GPTBot"} {
		fs := lintText(t, "User-agent: "+value+"\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /\n")
		if len(fs) == 0 || fs[0].Code != codeTwoAgents || !strings.Contains(fs[0].Message, ": GPTBot obeys the group that names it") {
			t.Errorf("%q, GPTBot's group after it: %+v; want %s naming GPTBot", value, fs, codeTwoAgents)
		}
	}
	// A name the line excepts is no second crawler (review161).
	for _, value := range []string{"* (except GPTBot)", "* !GPTBot", "* [not GPTBot]", "* except GPTBot"} {
		if fs := lintText(t, "User-agent: "+value+"\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /\n"); slices.ContainsFunc(fs, func(f finding) bool { return f.Code == codeTwoAgents }) {
			t.Errorf("%q: %+v; want no %s", value, fs, codeTwoAgents)
		}
	}
	// The line's own group names GPTBot too: it obeys this one (review160).
	if fs := lintText(t, "User-agent: * GPTBot\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /x\n"); slices.ContainsFunc(fs, func(f finding) bool { return f.Code == codeTwoAgents }) {
		t.Errorf("* GPTBot in a group naming GPTBot: %+v; want no %s", fs, codeTwoAgents)
	}
	// Every line of a group alike is read alike, however many.
	var b strings.Builder
	for i := range 70 {
		fmt.Fprintf(&b, "User-agent: * Bot%d\n", i)
	}
	b.WriteString("Disallow: /\nContent-Usage: train-ai=n\n")
	if fs := lintText(t, b.String()); slices.ContainsFunc(fs, func(f finding) bool { return f.Code == codeTwoAgents }) {
		t.Errorf("70 lines * BotN, no Bot named elsewhere: %s on some", codeTwoAgents)
	}
}

// TestTwoAgentsNamesTheSecond: the finding names the crawler that gets
// no group, not a word that joins the two.
func TestTwoAgentsNamesTheSecond(t *testing.T) {
	for value, second := range map[string]string{
		"GPTBot CCBot":           "CCBot",
		"GPTBot and CCBot":       "CCBot",
		"GPTBot & CCBot":         "CCBot",
		"Googlebot or Bingbot/2": "Bingbot",
		"GPTBot, and CCBot":      "CCBot",
		"GPTBot and, CCBot":      "CCBot",
		"GPTBot and/or CCBot":    "CCBot",
		// cli86: after a version, in a '|' list.
		"GPTBot/1.0, CCBot/1.0":       "CCBot",
		"Googlebot/2.1, Bingbot/2.0":  "Bingbot",
		"GPTBot/1.0 and CCBot/1.0":    "CCBot",
		"GPTBot/1.0 CCBot/1.0":        "CCBot",
		"GPTBot | CCBot":              "CCBot",
		"GPTBot|CCBot":                "CCBot",
		"GPTBot/1.0, Google-Extended": "Google-Extended",
		"GPTBot/1.0, ChatGPT-User":    "ChatGPT-User",
		"GPTBot/1.0 | anthropic-ai":   "anthropic-ai",
		"GPTBot/1.0; CCBot/1.0":       "CCBot",
	} {
		fs := lintText(t, "User-agent: "+value+"\nDisallow: /\n")
		if len(fs) == 0 || fs[0].Code != codeTwoAgents || !strings.Contains(fs[0].Message, ": "+second+" gets no group") {
			t.Errorf("%q: %+v, want %s naming %s", value, fs, codeTwoAgents, second)
		}
	}
	for _, value := range []string{"Googlebot and", "BSpider/1.0 libwww-perl/0.40", "Googlebot/2.1 (+http://www.google.com/bot.html)", "a b",
		"facebookexternalhit/1.1;line-poker/1.0", "Slurp/si; slurp@inktomi.com", "ExampleBot/1.0; www.example.com/bot",
		"Googlebot/2.1 and above", "Expanse, a Palo Alto Networks company", "Bytespider; spider-feedback@bytedance.com", "Mozilla/5.0(compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"} {
		// A trailing conjunction, one crawler's User-Agent, words after
		// its version or a list mark that name no crawler: no second.
		if fs := lintText(t, "User-agent: "+value+"\nDisallow: /\n"); len(fs) == 0 || fs[0].Code == codeTwoAgents {
			t.Errorf("%q: %+v; want no %s", value, fs, codeTwoAgents)
		}
	}
}

// TestDirectiveSkipped: a line crawlers skip that starts with a key the
// parser reads, however it is spelled and whatever blank follows it, is
// an error; other text is not a directive.
func TestDirectiveSkipped(t *testing.T) {
	for line, want := range map[string]code{
		"Disallow /a /b":          codeDirectiveLost,
		"Disallow\t/a\t/b":        codeDirectiveLost,
		"Allow\t/c /d":            codeDirectiveLost,
		"Disalow /a /b":           codeDirectiveLost,
		"useragent foo bar":       codeDirectiveLost,
		"user agent Googlebot x":  codeDirectiveLost,
		"hello there world":       codeNotDirective,
		"Allowed paths are below": codeNotDirective,
		"Crawl-delay 10 20":       codeNotDirective,
	} {
		fs := lintText(t, "User-agent: *\nDisallow: /x\n"+line+"\n")
		var got []code
		for _, f := range fs {
			if f.Line == 3 {
				got = append(got, f.Code)
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("%q: %v, want %s", line, got, want)
		}
	}
}

// TestTwoPaths: a rule of two paths, whatever blank parts them, is an
// error, as the pattern it is read as matches neither; a blank within one
// path, a %20 as written and a comment are not; nor what a NUL ends,
// which the parser reads no further; a first path of any length is.
func TestTwoPaths(t *testing.T) {
	for line, want := range map[string]bool{
		"Disallow: /private /admin":                          true,
		"Disallow: /" + strings.Repeat("a", 200) + " /admin": true,
		"Disallow: /a\x00 /b":                                false,
		"Allow: /a\t*.pdf":                                   true,
		"Disallow: /a /b /c":                                 true,
		"Disallow: /my documents/":                           false,
		"Disallow: /x%20/y":                                  false,
		"Disallow: /private # /admin too":                    false,
		"Disallow: /private":                                 false,
	} {
		fs := lintText(t, "User-agent: *\n"+line+"\n")
		got := slices.ContainsFunc(fs, func(f finding) bool { return f.Code == codeTwoPaths && f.Line == 2 })
		if got != want {
			t.Errorf("%q: %+v, want two-paths %v", line, fs, want)
		}
	}
}

// TestParserLimitsReported checks that the parser's caps on diagnostics
// and on records with unknown keys each give one info finding, on the
// line where the cap starts and with the number of lines past it, and
// that past the cap only errors are reported: every one, on its line.
func TestParserLimitsReported(t *testing.T) {
	const limit = 1000 // the parser's documented bound on both
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range limit + 5 {
		fmt.Fprintf(&b, "Disallow: private%d\n", i) // no-leading-slash, lines 2…1006
	}
	fs := lintText(t, b.String())
	counts := map[code]int{}
	var capped finding
	for _, f := range fs {
		counts[f.Code]++
		if f.Code == codeTooMany {
			capped = f
		}
	}
	if counts[codeNoSlash] != limit+5 || counts[codeTooMany] != 1 {
		t.Fatalf("%d %s and %d %s findings, want %d and 1", counts[codeNoSlash], codeNoSlash,
			counts[codeTooMany], codeTooMany, limit+5)
	}
	if capped.Line != limit+2 || capped.Severity != sevInfo ||
		!strings.HasPrefix(capped.Message, "over 1000 lines") || !strings.Contains(capped.Message, "of 5 more from this line on, only the errors") || capped.Text != "Disallow: private1000" {
		t.Errorf("cap finding %+v", capped)
	}

	// 1,000 infos (versioned agents), then errors: a rule past them
	// without a slash, one outside any group as the file's first lines
	// read; the warnings past the cap are not reported.
	b.Reset()
	b.WriteString("Disallow: /early\n") // line 1: outside a group
	for i := range limit {
		fmt.Fprintf(&b, "User-agent: Bot%c%c/1.0\n", 'a'+i%26, 'a'+i/26%26)
	}
	b.WriteString("Disallow: /\n")
	for i := range 250 {
		fmt.Fprintf(&b, "Crawl-delay: %d\n", i) // warnings
	}
	b.WriteString("User-agent: *\nDisallow: private/\nDisallow: admin/\n")
	var got []string
	for _, f := range lintText(t, b.String()) {
		if f.Severity == sevError || f.Code == codeTooMany {
			got = append(got, fmt.Sprintf("%d:%s", f.Line, f.Code))
		} else if f.Line > limit+1 && f.Code != codeCrawlDelay {
			t.Errorf("a lesser finding past the cap: %+v", f)
		}
	}
	if want := []string{"1:rule-outside-group", "1001:too-many-findings", "1254:no-leading-slash", "1255:no-leading-slash"}; !slices.Equal(got, want) {
		t.Errorf("errors past 1,000 infos: %q, want %q", got, want)
	}
	// The first group past the cap: a rule chunks later is in it.
	b.Reset()
	for i := range limit + 1 {
		fmt.Fprintf(&b, "hello %d\n", i) // not-a-directive, lines 1…1001
	}
	b.WriteString("User-agent: *\n" + strings.Repeat("# note\n", 150) + "Disallow: /x\nDisallow: y\n") // lines 1002, 1153, 1154
	got = codesAt(lintText(t, b.String()), codeOutsideGroup, codeNoSlash)
	if want := []string{"1154:no-leading-slash"}; !slices.Equal(got, want) {
		t.Errorf("a group that begins past the cap: %q, want %q", got, want)
	}
	// A byte order mark past the cap, at the start of a chunk, is not the
	// file's: the line is an unknown key, not a user-agent (whose
	// finding the lint looked up, and panicked).
	b.Reset()
	b.WriteString("Sitemap: http://x/s\n" + strings.Repeat("foo\n", limit) + "\ufeffUser-agent: MJ12bot\nDisallow: y\n")
	got = codesAt(lintText(t, b.String()), codeAgentCut, codeOutsideGroup)
	if want := []string{"1003:rule-outside-group"}; !slices.Equal(got, want) {
		t.Errorf("a byte order mark past the cap: %q, want %q", got, want)
	}

	// The line the parser stopped on: its errors given before the cap
	// are not reported again.
	b.Reset()
	b.WriteString("User-agent: *\nAllow: /\n")
	for i := range limit - 1 {
		fmt.Fprintf(&b, "hello %d x\n", i) // not-a-directive, lines 3…1001
	}
	b.WriteString("Disallow /a /b" + strings.Repeat("c", 17000) + "\n") // line 1002: two findings
	got = nil
	for _, f := range lintText(t, b.String()) {
		if f.Line == limit+2 {
			got = append(got, f.Code.String())
		}
	}
	if want := []string{"directive-skipped", "too-many-findings"}; !slices.Equal(got, want) {
		t.Errorf("the line of the cap: %q, want %q", got, want)
	}

	b.Reset()
	b.WriteString("User-agent: *\nDisallow: /x\n")
	for i := range limit + 3 {
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
	if len(dropped) != 1 || dropped[0].Line != limit+3 || dropped[0].Severity != sevInfo ||
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

// TestCrawlDelayClamped checks that lint warns, line by line, of a
// crawl-delay the Client reads as a day although it is
// longer, and of no other: not of a day itself, nor of a value that does
// not parse (bad-value) or is negative.
// TestCrawlDelayOutsideAnyGroup: a Crawl-delay before any user-agent
// line is read by no crawler (Robots.CrawlDelay gives none), an error as
// a rule there is, not "Bing and Yandex read it" (lint88).
func TestCrawlDelayOutsideAnyGroup(t *testing.T) {
	for body, want := range map[string][]string{
		"Crawl-delay: 5\nUser-agent: *\nDisallow: /x\n": {"1:rule-outside-group"},
		"Crawl-delay: 5\n": {"1:rule-outside-group"},
		"User-agent: *\nDisallow: /x\nCrawl-delay: 5\n":                 {"3:crawl-delay"},
		"Crawl-delay: 5\nUser-agent: *\nDisallow: /x\nCrawl-delay: 2\n": {"1:rule-outside-group", "4:crawl-delay"},
	} {
		if got := codesAt(lintText(t, body), codeOutsideGroup, codeCrawlDelay); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", body, got, want)
		}
	}
}

func TestCrawlDelayClamped(t *testing.T) {
	for value, want := range map[string]bool{
		"10": false, "86400": false, "86399.999": false, "86400.0": false,
		"86400.001": true, "1e9": true, "1e400": true, "+Inf": true, "inf": true,
		"-1e400": false, "-5": false, "soon": false, "NaN": false, "": false,
	} {
		fs := lintText(t, "User-agent: *\nDisallow: /x\nCrawl-delay: "+value+"\n")
		got := codesAt(fs, codeDelayClamped)
		if clamped(value) != want || (len(got) == 1) != want || want && got[0] != "3:crawl-delay-clamped" {
			t.Errorf("crawl-delay %q: clamped %v, findings %q; want %v", value, clamped(value), got, want)
		}
		if d, err := parser.CrawlDelay(value); want && (err != nil || d != 24*time.Hour) {
			t.Errorf("crawl-delay %q: the parser reads %v, %v; want it clamped to a day", value, d, err)
		}
	}
	// One finding for each clamped line, in every group.
	fs := lintText(t, "User-agent: a\nDisallow: /x\nCrawl-delay: 1e9\n\nUser-agent: b\nDisallow: /x\nCrawl-delay: 100000\n")
	if got := codesAt(fs, codeDelayClamped); strings.Join(got, " ") != "3:crawl-delay-clamped 7:crawl-delay-clamped" {
		t.Errorf("two groups: %q", got)
	}
	// None for a crawl-delay the Client never reads: it reads the first
	// that parses of the groups a crawler obeys, and none outside them.
	for name, body := range map[string]string{
		"second in its group":   "User-agent: *\nCrawl-delay: 10\nCrawl-delay: 100000\nDisallow: /x\n",
		"second * group":        "User-agent: *\nCrawl-delay: 10\nDisallow: /x\n\nUser-agent: *\nCrawl-delay: 100000\nDisallow: /y\n",
		"before every group":    "Crawl-delay: 100000\n\nUser-agent: *\nDisallow: /x\n",
		"a group of no crawler": "User-agent: 360Spider\nCrawl-delay: 100000\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n",
	} {
		if got := codesAt(lintText(t, body), codeDelayClamped); len(got) != 0 {
			t.Errorf("%s: %q; want none", name, got)
		}
	}
	// A bad first one leaves the clamped second to be read.
	if got := codesAt(lintText(t, "User-agent: *\nCrawl-delay: soon\nCrawl-delay: 1e9\nDisallow: /x\n"), codeDelayClamped); strings.Join(got, " ") != "3:crawl-delay-clamped" {
		t.Errorf("after a value that does not parse: %q", got)
	}
}

// TestRelativeRecords: a Sitemap or an RSL License record that is not an
// absolute http or https URL is reported, a License as an error; an
// absolute one is not.
func TestRelativeRecords(t *testing.T) {
	fs := lintText(t, "User-agent: *\nDisallow: /x\nLicense: /terms.xml\nLicense: https://example.com/license.xml\nSitemap: sitemap.xml\nSitemap: https://example.com/sitemap.xml\n")
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%d %s %s", f.Line, f.Severity, f.Code))
	}
	want := []string{"3 error license-relative", "5 warning sitemap-relative"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("findings %q, want %q", got, want)
	}
}

// TestStarAgentAlone: a * user-agent followed by no crawler's name (a
// version, a comment, a word such as robots) is not reported.
func TestStarAgentAlone(t *testing.T) {
	for _, value := range []string{"*", "* *", "* (all)", "* 2.1", "* robots", "* Spiders"} {
		for _, f := range lintText(t, "User-agent: "+value+"\nDisallow: /x\n") {
			if f.Line == 1 {
				t.Errorf("%q: %+v", value, f)
			}
		}
	}
}

// TestLintCutPreferenceReadsAsRefusal: a Content-Signal record or
// Content-Usage rule cut at a NUL byte, or past MaxLineLength, reads as a
// refusal to the Client (what was cut may have been one: consent80 found
// a cut rule, stating nothing, taking a file-wide train-ai=n from its
// path), and lint's finding for the cut says so, not only that "the rest
// of it is dropped", as if the part before the cut were read.
func TestLintCutPreferenceReadsAsRefusal(t *testing.T) {
	// A rule before any group no crawler reads: nor does lint say how
	// (cli81).
	if r := runCmd(t, "Content-Usage: /page train-ai=y\x00junk\nUser-agent: *\nAllow: /\n", "lint", "-"); strings.Contains(r.stdout, "reads as") {
		t.Errorf("lint of a cut rule outside any group says how it reads:\n%s", r.stdout)
	}
	for name, tc := range map[string]struct{ line, reads string }{
		"signal nul":      {"Content-Signal: ai-train=yes, search=yes\x00junk", "the record reads as its refusals (key=no) and ai-train=no"},
		"signal too long": {"Content-Signal: ai-train=yes, search=yes, x=" + strings.Repeat("y", parser.MaxLineLength) + "z", "the record reads as its refusals (key=no) and ai-train=no"},
		"usage nul":       {"Content-Usage: /page train-ai=y\x00junk", "its statement reads as its refusals (label=n) and train-ai=n"},
		"usage too long":  {"Content-Usage: /page train-ai=y, x=" + strings.Repeat("y", parser.MaxLineLength) + "z", "its statement reads as its refusals (label=n) and train-ai=n"},
	} {
		body := "User-agent: *\nDisallow: /private/\n" + tc.line + "\n"
		if p := robotstxt.Parse([]byte(body)).Usage("FooBot", "/page").Pref("train-ai"); p != robotstxt.PrefNo {
			t.Fatalf("%s: the Client reads train-ai=%v; the test assumes it reads n", name, p)
		}
		fs := lintText(t, body)
		var all []string
		found := false
		for _, f := range fs {
			all = append(all, fmt.Sprintf("%d:%s: %s", f.Line, f.Code, f.Message))
			found = found || f.Line == 3 && (f.Code == codeNUL || f.Code == codeLineTooLong) && strings.Contains(f.Message, tc.reads)
		}
		if !found {
			t.Errorf("%s: want a finding on line 3 saying %q; got %q", name, tc.reads, all)
		}
	}
}

// TestLintMisspeltPreferenceKeys: a misspelt Content-Usage,
// Content-Signal or License key makes the Client ignore the line (the
// refusal or the licence is lost), exactly as a misspelt Disallow does:
// lint calls both key-typo (a warning: "an unknown key near a known one:
// the line is ignored"), not unknown-key (an info, which -level warning
// hides).
func TestLintMisspeltPreferenceKeys(t *testing.T) {
	for _, line := range []string{
		"Content-Usages: train-ai=n",
		"ContentUsage: train-ai=n",
		"Content_Usage: train-ai=n",
		"Content-Signals: ai-train=no",
		"ContentSignal: ai-train=no",
		"Licence: https://example.com/license.xml",
		"Licenses: https://example.com/license.xml",
	} {
		body := "User-agent: *\nDisallow: /private/\n" + line + "\n"
		r := robotstxt.Parse([]byte(body))
		if r.Usage("FooBot", "/page").Pref("train-ai") != robotstxt.PrefUnknown || len(r.Licenses()) != 0 {
			t.Fatalf("%q: the Client reads the line; the test assumes it ignores it", line)
		}
		if got := codesAt(lintText(t, body), codeKeyTypo); len(got) != 1 {
			t.Errorf("%q: want key-typo on line 3, got %q", line, codesAt(lintText(t, body), codeKeyTypo, codeUnknownKey))
		}
	}
}

// TestLintSkippedContentSignalLine: "Content-Signal search=yes,
// ai-train=no" (Cloudflare's own value, its colon forgotten) is three
// words without a colon: the parser skips it, and the Client reads no
// refusal. Lint calls it directive-skipped (an error), as the same slip in
// a Content-Usage line, not not-a-directive (an info).
func TestLintSkippedContentSignalLine(t *testing.T) {
	body := "User-agent: *\nDisallow: /private/\nContent-Signal search=yes, ai-train=no\nContent-Usage /a train-ai=n\n"
	if p := robotstxt.Parse([]byte(body)).Usage("FooBot", "/a").Pref("train-ai"); p != robotstxt.PrefUnknown {
		t.Fatalf("the Client reads train-ai=%v; the test assumes it skips both lines", p)
	}
	got := codesAt(lintText(t, body), codeDirectiveLost, codeNotDirective)
	if want := []string{"3:directive-skipped", "4:directive-skipped"}; !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
}

// TestLintAgentNoTokenGroupOfOthers: a user-agent line with no
// product token in a group that other lines name a crawler in: the Client
// applies the group to Baiduspider, so lint says the line names no
// crawler, not that "its group applies to no crawler".
func TestLintAgentNoTokenGroupOfOthers(t *testing.T) {
	body := "User-agent: 360Spider\nUser-agent: Baiduspider\nDisallow: /\n"
	if robotstxt.Parse([]byte(body)).Allowed("Baiduspider", "/x") {
		t.Fatal("the Client allows Baiduspider; the test assumes the group applies to it")
	}
	for _, f := range lintText(t, body) {
		if f.Code == codeAgentNoToken && strings.Contains(f.Message, "its group applies to no crawler") {
			t.Errorf("line %d: %q, but the group applies to Baiduspider", f.Line, f.Message)
		}
	}
}

// TestLintRelativeSitemapAsClient: lint's finding on a Sitemap that is
// not an absolute URL says what the Client does with it: Robots.Sitemaps
// lists it as written (search engines skip it).
func TestLintRelativeSitemapAsClient(t *testing.T) {
	body := "User-agent: *\nDisallow: /x\nSitemap: /sitemap.xml\n"
	if sitemaps := robotstxt.Parse([]byte(body)).Sitemaps(); !slices.Contains(sitemaps, "/sitemap.xml") {
		t.Fatalf("the Client's Sitemaps %q; the test assumes it lists the relative one", sitemaps)
	}
	said := false
	for _, f := range lintText(t, body) {
		said = said || f.Code == codeSitemapRelative && strings.Contains(f.Message, "the robotstxt Client lists it")
	}
	if !said {
		t.Errorf("no sitemap-relative finding saying the Client lists the sitemap: %+v", lintText(t, body))
	}
}

// TestLintInvisibleCharacterBeforeRuleKey: a Disallow or Allow line
// that an invisible character (a byte-order mark left mid-file by
// concatenation, a zero-width or ideographic space) starts is skipped by
// the Client, which reads its key as "\ufeffdisallow". lint must not call
// it an unknown key that major crawlers do not read (info: "read as
// meant"), but at least what a typo of the key gets (key-typo, a
// warning: the line is ignored).
func TestLintInvisibleCharacterBeforeRuleKey(t *testing.T) {
	for _, pre := range []string{"\ufeff", "\u200b", "\u2060", "\u3000"} {
		body := "User-agent: *\nAllow: /\n" + pre + "Disallow: /private\n"
		// The Client skips the line: /private is allowed.
		if r := runCmd(t, body, "test", "-file", "-", "/private"); r.code != exitOK {
			t.Fatalf("%q: the Client obeys the line? exit %d, %s", pre, r.code, r.stdout)
		}
		r := runCmd(t, body, "lint", "-json", "-")
		var rep report
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("%q: %v: %q", pre, err, r.stdout)
		}
		for _, d := range rep.Diagnostics {
			if d.Line == 3 && d.Severity < sevWarning {
				t.Errorf("%q: line 3, a Disallow the Client skips, is %s %s: %s", pre, d.Severity, d.Code, d.Message)
			}
		}
	}
}

// TestLintKeyRunIntoValueSkipped: a rule or user-agent line whose key is
// joined to its value by another mark than a colon or a blank
// (Disallow=/private, Disallow/private, a full-width colon) is no
// "key: value" line, and the Client skips it: the rule is lost, or the
// user-agent line is, and the rules meant for that crawler join the group
// above. lint must call it a directive crawlers skip (an error), as it
// does Disallow /a /b, not "not a robots.txt line" (an info).
func TestLintKeyRunIntoValueSkipped(t *testing.T) {
	for _, line := range []string{"Disallow=/private", "Disallow/private", "Disallow;/private", "Disallow\uff1a/private", "Allow=/private"} {
		body := "User-agent: *\nAllow: /pub\n" + line + "\n"
		if f := parser.Parse([]byte(body)); rules(f) != 1 {
			t.Fatalf("%q: the Client reads %d rules; the test assumes it skips the line", line, rules(f))
		}
		var got []string
		worst := severity(-1)
		for _, f := range lintText(t, body) {
			if f.Line == 3 {
				got = append(got, f.Severity.String()+" "+f.Code.String())
				worst = max(worst, f.Severity)
			}
		}
		if worst < sevError {
			t.Errorf("%q, a rule the Client skips: line 3 gets %q, want an error (directive-skipped)", line, got)
		}
	}
	// A skipped user-agent line: the Disallow: / meant for BadBot joins
	// the * group, and every crawler is shut out of the whole site.
	for _, line := range []string{"User-agent=BadBot", "User-agent\uff1aBadBot", "User-agent/BadBot"} {
		body := "User-agent: *\nDisallow: /tmp/\n\n" + line + "\nDisallow: /\n"
		if robotstxt.Parse([]byte(body)).Allowed("Googlebot", "/index.html") {
			t.Fatalf("%q: the Client allows Googlebot /index.html; the test assumes the rule joins the * group", line)
		}
		r := runCmd(t, body, "lint", "-")
		if r.code != exitDisallowed {
			t.Errorf("%q: lint exits %d, want %d (an error) for a file that shuts every crawler out by a skipped user-agent line:\n%s",
				line, r.code, exitDisallowed, r.stdout)
		}
	}
}

// TestLintKeyRunIntoValueRead: a key run into its value that the parser
// reads all the same, by the key's start (Google's keys are prefixes):
// "Disallow http://a.test/private" is split at the URL's colon, its
// pattern //a.test/private, which disallows nothing meant (written with
// the colon, it is a no-leading-slash error); "Disallow=/a /b" and
// "User-agent=Bot X" at the blank, read as Disallow: /b and a group for
// X. Each is a key-into-value error, as the line's missing colon's info
// alone called it read as meant; so is a misspelling the parser accepts
// run into its value. A key ending in a mark alone ("Disallow; /x") or
// with another mark before its colon ("Disallow2: /x") is read as
// written: no such error.
func TestLintKeyRunIntoValueRead(t *testing.T) {
	for _, tc := range []struct {
		line, read string // what crawlers read, "" for the line as written
	}{
		{"Disallow http://a.test/private", "Disallow: //a.test/private"},
		{"Disallow\thttps://a.test/private/", "Disallow: //a.test/private/"},
		{"Allow http://a.test/pub", "Allow: //a.test/pub"},
		{"Disallow=/a /b", "Disallow: /b"},
		{"User-agent=Bot X", "User-agent: X"},
		{"Disalow http://a.test/private", "Disallow: //a.test/private"}, // a misspelling the parser accepts
		{"User-agent\uff1aBot X", "User-agent: X"},
		{"Disallow; /x", ""},
		{"User agent: X", ""},
		{"Disallow2: /x", ""},
		{"Disallow*: /x", ""},
		{"Disallow(s): /x", ""},
		{"User-agent2: X", ""},
		{"Disallow* /x", ""},
	} {
		body := "User-agent: *\n" + tc.line + "\nDisallow: /z\n"
		var codes []string
		for _, f := range lintText(t, body) {
			if f.Line == 2 {
				codes = append(codes, f.Code.String())
				if f.Code == codeKeyIntoValue && !strings.HasSuffix(f.Message, "crawlers read "+tc.read) {
					t.Errorf("%q: %q; want it to say crawlers read %s", tc.line, f.Message, tc.read)
				}
			}
		}
		if got := slices.Contains(codes, "key-into-value"); got != (tc.read != "") || got && slices.Contains(codes, "missing-colon") {
			t.Errorf("%q: line 2's findings %q; want key-into-value %v, and no missing-colon beside it", tc.line, codes, tc.read != "")
		}
		if r := runCmd(t, body, "lint", "-"); tc.read != "" && r.code != exitDisallowed {
			t.Errorf("%q: lint exits %d, want %d:\n%s", tc.line, r.code, exitDisallowed, r.stdout)
		}
	}
}

// TestDirectiveWordProseAfterPunctuation: a line crawlers skip whose
// first word is a key only up to a prose mark (a file name, a possessive,
// a list's comma, a slash between keys) is not a directive run into its
// value: as "Allowed
// paths are below", it is not-a-directive (an info), not an error that
// makes lint exit 1 in CI.
func TestDirectiveWordProseAfterPunctuation(t *testing.T) {
	for _, line := range []string{
		"Sitemap.xml is generated nightly",
		"Allow, Disallow and Sitemap are the keys we use",
		"User-agent's rules follow",
		"License.txt",
		"Content-Usage.",
		"Allow/Disallow rules follow",
		"User-agent/Disallow pairs below",
	} {
		fs := lintText(t, "User-agent: *\nDisallow: /x\n"+line+"\n")
		var got []code
		for _, f := range fs {
			if f.Line == 3 {
				got = append(got, f.Code)
			}
		}
		if len(got) != 1 || got[0] != codeNotDirective {
			t.Errorf("%q: %v, want %s", line, got, codeNotDirective)
		}
	}
}

// TestLintTwoAgentsSecondNamedInGroup: "User-agent: GPTBot, CCBot" followed by
// "User-agent: CCBot" in the same group gives CCBot that group: the Client
// disallows it everything. two-agents (an error, exit 1) says "CCBot gets
// no group", which is false of this file, which does what it says.
func TestLintTwoAgentsSecondNamedInGroup(t *testing.T) {
	for _, body := range []string{
		"User-agent: GPTBot, CCBot\nUser-agent: CCBot\nDisallow: /\n",
		"User-agent: CCBot\nUser-agent: GPTBot CCBot\nDisallow: /\n",
		"User-agent: *\nUser-agent: * CCBot\nUser-agent: CCBot\nDisallow: /\n",
	} {
		rb := robotstxt.Parse([]byte(body))
		if rb.Allowed("CCBot", "/x") || rb.Allowed("GPTBot", "/x") {
			t.Fatalf("%q: the test assumes CCBot and GPTBot are disallowed /x", body)
		}
		for _, f := range lintText(t, body) {
			if f.Code == codeTwoAgents {
				t.Errorf("%q: line %d: %s [%s], but CCBot gets this group (line %d's)", body, f.Line, f.Message, f.Code, rb.Check("CCBot", "/x").Rule.Line)
			}
		}
	}
}

// TestLintTwoAgentsThirdUnnamed: "User-agent: GPTBot, CCBot,
// Bytespider" in a group that names CCBot on a line of its own gives
// Bytespider no group: two-agents (an error) must still say so.
func TestLintTwoAgentsThirdUnnamed(t *testing.T) {
	for _, body := range []string{
		"User-agent: GPTBot, CCBot, Bytespider\nUser-agent: CCBot\nDisallow: /\n",
		"User-agent: GPTBot CCBot Bytespider\nUser-agent: CCBot\nDisallow: /\n",
	} {
		rb := robotstxt.Parse([]byte(body))
		if !rb.Allowed("Bytespider", "/x") {
			t.Fatalf("%q: the test assumes Bytespider gets no group", body)
		}
		var got []string
		two := false
		for _, f := range lintText(t, body) {
			got = append(got, fmt.Sprintf("%d:%s %s: %s", f.Line, f.Severity, f.Code, f.Message))
			two = two || f.Line == 1 && f.Code == codeTwoAgents
		}
		if !two {
			t.Errorf("%q: Bytespider gets no group, but lint says %q; want two-agents on line 1", body, got)
		}
	}
}

// TestLintRuleRunIntoUserAgent: a user-agent line with its rule run into
// it, a line end lost ("User-agent: GPTBot Disallow: /", "User-agent: *
// Disallow: /", as corpus files have them), is one user-agent line and
// no rule: the crawler shut out gets another group's rules, or none. lint
// gives an error on the line.
func TestLintRuleRunIntoUserAgent(t *testing.T) {
	for _, c := range []struct {
		body  string
		line  int    // the user-agent line that holds the rule
		agent string // a crawler it meant to shut out
	}{
		{"User-agent: *\nUser-agent: GPTBot Disallow: /\nUser-agent: CCBot Disallow: /\n\nDisallow: /titelseiten/\n", 2, "GPTBot"}, // 1546.txt
		{"User-agent: * Disallow: /\n", 1, "GPTBot"}, // 1047.txt
		{"User-agent: *\nDisallow: /docs/\nUser-agent: xenu Disallow: /\nUser-agent: AhrefsBot Disallow: /\nAllow: /User-agent: adidxbot\n", 4, "AhrefsBot"}, // 2975.txt
	} {
		if !robotstxt.Parse([]byte(c.body)).Allowed(c.agent, "/index.html") {
			t.Fatalf("%q: the Client disallows %s /index.html; the test assumes the run-in Disallow: / is lost", c.body, c.agent)
		}
		var got []string
		erred := false
		for _, f := range lintText(t, c.body) {
			if f.Line == c.line {
				got = append(got, fmt.Sprintf("%s %s: %s", f.Severity, f.Code, f.Message))
				erred = erred || f.Severity == sevError
			}
		}
		if !erred {
			t.Errorf("%q: line %d holds a Disallow: / that crawlers read as part of the user-agent, and %s may fetch /index.html; lint says %q, want an error",
				c.body, c.line, c.agent, got)
		}
	}
}

// TestLintUserAgentRunIntoRule: a rule with the next user-agent line run
// into it, a line end lost ("Disallow: /User-agent: MJ12bot", as corpus
// files have it), is one rule, and the rules below stay in the group
// above: under *, a Disallow: / meant for MJ12bot shuts every crawler
// out. lint gives an error on the line.
func TestLintUserAgentRunIntoRule(t *testing.T) {
	for _, line := range []string{
		"Disallow: /wp-admin/User-agent: MJ12bot", // 0498.txt's Disallow: /User-agent: MJ12bot, under *
		"Disallow: /wp-admin/ User-agent: MJ12bot",
		"Allow: /User-agent: MJ12bot", // 2975.txt
	} {
		body := "User-agent: *\n" + line + "\nDisallow: /\n"
		if robotstxt.Parse([]byte(body)).Allowed("Googlebot", "/index.html") {
			t.Fatalf("%q: the Client allows Googlebot /index.html; the test assumes MJ12bot's Disallow: / joins the * group", line)
		}
		var got []string
		erred := false
		for _, f := range lintText(t, body) {
			got = append(got, fmt.Sprintf("%d:%s %s", f.Line, f.Severity, f.Code))
			erred = erred || f.Line == 2 && f.Severity == sevError
		}
		if !erred {
			t.Errorf("%q: a user-agent line run into the rule, and every crawler is disallowed the site; lint says %q, want an error on line 2", line, got)
		}
	}
}

// TestLintTwoPathsWithKeyWord: "Disallow: /blog/allow /*.pdf" is two
// paths run into one pattern (two-paths), not an Allow line run into the
// rule: a segment named allow after a '/', with no colon, is no key.
func TestLintTwoPathsWithKeyWord(t *testing.T) {
	for _, line := range []string{"Disallow: /blog/allow /*.pdf", "Disallow: /a/disallow /b", "Disallow: /feeds/sitemap /*.xml"} {
		got := codesAt(lintText(t, "User-agent: *\n"+line+"\n"), codeTwoPaths, codeDirectiveLost)
		if !slices.Equal(got, []string{"2:" + codeTwoPaths.String()}) {
			t.Errorf("%q: lint says %q; want two-paths alone", line, got)
		}
	}
}

// TestLintRunInKeyColonNoBlank: a record run into a user-agent or a
// rule with no blank after its colon ("Disallow:/", "User-agent:MJ12bot")
// is a lost line end too.
func TestLintRunInKeyColonNoBlank(t *testing.T) {
	for _, c := range []struct {
		body  string
		line  int
		agent string // a crawler the file's author meant to shut out, or "" for a rule run into a user-agent
	}{
		{"User-agent: * Disallow:/\n", 1, "GPTBot"},
		{"User-agent: *\nUser-agent: GPTBot Disallow:/\n", 2, "GPTBot"},
		{"User-agent: *\nDisallow: /wp-admin/User-agent:MJ12bot\nDisallow: /\n", 2, ""},
		{"User-agent: *\nAllow: /User-agent:MJ12bot\nDisallow: /\n", 2, ""},
	} {
		p := robotstxt.Parse([]byte(c.body))
		if c.agent != "" && !p.Allowed(c.agent, "/index.html") || c.agent == "" && p.Allowed("Googlebot", "/index.html") {
			t.Fatalf("%q: the test assumes the run-in record is lost", c.body)
		}
		var got []string
		erred := false
		for _, f := range lintText(t, c.body) {
			got = append(got, fmt.Sprintf("%d:%s %s", f.Line, f.Severity, f.Code))
			erred = erred || f.Line == c.line && f.Severity == sevError && f.Code == codeDirectiveLost
		}
		if !erred {
			t.Errorf("%q: line %d holds a record run into it, its colon followed by no blank; lint says %q, want %s on line %d", c.body, c.line, got, codeDirectiveLost, c.line)
		}
	}
}

// TestLintBrowserStringAgent: a user-agent line written as a crawler's
// whole User-Agent header, "Mozilla/5.0 (compatible; Baiduspider/2.0;
// +http://…)", is read as the token Mozilla, which is no crawler's: the
// crawler it names gets no group, and obeys the * rules (the Client
// agrees). Lint calls it agent-token, an info ("read as meant") and exits
// 0, where "User-agent: GPTBot CCBot" (CCBot gets no group) is an error.
// Real files: 0579.txt (Baiduspider, Sosospider, JikeSpider shut out by
// Disallow: /), 1387.txt (bnf.fr_bot, heritrix: lint 0 errors, 0 warnings).
func TestLintBrowserStringAgent(t *testing.T) {
	for crawler, agent := range map[string]string{
		"Baiduspider":  "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
		"Pinterestbot": "Mozilla/5.0 (compatible; Pinterestbot/1.0; +https://www.pinterest.com/bot.html)",
		"heritrix":     "Mozilla/5.0 (compatible; heritrix/3.2.0 +http://www.oasis.go.kr)",
		"JikeSpider":   "Mozilla/5.0 (compatible; JikeSpider; +http://shoulu.jike.com/spider.html)",
	} {
		body := "User-agent: *\nDisallow: /private/\n\nUser-agent: " + agent + "\nDisallow: /\n"
		if !robotstxt.Parse([]byte(body)).Allowed(crawler, "/page") {
			t.Fatalf("%s: the Client gives %s the group of line 4; the test's premise is wrong", agent, crawler)
		}
		worst := severity(-1)
		for _, f := range lintText(t, body) {
			if f.Line == 4 {
				worst = max(worst, f.Severity)
			}
		}
		if worst < sevWarning {
			t.Errorf("User-agent: %s\n  %s gets no group and may fetch /page, but lint's worst finding on the line is %v (%q)",
				agent, crawler, worst, codesAt(lintText(t, body), codeAgentToken, codeTwoAgents, codeTwoWords, codeAgentCut))
		}
	}
}

// TestLintUserAgentKeyTypoMovesRules: a user-agent line crawlers skip for
// a misspelt key (User-agnet, User-agen, a zero-width joiner before it)
// does not start a group: the rules under it join the group above. Here
// "Disallow: /" meant for BadBot shuts every crawler out of the site, and
// Claude-Web, meant to be shut out, may fetch everything. Lint gives only
// key-typo, a warning, and exits 0. Real files: 0749.txt (crawler4j),
// 1423.txt (Claude-Web), 1438.txt (Spinn3r), 2230.txt (Bingbot).
func TestLintUserAgentKeyTypoMovesRules(t *testing.T) {
	for _, tc := range []struct {
		body, agent, url string
		allowed          bool // what the Client says, against the evident intent
	}{
		{"User-agent: *\nDisallow: /tmp/\n\nUser-agnet: BadBot\nDisallow: /\n", "Googlebot", "/index.html", false},
		{"User-agent: *\nAllow: /\n\nUser-agent: omgilibot\nDisallow: /\n\n\u200dUser-agent: Claude-Web\nDisallow: /\n", "Claude-Web", "/index.html", true},
		{"User-agent: SemrushBot\nDisallow: /\nUser-agen: crawler4j\nDisallow: /\n", "crawler4j", "/index.html", true},
	} {
		if got := robotstxt.Parse([]byte(tc.body)).Allowed(tc.agent, tc.url); got != tc.allowed {
			t.Fatalf("%q: Client says %s allowed %s = %v; the test's premise is wrong", tc.body, tc.agent, tc.url, got)
		}
		errs := 0
		for _, f := range lintText(t, tc.body) {
			if f.Severity == sevError {
				errs++
			}
		}
		if errs == 0 {
			t.Errorf("%q\n  %s allowed %s = %v against the file's intent, but lint reports no error: %q",
				tc.body, tc.agent, tc.url, tc.allowed, codesAt(lintText(t, tc.body), codeKeyTypo, codeDuplicate, codeDisallowAll))
		}
	}
}

// TestLintBrowserStringAgentNamedElsewhere: a user-agent written as a
// crawler's whole User-Agent header is no error when the crawler it names
// has a group all the same: in the same group on a line of its own
// (1128.txt: "User-agent: Baiduspider" ... "User-agent: Mozilla/5.0
// (compatible; Baiduspider/2.0; …)" over one Disallow: /), or in a group
// of its own with the same rules (0678.txt, BecomeBot; 0614.txt and a
// dozen others, "Bullseye/1.0" then "Mozilla/4.0 (compatible; BullsEye;
// Windows 95)"): it is what "User-agent: GPTBot CCBot" with CCBot on a
// line of the group's own is, agent-token, an info.
func TestLintBrowserStringAgentNamedElsewhere(t *testing.T) {
	const header = "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"
	for _, body := range []string{
		"User-agent: *\nAllow: /\n\nUser-agent: Baiduspider\nUser-agent: " + header + "\nDisallow: /\n",
		"User-agent: *\nAllow: /\n\nUser-agent: Baiduspider\nDisallow: /\n\nUser-agent: " + header + "\nDisallow: /\n",
	} {
		if robotstxt.Parse([]byte(body)).Allowed("Baiduspider", "/page") {
			t.Fatalf("%q: the Client gives Baiduspider no group; the test's premise is wrong", body)
		}
		for _, f := range lintText(t, body) {
			if f.Severity == sevError {
				t.Errorf("%q\n  Baiduspider has its group (the Client shuts it out), but lint says line %d: %s: %s",
					body, f.Line, f.Code, f.Message)
			}
		}
	}
}

// TestLintBrowserStringAgentNamedInAnotherGroupWithOtherRules: a
// user-agent written as a crawler's whole User-Agent header, over rules
// that the crawler's own group elsewhere does not hold, is still an
// error: the crawler gets its own group (Allow: /), never the header's
// (Disallow: /), which no crawler gets. fileNames silences it because
// some line of the file names Baiduspider, whatever its group says.
func TestLintBrowserStringAgentNamedInAnotherGroupWithOtherRules(t *testing.T) {
	const header = "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"
	body := "User-agent: Baiduspider\nAllow: /\n\nUser-agent: " + header + "\nDisallow: /\n"
	if !robotstxt.Parse([]byte(body)).Allowed("Baiduspider", "/page") {
		t.Fatalf("the premise is wrong: the Client shuts Baiduspider out")
	}
	for _, f := range lintText(t, body) {
		if f.Line == 4 && f.Severity == sevError {
			return
		}
	}
	t.Errorf("%q: Baiduspider is allowed everywhere (its own group), the header's Disallow: / reaches no crawler, and lint gives no error on line 4: %v",
		body, lintText(t, body))
}

// TestLintBrowserStringAgentGroupWithCrawlDelayOnly: a user-agent
// written as a crawler's whole User-Agent header, over a Crawl-delay (and
// no rule, or only rules the crawler's own group holds too), while the
// crawler has a group of its own elsewhere: the crawler gets its own
// group, without the delay, which the Client then never keeps: an error,
// though no rule of the header's group is one the crawler misses.
func TestLintBrowserStringAgentGroupWithCrawlDelayOnly(t *testing.T) {
	const header = "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"
	for _, body := range []string{
		"User-agent: Baiduspider\nDisallow: /admin/\n\nUser-agent: " + header + "\nCrawl-delay: 10\n",
		"User-agent: Baiduspider\nDisallow: /admin/\n\nUser-agent: " + header + "\nDisallow: /admin/\nCrawl-delay: 10\n",
		"User-agent: Baiduspider\nDisallow: /admin/\n\nUser-agent: " + header + "\nContent-Usage: train-ai=n\n",
	} {
		r := robotstxt.Parse([]byte(body))
		if d, ok := r.CrawlDelay("Baiduspider"); ok || d != 0 {
			t.Fatalf("%q: the premise is wrong: the Client gives Baiduspider a crawl-delay of %v", body, d)
		}
		errs := 0
		for _, f := range lintText(t, body) {
			if f.Line == 4 && f.Severity == sevError {
				errs++
			}
		}
		if errs == 0 {
			t.Errorf("%q: the header's group reaches no crawler (Baiduspider gets its own group, without what line 5 says), and lint gives no error on line 4: %v",
				body, lintText(t, body))
		}
	}
}

// TestLintBrowserStringAgentInGlobalGroup: a user-agent written as a
// crawler's whole User-Agent header in the group of "User-agent: *",
// while the crawler has no group of its own: the crawler gets this very
// group through *, the header's rules reach it, and giving its token
// alone changes nothing: no error.
func TestLintBrowserStringAgentInGlobalGroup(t *testing.T) {
	const header = "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"
	body := "User-agent: *\nUser-agent: " + header + "\nDisallow: /private/\n"
	fixed := "User-agent: *\nUser-agent: Baiduspider\nDisallow: /private/\n"
	for _, u := range []string{"/private/x", "/public"} {
		if robotstxt.Parse([]byte(body)).Allowed("Baiduspider", u) != robotstxt.Parse([]byte(fixed)).Allowed("Baiduspider", u) {
			t.Fatalf("the premise is wrong: naming Baiduspider changes %s", u)
		}
	}
	for _, f := range lintText(t, body) {
		if f.Severity == sevError {
			t.Errorf("%q\n  Baiduspider gets this group through *, as it would named, but lint says line %d: %s: %s", body, f.Line, f.Code, f.Message)
		}
	}
}

// TestLintBrowserStringAgentOwnGroupReplacesGlobal: a user-agent written
// as a crawler's whole User-Agent header, in a group of its own, while
// the crawler has no group naming it: the crawler gets the * groups. The
// header's rules being among the * groups' is not enough: named, the
// header's group would be the crawler's only group and replace *'s, so
// what *'s says beyond it (here Disallow: /*.pdf$) is what the owner
// meant not to apply, and does. An error, as the Client shows.
func TestLintBrowserStringAgentOwnGroupReplacesGlobal(t *testing.T) {
	const header = "Mozilla/5.0 (compatible; OGDWCtxCrawler)" // corpus 1640.txt
	for _, tc := range []struct{ body, fixed, url string }{
		{"User-agent: *\nAllow: /\nDisallow: /*.pdf$\n\nUser-agent: " + header + "\nAllow: /\n",
			"User-agent: *\nAllow: /\nDisallow: /*.pdf$\n\nUser-agent: OGDWCtxCrawler\nAllow: /\n", "/doc.pdf"},
		{"User-agent: *\nDisallow: /admin/\nDisallow: /search\n\nUser-agent: " + header + "\nDisallow: /admin/\n",
			"User-agent: *\nDisallow: /admin/\nDisallow: /search\n\nUser-agent: OGDWCtxCrawler\nDisallow: /admin/\n", "/search"},
	} {
		if robotstxt.Parse([]byte(tc.body)).Allowed("OGDWCtxCrawler", tc.url) == robotstxt.Parse([]byte(tc.fixed)).Allowed("OGDWCtxCrawler", tc.url) {
			t.Fatalf("%q: the premise is wrong: naming OGDWCtxCrawler changes nothing for %s", tc.body, tc.url)
		}
		errs := 0
		for _, f := range lintText(t, tc.body) {
			if f.Line == 5 && f.Severity == sevError {
				errs++
			}
		}
		if errs == 0 {
			t.Errorf("%q: OGDWCtxCrawler gets the * group (%s disallowed), not line 5's group, which would allow it; lint gives no error on line 5: %v",
				tc.body, tc.url, lintText(t, tc.body))
		}
	}
}

// TestLintBrowserStringAgentCrawlDelayOrder: the Client keeps the first
// crawl-delay of the crawler's groups in file order. A header's group
// before the crawler's own, with a crawl-delay that only a later group
// of the crawler's repeats, would, named, give the crawler its delay
// (10s) in place of the 5s it gets: the delay does not reach it, though
// the value is among its groups'.
func TestLintBrowserStringAgentCrawlDelayOrder(t *testing.T) {
	const header = "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"
	rest := "\n\nUser-agent: Baiduspider\nDisallow: /a\nCrawl-delay: 5\n\nUser-agent: Baiduspider\nDisallow: /a\nCrawl-delay: 10\n"
	body := "User-agent: " + header + "\nDisallow: /a\nCrawl-delay: 10" + rest
	fixed := "User-agent: Baiduspider\nDisallow: /a\nCrawl-delay: 10" + rest
	d, _ := robotstxt.Parse([]byte(body)).CrawlDelay("Baiduspider")
	df, _ := robotstxt.Parse([]byte(fixed)).CrawlDelay("Baiduspider")
	if d == df {
		t.Fatalf("the premise is wrong: naming Baiduspider keeps its crawl-delay %v", d)
	}
	for _, f := range lintText(t, body) {
		if f.Line == 1 && f.Severity == sevError {
			return
		}
	}
	t.Errorf("%q: Baiduspider gets a crawl-delay of %v, named %v; lint gives no error on line 1: %v", body, d, df, lintText(t, body))
}

// TestLintBrowserStringAgentSameDelaySpelledOtherwise: a header's group
// whose crawl-delay is the crawler's own group's, written 10.0 for 10:
// named, the crawler's delay stays 10s, nothing changes: no error.
func TestLintBrowserStringAgentSameDelaySpelledOtherwise(t *testing.T) {
	const header = "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"
	body := "User-agent: Baiduspider\nDisallow: /admin/\nCrawl-delay: 10\n\nUser-agent: " + header + "\nDisallow: /admin/\nCrawl-delay: 10.0\n"
	fixed := "User-agent: Baiduspider\nDisallow: /admin/\nCrawl-delay: 10\n\nUser-agent: Baiduspider\nDisallow: /admin/\nCrawl-delay: 10.0\n"
	d, _ := robotstxt.Parse([]byte(body)).CrawlDelay("Baiduspider")
	df, _ := robotstxt.Parse([]byte(fixed)).CrawlDelay("Baiduspider")
	if d != df || d != 10*time.Second {
		t.Fatalf("the premise is wrong: %v vs %v", d, df)
	}
	for _, f := range lintText(t, body) {
		if f.Line == 5 && f.Severity == sevError {
			t.Errorf("%q: Baiduspider gets 10s either way, but lint says line 5: %s: %s", body, f.Code, f.Message)
		}
	}
}

// TestLintBrowserStringAgentsLinear: a 500 KiB file of User-Agent header
// lines (each a group of its own) lints in about the time of one parse,
// TestLintBrowserStringAgentsBounded: each user-agent line read as a
// User-Agent header costs a parse of the whole file; a hostile file of
// 500 KiB of them has at most 64 read so, not one per line
// (a quadratic lint: 40 s), the rest getting the token's info as before.
func TestLintBrowserStringAgentsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /\n")
	for i := 0; b.Len() < 500<<10-100; i++ {
		fmt.Fprintf(&b, "User-agent: Mozilla/5.0 (compatible; %sBot/1.0)\nDisallow: /x\n", letters(i))
	}
	headers := 0
	for _, f := range lintText(t, b.String()) {
		if strings.Contains(f.Message, "is a User-Agent header") {
			headers++
		}
	}
	if headers == 0 || headers > maxHeaderChecks {
		t.Errorf("%d lines read as User-Agent headers, want 1 to %d", headers, maxHeaderChecks)
	}
}

// letters spells i in the letters a to z, a crawler name's part.
func letters(i int) string {
	s := ""
	for {
		s = string(rune('a'+i%26)) + s
		if i /= 26; i == 0 {
			return s
		}
	}
}

// TestLintBrowserStringAgentAfterSecondBOM: a file whose first line
// starts with a second byte order mark. The parser drops the first
// only, so line 1 is an unknown key and line 2 a rule outside any
// group: XBot gets no rule, and /x is allowed to it. Named (line 4
// "User-agent: XBot"), it would be disallowed /x: line 4 is an error,
// the lines rejoined keeping the second mark off line 1's key.
func TestLintBrowserStringAgentAfterSecondBOM(t *testing.T) {
	body := bom + bom + "User-agent: *\nDisallow: /x\n\nUser-agent: Mozilla/5.0 (compatible; XBot/1.0)\nDisallow: /x\n"
	fixed := bom + bom + "User-agent: *\nDisallow: /x\n\nUser-agent: XBot\nDisallow: /x\n"
	if robotstxt.Parse([]byte(body)).Allowed("XBot", "http://a.test/x") == robotstxt.Parse([]byte(fixed)).Allowed("XBot", "http://a.test/x") {
		t.Fatal("the premise is wrong: naming XBot changes nothing for /x")
	}
	for _, f := range lintText(t, body) {
		if f.Line == 4 && f.Severity == sevError {
			return
		}
	}
	t.Errorf("%q: XBot is allowed /x, named it would not be; lint gives no error on line 4: %v", body, lintText(t, body))
}

// TestLintBrowserStringAgentsCapCountsOnlyReadings: maxHeaderChecks
// bounds the parses readsAsNamed makes; a user-agent line that names no
// crawler's token (a browser's own header, Mozilla/5.0 (Windows NT…))
// costs none, and does not use up the bound before a crawler's header.
func TestLintBrowserStringAgentsCapCountsOnlyReadings(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /x\n\n")
	for range maxHeaderChecks + 1 {
		b.WriteString("User-agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64)\n")
	}
	b.WriteString("Disallow: /\n\nUser-agent: Mozilla/5.0 (compatible; XBot/1.0)\nAllow: /\n")
	line := 3 + maxHeaderChecks + 1 + 3
	fs := lintText(t, b.String())
	for _, f := range fs {
		if f.Line == line && f.Severity == sevError {
			return
		}
	}
	t.Errorf("XBot's User-Agent header on line %d after %d browser strings: no error; findings on it: %v", line, maxHeaderChecks+1,
		slices.DeleteFunc(fs, func(f finding) bool { return f.Line != line }))
}

// TestReadsAsNamedBoundsItsUsagePaths: a header line whose crawler reads
// the file as named is passed over; past maxUsageCompared Content-Usage
// paths, whose comparison is quadratic in them (a hostile file of them
// linted for minutes, review158), it is reported instead.
func TestReadsAsNamedBoundsItsUsagePaths(t *testing.T) {
	for _, n := range []int{10, maxUsageCompared + 1} {
		var b strings.Builder
		b.WriteString("User-agent: *\nDisallow: /x\n")
		for i := range n {
			fmt.Fprintf(&b, "Content-Usage: /p%d/ train-ai=n\n", i)
		}
		b.WriteString("\nUser-agent: Mozilla/5.0 (compatible; XBot/1.0)\nDisallow: /x\n")
		line := 2 + n + 2
		for i := range n {
			fmt.Fprintf(&b, "Content-Usage: /p%d/ train-ai=n\n", i)
		}
		reported := slices.ContainsFunc(lintText(t, b.String()), func(f finding) bool { return f.Line == line && f.Code == codeAgentCut })
		if want := n > maxUsageCompared; reported != want {
			t.Errorf("%d Content-Usage paths: the header line reported %v, want %v", n, reported, want)
		}
	}
}
