package robotstxt

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/robotsgate/robotstxt/internal/longtest"
	"github.com/robotsgate/robotstxt/internal/match"
	"github.com/robotsgate/robotstxt/internal/parse"
	"github.com/robotsgate/robotstxt/internal/sfv"
	"github.com/robotsgate/robotstxt/internal/usage"
)

// prefs returns the preference for each of labels, as "label=pref"
// joined by spaces, for compact comparisons.
func prefs(u Usage, labels ...string) string {
	parts := make([]string, len(labels))
	for i, l := range labels {
		parts[i] = l + "=" + u.Pref(l).String()
	}
	return strings.Join(parts, " ")
}

// The labels the tests ask about: the vocabulary's and some that older
// drafts and generators wrote.
var testLabels = []string{"train-ai", "search", "ai", "genai", "bots", "use"}

func TestParseUsage(t *testing.T) {
	tests := []struct {
		in      string
		str     string // String()
		prefs   string // prefs(u, "train-ai", "search")
		invalid bool   // parseStatement fails
	}{
		// draft-ietf-aipref-vocab's examples.
		{in: "train-ai=y, search=n", str: "train-ai=y, search=n", prefs: "train-ai=y search=n"},
		{in: `train-ai=y, train-ai, search=n, search="n"`, prefs: "train-ai=unknown search=unknown"},
		{in: "train-ai;allow=n, train-ai=y", str: "train-ai=y", prefs: "train-ai=y search=unknown"},
		{in: `train-ai;has;parameters="?"`, prefs: "train-ai=unknown search=unknown"},
		// As the draft writes it, with a ';' at the end, it is no
		// Dictionary: a key must follow ';'. Unknown either way.
		{in: `train-ai;has;parameters="?";`, prefs: "train-ai=unknown search=unknown", invalid: true},
		// draft-ietf-aipref-attach's examples (the statement part of the
		// robots.txt rules, and the header).
		{in: "train-ai=n", str: "train-ai=n", prefs: "train-ai=n search=unknown"},
		{in: "train-ai=y", str: "train-ai=y", prefs: "train-ai=y search=unknown"},
		{in: "ai=y", str: "ai=y", prefs: "train-ai=unknown search=unknown"},
		// Values other than the Tokens y and n, and parameters.
		{in: "train-ai=n;q=1", str: "train-ai=n", prefs: "train-ai=n search=unknown"},
		{in: "train-ai=y;allow=n", str: "train-ai=y", prefs: "train-ai=y search=unknown"},
		{in: `train-ai="n"`, prefs: "train-ai=unknown search=unknown"},
		{in: "train-ai=?1", prefs: "train-ai=unknown search=unknown"},
		{in: "train-ai=?0", prefs: "train-ai=unknown search=unknown"},
		{in: "train-ai", prefs: "train-ai=unknown search=unknown"},
		{in: "train-ai=(y)", prefs: "train-ai=unknown search=unknown"},
		{in: "train-ai=(n);q", prefs: "train-ai=unknown search=unknown"},
		{in: "train-ai=1", prefs: "train-ai=unknown search=unknown"},
		{in: "train-ai=:bg==:", prefs: "train-ai=unknown search=unknown"},
		{in: `train-ai=%"n"`, prefs: "train-ai=unknown search=unknown"},
		{in: "train-ai=@0", prefs: "train-ai=unknown search=unknown"},
		{in: "train-ai=yes", str: "train-ai=yes", prefs: "train-ai=unknown search=unknown"},
		{in: "train-ai=N, search=Y", str: "train-ai=N, search=Y", prefs: "train-ai=unknown search=unknown"},
		{in: "train-ai=n; search=y", str: "train-ai=n", prefs: "train-ai=n search=unknown"}, // ';': search=y is a parameter
		{in: "use=reference, train-ai=n", str: "use=reference, train-ai=n", prefs: "train-ai=n search=unknown"},
		{in: "a=1, b=?1, train-ai=n, c=(y), d=*x:y/z", str: "train-ai=n, d=*x:y/z", prefs: "train-ai=n search=unknown"},
		// Whole-field failures: every label unknown.
		{in: "TRAIN-AI=n", prefs: "train-ai=unknown search=unknown", invalid: true},
		{in: "train-ai=n, Search=y", prefs: "train-ai=unknown search=unknown", invalid: true},
		{in: "train-ai=n, search=y,", prefs: "train-ai=unknown search=unknown", invalid: true},
		{in: "train-ai=n,,search=y", prefs: "train-ai=unknown search=unknown", invalid: true},
		{in: "train-ai = n", prefs: "train-ai=unknown search=unknown", invalid: true},
		{in: "train-ai= n", prefs: "train-ai=unknown search=unknown", invalid: true},
		{in: "train-ai=n ;q=1", prefs: "train-ai=unknown search=unknown", invalid: true},
		{in: "train-ai=n search=y", prefs: "train-ai=unknown search=unknown", invalid: true},
		{in: "train-ai:n", prefs: "train-ai=unknown search=unknown", invalid: true},
		{in: "\ttrain-ai=n", prefs: "train-ai=unknown search=unknown", invalid: true},
		{in: "train-ai=n, search=\"y", prefs: "train-ai=unknown search=unknown", invalid: true},
		{in: "train-ai=n, ü=y", prefs: "train-ai=unknown search=unknown", invalid: true},
		{in: "train-ai=n, b=%\"%C3%BC\"", prefs: "train-ai=unknown search=unknown", invalid: true},
		{in: "train-ai=n, x=1.2345", prefs: "train-ai=unknown search=unknown", invalid: true},
		// White space where RFC 9651 allows it.
		{in: "", prefs: "train-ai=unknown search=unknown"},
		{in: "   ", prefs: "train-ai=unknown search=unknown"},
		{in: "  train-ai=n", str: "train-ai=n", prefs: "train-ai=n search=unknown"},
		{in: "train-ai=n \t", str: "train-ai=n", prefs: "train-ai=n search=unknown"},
		{in: "train-ai=n\t,\tsearch=y", str: "train-ai=n, search=y", prefs: "train-ai=n search=y"},
		{in: "train-ai=n,search=y", str: "train-ai=n, search=y", prefs: "train-ai=n search=y"},
		{in: "train-ai=n;  q=1 ,   search=y", str: "train-ai=n, search=y", prefs: "train-ai=n search=y"},
		// A repeated key: the last value, at the first place.
		{in: "search=y, train-ai=n, search=n", str: "search=n, train-ai=n", prefs: "train-ai=n search=n"},
		{in: "train-ai=n, train-ai=\"n\"", prefs: "train-ai=unknown search=unknown"},
		{in: "train-ai=1, search=y, train-ai=y", str: "train-ai=y, search=y", prefs: "train-ai=y search=y"},
		// Labels older drafts and generators wrote are kept.
		{in: "ai=n, genai=n, bots=y, *=n", str: "ai=n, genai=n, bots=y, *=n", prefs: "train-ai=unknown search=unknown"},
	}
	for _, tt := range tests {
		u, err := parseStatement(tt.in)
		if (err != nil) != tt.invalid {
			t.Errorf("parseStatement(%q) error = %v, want error %v", tt.in, err, tt.invalid)
		}
		if got := u.statement(); got != tt.str {
			t.Errorf("parseUsage(%q).String() = %q, want %q", tt.in, got, tt.str)
		}
		if got := prefs(u, "train-ai", "search"); got != tt.prefs {
			t.Errorf("parseUsage(%q): %s, want %s", tt.in, got, tt.prefs)
		}
		if parseUsage(tt.in) != u {
			t.Errorf("parseUsage(%q) differs from parseStatement", tt.in)
		}
	}
}

func TestParseUsageErrors(t *testing.T) {
	_, err := parseStatement("train-ai=n, Search=y")
	var se *sfv.SyntaxError
	if !errors.As(err, &se) || se.Offset != 12 {
		t.Errorf("upper-case key: error %v, want a *sfv.SyntaxError at offset 12", err)
	}
	if _, err := parseStatement("train-ai=n," + strings.Repeat(" ", sfv.MaxLength)); !errors.Is(err, sfv.ErrTooLong) {
		t.Errorf("long statement: error %v, want sfv.ErrTooLong", err)
	}
}

// manyLabels returns n < 10,000 distinct labels of five bytes: "l0000",
// "l0001", and so on.
func manyLabels(n int) []string {
	labels := make([]string, n)
	for i := range labels {
		labels[i] = fmt.Sprintf("l%04d", i)
	}
	return labels
}

// members writes label=value for each label, joined by ",".
func members(labels []string, value string) string {
	return strings.Join(labels, "="+value+",") + "=" + value
}

