package parser_test

import (
	"fmt"
	"strings"
	"testing"

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
