package parse

import (
	"slices"
	"strings"
	"testing"
)

func collect(body string) []Line {
	return slices.Collect(Lines(body))
}

func TestLinesEndings(t *testing.T) {
	for _, c := range []struct {
		name string
		body string
		keys []string // RawKey of each line
	}{
		{"LF", "a: 1\nb: 2\nc: 3", []string{"a", "b", "c"}},
		{"CRLF", "a: 1\r\nb: 2\r\nc: 3", []string{"a", "b", "c"}},
		{"CR", "a: 1\rb: 2\rc: 3", []string{"a", "b", "c"}},
		{"mixed", "a: 1\r\nb: 2\rc: 3\nd: 4", []string{"a", "b", "c", "d"}},
		{"final newline gives an empty last line", "a: 1\n", []string{"a", ""}},
		{"final CRLF gives one empty last line", "a: 1\r\n", []string{"a", ""}},
		{"LF CR is two endings", "a: 1\n\rb: 2", []string{"a", "", "b"}},
		{"CR CR LF is two endings", "a: 1\r\r\nb: 2", []string{"a", "", "b"}},
		{"empty body is one empty line", "", []string{""}},
		{"only CRLF", "\r\n", []string{"", ""}},
	} {
		ls := collect(c.body)
		var got []string
		for i, l := range ls {
			if l.Num != i+1 {
				t.Errorf("%s: line %d has Num %d", c.name, i+1, l.Num)
			}
			got = append(got, l.RawKey)
		}
		if !slices.Equal(got, c.keys) {
			t.Errorf("%s: keys %q, want %q", c.name, got, c.keys)
		}
	}
}

func TestLinesByteOrderMark(t *testing.T) {
	for _, c := range []struct {
		name string
		body string
		key  Key
		raw  string
	}{
		{"full BOM", "\xEF\xBB\xBFUser-agent: x", KeyUserAgent, "User-agent"},
		{"two BOM bytes", "\xEF\xBBUser-agent: x", KeyUserAgent, "User-agent"},
		{"one BOM byte", "\xEFUser-agent: x", KeyUserAgent, "User-agent"},
		{"no BOM", "User-agent: x", KeyUserAgent, "User-agent"},
		{"broken BOM", "\xEF\x11\xBFUser-agent: x", KeyOther, "\x11\xBFUser-agent"},
		{"BOM bytes out of order", "\xBB\xBFUser-agent: x", KeyOther, "\xBB\xBFUser-agent"},
		{"BOM twice: only the first is skipped", "\xEF\xBB\xBF\xEF\xBB\xBFUser-agent: x", KeyOther, "\uFEFFUser-agent"},
	} {
		l := collect(c.body)[0]
		if l.Key != c.key || l.RawKey != c.raw {
			t.Errorf("%s: key %v %q, want %v %q", c.name, l.Key, l.RawKey, c.key, c.raw)
		}
	}
	// A BOM is only skipped at the very start of the file.
	ls := collect("User-agent: x\n\xEF\xBB\xBFDisallow: /")
	if ls[1].Key != KeyOther || ls[1].RawKey != "\uFEFFDisallow" {
		t.Errorf("BOM on line 2: got %v %q, want an unknown key", ls[1].Key, ls[1].RawKey)
	}
}