// TestParseUsageLongStatements reads statements as long as a header field
// the scanner reads, longer than a robots.txt line (issue 30): train-ai=n
// at the end of sfv.MaxLength bytes counts,
// whether they hold 1,024 members (RFC 9651 §3.2's minimum), 1,025, as
// many distinct labels as fit or one key repeated thousands of times; one
// byte more states nothing.
func TestParseUsageLongStatements(t *testing.T) {
	// fill ends head with train-ai=n and a parameter that brings the
	// statement to sfv.MaxLength bytes.
	fill := func(head string) string {
		last := "train-ai=n;p="
		return head + last + strings.Repeat("p", sfv.MaxLength-len(head)-len(last))
	}
	for _, tc := range []struct {
		name      string
		statement string
		labels    int // in the Usage
	}{
		{"a long parameter", fill(`search=y;note="` + strings.Repeat("x", 11000) + `", `), 2},
		{"1,024 members", fill(members(manyLabels(1023), "y") + ","), 1024},
		{"1,025 members", fill(members(manyLabels(1024), "y") + ","), 1025},
		{"as many labels as fit", fill(members(manyLabels((sfv.MaxLength-len("train-ai=n;p="))/len("l0000=y,")), "y") + ","), (sfv.MaxLength-len("train-ai=n;p="))/len("l0000=y,") + 1},
		{"a key repeated", fill(strings.Repeat("search=n,", 1000) + strings.Repeat("search,", 1000) + "search=y,"), 2},
		{"a Boolean repeated", fill(strings.Repeat("a,", 8000)), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.statement) != sfv.MaxLength {
				t.Fatalf("the statement is %d bytes, want %d", len(tc.statement), sfv.MaxLength)
			}
			u, err := parseStatement(tc.statement)
			if err != nil || u.Pref("train-ai") != PrefNo {
				t.Fatalf("train-ai=%v, error %v", u.Pref("train-ai"), err)
			}
			if n := strings.Count(u.statement(), "="); n != tc.labels {
				t.Errorf("%d labels, want %d", n, tc.labels)
			}
			if tc.labels > 2 && (u.Pref("l0000") != PrefYes || !strings.HasPrefix(u.statement(), "l0000=y, l0001=y")) {
				t.Errorf("the first labels: %.40s…", u)
			}
			if _, err := parseStatement(tc.statement + " "); !errors.Is(err, sfv.ErrTooLong) {
				t.Errorf("%d bytes: error %v, want sfv.ErrTooLong", len(tc.statement)+1, err)
			}
		})
	}
	if u := parseUsage(fill(strings.Repeat("search=n,", 1000) + "search=y,")); u.Pref("search") != PrefYes {
		t.Errorf("search repeated, y last: %s", prefs(u, "search"))
	}
}

// TestRobotsUsageLongLine reads a Content-Usage rule whose line is as long
// as the parser keeps: the statement's last member counts; past that
// length the line is cut, and it reads as train-ai=n alone.
func TestRobotsUsageLongLine(t *testing.T) {
	head := "Content-Usage: /a " + members(manyLabels(1500), "y") + ","
	for _, tc := range []struct {
		last string
		want Pref
	}{
		{"train-ai=n", PrefNo},
		{"train-ai=n" + strings.Repeat(";p", 100), PrefNo},
		{"search=y;p=" + strings.Repeat("p", parse.MaxLineLength) + ", train-ai=y", PrefNo},
	} {
		line := head + tc.last
		if len(line) < parse.MaxLineLength {
			line += strings.Repeat(" ", parse.MaxLineLength-len(line))
		}
		r := Parse([]byte("User-agent: *\n" + line + "\n"))
		whole := len(line) <= parse.MaxLineLength // else nothing else is read
		if u := r.Usage("x", "/a/b"); u.Pref("train-ai") != tc.want || (u.Pref("l1499") == PrefYes) != whole {
			t.Errorf("a line of %d bytes ending %.20q: %s", len(line), tc.last, prefs(u, "train-ai", "l1499"))
		}
	}
}

// TestRobotsUsageCommentCut: a line cut past its '#' (too long, or a NUL
// in its comment) states what it says before it: a no stands.
func TestRobotsUsageCommentCut(t *testing.T) {
	for _, line := range []string{
		"Content-Usage: train-ai=n # " + strings.Repeat("x", parse.MaxLineLength),
		"Content-Usage: /a train-ai=n # see\x00x",
		"Content-Signal: ai-train=no # " + strings.Repeat("x", parse.MaxLineLength),
		"Content-Signal: ai-train=no # see\x00x",
		"Content-Usage: train-ai=n" + strings.Repeat(" ", parse.MaxLineLength) + "# x",
	} {
		r := Parse([]byte("User-agent: *\nAllow: /\n" + line + "\n"))
		if u := r.Usage("x", "/a/b"); u.Pref("train-ai") != PrefNo {
			t.Errorf("%.40q: %s", line, prefs(u, "train-ai"))
		}
	}
}

func TestUsagePrefLabels(t *testing.T) {
	u := parseUsage("train-ai=n, ai=y, search-x=n, x.search=y")
	for label, want := range map[string]Pref{
		"train-ai": PrefNo, "ai": PrefYes, "search-x": PrefNo, "x.search": PrefYes,
		"Train-AI": PrefUnknown, "TRAIN-AI": PrefUnknown, "train": PrefUnknown, "train-ai=n": PrefUnknown,
		"search": PrefUnknown, "": PrefUnknown, "n": PrefUnknown, "ai=y": PrefUnknown,
	} {
		if got := u.Pref(label); got != want {
			t.Errorf("Pref(%q) = %v, want %v", label, got, want)
		}
	}
}

func TestUsageJSON(t *testing.T) {
	for in, want := range map[string]string{
		"":                                    `{}`,
		"train-ai=n":                          `{"train-ai":"n"}`,
		"search=y, train-ai=n, use=reference": `{"search":"y","train-ai":"n"}`,
		"x=maybe":                             `{}`,
	} {
		out, err := json.Marshal(parseUsage(in))
		if err != nil || string(out) != want {
			t.Errorf("Marshal(%q) = %s, %v; want %s", in, out, err, want)
		}
	}
	out, _ := json.Marshal([]Pref{PrefYes, PrefNo, PrefUnknown})
	if string(out) != `["y","n","unknown"]` {
		t.Errorf("Prefs marshal as %s", out)
	}
}

func TestUsageValue(t *testing.T) {
	var zero Usage
	if zero.statement() != "" || prefs(zero, testLabels...) != prefs(parseUsage("x=y"), testLabels...) {
		t.Errorf("the zero Usage: %q, %s", zero, prefs(zero, testLabels...))
	}
	if parseUsage("") != zero || parseUsage("TRAIN-AI=n") != zero || parseUsage(`a=1, b="y"`) != zero {
		t.Error("a statement of no preference is not the zero Usage")
	}
	if parseUsage("train-ai=n;q=1, search=y") != parseUsage("train-ai=n,search=y") {
		t.Error("the same preferences written two ways differ")
	}
	if parseUsage("train-ai=n, search=y") == parseUsage("search=y, train-ai=n") {
		t.Error("members in another order are equal")
	}
	if size := unsafe.Sizeof(Usage{}); size > 2*unsafe.Sizeof(uintptr(0)) {
		t.Errorf("a Usage takes %d bytes, more than two words", size)
	}
}

