package quote

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{strings.Repeat("x", 10), 10, strings.Repeat("x", 10)},
		{strings.Repeat("x", 11), 10, "xxxxxxx…"},
		{"ééééé", 8, "éé…"}, // never inside a character
	} {
		got := Cut(tc.in, tc.n)
		if got != tc.want || len(got) > tc.n || !utf8.ValidString(got) {
			t.Errorf("Cut(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