func TestLinesSplitting(t *testing.T) {
	const (
		empty       = FlagEmpty
		comment     = FlagComment
		commentOnly = FlagComment | FlagCommentOnly
		noColon     = FlagMissingColon
		typo        = FlagTypo
		noKey       = FlagNoKey
	)
	for _, c := range []struct {
		text  string
		key   Key
		raw   string
		value string
		flags LineFlags
	}{
		{"Disallow: /a", KeyDisallow, "Disallow", "/a", 0},
		{"  Disallow  :   /a  ", KeyDisallow, "Disallow", "/a", 0},
		{"\tDisallow\t:\t/a\t", KeyDisallow, "Disallow", "/a", 0},
		{"Disallow:/a", KeyDisallow, "Disallow", "/a", 0},
		{"Disallow:", KeyDisallow, "Disallow", "", 0},
		{"Disallow: /a:b", KeyDisallow, "Disallow", "/a:b", 0},
		{"Disallow: /a b", KeyDisallow, "Disallow", "/a b", 0},
		{"Disallow: /a # comment", KeyDisallow, "Disallow", "/a", comment},
		{"Disallow: /a#b", KeyDisallow, "Disallow", "/a", comment},
		{"Dis#allow: /a", KeyNone, "", "", comment | noKey},
		{"# just a comment", KeyNone, "", "", commentOnly},
		{"   # indented comment", KeyNone, "", "", commentOnly},
		{"#", KeyNone, "", "", commentOnly},
		{"", KeyNone, "", "", empty},
		{" \t \v\f", KeyNone, "", "", empty},
		{"disallow /a", KeyDisallow, "disallow", "/a", noColon},
		{"disallow \t /a", KeyDisallow, "disallow", "/a", noColon},
		{"user-agent FooBot # c", KeyUserAgent, "user-agent", "FooBot", noColon | comment},
		{"disallow /a /b", KeyNone, "", "", noKey},
		{"absolutely random line", KeyNone, "", "", noKey},
		{"Error", KeyNone, "", "", noKey},
		{"Error #and comment", KeyNone, "", "", noKey | comment},
		{": /a", KeyNone, "", "", noKey},
		{"DISALLOW: /a", KeyDisallow, "DISALLOW", "/a", 0},
		{"dIsAlLoW: /a", KeyDisallow, "dIsAlLoW", "/a", 0},
		{"Disallowed: /a", KeyDisallow, "Disallowed", "/a", 0},
		{"USER-AGENT: x", KeyUserAgent, "USER-AGENT", "x", 0},
		{"Allow: /a", KeyAllow, "Allow", "/a", 0},
		{"SiteMap: http://x/s.xml", KeySitemap, "SiteMap", "http://x/s.xml", 0},
		{"useragent: x", KeyUserAgent, "useragent", "x", typo},
		{"user agent: x", KeyUserAgent, "user agent", "x", typo},
		{"dissallow: /a", KeyDisallow, "dissallow", "/a", typo},
		{"dissalow: /a", KeyDisallow, "dissalow", "/a", typo},
		{"disalow: /a", KeyDisallow, "disalow", "/a", typo},
		{"diasllow: /a", KeyDisallow, "diasllow", "/a", typo},
		{"disallaw: /a", KeyDisallow, "disallaw", "/a", typo},
		{"site-map: http://x/s.xml", KeySitemap, "site-map", "http://x/s.xml", typo},
		{"desallow: /a", KeyOther, "desallow", "/a", 0},
		{"useg-agent: x", KeyOther, "useg-agent", "x", 0},
		{"crawl-delay: 5", KeyOther, "crawl-delay", "5", 0},
		{"unicorns: /extinct", KeyOther, "unicorns", "/extinct", 0},
		{"Content-Usage: /a train-ai=n", KeyContentUsage, "Content-Usage", "/a train-ai=n", 0},
		{"content-usagex: train-ai=n", KeyOther, "content-usagex", "train-ai=n", 0},
		{"LICENSE: https://x/l.xml", KeyLicense, "LICENSE", "https://x/l.xml", 0},
		{"licenses: https://x/l.xml", KeyOther, "licenses", "https://x/l.xml", 0},
	} {
		ls := collect(c.text)
		if len(ls) != 1 {
			t.Fatalf("%q: %d lines", c.text, len(ls))
		}
		l := ls[0]
		if l.Key != c.key || l.RawKey != c.raw || l.Value != c.value || l.Flags != c.flags {
			t.Errorf("%q:\n got key %v raw %q value %q flags %b\nwant key %v raw %q value %q flags %b",
				c.text, l.Key, l.RawKey, l.Value, l.Flags, c.key, c.raw, c.value, c.flags)
		}
	}
}