func TestUsageAllocs(t *testing.T) {
	u, v := parseUsage("train-ai=n, search=y"), parseUsage("train-ai=y")
	for name, f := range map[string]func(){
		"Pref":                 func() { u.Pref("search") },
		"statement":            func() { _ = u.statement() },
		"parseUsage of none":   func() { parseUsage("a=1, b") },
		"combine with nothing": func() { u.combine(Usage{}) },
		"combine, no change":   func() { u.combine(v) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
	if n := testing.AllocsPerRun(100, func() { parseUsage("train-ai=n;q=1, search=y, x=1") }); n != 1 {
		t.Errorf("parseUsage: %v allocations, want 1", n)
	}
}

func TestUsageCombine(t *testing.T) {
	tests := []struct{ u, v, want string }{
		{"", "", ""},
		{"train-ai=n", "", "train-ai=n"},
		{"", "train-ai=n", "train-ai=n"},
		{"train-ai=y", "train-ai=n", "train-ai=n"},
		{"train-ai=n", "train-ai=y", "train-ai=n"},
		{"train-ai=y", "train-ai=y", "train-ai=y"},
		{"train-ai=y", "train-ai=other", "train-ai=y"},
		{"train-ai=other", "train-ai=n", "train-ai=n"},
		{"use=reference", "use=full", "use=reference"},
		{"train-ai=y, search=y", "search=n, ai=n", "train-ai=y, search=n, ai=n"},
		{"search=n, ai=n", "train-ai=y, search=y", "search=n, ai=n, train-ai=y"},
	}
	for _, tt := range tests {
		got := parseUsage(tt.u).combine(parseUsage(tt.v))
		if got.statement() != tt.want {
			t.Errorf("%q combined with %q = %q, want %q", tt.u, tt.v, got, tt.want)
		}
	}
}

// TestUsageCombineProperties checks combine on random Usages against the
// vocabulary's rule for each label, and that it is commutative for the
// preferences, idempotent and keeps the labels of both.
func TestUsageCombineProperties(t *testing.T) {
	labels := []string{"train-ai", "search", "ai", "use"}
	values := []string{"", "y", "n", "reference", "full"} // "": absent
	rng := rand.New(rand.NewPCG(1, 2))
	random := func() Usage {
		var parts []string
		for _, i := range rng.Perm(len(labels)) {
			if v := values[rng.IntN(len(values))]; v != "" {
				parts = append(parts, labels[i]+"="+v)
			}
		}
		return parseUsage(strings.Join(parts, ", "))
	}
	for range 2000 {
		u, v, w := random(), random(), random()
		uv, vu := u.combine(v), v.combine(u)
		if u.combine(u) != u {
			t.Fatalf("%q with itself = %q", u, u.combine(u))
		}
		for _, l := range labels {
			want := PrefUnknown
			switch {
			case u.Pref(l) == PrefNo || v.Pref(l) == PrefNo:
				want = PrefNo
			case u.Pref(l) == PrefYes || v.Pref(l) == PrefYes:
				want = PrefYes
			}
			if uv.Pref(l) != want || vu.Pref(l) != want {
				t.Fatalf("%q with %q: %s = %v / %v, want %v", u, v, l, uv.Pref(l), vu.Pref(l), want)
			}
			if a, b := uv.combine(w).Pref(l), u.combine(v.combine(w)).Pref(l); a != b {
				t.Fatalf("(%q with %q) with %q: %s = %v, other grouping %v", u, v, w, l, a, b)
			}
			_, inU := usage.Value(u.members, l)
			_, inV := usage.Value(v.members, l)
			if _, in := usage.Value(uv.members, l); in != (inU || inV) {
				t.Fatalf("%q with %q = %q: label %s kept %v", u, v, uv, l, in)
			}
		}
		if again, err := parseStatement(uv.statement()); err != nil || again != uv {
			t.Fatalf("%q with %q = %q reads back as %q, %v", u, v, uv, again, err)
		}
	}
}

// TestUsageCombineBounds combines Usages whose labels together pass
// maxUsageLen: what states no preference goes first, then y's from the
// last, so that every n stays, train-ai's among them; and labels of n
// alone, added one by one past the bound, keep the first ones.
func TestUsageCombineBounds(t *testing.T) {
	// u leaves room for 300 members of nine bytes (", l2000=y") and
	// five more (", s=n").
	ls := manyLabels(2301)
	pad := maxUsageLen - len(strings.ReplaceAll(members(ls[:2000], "y"), ",", ", ")+", pad=") - 300*len(", l0000=y") - len(", s=n")
	if pad < 1 {
		t.Fatalf("maxUsageLen %d is too short for the test", maxUsageLen)
	}
	u := parseUsage(members(ls[:2000], "y")).combine(parseUsage("pad=" + strings.Repeat("p", pad)))
	got := u.combine(parseUsage("l0000=n," + members(ls[2000:], "y") + ",train-ai=n,s=n"))
	if s := got.statement(); len(s) > maxUsageLen || strings.Contains(s, "pad=") || got.Pref("train-ai") != PrefNo ||
		got.Pref("s") != PrefNo || got.Pref("l0000") != PrefNo || got.Pref(ls[2299]) != PrefYes {
		t.Errorf("combined: %d bytes: …%s", len(s), s[max(0, len(s)-40):])
	}
	// Past the pad, the y's go from the last.
	big := u.combine(parseUsage(members(ls[2000:], "y") + ",pad2=" + strings.Repeat("q", 2000) + "," + members(manyLabels(2800)[2301:], "y") + ",train-ai=n"))
	if s := big.statement(); len(s) > maxUsageLen || big.Pref("train-ai") != PrefNo || strings.Contains(s, "pad") || big.Pref(ls[0]) != PrefYes {
		t.Errorf("combined past the pads: %d bytes: …%s", len(s), s[max(0, len(s)-40):])
	}

	// Labels of 100 bytes one by one, until they pass the bound: the
	// last ones are dropped, and the receiver's always stay.
	var acc Usage
	var long []string
	for i := range maxUsageLen / 100 {
		long = append(long, fmt.Sprintf("l%099d", i))
		acc = acc.combine(parseUsage(long[i] + "=n"))
	}
	fit := (maxUsageLen + len(", ")) / len(", "+long[0]+"=n")
	if n := strings.Count(acc.statement(), "="); n != fit || len(acc.statement()) > maxUsageLen || acc.Pref(long[fit-1]) != PrefNo {
		t.Errorf("%d labels of 100 bytes one by one: %d kept in %d bytes, want %d", len(long), n, len(acc.statement()), fit)
	}
	if again := acc.combine(parseUsage(long[0] + "=y, train-ai=n")); again.Pref(long[0]) != PrefNo || again.Pref("train-ai") != PrefNo || len(again.statement()) > maxUsageLen {
		t.Errorf("a full Usage combined again: %s, %d bytes", prefs(again, long[0]), len(again.statement()))
	}
}

func TestParseContentSignal(t *testing.T) {
	tests := []struct{ in, str string }{
		// The records of corpus files 0008, 1698 and 1715: ai-train is
		// train-ai, search is search, ai-input keeps its name.
		{"ai-input=no, ai-train=no, search=yes", "ai-input=n, train-ai=n, search=y"},
		{"ai-train=yes, search=yes, ai-input=yes", "train-ai=y, search=y, ai-input=y"},
		{"search=yes,ai-train=no,use=reference", "search=y, train-ai=n, use=reference"},
		// Leniency.
		{"Search=YES, AI-Train=No", "search=y, train-ai=n"},
		{" search = yes ,\t, ai-train=no ,", "search=y, train-ai=n"},
		{"search=y, ai-train=n", "search=y, train-ai=n"},
		{"search=Y, ai-train=N", "search=Y, train-ai=N"},
		{"search=yes, search=no", "search=n"},
		{"search=no, ai-train=yes, search=yes", "search=n, train-ai=y"}, // a key twice: n wins, as over two lines
		{"search, ai-train=no", "train-ai=n"},
		{"search=, ai-train=no", "train-ai=n"},
		{"=yes, ai-train=no", "train-ai=n"},
		{"search=maybe later, ai-train=no", "train-ai=n"},
		{`search="yes", ai-train=no`, "train-ai=n"},
		{"search=yes;x, ai-train=no", "train-ai=n"},
		{"/ ai-train=no, search=yes", "train-ai=n, search=y"}, // a refusal read from a pair that is not one
		{"search=yes ai-input=no; ai-train=no", "ai-input=n, train-ai=n"},
		{"search=yes; ai-train = no", "train-ai=n"},    // blanks around '=', as in a pair alone
		{"/blog/ ai-train=yes, search=no", "search=n"}, // never a yes
		{"se arch=yes, ai-train=no", "train-ai=n"},
		{"1search=yes, ai-train=no", "train-ai=n"},
		{"ai_train=no", "ai_train=n"},
		{"\u212aey=yes, ai-train=no", "train-ai=n"}, // KELVIN SIGN is not K
		{"ai-train=no=yes", "train-ai=n"},           // its refusal, as in "search=ai-train=no"
		{"ai-train=nope", "train-ai=nope"},
		{"", ""},
		{",,,", ""},
	}
	for _, tt := range tests {
		u := parseContentSignal(tt.in)
		if got := u.statement(); got != tt.str {
			t.Errorf("parseContentSignal(%q) = %q, want %q", tt.in, got, tt.str)
		}
		if again := parseUsage(u.statement()); prefs(again, testLabels...) != prefs(u, testLabels...) {
			t.Errorf("parseContentSignal(%q) = %q reads back as %q", tt.in, u, again)
		}
	}
	u := parseContentSignal("search=yes,ai-train=no,use=reference")
	if got := prefs(u, "search", "train-ai", "ai-train", "ai-input", "use"); got != "search=y train-ai=n ai-train=unknown ai-input=unknown use=unknown" {
		t.Errorf("prefs %s", got)
	}
	// As many pairs as fit in sfv.MaxLength bytes, a key repeated.
	pairs := strings.Repeat("x=yes,", (sfv.MaxLength-len("ai-train=no"))/len("x=yes,"))
	if u := parseContentSignal(pairs + "ai-train=no"); u.statement() != "x=y, train-ai=n" {
		t.Errorf("%d pairs: %q", strings.Count(pairs, ",")+1, u)
	}
	for _, over := range []string{pairs + "x=yes,ai-train=no", "ai-train=no" + strings.Repeat(" ", sfv.MaxLength)} {
		if u := parseContentSignal(over); u != (Usage{}) {
			t.Errorf("parseContentSignal of %d bytes = %q, want the zero Usage", len(over), u)
		}
	}
}

// TestContentSignalCorpus reads the Content-Signal records of the corpus
// sample: each pair is kept.
func TestContentSignalCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpusSample, "files", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, name := range files {
		body, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(body))
		for sc.Scan() {
			key, value, ok := strings.Cut(sc.Text(), ":")
			if !ok || !strings.EqualFold(strings.TrimSpace(key), "content-signal") {
				continue
			}
			seen++
			u := parseContentSignal(value)
			if got, want := strings.Count(u.statement(), "="), strings.Count(value, "="); got != want || want == 0 {
				t.Errorf("%s: %q read as %q", name, value, u)
			}
		}
	}
	if seen == 0 {
		t.Error("no Content-Signal record in the corpus sample")
	}
}

// maxErrorAllocs bounds the allocations of reading a statement that
// fails: the *sfv.SyntaxError.
const maxErrorAllocs = 1

