package robotstxt

import (
	"context"
	"strings"
	"testing"
)

// TestCharsetBodyCutAtLimit: a UTF-8 body cut in the middle of a character
// by the body limit stays UTF-8, and a non-ASCII rule before the cut
// still matches.
func TestCharsetBodyCutAtLimit(t *testing.T) {
	checkLeaks(t)
	rules := "User-agent: *\nDisallow: /café\n# "
	pad := 1000 - len(rules) - 1 // the limit falls inside the next "é"
	body := rules + strings.Repeat("x", pad) + "é and more\n"
	s := newSite(t, serve(200, body, "Content-Type", "text/plain"))
	c := newTestClient(t, WithBodyLimit(1000))
	d, err := c.Check(context.Background(), s.URL+"/café")
	if err != nil || d.Allowed || d.Rule == nil || d.Rule.Pattern != "/caf%C3%A9" {
		t.Fatalf("Check(/café) = %+v, %v; want disallowed by /caf%%C3%%A9", d, err)
	}
}

func TestCharsetDropCutRune(t *testing.T) {
	for in, want := range map[string]string{
		"a/é\xE2\x82": "a/é", "a/é\xE2": "a/é", "a/é": "a/é", "abc": "abc", "": "",
		"\xF0\x9F\x98": "", "a\x82": "a\x82",
	} {
		if got := string(dropCutRune([]byte(in))); got != want {
			t.Errorf("dropCutRune(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCharsetToUTF8(t *testing.T) {
	for _, tc := range []struct {
		name, body, ctype, want string
	}{
		{"valid UTF-8 kept", "a/é", "", "a/é"},
		{"declared UTF-8 kept with a stray byte", "a/\xE9/é", "text/plain; charset=UTF-8", "a/\xE9/é"},
		{"Latin-1 declared", "a/caf\xE9", "text/plain; charset=iso-8859-1", "a/café"},
		{"Windows-1252 fallback", "a/\x80", "text/plain", "a/€"},
		{"UTF-16LE with BOM", "\xFF\xFEa\x00/\x00", "", "\uFEFFa/"},
	} {
		text, _ := toUTF8([]byte(tc.body), tc.ctype)
		got := string(text)
		got = strings.TrimPrefix(got, "\uFEFF")
		if want := strings.TrimPrefix(tc.want, "\uFEFF"); got != want {
			t.Errorf("%s: toUTF8(%q, %q) = %q, want %q", tc.name, tc.body, tc.ctype, got, want)
		}
	}
}
