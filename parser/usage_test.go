package parser_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/internal/sfv"
	"github.com/robotsgate/robotstxt/internal/usage"
	"github.com/robotsgate/robotstxt/parser"
)

// TestPreferences checks the members Preferences yields, as written for
// Content-Usage and in the AIPREF vocabulary for Content-Signal, and why a
// statement, or part of one, states nothing.
func TestPreferences(t *testing.T) {
	for _, tc := range []struct {
		key, value string
		members    string // label=value, joined by " "
		err        string // in the error, "" for none
	}{
		{"content-usage", "train-ai=n, search=y", "train-ai=n search=y", ""},
		{"Content-Usage", `train-ai=yes, search="y";p=1, ai, train-ai=n`, `train-ai=yes search="y" ai= train-ai=n`, ""},
		{"content-usage", "", "", ""},
		{"content-usage", "Train-AI=n", "", "sfv: offset 0"},
		{"content-usage", "train-ai=n,", "", "a ',' ends the dictionary"},
		{"content-signal", "search=yes, ai-train=no, ai-input=No", "search=y train-ai=n ai-input=n", ""},
		{"content-signal", "ai-train=nope, search=yes, x", "train-ai=nope search=y", `pair "ai-train=nope": ai-train takes yes or no (and 1 more)`},
		{"content-signal", "search=yes; ai-train=no, /blog/ ai-input=yes", "train-ai=n", `pair "search=yes; ai-train=no": search takes yes or no; only its refusals are read (and 1 more)`},
		{"crawl-delay", "10", "", ""},
		{"content-uſage", "train-ai=n", "", ""}, // names compare as ASCII
		{"content-ſignal", "ai-train=no", "", ""},
	} {
		members, err := parser.Preferences(tc.key, tc.value)
		var got []string
		for label, v := range members {
			got = append(got, label+"="+v)
		}
		if strings.Join(got, " ") != tc.members || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Preferences(%q, %q) = %q, %v; want %q, %q", tc.key, tc.value, got, err, tc.members, tc.err)
		}
	}
}

func ExamplePreferences() {
	members, err := parser.Preferences("content-signal", "search=yes, ai-train=nope")
	for label, value := range members {
		fmt.Println(label, value)
	}
	fmt.Println(err)
	// Output:
	// search y
	// train-ai nope
	// pair "ai-train=nope": ai-train takes yes or no
}

// FuzzPreferences reads any statement both ways a linter may: what
// Preferences yields for content-usage agrees with what the robotstxt
// package keeps of it (internal/usage.Parse: the last y or n of each
// label), every key spelling reads alike, and a Content-Signal yields
// each label once with a Dictionary key for a label.
func FuzzPreferences(f *testing.F) {
	f.Add("train-ai=n, search=y", "Content-Usage")
	f.Add("search=yes, ai-train=no", "content-signal")
	f.Add(`a=?1, a=n;x=1, b="n", c=(y n)`, "content-usage")
	f.Add("/ ai-train=no; search=yes", "CONTENT-SIGNAL")
	f.Fuzz(func(t *testing.T, value, key string) {
		seq, err := parser.Preferences(key, value)
		last := map[string]string{}
		var labels []string
		for l, v := range seq {
			if _, ok := last[l]; !ok {
				labels = append(labels, l)
			}
			last[l] = v
			if !sfv.IsKey(l) {
				t.Fatalf("Preferences(%q, %q) yields label %q, not a key", key, value, l)
			}
		}
		seq2, err2 := parser.Preferences(strings.ToUpper(key), value)
		for l, v := range seq2 {
			if last[l] == "" && v != "" {
				t.Fatalf("key %q and %q read apart: %q=%q", key, strings.ToUpper(key), l, v)
			}
		}
		if (err == nil) != (err2 == nil) {
			t.Fatalf("key %q: %v; upper: %v", key, err, err2)
		}
		switch strings.ToLower(key) {
		case "content-usage":
			members, perr := usage.Parse(value)
			if (perr == nil) != (err == nil) {
				t.Fatalf("Preferences error %v, usage.Parse error %v", err, perr)
			}
			for _, l := range labels {
				want := last[l]
				if want != "y" && want != "n" {
					continue
				}
				if got, _ := usage.Value(members, l); got != want {
					t.Fatalf("%q: label %s yields %q last, the package keeps %q (%q)", value, l, want, got, members)
				}
			}
		case "content-signal":
			seen := map[string]bool{}
			for l := range seq {
				if seen[l] {
					t.Fatalf("Content-Signal %q yields %s twice", value, l)
				}
				seen[l] = true
			}
		}
	})
}

// FuzzCrawlDelay: a delay is between 0 and a day, 0 only for a value of
// 0, an error only for what is not a non-negative number, and a value
// and its sign-prefixed spelling read alike.
func FuzzCrawlDelay(f *testing.F) {
	for _, s := range []string{"1", "0.5", "-1", "NaN", "Inf", "1e400", "1e-400", "0x1p-2", "1_0", " 1", "86400.0001", "9223372036.854775807"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		d, err := parser.CrawlDelay(v)
		s, perr := strconv.ParseFloat(v, 64)
		if err != nil {
			if perr == nil && s >= 0 && !math.IsNaN(s) {
				t.Fatalf("CrawlDelay(%q): %v, yet it parses as %v", v, err, s)
			}
			return
		}
		if d < 0 || d > 24*time.Hour {
			t.Fatalf("CrawlDelay(%q) = %v", v, d)
		}
		if perr == nil && (d == 0) != (s == 0) {
			t.Fatalf("CrawlDelay(%q) = %v for %v", v, d, s)
		}
		if perr == nil && s < 86400 {
			if diff := math.Abs(d.Seconds() - s); diff > 1e-9+s*1e-12 && d != 1 {
				t.Fatalf("CrawlDelay(%q) = %v, far from %v s", v, d, s)
			}
		}
	})
}