// FuzzParseUsage reads any statement. Beyond not panicking: a statement
// that fails states nothing; String reads back to the same Usage, with
// the same preference for every label it shows; a Usage stays within its
// bounds; reading allocates once at most when the statement parses.
func FuzzParseUsage(f *testing.F) {
	for _, s := range []string{
		"train-ai=y, search=n", `train-ai=y, train-ai, search=n, search="n"`, "train-ai;allow=n, train-ai=y",
		`train-ai;has;parameters="?";`, "TRAIN-AI=n", "train-ai=(y)", "use=reference, ai=n, genai=y",
		"search=yes,ai-train=no,use=reference",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		u, failed := parseStatement(value)
		if failed != nil && u != (Usage{}) {
			t.Fatalf("%q fails (%v) but states %q", value, failed, u)
		}
		s := u.statement()
		if len(s) > maxUsageLen {
			t.Fatalf("%q: Usage of %d bytes: %q", value, len(s), s)
		}
		again, err := parseStatement(s)
		if err != nil || again != u {
			t.Fatalf("%q: String %q reads back as %q, %v", value, s, again, err)
		}
		for _, m := range strings.Split(s, ", ") {
			if m == "" {
				continue
			}
			label, v, _ := strings.Cut(m, "=")
			if !sfv.IsKey(label) || !sfv.IsToken(v) || again.Pref(label) != u.Pref(label) {
				t.Fatalf("%q: member %s=%s", value, label, v)
			}
		}
		c := parseContentSignal(value)
		if again := parseUsage(c.statement()); again.statement() != c.statement() {
			t.Fatalf("Content-Signal %q: %q reads back as %q", value, c, again)
		}
		limit := 1.0
		if failed != nil {
			limit = maxErrorAllocs
		}
		if n := testing.AllocsPerRun(1, func() { parseUsage(value) }); n > limit {
			t.Fatalf("parseUsage(%q) allocates %v times", value, n)
		}
	})
}

// benchStatements are statements of preference from short to long, and
// one that fails; "line" and "repeated" fill sfv.MaxLength bytes, with as
// many labels as fit or one key again and again.
var benchStatements = []struct{ name, value string }{
	{"one", "train-ai=n"},
	{"two", "train-ai=y, search=n"},
	{"five", `train-ai=n;src="policy", search=y;q=1, ai=n, genai=n, use=reference`},
	{"invalid", "train-ai=n, Search=y"},
	{"line", members(manyLabels((sfv.MaxLength-len(",train-ai=n"))/len("l0000=y,")), "y") + ",train-ai=n"},
	{"repeated", strings.Repeat("search=y,", sfv.MaxLength/len("search=y,")-2) + "train-ai=n"},
}

var usageSink Usage

func BenchmarkParseUsage(b *testing.B) {
	for _, s := range benchStatements {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				usageSink = parseUsage(s.value)
			}
		})
	}
}

// BenchmarkUsageBaselineScan is the baseline of BenchmarkParseUsage: the
// same statements only read by the Dictionary scanner.
func BenchmarkUsageBaselineScan(b *testing.B) {
	for _, s := range benchStatements {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sc := sfv.Scan(s.value)
				for sc.Next() {
				}
			}
		})
	}
}

func BenchmarkUsagePref(b *testing.B) {
	u := parseUsage(benchStatements[2].value)
	for _, label := range []string{"train-ai", "use", "bots"} {
		b.Run(label, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if u.Pref(label) == PrefYes {
					b.Fatal(label)
				}
			}
		})
	}
}

func BenchmarkParseContentSignal(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		usageSink = parseContentSignal("search=yes,ai-train=no,use=reference")
	}
}

func BenchmarkUsageCombine(b *testing.B) {
	u, v := parseUsage("train-ai=y, search=y"), parseUsage("train-ai=n, ai=n")
	b.ReportAllocs()
	for b.Loop() {
		usageSink = u.combine(v)
	}
}

// attachExample is the example robots.txt of draft-ietf-aipref-attach
// §4.5.
const attachExample = `User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
`

// TestRobotsUsageAttachExample checks the draft's table of paths, crawl
// and usage preference, for any crawler but ExampleBot, and ExampleBot's
// preferences from the second group.
func TestRobotsUsageAttachExample(t *testing.T) {
	r := Parse([]byte(attachExample))
	for _, tt := range []struct {
		agent, path string
		crawl       bool
		usage       string
	}{
		{"OtherBot", "/test", true, "train-ai=n"},
		{"OtherBot", "/never/test", false, ""}, // N/A: no preference
		{"OtherBot", "/ai-ok/test", true, "train-ai=y"},
		{"ExampleBot", "/test", true, "train-ai=y"},
		{"ExampleBot", "/never/test", true, "train-ai=y"},
		{"ExampleBot", "/ai-ok/test", true, "train-ai=y"},
	} {
		u := r.Usage(tt.agent, "https://example.com"+tt.path)
		if r.Allowed(tt.agent, tt.path) != tt.crawl || u.statement() != tt.usage {
			t.Errorf("%s %s: crawl %v, usage %q; want %v, %q", tt.agent, tt.path, r.Allowed(tt.agent, tt.path), u, tt.crawl, tt.usage)
		}
		if c := r.agentRules(tt.agent).Usage(tt.path); c != u {
			t.Errorf("%s %s: Crawler.Usage %q, Robots.Usage %q", tt.agent, tt.path, c, u)
		}
	}
}

