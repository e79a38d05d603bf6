package usage

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt/internal/quote"
	"github.com/robotsgate/robotstxt/internal/sfv"
)

// TestTableIndexes checks that a table past the labels it holds
// itself finds labels by its index, so that filling it takes time linear
// in its members, however many repeat, and keeps the order and the last
// value of each.
func TestTableIndexes(t *testing.T) {
	var tb table
	labels := labelsFor(1000)
	for _, v := range []string{"y", "n"} {
		for _, l := range labels {
			tb.set(l, v)
		}
	}
	if tb.n != len(labels) || len(tb.index) != len(labels) {
		t.Fatalf("%d labels, %d indexed; want %d", tb.n, len(tb.index), len(labels))
	}
	for i, l := range labels {
		if j, ok := tb.find(l); !ok || j != i || tb.at(j).value != "n" {
			t.Fatalf("%s at %d (%v), want %d with n", l, j, ok, i)
		}
	}
	want := make([]string, len(labels))
	for i, l := range labels {
		want[i] = l + "=n"
	}
	if m := tb.members(); m != strings.Join(want, ", ") {
		t.Errorf("members %.40s…", m)
	}
}

// labelsFor returns n distinct labels.
func labelsFor(n int) []string {
	ls := make([]string, n)
	for i := range ls {
		ls[i] = fmt.Sprintf("l%04d", i)
	}
	return ls
}

// TestParseContentSignalErrors: the error names the first pair that states
// no preference though it was meant to, for lint; the members are those
// read all the same, in the AIPREF vocabulary.
func TestParseContentSignalErrors(t *testing.T) {
	for _, tc := range []struct{ in, members, err string }{
		{"search=yes, ai-train=no, ai-input=no", "search=y, train-ai=n, ai-input=n", ""},
		{"use=reference, ai-train=No", "use=reference, train-ai=n", ""},
		{" , ,", "", ""},
		{"ai-train=nope", "train-ai=nope", `pair "ai-train=nope": ai-train takes yes or no`},
		{"search=yes, ai-train=nope, ai-input=maybe", "search=y, train-ai=nope, ai-input=maybe", `pair "ai-train=nope": ai-train takes yes or no (and 1 more)`},
		{"search", "", `pair "search": no '='`},
		{"Search Engines=yes, ai-train=no", "train-ai=n", `pair "Search Engines=yes": not a key`},
		{`ai-train="no"`, "", `pair "ai-train=\"no\"": ai-train takes yes or no`},
		{"other=a b", "", `pair "other=a b": the value is not a Token`},
		{strings.Repeat("x", sfv.MaxLength+1), "", "sfv:"},
		// A key twice counts with both values, as two lines do (a proxy
		// may join them), n first, then y; so do two keys of one label.
		{"ai-train=no, ai-train=yes", "train-ai=n", ""},
		{"ai-train=no, search=no, ai-train=yes, search=yes", "train-ai=n, search=n", ""},
		{"ai-train=nope, ai-train=yes", "train-ai=y", `pair "ai-train=nope": ai-train takes yes or no`},
		{"ai-train=yes, ai-train=nope", "train-ai=y", `pair "ai-train=nope": ai-train takes yes or no`},
		{"ai-train=no, train-ai=yes", "train-ai=n", ""},
		{"train-ai=yes, search=yes, ai-train=no", "train-ai=n, search=y", ""},
		// Of a pair that is not one, the refusals between ';' and blanks
		// are read; never a yes, which may have been meant for a path.
		{"/ ai-train=no, search=yes", "train-ai=n, search=y", `pair "/ ai-train=no": not a key of lower-case letters, digits, '_', '-', '.' and '*'; only its refusals are read`},
		{"search=yes; ai-train=no", "train-ai=n", `pair "search=yes; ai-train=no": search takes yes or no; only its refusals are read`},
		{"search=yes ai-train=No", "train-ai=n", `pair "search=yes ai-train=No": search takes yes or no; only`},
		{"ai-train=no;", "train-ai=n", `pair "ai-train=no;": ai-train takes yes or no; only`},
		{"/blog/ ai-train=no\tsearch=yes;ai-input=n", "train-ai=n, ai-input=n", `pair "/blog/ ai-train=no\tsearch=yes;ai-input=n": not a key`},
		{"/blog/ ai-train=yes", "", `pair "/blog/ ai-train=yes": not a key of lower-case letters, digits, '_', '-', '.' and '*'`},
		{"search=yes;x", "", `pair "search=yes;x": search takes yes or no`},
		// A refusal read from a pair that is not one stands: a later
		// pair's yes does not undo it.
		{"/private/ ai-train=no, ai-train=yes", "train-ai=n", `pair "/private/ ai-train=no": not a key`},
		{"search=yes; ai-train=no, ai-train=yes, search=yes", "train-ai=n, search=y", `pair "search=yes; ai-train=no": search takes yes or no; only`},
		{"ai-train=yes, /private/ ai-train=no", "train-ai=n", `pair "/private/ ai-train=no": not a key`},
		// Blanks around '=' bind a key to its value there too, as in a
		// pair alone.
		{"search=yes; ai-train = no", "train-ai=n", `pair "search=yes; ai-train = no": search takes yes or no; only`},
		{"ai-train =no; search=yes", "train-ai=n", `pair "ai-train =no; search=yes": ai-train takes yes or no; only`},
		{"/blog/ ai-train\t= no search = yes", "train-ai=n", `pair "/blog/ ai-train\t= no search = yes": not a key`},
		{"/blog/ ai-train = yes", "", `pair "/blog/ ai-train = yes": not a key`},
		{"search= ai-train=no", "train-ai=n", `pair "search= ai-train=no": search takes yes or no; only`},
		{"ai-train=no search= ai-input=no", "train-ai=n, ai-input=n", `pair "ai-train=no search= ai-input=no": ai-train takes yes or no; only`},
		{"search= ai-train = no", "train-ai=n", `pair "search= ai-train = no": search takes yes or no; only`},
		{"search= ai-train= no", "train-ai=n", `pair "search= ai-train= no": search takes yes or no; only`},
		{"search = ai-train = no", "train-ai=n", `pair "search = ai-train = no": search takes yes or no; only`},
		{"search=yes AI-Train =\tNO;x", "train-ai=n", `pair "search=yes AI-Train =\tNO;x": search takes yes or no; only`},
		{"search=ai-train=no", "train-ai=n", `pair "search=ai-train=no": search takes yes or no; only`},
		{"/a xai-train=no ai-train==no ai-train=nope", "", `pair "/a xai-train=no ai-train==no ai-train=nope": not a key`},
		{"/a other=no; ai-train=nope", "", `pair "/a other=no; ai-train=nope": not a key of lower-case letters, digits, '_', '-', '.' and '*'`},
		// An error quotes at most quote.Max bytes of a pair.
		{"/" + strings.Repeat("x", 1000) + " other", "", `pair "/` + strings.Repeat("x", quote.Max-4) + `…": no`},
	} {
		m, err := ParseContentSignal(tc.in)
		if m != tc.members || (err == nil) != (tc.err == "") || err != nil && !strings.HasPrefix(err.Error(), tc.err) {
			t.Errorf("ParseContentSignal(%.40q) = %q, %v; want %q, %s", tc.in, m, err, tc.members, tc.err)
		}
	}
}