func TestLinesCut(t *testing.T) {
	t.Run("too long", func(t *testing.T) {
		head := "disallow: /x/"
		text := head + strings.Repeat("a", MaxLineLength) + "/qux"
		l := collect(text + "\nallow: /")[0]
		if l.Flags != FlagTooLong {
			t.Errorf("flags %b, want FlagTooLong", l.Flags)
		}
		if want := text[len("disallow: "):MaxLineLength]; l.Value != want {
			t.Errorf("value has %d bytes, want %d", len(l.Value), len(want))
		}
		if l.Key != KeyDisallow {
			t.Errorf("key %v, want disallow: a truncated line is still parsed", l.Key)
		}
	})
	t.Run("exactly the limit is kept whole", func(t *testing.T) {
		text := "disallow: /" + strings.Repeat("a", MaxLineLength-len("disallow: /"))
		l := collect(text)[0]
		if l.Flags != 0 || len(l.Value) != MaxLineLength-len("disallow: ") {
			t.Errorf("flags %b, value %d bytes", l.Flags, len(l.Value))
		}
		l = collect(text + "b")[0]
		if l.Flags != FlagTooLong || strings.HasSuffix(l.Value, "b") {
			t.Errorf("one byte over: flags %b, value ends %q", l.Flags, l.Value[len(l.Value)-3:])
		}
	})
	t.Run("limit", func(t *testing.T) {
		if MaxLineLength != 16663 {
			t.Errorf("MaxLineLength = %d, want 2083*8-1 = 16663", MaxLineLength)
		}
	})
	t.Run("NUL", func(t *testing.T) {
		l := collect("disallow: /a\x00/b")[0]
		if l.Value != "/a" || l.Flags != FlagNUL || l.Key != KeyDisallow {
			t.Errorf("got %v %q flags %b", l.Key, l.Value, l.Flags)
		}
	})
	t.Run("within the comment", func(t *testing.T) {
		// A cut past the '#' cuts nothing read: no cut at all.
		for _, text := range []string{
			"content-usage: train-ai=n # " + strings.Repeat("x", MaxLineLength),
			"content-usage: train-ai=n # see\x00x",
			"content-usage: train-ai=n" + strings.Repeat(" ", MaxLineLength) + "# x",
		} {
			if l := collect(text)[0]; l.Value != "train-ai=n" || l.Flags != FlagComment {
				t.Errorf("%.40q: value %q, flags %b; want train-ai=n, a comment only", text, l.Value, l.Flags)
			}
		}
		if l := collect("disallow: /a\x00/b # c")[0]; l.Value != "/a" || l.Flags != FlagNUL {
			t.Errorf("a NUL cutting the value: %q flags %b", l.Value, l.Flags)
		}
		if l := collect("disallow: /a\x00 # c")[0]; l.Value != "/a" || l.Flags != FlagComment {
			t.Errorf("a NUL cutting blanks and a comment: %q flags %b", l.Value, l.Flags)
		}
		if l := collect("disallow: /a" + strings.Repeat(" ", MaxLineLength) + "/b")[0]; l.Value != "/a" || l.Flags != FlagTooLong {
			t.Errorf("a cut past blanks, before more: %q flags %b", l.Value, l.Flags)
		}
	})
	t.Run("invalid UTF-8", func(t *testing.T) {
		l := collect("disallow: /\xff")[0]
		if l.Value != "/\xff" || l.Flags != FlagInvalidUTF8 {
			t.Errorf("got %q flags %b", l.Value, l.Flags)
		}
	})
}

// TestLinesStopsEarly checks that the iterator honours a consumer that
// stops.
func TestLinesStopsEarly(t *testing.T) {
	n := 0
	for l := range Lines("a: 1\nb: 2\nc: 3") {
		n++
		if l.Num == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("saw %d lines, want 2", n)
	}
}

func TestKeyString(t *testing.T) {
	for k, want := range map[Key]string{
		KeyUserAgent: "user-agent", KeyAllow: "allow", KeyDisallow: "disallow",
		KeySitemap: "sitemap", KeyOther: "other", KeyNone: "", KeyContentUsage: "content-usage",
		KeyLicense: "license",
	} {
		if got := k.String(); got != want {
			t.Errorf("Key(%d).String() = %q, want %q", k, got, want)
		}
	}
}

// TestSettled: a line cut short reads as every line it begins only when
// its comment began, or more than white space follows what the parser
// keeps of it.
func TestSettled(t *testing.T) {
	long := "Content-Usage: train-ai=y" + strings.Repeat(" ", MaxLineLength)
	for text, want := range map[string]bool{
		"Disallow: /x":        false,
		"Disallow: /x # a":    true,
		"Allow: /x\x00y":      true,
		"Allow: /x\x00 ":      false,
		"Allow: /x\x00":       false,
		"Allow: /x\x00#":      true,
		long:                  false,
		long + "x":            true,
		long + "#":            true,
		"# " + long:           true,
		"Allow: /x\x00y\x00z": true,
	} {
		if got := Settled(text); got != want {
			t.Errorf("Settled(%.40q) = %v, want %v", text, got, want)
		}
	}
}