// TestRobotsUsage covers the rules of Content-Usage: groups, precedence,
// combining, matching and what a crawler may not fetch.
func TestRobotsUsage(t *testing.T) {
	tests := []struct {
		name, body, agent, url string
		rfc                    bool
		want                   string // Usage.String
	}{
		{name: "named groups merge",
			body:  "User-agent: FooBot\nContent-Usage: train-ai=n\n\nUser-agent: *\nContent-Usage: search=n\n\nUser-agent: foobot\nContent-Usage: /a/ search=y\n",
			agent: "FooBot", url: "/a/x", want: "search=n"}, // one group: the * line's refusal reaches FooBot
		{name: "the * group does not apply to a named crawler",
			body:  "User-agent: FooBot\nAllow: /\nContent-Usage: train-ai=y\n\nUser-agent: *\nContent-Usage: train-ai=n\n",
			agent: "FooBot", url: "/", want: "train-ai=y"},
		{name: "the * group applies to others",
			body:  "User-agent: FooBot\nAllow: /\nContent-Usage: train-ai=y\n\nUser-agent: *\nContent-Usage: train-ai=n\n",
			agent: "BarBot", url: "/", want: "train-ai=n"},
		{name: "without an allow or disallow between, a user-agent line continues the group, but not its rules' statements",
			body:  "User-agent: FooBot\nContent-Usage: train-ai=y\n\nUser-agent: *\nContent-Usage: search=n\n",
			agent: "BarBot", url: "/", want: "search=n"},
		{name: "nor its Content-Signal records'",
			body:  "User-agent: FooBot\nContent-Signal: ai-train=yes\n\nUser-agent: *\nContent-Usage: search=n\n",
			agent: "BarBot", url: "/", want: "search=n"},
		{name: "a statement speaks for the user-agent lines above it",
			body:  "User-agent: FooBot\nContent-Usage: train-ai=y\n\nUser-agent: *\nContent-Usage: train-ai=y, search=n\n",
			agent: "Other", url: "/", want: "train-ai=y, search=n"},
		{name: "but its refusals speak for its group",
			body:  "User-agent: FooBot\nContent-Usage: train-ai=y\n\nUser-agent: *\nContent-Usage: train-ai=y, search=n\n",
			agent: "FooBot", url: "/", want: "train-ai=y, search=n"},
		{name: "and its yes not",
			body:  "User-agent: FooBot\nContent-Usage: search=n\n\nUser-agent: *\nContent-Usage: train-ai=y\n",
			agent: "FooBot", url: "/", want: "search=n"},
		{name: "the longest path wins",
			body: "User-agent: *\nContent-Usage: /a/ train-ai=n\nContent-Usage: /a/b/ train-ai=y\nContent-Usage: train-ai=n, search=n\n",
			url:  "/a/b/c", want: "train-ai=y"},
		{name: "identical paths combine: n wins",
			body: "User-agent: *\nContent-Usage: /a/ train-ai=y, search=y\nContent-Usage: /a/ train-ai=n\n",
			url:  "/a/x", want: "train-ai=n, search=y"},
		{name: "identical paths combine: y beats unknown",
			body: "User-agent: *\nContent-Usage: /a/ train-ai=y\nContent-Usage: /a/ search=n\nContent-Usage: /a/ train-ai=maybe\n",
			url:  "/a/x", want: "train-ai=y, search=n"},
		{name: "identical paths across merged groups",
			body:  "User-agent: FooBot\nContent-Usage: /a/ train-ai=y\n\nUser-agent: FooBot\nContent-Usage: /a/ train-ai=n\n",
			agent: "FooBot", url: "/a/x", want: "train-ai=n"},
		{name: "the allow wins a tie, n a tie of preferences",
			body: "User-agent: *\nAllow: /a/\nDisallow: /a/\nContent-Usage: /a/ train-ai=y\nContent-Usage: /a/ train-ai=n\n",
			url:  "/a/x", want: "train-ai=n"},
		{name: "a rule without a path matches with length 0",
			body: "User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: train-ai=n\n",
			url:  "/b", want: "train-ai=n"},
		{name: "no rule matches",
			body: "User-agent: *\nContent-Usage: /a train-ai=n\n",
			url:  "/b", want: ""},
		{name: "a disallowed URL has no preferences",
			body: "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\nContent-Usage: /private/ train-ai=n\n",
			url:  "/private/x", want: ""},
		{name: "'*' in the path",
			body: "User-agent: *\nContent-Usage: /*.jpg train-ai=n\n",
			url:  "/photos/a.jpg", want: "train-ai=n"},
		{name: "'$' anchors the end",
			body: "User-agent: *\nContent-Usage: /*.jpg$ train-ai=n\n",
			url:  "/photos/a.jpg?size=2", want: ""},
		{name: "the path matches the query",
			body: "User-agent: *\nContent-Usage: /a?x=1 train-ai=n\n",
			url:  "https://example.com/a?x=1&y=2#f", want: "train-ai=n"},
		{name: "non-ASCII paths are escaped as rules are",
			body: "User-agent: *\nContent-Usage: /caf\u00e9/ train-ai=n\n",
			url:  "/caf%C3%A9/menu", want: "train-ai=n"},
		{name: "Google's reading keeps escapes",
			body: "User-agent: *\nContent-Usage: /%7Efred/ train-ai=n\n",
			url:  "/~fred/x", want: ""},
		{name: "RFC 9309 decodes unreserved escapes",
			body: "User-agent: *\nContent-Usage: /%7Efred/ train-ai=n\n",
			url:  "/~fred/x", rfc: true, want: "train-ai=n"},
		{name: "the key ignores case, the value ends at '#'",
			body: "user-agent: *\nCONTENT-USAGE: /a/\ttrain-ai=n # no training\n",
			url:  "/a/", want: "train-ai=n"},
		{name: "a statement that does not parse decides: unknown",
			body: "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /a/ Train-AI=n\n",
			url:  "/a/x", want: ""},
		{name: "a path without a statement decides: unknown",
			body: "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /a/\n",
			url:  "/a/x", want: ""},
		{name: "a path must start with '/'",
			body: "User-agent: *\nContent-Usage: a/ train-ai=n\nContent-Usage: search=y\n",
			url:  "/a/x", want: "search=y"},
		{name: "before any user-agent line: no group",
			body: "Content-Usage: train-ai=n\nUser-agent: *\nAllow: /\n",
			url:  "/", want: ""},
		{name: "a user-agent line after a Content-Usage line joins its group",
			body:  "User-agent: FooBot\nContent-Usage: train-ai=n\nUser-agent: BarBot\nDisallow: /x\n",
			agent: "FooBot", url: "/y", want: "train-ai=n"},
		{name: "and its rules, not their statements (consent80: GPTBot's yes reached ExampleBot)",
			body:  "User-agent: GPTBot\nContent-Usage: train-ai=y\nContent-Signal: search=yes\n\nUser-agent: ExampleBot\nDisallow: /private/\n",
			agent: "ExampleBot", url: "/public", want: ""},
		{name: "a record such as a crawl-delay ends the user-agent lines a statement speaks for (review128)",
			body:  "User-agent: GPTBot\nCrawl-delay: 10\n\nUser-agent: ExampleBot\nContent-Usage: train-ai=y\nContent-Signal: search=yes\nDisallow: /private/\n",
			agent: "GPTBot", url: "/page", want: ""},
		{name: "as a sitemap does",
			body:  "User-agent: GPTBot\nSitemap: https://example.com/s.xml\nUser-agent: ExampleBot\nContent-Usage: train-ai=y\n",
			agent: "GPTBot", url: "/page", want: ""},
		{name: "the statement's own crawler obeys the joined group's rules",
			body:  "User-agent: GPTBot\nContent-Usage: train-ai=y\n\nUser-agent: ExampleBot\nDisallow: /private/\n",
			agent: "GPTBot", url: "/private/x", want: ""},
		{name: "unknown labels and values are kept",
			body: "User-agent: *\nContent-Usage: ai=n, use=reference, train-ai=y\n",
			url:  "/", want: "ai=n, use=reference, train-ai=y"},
		{name: "Content-Signal reads in the same vocabulary",
			body: "User-agent: *\nContent-Signal: ai-train=no\nContent-Usage: /a/ train-ai=y, search=y\n",
			url:  "/a/x", want: "train-ai=n, search=y"},
		{name: "a Content-Signal record before any group applies to every crawler",
			body: "Content-Signal: ai-train=no, search=yes\nUser-agent: *\nDisallow: /private/\n",
			url:  "/x", want: "train-ai=n, search=y"},
		{name: "Content-Signal covers only URLs the crawler may fetch",
			body: "Content-Signal: ai-train=no, search=yes\nUser-agent: *\nDisallow: /private/\n",
			url:  "/private/x", want: ""},
	}
	for _, tt := range tests {
		mode := ModeGoogle
		if tt.rfc {
			mode = ModeRFC9309
		}
		agent := tt.agent
		if agent == "" {
			agent = "ExampleBot"
		}
		r := ParseMode([]byte(tt.body), mode)
		if got := r.Usage(agent, tt.url); got.statement() != tt.want {
			t.Errorf("%s: Usage(%q, %q) = %q, want %q", tt.name, agent, tt.url, got, tt.want)
		}
		if got := r.agentRules(agent).Usage(tt.url); got.statement() != tt.want {
			t.Errorf("%s: Crawler.Usage(%q) = %q, want %q", tt.name, tt.url, got, tt.want)
		}
	}
}

// TestRobotsContentSignal reads the Content-Signal records of the three
// corpus files that hold one (0008, 1698 and 1715 of the full corpus;
// their records and groups inline), and the scope of records before any
// group, through Robots.Usage and signalsOf.
func TestRobotsContentSignal(t *testing.T) {
	const (
		// 0008: the record stands after the group's rules, past a blank
		// line: it is that group's.
		corpus0008 = "User-agent: Applebot\nUser-agent: BingBot\nUser-agent: GoogleBot\nAllow: /\nDisallow: /search\n" +
			"\nContent-Signal: ai-input=no, ai-train=no, search=yes\n\nUser-agent: *\nCrawl-delay: 1\nDisallow: /\n"
		corpus1698 = "User-agent: *\nContent-Signal: ai-train=yes, search=yes, ai-input=yes\nAllow: /\nAllow: /articles/\n"
		// 1715: Cloudflare's managed robots.txt, with use=reference.
		corpus1715 = "User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n\n" +
			"User-agent: Amazonbot\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /\n"
		// crawler-commons' reading: a record before any group is global.
		global = "Content-Signal: search=yes,ai-train=yes,ai-input=yes\n\nUser-agent: *\nAllow: /\n\n" +
			"User-agent: mybot\nContent-Signal: ai-train=no\nDisallow: /private/\n"
	)
	tests := []struct{ body, agent, url, want string }{
		{corpus0008, "Googlebot", "/page", "ai-input=n, train-ai=n, search=y"},
		{corpus0008, "Googlebot", "/search", ""}, // disallowed
		{corpus0008, "OtherBot", "/page", ""},    // the * group: disallowed, and no record
		{corpus1698, "OtherBot", "/articles/x", "train-ai=y, search=y, ai-input=y"},
		{corpus1715, "Googlebot", "/", "search=y, train-ai=n, use=reference"},
		{corpus1715, "GPTBot", "/", ""},
		{global, "OtherBot", "/", "search=y, train-ai=y, ai-input=y"},
		{global, "mybot", "/public", "search=y, train-ai=n, ai-input=y"}, // combined: n wins
		{global, "mybot", "/private/x", ""},
		{"User-agent: *\nContent-Signal: ai-train=yes\nContent-Signal: ai-train=no, search=yes\n", "x", "/", "train-ai=n, search=y"},
	}
	for _, tt := range tests {
		r := Parse([]byte(tt.body))
		for _, agent := range []string{"first", tt.agent} { // the first crawler checked is remembered
			r.Allowed(agent, "/")
		}
		u := r.Usage(tt.agent, tt.url)
		if u.statement() != tt.want {
			t.Errorf("Usage(%q, %q) = %q, want %q\n%s", tt.agent, tt.url, u, tt.want, tt.body)
		}
		if d := r.Check(tt.agent, tt.url); d.Usage != u {
			t.Errorf("Check(%q, %q).Usage = %q, Usage %q", tt.agent, tt.url, d.Usage, u)
		}
		if c := r.agentRules(tt.agent).Check(tt.url); c.Usage != u {
			t.Errorf("the Client's rules: Usage(%q, %q) = %q, Robots.Usage %q", tt.agent, tt.url, c.Usage, u)
		}
		if u := Parse([]byte(tt.body)).Usage(tt.agent, tt.url); u.statement() != tt.want {
			t.Errorf("Usage(%q, %q) of the first crawler = %q, want %q", tt.agent, tt.url, u, tt.want)
		}
	}
	u := Parse([]byte(corpus1715)).Usage("Googlebot", "/")
	if got := prefs(u, "train-ai", "ai-train", "search", "ai-input", "use"); got != "train-ai=n ai-train=unknown search=y ai-input=unknown use=unknown" {
		t.Errorf("1715: %s", got)
	}
}