func TestAgree(t *testing.T) {
	for _, tc := range []struct{ u, v, want string }{
		{"", "", ""},
		{"train-ai=y", "train-ai=y", "train-ai=y"},
		{"train-ai=y", "", ""},
		{"", "train-ai=n", "train-ai=n"},
		{"train-ai=n", "", "train-ai=n"},
		{"train-ai=y", "train-ai=n", "train-ai=n"},
		{"train-ai=y, search=y", "search=y", "search=y"},
		{"search=y", "train-ai=y, search=y", "search=y"},
		{"train-ai=y, search=n", "search=y, x=n", "search=n, x=n"},
		{"use=a", "use=b", ""},
		{"use=a", "use=a, search=y", "use=a"},
	} {
		if got := Agree(tc.u, tc.v); got != tc.want {
			t.Errorf("Agree(%q, %q) = %q, want %q", tc.u, tc.v, got, tc.want)
		}
		// Whichever comes first, the same labels and values.
		a, b := map[string]string{}, map[string]string{}
		maps.Insert(a, All(Agree(tc.u, tc.v)))
		maps.Insert(b, All(Agree(tc.v, tc.u)))
		if !maps.Equal(a, b) {
			t.Errorf("Agree(%q, %q) = %v but the other way %v", tc.u, tc.v, a, b)
		}
	}
}

// prefs returns each label of members and its value.
func prefs(members string) map[string]string {
	m := map[string]string{}
	for l, v := range All(members) {
		m[l] = v
	}
	return m
}

