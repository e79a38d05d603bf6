package parse

import (
	"bytes"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestParseDoesNotAliasBody proves that a File and a Table keep their own
// copy of every string: overwriting the caller's buffer after parsing
// changes nothing.
func TestParseDoesNotAliasBody(t *testing.T) {
	src := "Sitemap: https://example.com/s.xml\nhost: example.com\n" +
		"User-agent: FooBot/1.0\nDisallow: /private/ # no\nAllow: /private/index.html\n" +
		"Crawl-delay: 2\nunknown-key: value\nUser agent: *\ndissallow: /x\n" +
		"Disallow: /ümlaut\nallow relative\n"
	body := []byte(src)
	got := Parse(body)
	table := Compile(body)
	want := Parse([]byte(src))
	copy(body, bytes.Repeat([]byte{'X'}, len(body)))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("File changed when the body was overwritten:\n got %+v\nwant %+v", got, want)
	}
	want.Diagnostics = nil
	if f := table.File(); !reflect.DeepEqual(f, want) {
		t.Fatalf("Table.File() after the body was overwritten:\n got %+v\nwant %+v", f, want)
	}
	if len(got.Groups) != 2 || len(got.Sitemaps) != 1 || len(got.Diagnostics) == 0 {
		t.Fatalf("unexpected parse: %+v", got)
	}
}

// Compile compiles body with the zero Parser.
func Compile(body []byte) *Table { return Parser{}.Compile(body) }

func TestDiagnosticsAndUnknownRecordsAreCapped(t *testing.T) {
	const n = 5000
	body := []byte(strings.Repeat("b:\n", n) + "User-agent: *\nDisallow: /x\nCrawl-delay: 1\n")
	f := Parse(body)
	if len(f.Diagnostics) != MaxDiagnostics+2 {
		t.Fatalf("%d diagnostics, want %d", len(f.Diagnostics), MaxDiagnostics+2)
	}
	for i, d := range f.Diagnostics[:MaxDiagnostics] {
		if d.Kind != UnknownKey || d.Line != i+1 {
			t.Fatalf("diagnostic %d: %v", i, d)
		}
	}
	want := []Diagnostic{
		{Line: MaxDiagnostics + 1, Kind: TooManyDiagnostics, Text: strconv.Itoa(n - MaxDiagnostics)},
		{Line: MaxUnknownRecords + 1, Kind: UnknownRecordsDropped, Text: strconv.Itoa(n - MaxUnknownRecords)},
	}
	if got := f.Diagnostics[MaxDiagnostics:]; !reflect.DeepEqual(got, want) {
		t.Errorf("last diagnostics %v, want %v", got, want)
	}
	if len(f.Extensions) != MaxUnknownRecords {
		t.Errorf("%d unknown records kept, want %d", len(f.Extensions), MaxUnknownRecords)
	}
	if len(f.Groups) != 1 || len(f.Groups[0].Extensions) != 1 || len(f.Groups[0].Rules) != 1 {
		t.Errorf("known records and rules must all be kept: %+v", f.Groups)
	}
	// Known records are never dropped.
	f = Parse([]byte("User-agent: *\n" + strings.Repeat("crawl-delay: 1\n", 2*MaxUnknownRecords)))
	if len(f.Groups[0].Extensions) != 2*MaxUnknownRecords || len(f.Diagnostics) != 0 {
		t.Errorf("%d crawl-delays kept, %d diagnostics", len(f.Groups[0].Extensions), len(f.Diagnostics))
	}
}

func TestCrawlDelay(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"1", time.Second, true},
		{"0.5", 500 * time.Millisecond, true},
		{"0", 0, true},
		{"0.3", 300 * time.Millisecond, true},
		{"0.067", 67 * time.Millisecond, true}, // not 67.000001 ms, which the Client paces as 68
		{"0.0000000004", time.Nanosecond, true},
		// Below a nanosecond: rounded up, never read as no delay.
		{"0.0000000001", time.Nanosecond, true},
		{"86400", 24 * time.Hour, true},
		// Beyond the longest delay: clamped, so that the site is paced
		// as politely as any, never not at all.
		{"86401", 24 * time.Hour, true},
		{"1e9", 24 * time.Hour, true},
		{"1e400", 24 * time.Hour, true},
		{"Inf", 24 * time.Hour, true},
		{"-1", 0, false},
		{"-Inf", 0, false},
		{"NaN", 0, false},
		{"nan", 0, false},
		{"soon", 0, false},
		{"", 0, false},
	} {
		got, err := CrawlDelay(c.in)
		if got != c.want || (err == nil) != c.ok {
			t.Errorf("CrawlDelay(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
		if err != nil && !errors.Is(err, ErrBadValue) {
			t.Errorf("CrawlDelay(%q): %v does not wrap ErrBadValue", c.in, err)
		}
		diags := Parse([]byte("User-agent: *\nCrawl-delay: " + c.in)).Diagnostics
		if bad := len(diags) == 1 && diags[0].Kind == BadValue; bad == c.ok {
			t.Errorf("crawl-delay: %q gives diagnostics %v", c.in, diags)
		}
	}
}