// refUsage computes Robots.Usage from the rich form, rule by rule: the
// longest matching Content-Usage paths of the groups that apply, their
// statements combined, then the Content-Signal records before any group
// and of those groups, for a URL the rules allow.
func refUsage(r *Robots, agent, url string) Usage {
	if !r.Allowed(agent, url) {
		return Usage{}
	}
	path, _ := rulesPath(r.mode, match.Path(url))
	f := fileOf(r)
	_, named := r.t.GroupsOf(agent)
	names := func(agents []parse.UserAgent) bool {
		return slices.ContainsFunc(agents, func(a parse.UserAgent) bool {
			if named {
				return a.Token != "" && strings.EqualFold(a.Token, agent)
			}
			return a.Global
		})
	}
	// speaks reports whether the statement on line of group g speaks for
	// agent: one of the user-agent lines it speaks for names agent, or
	// when no group does, is "*"; and else whether one of the group's
	// other lines does, which gives it the statement's refusals (theirs),
	// and the first of the lines it speaks for, its run.
	speaks := func(g, line int) (own, theirs bool, run int) {
		b, ok := f.Groups[g].Speakers[line]
		if !ok {
			return false, false, 0
		}
		agents := f.Groups[g].Agents
		if names(agents[b[0]:b[1]]) {
			return true, false, b[0]
		}
		return false, names(agents[:b[0]]) || names(agents[b[1]:]), b[0]
	}
	decide := func(rules []parse.UsageRule) Usage {
		var u Usage
		best := -1
		for _, ur := range rules {
			if ur.Path != "" && !match.Match(ur.Path, path) || len(ur.Path) < best {
				continue
			}
			if len(ur.Path) > best {
				u, best = Usage{}, len(ur.Path)
			}
			u = u.combine(parseUsage(ur.Statement))
		}
		return u
	}
	var own []parse.UsageRule
	var theirRuns [][]parse.UsageRule // by run
	records := f.Extensions
	var theirRecords []parse.Record
	for _, g := range r.groups(agent) {
		runs := make(map[int]int)
		for _, ur := range f.Groups[g].Usage {
			switch mine, theirs, run := speaks(g, ur.Line); {
			case mine:
				own = append(own, ur)
			case theirs:
				k, ok := runs[run]
				if !ok {
					k = len(theirRuns)
					runs[run] = k
					theirRuns = append(theirRuns, nil)
				}
				theirRuns[k] = append(theirRuns[k], ur)
			}
		}
		for _, rec := range f.Groups[g].Extensions {
			switch mine, theirs, _ := speaks(g, rec.Line); {
			case mine:
				records = append(records, rec)
			case theirs:
				theirRecords = append(theirRecords, rec)
			}
		}
	}
	u := decide(own)
	for _, rules := range theirRuns {
		u = u.combine(refusals(decide(rules)))
	}
	// The records of groups in line order, as they combine.
	theirLines := make(map[int]bool)
	for _, rec := range theirRecords {
		theirLines[rec.Line] = true
	}
	grouped := slices.Concat(records[len(f.Extensions):], theirRecords)
	slices.SortStableFunc(grouped, func(a, b parse.Record) int { return a.Line - b.Line })
	for _, rec := range slices.Concat(f.Extensions, grouped) {
		switch {
		case rec.Key != "content-signal":
		case theirLines[rec.Line]:
			u = u.combine(refusals(parseContentSignal(rec.Value)))
		default:
			u = u.combine(parseContentSignal(rec.Value))
		}
	}
	return u
}

// blankLines returns body with the lines whose key is one of keys
// replaced by spaces, so that every other line keeps its number.
func blankLines(body []byte, keys ...string) []byte {
	out := bytes.Clone(body)
	start := 0
	for i := 0; i <= len(out); i++ {
		if i < len(out) && out[i] != '\n' && out[i] != '\r' {
			continue
		}
		key, _, _ := strings.Cut(string(out[start:i]), ":")
		key = strings.ToLower(strings.TrimSpace(key))
		if slices.Contains(keys, key) {
			for j := start; j < i; j++ {
				out[j] = ' '
			}
		}
		start = i + 1
	}
	return out
}

// corpusBodies returns the bodies of the corpus sample, and of the full
// corpus when ROBOTSTXT_CORPUS names it, by name.
func corpusBodies(t *testing.T) map[string][]byte {
	bodies := map[string][]byte{}
	for _, dir := range []string{corpusSample, corpusFull} {
		if dir == "" {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "files", "*.txt"))
		for _, name := range files {
			body, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			bodies[name] = body
		}
	}
	return bodies
}

// TestUsageLinesDoNotMoveDecisions: over the corpus, a file decides every
// check as it does with its Content-Usage and Content-Signal lines
// blanked out; and with such lines put in anywhere (between user-agent
// lines too), every URL is allowed or not as before, by the same pattern.
func TestUsageLinesDoNotMoveDecisions(t *testing.T) {
	longtest.Gate(t)
	agents := []string{"Googlebot", "GPTBot", "Applebot", "Amazonbot", "bingbot", "ExampleBot"}
	urls := []string{"/", "/admin/", "/search?q=x", "/wp-admin/admin-ajax.php", "/research-starters/x", "/page/2"}
	inserts := []string{"Content-Usage: train-ai=n", "content-usage: /a train-ai=y", "Content-Signal: ai-train=no",
		"Content-Usage /x", "CONTENT-USAGE: ###", "Content-Usage: /* search=n"}
	rnd := rand.New(rand.NewPCG(3, 4))
	bodies := corpusBodies(t)
	seen := 0
	for name, body := range bodies {
		blank := blankLines(body, "content-usage", "content-signal")
		if !bytes.Equal(blank, body) {
			seen++
		}
		lines := strings.SplitAfter(string(body), "\n")
		for range 3 {
			// Before a line (the last may have no line end), and not
			// before a byte-order mark, which only starts a file.
			i := rnd.IntN(len(lines))
			if i == 0 && len(body) > 0 && body[0] == 0xEF {
				continue
			}
			lines = slices.Insert(lines, i, inserts[rnd.IntN(len(inserts))]+"\n")
		}
		more := []byte(strings.Join(lines, ""))
		for _, mode := range []Mode{ModeGoogle, ModeRFC9309} {
			r, without, with := ParseMode(body, mode), ParseMode(blank, mode), ParseMode(more, mode)
			for _, agent := range agents {
				for _, u := range urls {
					v := r.Check(agent, u)
					if w := without.Check(agent, u); v.Allowed != w.Allowed || v.Rule != w.Rule {
						t.Fatalf("%s %v: Check(%q, %q) = %+v, without its Content- lines %+v", name, mode, agent, u, v, w)
					}
					if w := with.Check(agent, u); v.Allowed != w.Allowed || v.Rule.Pattern != w.Rule.Pattern {
						t.Fatalf("%s %v: Check(%q, %q) = %+v, with Content- lines put in %+v\n%s", name, mode, agent, u, v, w, more)
					}
				}
			}
		}
	}
	if seen == 0 {
		t.Error("no corpus file has a Content-Usage or Content-Signal line")
	}
	t.Logf("%d files, %d with Content- lines", len(bodies), seen)
}

// TestPropertyUsageAgreesWithReference: over random files, Robots.Usage
// and Crawler.Usage agree with refUsage in both modes.
func TestPropertyUsageAgreesWithReference(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	segs := []string{"a", "b", "a/", "%7e", "~", "*", ".jpg", "$", "?q"}
	gen := func() string {
		p := "/"
		for range rnd.IntN(4) {
			p += segs[rnd.IntN(len(segs))]
		}
		return p
	}
	stmts := []string{"train-ai=n", "train-ai=y", "search=n", "train-ai=y, search=y", "", "X=n", "use=reference"}
	signals := []string{"ai-train=no", "ai-train=yes, search=no", "search=yes", "ai-input=no", "train-ai=yes"}
	for range 1000 {
		var b strings.Builder
		if rnd.IntN(4) == 0 {
			b.WriteString("Content-Signal: " + signals[rnd.IntN(len(signals))] + "\n")
		}
		for range 1 + rnd.IntN(3) {
			b.WriteString("User-agent: " + []string{"*", "FooBot", "BarBot"}[rnd.IntN(3)] + "\n")
			for range rnd.IntN(10) {
				switch rnd.IntN(5) {
				case 0:
					b.WriteString([]string{"Allow: ", "Disallow: "}[rnd.IntN(2)] + gen() + "\n")
				case 1:
					b.WriteString("Content-Usage: " + stmts[rnd.IntN(len(stmts))] + "\n")
				case 2:
					b.WriteString("Content-Signal: " + signals[rnd.IntN(len(signals))] + "\n")
				default:
					b.WriteString("Content-Usage: " + gen() + " " + stmts[rnd.IntN(len(stmts))] + "\n")
				}
			}
		}
		for _, mode := range []Mode{ModeGoogle, ModeRFC9309} {
			r := ParseMode([]byte(b.String()), mode)
			for _, agent := range []string{"FooBot", "BarBot", "Other"} {
				c := r.agentRules(agent)
				for range 5 {
					url := gen()
					want := refUsage(r, agent, url)
					if got := r.Usage(agent, url); got != want {
						t.Fatalf("%v: Usage(%q, %q) = %q, reference %q\n%s", mode, agent, url, got, want, b.String())
					}
					if got := c.Usage(url); got != want {
						t.Fatalf("%v: Crawler.Usage(%q) = %q, reference %q\n%s", mode, url, got, want, b.String())
					}
				}
			}
		}
	}
}

