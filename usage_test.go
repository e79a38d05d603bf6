package robotstxt

import (
	"bufio"
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/robotsgate/robotstxt/internal/sfv"
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
		if got := u.String(); got != tt.str {
			t.Errorf("ParseUsage(%q).String() = %q, want %q", tt.in, got, tt.str)
		}
		if got := prefs(u, "train-ai", "search"); got != tt.prefs {
			t.Errorf("ParseUsage(%q): %s, want %s", tt.in, got, tt.prefs)
		}
		if ParseUsage(tt.in) != u {
			t.Errorf("ParseUsage(%q) differs from parseStatement", tt.in)
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
	if _, err := parseStatement(strings.Repeat("a=y, ", sfv.MaxMembers) + "train-ai=n"); !errors.Is(err, sfv.ErrTooManyMembers) {
		t.Errorf("many members: error %v, want sfv.ErrTooManyMembers", err)
	}
}

// shortLabels returns n distinct labels of three bytes.
func shortLabels(n int) []string {
	labels := make([]string, n)
	for i := range labels {
		labels[i] = "l" + string(rune('a'+i/26)) + string(rune('a'+i%26))
	}
	return labels
}

// TestParseUsageBounds fills a statement to the limits: it keeps every
// member, and one more byte or member states nothing.
func TestParseUsageBounds(t *testing.T) {
	members := shortLabels(maxUsageMembers - 1)
	for i := range members {
		members[i] += "=y"
	}
	head := strings.Join(members, ",") + ","
	last := "train-ai=n;p="
	last += strings.Repeat("p", sfv.MaxLength-len(head)-len(last))
	in := head + last
	u, err := parseStatement(in)
	if err != nil || len(in) != sfv.MaxLength {
		t.Fatalf("statement of %d bytes: %v", len(in), err)
	}
	if n := strings.Count(u.String(), "="); n != maxUsageMembers || u.Pref("train-ai") != PrefNo || u.Pref("lcj") != PrefYes {
		t.Errorf("full statement: %d members, %s", n, prefs(u, "train-ai", "lcj"))
	}
	for _, over := range []string{in + " ", head + "train-ai=n, b"} {
		if u := ParseUsage(over); u != (Usage{}) {
			t.Errorf("statement of %d bytes: %q, want the zero Usage", len(over), u)
		}
	}
}

func TestUsagePrefLabels(t *testing.T) {
	u := ParseUsage("train-ai=n, ai=y, search-x=n, x.search=y")
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

func TestPrefString(t *testing.T) {
	for p, want := range map[Pref]string{PrefUnknown: "unknown", PrefYes: "y", PrefNo: "n", 7: "Pref(7)"} {
		if got := p.String(); got != want {
			t.Errorf("Pref(%d).String() = %q, want %q", p, got, want)
		}
	}
}

func TestUsageValue(t *testing.T) {
	var zero Usage
	if zero.String() != "" || prefs(zero, testLabels...) != prefs(ParseUsage("x=y"), testLabels...) {
		t.Errorf("the zero Usage: %q, %s", zero, prefs(zero, testLabels...))
	}
	if ParseUsage("") != zero || ParseUsage("TRAIN-AI=n") != zero || ParseUsage(`a=1, b="y"`) != zero {
		t.Error("a statement of no preference is not the zero Usage")
	}
	if ParseUsage("train-ai=n;q=1, search=y") != ParseUsage("train-ai=n,search=y") {
		t.Error("the same preferences written two ways differ")
	}
	if ParseUsage("train-ai=n, search=y") == ParseUsage("search=y, train-ai=n") {
		t.Error("members in another order are equal")
	}
	if size := unsafe.Sizeof(Usage{}); size > 2*unsafe.Sizeof(uintptr(0)) {
		t.Errorf("a Usage takes %d bytes, more than two words", size)
	}
}

func TestUsageAllocs(t *testing.T) {
	u, v := ParseUsage("train-ai=n, search=y"), ParseUsage("train-ai=y")
	for name, f := range map[string]func(){
		"Pref":                 func() { u.Pref("search") },
		"String":               func() { _ = u.String() },
		"ParseUsage of none":   func() { ParseUsage("a=1, b") },
		"combine with nothing": func() { u.combine(Usage{}) },
		"combine, no change":   func() { u.combine(v) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
	if n := testing.AllocsPerRun(100, func() { ParseUsage("train-ai=n;q=1, search=y, x=1") }); n != 1 {
		t.Errorf("ParseUsage: %v allocations, want 1", n)
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
		got := ParseUsage(tt.u).combine(ParseUsage(tt.v))
		if got.String() != tt.want {
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
		return ParseUsage(strings.Join(parts, ", "))
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
			_, inU := u.value(l)
			_, inV := v.value(l)
			if _, in := uv.value(l); in != (inU || inV) {
				t.Fatalf("%q with %q = %q: label %s kept %v", u, v, uv, l, in)
			}
		}
		if again, err := parseStatement(uv.String()); err != nil || again != uv {
			t.Fatalf("%q with %q = %q reads back as %q, %v", u, v, uv, again, err)
		}
	}
}

// TestUsageCombineBounds combines Usages whose labels together pass the
// bounds: the receiver's labels all stay, with the argument's n, and the
// argument's new labels are dropped when they do not fit.
func TestUsageCombineBounds(t *testing.T) {
	labels := shortLabels(maxUsageMembers)
	u := ParseUsage(strings.Join(labels, "=y,") + "=y")
	got := u.combine(ParseUsage("laa=n, train-ai=n"))
	if n := strings.Count(got.String(), "="); n != maxUsageMembers || got.Pref("laa") != PrefNo || got.Pref("train-ai") != PrefUnknown {
		t.Errorf("64 labels with 1 more: %d labels, %s", n, prefs(got, "laa", "train-ai"))
	}

	var acc Usage
	for _, l := range append(labels, "train-ai") {
		acc = acc.combine(ParseUsage(l + "=n"))
	}
	if n := strings.Count(acc.String(), "="); n != maxUsageMembers || acc.Pref("lbl") != PrefNo || acc.Pref("train-ai") != PrefUnknown {
		t.Errorf("65 labels one by one: %d labels, %s", n, prefs(acc, "lbl", "train-ai"))
	}

	// Eight labels of 120 bytes are about 1 KiB: eight more do not fit,
	// but a short one after them does.
	long := func(first rune) string {
		var ls []string
		for i := range 8 {
			ls = append(ls, string(first+rune(i))+strings.Repeat("x", 119)+"=y")
		}
		return strings.Join(ls, ",")
	}
	u, v := ParseUsage(long('a')), ParseUsage(long('i')+",train-ai=n")
	if u == (Usage{}) || v == (Usage{}) {
		t.Fatal("long statements do not parse")
	}
	got = u.combine(v)
	if len(got.String()) > maxUsageLen || got.String() != u.String()+", train-ai=n" {
		t.Errorf("long labels combined: %d bytes, %q", len(got.String()), got)
	}
}

func TestParseContentSignal(t *testing.T) {
	tests := []struct{ in, str string }{
		// The records of corpus files 0008, 1698 and 1715.
		{"ai-input=no, ai-train=no, search=yes", "ai-input=n, ai-train=n, search=y"},
		{"ai-train=yes, search=yes, ai-input=yes", "ai-train=y, search=y, ai-input=y"},
		{"search=yes,ai-train=no,use=reference", "search=y, ai-train=n, use=reference"},
		// Leniency.
		{"Search=YES, AI-Train=No", "search=y, ai-train=n"},
		{" search = yes ,\t, ai-train=no ,", "search=y, ai-train=n"},
		{"search=y, ai-train=n", "search=y, ai-train=n"},
		{"search=Y, ai-train=N", "search=Y, ai-train=N"},
		{"search=yes, search=no", "search=n"},
		{"search=no, ai-train=yes, search=yes", "search=y, ai-train=y"},
		{"search, ai-train=no", "ai-train=n"},
		{"search=, ai-train=no", "ai-train=n"},
		{"=yes, ai-train=no", "ai-train=n"},
		{"search=maybe later, ai-train=no", "ai-train=n"},
		{`search="yes", ai-train=no`, "ai-train=n"},
		{"search=yes;x, ai-train=no", "ai-train=n"},
		{"se arch=yes, ai-train=no", "ai-train=n"},
		{"1search=yes, ai-train=no", "ai-train=n"},
		{"ai_train=no", "ai_train=n"},
		{"\u212aey=yes, ai-train=no", "ai-train=n"}, // KELVIN SIGN is not K
		{"ai-train=no=yes", ""},
		{"", ""},
		{",,,", ""},
	}
	for _, tt := range tests {
		u := parseContentSignal(tt.in)
		if got := u.String(); got != tt.str {
			t.Errorf("parseContentSignal(%q) = %q, want %q", tt.in, got, tt.str)
		}
		if again := ParseUsage(u.String()); prefs(again, testLabels...) != prefs(u, testLabels...) {
			t.Errorf("parseContentSignal(%q) = %q reads back as %q", tt.in, u, again)
		}
	}
	u := parseContentSignal("search=yes,ai-train=no,use=reference")
	if got := prefs(u, "search", "ai-train", "ai-input", "use"); got != "search=y ai-train=n ai-input=unknown use=unknown" {
		t.Errorf("prefs %s", got)
	}
	pairs := strings.Repeat("x=yes,", sfv.MaxMembers-1)
	if u := parseContentSignal(pairs + "ai-train=no"); u.Pref("ai-train") != PrefNo {
		t.Errorf("%d pairs: %q", sfv.MaxMembers, u)
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
			if got, want := strings.Count(u.String(), "="), strings.Count(value, "="); got != want || want == 0 {
				t.Errorf("%s: %q read as %q", name, value, u)
			}
		}
	}
	if seen == 0 {
		t.Error("no Content-Signal record in the corpus sample")
	}
}

func TestLowerASCII(t *testing.T) {
	for in, want := range map[string]string{"": "", "abc": "abc", "AbC-D": "abc-d", "\u212a": "\u212a", "ÄB": "Äb"} {
		if got := lowerASCII(in); got != want {
			t.Errorf("lowerASCII(%q) = %q, want %q", in, got, want)
		}
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
		s := u.String()
		if len(s) > maxUsageLen || strings.Count(s, ", ") >= maxUsageMembers {
			t.Fatalf("%q: Usage of %d bytes: %q", value, len(s), s)
		}
		again, err := parseStatement(s)
		if err != nil || again != u {
			t.Fatalf("%q: String %q reads back as %q, %v", value, s, again, err)
		}
		for m, rest := nextMember(s); m != ""; m, rest = nextMember(rest) {
			label, v, _ := strings.Cut(m, "=")
			if !sfv.IsKey(label) || !sfv.IsToken(v) || again.Pref(label) != u.Pref(label) {
				t.Fatalf("%q: member %s=%s", value, label, v)
			}
		}
		c := parseContentSignal(value)
		if again := ParseUsage(c.String()); again.String() != c.String() {
			t.Fatalf("Content-Signal %q: %q reads back as %q", value, c, again)
		}
		limit := 1.0
		if failed != nil {
			limit = maxErrorAllocs
		}
		if n := testing.AllocsPerRun(1, func() { ParseUsage(value) }); n > limit {
			t.Fatalf("ParseUsage(%q) allocates %v times", value, n)
		}
	})
}

// benchStatements are statements of preference from short to long, and
// one that fails.
var benchStatements = []struct{ name, value string }{
	{"one", "train-ai=n"},
	{"two", "train-ai=y, search=n"},
	{"five", `train-ai=n;src="policy", search=y;q=1, ai=n, genai=n, use=reference`},
	{"invalid", "train-ai=n, Search=y"},
}

var usageSink Usage

func BenchmarkParseUsage(b *testing.B) {
	for _, s := range benchStatements {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				usageSink = ParseUsage(s.value)
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
	u := ParseUsage(benchStatements[2].value)
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
	u, v := ParseUsage("train-ai=y, search=y"), ParseUsage("train-ai=n, ai=n")
	b.ReportAllocs()
	for b.Loop() {
		usageSink = u.combine(v)
	}
}