// FuzzCombineAgree reads three statements (AIPREF or Content-Signal) and
// checks what Combine, the Combiner and Agree make of them: a "no" of a
// label crawlers read is never lost, Combine is commutative and
// associative in its y and n, and Agree fails closed (y only where both
// say y, n where either says n).
func FuzzCombineAgree(f *testing.F) {
	f.Add("train-ai=n, search=y", "search=n", "ai-input=y", false)
	f.Add("search=yes, ai-train=no", "ai-input=yes", "search=no", true)
	f.Add("a=y, b=n, c=x, train-ai=y", "c=n, a=n", "", false)
	f.Fuzz(func(t *testing.T, a, b, c string, signal bool) {
		read := Parse
		if signal {
			read = ParseContentSignal
		}
		u, _ := read(a)
		v, _ := read(b)
		w, _ := read(c)
		for _, s := range []string{u, v, w} {
			if len(s) > MaxLen {
				t.Fatalf("statement of %d bytes past MaxLen", len(s))
			}
		}
		pu, pv, pw := prefs(u), prefs(v), prefs(w)
		uv, vu := Combine(u, v), Combine(v, u)
		if len(uv) > MaxLen || len(vu) > MaxLen {
			t.Fatalf("Combine past MaxLen")
		}
		puv, pvu := prefs(uv), prefs(vu)
		for _, l := range []string{"train-ai", "search", "ai-input"} {
			if (pu[l] == "n" || pv[l] == "n") && (puv[l] != "n" || pvu[l] != "n") {
				t.Fatalf("Combine(%q, %q) = %q, Combine(v, u) = %q: lost the n of %s", u, v, uv, vu, l)
			}
		}
		if len(u)+len(v)+2 <= MaxLen { // nothing dropped
			for l := range pu {
				if x, y := puv[l], pvu[l]; (x == "y" || x == "n" || y == "y" || y == "n") && x != y {
					t.Fatalf("Combine not commutative for %s: %q vs %q (u %q, v %q)", l, x, y, u, v)
				}
			}
			for l, x := range pu {
				if want := stricter(x, pv[l]); (want == "y" || want == "n") && puv[l] != want {
					t.Fatalf("Combine(%q, %q)[%s] = %q, want %q", u, v, l, puv[l], want)
				}
			}
			for l, x := range pv {
				if want := stricter(pu[l], x); (want == "y" || want == "n") && puv[l] != want {
					t.Fatalf("Combine(%q, %q)[%s] = %q, want %q", u, v, l, puv[l], want)
				}
			}
			if len(u)+len(v)+len(w)+4 <= MaxLen {
				var cb Combiner
				cb.Add(u)
				cb.Add(v)
				cb.Add(w)
				all := prefs(cb.Members())
				left := prefs(Combine(Combine(u, v), w))
				right := prefs(Combine(u, Combine(v, w)))
				for _, p := range []map[string]string{pu, pv, pw} {
					for l := range p {
						if all[l] != left[l] || left[l] != right[l] {
							t.Fatalf("Combiner %q, (uv)w %q, u(vw) %q for %s", all[l], left[l], right[l], l)
						}
					}
				}
			}
		}
		ag := Agree(u, v)
		pag := prefs(ag)
		for l, x := range pag {
			if x == "y" && (pu[l] != "y" || pv[l] != "y") {
				t.Fatalf("Agree(%q, %q) = %q: y of %s not in both", u, v, ag, l)
			}
			if x != "y" && x != "n" && (pu[l] != x || pv[l] != x) {
				t.Fatalf("Agree(%q, %q) = %q: %s=%s not in both", u, v, ag, l, x)
			}
		}
		for _, p := range []map[string]string{pu, pv} {
			for l, x := range p {
				if x == "n" && Read(l) && pag[l] != "n" {
					t.Fatalf("Agree(%q, %q) = %q: lost the n of %s", u, v, ag, l)
				}
			}
		}
	})
}

// TestContentSignalPathScopedRecordGivesNoYes: a Content-Signal record
// written with a path before its pairs, as a Content-Usage rule is
// ("/blog/ search=yes, ai-train=yes"), speaks of that path only. The
// first pair's yes is dropped for that reason ("never a yes, which may
// have been meant for some paths only"); the yes of the pairs after it,
// under the same path, must be dropped too, whatever order the pairs
// come in, and a yes spelt y (a pair that already carries an error,
// "takes yes or no"). Refusals are still read, failing closed.
func TestContentSignalPathScopedRecordGivesNoYes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/blog/ ai-train=yes, search=yes", ""},
		{"/blog/ search=yes, ai-train=yes", ""},
		{"/blog/ search=yes, ai-train=no", "train-ai=n"},
		{"/blog/ ai-train=no, search=yes", "train-ai=n"},
		{"/blog/ search=yes, ai-train=y", ""},
		{"/blog/ search=no, ai-train=y", ""},
		{"/blog/ search=yes, ai-input=y, ai-train=n", "train-ai=n"},
	} {
		got, _ := ParseContentSignal(tc.in)
		for label, v := range All(got) {
			if v == "y" {
				t.Errorf("ParseContentSignal(%q) = %q: %s=y, a yes the record gave /blog/ only, read for every path", tc.in, got, label)
			}
		}
		if v, _ := Value(got, "train-ai"); tc.want == "train-ai=n" && v != "n" {
			t.Errorf("ParseContentSignal(%q) = %q, want its refusal train-ai=n", tc.in, got)
		}
	}
}

// TestContentSignalJoinedPathRecordGivesNoYes: the lines of a header
// field a proxy joins into one read as they did apart, a line that
// starts with a path among them: its yes stays unread, joined after
// another line too.
func TestContentSignalJoinedPathRecordGivesNoYes(t *testing.T) {
	lines := []string{"ai-train=no", "/blog/ ai-input=no, search=yes"}
	var apart Combiner
	for _, l := range lines {
		m, _ := ParseContentSignal(l)
		apart.Add(m)
	}
	joined, _ := ParseContentSignal(lines[0] + ", " + lines[1])
	if joined != apart.Members() {
		t.Errorf("joined %q = %q, apart %q", lines[0]+", "+lines[1], joined, apart.Members())
	}
}