// TestUsageWithoutRulesDoesNotAllocate: Usage of a file without
// Content-Usage rules, and Allowed and Check of any file, cost no
// allocation; Usage of one rule allocates the Usage once.
func TestUsageWithoutRulesDoesNotAllocate(t *testing.T) {
	plain := Parse([]byte("User-agent: *\nDisallow: /private/\n"))
	rules := Parse([]byte("User-agent: *\nDisallow: /private/\nContent-Usage: /a/ train-ai=n\n"))
	rules.Allowed("x", "/") // the first crawler checked
	signal := Parse([]byte("Content-Signal: ai-train=no\nUser-agent: *\nDisallow: /private/\nContent-Signal: search=yes\n"))
	signal.Allowed("x", "/") // the first crawler checked: its Content-Signal preferences are kept
	pc, rc := plain.agentRules("x"), rules.agentRules("x")
	for name, f := range map[string]func(){
		"Robots.Usage":                          func() { plain.Usage("x", "/a/b") },
		"Crawler.Usage":                         func() { pc.Usage("/a/b") },
		"Robots.Allowed":                        func() { rules.Allowed("x", "/a/b") },
		"Robots.Check of a path no rule covers": func() { rules.Check("x", "/b") },
		"Robots.Check of a file without rules":  func() { plain.Check("x", "/a/b") },
		"Usage of a disallowed":                 func() { rc.Usage("/private/x") },
		"Usage matching no rule":                func() { rc.Usage("/b") },
		"Robots.Usage of Content-Signal":        func() { signal.Usage("x", "/a/b") },
		"Robots.Check of Content-Signal":        func() { signal.Check("x", "/a/b") },
		// review128: the runs a crawler other than the first reads were
		// found into a slice of their own.
		"Robots.Check of a path no rule covers, by another crawler": func() { rules.Check("y", "/b") },
		// review130: two others, in turn, found their runs again each.
		"Robots.Check by two other crawlers in turn": func() { rules.Check("y", "/b"); rules.Check("z", "/b") },
		// review131: another crawler's Content-Signal records were read
		// again at every check.
		"Robots.Check of Content-Signal by another crawler": func() { signal.Check("y", "/a/b") },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
	if n := testing.AllocsPerRun(100, func() { rc.Usage("/a/b") }); n != 1 {
		t.Errorf("Crawler.Usage: %v allocations, want 1", n)
	}
	if n := testing.AllocsPerRun(100, func() { rules.Check("x", "/a/b") }); n != 1 {
		t.Errorf("Robots.Check of a path a rule covers: %v allocations, want 1", n)
	}
}

// hostileFormats are lines that each state a label of their own, of
// which hostileFile fills a file.
var hostileFormats = []string{"Content-Usage: l%d=n\n", "Content-Signal: l%d=no\n"}

// hostileFile returns a file of lines of format (see hostileFormats), up
// to 490 KiB, under the 500 KiB body limit: Content-Usage rules without a
// path all decide for every URL, and Content-Signal records apply to
// every crawler.
func hostileFile(format string) []byte {
	var b strings.Builder
	b.WriteString("User-agent: *\nAllow: /\n")
	for i := 0; b.Len() < 490<<10; i++ {
		fmt.Fprintf(&b, format, i)
	}
	return []byte(b.String())
}

// TestUsageHostileFileIsLinear: a hostile file (see hostileFile) costs a
// check work linear in its size, for the first crawler checked, another
// and the Client's rules alike: its statements combine in one pass, not
// each with all those before (internal/parse's TestUsageHostileFile
// repeats one statement, which combines with itself for free).
func TestUsageHostileFileIsLinear(t *testing.T) {
	for _, format := range hostileFormats {
		body := hostileFile(format)
		r := Parse(body)
		for _, c := range []struct {
			name  string
			check func() Usage
		}{
			{"the first crawler", func() Usage { return r.Check("first", "/page").Usage }},
			{"another", func() Usage { return r.Check("other", "/page").Usage }},
			{"the Client's", func() Usage { return r.agentRules("client").Check("/page").Usage }},
		} {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			u := c.check()
			runtime.ReadMemStats(&after)
			if u.Pref("l0") != PrefNo {
				t.Errorf("%.14s, %s: l0=%v, want n", format, c.name, u.Pref("l0"))
			}
			// Each line costs some 400 bytes: its rule or record copied
			// out of the table, its statement, its place among the
			// labels combined; combined pairwise, the lines cost 10 GiB.
			if n, most := after.TotalAlloc-before.TotalAlloc, uint64(32*len(body)); n > most {
				t.Errorf("%.14s, %s: a check allocates %d KiB, want at most %d", format, c.name, n>>10, most>>10)
			}
		}
	}
}

// BenchmarkUsageHostile checks a hostile file (see hostileFile), for the
// first crawler checked and another, whose Content-Signal records are
// read again at each check.
func BenchmarkUsageHostile(b *testing.B) {
	for _, format := range hostileFormats {
		body := hostileFile(format)
		r := Parse(body)
		for _, agent := range []string{"first", "other"} {
			b.Run(strings.Fields(format)[0]+agent, func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					usageSink = r.Check(agent, "/page").Usage
				}
			})
		}
	}
}

// FuzzRobotsUsage reads any body and URL in both modes: Usage agrees with
// the rule-by-rule reference and with the Crawler's, is the zero Usage
// for a URL the crawler may not fetch, and the file's Content-Usage and
// Content-Signal lines change no decision.
func FuzzRobotsUsage(f *testing.F) {
	f.Add([]byte(attachExample), "ExampleBot", "/ai-ok/x")
	f.Add([]byte(attachExample), "Other", "/never/x")
	f.Add([]byte("User-agent: a\nContent-Usage: /%7e* train-ai=n\nUser-agent: b\nDisallow: /x\nContent-Signal: ai-train=no\n"), "a", "/~")
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		if len(body) > 1<<16 || len(url) > 1<<12 {
			return
		}
		blank := blankLines(body, "content-usage", "content-signal")
		for _, mode := range []Mode{ModeGoogle, ModeRFC9309} {
			r := ParseMode(body, mode)
			u := r.Usage(agent, url)
			if want := refUsage(r, agent, url); u != want {
				t.Fatalf("%v: Usage = %q, reference %q", mode, u, want)
			}
			if c := r.agentRules(agent).Usage(url); c != u {
				t.Fatalf("%v: Crawler.Usage = %q, Robots.Usage %q", mode, c, u)
			}
			v := r.Check(agent, url)
			if !v.Allowed && (u != Usage{} || signalsOf(r, agent, url) != nil) {
				t.Fatalf("%v: disallowed, yet Usage %q, Signals %v", mode, u, signalsOf(r, agent, url))
			}
			if w := ParseMode(blank, mode).Check(agent, url); w.Allowed != v.Allowed || w.Rule != v.Rule || v.Usage != u {
				t.Fatalf("%v: Check %+v, without the Content- lines %+v; Usage %q", mode, v, w, u)
			}
		}
	})
}

// BenchmarkCrawlerUsage measures Crawler.Usage on the attach draft's
// example against its baseline, Crawler.Allowed of the same URL: Usage
// checks the URL as Allowed does, then tries the Content-Usage rules and
// reads the deciding statement.
func BenchmarkCrawlerUsage(b *testing.B) {
	c := Parse([]byte(attachExample)).agentRules("OtherBot")
	for _, path := range []string{"/ai-ok/test", "/never/test"} {
		b.Run("Allowed"+path, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.Allowed(path)
			}
		})
		b.Run("Usage"+path, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				usageSink = c.Usage(path)
			}
		})
	}
}

// statement returns the labels and values u holds as a Dictionary of RFC
// 9651, in the order the statement wrote them, such as "train-ai=n,
// search=y"; "" for the zero Usage. parseUsage reads it back to the same
// Usage.
func (u Usage) statement() string { return u.members }

// TestUsageCutLineReadsAsRefusal: a Content-Usage or Content-Signal line
// the scanner cuts (too long, or at a NUL) reads as train-ai=n, however
// its kept part reads: the part cut may have said no, and a cut rule
// keeps its path, which stating nothing took a file-wide train-ai=n from
// (consent80).
func TestUsageCutLineReadsAsRefusal(t *testing.T) {
	var filler strings.Builder
	for i := 0; filler.Len() < parse.MaxLineLength; i++ {
		fmt.Fprintf(&filler, ", x%d=y", i)
	}
	for _, tc := range []struct{ name, line string }{
		{"Content-Usage too long", "Content-Usage: train-ai=y" + filler.String() + ", train-ai=n"},
		{"Content-Usage with a path, too long", "Content-Usage: /page train-ai=y" + filler.String() + ", train-ai=n"},
		{"Content-Usage with a NUL", "Content-Usage: train-ai=y\x00, train-ai=n"},
		{"Content-Signal too long", "Content-Signal: ai-train=yes" + strings.ReplaceAll(filler.String(), "=y", "=yes") + ", ai-train=no"},
		{"Content-Signal with a NUL", "Content-Signal: ai-train=yes\x00, ai-train=no"},
		// consent81: the refusals before the cut count.
		{"Content-Usage keeping its refusals", "Content-Usage: /page search=n, train-ai=y\x00, train-ai=n"},
		{"Content-Signal keeping its refusals", "Content-Signal: search=no, ai-train=yes\x00, ai-train=no"},
	} {
		for _, head := range []string{"", "Content-Usage: train-ai=y, search=y\n"} {
			r := Parse([]byte("User-agent: *\n" + head + tc.line + "\n"))
			u := r.Usage("bot", "/page")
			if got := u.Pref("train-ai"); got != PrefNo {
				t.Errorf("%s, after %q: train-ai=%v, want n", tc.name, head, got)
			}
			if got := u.Pref("search"); strings.Contains(tc.name, "refusals") && got != PrefNo {
				t.Errorf("%s, after %q: search=%v, want n, stated before the cut", tc.name, head, got)
			}
		}
	}
}

