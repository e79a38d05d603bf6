package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt/parser"
)

func TestLintUsage(t *testing.T) {
	codes := []code{codeUsageSyntax, codeUsageValue, codeUsageRepeated, codeUsageLabel, codeUsageConflict, codeUsageGroup, codeUnknownKey, codeKeyTypo, codeDirectiveLost, codeOutsideGroup, codeSignalValue}
	for _, tc := range []struct {
		name, body string
		want       []string // line:code
	}{
		{"clean", "User-agent: *\nAllow: /\nContent-Usage: train-ai=n, search=y\nContent-Usage: /ai-ok/ train-ai=y\nContent-Signal: ai-train=no, search=yes\n", nil},
		{"content-signal before any group", "Content-Signal: ai-train=no\nUser-agent: *\nAllow: /\n", nil},
		{"not a dictionary", "User-agent: *\nContent-Usage: Train-AI=n\n", []string{"2:usage-syntax"}},
		{"a ',' at the end", "User-agent: *\nContent-Usage: /a train-ai=n,\n", []string{"2:usage-syntax"}},
		{"as long as a line", "User-agent: *\nContent-Usage: search=y;x=\"" + strings.Repeat("x", parser.MaxLineLength-50) + "\", train-ai=n\n", nil},
		{"a path without a statement", "User-agent: *\nContent-Usage: /a/\n", []string{"2:usage-syntax"}},
		{"yes is not y", "User-agent: *\nContent-Usage: train-ai=no, search=\"y\"\n", []string{"2:usage-value", "2:usage-value"}},
		{"a key alone", "User-agent: *\nContent-Usage: train-ai\n", []string{"2:usage-value"}},
		{"the last value counts", "User-agent: *\nContent-Usage: train-ai=maybe, train-ai=n\n", nil},
		{"a refusal a later value replaces", "User-agent: *\nContent-Usage: train-ai=n, search=y, train-ai=y\n", []string{"2:usage-repeated"}},
		{"a refusal given twice", "User-agent: *\nContent-Usage: train-ai=n, train-ai=n\n", nil},
		{"a refusal given again last", "User-agent: *\nContent-Usage: train-ai=n, train-ai=y, train-ai=n\n", nil},
		{"a later refusal", "User-agent: *\nContent-Usage: train-ai=y, train-ai=n\n", nil},
		{"a refusal replaced by a label alone", "User-agent: *\nContent-Usage: train-ai=n, train-ai\n", []string{"2:usage-value", "2:usage-repeated"}},
		{"outside the vocabulary", "User-agent: *\nContent-Usage: x-ai=n, x-ai=y, train-ai=n\n", []string{"2:usage-label"}},
		{"parameters are fine", "User-agent: *\nContent-Usage: train-ai=n;since=2025\n", nil},
		{"a preference after ';'", "User-agent: *\nContent-Usage: search=y; train-ai=n\n", []string{"2:usage-value"}},
		{"a label in a String is no parameter", "User-agent: *\nContent-Usage: train-ai=n;note=\"a \\\" ;search=y\"\n", nil},
		{"a parameter named like a label's start", "User-agent: *\nContent-Usage: train-ai=n;searches=2\n", nil},
		{"labels of older drafts, in one finding", "User-agent: *\nContent-Usage: ai=n, genai=n, train-ai=n\n", []string{"2:usage-label"}},
		{"y and n for one path", "User-agent: *\nContent-Usage: /a/ train-ai=y\nContent-Usage: /a/ train-ai=n\n", []string{"3:usage-conflict"}},
		{"across merged groups", "User-agent: A\nAllow: /\nContent-Usage: train-ai=y\n\nUser-agent: A\nAllow: /\nContent-Usage: train-ai=n\n", []string{"7:usage-conflict"}},
		{"not across crawlers", "User-agent: A\nAllow: /\nContent-Usage: train-ai=y\n\nUser-agent: B\nAllow: /\nContent-Usage: train-ai=n\n", nil},
		{"other paths do not conflict", "User-agent: *\nContent-Usage: /a/ train-ai=y\nContent-Usage: /a/b train-ai=n\n", nil},
		{"other labels do not conflict", "User-agent: *\nContent-Usage: /a/ train-ai=y\nContent-Usage: /a/ search=n\n", nil},
		{"a user-agent line joins the group", "User-agent: GPTBot\nContent-Usage: train-ai=n\n\nUser-agent: *\nDisallow: /private/\n", []string{"4:usage-group"}},
		{"once per group", "User-agent: A\nContent-Usage: train-ai=n\nUser-agent: B\nUser-agent: C\nContent-Usage: search=n\nUser-agent: D\n", []string{"3:usage-group", "6:usage-group"}},
		{"an allow ends the group", "User-agent: GPTBot\nAllow: /\nContent-Usage: train-ai=n\n\nUser-agent: *\nDisallow: /private/\n", nil},
		{"before any group", "Content-Usage: train-ai=n\nUser-agent: *\nAllow: /\n", []string{"1:rule-outside-group"}},
		{"without a colon", "User-agent: *\nContent-Usage /a train-ai=n\n", []string{"2:directive-skipped"}},
		{"a known key, no unknown-key finding", "User-agent: *\nCONTENT-USAGE: train-ai=n\ncontent-signal: search=yes\n", nil},
		{"a Content-Signal value neither yes nor no", "Content-Signal: ai-train=nope\nUser-agent: *\nAllow: /\nContent-Signal: search=yes, ai-input=maybe\n", []string{"1:signal-value", "4:signal-value"}},
		{"a Content-Signal pair without =", "User-agent: *\nAllow: /\nContent-Signal: search=yes, ai-train\n", []string{"3:signal-value"}},
		{"a Content-Signal pair read for its refusals", "User-agent: *\nAllow: /\nContent-Signal: search=yes; ai-train=no\n", []string{"3:signal-value"}},
		{"other Content-Signal keys take any Token", "User-agent: *\nAllow: /\nContent-Signal: search=yes, x-custom=maybe\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := codesAt(lintText(t, tc.body), codes...)
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLintUsageMessages checks what the usage findings say: sfv's reason,
// the vocabulary's labels, the two lines of a conflict.
func TestLintUsageMessages(t *testing.T) {
	fs := lintText(t, "User-agent: *\nContent-Usage: /a/ train-ai=y\nContent-Usage: /a/ train-ai=n, ai=n\nContent-Usage: Train-AI=n\n")
	var msgs []string
	for _, f := range fs {
		msgs = append(msgs, f.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{
		`label "ai" is none of those crawlers read, train-ai, search or ai-input`,
		"line 2 says train-ai=y for the same path, and this line train-ai=n",
		`the statement "Train-AI=n" is not a Dictionary of RFC 9651 (sfv: offset 0: want a key`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no finding says %q:\n%s", want, all)
		}
	}
}

// TestLintSignalValue checks what lint says of a Content-Signal value it
// cannot read: the pair, why, and how many more.
func TestLintSignalValue(t *testing.T) {
	fs := lintText(t, "User-agent: *\nAllow: /\nContent-Signal: ai-train=nope, search=yes, ai-input=1\n")
	want := `pair "ai-train=nope": ai-train takes yes or no (and 1 more): crawlers that read Content-Signal may read no preference from it`
	if len(fs) != 1 || fs[0].Code != codeSignalValue || fs[0].Severity != sevWarning || fs[0].Message != want || fs[0].Text != "Content-Signal: ai-train=nope, search=yes, ai-input=1" {
		t.Errorf("findings %+v; want one saying %q", fs, want)
	}
}

// TestLintUsageConflictPastBudgetSaysSo: a file whose crawlers' Content-
// Usage rules, counted for each crawler, pass lint's budget says which
// crawlers it did not check for conflicting rules, rather than nothing
// (review128: 130 crawlers sharing 1,010 rules, each with one of its
// own, lost the last one's conflict silently).
func TestLintUsageConflictPastBudgetSaysSo(t *testing.T) {
	var b strings.Builder
	writeCrowdConflict(&b)
	if got := codesAt(lintText(t, b.String()), codeUsageConflict, codeNotChecked); len(got) == 0 {
		t.Errorf("crawlers reading a /x train-ai=y and their own /x train-ai=n: lint reports neither a conflict nor that it left crawlers unchecked")
	}
}

// TestLintNotCheckedCountsTheCrawlersLeft: past its budget,
// usage-conflict counts the crawlers whose rules it did not check, not
// those whose rules another's check covered (review129: 300 crawlers
// named together, all checked, and 130 all but the last checked, were
// said to be 301 not checked).
func TestLintNotCheckedCountsTheCrawlersLeft(t *testing.T) {
	const together = 300
	var b strings.Builder
	for i := range together {
		fmt.Fprintf(&b, "User-agent: %s\n", "x"+crowdToken(i))
	}
	b.WriteString("Content-Usage: /y train-ai=y\nDisallow: /nothing\n")
	writeCrowdConflict(&b)
	for _, f := range lintText(t, b.String()) {
		if f.Code == codeNotChecked {
			var n int
			fmt.Sscanf(strings.TrimPrefix(f.Message, "the Content-Usage rules of "), "%d", &n)
			if n > 2 {
				t.Errorf("lint: %s\n(all %d crawlers named on lines 1-%d were checked, and of the %d others all but the last one or two)", f.Message, together, together, crowdCrawlers)
			}
		}
	}
}

// crowdCrawlers name the runs writeCrowdConflict writes.
const crowdCrawlers = 130

// writeCrowdConflict writes crowdCrawlers crawlers that share 1,010
// Content-Usage rules, "/x train-ai=y" first, each with "/x train-ai=n" of
// its own: checked crawler by crawler, their rules pass lint's budget.
func writeCrowdConflict(b *strings.Builder) {
	for i := range crowdCrawlers {
		fmt.Fprintf(b, "User-agent: %s\n", crowdToken(i))
	}
	b.WriteString("Content-Usage: /x train-ai=y\n")
	for i := 1; i < 1010; i++ {
		fmt.Fprintf(b, "Content-Usage: /s%d train-ai=y\n", i)
	}
	for i := range crowdCrawlers {
		fmt.Fprintf(b, "User-agent: %s\nContent-Usage: /x train-ai=n\n", crowdToken(i))
	}
}
