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

// FuzzCut: Cut(s, n) returns s when it fits in n bytes; otherwise at
// most n bytes (none for a negative n): a prefix of s ending in "…", or
// where n leaves no room for it a prefix alone, as long as fits without
// splitting a character: for valid UTF-8, whole characters only, as many
// as fit, and valid UTF-8 again. Never a panic, whatever n.
func FuzzCut(f *testing.F) {
	f.Add("short", 10)
	f.Add(strings.Repeat("x", 11), 10)
	f.Add("ééééé", 8)
	f.Add("日本語のテキスト", 7)
	f.Add("\x80\x80\x80\x80\x80", 4)
	f.Add("é\xff", 3)
	f.Add("abcd", 3)
	f.Add("éé", 2)
	f.Add("abc", -1)
	f.Fuzz(func(t *testing.T, s string, n int) {
		got := Cut(s, n)
		if len(s) <= n {
			if got != s {
				t.Fatalf("Cut(%q, %d) = %q, want it whole", s, n, got)
			}
			return
		}
		if len(got) > max(n, 0) {
			t.Fatalf("Cut(%q, %d) = %q, %d bytes", s, n, got, len(got))
		}
		room := n - len("…")
		kept, marked := strings.CutSuffix(got, "…")
		if room < 0 {
			room, kept, marked = max(n, 0), got, true // no room for the mark
		}
		if !marked || !strings.HasPrefix(s, kept) {
			t.Fatalf("Cut(%q, %d) = %q, not a prefix of it marked", s, n, got)
		}
		if !utf8.ValidString(s) {
			return
		}
		want := 0
		for _, r := range s {
			if want+utf8.RuneLen(r) > room {
				break
			}
			want += utf8.RuneLen(r)
		}
		if len(kept) != want || !utf8.ValidString(got) {
			t.Fatalf("Cut(%q, %d) = %q, keeping %d bytes; want %d, whole characters", s, n, got, len(kept), want)
		}
	})
}
