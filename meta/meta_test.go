package meta

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Directives
	}{
		{"", Directives{}},
		{"index, follow", Directives{}},
		{"all", Directives{}},
		{"noindex", Directives{NoIndex: true}},
		{"NOINDEX,NoFollow", Directives{NoIndex: true, NoFollow: true}},
		{"none", Directives{NoIndex: true, NoFollow: true}},
		{" noarchive , nosnippet ", Directives{NoArchive: true, NoSnippet: true}},
		{"noimageindex, notranslate", Directives{NoImageIndex: true, NoTranslate: true}},
		{"NoAI, noimageai", Directives{NoAI: true, NoImageAI: true}},
		{"noindex, index", Directives{NoIndex: true}}, // restrictions add up
		{"max-snippet:50, noindex", Directives{NoIndex: true, Other: []string{"max-snippet:50"}}},
		{"unavailable_after: 2027-01-02", Directives{UnavailableAfter: time.Date(2027, 1, 2, 0, 0, 0, 0, time.UTC)}},
		{"unavailable_after: Monday, 25-Jun-2029 15:00:00 UTC, nofollow", Directives{
			UnavailableAfter: time.Date(2029, 6, 25, 15, 0, 0, 0, time.UTC), NoFollow: true}},
		{"unavailable_after: someday", Directives{Other: []string{"unavailable_after: someday"}}},
		// Google's example, in US Pacific time; ISO 8601 without a zone.
		{"unavailable_after: 25 Jun 2010 15:00:00 PST", Directives{UnavailableAfter: time.Date(2010, 6, 25, 23, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 25-Jun-2010 15:00:00 EST", Directives{UnavailableAfter: time.Date(2010, 6, 25, 20, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 2010-06-25T15:00:00", Directives{UnavailableAfter: time.Date(2010, 6, 25, 15, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 2010-06-25T15:00", Directives{UnavailableAfter: time.Date(2010, 6, 25, 15, 0, 0, 0, time.UTC)}},
		// ISO 8601's basic format and reduced precision, RFC 3339's
		// lower-case t and z, an RFC 822 comment, a military zone (whose
		// sign is unknown: the earliest reading).
		{"unavailable_after: 20300625T150000Z", Directives{UnavailableAfter: time.Date(2030, 6, 25, 15, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 20300625", Directives{UnavailableAfter: time.Date(2030, 6, 25, 0, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 20300625t1500+0200", Directives{UnavailableAfter: time.Date(2030, 6, 25, 13, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 2030-06-25T15Z", Directives{UnavailableAfter: time.Date(2030, 6, 25, 15, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 2030-06-25t15:00:00z", Directives{UnavailableAfter: time.Date(2030, 6, 25, 15, 0, 0, 0, time.UTC)}},
		{"unavailable_after: Tue, 25 Jun 2030 15:00:00 +0000 (UTC)", Directives{UnavailableAfter: time.Date(2030, 6, 25, 15, 0, 0, 0, time.UTC)}},
		{"unavailable_after: Tue, 25 Jun 2030 16:00:00 A", Directives{UnavailableAfter: time.Date(2030, 6, 25, 2, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 2030-06-25 (x) (y)", Directives{Other: []string{"unavailable_after: 2030-06-25 (x) (y)"}}},
		// RFC 822 (two-digit years, no seconds, numeric zones, UT), RFC
		// 1123 without a weekday, ISO 8601's other offsets, asctime, a
		// blank before the colon.
		{"unavailable_after: 21 Sep 20 10:00 +0200", Directives{UnavailableAfter: time.Date(2020, 9, 21, 8, 0, 0, 0, time.UTC)}},
		{"unavailable_after: Mon, 21 Sep 20 10:00 EDT", Directives{UnavailableAfter: time.Date(2020, 9, 21, 14, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 21 Sep 2020 10:00:00 +0200", Directives{UnavailableAfter: time.Date(2020, 9, 21, 8, 0, 0, 0, time.UTC)}},
		{"unavailable_after: Mon, 1 Sep 2020 10:00:00 UT", Directives{UnavailableAfter: time.Date(2020, 9, 1, 10, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 2020-09-21T10:00:00+0200", Directives{UnavailableAfter: time.Date(2020, 9, 21, 8, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 2020-09-21T10:00Z", Directives{UnavailableAfter: time.Date(2020, 9, 21, 10, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 2020-09-21 10:00:00", Directives{UnavailableAfter: time.Date(2020, 9, 21, 10, 0, 0, 0, time.UTC)}},
		{"unavailable_after: Mon Sep 21 10:00:00 2020", Directives{UnavailableAfter: time.Date(2020, 9, 21, 10, 0, 0, 0, time.UTC)}},
		{"Unavailable_After : 2020-09-21", Directives{UnavailableAfter: time.Date(2020, 9, 21, 0, 0, 0, 0, time.UTC)}},
		// Numeric zones of 0, which Go also reads as zone names.
		{"unavailable_after: Mon, 21 Sep 2020 10:00:00 +0000", Directives{UnavailableAfter: time.Date(2020, 9, 21, 10, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 21 Sep 2020 10:00:00 -0000", Directives{UnavailableAfter: time.Date(2020, 9, 21, 10, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 21 Sep 20 10:00 +0000", Directives{UnavailableAfter: time.Date(2020, 9, 21, 10, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 2020-09-21T10:00:00+0000", Directives{UnavailableAfter: time.Date(2020, 9, 21, 10, 0, 0, 0, time.UTC)}},
		{"unavailable_after: Monday, 21-Sep-20 10:00:00 +0000", Directives{UnavailableAfter: time.Date(2020, 9, 21, 10, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 21-Sep-2020 10:00:00 -0300", Directives{UnavailableAfter: time.Date(2020, 9, 21, 13, 0, 0, 0, time.UTC)}},
		// A zone name RFC 822 does not give: the earliest time it may
		// mean (UTC+14), not UTC; GMT+3 too, whose sign POSIX reverses.
		// A blank for the T (RFC 3339 §5.6, as Python prints a date), an
		// offset in hours, a zone name in lower case (RFC 822 §3.4.7).
		{"unavailable_after: 2025-06-25 15:00:00+00:00", Directives{UnavailableAfter: time.Date(2025, 6, 25, 15, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 2025-06-25 15:00:00.123456Z", Directives{UnavailableAfter: time.Date(2025, 6, 25, 15, 0, 0, 123456000, time.UTC)}},
		{"unavailable_after: 2025-06-25T15:00:00+01", Directives{UnavailableAfter: time.Date(2025, 6, 25, 14, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 2025-06-25  15:00", Directives{UnavailableAfter: time.Date(2025, 6, 25, 15, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 2025-06-25 15:00-05", Directives{UnavailableAfter: time.Date(2025, 6, 25, 20, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 25 Jun 2025 15:00:00 gmt", Directives{UnavailableAfter: time.Date(2025, 6, 25, 15, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 25 Jun 2025 15:00:00 pst", Directives{UnavailableAfter: time.Date(2025, 6, 25, 23, 0, 0, 0, time.UTC)}},
		{"unavailable_after: Wed, 25 Jun 2025 15:00:00 ut", Directives{UnavailableAfter: time.Date(2025, 6, 25, 15, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 21 Sep 2020 10:00:00 GMT+3", Directives{UnavailableAfter: time.Date(2020, 9, 20, 20, 0, 0, 0, time.UTC)}},
		{"unavailable_after: 21 Sep 2020 10:00:00 CET", Directives{UnavailableAfter: time.Date(2020, 9, 20, 20, 0, 0, 0, time.UTC)}},
		{"unavailable_after: Monday, 21-Sep-20 10:00:00 JST", Directives{UnavailableAfter: time.Date(2020, 9, 20, 20, 0, 0, 0, time.UTC)}},
	}
	for _, tt := range tests {
		got := Parse(tt.in)
		if !got.UnavailableAfter.Equal(tt.want.UnavailableAfter) {
			t.Errorf("Parse(%q).UnavailableAfter = %v, want %v", tt.in, got.UnavailableAfter, tt.want.UnavailableAfter)
		}
		got.UnavailableAfter, tt.want.UnavailableAfter = time.Time{}, time.Time{}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
	// The machine's zone, which names CST otherwise, changes nothing.
	local := time.Local
	defer func() { time.Local = local }()
	if shanghai, err := time.LoadLocation("Asia/Shanghai"); err == nil {
		time.Local = shanghai
		if d := Parse("unavailable_after: 25 Jun 2010 15:00:00 CST"); !d.UnavailableAfter.Equal(time.Date(2010, 6, 25, 21, 0, 0, 0, time.UTC)) {
			t.Errorf("CST read in Asia/Shanghai: %v, want 21:00 UTC", d.UnavailableAfter)
		}
	}
	if d := Parse("none"); d.Index() || d.Follow() {
		t.Error("none: Index or Follow true")
	}
	if d := Parse(""); !d.Index() || !d.Follow() {
		t.Error("zero Directives must allow index and follow")
	}
}

func TestFromHTML(t *testing.T) {
	page := `<!doctype html><html><head>
<title>x</title>
<META NAME="Robots" CONTENT="noarchive">
<meta name="googlebot" content="noindex">
<meta name="otherbot" content="nofollow">
<meta property="og:title" content="none">
</head><body><meta name="robots" content="none"></body></html>`
	tests := []struct {
		agent string
		want  Directives
	}{
		{"Googlebot", Directives{NoArchive: true, NoIndex: true}},
		{"otherbot", Directives{NoArchive: true, NoFollow: true}},
		{"ExampleBot", Directives{NoArchive: true}},
		{"", Directives{NoArchive: true}},
	}
	for _, tt := range tests {
		got, err := FromHTML(strings.NewReader(page), tt.agent)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("agent %q: %+v, want %+v", tt.agent, got, tt.want)
		}
	}
}

// TestFromHTMLTokens reads the tags named for any of several product
// tokens, as FromHeader does, and none for an empty one.
func TestFromHTMLTokens(t *testing.T) {
	page := `<head>
<meta name="robots" content="noarchive">
<meta name="XBot" content="noindex">
<meta name="xbot-news" content="nofollow">
<meta name="" content="nosnippet">
<meta content="notranslate">
<meta name="Kbot" content="noimageindex">` // a Kelvin sign is no "k"
	tests := []struct {
		tokens []string
		want   Directives
	}{
		{nil, Directives{NoArchive: true}},
		{[]string{""}, Directives{NoArchive: true}},
		{[]string{"xbot"}, Directives{NoArchive: true, NoIndex: true}},
		{[]string{"XBot-News", "XBot"}, Directives{NoArchive: true, NoIndex: true, NoFollow: true}},
		{[]string{"OtherBot", "xbot-news"}, Directives{NoArchive: true, NoFollow: true}},
		{[]string{"kbot"}, Directives{NoArchive: true}},
	}
	for _, tt := range tests {
		got, err := FromHTML(strings.NewReader(page), tt.tokens...)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("tokens %q: %+v, want %+v", tt.tokens, got, tt.want)
		}
	}
}

func TestMerge(t *testing.T) {
	early := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	late := early.AddDate(1, 0, 0)
	tests := []struct {
		name string
		a, b Directives
		want Directives
	}{
		{"zero", Directives{}, Directives{}, Directives{}},
		{"restrictions add up", Directives{NoIndex: true, NoArchive: true}, Directives{NoFollow: true, NoSnippet: true},
			Directives{NoIndex: true, NoFollow: true, NoArchive: true, NoSnippet: true}},
		{"every flag", Directives{}, Parse("none, noarchive, nosnippet, noimageindex, notranslate"),
			Directives{NoIndex: true, NoFollow: true, NoArchive: true, NoSnippet: true, NoImageIndex: true, NoTranslate: true}},
		{"earlier date wins", Directives{UnavailableAfter: late}, Directives{UnavailableAfter: early}, Directives{UnavailableAfter: early}},
		{"earlier date wins, other order", Directives{UnavailableAfter: early}, Directives{UnavailableAfter: late}, Directives{UnavailableAfter: early}},
		{"a date beats none", Directives{}, Directives{UnavailableAfter: late}, Directives{UnavailableAfter: late}},
		{"none keeps a date", Directives{UnavailableAfter: late}, Directives{}, Directives{UnavailableAfter: late}},
		{"Other is the union", Directives{Other: []string{"max-snippet:5", "x"}}, Directives{Other: []string{"x", "max-image-preview:large"}},
			Directives{Other: []string{"max-snippet:5", "x", "max-image-preview:large"}}},
	}
	for _, tt := range tests {
		if got := tt.a.Merge(tt.b); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
		// The other order gives the same, the order of Other aside.
		got, want := tt.b.Merge(tt.a), tt.want
		slices.Sort(got.Other)
		want.Other = slices.Sorted(slices.Values(want.Other))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s, the other way round: %+v, want %+v", tt.name, got, want)
		}
	}
	// Merge leaves both operands as they were.
	a := Directives{Other: make([]string, 1, 4)}
	a.Other[0] = "a"
	_ = a.Merge(Directives{Other: []string{"b"}})
	if a.Other[:2][1] != "" {
		t.Error("Merge wrote into the receiver's Other")
	}
}

// TestFromHTMLAfterHead: a browser puts a <meta> that comes after
// </head>, but before anything of the body, into the head; one after the
// body has begun (text, or another element) stays in the body.
func TestFromHTMLAfterHead(t *testing.T) {
	for page, want := range map[string]bool{
		`<html><head><title>t</title></head><meta name="robots" content="noindex"><body>`:                           true,
		`<head></head> <script>var a = "x";</script><link rel=x><title>t</title><meta name=robots content=noindex>`: true,
		`<head></head><meta name=robots content=noindex>`:                                                           true,
		`<head></head><head><meta name=robots content=noindex>`:                                                     true,
		`<head></head>text<meta name=robots content=noindex>`:                                                       false,
		`<head></head><div></div><meta name=robots content=noindex>`:                                                false,
		`<head></head><body><meta name=robots content=noindex>`:                                                     false,
	} {
		d, err := FromHTML(strings.NewReader(page), "")
		if err != nil || d.NoIndex != want {
			t.Errorf("%s: NoIndex %v, %v; want %v", page, d.NoIndex, err, want)
		}
	}
}

// TestFromHTMLTemplate: what a <template> holds is no part of the page,
// as browsers build it: its <meta> tags say nothing, and its elements do
// not end the head.
func TestFromHTMLTemplate(t *testing.T) {
	for page, want := range map[string]bool{
		`<head><template><meta name=robots content=noindex></template></head>`:                                   false,
		`<head><template><template></template><meta name=robots content=noindex></template></head>`:              false,
		`<head></head><template><meta name=robots content=noindex></template><body>`:                             false,
		`<head><template><div>x</div></template><meta name=robots content=noindex></head>`:                       true,
		`<head><template><p>text</template></template><meta name=robots content=noindex>`:                        true,
		`<head></head><template>text<script>"</template>"</script></template><meta name=robots content=noindex>`: true,
	} {
		d, err := FromHTML(strings.NewReader(page), "")
		if err != nil || d.NoIndex != want {
			t.Errorf("%s: NoIndex %v, %v; want %v", page, d.NoIndex, err, want)
		}
	}
}

// TestFromHTMLUTF16: a page in UTF-16, told by its byte-order mark, is
// read as text, not as bytes in which no tag can be found.
func TestFromHTMLUTF16(t *testing.T) {
	const page = `<html><head><meta name="robots" content="noindex"><meta name="tdm-reservation" content="1"></head>`
	for _, order := range []binary.AppendByteOrder{binary.LittleEndian, binary.BigEndian} {
		enc := order.AppendUint16(nil, 0xFEFF)
		for _, r := range page {
			enc = order.AppendUint16(enc, uint16(r))
		}
		d, err := FromHTML(bytes.NewReader(enc), "")
		if err != nil || !d.NoIndex {
			t.Errorf("%v: FromHTML = %+v, %v; want NoIndex", order, d, err)
		}
		if tdm, err := TDMFromHTML(bytes.NewReader(enc)); err != nil || tdm.Reservation != "1" {
			t.Errorf("%v: TDMFromHTML = %+v, %v; want reservation 1", order, tdm, err)
		}
	}
}

func TestFromHTMLBroken(t *testing.T) {
	for _, page := range []string{"", "<meta", "<meta name=robots content=noindex", "\x00\xff<<<>>>", "<meta name=robots content=noindex>"} {
		d, err := FromHTML(strings.NewReader(page), "x")
		if err != nil {
			t.Errorf("%q: %v", page, err)
		}
		if strings.HasSuffix(page, "content=noindex>") && !d.NoIndex {
			t.Errorf("%q: tag without quotes not read", page)
		}
	}
}

// TestFromHTMLStopsAtLimit: the head is read for 1 MiB at most, and a
// head that runs on to it is an error, so that a caller can tell tags
// may have gone unread, whether the page goes on or the caller read it
// that far; a page whose head ends before the limit is read whole.
func TestFromHTMLStopsAtLimit(t *testing.T) {
	pad := "<html><head>" + strings.Repeat("<!-- pad -->", maxHTMLBytes/12+1)
	d, err := FromHTML(strings.NewReader(pad+`<meta name="robots" content="noindex">`), "")
	if err == nil || d.NoIndex {
		t.Errorf("a head past maxHTMLBytes: %+v, %v; want an error and nothing read past it", d, err)
	}
	tdm, err := TDMFromHTML(strings.NewReader(pad + `<meta name="tdm-reservation" content="1">`))
	if err == nil || tdm != (TDM{}) {
		t.Errorf("TDM: a head past maxHTMLBytes: %+v, %v; want an error and nothing read past it", tdm, err)
	}
	page := `<html><head><meta name="robots" content="noindex">`
	page += strings.Repeat(" ", maxHTMLBytes-len(page))
	if d, err := FromHTML(strings.NewReader(page), ""); err == nil || !d.NoIndex {
		t.Errorf("a head cut at exactly maxHTMLBytes: %+v, %v; want an error", d, err)
	}
	page = `<html><head><meta name="robots" content="noindex"></head><body>`
	page += strings.Repeat("x", maxHTMLBytes)
	if d, err := FromHTML(strings.NewReader(page), ""); err != nil || !d.NoIndex {
		t.Errorf("a page whose head ends early: %+v, %v", d, err)
	}
	// A page that leaves out the optional head and body tags: its head
	// ends at its first element that belongs in no head, not at the limit.
	page = `<!doctype html><title>T</title><meta name=robots content=noindex><main>` + strings.Repeat("<p>x</p>", maxHTMLBytes/8)
	if d, err := FromHTML(strings.NewReader(page[:maxHTMLBytes]), ""); err != nil || !d.NoIndex {
		t.Errorf("a minified page's first mebibyte: %+v, %v", d, err)
	}
}

func TestFromHeader(t *testing.T) {
	h := http.Header{}
	h.Add("X-Robots-Tag", "noarchive")
	h.Add("X-Robots-Tag", "googlebot: noindex, nofollow")
	h.Add("X-Robots-Tag", "otherbot: nosnippet")
	h.Add("X-Robots-Tag", "unavailable_after: 2030-05-01")
	got := FromHeader(h, "Googlebot")
	want := Directives{NoArchive: true, NoIndex: true, NoFollow: true, UnavailableAfter: time.Date(2030, 5, 1, 0, 0, 0, 0, time.UTC)}
	if !got.UnavailableAfter.Equal(want.UnavailableAfter) {
		t.Fatalf("UnavailableAfter = %v", got.UnavailableAfter)
	}
	got.UnavailableAfter, want.UnavailableAfter = time.Time{}, time.Time{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if d := FromHeader(h, "ExampleBot"); d.NoIndex || !d.NoArchive {
		t.Errorf("ExampleBot: %+v", d)
	}
	// Lines joined into one, as a proxy may join them: each crawler's
	// directives run to the next crawler's name.
	lines := http.Header{"X-Robots-Tag": {"noarchive", "unavailable_after: 2030-05-01", "googlebot: noindex, nofollow", "otherbot: nosnippet"}}
	joined := http.Header{"X-Robots-Tag": {strings.Join(lines.Values("X-Robots-Tag"), ", ")}}
	for _, token := range []string{"Googlebot", "ExampleBot", "OtherBot"} {
		if a, b := FromHeader(lines, token), FromHeader(joined, token); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: lines %+v, joined %+v", token, a, b)
		}
	}
	for value, want := range map[string]bool{
		"otherbot: noindex, mybot: noai": true,
		"noindex, mybot: noai":           true,
		"mybot: noindex, otherbot: noai": false,
		"otherbot: noai, unavailable_after: Friday, 25-Jun-10 15:00:00 GMT, mybot: noindex": false,
		"mybot: unavailable_after: Friday, 25-Jun-10 15:00:00 GMT, noai":                    true,
		// "robots" names every crawler, as a META tag's name does.
		"robots: noai":                    true,
		"ROBOTS: noindex, noai":           true,
		"otherbot: noindex, robots: noai": true,
	} {
		if d := FromHeader(http.Header{"X-Robots-Tag": {value}}, "mybot"); d.NoAI != want {
			t.Errorf("%q: NoAI %v, want %v", value, d.NoAI, want)
		}
	}
}

func FuzzFromHTML(f *testing.F) {
	f.Add(`<meta name="robots" content="noindex">`, "bot")
	f.Add("<html><head><meta name=bot content='none, unavailable_after: 2020-01-01'>", "bot")
	f.Fuzz(func(t *testing.T, page, agent string) {
		d, err := FromHTML(strings.NewReader(page), agent)
		if err != nil {
			t.Fatal(err)
		}
		// Tags for two tokens read at once are those for each, merged.
		r, _ := FromHTML(strings.NewReader(page), "robots")
		both, _ := FromHTML(strings.NewReader(page), agent, "robots")
		merged := d.Merge(r)
		both.Other, merged.Other = nil, nil
		if !reflect.DeepEqual(both, merged) {
			t.Fatalf("FromHTML(%q, %q, robots) = %+v, merged one by one %+v", page, agent, both, merged)
		}
		// Directives only add up: reading a value twice changes nothing.
		once, twice := Parse(page), Parse(page+","+page)
		if once.NoIndex != twice.NoIndex || once.NoFollow != twice.NoFollow ||
			once.NoArchive != twice.NoArchive || once.NoSnippet != twice.NoSnippet {
			t.Fatalf("Parse(%q) = %+v but doubled %+v", page, once, twice)
		}
	})
}

// TestOtherBounded: a header or tag of many or long unknown directives
// keeps at most maxOther of them, none longer than maxOtherLen.
func TestOtherBounded(t *testing.T) {
	var b strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&b, "x-%d, ", i)
	}
	b.WriteString(strings.Repeat("y", 1<<20))
	d := Parse(b.String())
	if len(d.Other) != maxOther {
		t.Errorf("%d other directives kept, want %d", len(d.Other), maxOther)
	}
	for _, o := range d.Other {
		if len(o) > maxOtherLen {
			t.Errorf("a directive of %d bytes kept", len(o))
		}
	}
	if m := d.Merge(Parse("noindex, z-1, z-2")); len(m.Other) != maxOther || !m.NoIndex {
		t.Errorf("Merge: %d other directives, noindex %v", len(m.Other), m.NoIndex)
	}
}

func TestTDMFromHTML(t *testing.T) {
	tests := []struct {
		page string
		want TDM
	}{
		// The report's example.
		{`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta name="tdm-reservation" content="1">
<meta name="tdm-policy" content="https://provider.com/policies/policy.json">
<title>Document title</title></head><body>…</body></html>`, TDM{"1", "https://provider.com/policies/policy.json"}},
		{`<meta name="TDM-Reservation" content=" 0 ">`, TDM{"0", ""}},
		{`<meta name="tdm-reservation" content="0"><meta name="tdm-reservation" content="1">`, TDM{"1", ""}},
		{`<meta name="tdm-reservation" content="1"><meta name="tdm-reservation" content="0">`, TDM{"1", ""}},
		{`<meta name="tdm-reservation" content="yes"><meta name="tdm-policy" content=" https://p/1 ">`, TDM{"", "https://p/1"}},
		{`<meta name="tdm-policy" content="https://p/1"><meta name="tdm-policy" content="https://p/2">`, TDM{"", "https://p/1"}},
		// Whole, however long: a signed URL may run to kilobytes, and
		// a caller that dropped it would take a broader technique's.
		{`<meta name="tdm-policy" content="https://p/` + strings.Repeat("x", 3000) + `">`, TDM{"", "https://p/" + strings.Repeat("x", 3000)}},
		// The first tag's, though it is empty.
		{`<meta name="tdm-policy" content=" "><meta name="tdm-policy" content="https://p/2">`, TDM{}},
		{`<meta property="tdm-reservation" content="1">`, TDM{}}, // the name attribute only
		{`<meta name="tdm-reservation">`, TDM{}},
		// Names compare as ASCII: "ſ" (U+017F) is no "s" there.
		{`<meta name="tdm-reſervation" content="0"><meta name="tdm-policy" content="https://p/1">`, TDM{"", "https://p/1"}},
		// Only the head counts, as for robots META, as browsers build it:
		// a tag between </head> and the body is the head's.
		{`<html><head></head><meta name="tdm-reservation" content="1">`, TDM{"1", ""}},
		{`<html><head></head><p>x<meta name="tdm-reservation" content="1">`, TDM{}},
		{`<html><body><meta name="tdm-reservation" content="1">`, TDM{}},
	}
	for _, tc := range tests {
		got, err := TDMFromHTML(strings.NewReader(tc.page))
		if err != nil || got != tc.want {
			t.Errorf("TDMFromHTML(%.80q) = %+v, %v; want %+v", tc.page, got, err, tc.want)
		}
	}
}

// FuzzTDMFromHTML reads any page: the values kept are within their bounds,
// a reservation is "", "0" or "1", the page's robots META are read alike
// whatever TDMRep tags stand beside them, and the tags read are those the
// HTML parser puts in the head (see TestHeadAsParserBuilds) when the page
// is UTF-8 with no NUL, which the two read each in its own way.
func FuzzTDMFromHTML(f *testing.F) {
	f.Add(`<meta name="tdm-reservation" content="1"><meta name="tdm-policy" content="https://p">`)
	f.Add(`<head><meta name=tdm-reservation content=0></head><meta name=tdm-reservation content=1>`)
	for _, page := range headPages {
		f.Add(page)
	}
	// Formatting elements, which the parser is given renamed, about a
	// template and foreign content.
	f.Add(`<head><template><b><svg><desc></b></desc><style></template><meta name=robots content=noai></head>`)
	f.Add(`<head><template><a><svg><a><foreignObject><a></a></svg></a><style></template><meta name=robots content=noai>`)
	f.Add(`<head><template><font><math><font></math><mi><i></font><style></template><meta name=robots content=noai>`)
	f.Add(`<head><template><nobr><svg><title><nobr></svg></nobr><style></template><meta name=tdm-reservation content=1>`)
	f.Fuzz(func(t *testing.T, page string) {
		if utf8.ValidString(page) && !strings.ContainsRune(page, 0) {
			checkHeadAsParser(t, page, false)
		}
		tdm, err := TDMFromHTML(strings.NewReader(page))
		if err != nil && !errors.Is(err, errNotParsed) {
			t.Fatal(err)
		}
		if r := tdm.Reservation; r != "" && r != "0" && r != "1" {
			t.Fatalf("TDMFromHTML(%q) = %+v", page, tdm)
		}
		d, _ := FromHTML(strings.NewReader(page), "bot")
		tagged := `<meta name="tdm-reservation" content="1">` + strings.TrimPrefix(page, "\uFEFF") // a BOM only leads
		if again, _ := FromHTML(strings.NewReader(tagged), "bot"); !reflect.DeepEqual(again, d) {
			t.Fatalf("FromHTML(%q) = %+v, with a TDMRep tag before it %+v", page, d, again)
		}
		if tdm, _ := TDMFromHTML(strings.NewReader(tagged)); tdm.Reservation != "1" {
			t.Fatalf("a reservation first, then %q: %+v", page, tdm)
		}
	})
}

// TestHeadTemplateCut: a page whose head holds a template, read whole by
// the parser, fails as one without: a failure of the reader or the limit
// before an element that belongs in no head is an error, even past a soft
// end, and the tags read before it are visited first; one after such an
// element is none.
func TestHeadTemplateCut(t *testing.T) {
	links := strings.Repeat("<link rel=x href=y>", maxHTMLBytes/19+1)
	for _, tc := range []struct {
		page string
		cut  bool
		want []string
		err  bool
	}{
		{"<head><template></template><meta name=robots content=noindex>", true, []string{"robots=noindex true"}, true},
		{"<head><template></template>x<meta name=robots content=noai>" + links + "<meta name=robots content=noindex><p>", false, []string{"robots=noai false"}, true},
		{"<head><template></template><meta name=robots content=noindex></head><body><p>x", true, []string{"robots=noindex true"}, false},
		{"<head></br><template></template><meta name=robots content=noindex><div>", false, []string{"robots=noindex false"}, false},
		// A <body>, or text after </head>, ends the head, as without a
		// template; not within one, nor in a script.
		{"<head><template><p></template></head><body><script>var state = {", true, nil, false},
		{"<head><template><p></template><meta name=robots content=noai></head><body>\nWelcome to", true, []string{"robots=noai true"}, false},
		{"<head><template><p></template></head>Welcome to", true, nil, false},
		{"<head><template><p></template></head><script>'<body>'</script><title>x</title>", true, nil, true},
		{"<head><template><body>x</template><meta name=robots content=noai>", true, []string{"robots=noai true"}, true},
		{"<head><template></template></head><body><script>" + links, false, nil, false},
		// What the tokenizer reads otherwise than the parser, which is
		// still in the head: no end.
		{"<head><template></template></head><script src=a.js />\n<script>var a=1;", true, nil, true},
		{"<head><template/><body>x", true, nil, true},
		{"<head><noscript><template></noscript><body>x", true, nil, true},
		{"<head><template></template><noscript><script></noscript><body>x", true, nil, true},
		{"<head><template></template><title>t</title>&nbsp;</head><script src=a.js />var", true, nil, true},
		{"<head><template></template></head><noscript><link rel=x>", true, nil, true},
		// A tag the cut leaves half is no text that begins the body; nor
		// does the head end at the limit after </head>.
		{"<head><title>t</title></head><", true, nil, true},
		{"<head><template></template></head><me", true, nil, true},
		{"<head></head>" + links, false, nil, true},
		{"<head><title>t</title></head>< x", false, nil, false},
		{"<head><title>t</title></head><3 love", true, nil, false},
		{"<head><template></template></head>&lt;3 love", true, nil, false},
		{"<head>x<template><noscript><template></noscript></template></head>y<meta name=robots content=noai>", true, nil, true},
	} {
		var r io.Reader = strings.NewReader(tc.page)
		if tc.cut {
			r = io.MultiReader(r, iotest.ErrReader(errors.New("cut")))
		}
		var got []string
		err := head(r, func(name, content string, sure bool) { got = append(got, fmt.Sprintf("%s=%s %v", name, content, sure)) })
		if !slices.Equal(got, tc.want) || (err != nil) != tc.err {
			t.Errorf("%.80q: %q, %v; want %q, error %v", tc.page, got, err, tc.want, tc.err)
		}
	}
}

// headPages are pages whose head ends in the ways the HTML parser knows.
var headPages = []string{
	// A formatting element's end tag closes the <svg> it holds, past a
	// block, or that a reconstructed clone holds, so that CDATA is a
	// comment and a <style> raw text; an end tag of another name does
	// not (the parser is given their peers: see forParser).
	`<html><head><template><b><div><svg></b><![CDATA[></template><meta name=robots content=noindex>]]></head><body>x`,
	`<html><head><template><p><b>x</p><svg></b><![CDATA[></template><meta name=robots content=noindex>]]></head><body>x`,
	`<html><head><template><b><svg></span><style></template><meta name=robots content=noindex></style></head><body>x`,
	`<html><head><template><a><svg></q><style></template><meta name=robots content=noindex></style></head><body>x`,
	`<html><head><template><font><math></cite><style></template><meta name=robots content=noindex></style></head><body>x`,
	`<html><head><template><a><svg></header><style></template><meta name=robots content=noindex></style></head><body>x`,
	`<html><head><template><i><math></center><style></template><meta name=tdm-reservation content=1></style></head><body>x`,
	// An <a> closes the one before, and </a> no <font>; a stray end tag
	// closes no other element.
	`<templAte><B><svg></s ><stYle></templAte><metA nAme=robots content=noai>`,
	`<templAte><A><A></A><svg></A><stYle></templAte><metA nAme=robots content=noai>`,
	`<html><head><template><font><svg></a><style></template><meta name=robots content=noindex><template></style></template></head><body>x`,
	`<html><head><title>t</title>Welcome!<meta name="tdm-reservation" content="0"></head><body></body></html>`,
	`Welcome! <meta name="tdm-reservation" content="0">`,
	`<head></body><meta name="tdm-reservation" content="0">`,
	`<head></html><meta name="tdm-reservation" content="0">`,
	`<head></br><meta name="tdm-reservation" content="0">`,
	`<head></div><meta name="tdm-reservation" content="0">`,
	`<head>&nbsp;<meta name="tdm-reservation" content="0">`,
	`<head></head></body><meta name="robots" content="noai">`,
	`<head><noscript><meta name="robots" content="noai"></noscript></head>`,
	`<head><noscript><link rel=x><meta name="tdm-reservation" content="1"></noscript><meta name="robots" content="noindex"></head>`,
	`<head><noscript>text<meta name="robots" content="noai"></noscript></head>`,
	`<head><noscript><div><meta name="robots" content="noai"></noscript></head>`,
	`<head><noscript><img src=/p></noscript><meta name="robots" content="noai"><meta name="tdm-reservation" content="1"></head><body></body>`,
	`<head><noscript/><meta name="robots" content="noai"></head>`,
	`<head><title>a <b> title</title><script>"<body>"</script><style>x</style><meta name="robots" content="noai"></head>`,
	`<head><title>no end <meta name="robots" content="noai">`,
	"\xEF\xBB\xBF<head><meta name=\"robots\" content=\"noai\"></head>",
	"\xEF\xBB\xBF\xEF\xBB\xBF<meta name=\"robots\" content=\"noai\">",
	`<!DOCTYPE html><!-- x --><html> <head> <meta name=robots content=noai> </head> <meta name=tdm-reservation content=1>`,
	`<head></head>text<meta name=robots content=noindex>`,
	`<head><template><meta name=robots content=noindex></template><meta name=tdm-reservation content=1></head>`,
	`<head><noscript></head><noscript><meta name="tdm-reservation" content="1"></noscript></head>`,
	`<head><noscript></body></html><meta name="robots" content="noai"></noscript></head>`,
	`<head><noscript></br><meta name="robots" content="noai"></noscript></head>`,
	"<head><title>x</title>\uFEFF<meta name=tdm-reservation content=1><meta name=robots content=noai></head>",
	// A head element other than a few closes a noscript: a </head> after
	// it ends the head, and a later noscript is the body's.
	`<head><noscript><title>t</title></head><noscript><meta name="tdm-reservation" content="0"></noscript>`,
	`<head><noscript><script>x</script></head><noscript><meta name="tdm-policy" content="https://p"></noscript>`,
	`<head><noscript><base href=/></head><noscript><meta name="robots" content="noai"></noscript>`,
	`<head><noscript><template></template></head><noscript><meta name="robots" content="noai"></noscript>`,
	`<head><noscript><style>x</style><link rel=x></head><meta name="robots" content="noai"></noscript>`,
	`<head><noscript/></head><noscript><meta name="robots" content="noai"><meta name="tdm-reservation" content="1"></noscript>`,
	`<head><template><noscript></template><meta name="robots" content="noai"></noscript></head>`,
	// Foreign content in a template: no tag there is raw text, and an SVG
	// <template> is no template; a self-closing <noscript> opens one.
	`<html><head><template><noscript/></template><meta name="tdm-reservation" content="1"><meta name="robots" content="noai, noindex"></head><body><p>hi</p></body></html>`,
	`<html><head><template><svg><style>.a{}</template><meta name="tdm-reservation" content="1"><meta name="robots" content="noai, noindex"></head><body></body></html>`,
	`<head><template><svg><template/></svg></template><meta name=robots content=noai></head>`,
	`<head><template><math><template/></math></template><meta name=robots content=noai></head>`,
	`<head><template><svg><noscript/></svg></template><meta name=robots content=noai></head>`,
	`<head><template><table><noscript/></table></template><meta name=robots content=noai></head>`,
	`<head><template><svg><title><style>x</template>y</style></svg></template><meta name=robots content=noai></head>`,
	`<head><template><svg><foreignObject><style></template></style></foreignObject></svg></template><meta name=robots content=noai></head>`,
	`<head><template><svg><p><style></template></style></template><meta name=robots content=noai></head>`,
	`<head><template><svg><font color=red><style></template></style></template><meta name=robots content=noai></head>`,
	`<head><template><svg><font><style></template><meta name=robots content=noai></head>`,
	`<head><template><math><mi><style></template></style></mi></math></template><meta name=robots content=noai></head>`,
	`<head><template><svg><g><template></template></g></svg></template><meta name=robots content=noai></head>`,
	`<head><template><a href="/"><svg><use href="#i"></a><style>.x{}</template><div>x</style></template><meta name="robots" content="noindex, noai"></head>`,
	`<head><template><p><svg></p><style></template><div>x</style></template><meta name="robots" content="noindex"></head>`,
	`<head><template><svg><g></br><style></template><div>x</style></template><meta name="robots" content="noindex"></head>`,
	`<head><template><math><annotation-xml><svg><foreignObject><style></template><p></style></template><meta name="robots" content="noindex"></head>`,
	`<head><template><math><annotation-xml encoding="text/html"><style></template><div>x</style></template><meta name="robots" content="noindex"></head>`,
	`<head><template><col><svg><style></template><p></style></template><meta name="robots" content="noindex"></head>`,
	`<head><template><math><mi><mglyph><style></template></style></template><meta name="robots" content="noindex"></head>`,
	`<head><noscript></template></body><meta name=tdm-reservation content=0></noscript></head>`,
	`<head><meta name=robots content=noindex><template></template></head><p>`,
	`<head><meta name=robots content=noindex></head><template></template><meta name=tdm-policy content=a><p>`,
	`<head><template><col><noscript><template></noscript></template><meta name=robots content="noindex,noai"></head>`,
	`<head><template><col><noscript></template><meta name=tdm-reservation content=0></head>`,
	`<head><template id=i><svg><use href="#a"></use></svg></template><meta name=tdm-reservation content=1><meta name=tdm-policy content="https://p"><meta name=robots content="max-image-preview:large"></head>`,
}

// TestHeadEndsSoftly: text or a stray end tag before </head> moves the
// tags after it to the body as browsers build the page, but a byte-order
// mark or a word an include left is no owner's choice: up to </head>, a
// reservation or a robots directive still counts (they only restrict),
// and a tdm-reservation of 0 or a tdm-policy does not.
func TestHeadEndsSoftly(t *testing.T) {
	for page, want := range map[string]TDM{
		"<head><title>x</title>\uFEFF<meta name=tdm-reservation content=1><meta name=tdm-policy content=p></head>":   {Reservation: "1"},
		`<head>Welcome!<meta name="tdm-reservation" content="0"></head>`:                                             {},
		`<head></br><meta name="tdm-reservation" content="1"></head>`:                                                {Reservation: "1"},
		`<head></body><meta name="tdm-reservation" content="1"></head>text<meta name="tdm-reservation" content="1">`: {Reservation: "1"},
		`<head></head></body><meta name="tdm-reservation" content="1">`:                                              {},
		// A tracking pixel: for a browser running scripts, the noscript's
		// text, the head going on.
		`<head><title>t</title><noscript><img height="1" width="1" src="https://px.test/tr"></noscript><meta name="tdm-reservation" content="1"></head>`: {Reservation: "1"},
		`<head><noscript><img src="https://px.test/tr"></noscript><meta name="tdm-reservation" content="0"></head>`:                                      {},
		`<head><noscript>enable scripts</head>!<body><img src=/p></noscript><meta name="tdm-reservation" content="1"></head>`:                            {Reservation: "1"},
		// Read as a browser running scripts builds the head: after a
		// template, and where a noscript holds an element whose text
		// runs on (an <iframe/> written empty).
		`<head><title>t</title><template><p>x</p></template><noscript><img src="https://px.test/tr"></noscript><meta name="tdm-reservation" content="1"></head>`:        {Reservation: "1"},
		`<head><template><p>x</p></template><noscript><img src="https://px.test/tr"></noscript><meta name="tdm-reservation" content="0"></head>`:                        {},
		`<head><noscript><iframe src="https://gtm.test/ns.html" height="0" width="0"/></noscript><meta name="tdm-reservation" content="1"></head><body><p>x</p></body>`: {Reservation: "1"},
	} {
		if got, err := TDMFromHTML(strings.NewReader(page)); got != want || err != nil {
			t.Errorf("TDMFromHTML(%q) = %+v, %v; want %+v", page, got, err, want)
		}
		robots := strings.ReplaceAll(strings.ReplaceAll(page, "tdm-reservation", "robots"), "content=1", "content=noai")
		robots = strings.ReplaceAll(robots, `content="1"`, `content="noai"`)
		if d, err := FromHTML(strings.NewReader(robots)); d.NoAI != (want.Reservation == "1") || err != nil {
			t.Errorf("FromHTML(%q) = %+v, %v; want NoAI %v", robots, d, err, want.Reservation == "1")
		}
	}
	// Past a soft end, directives that do not restrict are passed over,
	// and a page cut or running on to the limit there is an error, as
	// in the head: tags past the cut may restrict.
	const soft = `<head>x<meta name=robots content="noai, max-image-preview:large">`
	if d, err := FromHTML(strings.NewReader(soft)); err != nil || !d.NoAI || len(d.Other) != 0 {
		t.Errorf("FromHTML(%q) = %+v, %v; want NoAI and no Other", soft, d, err)
	}
	for _, r := range []io.Reader{strings.NewReader(strings.Repeat("text ", 300_000)),
		io.MultiReader(strings.NewReader("<head>x<meta name=tdm-reservation content=1>"), iotest.ErrReader(errors.New("cut")))} {
		if tdm, err := TDMFromHTML(r); err == nil {
			t.Errorf("a soft end, then the limit or a cut: %+v, no error", tdm)
		}
	}
}

// TestHeadAsParserBuilds: the <meta> tags read as the head's for sure
// are those the HTML parser of golang.org/x/net/html, scripts off as a
// crawler's, puts in the head, in order.
func TestHeadAsParserBuilds(t *testing.T) {
	for _, page := range headPages {
		checkHeadAsParser(t, page, true)
	}
}

// checkHeadAsParser checks head against the HTML parser on page, or,
// unless original is set, on the page forParser gives it where foreign
// content may be: crafted pages tell formatting elements and their peers
// apart there (see plainNames).
func checkHeadAsParser(t *testing.T, page string, original bool) {
	t.Helper()
	var got, all []string // the tags read as the head's for sure, and every tag read
	if err := head(strings.NewReader(page), func(name, content string, sure bool) {
		if sure {
			got = append(got, name+"="+content)
		}
		all = append(all, name+"="+content)
	}); errors.Is(err, errNotParsed) {
		return // read as far as the tokenizer reads it
	} else if err != nil {
		t.Fatalf("%q: %v", page, err)
	}
	// A browser decodes first: a UTF-8 byte-order mark goes then.
	decoded := strings.TrimPrefix(page, "\uFEFF")
	if lower := strings.ToLower(decoded); !original && (strings.Contains(lower, "<svg") || strings.Contains(lower, "<math")) {
		plain, err := forParser([]byte(decoded))
		if err != nil {
			t.Fatal(err)
		}
		decoded = string(plain)
	}
	doc, err := html.ParseWithOptions(strings.NewReader(decoded), html.ParseOptionEnableScripting(false))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	var walk func(n *html.Node, inHead bool)
	walk = func(n *html.Node, inHead bool) {
		if n.Type == html.ElementNode && n.DataAtom == atom.Template {
			return // no part of the page
		}
		if n.Type == html.ElementNode && n.Namespace == "" && n.DataAtom == atom.Head {
			inHead = true
		}
		if inHead && n.Type == html.ElementNode && n.Namespace == "" && n.DataAtom == atom.Meta {
			name, content, seen := "", "", map[string]bool{}
			for _, a := range n.Attr {
				switch {
				case seen[a.Key]:
				case a.Key == "name":
					name = strings.TrimSpace(a.Val)
				case a.Key == "content":
					content = a.Val
				}
				seen[a.Key] = true
			}
			if name != "" {
				want = append(want, name+"="+content)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inHead)
		}
	}
	walk(doc, false)
	// The parser is given the page with formatting elements renamed,
	// wherever a "<" and a name stand, in META values too.
	renamed := regexp.MustCompile(`(?i)</?[a-z][a-z-]*`)
	for _, tags := range [][]string{got, want} {
		for i, tag := range tags {
			tags[i] = renamed.ReplaceAllString(tag, "<name")
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%q: head reads %q; the HTML parser puts %q in the head", page, got, want)
	}
}

// TestUnavailableAfterBounded: a response or page reads at most maxDates
// unavailable_after dates, each up to two tries of every layout (a 10 MiB header
// of them took 5 s); past them, the page reads as unavailable already.
func TestUnavailableAfterBounded(t *testing.T) {
	junk := strings.Repeat("unavailable_after: Monday, ", maxDates)
	epoch := time.Unix(0, 0).UTC()
	h := http.Header{"X-Robots-Tag": {junk, "unavailable_after: 2030-01-01"}}
	if d := FromHeader(h); !d.UnavailableAfter.Equal(epoch) {
		t.Errorf("FromHeader: %v, want %v", d.UnavailableAfter, epoch)
	}
	page := `<head><meta name=robots content="` + junk + `"><meta name=robots content="unavailable_after: 2030-01-01">`
	if d, err := FromHTML(strings.NewReader(page)); err != nil || !d.UnavailableAfter.Equal(epoch) {
		t.Errorf("FromHTML: %v, %v; want %v", d.UnavailableAfter, err, epoch)
	}
	h = http.Header{"X-Robots-Tag": {strings.Repeat("unavailable_after: Monday, ", maxDates-1) + "unavailable_after: 2030-01-01"}}
	if d := FromHeader(h); !d.UnavailableAfter.Equal(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("within the bound: %v, want 2030", d.UnavailableAfter)
	}
}

// TestNamedAsRobotsTxtReadsIt: directives given for a crawler by its
// product with a version or a mark after it, as a robots.txt user-agent
// line names it, apply to that crawler, in X-Robots-Tag and in META; a
// name whose token is another crawler's does not.
func TestNamedAsRobotsTxtReadsIt(t *testing.T) {
	for name, want := range map[string]bool{
		"ExampleBot/1.0": true, "examplebot/2": true, "ExampleBot*": true, "ExampleBot": true,
		"ExampleBot-News/1.0": false, "OtherBot/1.0": false, "/1.0": false,
	} {
		h := http.Header{"X-Robots-Tag": {name + ": noai"}}
		if got := FromHeader(h, "ExampleBot").NoAI; got != want {
			t.Errorf("X-Robots-Tag %q: NoAI %v, want %v", h.Get("X-Robots-Tag"), got, want)
		}
		page := `<html><head><meta name="` + name + `" content="noai"></head><body>x</body></html>`
		if d, err := FromHTML(strings.NewReader(page), "ExampleBot"); err != nil || d.NoAI != want {
			t.Errorf("META name %q: NoAI %v (%v), want %v", name, d.NoAI, err, want)
		}
	}
}

// TestExactNameStillApplies: a caller that names its crawler by a token
// holding a digit or a dot (img2dataset, which introduced X-Robots-Tag
// noai; MJ12bot; archive.org_bot; AI2Bot) gets the directives aimed at
// that exact name.
func TestExactNameStillApplies(t *testing.T) {
	for _, tok := range []string{"img2dataset", "MJ12bot", "archive.org_bot", "AI2Bot", "ExampleBot/1.0"} {
		h := http.Header{"X-Robots-Tag": {tok + ": noai, noindex"}}
		if d := FromHeader(h, tok); !d.NoAI || !d.NoIndex {
			t.Errorf("X-Robots-Tag %q read for %q: %+v; want noai, noindex", h.Get("X-Robots-Tag"), tok, d)
		}
		page := `<html><head><meta name="` + tok + `" content="noai"></head><body>x</body></html>`
		if d, _ := FromHTML(strings.NewReader(page), tok); !d.NoAI {
			t.Errorf("META name %q read for %q: NoAI false; want true", tok, tok)
		}
	}
}

// TestUnrelatedMetaNamesNotDirectives: META tags that are no robots tag,
// whose names begin with a crawler's token before a ':' or '.', are not
// its robots directives (a description "…, none" is no noindex).
func TestUnrelatedMetaNamesNotDirectives(t *testing.T) {
	page := `<html><head><meta name="twitter:description" content="Cats, dogs, none">` +
		`<meta name="DC.rights" content="noarchive"></head><body>x</body></html>`
	if d, _ := FromHTML(strings.NewReader(page), "twitter"); d.NoIndex || len(d.Other) > 0 {
		t.Errorf("twitter:description read as robots directives for token twitter: %+v", d)
	}
	if d, _ := FromHTML(strings.NewReader(page), "DC"); d.NoArchive {
		t.Errorf("DC.rights read as robots directives for token DC: %+v", d)
	}
}

// flags are a Directives' restrictions, without Other.
func flags(d Directives) [8]bool {
	return [8]bool{d.NoIndex, d.NoFollow, d.NoArchive, d.NoSnippet, d.NoImageIndex, d.NoTranslate, d.NoAI, d.NoImageAI}
}

// FuzzFromHeader reads X-Robots-Tag lines, which every page's server
// sends. Beyond not panicking: Other stays within its bounds; directives
// of two lines add up (each restriction of either line holds, the earlier
// date wins); a line named for another crawler restricts nothing that
// the line alone did not; a line named for this crawler whose text holds
// no other name reads as Parse reads its text; a line that reads for
// every crawler (no name) reads so whoever asks.
func FuzzFromHeader(f *testing.F) {
	f.Add("noindex, nofollow", "googlebot: noarchive", "googlebot")
	f.Add("unavailable_after: Friday, 25-Jun-10 15:00:00 GMT", "otherbot: none, mybot: noai", "mybot")
	f.Add("ExampleBot/1.0: noindex", "max-snippet: 50, unavailable_after: 2010-06-25", "examplebot")
	f.Fuzz(func(t *testing.T, l1, l2, token string) {
		one := FromHeader(http.Header{"X-Robots-Tag": {l1}}, token)
		two := FromHeader(http.Header{"X-Robots-Tag": {l2}}, token)
		both := FromHeader(http.Header{"X-Robots-Tag": {l1, l2}}, token)
		for _, d := range []Directives{one, two, both} {
			if len(d.Other) > maxOther {
				t.Fatalf("%d Other", len(d.Other))
			}
			for _, o := range d.Other {
				if len(o) > maxOtherLen {
					t.Fatalf("Other of %d bytes", len(o))
				}
			}
		}
		f1, f2, fb := flags(one), flags(two), flags(both)
		for i := range fb {
			if fb[i] != (f1[i] || f2[i]) {
				t.Fatalf("lines %q, %q for %q: %v; apart %v, %v", l1, l2, token, fb, f1, f2)
			}
		}
		for _, d := range []Directives{one, two} {
			if !d.UnavailableAfter.IsZero() && (both.UnavailableAfter.IsZero() || both.UnavailableAfter.After(d.UnavailableAfter)) {
				t.Fatalf("lines %q, %q: date %v; apart %v, %v", l1, l2, both.UnavailableAfter, one.UnavailableAfter, two.UnavailableAfter)
			}
		}
		// Named for a crawler that is not this one: restricts no more.
		other := FromHeader(http.Header{"X-Robots-Tag": {"zzqotherbot: " + l1}}, token)
		if !appliesTo("zzqotherbot", []string{token}) {
			fo := flags(other)
			for i := range fo {
				if fo[i] && !f1[i] {
					t.Fatalf("%q for %q restricts %v; the line alone %v", "zzqotherbot: "+l1, token, fo, f1)
				}
			}
		}
		// A line that names nobody reads as Parse reads it, for any crawler.
		p := Parse(l1)
		everyone := FromHeader(http.Header{"X-Robots-Tag": {l1}})
		if flags(everyone) == flags(p) && everyone.UnavailableAfter.Equal(p.UnavailableAfter) {
			// Then named for this crawler it reads the same.
			mine := FromHeader(http.Header{"X-Robots-Tag": {"zzqmybot: " + l1}}, "zzqmybot")
			if flags(mine) != flags(p) || !mine.UnavailableAfter.Equal(p.UnavailableAfter) {
				t.Fatalf("%q for zzqmybot: %+v; the text alone %+v", "zzqmybot: "+l1, mine, p)
			}
		}
	})
}

// TestDirectivesASCII: directives compare by ASCII case: "noİndex"
// (U+0130, which Unicode lower-cases to "i") is no noindex, in a META
// tag or an X-Robots-Tag.
func TestDirectivesASCII(t *testing.T) {
	d, _ := FromHTML(strings.NewReader("<head><meta name=\"robots\" content=\"no\u0130ndex, noa\u0130\"></head>"), "xbot")
	if d.NoIndex || d.NoAI {
		t.Errorf("META content=\"no\u0130ndex, noa\u0130\": %+v; want neither noindex nor noai (no ASCII directive)", d)
	}
	h := FromHeader(http.Header{"X-Robots-Tag": {"no\u0130ndex"}}, "xbot")
	if h.NoIndex {
		t.Errorf("X-Robots-Tag: no\u0130ndex: %+v; want no noindex", h)
	}
}

// TestUnavailableAfterZoneASCII: a zone name folds by ASCII case alone:
// "pſt" (U+017F) is no PST, and the date no date.
func TestUnavailableAfterZoneASCII(t *testing.T) {
	for _, v := range []string{
		"unavailable_after: 25 Jun 2030 15:00:00 p\u017ft",
		"unavailable_after: 25 Jun 2030 15:00:00 e\u017ft",
	} {
		if d := Parse(v); !d.UnavailableAfter.IsZero() {
			t.Errorf("Parse(%q).UnavailableAfter = %v; want none (no ASCII zone name)", v, d.UnavailableAfter)
		}
		h := http.Header{"X-Robots-Tag": {v}}
		if d := FromHeader(h, "ExampleBot"); !d.UnavailableAfter.IsZero() {
			t.Errorf("X-Robots-Tag %q: UnavailableAfter = %v; want none", v, d.UnavailableAfter)
		}
	}
}

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc
// delta): no wall-clock time is measured.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestUnavailableAfterLongDateBounded: an X-Robots-Tag of 1 MiB made of
// 16 long "unavailable_after: <junk>" items costs a small multiple of the
// header to read: each date layout tried copied the value into its error,
// over a hundred times the header a call.
func TestUnavailableAfterLongDateBounded(t *testing.T) {
	const k = 16
	item := "unavailable_after: " + strings.Repeat("9", (1<<20)/k-40)
	items := make([]string, k)
	for i := range items {
		items[i] = item
	}
	v := strings.Join(items, ",")
	h := http.Header{"X-Robots-Tag": {v}}
	got := allocated(func() { FromHeader(h, "xbot") })

	// The same header size of directives that are not dates.
	other := strings.ReplaceAll(v, "unavailable_after", "max-snippet-xxxxx")
	base := allocated(func() { FromHeader(http.Header{"X-Robots-Tag": {other}}, "xbot") })

	t.Logf("header %d bytes: dates allocate %d bytes (%.0fx), other directives %d bytes (%.1fx)",
		len(v), got, float64(got)/float64(len(v)), base, float64(base)/float64(len(v)))
	if limit := uint64(16 * len(v)); got > limit {
		t.Errorf("FromHeader of a %d-byte X-Robots-Tag allocated %d bytes (%.0fx the input), more than 16x (%d)",
			len(v), got, float64(got)/float64(len(v)), limit)
	}
}

// TestFromHTMLSoftTagsBounded: a page that fills Other, ends its head
// softly, then repeats <meta name=robots> to 1 MiB costs no more than a
// few times the same page without the soft end: each tag merged copied
// Other, some 80 MB a call.
func TestFromHTMLSoftTagsBounded(t *testing.T) {
	var others []string
	for i := range 64 {
		others = append(others, fmt.Sprintf("x%d", i))
	}
	build := func(soft bool) []byte {
		var b strings.Builder
		b.WriteString(`<html><head><meta name=robots content="` + strings.Join(others, ",") + `">`)
		if soft {
			b.WriteString("x") // text: the head ends softly
		} else {
			b.WriteString(" ")
		}
		for b.Len() < 1<<20-64 {
			b.WriteString("<meta name=robots>")
		}
		return []byte(b.String())
	}
	sure, soft := build(false), build(true)
	base := allocated(func() { FromHTML(bytes.NewReader(sure), "xbot") })
	got := allocated(func() { FromHTML(bytes.NewReader(soft), "xbot") })
	t.Logf("page %d bytes: soft tags allocate %d bytes (%.0fx), the same tags sure %d bytes (%.0fx)",
		len(soft), got, float64(got)/float64(len(soft)), base, float64(base)/float64(len(sure)))
	if got > 2*base+1<<20 {
		t.Errorf("FromHTML of a %d-byte page of soft tags allocated %d bytes (%.0fx the input), more than twice the %d of the same tags read surely",
			len(soft), got, float64(got)/float64(len(soft)), base)
	}
}

// rootAttrsPage returns a page whose head holds lead (a <noscript> or a
// <template>, which hand the page to golang.org/x/net/html's parser),
// then an <html> tag with n attributes and n more <html b> tags: for each
// the parser copies the root's attributes, n tags × n attributes.
func rootAttrsPage(lead string, n int) []byte {
	var b strings.Builder
	b.WriteString("<html><head>" + lead + "<html")
	for i := range n {
		fmt.Fprintf(&b, " a%d", i)
	}
	b.WriteString(">")
	for range n {
		b.WriteString("<html b>")
	}
	return []byte(b.String())
}

// TestFromHTMLRootTagsBounded: doubling such a page at most about
// doubles what FromHTML allocates (it quadrupled: a 13 KB page allocated
// 160 MB, a 1 MiB one took minutes a call).
func TestFromHTMLRootTagsBounded(t *testing.T) {
	for _, lead := range []string{"<noscript></noscript>", "<template></template>"} {
		t.Run(lead, func(t *testing.T) {
			small, large := rootAttrsPage(lead, 500), rootAttrsPage(lead, 1000)
			a := allocated(func() { FromHTML(bytes.NewReader(small)) })
			b := allocated(func() { FromHTML(bytes.NewReader(large)) })
			ratio := float64(b) / float64(a)
			t.Logf("page %d bytes: %d bytes allocated; page %d bytes: %d bytes allocated; ratio %.2f (input ratio %.2f)",
				len(small), a, len(large), b, ratio, float64(len(large))/float64(len(small)))
			if ratio > 2.5 {
				t.Errorf("allocation grows super-linearly: x%.2f for x%.2f the input", ratio, float64(len(large))/float64(len(small)))
			}
			if limit := uint64(64 * len(large)); b > limit {
				t.Errorf("FromHTML of a %d-byte page allocated %d bytes (%.0fx the input), more than 64x", len(large), b, float64(b)/float64(len(large)))
			}
		})
	}
}

// TestFromHTMLRootAttributesBounded: a page of 1 MiB whose first <html>
// tag holds most of it in attributes, and a few dozen more <html> tags,
// costs a small multiple of the page to read, as one of thousands of
// root tags does: the parser copied the root's attributes for each.
func TestFromHTMLRootAttributesBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><head><template></template><html")
	for i := 0; b.Len() < 1<<20-4096; i++ {
		fmt.Fprintf(&b, " a%x", i)
	}
	b.WriteString(">")
	for i := range 61 {
		fmt.Fprintf(&b, "<html z%d>", i)
	}
	page := b.String()
	// Linear still: a tokenizer holds a tag's attributes, 150,000 here,
	// twice read.
	if n := allocated(func() { _, _ = FromHTML(strings.NewReader(page)) }); n > 64*uint64(len(page)) {
		t.Errorf("FromHTML of a %d-byte page allocated %d MB", len(page), n>>20)
	}
}

// TestFromHTMLFormattingBounded: a <b> of thousands of attributes left
// open in a closed <p> before thousands of paragraphs, on a page whose
// head holds a <template> (read by the parser), in the head's template
// too, the paragraphs' end tags implied, dozens of formatting elements
// without attributes, or tags the parser reads where a tokenizer reads
// text, and the other way round: golang.org/x/net/html's parser clones
// them for each paragraph (473 MB for 44 KB). Such a page is not handed
// to it: it is an error, at a small multiple of the page.
func TestFromHTMLFormattingBounded(t *testing.T) {
	b := func(attrs int) string {
		var sb strings.Builder
		sb.WriteString("<p><b")
		for i := range attrs {
			fmt.Fprintf(&sb, " a%d", i)
		}
		sb.WriteString("></p>")
		return sb.String()
	}
	paragraphs := strings.Repeat("<p>x</p>", 2000)
	const head = `<html><head><template></template><meta name="robots" content="noindex"></head><body>`
	var plain string // three of each formatting element but <a> and <nobr>, without attributes
	for _, n := range []string{"b", "big", "code", "em", "font", "i", "s", "small", "strike", "strong", "tt", "u"} {
		plain += strings.Repeat("<"+n+">", 3)
	}
	for name, page := range map[string]string{
		"in the body":          head + b(5000) + paragraphs,
		"in the template":      `<html><head><template>` + b(5000) + paragraphs + `</template><meta name="robots" content="noindex"></head><body>x`,
		"paragraphs left open": head + b(1000) + strings.Repeat("<p>x", 2000),
		"without attributes":   head + "<p>" + plain + "<a><nobr></p>" + strings.Repeat("<p>x</p>", 20000),
		// End tags the parser ignores behind a marker, an <a> behind
		// one, Noah's Ark across one.
		"</b> in a template":  head + "<p><b" + attrList(1000) + "></p><template></b></template>" + strings.Repeat("<p>x", 6000),
		"</b> in a cell":      head + "<p><b" + attrList(1000) + "></p><table><tr><td></b></td></tr></table>" + strings.Repeat("<p>x", 6000),
		"<a> in a template":   head + "<p><a" + attrList(1000) + "></p><template><a></a></template>" + strings.Repeat("<p>x", 6000),
		"alike in a template": head + "<p>" + strings.Repeat("<b"+attrList(300)+">", 3) + "</p><template>" + strings.Repeat("<b"+attrList(300)+">", 3) + "</b></b></b></template>" + strings.Repeat("<p>x", 6000),
		// Tags the parser reads where a tokenizer reads raw text
		// (foreign content: a </math> in an <svg> ends nothing, a
		// <style/> is no raw text), an <a> that is SVG's, an end tag
		// in a <style> read as tags.
		"<svg><style>":              head + "<p><b" + attrList(1000) + "><svg><style>" + strings.Repeat("<p>x", 2000),
		"<svg><a> after an <a>":     head + "<p><a" + attrList(1000) + "><svg><a></a></svg>" + strings.Repeat("<p>x", 2000),
		"<body> tags after <style>": `<html><head><template></template></head><body><svg><style><body` + attrList(3000) + ">" + strings.Repeat("<svg><body z>", 400),
		"</math> in <svg>":          head + "<svg></math><style><p><b" + attrList(1000) + "></p>" + strings.Repeat("<p>x", 6000),
		"<svg><style/>":             head + "<svg><style/><p><b" + attrList(1000) + "></p>" + strings.Repeat("<p>x", 6000),
		"</b> in a later <style>":   head + "<svg><p><p><b" + attrList(1000) + "></p><style></b></style>" + strings.Repeat("<p>x", 6000),
		"<body> after </math>":      `<html><head><template></template></head><body><svg></math><style><body` + attrList(3000) + ">" + strings.Repeat("<body z>", 3000),
		// Tags the parser ignores where a list of its formatting
		// elements kept from the tags written would put a marker (a
		// cell outside a table, in a <select>, a <template> in an
		// <svg>) or clear one (a stray </td>), an end tag out of
		// scope, an </svg> it ignores.
		"<td> in the body":      head + "<p><b" + attrList(1000) + "></p><td>" + strings.Repeat("<p>x", 6000),
		"<td> in a <select>":    head + "<p><b" + attrList(1000) + "></p><select><td></select>" + strings.Repeat("<p>x", 6000),
		"<template> in <svg>":   head + "<p><b" + attrList(1000) + "></p><svg><template></svg>" + strings.Repeat("<p>x", 6000),
		"a stray </td>":         head + "<object><p><b" + attrList(1000) + "></td>" + strings.Repeat("<p>x", 6000),
		"</b> out of scope":     head + "<p><b" + attrList(1000) + "><table></b></table></p>" + strings.Repeat("<p>x", 6000),
		"</svg> under a <div>":  head + "<svg><foreignObject><div></svg></div></foreignObject><style><p><b" + attrList(1000) + "></p>" + strings.Repeat("<p>x", 6000),
		"<STRONG> in capitals":  head + "<P><STRONG" + attrList(1000) + "></P>" + strings.Repeat("<P>x", 6000),
		"<font> of a color too": head + "<p><font color=red" + attrList(1000) + "></p>" + strings.Repeat("<p>x", 6000),
	} {
		// The parser's clones cost 86 to 473 MB here; the pass that
		// renames the formatting elements, or refuses the page, a few,
		// and some more under -race.
		const most = 32 << 20
		var d Directives
		var err error
		if n := allocated(func() { d, err = FromHTML(strings.NewReader(page)) }); n > most {
			t.Errorf("%s: FromHTML of a %d-byte page allocated %d MB, error %v; want at most %d MB",
				name, len(page), n>>20, err, most>>20)
		}
		// A page of formatting elements is read; one of root tags
		// copying thousands of attributes each is refused.
		if noindex := strings.Contains(page, "noindex"); noindex && (err != nil || !d.NoIndex) {
			t.Errorf("%s: FromHTML = %+v, %v; want noindex", name, d, err)
		} else if !noindex && err == nil {
			t.Errorf("%s: FromHTML = %+v, no error; want the page refused", name, d)
		}
	}
}

// TestFromHTMLFormattingBenign: formatting elements as pages use them,
// an old page's <font> of three attributes around a mebibyte of links
// and bold text, opened in each <div> and never closed, or in each cell
// of a table, cost the parser little, and their page is read.
func TestFromHTMLFormattingBenign(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`<html><head><template></template><meta name="robots" content="noindex"></head><body><font face="Arial" size="2" color="#333">`)
	for i := 0; sb.Len() < 1<<20-4096; i++ {
		fmt.Fprintf(&sb, `<p>Item %d: <a href="/i/%d" class="item" title="item">see</a> <b class="x">new</b> <i>now</i></p>`, i, i)
	}
	// A <font> opened in each <div> and never closed: the parser keeps
	// three alike at most (Noah's Ark).
	soup := `<html><head><template></template><meta name="robots" content="noindex"></head><body>` +
		strings.Repeat(`<div><font face="Arial" size="2">Some text</div>`, 1200)
	// A legacy table whose cells leave a <font> of their own colour open:
	// the parser clears them with each cell.
	var table strings.Builder
	table.WriteString(`<html><head><template></template><meta name="robots" content="noindex"></head><body><table>`)
	for i := range 400 {
		fmt.Fprintf(&table, `<tr><td><font color="#%06x">Item %d</td><td>%d.00</td></tr>`+"\n", i*4099, i, i)
	}
	// Formatting elements closed before the blocks they hold, which the
	// parser builds flat (its adoption agency closing them) and a peer
	// kept open would nest past the parser's bound.
	const plainHead = `<!DOCTYPE html><html><head><title>Archive</title><template id="row"><li></li></template><meta name="robots" content="noindex"></head><body>`
	misnested := plainHead + strings.Repeat("<b><h2>Heading</b></h2>\n<p>Some text.</p>\n", 600) +
		strings.Repeat(`<font face="Arial"><p>Item</font></p>`+"\n", 600) +
		strings.Repeat(`<a href="/item"><div class="card">Card</a></div>`+"\n", 600) + "</body></html>"
	pages := []string{sb.String(), soup, table.String(), misnested}
	// Formatting elements left open in each paragraph or item, which the
	// parser closes with it and opens again in the next, and their peers
	// nest in (the page is read as far as its head: see parseHead), under
	// a small head, a head of more than a quarter of the page (inline
	// CSS), and in a layout table's cell: the last two were refused.
	bigHead := `<!DOCTYPE html><html><head><title>Archive</title><template id="row"><li></li></template><style>` +
		strings.Repeat(".card .title{font-weight:bold;margin:0 0 4px}\n", 24<<10/48) + `</style><meta name="robots" content="noindex"></head><body>`
	for _, unit := range []string{
		`<P><FONT FACE="Verdana, Arial" SIZE="2">Some paragraph text.` + "\n",
		`<p><font face="Verdana" size="2">Some text.</p>`,
		`<li><font size="2">Item` + "\n",
		`<dt><b>Term<dd>Definition` + "\n",
		"<nobr>x\n",
		`<a name="x">`,
	} {
		units := strings.Repeat(unit, 600)
		pages = append(pages, plainHead+units+"</body></html>", bigHead+units+"</body></html>",
			plainHead+`<table width="760"><tr><td>`+units+"</td></tr></table></body></html>")
	}
	for _, page := range pages {
		if d, err := FromHTML(strings.NewReader(page)); err != nil || !d.NoIndex {
			t.Errorf("FromHTML = %+v, %v; want noindex", d, err)
		}
	}
}

// TestUnavailableAfterBlankRuns: a date padded with runs of blanks, or
// with a long fraction of a second, is read as Go reads it, under the
// bound on a date's length.
func TestUnavailableAfterBlankRuns(t *testing.T) {
	for _, v := range []string{
		"Wednesday,   25    Jun    2010     15:00:00            PST          ",
		"25 Jun 2010 15:00:00" + strings.Repeat(" ", 48) + "GMT",
		"2010-06-25T15:00:00.000000000000000000000000000000000000000000000+00:00",
	} {
		if d := Parse("unavailable_after: " + v); d.UnavailableAfter.IsZero() {
			t.Errorf("unavailable_after: %q (%d bytes): no date; Other = %q", v, len(v), d.Other)
		}
	}
}

// TestForParserRootCost: forParser bounds the root tags' cost as the
// parser's tokenizer reads tags: a '>' within a quoted value does not end
// a tag's attributes; a page naming <html> and <body> in its scripts'
// strings and srcdoc documents, with a few attributes among them, is
// given to the parser.
func TestForParserRootCost(t *testing.T) {
	var quoted strings.Builder
	quoted.WriteString(`<html><head><template></template><html x=">"`)
	for i := range 5000 {
		fmt.Fprintf(&quoted, " a%d", i)
	}
	quoted.WriteString(">" + strings.Repeat("<html b>", 1000))
	if _, err := forParser([]byte(quoted.String())); err == nil {
		t.Errorf("attributes past a quoted '>': the page is given to the parser")
	}
	benign := `<html lang="en"><head><template></template><script>var d = ["` + strings.Repeat(`<html lang=en><body class=x>`, 500) + `"];</script></head><body>` +
		strings.Repeat(`<iframe srcdoc="<html lang=en><body style=x>preview</body></html>"></iframe>`, 500) + `</body></html>`
	if _, err := forParser([]byte(benign)); err != nil {
		t.Errorf("a page naming <html> in scripts and srcdoc: %v", err)
	}
}

// TestFromHTMLTableMeta: a <meta> a page writes in a table, outside its
// cells, the parser puts before the table (foster parenting), opening
// the body: it is read softly, as the parser builds the whole page,
// though the table's start tag ends the head.
func TestFromHTMLTableMeta(t *testing.T) {
	for _, page := range []string{
		`<html><head><template></template></head><body><table><meta name="robots" content="noindex"><tr><td>x</td></tr></table>`,
		`<html><head><template></template><title>t</title></head><body><table><tr><td>cell</td></tr><meta name="robots" content="noindex"></table><p>text`,
		`<html><head><template></template></head><body><table><noscript><meta name="robots" content="noindex"></noscript><tr><td>x</table>`,
		// A page whose whole parse fails (the peers nest in the cell past
		// the parser's bound): read as far as the table, and its rest
		// softly.
		`<html><head><template></template></head><body><table><meta name="robots" content="noindex"><tr><td>` +
			strings.Repeat(`<P><FONT FACE="Verdana" SIZE="2">Some text.`, 600) + `</table>`,
	} {
		if d, err := FromHTML(strings.NewReader(page)); !d.NoIndex || err != nil {
			t.Errorf("FromHTML(%q) = noindex %v, %v; want noindex", page, d.NoIndex, err)
		}
		reserved := strings.ReplaceAll(page, `name="robots" content="noindex"`, `name="tdm-reservation" content="1"`)
		if tdm, err := TDMFromHTML(strings.NewReader(reserved)); tdm.Reservation != "1" || err != nil {
			t.Errorf("TDMFromHTML(%q) = %+v, %v; want reserved", reserved, tdm, err)
		}
	}
}

// TestFromHTMLRefusedWhole: where the parser refuses the whole page (its
// body's peers nest past its bound), the head is read from the prefix up
// to where the body begins, with scripts off and on: the tags after a
// tracking pixel's <noscript> in the head, which a browser running
// scripts keeps there, count softly, however long the head. A body
// beginning with a table whose rest holds foreign content and a <meta>,
// which a tokenizer cannot read as the parser does, is refused, never
// read as holding nothing.
func TestFromHTMLRefusedWhole(t *testing.T) {
	nest := strings.Repeat(`<P><FONT FACE="Verdana" SIZE="2">Some text.`, 600)
	css := `<style>` + strings.Repeat(".card .title{font-weight:bold;margin:0 0 4px}\n", 24<<10/48) + `</style>`
	for _, style := range []string{"", css} {
		page := `<html><head><template></template>` + style + `<noscript><img src="/px.gif"></noscript>` +
			`<meta name="robots" content="noindex"><meta name="tdm-reservation" content="1"></head><body>` + nest
		if d, err := FromHTML(strings.NewReader(page)); !d.NoIndex || err != nil {
			t.Errorf("a pixel in the head, then noindex, head of %d bytes: noindex %v, %v; want noindex", len(style), d.NoIndex, err)
		}
		if tdm, err := TDMFromHTML(strings.NewReader(page)); tdm.Reservation != "1" || err != nil {
			t.Errorf("a pixel in the head, then a reservation, head of %d bytes: %+v, %v; want reserved", len(style), tdm, err)
		}
	}
	for _, icon := range []string{`<svg><template></svg>`, `<svg><plaintext></svg>`, `<math><![CDATA[<template>]]></math>`} {
		page := `<html><head><template></template></head><body><table><template>` + icon + `</template>` +
			`<meta name="robots" content="noindex"><meta name="tdm-reservation" content="1"><tr><td>` + nest + `</td></tr></table>`
		if d, err := FromHTML(strings.NewReader(page)); !d.NoIndex && err == nil {
			t.Errorf("a table holding %s then noindex: no noindex, no error; want noindex or an error", icon)
		}
		if tdm, err := TDMFromHTML(strings.NewReader(page)); tdm.Reservation != "1" && err == nil {
			t.Errorf("a table holding %s then a reservation: %+v, no error; want reserved or an error", icon, tdm)
		}
	}
}

// TestFromHTMLHeadEndedInNoscript: where the reading without scripts
// sees the head end within a <noscript> of it (an end tag such as
// </body> there, after text), a browser running scripts reads the
// noscript as text to its end tag and a <meta> after it in the head:
// read softly.
func TestFromHTMLHeadEndedInNoscript(t *testing.T) {
	const meta = `<meta name="robots" content="noindex">`
	for _, noscript := range []string{"Enable JavaScript</head></body>", "<title>t</title></head></br>", "<link rel=stylesheet href=a.css>x</head></html>"} {
		page := `<!doctype html><html><head><noscript>` + noscript + `</noscript>` + meta + `</head><body><p>hi</p></body></html>`
		if d, err := FromHTML(strings.NewReader(page)); !d.NoIndex || err != nil {
			t.Errorf("%q in the head's noscript: noindex %v, %v; want noindex", noscript, d.NoIndex, err)
		}
		reserved := strings.ReplaceAll(page, meta, `<meta name="tdm-reservation" content="1">`)
		if tdm, err := TDMFromHTML(strings.NewReader(reserved)); tdm.Reservation != "1" || err != nil {
			t.Errorf("%q in the head's noscript: %+v, %v; want reserved", noscript, tdm, err)
		}
	}
	// The rest, which that pass reads, failing or running on to the
	// limit before the tag: an error.
	head, tail := `<html><head><noscript>Enable JavaScript</head></body>`, `</noscript>`+meta+`</head><body><p>hi</p></body></html>`
	for _, r := range []io.Reader{
		io.MultiReader(strings.NewReader(head+"<p>x</p>"), iotest.ErrReader(errors.New("connection reset")), strings.NewReader(tail)),
		strings.NewReader(head + strings.Repeat("<p>filler</p>\n", maxHTMLBytes/14+1) + tail),
	} {
		if d, err := FromHTML(r); !d.NoIndex && err == nil {
			t.Errorf("the rest of the page unread: noindex %v, no error; want an error", d.NoIndex)
		}
	}
}

// TestFromHTMLScriptsPassNoTemplate: a head without a template whose
// <noscript> has it read with scripts too, and which the parser is not
// given (a head script's strings holding hundreds of <body> tags of
// their own attributes), is read without scripts, with no error: only a
// page the parser must read, its head holding a template, errs so, or
// one whose head a browser running scripts reads further.
func TestFromHTMLScriptsPassNoTemplate(t *testing.T) {
	var js strings.Builder
	for i := range 300 {
		fmt.Fprintf(&js, "'<body data-v%d=\"1\">',\n", i)
	}
	head := `<!doctype html><html><head><title>t</title><noscript><img height=1 width=1 src="/px.gif"></noscript>` +
		"<script>var views = [\n" + js.String() + `];</script><meta name="robots" content="noindex">`
	if _, err := forParser([]byte(head)); err == nil {
		t.Fatal("the page is given to the parser; want one it is not given")
	}
	for _, tail := range []string{"</head><body><p>hello</p></body></html>", "</head>", ""} { // a page may end in its head
		if d, err := FromHTML(strings.NewReader(head + tail)); !d.NoIndex || err != nil {
			t.Errorf("ending %q: FromHTML = noindex %v, %v; want noindex, no error", tail, d.NoIndex, err)
		}
	}
	// Unless a token in the head's <noscript> held "</noscript", which
	// ends the noscript for a browser running scripts, and hid from the
	// reading without them the noindex it reads after (an <iframe> left
	// open, a comment, a value): an error.
	script := "<script>var views = [\n" + strings.ReplaceAll(js.String(), `"`, "") + "];</script>" // no quote ends a value
	for _, hiding := range []string{`<iframe src="/ns"></noscript>` + script + `<meta name="robots" content="noindex">`,
		`<!--</noscript>` + script + `<meta name="robots" content="noindex">--></noscript>`,
		`<img alt="</noscript>` + script + `<meta name='robots' content='noindex'>"></noscript>`} {
		page := `<!doctype html><html><head><title>t</title><noscript>` + hiding + `</head><body><p>hello</p></body></html>`
		if d, err := FromHTML(strings.NewReader(page)); !d.NoIndex && err == nil {
			t.Errorf("%.40q… in the head's noscript: noindex %v, no error; want noindex or an error", hiding, d.NoIndex)
		}
	}
}

// TestFromHTMLPrefixBounded: where the prefix up to the tokenizer's guess
// does not hold the head's end (a body in a <noscript>, a template the
// tokenizer sees closed in a CDATA section the parser reads as text, a
// table the prefix ends at, a first element of most of the page), the
// page is parsed whole, once a pass: not in ever longer prefixes, nor
// after a prefix, or a tokenizer's reading, of most of it.
func TestFromHTMLPrefixBounded(t *testing.T) {
	fill := func(lead, unit string) string {
		return lead + strings.Repeat(unit, (maxHTMLBytes-len(lead))/len(unit))
	}
	for _, page := range []string{
		fill(`<html><head><template></template></head><body><noscript>`, "<p>x"),
		fill(`<html><head><template></template></head><body><noscript>`, "<b>x</b>y"),
		fill(`<html><head><noscript></noscript><template><svg><![CDATA[ x> </template><p> ]]></svg>`, "<p>x"),
		// A head template of most of the page, and a layout table, which
		// the prefix cannot show closed.
		fill(`<html><head><noscript></noscript><template>`, "<p>x")[:maxHTMLBytes-100] + `</template></head><body><table><tr><td>x</td></tr></table>`,
		fill(`<html><head><noscript></noscript><template>`, "<b>x</b>y")[:maxHTMLBytes-100] + `</template></head><body><table><tr><td>x</td></tr></table>`,
		// A first element of the body of most of the page, whose
		// attributes the tokenizer keeps: read to a quarter for the guess.
		`<html><head><template></template><noscript></noscript></head><body><p` + attrList(150000) + `>`,
	} {
		plain, err := forParser([]byte(page))
		if err != nil {
			t.Fatal(err)
		}
		whole := allocated(func() { // the page parsed whole, scripts off and on
			for _, scripting := range []bool{false, true} {
				_, _ = html.ParseWithOptions(bytes.NewReader(plain), html.ParseOptionEnableScripting(scripting))
			}
		})
		if got := allocated(func() { _, _ = FromHTML(strings.NewReader(page)) }); got > whole*3/2 {
			t.Errorf("FromHTML of %.60q…: %d MB allocated; the page parsed whole in both passes, %d MB", page, got>>20, whole>>20)
		}
	}
	// A page the parser refuses whole, its peers nesting past its bound
	// at the end, its head most of the page: the whole page is parsed,
	// then its head, in both passes; at most about twice what the page
	// costs with items that do not nest.
	refused := fill(`<html><head><noscript></noscript><template></template><style>`, "p { margin: 0 }\n")[:maxHTMLBytes*7/8] +
		`</style><meta name="robots" content="noindex"></head><body>` + strings.Repeat(`<li><font size="2">Item`, 600)
	if d, err := FromHTML(strings.NewReader(refused)); !d.NoIndex || err != nil {
		t.Errorf("FromHTML of a page refused whole = noindex %v, %v; want noindex", d.NoIndex, err)
	}
	benign := strings.ReplaceAll(refused, `<li><font size="2">Item`, `<li>Item`)
	got := allocated(func() { _, _ = FromHTML(strings.NewReader(refused)) })
	if want := allocated(func() { _, _ = FromHTML(strings.NewReader(benign)) }); got > want*5/2 {
		t.Errorf("FromHTML of a page refused whole: %d MB allocated; of the page with items that do not nest, %d MB", got>>20, want>>20)
	}
}

// TestForParser: forParser renames the formatting elements' tags, and
// those alone, wherever a tag's name may be; a <font> as it leaves
// foreign content or stays in it.
func TestForParser(t *testing.T) {
	for _, c := range []struct{ page, want string }{
		{`<B class="x">bold</B><Strong>s</STRONG>`, `<listing class="x">bold</listing><listing>s</listing>`},
		{`<a href="/x">x</a><nobr/><tt` + "\t" + `x><i`, `<dir href="/x">x</dir><listing/><listing` + "\t" + `x><listing`},
		{`<a>1<A>2</a></a></b><b></b></b>`, `<dir>1</dir><dir>2</dir></robotstxt-stray></robotstxt-stray><listing></listing></robotstxt-stray>`},
		{`<br><bdi><bx><b1><abbr><strongly>< b>`, `<br><bdi><bx><b1><abbr><strongly>< b>`},
		{`<script>if (a<b) x = "<i>";</script><!-- <u> -->`, `<script>if (a<b) x = "<listing>";</script><!-- <listing> -->`},
		{`<font face="x">f</font><font>`, `<listing face="x">f</listing><listing>`},
		{`<svg><font>f</font></svg>`, `<svg><hgroup>f</hgroup></svg>`},
		{`<math><FONT Size=2><font>f</font></font></math><font x></font></font>`, `<math><listing Size=2><hgroup>f</hgroup></listing></math><hgroup x></hgroup></robotstxt-stray>`},
		{`<font color=red></svg>`, `<listing color=red></svg>`},
	} {
		got, err := forParser([]byte(c.page))
		if err != nil || string(got) != c.want {
			t.Errorf("forParser(%q) = %q, %v; want %q", c.page, got, err, c.want)
		}
	}
	for _, page := range []string{
		`<html` + attrList(400) + `>` + strings.Repeat(`<body z>`, 200),
		`<svg>` + strings.Repeat(`<font x="`, 30000) + `>`,
	} {
		if got, err := forParser([]byte(page)); err == nil {
			t.Errorf("forParser(%.60q…) = %.60q…; want an error", page, got)
		}
	}
}

// TestUnavailableAfterBlankRunsBounded: a megabyte date of blanks and
// letters is refused before its blanks are collapsed into a copy.
func TestUnavailableAfterBlankRunsBounded(t *testing.T) {
	v := "unavailable_after: " + strings.Repeat("a ", 1<<19)
	if n := allocated(func() { _ = Parse(v) }); n > 4*uint64(len(v)) {
		t.Errorf("Parse of a %d-byte date allocated %d bytes", len(v), n)
	}
}

// attrList returns n attributes, " a0 a1 …".
func attrList(n int) string {
	var sb strings.Builder
	for i := range n {
		fmt.Fprintf(&sb, " a%x", i)
	}
	return sb.String()
}

// gtmNoscript is Google Tag Manager's body snippet, which GTM tells sites
// to paste "immediately after the opening <body> tag".
const gtmNoscript = `<!-- Google Tag Manager (noscript) -->
<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-ABC1234"
height="0" width="0" style="display:none;visibility:hidden"></iframe></noscript>
<!-- End Google Tag Manager (noscript) -->
`

// pixel is Meta's (Facebook's) pixel, and fbPixel its fallback.
const (
	pixel   = `<img height="1" width="1" style="display:none" src="https://www.facebook.com/tr?id=1&ev=PageView&noscript=1"/>`
	fbPixel = "<noscript>" + pixel + "</noscript>\n"
)

// TestFromHTMLLegacyBodyOpeners: a page the parser refuses whole (its
// legacy <font>s nest past 512 once renamed) is read from the prefix up
// to where its body begins, whatever opens that body: a <noscript>
// holding an element where the body has begun (Google Tag Manager's
// snippet after <body>, a pixel after a stray word ended the head),
// whose content is no child of the body; a head's, which the parser
// closes at such an element, </noscript> or not; or a stray table part
// the parser ignores. Each page is one x/net/html parses as written.
func TestFromHTMLLegacyBodyOpeners(t *testing.T) {
	head := func(extra string) string {
		return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Archive</title>\n" +
			`<template id="row"><tr><td class="name"></td></tr></template>` + "\n" +
			`<meta name="robots" content="noindex, noai">` + "\n" +
			`<meta name="tdm-reservation" content="1">` + "\n" + extra + "</head>\n<body>\n"
	}
	bodies := []struct{ name, b string }{
		{"table cell", `<table width="760"><tr><td>` + strings.Repeat(`<P><FONT FACE="Verdana, Arial" SIZE="2">Some paragraph text.`+"\n", 600) + `</td></tr></table>`},
		{"list", `<ul>` + strings.Repeat(`<li><font size="2">Item`+"\n", 600) + `</ul>`},
		{"div", `<div id="main">` + strings.Repeat(`<p><b>Note: text`+"\n", 600) + `</div>`},
	}
	openers := []struct{ name, head, body string }{
		{"control: no noscript", "", ""},
		{"control: pixel in the head", fbPixel, ""},
		{"GTM noscript after <body>", "", gtmNoscript},
		{"pixel noscript after <body>", "", fbPixel},
		{"a stray word, then a pixel, in the head", "&nbsp;\n" + fbPixel, ""},
		{"a stray <tr> after <body>", "", "<tr><td>\n"},
		// The parser closes a head's <noscript> at its first element
		// that belongs in no head, with or without a </noscript>.
		{"a head pixel's noscript left unclosed", "<noscript>" + pixel + "\n", ""},
		{"a self-closing <noscript/> in the head", "<noscript/>\n<link rel=\"stylesheet\" href=\"/nojs.css\">\n", ""},
		{"nested noscripts in the head", "<noscript><noscript>" + pixel + "</noscript>\n", ""},
		{"a noscript unclosed in a head template", `<template id="lazy"><noscript>` + pixel + "</template>\n", ""},
		{"a head pixel unclosed, then GTM's noscript", "<noscript>" + pixel + "\n", gtmNoscript},
		// The body begins without <body>, holding a <noscript>'s
		// elements: at one after </head> (the second </head> is
		// ignored), or after a stray table part.
		{"GTM's noscript between </head> and <body>", "</head>\n" + gtmNoscript, ""},
		{"a stray <td>, then a pixel, in the head", "<td>\n" + fbPixel, ""},
		// Within a head's <noscript>, </head> and <noscript> are ignored.
		{"a head noscript unclosed, </head>, a pixel's unclosed", `<noscript><link rel="stylesheet" href="/nojs.css">` + "\n</head>\n<noscript>" + pixel + "\n", ""},
		{"a head noscript unclosed holding <html>, then a pixel's", `<noscript><link rel="stylesheet" href="/nojs.css">` + "\n<html lang=\"en\">\n</head>\n<noscript>" + pixel + "\n", ""},
		{"a head noscript unclosed holding </body>, then a pixel's", `<noscript><link rel="stylesheet" href="/nojs.css">` + "\n</body>\n</head>\n<noscript>" + pixel + "\n", ""},
	}
	for _, body := range bodies {
		for _, o := range openers {
			page := head(o.head) + o.body + body.b + "\n</body>\n</html>\n"
			if _, err := html.Parse(strings.NewReader(page)); err != nil {
				t.Fatalf("x/net/html refuses the original page: %v", err)
			}
			d, err := FromHTML(strings.NewReader(page))
			if !d.NoIndex || !d.NoAI || err != nil {
				t.Errorf("%s, body %s (%d bytes): FromHTML = noindex %v noai %v, error %v; want noindex, noai, no error",
					o.name, body.name, len(page), d.NoIndex, d.NoAI, err)
			}
			if tdm, err := TDMFromHTML(strings.NewReader(page)); tdm.Reservation != "1" || err != nil {
				t.Errorf("%s, body %s: TDMFromHTML = %+v, %v; want reserved, no error", o.name, body.name, tdm, err)
			}
		}
	}
}

// TestFromHeaderDateWithDayBeforeISO8601: an unavailable_after date that
// Parse reads, a day's name, a comma and an ISO 8601 date-time, holds a
// colon after its comma; FromHeader must not take the text before that
// colon ("2030-01-01T00", which no product token starts like) for a
// crawler's name, which scopes the date and every directive after it,
// noai and noindex here, to no crawler at all.
func TestFromHeaderDateWithDayBeforeISO8601(t *testing.T) {
	const v = "unavailable_after: Mon, 2030-01-01T00:00Z, noindex, noai"
	want := Parse(v)
	if !want.NoAI || !want.NoIndex || want.UnavailableAfter.IsZero() {
		t.Fatalf("Parse(%q) = %+v: the date and directives are not read", v, want)
	}
	got := FromHeader(http.Header{"X-Robots-Tag": {v}}, "ExampleBot")
	if !got.NoAI || !got.NoIndex || !got.UnavailableAfter.Equal(want.UnavailableAfter) {
		t.Errorf("FromHeader(X-Robots-Tag: %s) = NoAI %v, NoIndex %v, UnavailableAfter %v, Other %q;\nwant what Parse reads: NoAI, NoIndex, %v",
			v, got.NoAI, got.NoIndex, got.UnavailableAfter, got.Other, want.UnavailableAfter)
	}
}

// TestFromHeaderDigitLedCrawlerName: a line for a crawler whose name
// starts with a digit (360Spider, 80legs' 008) is that crawler's, as any
// other name's: only the rest of a date after a day's name is not a name.
func TestFromHeaderDigitLedCrawlerName(t *testing.T) {
	for _, v := range []string{
		"360Spider: noindex, nofollow, noai",
		"008: noindex, nofollow, noai",
	} {
		got := FromHeader(http.Header{"X-Robots-Tag": {v}}, "ExampleBot")
		if got.NoIndex || got.NoFollow || got.NoAI {
			t.Errorf("FromHeader(X-Robots-Tag: %s, ExampleBot) = NoIndex %v, NoFollow %v, NoAI %v, Other %q; want none: the line is for another crawler",
				v, got.NoIndex, got.NoFollow, got.NoAI, got.Other)
		}
	}
	// And a line for ExampleBot after one for 360Spider.
	v := "360Spider: noindex, examplebot: nofollow"
	got := FromHeader(http.Header{"X-Robots-Tag": {v}}, "ExampleBot")
	if got.NoIndex || !got.NoFollow {
		t.Errorf("FromHeader(X-Robots-Tag: %s, ExampleBot) = NoIndex %v, NoFollow %v; want NoFollow alone", v, got.NoIndex, got.NoFollow)
	}
}

// TestFromHeaderDateAfterCrawlerName: a date after a day's name in a
// directive a crawler's name leads is read as the date, not as another
// crawler's name.
func TestFromHeaderDateAfterCrawlerName(t *testing.T) {
	for _, v := range []string{
		"googlebot: unavailable_after: Mon, 2030-01-01T00:00Z, noai",
		"noindex, googlebot: unavailable_after: Monday, 2030-01-01T00:00:00Z, noai",
	} {
		got := FromHeader(http.Header{"X-Robots-Tag": {v}}, "googlebot")
		if !got.NoAI || got.UnavailableAfter.IsZero() {
			t.Errorf("FromHeader(X-Robots-Tag: %s, googlebot) = NoAI %v, UnavailableAfter %v, Other %q; want NoAI and the date",
				v, got.NoAI, got.UnavailableAfter, got.Other)
		}
	}
}

// TestFromHeaderDatesPastTheBound: past maxDates dates tried, the rest
// of a date after a day's name is not read as a crawler's name, which
// would take the directives after it from every crawler.
func TestFromHeaderDatesPastTheBound(t *testing.T) {
	v := strings.Repeat("unavailable_after: Mon, 2030-01-01T00:00Z, ", maxDates+1) + "noai"
	if got := FromHeader(http.Header{"X-Robots-Tag": {v}}, "ExampleBot"); !got.NoAI {
		t.Errorf("FromHeader of %d dates, then noai: NoAI false; want it read", maxDates+1)
	}
}

// TestFromHeaderOursAfterManyDates: past maxDates, an item after an
// unavailable_after part is taken for the rest of a date unread, but not
// one that names this crawler: its directive, after another crawler's
// seventeenth date, is this crawler's, not left in the other's part.
func TestFromHeaderOursAfterManyDates(t *testing.T) {
	h := http.Header{}
	h.Set("X-Robots-Tag", strings.Repeat("otherbot: unavailable_after: 2030-01-01, ", 17)+"xbot: noindex")
	if d := FromHeader(h, "XBot"); !d.NoIndex {
		t.Errorf("FromHeader(%q) = %+v, want NoIndex", h.Get("X-Robots-Tag"), d)
	}
	// The same directives, one per header line, read as they should.
	h = http.Header{}
	for range 17 {
		h.Add("X-Robots-Tag", "otherbot: unavailable_after: 2030-01-01")
	}
	h.Add("X-Robots-Tag", "xbot: noindex")
	if d := FromHeader(h, "XBot"); !d.NoIndex {
		t.Errorf("FromHeader over separate lines = %+v, want NoIndex", d)
	}
	// The bound spans every line: earlier lines spend it, and a later
	// line that reads right alone loses this crawler's noindex.
	h = http.Header{}
	for range 16 {
		h.Add("X-Robots-Tag", "otherbot: unavailable_after: 2030-01-01, otherbot: noarchive")
	}
	h.Add("X-Robots-Tag", "otherbot: unavailable_after: 2030-01-01, xbot: noindex")
	if d := FromHeader(h, "XBot"); !d.NoIndex {
		t.Errorf("FromHeader after 16 earlier lines = %+v, want NoIndex", d)
	}
}

// TestFromHeaderDateRestPastTheBoundNotOurName: past maxDates, the rest
// of a date after its day's comma ("Sun\tJan\t15 00:00:00\t2034", an
// ANSIC date with tabs, which parseDate reads in a long value) is not
// the name of a crawler whose token is Sun: the date stays read.
func TestFromHeaderDateRestPastTheBoundNotOurName(t *testing.T) {
	h := http.Header{}
	date := "Monday,\tSun" + strings.Repeat("\t", 120) + "Jan\t15\t00:00:00\t2034"
	h.Set("X-Robots-Tag", strings.Repeat("otherbot: unavailable_after: 2030-01-01, ", maxDates)+"robots: unavailable_after: "+date)
	for _, token := range []string{"Sun", "XBot"} {
		if d := FromHeader(h, token); d.UnavailableAfter.IsZero() {
			t.Errorf("FromHeader(..., %q) = %+v, want UnavailableAfter 2034-01-15", token, d)
		}
	}
}

// TestFromHTMLTemplateInIntegrationPoint: a <template> within an SVG or
// MathML integration point (foreignObject, desc, title, mi, an
// annotation-xml of HTML), itself within a <template> of the head, is an
// HTML template to browsers (WHATWG HTML §13.2.6 dispatcher, "in body"
// start tag template), whose end tag closes it; the head goes on, and a
// <meta> after the outer </template> is the head's. golang.org/x/net/html's
// parser instead ignores every token after such a template (parse.go
// inHeadIM, "ignoreTheRemainingTokens"), so the tags are read neither as
// the head's nor as an error.
func TestFromHTMLTemplateInIntegrationPoint(t *testing.T) {
	for _, inner := range []string{
		`<svg><foreignObject><template></template></foreignObject></svg>`,
		`<svg><desc><template></template></desc></svg>`,
		`<svg><title><template></template></title></svg>`,
		`<math><mi><template></template></mi></math>`,
		`<math><annotation-xml encoding="text/html"><template></template></annotation-xml></math>`,
		// Declarative shadow DOM in an inline SVG's foreignObject.
		`<svg viewBox="0 0 10 10"><foreignObject width="10" height="10"><my-el><template shadowrootmode="open"><slot></slot></template></my-el></foreignObject></svg>`,
	} {
		page := `<!DOCTYPE html><html><head><template id="t">` + inner + `</template>` +
			`<meta name="robots" content="noai"><meta name="tdm-reservation" content="1"></head><body><p>x</p></body></html>`
		if d, err := FromHTML(strings.NewReader(page)); !d.NoAI && err == nil {
			t.Errorf("FromHTML(%q) = %+v, nil; want NoAI (or an error)", page, d)
		}
		if tdm, err := TDMFromHTML(strings.NewReader(page)); tdm.Reservation != "1" && err == nil {
			t.Errorf("TDMFromHTML(%q) = %+v, nil; want Reservation 1 (or an error)", page, tdm)
		}
	}
}