// hostileSplitUsage is a robots.txt whose "*" rules come in many groups
// of smallGroup (32) Content-Usage rules each: a crawler's selected table
// merges them into one group, which the gram filter passes over, but the
// full table, which a receipt reads, matches every one.
func hostileSplitUsage() string {
	var b strings.Builder
	b.WriteString("User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\n")
	for g := 0; g < 540; g++ {
		b.WriteString("User-agent:*\nAllow:/\n")
		for range 32 {
			b.WriteString("Content-Usage:/qqqq n\n")
		}
	}
	return b.String()
}

// TestReceiptUsageAgreesPastTheBound: for one URL, a path spelled
// otherwise than served (its "//"), Decision.Usage and Transport.Usage
// said train-ai=y while Transport.Receipt (with or without the body)
// said train-ai=n, robots.txt "unreadable": formsUsage counted its work
// on the full table in the receipt, where the gram filter did not apply
// to groups of 32 rules, but on the selected (merged) table in Check,
// where it does (review73). The docs say the receipt reads robots.txt "as
// [Decision].Usage reads them", and Receipt(resp, nil).Usage is
// Transport.Usage's.
func TestReceiptUsageAgreesPastTheBound(t *testing.T) {
	checkLeaks(t)
	robots := hostileSplitUsage()
	if len(robots) > 500<<10 {
		t.Fatalf("robots.txt %d bytes, past the limit", len(robots))
	}
	s := newTestSite(t, robots)
	c, tr, hc := newTestTransport(t)
	path := "/a//" + strings.Repeat("x", 8100)
	d, err := c.Check(context.Background(), s.URL+path)
	if err != nil || !d.Allowed {
		t.Fatalf("Check: %+v, %v", d, err)
	}
	resp, body := fetchPage(t, hc, s.URL+path)
	rc := tr.Receipt(resp, body)
	rcNil := tr.Receipt(resp, nil)
	u := tr.Usage(resp)
	t.Logf("Decision.Usage %q, Transport.Usage %q, Receipt.Usage %q, Receipt(resp, nil).Usage %q", d.Usage, u, rc.Usage, rcNil.Usage)
	for _, s := range rc.Signals {
		if s.Where == "unreadable" {
			t.Logf("receipt signal: %s", sig(s))
		}
	}
	if d.Usage.statement() != rc.Usage.statement() || u.statement() != rcNil.Usage.statement() {
		t.Errorf("one URL, two answers: Decision.Usage %q and Transport.Usage %q, but Receipt.Usage %q and Receipt(resp, nil).Usage %q",
			d.Usage, u, rc.Usage, rcNil.Usage)
	}
}

// TestContentSignalPathRecordYesStaysOnItsPath: a Content-Signal record
// written as a Content-Usage rule is, with a path ("/blog/ search=yes,
// ai-train=yes", or its yes spelt y), states nothing for /private/x: the
// yes of its first pair is dropped, as Robots.Usage documents ("never a
// yes"), and so is that of the pairs after it, for Robots.Usage,
// Robots.Check, the Client, and Transport.Usage from the Content-Signal
// header alike.
func TestContentSignalPathRecordYesStaysOnItsPath(t *testing.T) {
	for _, record := range []string{"/blog/ search=yes, ai-train=yes", "/blog/ search=yes, ai-train=y"} {
		t.Run(record, func(t *testing.T) {
			robots := "User-agent: *\nContent-Signal: " + record + "\nAllow: /\n"
			r := Parse([]byte(robots))
			if got := r.Usage("ExampleBot", "/private/x").Pref("train-ai"); got == PrefYes {
				t.Errorf("Robots.Usage(/private/x) train-ai = y: the record's yes was for /blog/")
			}
			if got := r.Check("ExampleBot", "/private/x").Usage.Pref("train-ai"); got == PrefYes {
				t.Errorf("Robots.Check(/private/x).Usage train-ai = y: the record's yes was for /blog/")
			}
			s := newTestSite(t, robots)
			c := newTestClient(t, WithUserAgent(testUA))
			d, err := c.Check(t.Context(), s.URL+"/private/x")
			if err != nil {
				t.Fatal(err)
			}
			if got := d.Usage.Pref("train-ai"); got == PrefYes {
				t.Errorf("Client.Check(/private/x).Usage train-ai = y: the record's yes was for /blog/")
			}

			h := newTestSite(t, "User-agent: *\nAllow: /\n")
			h.route("/private/x", serve(200, "page", "Content-Signal", record))
			_, tr, hc := newTestTransport(t)
			resp, err := hc.Get(h.URL + "/private/x")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if got := tr.Usage(resp).Pref("train-ai"); got == PrefYes {
				t.Errorf("Transport.Usage(/private/x) train-ai = y from the header record scoped to /blog/")
			}
		})
	}
}

// TestCutSignalKeepsItsRefusals: a Content-Signal value cut short reads
// as the refusals the whole record reads before the cut, in any spelling
// Content-Signal is read in (keys and yes/no in any case, blanks around
// '=', a record scoped to a path), and train-ai=n (review129: "Search=No"
// was lost, and a yes elsewhere answered).
func TestCutSignalKeepsItsRefusals(t *testing.T) {
	for _, kept := range []string{"Search=No", "search=NO", "search = no", "/blog/ search=no", "search=yes; ai-input=no"} {
		label := "search"
		if kept == "search=yes; ai-input=no" {
			label = "ai-input"
		}
		whole := "User-agent: *\nContent-Signal: " + kept + "\nContent-Usage: search=y, ai-input=y\n"
		cut := "User-agent: *\nContent-Signal: " + kept + ", ai-tr\x00ain=yes\nContent-Usage: search=y, ai-input=y\n"
		uw := Parse([]byte(whole)).Usage("FooBot", "https://example.com/page")
		uc := Parse([]byte(cut)).Usage("FooBot", "https://example.com/page")
		if uw.Pref(label) == PrefNo && uc.Pref(label) != PrefNo {
			t.Errorf("Content-Signal %q: whole it reads %s=n (%q); cut after it at a NUL it reads %q: the refusal before the cut is lost, the yes answers", kept, label, uw, uc)
		}
	}
}

// TestBodyLimitCutSignalKeepsItsRefusals: the same through the Client,
// the body limit cutting the record (body.Read ends it with two NULs).
func TestBodyLimitCutSignalKeepsItsRefusals(t *testing.T) {
	checkLeaks(t)
	const kept = "Content-Signal: Search=No, ai-tr"
	body := cutAt("User-agent: *\nContent-Usage: search=y\nAllow: /\n", "Content-Signal: Search=No, ai-train=yes", len(kept))
	s := newTestSite(t, body)
	c := newTestClient(t, WithProductTokens("FooBot"))
	d, err := c.Check(t.Context(), s.URL+"/page")
	if err != nil || d.Usage.Pref("search") != PrefNo {
		t.Errorf("record cut at %q by the body limit: Decision.Usage %q, %v; want search=n (the kept text refuses search)", kept, d.Usage, err)
	}
}

// TestCutStatementWithAnInvalidKeyRefusesTraining: a statement cut
// short whose kept members include one that is no Dictionary member
// ("1x=n") still reads as train-ai=n (review129: the statement made of its
// refusals, "1x=n, train-ai=n", was no Dictionary and stated nothing, and
// a file-wide train-ai=y answered).
func TestCutStatementWithAnInvalidKeyRefusesTraining(t *testing.T) {
	for _, member := range []string{"1x=n", "-x=n", "_x=n", ".x=n", "9=n"} {
		body := "User-agent: *\nContent-Usage: train-ai=y\nContent-Usage: " + member + ", search=y\x00, cut here\n"
		r := Parse([]byte(body))
		u := r.Usage("FooBot", "https://example.com/page")
		f := r.t.File()
		if u.Pref("train-ai") != PrefNo {
			t.Errorf("a statement cut at a NUL after %q: Robots.Usage %q (the cut rule's statement reads %q); want train-ai=n", member, u, f.Groups[0].Usage[1].Statement)
		}
	}
}

// TestBodyLimitCutStatementWithAnInvalidKey: the same through the
// Client, the body limit cutting the rule.
func TestBodyLimitCutStatementWithAnInvalidKey(t *testing.T) {
	checkLeaks(t)
	const kept = "Content-Usage: 1x=n, train-ai=n, sea"
	s := newTestSite(t, cutAt("User-agent: *\nContent-Usage: train-ai=y\nAllow: /\n", "Content-Usage: 1x=n, train-ai=n, search=n", len(kept)))
	c := newTestClient(t, WithProductTokens("FooBot"))
	d, err := c.Check(t.Context(), s.URL+"/page")
	if err != nil || d.Usage.Pref("train-ai") != PrefNo {
		t.Errorf("rule cut at %q by the body limit: Decision.Usage %q, %v; want train-ai=n", kept, d.Usage, err)
	}
}
