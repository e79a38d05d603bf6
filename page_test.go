package robotstxt

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/klauspost/compress/zstd"
	"github.com/robotsgate/robotstxt/internal/match"
	"github.com/robotsgate/robotstxt/internal/sfv"
	"github.com/robotsgate/robotstxt/internal/tdmrep"
	"github.com/robotsgate/robotstxt/meta"
	"golang.org/x/net/html"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// sig is a Signal as the tests write it: "source label pref where".
func sig(s Signal) string {
	return fmt.Sprintf("%s %s %s %s", s.Source, s.Label, s.Pref, s.Where)
}

func sigs(ss []Signal) []string {
	out := []string{}
	for _, s := range ss {
		out = append(out, sig(s))
	}
	return out
}

// fetchPage fetches url through hc and reads its body.
func fetchPage(t *testing.T, hc *http.Client, url string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return fetchPageReq(t, hc, req)
}

// TestReceiptSources fetches, from sites on loopback, a page on which each
// source speaks alone, and some on which several do: the receipt's Usage,
// its signals, and Transport.Usage, which reads no body.
func TestReceiptSources(t *testing.T) {
	checkLeaks(t)
	const open = "User-agent: *\nAllow: /\n"
	const html = "text/html; charset=utf-8"
	// 64 directives no reader knows, as many as meta.Directives.Other
	// keeps, before a noai.
	var others, otherTags strings.Builder
	for i := range 64 {
		fmt.Fprintf(&others, "x%d, ", i)
		fmt.Fprintf(&otherTags, `<meta name="robots" content="x%d">`, i)
	}
	tests := []struct {
		name    string
		robots  string
		headers []string // name, value, …
		body    string
		usage   string   // Receipt(resp, body).Usage
		signals []string // and its signals
		policy  string
		// meta says the body speaks: Usage(resp) and Receipt(resp, nil)
		// then give withoutBody, not usage.
		meta        bool
		withoutBody string
	}{
		{name: "nothing", robots: open, usage: "", signals: []string{}},
		{name: "robots.txt", robots: "User-agent: *\nAllow: /\nContent-Usage: /page train-ai=n, search=y\n",
			usage: "train-ai=n, search=y", signals: []string{"robots.txt train-ai n line 3", "robots.txt search y line 3"}},
		{name: "robots.txt for another path", robots: "User-agent: *\nContent-Usage: /other/ train-ai=n\n",
			usage: "", signals: []string{}},
		{name: "content-signal", robots: "Content-Signal: ai-train=no, search=yes, ai-input=no\nUser-agent: *\nAllow: /\n",
			usage:   "train-ai=n, search=y, ai-input=n",
			signals: []string{"content-signal train-ai n line 1", "content-signal search y line 1", "content-signal ai-input n line 1"}},
		{name: "content-signal of the crawler's group", robots: "User-agent: ExampleBot\nContent-Signal: ai-train=yes\nAllow: /\n\nUser-agent: *\nContent-Signal: ai-train=no\n",
			usage: "train-ai=y", signals: []string{"content-signal train-ai y line 2"}},
		{name: "content-usage-header", robots: open, headers: []string{"Content-Usage", "train-ai=n"},
			usage: "train-ai=n", signals: []string{"content-usage-header train-ai n Content-Usage"}},
		{name: "content-signal-header", robots: open, headers: []string{"Content-Signal", "ai-train=no, search=yes", "Content-Signal", "ai-input=no"},
			usage:   "train-ai=n, search=y, ai-input=n",
			signals: []string{"content-signal-header train-ai n Content-Signal", "content-signal-header search y Content-Signal", "content-signal-header ai-input n Content-Signal"}},
		{name: "content-signal-header lines, each a record", robots: open,
			headers: []string{"Content-Signal", "ai-train=no", "Content-Signal", "search=yes, ai-train=yes"},
			usage:   "train-ai=n, search=y",
			signals: []string{"content-signal-header train-ai n Content-Signal", "content-signal-header search y Content-Signal", "content-signal-header train-ai y Content-Signal"}},
		{name: "content-signal-header lines a proxy joined", robots: open,
			headers: []string{"Content-Signal", "ai-train=no, search=yes, ai-train=yes"},
			usage:   "train-ai=n, search=y",
			signals: []string{"content-signal-header train-ai n Content-Signal", "content-signal-header search y Content-Signal"}},
		{name: "content-signal record with a key twice", robots: "User-agent: *\nContent-Signal: ai-train=no, ai-train=yes\nAllow: /\n",
			usage: "train-ai=n", signals: []string{"content-signal train-ai n line 2"}},
		{name: "x-robots-tag", robots: open, headers: []string{"X-Robots-Tag", "noai"},
			usage: "train-ai=n", signals: []string{"x-robots-tag train-ai n X-Robots-Tag"}},
		{name: "x-robots-tag past 64 other directives", robots: open, headers: []string{"X-Robots-Tag", others.String() + "noai"},
			usage: "train-ai=n", signals: []string{"x-robots-tag train-ai n X-Robots-Tag"}},
		{name: "x-robots-tag for another crawler", robots: open, headers: []string{"X-Robots-Tag", "otherbot: noai"},
			usage: "", signals: []string{}},
		{name: "noimageai on an image", robots: open, headers: []string{"Content-Type", "image/png", "X-Robots-Tag", "noimageai"},
			usage: "train-ai=n", signals: []string{"x-robots-tag train-ai n X-Robots-Tag"}},
		{name: "noimageai on an image sent without a media type", robots: open,
			headers: []string{"Content-Type", "", "X-Robots-Tag", "noimageai"}, body: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
			usage: "train-ai=n", signals: []string{"x-robots-tag train-ai n X-Robots-Tag"}},
		{name: "noimageai on an image sent as application/octet-stream", robots: open,
			headers: []string{"Content-Type", "application/octet-stream", "X-Robots-Tag", "noimageai"}, body: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
			usage: "train-ai=n", signals: []string{"x-robots-tag train-ai n X-Robots-Tag"}},
		{name: "noimageai on an image named in the last Content-Type line", robots: open,
			headers: []string{"Content-Type", html, "Content-Type", "image/png", "X-Robots-Tag", "noimageai"}, body: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
			usage: "train-ai=n", signals: []string{"x-robots-tag train-ai n X-Robots-Tag"}},
		{name: "noimageai on an image named in the first Content-Type line", robots: open,
			headers: []string{"Content-Type", "image/png", "Content-Type", html, "X-Robots-Tag", "noimageai"}, body: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
			usage: "train-ai=n", signals: []string{"x-robots-tag train-ai n X-Robots-Tag"}},
		{name: "noimageai on an image whose Content-Type ends in HTML", robots: open,
			headers: []string{"Content-Type", "image/gif, text/html", "X-Robots-Tag", "noimageai"}, body: "GIF89a\x01\x00\x01\x00",
			usage: "train-ai=n", signals: []string{"x-robots-tag train-ai n X-Robots-Tag"}},
		{name: "noimageai on an SVG whose Content-Type ends in HTML", robots: open,
			headers: []string{"Content-Type", "image/svg+xml, text/html", "X-Robots-Tag", "noimageai"}, body: "<svg xmlns='http://www.w3.org/2000/svg'/>",
			usage: "train-ai=n", signals: []string{"x-robots-tag train-ai n X-Robots-Tag"}},
		{name: "noimageai without a media type or a body", robots: open, headers: []string{"Content-Type", "", "X-Robots-Tag", "noimageai"},
			usage: "train-ai=n", signals: []string{"x-robots-tag train-ai n X-Robots-Tag"}},
		{name: "noimageai on a page sent without a media type", robots: open,
			headers: []string{"Content-Type", "", "X-Robots-Tag", "noimageai"}, body: "<!doctype html><p>text",
			usage: "", signals: []string{}, meta: true, withoutBody: "train-ai=n"},
		{name: "noimageai on a page", robots: open, headers: []string{"Content-Type", html, "X-Robots-Tag", "noimageai"},
			body: `<meta name="robots" content="noimageai">`, usage: "", signals: []string{}},
		{name: "robots-meta", robots: open, headers: []string{"Content-Type", html},
			body:  `<html><head><meta name="robots" content="noindex, noai"></head><body>text</body></html>`,
			usage: "train-ai=n", signals: []string{"robots-meta train-ai n robots"}, meta: true},
		{name: "robots-meta past 64 other directives", robots: open, headers: []string{"Content-Type", html},
			body:  `<html><head>` + otherTags.String() + `<meta name="robots" content="noai"></head>`,
			usage: "train-ai=n", signals: []string{"robots-meta train-ai n robots"}, meta: true},
		{name: "robots-meta after </head>", robots: open, headers: []string{"Content-Type", html},
			body:  `<html><head><title>t</title></head><meta name="robots" content="noai"><body>text</body></html>`,
			usage: "train-ai=n", signals: []string{"robots-meta train-ai n robots"}, meta: true},
		{name: "robots-meta under a media type that does not parse", robots: open, headers: []string{"Content-Type", "text/html charset=utf-8"},
			body:  `<html><head><meta name="robots" content="noai"></head>`,
			usage: "train-ai=n", signals: []string{"robots-meta train-ai n robots"}, meta: true},
		{name: "robots-meta for this crawler", robots: open, headers: []string{"Content-Type", html},
			body:  `<html><head><meta name="examplebot" content="noai"><meta name="otherbot" content="noindex"></head>`,
			usage: "train-ai=n", signals: []string{"robots-meta train-ai n ExampleBot"}, meta: true},
		{name: "robots-meta for another crawler", robots: open, headers: []string{"Content-Type", html},
			body: `<html><head><meta name="otherbot" content="noai"></head>`, usage: "", signals: []string{}},
		{name: "robots-meta in a body that is not HTML", robots: open, headers: []string{"Content-Type", "text/plain"},
			body: `<html><head><meta name="robots" content="noai"></head>`, usage: "", signals: []string{}},
		{name: "tdm-header", robots: open, headers: []string{"Tdm-Reservation", "1", "Tdm-Policy", "https://example.com/policy.json"},
			usage: "train-ai=n", signals: []string{"tdm-header train-ai n tdm-reservation"}, policy: "https://example.com/policy.json"},
		{name: "tdm-header policy after an empty line", robots: open, // an intermediary's line says none (consent87)
			headers: []string{"Tdm-Reservation", "1", "Tdm-Policy", "", "Tdm-Policy", "https://example.com/policy.json"},
			usage:   "train-ai=n", signals: []string{"tdm-header train-ai n tdm-reservation"}, policy: "https://example.com/policy.json"},
		{name: "tdm-header 0", robots: open, headers: []string{"tdm-reservation", "0", "Tdm-Policy", "https://example.com/policy.json"},
			usage: "", signals: []string{"tdm-header train-ai unknown tdm-reservation"}},
		{name: "tdm-header not 0 or 1", robots: open, headers: []string{"Tdm-Reservation", "yes"},
			usage: "", signals: []string{}},
		{name: "tdm-header lines joined", robots: open, headers: []string{"Tdm-Reservation", "0, 1"},
			usage: "train-ai=n", signals: []string{"tdm-header train-ai n tdm-reservation"}},
		{name: "tdm-meta", robots: open, headers: []string{"Content-Type", html},
			body:  `<head><meta name="tdm-reservation" content="1"><meta name="tdm-policy" content="https://example.com/p"></head>`,
			usage: "train-ai=n", signals: []string{"tdm-meta train-ai n tdm-reservation"}, meta: true, policy: "https://example.com/p"},
		{name: "a tdm-meta 0 does not lift the header's 1", robots: open, headers: []string{"Content-Type", html, "Tdm-Reservation", "1"},
			body:  `<head><meta name="tdm-reservation" content="0"></head>`,
			usage: "train-ai=n", signals: []string{"tdm-header train-ai n tdm-reservation", "tdm-meta train-ai unknown tdm-reservation"},
			meta: true, withoutBody: "train-ai=n"},
		{name: "tdm-meta reserves what the header does not", robots: open, headers: []string{"Content-Type", html, "Tdm-Reservation", "0", "Tdm-Policy", "https://example.com/h"},
			body:  `<head><meta name="tdm-reservation" content="1"></head>`,
			usage: "train-ai=n", signals: []string{"tdm-header train-ai unknown tdm-reservation", "tdm-meta train-ai n tdm-reservation"},
			meta: true, policy: "https://example.com/h"}, // the header's policy, given beside a 0, stands: the META gives none (consent80)
		{name: "a page's tdm-policy replaces the header's", robots: open,
			headers: []string{"Content-Type", html, "Tdm-Reservation", "1", "Tdm-Policy", "https://example.com/site"},
			body:    `<head><meta name="tdm-policy" content="https://example.com/page"></head>`,
			usage:   "train-ai=n", signals: []string{"tdm-header train-ai n tdm-reservation"}, policy: "https://example.com/page"},
		{name: "a page's tdm-policy beside its own 0 replaces nothing", robots: open,
			headers: []string{"Content-Type", html, "Tdm-Reservation", "1", "Tdm-Policy", "https://example.com/site"},
			body:    `<head><meta name="tdm-reservation" content="0"><meta name="tdm-policy" content="https://example.com/page"></head>`,
			usage:   "train-ai=n", signals: []string{"tdm-header train-ai n tdm-reservation", "tdm-meta train-ai unknown tdm-reservation"},
			meta: true, withoutBody: "train-ai=n", policy: "https://example.com/site"},
		{name: "a malformed tdm-meta replaces nothing", robots: open, headers: []string{"Content-Type", html, "Tdm-Reservation", "1"},
			body:  `<head><meta name="tdm-reservation" content="yes"></head>`,
			usage: "train-ai=n", signals: []string{"tdm-header train-ai n tdm-reservation"}},
		{name: "across sources n wins", robots: "User-agent: *\nAllow: /\nContent-Usage: train-ai=y, search=y\n",
			headers: []string{"Content-Usage", "train-ai=y", "Tdm-Reservation", "1"},
			usage:   "train-ai=n, search=y",
			signals: []string{"robots.txt train-ai y line 3", "robots.txt search y line 3", "content-usage-header train-ai y Content-Usage", "tdm-header train-ai n tdm-reservation"}},
		{name: "every source", robots: "Content-Signal: search=yes\nUser-agent: *\nAllow: /\nContent-Usage: train-ai=y\n",
			headers: []string{"Content-Type", html, "Content-Usage", "search=n", "X-Robots-Tag", "noai", "Tdm-Reservation", "1"},
			body:    `<head><meta name="robots" content="noai"><meta name="tdm-reservation" content="1"></head>`,
			usage:   "train-ai=n, search=n",
			signals: []string{"robots.txt train-ai y line 4", "content-signal search y line 1", "content-usage-header search n Content-Usage",
				"x-robots-tag train-ai n X-Robots-Tag", "robots-meta train-ai n robots",
				"tdm-header train-ai n tdm-reservation", "tdm-meta train-ai n tdm-reservation"},
			meta: true, withoutBody: "train-ai=n, search=n"},
	}
	_, tr, hc := newTestTransport(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestSite(t, tt.robots)
			s.route("/page", serve(200, tt.body, tt.headers...))
			resp, body := fetchPage(t, hc, s.URL+"/page")
			r := tr.Receipt(resp, body)
			if r.Usage.statement() != tt.usage || !reflect.DeepEqual(sigs(r.Signals), tt.signals) {
				t.Errorf("Receipt: usage %q, signals %q;\nwant %q, %q", r.Usage, sigs(r.Signals), tt.usage, tt.signals)
			}
			if r.TDMPolicy != tt.policy {
				t.Errorf("TDMPolicy %q, want %q", r.TDMPolicy, tt.policy)
			}
			headers := tt.usage
			if tt.meta {
				headers = tt.withoutBody
			}
			if u := tr.Usage(resp); u.statement() != headers {
				t.Errorf("Usage(resp) = %q, want %q", u, headers)
			}
			if u := tr.Receipt(resp, nil).Usage; u.statement() != headers {
				t.Errorf("Receipt(resp, nil).Usage = %q, want %q", u, headers)
			}
		})
	}
}

// TestReceiptJSON checks a receipt's JSON key by key.
func TestReceiptJSON(t *testing.T) {
	checkLeaks(t)
	const robots = "# the site's rules\nUser-agent: *\nDisallow: /private/\nAllow: /articles/\n" +
		"Content-Usage: /articles/ train-ai=n, search=y\nContent-Signal: ai-input=no\n" +
		"License: https://example.com/license.xml\n"
	s := newTestSite(t, robots)
	s.route("/articles/a", serve(200, `<head><meta name="tdm-reservation" content="1"><meta name="tdm-policy" content="https://example.com/tdm.json"></head>`,
		"Content-Type", "text/html", "X-Robots-Tag", "noai"))
	clock := newTestClock()
	c := newTestClient(t, WithUserAgent(testUA), WithClock(clock.Now))
	tr := NewTransport(c, nil)
	hc := &http.Client{Transport: tr}
	resp, body := fetchPage(t, hc, s.URL+"/articles/a")
	clock.Advance(time.Second)
	out, err := json.Marshal(tr.Receipt(resp, body))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(out, "\n\r") {
		t.Errorf("not one line: %s", out)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(robots))
	want := map[string]string{
		"url":        fmt.Sprintf("%q", s.URL+"/articles/a"),
		"agent":      `"ExampleBot"`,
		"fetched_at": `"2025-03-01T12:00:01Z"`,
		"usage":      `{"train-ai":"n","search":"y","ai-input":"n"}`,
		"signals": `[{"source":"robots.txt","label":"train-ai","pref":"n","where":"line 5","value":"train-ai=n, search=y"},` +
			`{"source":"robots.txt","label":"search","pref":"y","where":"line 5","value":"train-ai=n, search=y"},` +
			`{"source":"content-signal","label":"ai-input","pref":"n","where":"line 6","value":"ai-input=no"},` +
			`{"source":"x-robots-tag","label":"train-ai","pref":"n","where":"X-Robots-Tag","value":"noai"},` +
			`{"source":"tdm-meta","label":"train-ai","pref":"n","where":"tdm-reservation","value":"1"}]`,
		"robots": fmt.Sprintf(`{"authority":%q,"fetched_at":"2025-03-01T12:00:00Z","status":200,"outcome":"rules","sha256":%q,"rule":4}`,
			s.URL, hex.EncodeToString(sum[:])),
		"licenses":   `["https://example.com/license.xml"]`,
		"tdm_policy": `"https://example.com/tdm.json"`,
	}
	for key, w := range want {
		if g, ok := got[key]; !ok || string(g) != w {
			t.Errorf("%s: %s\nwant %s", key, g, w)
		}
	}
	for key := range got {
		if _, ok := want[key]; !ok {
			t.Errorf("unexpected key %s: %s", key, got[key])
		}
	}
}

// TestReceiptTDMRepFileLimit: a tdmrep.json is read whole up to its own
// 256 KiB, whatever WithBodyLimit says of robots.txt, and one past it is
// never read in part (a file on one line, as JSON encoders write it, cut
// where robots.txt would be, its cut line dropped, read as no file): it
// reads as a reservation.
func TestReceiptTDMRepFileLimit(t *testing.T) {
	checkLeaks(t)
	// A file on one line of about n bytes whose first entry reserves "/".
	oneLine := func(n int) string {
		entry := `,{"location":"/archive/` + strings.Repeat("x", 40) + `/","tdm-reservation":1}`
		return `[{"location":"/","tdm-reservation":1}` + strings.Repeat(entry, n/len(entry)) + "]"
	}
	for _, tc := range []struct {
		name, file string
		opts       []Option
	}{
		{"20 KiB, a 16 KiB robots.txt limit", oneLine(20 << 10), []Option{WithBodyLimit(16 << 10)}},
		{"600 KiB on one line", oneLine(600 << 10), nil},
		{"510 KiB of blank lines first", strings.Repeat("\n", 510<<10) + `[{"location":"/","tdm-reservation":1}]`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newHosts(t)
			w.on("a.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
			w.on("a.test/page", serve(200, "page", "Content-Type", "text/plain"))
			w.on("a.test"+tdmrepPath, serve(200, tc.file, "Content-Type", "application/json"))
			c, tr := NewClientTransport(w.transport(t), append([]Option{WithUserAgent(testUA), WithTDMRep()}, tc.opts...))
			t.Cleanup(func() { _ = c.Close() })
			resp, body := fetchPage(t, &http.Client{Transport: tr}, "http://a.test/page")
			if r := tr.Receipt(resp, body); r.Usage.Pref("train-ai") != PrefNo {
				t.Errorf("usage %q, signals %+v; want train-ai=n", r.Usage, r.Signals)
			}
		})
	}
}

// TestReceiptFailsClosed: a receipt whose robots.txt cannot be consulted
// says train-ai=n, and names why; one for a URL robots.txt disallows has
// the evidence of the disallowing rule and no preferences of robots.txt.
func TestReceiptFailsClosed(t *testing.T) {
	checkLeaks(t)
	down := newTestSite(t, "")
	down.route("/robots.txt", serve(503, "down"))
	_, tr, hc := newTestTransport(t)

	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, down.URL+"/page", nil)
	resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Usage": {"train-ai=y, search=y"}}, Request: req}
	r := tr.Receipt(resp, nil)
	if r.Usage.statement() != "train-ai=n, search=y" || r.Robots != nil || len(r.Signals) == 0 ||
		sig(r.Signals[0]) != "robots.txt train-ai n unreachable" || !strings.Contains(r.Signals[0].Value, "unreachable") {
		t.Errorf("robots.txt unreachable: usage %q, robots %+v, signals %+v", r.Usage, r.Robots, r.Signals)
	}
	if u := tr.Usage(resp); u.Pref("train-ai") != PrefNo {
		t.Errorf("Usage with robots.txt unreachable: %q", u)
	}

	s := newTestSite(t, "User-agent: *\nContent-Usage: train-ai=y\nDisallow: /private/\n")
	s.route("/private/x", serve(200, "secret", "Content-Usage", "search=y"))
	req, _ = http.NewRequestWithContext(SkipRobots(t.Context()), http.MethodGet, s.URL+"/private/x", nil)
	resp, body := fetchPageReq(t, hc, req)
	r = tr.Receipt(resp, body)
	if r.Usage.statement() != "search=y" || r.Robots == nil || r.Robots.RuleLine != 3 || r.Robots.SHA256 == "" {
		t.Errorf("disallowed: usage %q, robots %+v", r.Usage, r.Robots)
	}
	if got := sigs(r.Signals); !reflect.DeepEqual(got, []string{"content-usage-header search y Content-Usage"}) {
		t.Errorf("disallowed: signals %q", got)
	}

	// A response without its request: robots.txt cannot be consulted,
	// which reads as train-ai=n, beside the headers; no URL.
	resp.Request = nil
	if r := tr.Receipt(resp, body); r.URL != "" || r.Robots != nil || r.Usage.statement() != "train-ai=n, search=y" {
		t.Errorf("without a request: %+v", r)
	}
	// A request without a URL, as one built by hand may be, reads the same.
	for _, req := range []*http.Request{{}, {Host: "example.com"}} {
		resp.Request = req
		if r := tr.Receipt(resp, body); r.URL != "" || r.Robots != nil || r.Usage.statement() != "train-ai=n, search=y" {
			t.Errorf("a request without a URL, Host %q: %+v", req.Host, r)
		}
		if u := tr.Usage(resp); u.statement() != "train-ai=n, search=y" {
			t.Errorf("a request without a URL, Host %q: Usage %q", req.Host, u)
		}
	}
	if r := tr.Receipt(nil, nil); r.URL != "" || r.Usage != (Usage{}) || r.Signals == nil || r.Licenses == nil {
		t.Errorf("Receipt(nil, nil) = %+v", r)
	}
}

// TestReceiptUnreachableAllowAll: the allow-all that stands in for a
// robots.txt unreachable past WithUnreachableAllowAfter lets pages be
// fetched, but robots.txt was never read: the receipt says train-ai=n,
// as for any robots.txt that cannot be consulted.
func TestReceiptUnreachableAllowAll(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "")
	s.route("/robots.txt", serve(503, "down"))
	clock := newTestClock()
	c := newTestClient(t, WithClock(clock.Now), WithUnreachableAllowAfter(time.Hour))
	tr := NewTransport(c, http.DefaultTransport)
	for range 3 {
		_, _ = c.Check(t.Context(), s.URL+"/page")
		clock.Advance(time.Hour) // asked again within the limit: one outage
	}
	d, err := c.Check(t.Context(), s.URL+"/page")
	if err != nil || !d.Allowed || d.Outcome != OutcomeAllowAll || d.Failures == 0 {
		t.Fatalf("after hours unreachable: %+v, %v; want the allow-all", d, err)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
	resp := &http.Response{StatusCode: 200, Header: http.Header{}, Request: req}
	r := tr.Receipt(resp, nil)
	if r.Usage.Pref("train-ai") != PrefNo || len(r.Signals) == 0 || sig(r.Signals[0]) != "robots.txt train-ai n unreachable" {
		t.Errorf("robots.txt never read: usage %q, signals %+v", r.Usage, r.Signals)
	}
	if u := tr.Usage(resp); u.Pref("train-ai") != PrefNo {
		t.Errorf("Usage with robots.txt never read: %q", u)
	}
}

// TestReceiptStatusPolicyAllowAll: a status policy that reads a 5xx, a
// 429 or a 3xx not followed (a 304 to an unconditional request, a 305, an
// unknown 3xx) robots.txt as allow-all lets pages be fetched, but the
// file was never read: the receipt says train-ai=n, unreachable; a 404 or
// redirects that loop, which say there is no file, state nothing.
func TestReceiptStatusPolicyAllowAll(t *testing.T) {
	checkLeaks(t)
	for _, status := range []int{503, 429, 304, 305, 404} {
		s := newTestSite(t, "")
		s.route("/robots.txt", serve(status, "no"))
		c := newTestClient(t, WithUserAgent(testUA), WithStatusPolicy(func(int) Outcome { return OutcomeAllowAll }))
		tr := NewTransport(c, &http.Transport{})
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
		if d, err := c.Check(t.Context(), req.URL.String()); err != nil || d.Outcome != OutcomeAllowAll {
			t.Fatalf("%d: %+v, %v; want the policy's allow-all", status, d, err)
		}
		r := tr.Receipt(&http.Response{StatusCode: 200, Header: http.Header{}, Request: req}, nil)
		want := ""
		if status != 404 {
			want = "robots.txt train-ai n unreachable"
		}
		if got := strings.Join(sigs(r.Signals), ""); got != want {
			t.Errorf("robots.txt %d read as allow-all: usage %q, signals %q; want %q", status, r.Usage, sigs(r.Signals), want)
		}
	}
	// Redirects that loop say there is no file, as a 404 does.
	s := newTestSite(t, "")
	s.route("/robots.txt", redirectTo("/robots.txt"))
	_, tr, _ := newTestTransport(t)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
	if r := tr.Receipt(&http.Response{StatusCode: 200, Header: http.Header{}, Request: req}, nil); len(r.Signals) != 0 || r.Robots == nil || r.Robots.Outcome != "allow-all" {
		t.Errorf("robots.txt redirecting to itself: robots %+v, signals %q; want its allow-all, no signal", r.Robots, sigs(r.Signals))
	}
}

// TestReceiptUnreadablePage: a page whose META tags cannot be read (a
// content coding net/http left, a head past the mebibyte read) says
// train-ai=n, unreadable, and PageDirectives no to everything; a page in
// the UTF-16 its Content-Type declares is read as browsers read it.
func TestReceiptUnreadablePage(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nContent-Usage: train-ai=y\n")
	_, tr, _ := newTestTransport(t)
	const noai = `<html><head><meta name="robots" content="noai"></head><body>x</body></html>`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(noai))
	_ = zw.Close()
	const jpHead = `<meta name="description" content="会員登録、ユーザー名とパスワードを入力してください。ユーザー名は半角英数字です。"><meta name="robots" content="noai"></head><body>x</body></html>`
	jp, _ := japanese.ISO2022JP.NewEncoder().Bytes([]byte(`<html><head>` + jpHead))
	jpMeta, _ := japanese.ISO2022JP.NewEncoder().Bytes([]byte(`<html><head><meta charset="iso-2022-jp">` + jpHead))
	jpEquiv, _ := japanese.ISO2022JP.NewEncoder().Bytes([]byte(`<html><head><meta http-equiv="Content-Type" content="text/html; charset=ISO-2022-JP">` + jpHead))
	// 、 is !" and 洲 is =' in ISO-2022-JP: read raw, the page's text
	// opens a quoted value that runs to its end.
	const jpXHTMLHead = `<meta name="description" content="東南アジア、メコン川の三角洲を旅する。"/><meta name="robots" content="noai"/></head><body/></html>`
	jpXHTML, _ := japanese.ISO2022JP.NewEncoder().Bytes([]byte(`<?xml version="1.0" encoding="ISO-2022-JP"?><html xmlns="http://www.w3.org/1999/xhtml"><head>` + jpXHTMLHead))
	jpXHTMLBare, _ := japanese.ISO2022JP.NewEncoder().Bytes([]byte(`<html xmlns="http://www.w3.org/1999/xhtml"><head>` + jpXHTMLHead))
	jpXHTMLOther, _ := japanese.ISO2022JP.NewEncoder().Bytes([]byte(`<?xml version="1.0" encoding="ISO-2022-JP-2"?><html xmlns="http://www.w3.org/1999/xhtml"><head>` + jpXHTMLHead))
	jpXHTMLUTF8, _ := japanese.ISO2022JP.NewEncoder().Bytes([]byte(`<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head>` + jpXHTMLHead))
	var xhtml16 []byte // UTF-16LE, no byte-order mark: XML reads it from "<?"
	for _, c := range `<?xml version="1.0" encoding="UTF-16"?><html xmlns="http://www.w3.org/1999/xhtml"><head><meta name="robots" content="noai"/></head><body/></html>` {
		xhtml16 = append(xhtml16, byte(c), 0)
	}
	var prefixed16 []byte // the same, its XHTML elements prefixed
	for _, c := range `<?xml version="1.0" encoding="UTF-16"?><h:html xmlns:h="http://www.w3.org/1999/xhtml"><h:head><h:meta name="robots" content="noai"/></h:head><h:body/></h:html>` {
		prefixed16 = append(prefixed16, byte(c), 0)
	}
	var utf16le []byte
	var utf16be []byte
	for _, c := range noai {
		utf16le = append(utf16le, byte(c), 0)
		utf16be = append(utf16be, 0, byte(c))
	}
	long := "<html><head>" + strings.Repeat("<!-- pad -->", 1<<20/12+1) + noai
	const xhtml = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><title/><script type="text/javascript" src="/a.js"/><STYLE/>
<meta name="robots" content="noai"/></head><body><p>hi</p></body></html>`
	for _, tc := range []struct {
		name, ctype string
		coding      []string // Content-Encoding lines
		body        []byte
		want        []string
	}{
		{"gzip left to the caller", "text/html", []string{"gzip"}, gz.Bytes(),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"gzip without a Content-Type", "", []string{"gzip"}, gz.Bytes(),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"gzip in a second line", "text/html", []string{"identity", "gzip"}, gz.Bytes(),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"gzip under no line", "text/html", nil, gz.Bytes(), // a second gzip, the first undone
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"zlib under no line", "text/html", nil, encode(t, []byte(noai), "deflate"), // a deflate inside the gzip undone
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"gzip JSON", "application/json", []string{"gzip"}, gz.Bytes(), []string{"robots.txt train-ai y "}},
		{"a gzip download", "application/octet-stream", nil, gz.Bytes(), []string{"robots.txt train-ai y "}},
		{"a download in gzip", "application/octet-stream", []string{"gzip"}, gz.Bytes(), []string{"robots.txt train-ai y "}},
		{"an empty body in gzip (HEAD)", "text/html", []string{"gzip"}, []byte{}, []string{"robots.txt train-ai y "}},
		{"UTF-16LE by its charset", "text/html; charset=utf-16le", nil, utf16le,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"UTF-16LE by another label", "text/html; charset=UCS-2", nil, utf16le,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"UTF-16BE by another label", "text/html; charset=unicodeFFFE", nil, utf16be,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"a UTF-8 mark under a UTF-16 charset", "text/html; charset=utf-16", nil, append([]byte("\xEF\xBB\xBF"), noai...),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"a head past the mebibyte", "text/html", nil, []byte(long),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		// Content-Type read as browsers read it: a parameter that does not
		// parse is skipped, and the last line that parses wins.
		{"UTF-16 before a bare parameter", "text/html; charset=utf-16; foo", nil, utf16le,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"UTF-16 after a bare parameter", "text/html; foo; charset=utf-16", nil, utf16le,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"UTF-16 named twice", "text/html; charset=utf-16; charset=utf-8", nil, utf16le,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"HTML in the last line", "text/plain\ntext/html", nil, []byte(noai),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"HTML in the last value of a line", "application/json, text/html; charset=utf-16", nil, utf16le,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		// So that no restriction is lost to a reading, a line naming HTML
		// (which http.Header.Get takes) or a type browsers sniff counts.
		{"HTML then text", "text/html\ntext/plain", nil, []byte(noai),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"HTML then text in a line", "text/html; charset=utf-8, text/plain", nil, []byte(noai),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		// Values that disagree on UTF-16 are read neither way.
		{"UTF-16 HTML then text", "text/html; charset=utf-16\ntext/plain", nil, utf16le,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"UTF-16 HTML then UTF-8 HTML", "text/html; charset=utf-16\ntext/html; charset=utf-8", nil, utf16le,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"UTF-8 HTML then UTF-16 text", "text/html; charset=utf-8, text/plain; charset=utf-16", nil, []byte(noai),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"HTML then UTF-16 HTML", "text/html\ntext/html; charset=utf-16le", nil, []byte(noai),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"HTML then UTF-16 HTML in a line", "text/html, text/html; charset=utf-16", nil, utf16le,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"a sniffed type then UTF-16 HTML", "unknown/unknown\ntext/html; charset=utf-16le", nil, []byte(noai),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"UTF-16 carried to a line without a charset", "text/html; charset=utf-16\ntext/html", nil, utf16le,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"UTF-16LE then UTF-16BE", "text/html; charset=utf-16le\ntext/html; charset=utf-16be", nil, utf16le,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"a byte-order mark decides", "text/html; charset=utf-16\ntext/html; charset=utf-8", nil, append([]byte("\xEF\xBB\xBF"), noai...),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"a type sniffed", "unknown/unknown", nil, []byte(noai),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"another type sniffed", "application/unknown", nil, []byte(noai),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"a type sniffed in gzip", "unknown/unknown", []string{"gzip"}, gz.Bytes(),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"a download", "application/octet-stream", nil, []byte(noai), []string{"robots.txt train-ai y "}},
		// XHTML is read as XML: <script/> is empty, not the start of a
		// script running on; HTML's reading of it stays HTML's.
		{"XHTML", "application/xhtml+xml; charset=utf-8", nil, []byte(xhtml),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML sniffed", "", nil, []byte(xhtml), []string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML sniffed from an unknown type", "unknown/unknown", nil, []byte(xhtml),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML served as HTML", "text/html", nil, []byte(xhtml), []string{"robots.txt train-ai y "}},
		{"XHTML: an empty template", "application/xhtml+xml", nil,
			[]byte(`<html xmlns="http://www.w3.org/1999/xhtml"><head><template/><meta name="robots" content="noai"/></head><body/></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML: a body in a template", "application/xhtml+xml", nil,
			[]byte(`<html xmlns="http://www.w3.org/1999/xhtml"><head><template><body/></template><script src="/a.js"/><meta name="robots" content="noai"/></head><body/></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		// A template in the head leaves a body's META in the body.
		{"XHTML: a template, then the body", "application/xhtml+xml", nil,
			[]byte(`<html xmlns="http://www.w3.org/1999/xhtml"><head><template></template></head><body><script src="/a.js"/><meta name="robots" content="noai"/><p/></body></html>`),
			[]string{"robots.txt train-ai y "}},
		{"XHTML: an empty script in a noscript", "application/xhtml+xml", nil,
			[]byte(`<html xmlns="http://www.w3.org/1999/xhtml"><head><noscript><script src="/a.js"/></noscript><meta name="robots" content="noai"/></head></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		// A prefix bound to XHTML's namespace names XHTML elements.
		{"XHTML: prefixed elements", "application/xhtml+xml", nil,
			[]byte(`<?xml version="1.0"?><h:html xmlns:h="http://www.w3.org/1999/xhtml"><h:head><h:title>t</h:title><h:script src="/a.js"/><h:meta name="tdm-reservation" content="1"/><h:meta name="robots" content="noai"/></h:head><h:body><h:p>x</h:p></h:body></h:html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots", "tdm-meta train-ai n tdm-reservation"}},
		{"XHTML: prefixed elements in UTF-16", "application/xhtml+xml", nil, prefixed16,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		// Another namespace's elements are none of HTML's.
		{"XHTML: another namespace's body in the head", "application/xhtml+xml", nil,
			[]byte(`<html xmlns="http://www.w3.org/1999/xhtml" xmlns:x="urn:example:x"><head><x:body/><meta name="robots" content="noai"/></head><body/></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML: a prefix rebound within the head", "application/xhtml+xml", nil,
			[]byte(`<h:html xmlns:h="http://www.w3.org/1999/xhtml"><h:head><o:g xmlns:o="urn:example:o" xmlns:h="urn:example:h"><h:body/></o:g><h:meta name="robots" content="noai"/></h:head><h:body/></h:html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML: another default namespace within the head", "application/xhtml+xml", nil,
			[]byte(`<html xmlns="http://www.w3.org/1999/xhtml"><head><g xmlns="urn:example:o"><body/></g><meta name="robots" content="noai"/></head><body/></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML: another namespace's template in the head", "application/xhtml+xml", nil,
			[]byte(`<html xmlns="http://www.w3.org/1999/xhtml" xmlns:x="urn:example:x"><head><x:template><meta name="robots" content="noai"/></x:template></head><body/></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		// Labels compare by ASCII case: "unİcode" (U+0130) names no
		// UTF-16, as Unicode case mapping would have it.
		{"a charset label not in ASCII", "text/html; charset=un\u0130code", nil, []byte(noai),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		// A media type not in ASCII is none: sniffed, as browsers do,
		// not read as text/plain by Unicode case mapping.
		{"a media type not in ASCII", "text/pla\u0130n", nil, []byte(noai),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		// Only ASCII white space is trimmed from a label.
		{"a charset label padded with a no-break space", "text/html; charset=\"utf-16\u00a0\"", nil, []byte(noai),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML: a prefixed body ends the head", "application/xhtml+xml", nil,
			[]byte(`<h:html xmlns:h="http://www.w3.org/1999/xhtml"><h:head></h:head><h:body><h:p>x</h:p><h:meta name="robots" content="noai"/></h:body></h:html>`),
			[]string{"robots.txt train-ai y "}},
		// In XML, what no HTML head holds stays in the head.
		{"XHTML: an object in the head", "application/xhtml+xml", nil,
			[]byte(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title><object data="a.swf" type="application/x-shockwave-flash"/><meta name="robots" content="noai"/></head><body/></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML: a tracking pixel in a noscript", "application/xhtml+xml", nil,
			[]byte(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title><noscript><img height="1" width="1" src="https://px.test/tr?id=1"/></noscript><meta name="tdm-reservation" content="1"/><meta name="robots" content="noai"/></head><body/></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots", "tdm-meta train-ai n tdm-reservation"}},
		// Not well-formed ("a < b" unescaped, a stray end tag): XML
		// reads no further.
		{"XHTML: a script and a stray end tag before an object", "application/xhtml+xml", nil,
			[]byte(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><script>if (a < b) x()</script></p><object data="a.swf"/><meta name="robots" content="noai"/></head><body/></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"XHTML: a template, then a tracking pixel", "application/xhtml+xml", nil,
			[]byte(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title><template><p>x</p><meta name="robots" content="all"/></template><noscript><img src="https://px.test/tr"/></noscript><meta name="robots" content="noai"/></head><body/></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML: an object, then a template", "application/xhtml+xml", nil,
			[]byte(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><object data="a.swf"/><template/><meta name="robots" content="noai"/></head><body/></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML: a DTD's internal subset", "application/xhtml+xml", nil,
			[]byte(`<?xml version="1.0"?><!DOCTYPE html [ <!ENTITY copy "&#169;"> ]><html xmlns="http://www.w3.org/1999/xhtml"><head><meta name="tdm-reservation" content="0"/><meta name="robots" content="noai"/></head><body/></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots", "tdm-meta train-ai unknown tdm-reservation"}},
		{"over 64 Content-Type values", strings.Repeat("text/plain\n", 64) + "text/html", nil, []byte(noai),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"over 64 Content-Type values of an image", strings.Repeat("image/png\n", 65), nil, []byte("\x89PNG\r\n\x1a\n"),
			[]string{"robots.txt train-ai y "}},
		{"64 Content-Type values and blanks", strings.Repeat("text/html,", 64), nil, []byte(noai),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"ISO-2022-JP, whose text holds quotes and angle brackets", "text/html; charset=ISO-2022-JP", nil, jp,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		// What browsers read as an error, which x/text's decoder reads
		// otherwise, its kanji running over the tags: a kanji cut in
		// half, a blank in a JIS X 0208 run, ISO-2022-JP-1's escape.
		{"ISO-2022-JP, a kanji cut in half", "text/html; charset=ISO-2022-JP", nil,
			[]byte(`<html><head><meta name="description" content="` + "\x1b$B4A;\x1b(B" + `"><meta name="robots" content="noai"></head></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"ISO-2022-JP, a blank in a kanji run", "text/html; charset=ISO-2022-JP", nil,
			[]byte(`<html><head><meta name="description" content="` + "\x1b$B4A \x1b(B" + `"><meta name="robots" content="noai"></head></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"ISO-2022-JP, ISO-2022-JP-1's escape", "text/html; charset=ISO-2022-JP", nil,
			[]byte(`<html><head><meta name="description" content="` + "caf\x1b$(D" + `"><meta name="robots" content="noai"></head></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"XHTML in the ISO-2022-JP its Content-Type names", "application/xhtml+xml; charset=ISO-2022-JP", nil, jpXHTML,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML in the ISO-2022-JP its declaration names", "application/xhtml+xml", nil, jpXHTML,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML in ISO-2022-JP naming none", "application/xhtml+xml", nil, jpXHTMLBare,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"XHTML in ISO-2022-JP declaring another encoding", "application/xhtml+xml", nil, jpXHTMLOther,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"XHTML in ISO-2022-JP declaring UTF-8", "application/xhtml+xml", nil, jpXHTMLUTF8,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		// With no charset in its Content-Type, or one browsers do not
		// know, a page is decoded by the one its <meta> names, or, naming
		// none, by its escapes, as browsers decode it.
		{"ISO-2022-JP named by a meta charset", "text/html", nil, jpMeta,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"ISO-2022-JP named by http-equiv, no Content-Type", "", nil, jpEquiv,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"ISO-2022-JP named by a meta, past a charset unknown", "text/html; charset=x-unknown", nil, jpMeta,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		// Naming none, it may be ISO-2022-JP by its escapes, as browsers'
		// detectors read it, or not: its tags cannot be read.
		{"ISO-2022-JP named by nothing", "text/html", nil, jp,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"ISO-2022-JP's escape into katakana, naming no charset", "text/html", nil,
			[]byte("<html><head><title>\x1b(I6\"<>\x1b(B</title><meta name=\"robots\" content=\"noai\"></head></html>"),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"ISO-2022-JP's escape on a page naming UTF-8", "text/html", nil,
			[]byte("<html><head><meta charset=\"utf-8\"><title>ESC \x1b$B demo</title><meta name=\"robots\" content=\"noai\"></head></html>"),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"ISO-2022-JP with a Latin-1 byte past the prescan", "text/html", nil,
			append(append(bytes.Clone(jp), strings.Repeat("<!-- padding -->", 200)...), 0xE9),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n unreadable"}},
		{"ISO-2022-JP's escape on a page in UTF-8", "text/html", nil,
			[]byte("<html><head><title>caf\xc3\xa9 \x1b$B</title><meta name=\"robots\" content=\"noai\"></head></html>"),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML in UTF-16 with no byte-order mark", "application/xhtml+xml", nil, xhtml16,
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML: a meta after the head", "application/xhtml+xml", nil,
			[]byte(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head><meta name="robots" content="noai"/><body/></html>`),
			[]string{"robots.txt train-ai y ", "robots-meta train-ai n robots"}},
		{"XHTML: a meta in the body", "application/xhtml+xml", nil,
			[]byte(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head><body><meta name="robots" content="noai"/></body></html>`),
			[]string{"robots.txt train-ai y "}},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Encoding": tc.coding}, Request: req}
		if tc.ctype != "" {
			resp.Header["Content-Type"] = strings.Split(tc.ctype, "\n")
		}
		r := tr.Receipt(resp, tc.body)
		got := sigs(r.Signals)
		for i := range got {
			got[i] = strings.TrimSuffix(got[i], "line 2") // robots.txt's Where
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: signals %q, want %q", tc.name, got, tc.want)
		}
		unreadable := slices.Contains(tc.want, "robots-meta train-ai n unreadable")
		noAI := slices.ContainsFunc(tc.want, func(s string) bool { return strings.HasPrefix(s, "robots-meta") })
		if d := tr.PageDirectives(resp, tc.body); d.NoAI != noAI || d.NoIndex != unreadable {
			t.Errorf("%s: PageDirectives %+v", tc.name, d)
		}
	}
}

// TestReceiptNotStaleWhileAskedAgain: a receipt made while the robots.txt
// it rests on is being fetched again does not say a last good copy stood
// in for one that could not be fetched.
func TestReceiptNotStaleWhileAskedAgain(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	c, s, arrived, gate := heldRefresh(t, clock)
	tr := NewTransport(c, nil)
	clock.Advance(time.Minute)
	refreshed := make(chan struct{})
	go func() {
		_, _ = c.Check(context.Background(), s.URL+"/public")
		close(refreshed)
	}()
	<-arrived
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/public", nil)
	r := tr.Receipt(&http.Response{StatusCode: 200, Header: http.Header{}, Request: req}, nil)
	close(gate)
	<-refreshed
	if r.Robots == nil || r.Robots.Stale {
		t.Errorf("receipt while robots.txt is asked again: %+v; want it not stale", r.Robots)
	}
}

// TestReceiptCutPage: a body the caller read only in part (shorter than
// the response's Content-Length) that ends within the head went partly
// unread: its tags say no, as an unreadable page's do. One whose head
// ended within it is read as it is.
func TestReceiptCutPage(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	_, tr, _ := newTestTransport(t)
	page := "<html><head><script>" + strings.Repeat("x", 200<<10) + `</script><meta name="robots" content="noai"></head><body>x</body>`
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
	for _, tc := range []struct {
		name      string
		body      string
		unread    bool
		wantUsage string
	}{
		{"the whole page", page, false, "train-ai=n"},
		{"its first 64 KiB", page[:64<<10], true, "train-ai=n"},
		{"past its head", page[:len(page)-3], false, "train-ai=n"},
		{"nothing of it", "", true, "train-ai=n"}, // the server closed after the headers
	} {
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/html"}}, ContentLength: int64(len(page)), Request: req}
		r := tr.Receipt(resp, []byte(tc.body))
		unread := slices.Contains(sigs(r.Signals), "robots-meta train-ai n unreadable")
		if r.Usage.statement() != tc.wantUsage || unread != tc.unread {
			t.Errorf("%s: usage %q, signals %q; want %s, unreadable %v", tc.name, r.Usage, sigs(r.Signals), tc.wantUsage, tc.unread)
		}
		if d := tr.PageDirectives(resp, []byte(tc.body)); !d.NoAI || d.NoIndex != tc.unread {
			t.Errorf("%s: PageDirectives %+v", tc.name, d)
		}
	}
	// A HEAD's, a 204's and a 304's body is empty, its length stated or
	// not: not cut (a 304 is no page's, see TestReceiptOfA304IsNotThePages).
	head, _ := http.NewRequestWithContext(t.Context(), http.MethodHead, s.URL+"/page", nil)
	for _, tc := range []struct {
		resp *http.Response
		want []string
	}{
		{&http.Response{StatusCode: 200, Request: head}, nil},
		{&http.Response{StatusCode: http.StatusNoContent, Request: req}, nil},
		{&http.Response{StatusCode: http.StatusNotModified, Request: req}, []string{"page train-ai n unreadable"}},
	} {
		resp := tc.resp
		resp.Header, resp.ContentLength = http.Header{"Content-Type": {"text/html"}}, int64(len(page))
		if r := tr.Receipt(resp, []byte{}); !slices.Equal(sigs(r.Signals), tc.want) {
			t.Errorf("%s %d: usage %q, signals %q; want %q", resp.Request.Method, resp.StatusCode, r.Usage, sigs(r.Signals), tc.want)
		}
	}
}

// TestReceiptSniffedPage: a page of no type, or one that says it is
// unknown, is HTML when any browser sniffs it so: Chrome takes a tag's
// start after white space, with nothing after it (WHATWG wants a space or
// '>'), in any case. Cut short before sniffing could tell, it may be HTML
// cut in its head; a start no tag has is not HTML, cut or not.
func TestReceiptSniffedPage(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nContent-Usage: train-ai=y\n")
	_, tr, _ := newTestTransport(t)
	const meta = `<meta name="robots" content="noai">`
	robots := []string{"robots.txt train-ai y line 2"}
	noai := append(slices.Clone(robots), "robots-meta train-ai n robots")
	unread := append(slices.Clone(robots), "robots-meta train-ai n unreadable")
	for _, tc := range []struct {
		name, ctype, body string
		length            int64 // Content-Length; -1 when none
		want              []string
	}{
		{"a comment then a newline", "", "<!--\n-->" + meta, -1, noai},
		{"html then a newline", "", "<html\nlang=en>" + meta, -1, noai},
		{"a head in capitals, then a tab", "unknown/unknown", "\r\n <HEAD\t>" + meta, -1, noai},
		{"a doctype then a newline", "application/unknown", "<!doctype HTML\n>" + meta, -1, noai},
		{"a style then a newline", "", "<style\n></style>" + meta, -1, noai},
		{"after a vertical tab", "", "\v<html>" + meta, -1, noai},
		{"text", "", "hello " + meta, -1, robots},
		{"a download", "application/octet-stream", "<html\n>" + meta, -1, robots},
		{"a tag past the sniffed bytes", "", strings.Repeat(" ", 512) + "<html>" + meta, -1, robots},
		{"cut in white space", "", "\n  ", 1000, unread},
		{"cut in a tag's name", "", " <ht", 1000, unread},
		{"cut in a doctype", "*/*", "<!DOCTY", 1000, unread},
		{"cut in an XML declaration", "", "<?xm", 1000, unread},
		{"cut after a start", "", "<html><head><tit", 1000, unread},
		{"cut, but text", "", "hello, wor", 1000, robots},
		{"cut, but a tag no sniffer takes", "", "<span>x", 1000, robots},
		{"cut, but HTML's type is not sniffed", "text/plain", " <ht", 1000, robots},
		{"whole white space", "", "\n  ", 3, robots},
		{"cut past the sniffed bytes", "", strings.Repeat(" ", 512), 1000, robots},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
		resp := &http.Response{StatusCode: 200, Header: http.Header{}, ContentLength: tc.length, Request: req}
		if tc.ctype != "" {
			resp.Header.Set("Content-Type", tc.ctype)
		}
		if got := sigs(tr.Receipt(resp, []byte(tc.body)).Signals); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: signals %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestReceiptCutPageAnyFraming: a page read in part, within its head,
// is cut short whatever its framing: chunked, gzip that net/http undid
// (no Content-Length left), or a 206 of its first bytes, in gzip too
// (whose Content-Range counts the bytes before net/http undid it, so
// that a whole one is cut unless the Transport sent it and saw it read
// to its end); read whole, it is not, but a 206 of a later range, or of
// ranges in parts, holds too little of the page. Each says no, never
// robots.txt's train-ai=y alone.
func TestReceiptCutPageAnyFraming(t *testing.T) {
	checkLeaks(t)
	page := "<html><head><script>" + strings.Repeat("x", 200<<10) + `</script><meta name="robots" content="noai"></head><body>x</body>`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(page))
	_ = zw.Close()
	s := newTestSite(t, "User-agent: *\nContent-Usage: train-ai=y\n")
	s.route("/chunked", serve(200, page, "Content-Type", "text/html"))
	s.route("/gzip", serve(200, gz.String(), "Content-Type", "text/html", "Content-Encoding", "gzip"))
	s.route("/range", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Range", fmt.Sprintf("bytes 0-%d/%d", 64<<10-1, len(page)))
		w.WriteHeader(http.StatusPartialContent)
		_, _ = io.WriteString(w, page[:64<<10])
	})
	s.route("/gzip-range", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Range", fmt.Sprintf("bytes 0-%d/%d", gz.Len()-1, gz.Len()))
		w.WriteHeader(http.StatusPartialContent)
		_, _ = w.Write(gz.Bytes())
	})
	s.route("/later", func(w http.ResponseWriter, r *http.Request) { // none of its head
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", 150<<10, len(page)-1, len(page)))
		w.WriteHeader(http.StatusPartialContent)
		_, _ = io.WriteString(w, page[150<<10:])
	})
	s.route("/parts", func(w http.ResponseWriter, r *http.Request) { // ranges in parts
		w.Header().Set("Content-Type", "multipart/byteranges; boundary=B")
		w.WriteHeader(http.StatusPartialContent)
		_, _ = io.WriteString(w, "--B\r\nContent-Type: text/html\r\nContent-Range: bytes 0-9/10\r\n\r\n<html><he\r\n--B--\r\n")
	})
	s.route("/parts-from-0", func(w http.ResponseWriter, r *http.Request) { // a stray Content-Range
		w.Header().Set("Content-Type", "multipart/byteranges; boundary=B")
		w.Header().Set("Content-Range", "bytes 0-9/10")
		w.WriteHeader(http.StatusPartialContent)
		_, _ = io.WriteString(w, "--B\r\nContent-Type: text/html\r\nContent-Range: bytes 0-9/10\r\n\r\n<html><he\r\n--B--\r\n")
	})
	// Read whole, a gzip 206 of the whole page is the page, though its
	// head runs to its end.
	var open bytes.Buffer
	zw = gzip.NewWriter(&open)
	_, _ = zw.Write([]byte(`<html><head><meta name="robots" content="noai">` + strings.Repeat("<!-- -->", 1000)))
	_ = zw.Close()
	s.route("/gzip-range-open", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Range", fmt.Sprintf("bytes 0-%d/%d", open.Len()-1, open.Len()))
		w.WriteHeader(http.StatusPartialContent)
		_, _ = w.Write(open.Bytes())
	})
	_, tr, hc := newTestTransport(t)
	if resp, err := hc.Get(s.URL + "/gzip-range-open"); err != nil {
		t.Fatal(err)
	} else {
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if got := sigs(tr.Receipt(resp, body).Signals); !slices.Contains(got, "robots-meta train-ai n robots") || slices.Contains(got, "robots-meta train-ai n unreadable") {
			t.Errorf("a gzip 206 of the whole page, its head to its end, read whole: signals %q; want its noai read", got)
		}
	}
	// One the Transport did not send, whose reading it cannot tell, is
	// cut, though whole: read in part here.
	plain := &http.Client{Transport: &http.Transport{}}
	if resp, err := plain.Get(s.URL + "/gzip-range"); err != nil {
		t.Fatal(err)
	} else {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		_ = resp.Body.Close()
		if got := sigs(tr.Receipt(resp, body).Signals); !slices.Contains(got, "robots-meta train-ai n unreadable") {
			t.Errorf("a gzip 206 of the whole page, sent past the Transport: signals %q; want it unreadable", got)
		}
	}
	for _, path := range []string{"/chunked", "/gzip", "/range", "/gzip-range", "/later", "/parts", "/parts-from-0"} {
		for _, whole := range []bool{false, true} {
			resp, err := hc.Get(s.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			limit := int64(64 << 10)
			if whole {
				limit = 1 << 20
			}
			body, _ := io.ReadAll(io.LimitReader(resp.Body, limit))
			_ = resp.Body.Close()
			unread := slices.Contains(sigs(tr.Receipt(resp, body).Signals), "robots-meta train-ai n unreadable")
			if want := !whole || path != "/chunked" && path != "/gzip" && path != "/gzip-range"; unread != want || tr.Receipt(resp, body).Usage.Pref("train-ai") != PrefNo {
				t.Errorf("%s read to %d bytes: signals %q; want unreadable %v, and train-ai=n", path, len(body), sigs(tr.Receipt(resp, body).Signals), want)
			}
		}
	}
}

// TestCutShortRanges: a 206 is a whole page only when its Content-Range
// says so, the first byte to the last of a known length; whatever else it
// says, a Content-Length a body falls short of cuts it too.
func TestCutShortRanges(t *testing.T) {
	b := make([]byte, 65)
	for _, tc := range []struct {
		status int
		crange string
		length int64
		cut    bool
	}{
		{206, "bytes 0-64/65", 65, false},
		{206, "bytes 0-65/66", -1, true},
		{206, "Bytes 0-64/65", -1, false},
		{206, "bytes 0-64/*", 65, true},
		{206, "bytes 0-63/65", 64, true},
		{206, "bytes 1-64/65", 64, true},
		{206, "bytes */65", 0, true},
		{206, "bytes 0--1/0", 204885, true},
		{206, "bytes 0-9223372036854775807/-9223372036854775808", 204885, true},
		{206, "bytes +0-64/65", 65, true},
		{206, "", 65, true},
		{200, "", 65, false},
		{200, "", 66, true},
	} {
		resp := &http.Response{StatusCode: tc.status, Header: http.Header{"Content-Range": {tc.crange}}, ContentLength: tc.length}
		if got := cutShort(resp, b, nil); got != tc.cut {
			t.Errorf("%d %q, Content-Length %d, 65 bytes given: cut %v, want %v", tc.status, tc.crange, tc.length, got, tc.cut)
		}
	}
}

// TestReceiptLongLabelLeftOut: a label over the bound a receipt keeps is
// left out of its Usage, as of its signals, and of Transport.Usage; the
// others stay.
func TestReceiptLongLabelLeftOut(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	_, tr, _ := newTestTransport(t)
	long := strings.Repeat("z", 1000)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
	resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Usage": {"train-ai=n, " + long + "=y"}}, Request: req}
	r := tr.Receipt(resp, nil)
	b, err := json.Marshal(r)
	if err != nil || strings.Contains(string(b), long) || r.Usage.statement() != "train-ai=n" || r.Dropped != 1 {
		t.Errorf("Receipt with a label of 1,000 bytes: usage %q, dropped %d, JSON %d bytes, %v", r.Usage, r.Dropped, len(b), err)
	}
	if u := tr.Usage(resp); u != r.Usage {
		t.Errorf("Usage = %q, want the Receipt's %q", u, r.Usage)
	}
}

// TestReceiptLongContentUsageHeader: a Content-Usage header field longer
// than a robots.txt line, of the Dictionaries RFC 9651 asks parsers to
// accept (1,024 members with keys of 64 characters), states its train-ai=n;
// one longer than sfv.MaxLength states nothing.
func TestReceiptLongContentUsageHeader(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	_, tr, _ := newTestTransport(t)
	members := make([]string, 1023)
	for i := range members {
		members[i] = fmt.Sprintf("k%063d=y", i)
	}
	value := strings.Join(members, ", ") + ", train-ai=n"
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
	for _, tc := range []struct {
		value string
		want  Pref
	}{
		{value, PrefNo},
		{"train-ai=n, x=\"" + strings.Repeat("a", sfv.MaxLength) + "\"", PrefUnknown},
	} {
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Usage": {tc.value}}, Request: req}
		if r := tr.Receipt(resp, nil); r.Usage.Pref("train-ai") != tc.want || tc.want == PrefNo && r.Usage.Pref(members[0][:64]) != PrefYes {
			t.Errorf("a header of %d bytes: %s", len(tc.value), prefs(r.Usage, "train-ai", members[0][:64]))
		}
	}
}

// fetchPageReq sends req through hc and reads the response's body.
func fetchPageReq(t *testing.T, hc *http.Client, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// TestReceiptNormalForms: robots.txt's preferences for each form a server
// serves the URL as are listed, as Decision.Usage combines them.
func TestReceiptNormalForms(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nContent-Usage: /a/ train-ai=y\nContent-Usage: /b/ train-ai=n\n")
	_, tr, hc := newTestTransport(t)
	resp, body := fetchPage(t, hc, s.URL+"/a/..//b/x")
	r := tr.Receipt(resp, body)
	if want := []string{"robots.txt train-ai y line 2", "robots.txt train-ai n line 3"}; r.Usage.statement() != "train-ai=n" || !reflect.DeepEqual(sigs(r.Signals), want) {
		t.Errorf("usage %q, signals %q; want train-ai=n, %q", r.Usage, sigs(r.Signals), want)
	}
}

// TestReceiptListsAYesAllFormsAgreeOn: a yes that decides for the URL as
// sent and not for the form a server serves it as (or the other way)
// counts for none, as Decision.Usage counts it; it was listed all the
// same, evidence of a yes the answer does not hold.
func TestReceiptListsAYesAllFormsAgreeOn(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nContent-Usage: /a/ train-ai=y, search=n\n")
	_, tr, hc := newTestTransport(t)
	for _, p := range []string{"/a/../b/x", "/b/../a/x"} {
		resp, body := fetchPage(t, hc, s.URL+p)
		r := tr.Receipt(resp, body)
		if want := []string{"robots.txt search n line 2"}; r.Usage.statement() != "search=n" || !reflect.DeepEqual(sigs(r.Signals), want) {
			t.Errorf("%s: usage %q, signals %q; want search=n, %q", p, r.Usage, sigs(r.Signals), want)
		}
	}
}

// TestReceiptJoinedGroupNotItsStatements: a crawler whose user-agent line
// joins the group of another crawler's Content-Usage rule and
// Content-Signal record obeys that group's disallow, but the statements
// speak only for the crawler named above them: its receipt, its Usage and
// the Client's Decision list none of them (consent80: GPTBot's yes
// reached ExampleBot, citing line 2).
func TestReceiptJoinedGroupNotItsStatements(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: GPTBot\nContent-Usage: train-ai=y\nContent-Signal: search=yes\n\n"+
		"User-agent: ExampleBot\nDisallow: /private/\n")
	c, tr, hc := newTestTransport(t)
	resp, body := fetchPage(t, hc, s.URL+"/page")
	r := tr.Receipt(resp, body)
	if r.Usage != (Usage{}) || len(r.Signals) != 0 {
		t.Errorf("receipt usage %q, signals %q; want none", r.Usage, sigs(r.Signals))
	}
	if u := tr.Usage(resp); u != (Usage{}) {
		t.Errorf("Transport.Usage %q, want none", u)
	}
	d, err := c.Check(t.Context(), s.URL+"/page")
	if err != nil || d.Usage != (Usage{}) {
		t.Errorf("Check: usage %q, %v; want none", d.Usage, err)
	}
	if ok, err := c.Allowed(t.Context(), s.URL+"/private/x"); ok || err != nil {
		t.Errorf("/private/x allowed %v, %v; want disallowed by the group it joins", ok, err)
	}
}

// TestReceiptJoinedGroupGetsItsRefusals: a crawler whose user-agent line
// joins the group of statements made for crawlers named before it obeys
// the group's rules, and their refusals, not their yes (consent84: a
// Crawl-delay or Sitemap between, or Cloudflare's layout with one more
// user-agent line, lost the group's train-ai=n for ExampleBot in
// Robots.Usage, the Decision and the receipt); a statement a crawler's
// own lines make whole is read whole.
func TestReceiptJoinedGroupGetsItsRefusals(t *testing.T) {
	checkLeaks(t)
	for _, tc := range []struct {
		name, file string
		usage      string   // ExampleBot's
		signals    []string // its receipt's
	}{
		{"a crawl-delay between", "User-agent: ExampleBot\nCrawl-delay: 1\nUser-agent: *\nContent-Usage: train-ai=n, search=y\nDisallow: /private/\n",
			"train-ai=n", []string{"robots.txt train-ai n line 4"}},
		{"a sitemap between", "User-agent: ExampleBot\nSitemap: http://a.test/s.xml\nUser-agent: *\nContent-Usage: /page train-ai=n\nContent-Usage: /page/open/x train-ai=y\nDisallow: /private/\n",
			"train-ai=n", []string{"robots.txt train-ai n line 4"}},
		{"a longer yes of its lines takes it back", "User-agent: ExampleBot\nSitemap: http://a.test/s.xml\nUser-agent: *\nContent-Usage: /page train-ai=n\nContent-Usage: /page/open train-ai=y\nDisallow: /private/\n",
			"", nil},
		{"Content-Signal of * before the next agent", "User-agent: *\nContent-Signal: search=yes, ai-train=no\nUser-agent: ExampleBot\nDisallow: /private/\n",
			"train-ai=n", []string{"content-signal train-ai n line 2"}},
		{"its own and another's", "User-agent: ExampleBot\nContent-Usage: train-ai=y, search=y\nUser-agent: *\nContent-Usage: search=n\nDisallow: /private/\n",
			"train-ai=y, search=n", []string{"robots.txt train-ai y line 2", "robots.txt search y line 2", "robots.txt search n line 4"}},
		{"named twice, read whole", "User-agent: ExampleBot\nContent-Usage: train-ai=y, search=n\nUser-agent: *\nUser-agent: examplebot\nDisallow: /private/\n",
			"train-ai=y, search=n", []string{"robots.txt train-ai y line 2", "robots.txt search n line 2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSite(t, tc.file)
			c, tr, hc := newTestTransport(t) // as ExampleBot
			if ok, _ := c.Allowed(t.Context(), s.URL+"/private/x"); ok {
				t.Fatal("/private/x allowed: ExampleBot does not obey the group")
			}
			if u := Parse([]byte(tc.file)).Usage("ExampleBot", s.URL+"/page/open"); u.statement() != tc.usage {
				t.Errorf("Robots.Usage %q, want %q", u.statement(), tc.usage)
			}
			if d, err := c.Check(t.Context(), s.URL+"/page/open"); err != nil || d.Usage.statement() != tc.usage {
				t.Errorf("Check: usage %q, %v; want %q", d.Usage.statement(), err, tc.usage)
			}
			resp, body := fetchPage(t, hc, s.URL+"/page/open")
			if r := tr.Receipt(resp, body); r.Usage.statement() != tc.usage || !slices.Equal(sigs(r.Signals), tc.signals) {
				t.Errorf("receipt: usage %q, signals %q; want %q, %q", r.Usage.statement(), sigs(r.Signals), tc.usage, tc.signals)
			}
		})
	}
}

// TestReceiptCutLineIsUnreadable: a Content-Usage rule or Content-Signal
// record cut short (here at a NUL byte) is listed Where "unreadable", with
// what it is read as and why, not as the statement the parser made of it
// quoted at its line as if the site wrote it (review128).
func TestReceiptCutLineIsUnreadable(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nContent-Usage: search=n, train-ai=y\x00 (cut)\nContent-Signal: search=yes, ai-train=yes\x00 (cut)\n")
	_, tr, hc := newTestTransport(t)
	resp, body := fetchPage(t, hc, s.URL+"/page")
	r := tr.Receipt(resp, body)
	if r.Usage.Pref("train-ai") != PrefNo || r.Usage.Pref("search") != PrefNo {
		t.Errorf("usage %q, want train-ai=n and search=n (the rule's, over the record's yes)", r.Usage)
	}
	for _, sg := range r.Signals {
		if sg.Where != "unreadable" || !strings.Contains(sg.Value, "cut short") || sg.Pref != PrefNo {
			t.Errorf("signal %+v: want Where unreadable, saying the line is cut short, a refusal", sg)
		}
	}
	if len(r.Signals) != 3 {
		t.Errorf("signals %q, want the rule's two refusals and the record's one (its yes before the cut read as none)", sigs(r.Signals))
	}
}

// TestReceiptListsWhatUsageCounts: for random Content-Usage rules, some
// for other crawlers, and URLs a server may serve as other paths, in both
// modes, the robots.txt
// signals a receipt lists combine to what Decision.Usage counts
// (servedUsage): none is listed that the answer does not hold.
func TestReceiptListsWhatUsageCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(59, 1))
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	patterns := []string{"/", "/a/", "/b/", "/a/x", "/b/x$", "/*x", "/%61/"}
	statements := []string{"train-ai=y", "train-ai=n", "search=y", "search=n", "train-ai=y, search=n", "train-ai=y, search=y"}
	paths := []string{"/a/x", "/a/../b/x", "/b/../a/x", "/a/./x", "//a/x", "/b/%2e%2e/a/x", "/%61/x", "/b/x"}
	for _, mode := range []Mode{ModeGoogle, ModeRFC9309} {
		for range 3000 {
			text := "User-agent: *\n"
			for range 1 + rng.IntN(4) {
				if rng.IntN(3) == 0 { // a run of user-agent lines that joins the group
					text += "User-agent: " + pick([]string{"*", "examplebot", "OtherBot"}) + "\n"
				}
				text += "Content-Usage: " + pick(patterns) + " " + pick(statements) + "\n"
			}
			r, path := ParseMode([]byte(text), mode), pick(paths)
			want := servedUsage(r.agentRules("examplebot"), path)
			groups, named := r.t.AppendGroups(nil, "examplebot")
			runs := r.t.UsageRuns(nil, named, "examplebot")
			rd := reading{record: true}
			rd.robotsTxt(pathForms(path), robotsFile{t: r.t, mode: mode, runs: r.t.Theirs(runs, groups, runs)})
			var got Usage
			for _, s := range rd.signals {
				got = got.combine(Usage{s.Label + "=" + s.Pref.String()})
			}
			for _, label := range []string{"train-ai", "search"} {
				if got.Pref(label) != want.Pref(label) {
					t.Fatalf("mode %d, %s of\n%s: the signals %q combine to %s=%v, Decision.Usage counts %v",
						mode, path, text, sigs(rd.signals), label, got.Pref(label), want.Pref(label))
				}
			}
		}
	}
}

// TestReceiptBounds: a hostile site's signals are bounded, each source's
// kept in order, and the JSON stays one line whatever bytes it sent.
func TestReceiptBounds(t *testing.T) {
	checkLeaks(t)
	var robots strings.Builder
	robots.WriteString("User-agent: *\n")
	for i := range 40 {
		fmt.Fprintf(&robots, "Content-Usage: l%d=n, train-ai=y\n", i)
		fmt.Fprintf(&robots, "Content-Signal: ai-train=yes, k%d=no\n", i)
	}
	s := newTestSite(t, robots.String())
	var labels []string
	for i := range 100 {
		labels = append(labels, fmt.Sprintf("h%d=y", i))
	}
	long := strings.Repeat("x", 5000)
	s.route("/page", serve(200, `<head><meta name="tdm-policy" content="https://p/`+long+`"><meta name="tdm-reservation" content="1">`,
		"Content-Type", "text/html", "Content-Usage", strings.Join(labels, ", ")+", "+long+"=n, train-ai=y"))
	_, tr, hc := newTestTransport(t)
	resp, body := fetchPage(t, hc, s.URL+"/page")
	r := tr.Receipt(resp, body)
	count := map[string]int{}
	for _, s := range r.Signals {
		count[s.Source]++
		if len(s.Value) > maxSignalValue || len(s.Label) > maxSignalLabel {
			t.Errorf("signal %s: value of %d bytes", sig(s), len(s.Value))
		}
	}
	want := map[string]int{"robots.txt": 16, "content-signal": 16, "content-usage-header": 16, "tdm-meta": 1}
	if !reflect.DeepEqual(count, want) {
		t.Errorf("signals by source %v, want %v", count, want)
	}
	// 80 robots.txt signals, 80 content-signal, 102 header ones, of which
	// 16 of each are kept.
	if r.Dropped != 80+80+102-3*16 {
		t.Errorf("Dropped = %d", r.Dropped)
	}
	// The page's long policy is its own, cut and marked.
	if r.Usage.Pref("train-ai") != PrefNo || !strings.HasPrefix(r.TDMPolicy, "https://p/xxx") || !strings.HasSuffix(r.TDMPolicy, "…") ||
		len(r.TDMPolicy) > 512+len("…") {
		t.Errorf("usage %q, policy %q", r.Usage, r.TDMPolicy)
	}
	out, err := json.Marshal(r)
	if err != nil || bytes.ContainsAny(out, "\n\r") || len(out) > 64<<10 {
		t.Errorf("JSON of %d bytes, %v", len(out), err)
	}
}

// TestReceiptKeepsTheSignalOfEachNo: past a source's bound, a "no" takes
// the place of a signal that is not one, so that the Usage's "no" has its
// signal: 16 labels allowed before train-ai=n, in robots.txt and in the
// header, crowd out none of the two.
func TestReceiptKeepsTheSignalOfEachNo(t *testing.T) {
	checkLeaks(t)
	var labels []string
	for i := range 16 {
		labels = append(labels, fmt.Sprintf("x%d=y", i))
	}
	value := strings.Join(labels, ", ") + ", train-ai=n"
	s := newTestSite(t, "User-agent: *\nAllow: /\nContent-Usage: "+value+"\n")
	s.route("/page", serve(200, "page", "Content-Type", "text/plain", "Content-Usage", value))
	_, tr, hc := newTestTransport(t)
	resp, body := fetchPage(t, hc, s.URL+"/page")
	r := tr.Receipt(resp, body)
	var no []string
	count := map[string]int{}
	for _, s := range r.Signals {
		count[s.Source]++
		if s.Pref == PrefNo {
			no = append(no, s.Source+" "+s.Label)
		}
	}
	want := []string{"robots.txt train-ai", "content-usage-header train-ai"}
	if r.Usage.Pref("train-ai") != PrefNo || !reflect.DeepEqual(no, want) || r.Dropped != 2 {
		t.Errorf("usage %q, signals saying n %q, dropped %d; want train-ai=n, %q, 2", r.Usage, no, r.Dropped, want)
	}
	if count["robots.txt"] != maxSourceSignals || count["content-usage-header"] != maxSourceSignals {
		t.Errorf("signals by source %v, want %d of each", count, maxSourceSignals)
	}
	// A no of a label crawlers read outweighs 16 others saying no.
	labels = labels[:0]
	for i := range 16 {
		labels = append(labels, fmt.Sprintf("x%d=n", i))
	}
	s.route("/crowded", serve(200, "page", "Content-Type", "text/plain", "Content-Usage", strings.Join(labels, ", ")+", train-ai=n"))
	resp, body = fetchPage(t, hc, s.URL+"/crowded")
	r = tr.Receipt(resp, body)
	if !slices.ContainsFunc(r.Signals, func(s Signal) bool { return s.Source == "content-usage-header" && s.Label == "train-ai" }) || r.Dropped != 2 {
		t.Errorf("16 other labels saying n before train-ai=n: signals %q, dropped %d; want train-ai's listed", sigs(r.Signals), r.Dropped)
	}
	// So does a yes of one over 16 others saying yes.
	for i := range labels {
		labels[i] = fmt.Sprintf("x%d=y", i)
	}
	s.route("/yes", serve(200, "page", "Content-Type", "text/plain", "Content-Usage", strings.Join(labels, ", ")+", search=y"))
	resp, body = fetchPage(t, hc, s.URL+"/yes")
	r = tr.Receipt(resp, body)
	if !slices.ContainsFunc(r.Signals, func(s Signal) bool { return s.Source == "content-usage-header" && s.Label == "search" }) {
		t.Errorf("16 other labels saying y before search=y: signals %q; want search's listed", sigs(r.Signals))
	}
	// A yes of a label crawlers read outweighs 16 others saying no: it is
	// what a crawler acts on.
	for i := range labels {
		labels[i] = fmt.Sprintf("x%d=n", i)
	}
	s.route("/read", serve(200, "page", "Content-Type", "text/plain", "Content-Usage", strings.Join(labels, ", ")+", train-ai=y"))
	resp, body = fetchPage(t, hc, s.URL+"/read")
	r = tr.Receipt(resp, body)
	if !slices.ContainsFunc(r.Signals, func(s Signal) bool { return s.Source == "content-usage-header" && s.Label == "train-ai" }) {
		t.Errorf("16 other labels saying n before train-ai=y: signals %q; want train-ai's listed", sigs(r.Signals))
	}
	// The first signal of a label and preference outweighs a repeat of
	// another: 16 ai-train=no records crowd out no search=no.
	var records strings.Builder
	records.WriteString("User-agent: *\nAllow: /\n")
	for range 16 {
		records.WriteString("Content-Signal: ai-train=no\n")
	}
	records.WriteString("Content-Signal: search=no\n")
	s2 := newTestSite(t, records.String())
	s2.route("/page", serve(200, "page", "Content-Type", "text/plain"))
	resp, body = fetchPage(t, hc, s2.URL+"/page")
	r = tr.Receipt(resp, body)
	if r.Usage.Pref("search") != PrefNo || !slices.ContainsFunc(r.Signals, func(s Signal) bool { return s.Label == "search" }) || r.Dropped != 1 {
		t.Errorf("16 records saying ai-train=no before search=no: usage %q, signals %q, dropped %d; want search's listed", r.Usage, sigs(r.Signals), r.Dropped)
	}
}

// TestReceiptLogValueAsText: through slog's TextHandler a receipt's
// signals are written as their JSON, names and quotes kept: a site's
// Content-Signal header cannot make the line show a signal the receipt
// does not hold (receipt82: fmt's %+v wrote Go names, the site's text
// undelimited).
func TestReceiptLogValueAsText(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("a.test/p", serve(200, "page", "Content-Signal",
		"search=yes, x} {Source:robots.txt Label:train-ai Pref:y Where:line 2 Value:train-ai=y"))
	c := newTestClient(t, WithUserAgent(testUA), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	tr := NewTransport(c, w.transport(t))
	resp, body := fetchPage(t, &http.Client{Transport: tr}, "http://a.test/p")
	r := tr.Receipt(resp, body)
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("page", "receipt", r)
	line := buf.String()
	// The signals read back from the line are the receipt's.
	_, rest, _ := strings.Cut(line, "receipt.signals=")
	quoted, err := strconv.QuotedPrefix(rest)
	logged, _ := strconv.Unquote(quoted)
	want, _ := json.Marshal(r.Signals)
	if err != nil || logged != string(want) {
		t.Errorf("signals logged as %q (%v); want the receipt's, as JSON: %s", rest, err, want)
	}
}

// TestReceiptLogValue logs a receipt through slog's JSON handler.
func TestReceiptLogValue(t *testing.T) {
	r := Receipt{URL: "https://example.com/a", Agent: "ExampleBot", Usage: parseUsage("train-ai=n, use=reference"),
		Signals:  []Signal{{Source: "tdm-header", Label: "train-ai", Pref: PrefNo, Where: "tdm-reservation", Value: "1"}},
		Robots:   &RobotsEvidence{Authority: "https://example.com:443", Status: 200, Outcome: "rules", SHA256: "ab", RuleLine: 3},
		Licenses: []string{}, TDMPolicy: "https://example.com/p"}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("page", "receipt", r)
	var got struct {
		Receipt struct {
			URL     string            `json:"url"`
			Usage   map[string]string `json:"usage"`
			Signals []map[string]any  `json:"signals"`
			Robots  map[string]any    `json:"robots"`
			Policy  string            `json:"tdm_policy"`
		} `json:"receipt"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, buf.Bytes())
	}
	g := got.Receipt
	if g.URL != r.URL || !reflect.DeepEqual(g.Usage, map[string]string{"train-ai": "n"}) || len(g.Signals) != 1 ||
		g.Signals[0]["pref"] != "n" || g.Robots["rule"] != 3.0 || g.Policy != r.TDMPolicy {
		t.Errorf("logged %s", buf.Bytes())
	}
}

// TestReceiptLogValueAsJSON: a receipt logged through slog's JSON handler
// has the fields its JSON has, an empty usage and a robots.txt that is
// not stale among them.
func TestReceiptLogValueAsJSON(t *testing.T) {
	for _, r := range []Receipt{
		{URL: "https://example.com/a", Signals: []Signal{}, Licenses: []string{}, Robots: &RobotsEvidence{Outcome: "allow-all", Status: 404}},
		{URL: "https://example.com/b", Usage: parseUsage("train-ai=n"), Signals: []Signal{}, Licenses: []string{},
			Robots: &RobotsEvidence{Outcome: "rules", Status: 200, Stale: true}},
		{URL: "https://example.com/c", Signals: []Signal{}, Licenses: []string{},
			Robots: &RobotsEvidence{Outcome: "rules", Status: 200, FinalURL: "https://cdn.example/robots.txt"}},
	} {
		var buf bytes.Buffer
		slog.New(slog.NewJSONHandler(&buf, nil)).Info("page", "receipt", r)
		var logged struct{ Receipt map[string]any }
		if err := json.Unmarshal(buf.Bytes(), &logged); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r)
		var marshalled map[string]any
		if err := json.Unmarshal(b, &marshalled); err != nil {
			t.Fatal(err)
		}
		delete(logged.Receipt, "fetched_at") // slog writes time its own way
		delete(marshalled, "fetched_at")
		for _, m := range []map[string]any{logged.Receipt["robots"].(map[string]any), marshalled["robots"].(map[string]any)} {
			delete(m, "fetched_at")
		}
		if !reflect.DeepEqual(logged.Receipt, marshalled) {
			t.Errorf("slog: %v\nJSON: %v", logged.Receipt, marshalled)
		}
	}
}

// FuzzReceipt reads any headers and body (of a response without its
// request, which needs no robots.txt): the receipt marshals to one line,
// stays bounded, and when no signal was dropped its Usage is what the
// signals that count say; Transport.Usage is the receipt's without the
// body.
func FuzzReceipt(f *testing.F) {
	f.Add("train-ai=n, search=y", "noai", "1", "https://p", "text/html", `<meta name="tdm-reservation" content="0">`)
	f.Add("train-ai=y", "examplebot: noimageai", "0", "", "image/png", "")
	f.Add("", "", "", "", "", `<meta name=robots content="noai"><meta name=tdm-policy content="x">`)
	c := NewClient(WithUserAgent(testUA))
	defer c.Close()
	tr := NewTransport(c, nil)
	f.Fuzz(func(t *testing.T, usage, xrobots, tdm, policy, ctype, body string) {
		h := http.Header{}
		for k, v := range map[string]string{"Content-Usage": usage, "X-Robots-Tag": xrobots, "Tdm-Reservation": tdm, "Tdm-Policy": policy, "Content-Type": ctype} {
			if v != "" {
				h[k] = strings.Split(v, "\n")
			}
		}
		resp := &http.Response{Header: h}
		r := tr.Receipt(resp, []byte(body))
		out, err := json.Marshal(r)
		if err != nil || bytes.ContainsAny(out, "\n\r") {
			t.Fatalf("JSON %s, %v", out, err)
		}
		if len(r.Signals) > 8*maxSourceSignals || len(r.TDMPolicy) > maxServerText {
			t.Fatalf("%d signals, policy of %d bytes", len(r.Signals), len(r.TDMPolicy))
		}
		if r.Dropped == 0 {
			var u Usage
			for _, s := range r.Signals {
				if s.Pref != PrefUnknown {
					u = u.combine(Usage{s.Label + "=" + s.Pref.String()})
				}
			}
			for _, l := range []string{"train-ai", "search", "ai-input"} {
				if u.Pref(l) != r.Usage.Pref(l) {
					t.Fatalf("%s: signals say %v, Usage %q; signals %q", l, u.Pref(l), r.Usage, sigs(r.Signals))
				}
			}
		}
		if u, v := tr.Usage(resp), tr.Receipt(resp, nil).Usage; u != v {
			t.Fatalf("Usage %q, Receipt without the body %q", u, v)
		}
	})
}

// TestTransportUsage checks what Transport.Usage combines: robots.txt's
// Content-Usage rules for the request's URL, the Content-Usage header,
// and the older signals mapped to train-ai=n.
func TestTransportUsage(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: ExampleBot\nDisallow: /private/\nContent-Usage: /blog/ train-ai=y\nContent-Usage: /gallery/ train-ai=y\n")
	routes := []struct {
		path    string
		headers []string // name, value, …: each a line of its own
		want    string
	}{
		{"/blog/post", nil, "train-ai=y"},
		{"/page", []string{"Content-Usage", "search=y"}, "search=y"},
		{"/blog/header-n", []string{"Content-Usage", "train-ai=n"}, "train-ai=n"},
		{"/blog/two-lines", []string{"Content-Usage", "search=n", "Content-Usage", "train-ai=y;q=1"}, "train-ai=y, search=n"},
		{"/blog/bad-header", []string{"Content-Usage", "Train-AI=n"}, "train-ai=y"},
		{"/blog/empty-line-after", []string{"Content-Usage", "train-ai=n", "Content-Usage", ""}, "train-ai=n"},
		{"/blog/blank-line-before", []string{"Content-Usage", " \t", "Content-Usage", "train-ai=n"}, "train-ai=n"},
		{"/blog/comma-line-after", []string{"Content-Usage", "train-ai=n", "Content-Usage", " , "}, "train-ai=n"}, // meta89
		{"/blog/comma-line-before", []string{"Content-Usage", ",", "Content-Usage", "train-ai=n"}, "train-ai=n"},
		{"/blog/joined-empty-after", []string{"Content-Usage", "train-ai=n, "}, "train-ai=n"}, // a proxy's join: review162
		{"/blog/joined-empty-before", []string{"Content-Usage", " ,train-ai=n"}, "train-ai=n"},
		{"/blog/empty-member-within", []string{"Content-Usage", "search=y, , train-ai=n"}, "train-ai=n, search=y"}, // review164
		{"/blog/comma-quoted", []string{"Content-Usage", `train-ai=n;note=", ,", search=y`}, "train-ai=n, search=y"},
		{"/blog/comma-escaped-quote", []string{"Content-Usage", `train-ai=n;note="a\", ,", search=y`}, "train-ai=n, search=y"},
		{"/blog/bad-member", []string{"Content-Usage", "train-ai=n, search=?"}, "train-ai=y"}, // no Dictionary
		{"/blog/noai", []string{"X-Robots-Tag", "noai"}, "train-ai=n"},
		{"/blog/noai-for-us", []string{"X-Robots-Tag", "ExampleBot: noindex, NoAI"}, "train-ai=n"},
		{"/blog/noai-for-others", []string{"X-Robots-Tag", "otherbot: noai"}, "train-ai=y"},
		{"/gallery/cat.png", []string{"Content-Type", "image/png", "X-Robots-Tag", "noimageai"}, "train-ai=n"},
		{"/gallery/index.html", []string{"Content-Type", "text/html", "X-Robots-Tag", "noimageai"}, "train-ai=y"},
		{"/blog/tdm", []string{"Tdm-Reservation", "1"}, "train-ai=n"},
		{"/blog/tdm-not-reserved", []string{"tdm-reservation", "0"}, "train-ai=y"},
		{"/page/all", []string{"Content-Usage", "search=y", "X-Robots-Tag", "noai", "Tdm-Reservation", "1"}, "search=y, train-ai=n"},
	}
	for _, r := range routes {
		s.route(r.path, func(w http.ResponseWriter, _ *http.Request) {
			for i := 0; i+1 < len(r.headers); i += 2 {
				w.Header().Add(r.headers[i], r.headers[i+1])
			}
			_, _ = io.WriteString(w, "content")
		})
	}
	_, tr, hc := newTestTransport(t)
	for _, r := range routes {
		resp, err := hc.Get(s.URL + r.path)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if got := tr.Usage(resp); got.statement() != r.want {
			t.Errorf("%s: Usage %q, want %q", r.path, got, r.want)
		}
	}

	// A response for a URL robots.txt disallows (fetched by SkipRobots)
	// has the header's preferences only.
	s.route("/private/x", serve(200, "secret", "Content-Usage", "search=y"))
	req, _ := http.NewRequestWithContext(SkipRobots(t.Context()), http.MethodGet, s.URL+"/private/x", nil)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if got := tr.Usage(resp); got.statement() != "search=y" {
		t.Errorf("disallowed URL: Usage %q, want the header's search=y", got)
	}
	resp.Request = nil
	if got := tr.Usage(resp); got.statement() != "train-ai=n, search=y" {
		t.Errorf("a response without its request: Usage %q, want train-ai=n and the header's search=y", got)
	}
	if got := tr.Usage(nil); got != (Usage{}) {
		t.Errorf("Usage(nil) = %q", got)
	}
}

// TestTransportUsageContentSignal: Transport.Usage reads robots.txt's
// Content-Signal records, in the AIPREF vocabulary, those before any group
// included, as the Content-Usage rules (it read neither before).
func TestTransportUsageContentSignal(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "Content-Signal: ai-train=no, search=yes\nUser-agent: *\nDisallow: /private/\n")
	_, tr, hc := newTestTransport(t)
	resp, err := hc.Get(s.URL + "/page")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if u := tr.Usage(resp); u.Pref("train-ai") != PrefNo || u.Pref("search") != PrefYes {
		t.Errorf("Usage = %q, want train-ai=n, search=y", u)
	}
}

// BenchmarkReceipt measures what a page's answer costs, warm, against a
// robots.txt of the corpus sample (6 KB, a Content-Usage rule and a
// Content-Signal record added) and a page whose head is 4 KB: Usage, the
// receipt of the headers and of the body, beside PageDirectives, which a
// crawler reads for every page already.
func BenchmarkReceipt(b *testing.B) {
	robots, err := os.ReadFile(filepath.Join(corpusSample, "files", "1493.txt"))
	if err != nil {
		b.Fatal(err)
	}
	robots = append(robots, "\nUser-agent: ExampleBot\nAllow: /\nContent-Usage: /a/ train-ai=n\nContent-Signal: search=yes, ai-train=no\n"...)
	s := newTestSite(b, string(robots))
	page := "<html><head><title>t</title>" + strings.Repeat(`<meta property="og:x" content="a fairly long value for a tag">`, 64) +
		`<meta name="robots" content="max-snippet:50"><meta name="tdm-reservation" content="1"></head><body>` + strings.Repeat("text ", 2000)
	s.route("/a/page", serve(200, page, "Content-Type", "text/html", "Content-Usage", "search=y"))
	_, tr, hc := newTestTransport(b)
	resp, err := hc.Get(s.URL + "/a/page")
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	// The page as XHTML, read as XML.
	xhtml := []byte(xhtmlProlog + xhtmlRoot + "<head><title>t</title>" + strings.Repeat(`<meta property="og:x" content="a fairly long value for a tag"/>`, 64) +
		`<meta name="robots" content="max-snippet:50"/><meta name="tdm-reservation" content="1"/></head><body><p>` + strings.Repeat("text ", 2000) + "</p></body></html>")
	xresp := *resp
	xresp.Header, xresp.ContentLength = resp.Header.Clone(), int64(len(xhtml))
	xresp.Header.Set("Content-Type", "application/xhtml+xml")
	if r := tr.Receipt(&xresp, xhtml); r.TDMPolicy != "" || !slices.Contains(sigs(r.Signals), "tdm-meta train-ai n tdm-reservation") {
		b.Fatalf("XHTML receipt: signals %q", sigs(r.Signals))
	}
	for _, bm := range []struct {
		name string
		f    func()
	}{
		{"PageDirectives", func() { tr.PageDirectives(resp, body) }},
		{"Usage", func() { tr.Usage(resp) }},
		{"Receipt/headers", func() { tr.Receipt(resp, nil) }},
		{"Receipt/body", func() { tr.Receipt(resp, body) }},
		{"Receipt/xhtml", func() { tr.Receipt(&xresp, xhtml) }},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bm.f()
			}
		})
	}
}

// TestReceiptTDMRepFile: under WithTDMRep the receipt reads the site's
// /.well-known/tdmrep.json, fetched once per site and shared through the
// Store: the first entry that matches decides, a file that cannot be read
// or fetched reads as a reservation, a site without one states nothing,
// and a Client whose Store fails fetches the file itself.
func TestReceiptTDMRepFile(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	for _, h := range []string{"a", "b", "c", "d"} {
		w.on(h+".test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
		for _, p := range []string{"/news/x", "/about"} {
			w.on(h+".test"+p, serve(200, "page", "Content-Type", "text/plain"))
		}
	}
	w.on("a.test"+tdmrepPath, serve(200, `[{"location": "/news/", "tdm-reservation": 1, "tdm-policy": "https://a.test/policy.json"},
		{"location": "/", "tdm-reservation": 0}]`))
	w.on("b.test"+tdmrepPath, serve(503, "down"))
	w.on("c.test"+tdmrepPath, serve(404, "none"))
	w.on("d.test"+tdmrepPath, serve(200, `{"location": "/"}`))
	w.on("a.test/news/own", serve(200, "page", "Content-Type", "text/plain", "Tdm-Policy", "https://a.test/own.json"))
	store := newMemStore()
	receipt := func(store Store, url string) Receipt {
		c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA), WithTDMRep(), WithStore(store)})
		t.Cleanup(func() { _ = c.Close() })
		resp, body := fetchPage(t, &http.Client{Transport: tr}, url)
		return tr.Receipt(resp, body)
	}
	for _, tc := range []struct {
		url, usage, policy string
		signals            []string
	}{
		{"http://a.test/news/x", "train-ai=n", "https://a.test/policy.json", []string{"tdmrep.json train-ai n entry 1"}},
		// The page's own policy replaces its site's.
		{"http://a.test/news/own", "train-ai=n", "https://a.test/own.json", []string{"tdmrep.json train-ai n entry 1"}},
		{"http://a.test/about", "", "", []string{"tdmrep.json train-ai unknown entry 2"}},
		{"http://b.test/about", "train-ai=n", "", []string{"tdmrep.json train-ai n unreachable"}},
		{"http://c.test/news/x", "", "", []string{}},
		{"http://d.test/about", "train-ai=n", "", []string{"tdmrep.json train-ai n unreachable"}},
	} {
		r := receipt(store, tc.url)
		if r.Usage.statement() != tc.usage || r.TDMPolicy != tc.policy || !reflect.DeepEqual(sigs(r.Signals), tc.signals) {
			t.Errorf("%s: usage %q, policy %q, signals %q; want %q, %q, %q",
				tc.url, r.Usage, r.TDMPolicy, sigs(r.Signals), tc.usage, tc.policy, tc.signals)
		}
	}
	if n := w.count("http://a.test" + tdmrepPath); n != 1 {
		t.Errorf("a.test's tdmrep.json fetched %d times by Clients sharing a Store, want once", n)
	}
	if v := receipt(store, "http://b.test/about").Signals[0].Value; !strings.Contains(v, "tdmrep.json unreachable (status 503)") {
		t.Errorf("b.test's signal says %q, want the tdmrep.json unreachable", v)
	}
	store.fail = errors.New("store down")
	if r := receipt(store, "http://a.test/news/x"); r.Usage.statement() != "train-ai=n" {
		t.Errorf("with the Store failing: usage %q, want train-ai=n", r.Usage)
	}
	if n := w.count("http://a.test" + tdmrepPath); n != 2 {
		t.Errorf("with the Store failing, a.test's tdmrep.json fetched %d times in all, want 2", n)
	}
}

// TestTDMOf reads TDMRep's three techniques together, the site's
// tdmrep.json included (the file as the Transport will get it, or the
// error it got), each a source: a 1 from any reserves, a 0 lifts no
// other's 1, and the policy is the most specific reserving technique's.
func TestTDMOf(t *testing.T) {
	file, err := tdmrep.Parse([]byte(`[
		{"location": "/reserved/", "tdm-reservation": 1, "tdm-policy": "https://example.com/file-policy"},
		{"location": "/open/*.jpg$", "tdm-reservation": 0},
		{"location": "/open/", "tdm-reservation": 1},
		{"location": "/free/", "tdm-reservation": 0, "tdm-policy": "https://example.com/f"}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	unreachable := errors.New("tdmrep.json unreachable (status 503)")
	tests := []struct {
		name    string
		file    *tdmrep.File
		err     error
		path    string
		header  []string // tdm-reservation, tdm-policy
		meta    meta.TDM
		usage   string
		signals []string
		policy  string
	}{
		{name: "no file", path: "/reserved/x", usage: "", signals: []string{}},
		{name: "the file reserves", file: file, path: "/reserved/x",
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n entry 1"}, policy: "https://example.com/file-policy"},
		{name: "the first entry that matches decides", file: file, path: "/open/cat.jpg",
			usage: "", signals: []string{"tdmrep.json train-ai unknown entry 2"}},
		{name: "a later entry", file: file, path: "/open/cat.png",
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n entry 3"}},
		{name: "no entry matches", file: file, path: "/elsewhere", usage: "", signals: []string{}},
		{name: "a normal form the file reserves", file: file, path: "/open/x/../../reserved/a.jpg",
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n entry 1"}, policy: "https://example.com/file-policy"},
		// Each technique is a source: a 1 from any is train-ai=n, which
		// a 0 from another does not lift.
		{name: "a header's 0 does not lift the file's 1", file: file, path: "/reserved/x", header: []string{"0", ""},
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n entry 1", "tdm-header train-ai unknown tdm-reservation"},
			policy: "https://example.com/file-policy"},
		{name: "the header reserves what the file does not", file: file, path: "/open/a.jpg", header: []string{"1", "https://example.com/h"},
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai unknown entry 2", "tdm-header train-ai n tdm-reservation"},
			policy: "https://example.com/h"},
		{name: "a META's 0 lifts neither", file: file, path: "/reserved/x", header: []string{"1", ""}, meta: meta.TDM{Reservation: "0"},
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n entry 1", "tdm-header train-ai n tdm-reservation",
				"tdm-meta train-ai unknown tdm-reservation"}, policy: "https://example.com/file-policy"},
		{name: "a policy stands when a more specific technique gives none", file: file, path: "/reserved/x", meta: meta.TDM{Reservation: "1"},
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n entry 1", "tdm-meta train-ai n tdm-reservation"},
			policy: "https://example.com/file-policy"},
		{name: "the most specific policy", file: file, path: "/reserved/x", meta: meta.TDM{Reservation: "1", Policy: "https://example.com/m"},
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n entry 1", "tdm-meta train-ai n tdm-reservation"},
			policy: "https://example.com/m"},
		// TDMRep: a value absent does not reset one given (consent80).
		{name: "a policy beside a 0 stands for a reservation without one", path: "/x", header: []string{"0", "https://example.com/h"}, meta: meta.TDM{Reservation: "1"},
			usage: "train-ai=n", signals: []string{"tdm-header train-ai unknown tdm-reservation", "tdm-meta train-ai n tdm-reservation"},
			policy: "https://example.com/h"},
		{name: "the narrowest policy beside a 0 stands", file: file, path: "/free/x", header: []string{"0", "https://example.com/h"}, meta: meta.TDM{Reservation: "1"},
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai unknown entry 4", "tdm-header train-ai unknown tdm-reservation", "tdm-meta train-ai n tdm-reservation"},
			policy: "https://example.com/h"},
		{name: "a policy beside the last 0 is not reported", path: "/x", header: []string{"1", ""}, meta: meta.TDM{Reservation: "0", Policy: "https://example.com/m"},
			usage: "train-ai=n", signals: []string{"tdm-header train-ai n tdm-reservation", "tdm-meta train-ai unknown tdm-reservation"}},
		{name: "a policy beside a 0 yields to one beside a 1", file: file, path: "/open/a.jpg", header: []string{"1", "https://example.com/h"},
			meta:  meta.TDM{Reservation: "0", Policy: "https://example.com/m"},
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai unknown entry 2", "tdm-header train-ai n tdm-reservation",
				"tdm-meta train-ai unknown tdm-reservation"}, policy: "https://example.com/h"},
		{name: "a policy without a reservation is not reported", path: "/x", header: []string{"", "https://example.com/h"},
			usage: "", signals: []string{}},
		{name: "unreachable: train-ai=n", err: unreachable, path: "/x",
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n unreachable"}},
		{name: "unreachable: a header of 0 does not lift it", err: unreachable, path: "/x", header: []string{"0", ""},
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n unreachable", "tdm-header train-ai unknown tdm-reservation"}},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.header != nil {
			if tt.header[0] != "" {
				h.Set("Tdm-Reservation", tt.header[0])
			}
			if tt.header[1] != "" {
				h.Set("Tdm-Policy", tt.header[1])
			}
		}
		rd := reading{record: true, signals: []Signal{}}
		policy := rd.tdmOf(tt.file, tt.err, tt.path, h, tt.meta)
		if rd.usage.statement() != tt.usage || !reflect.DeepEqual(sigs(rd.signals), tt.signals) || policy != tt.policy {
			t.Errorf("%s: usage %q, signals %q, policy %q;\nwant %q, %q, %q", tt.name, rd.usage, sigs(rd.signals), policy, tt.usage, tt.signals, tt.policy)
		}
		if tt.err != nil && rd.signals[0].Value != tt.err.Error() {
			t.Errorf("%s: value %q", tt.name, rd.signals[0].Value)
		}
	}
}

// TestTDMHeaderValues: a header field of 1 among others reserves; values
// that are neither 0 nor 1 are protocol errors, read as absent.
func TestTDMHeaderValues(t *testing.T) {
	for _, tc := range []struct {
		values []string
		usage  string
		n      int // signals
	}{
		{[]string{"1"}, "train-ai=n", 1},
		{[]string{" 1 "}, "train-ai=n", 1},
		{[]string{"0", "1"}, "train-ai=n", 1},
		{[]string{"1", "0"}, "train-ai=n", 1},
		{[]string{"0"}, "", 1},
		{[]string{"yes"}, "", 0},
		{[]string{"true", "0"}, "", 1},
		{[]string{"2"}, "", 0},
	} {
		rd := reading{record: true}
		rd.tdmOf(nil, nil, "/", http.Header{"Tdm-Reservation": tc.values}, meta.TDM{})
		if rd.usage.statement() != tc.usage || len(rd.signals) != tc.n {
			t.Errorf("%q: usage %q, signals %q", tc.values, rd.usage, sigs(rd.signals))
		}
	}
}

// signalsOf returns the signals behind r.Usage for url: for each
// label a deciding Content-Usage rule (source "robots.txt") or a
// Content-Signal record that applies (source "content-signal") states y
// or n for, a Signal with the rule's line, the rules first, each kind in
// line order, at most 16 of each; nil for a URL Allowed refuses.
func signalsOf(r *Robots, agent, url string) []Signal {
	groups, path := r.groups(agent), match.Path(url)
	if ok, _ := decide(r.t, r.mode, groups, path); !ok {
		return nil
	}
	rd := reading{record: true}
	rd.robotsTxt([]string{path}, robotsFile{t: r.t, mode: r.mode, runs: groups})
	return rd.signals
}

func TestRobotsSignals(t *testing.T) {
	r := Parse([]byte("Content-Signal: ai-train=no, search=yes\nUser-agent: *\nDisallow: /private/\n" +
		"Content-Usage: /a/ train-ai=y\nContent-Usage: /a/ search=n, use=reference\nContent-Usage: train-ai=n\n" +
		"Content-Signal: ai-input=no, odd=maybe\n"))
	tests := []struct {
		url  string
		want []string
	}{
		{"/a/x", []string{"robots.txt train-ai y line 4", "robots.txt search n line 5",
			"content-signal train-ai n line 1", "content-signal search y line 1", "content-signal ai-input n line 7"}},
		{"/b", []string{"robots.txt train-ai n line 6",
			"content-signal train-ai n line 1", "content-signal search y line 1", "content-signal ai-input n line 7"}},
		{"/private/x", nil},
	}
	for _, tt := range tests {
		got := signalsOf(r, "ExampleBot", tt.url)
		if tt.want == nil {
			if got != nil {
				t.Errorf("Signals(%q) = %q, want nil", tt.url, sigs(got))
			}
			continue
		}
		if !reflect.DeepEqual(sigs(got), tt.want) {
			t.Errorf("Signals(%q) = %q,\nwant %q", tt.url, sigs(got), tt.want)
		}
		// Robots.Usage is what the signals say.
		var u Usage
		for _, s := range got {
			u = u.combine(Usage{s.Label + "=" + s.Pref.String()})
		}
		for _, l := range []string{"train-ai", "search", "ai-input"} {
			if u.Pref(l) != r.Usage("ExampleBot", tt.url).Pref(l) {
				t.Errorf("%s %s: signals %v, Usage %q", tt.url, l, u.Pref(l), r.Usage("ExampleBot", tt.url))
			}
		}
	}
	if s := signalsOf(r, "ExampleBot", "/a/x")[1]; s.Value != "search=n, use=reference" {
		t.Errorf("Value %q", s.Value)
	}
}

func TestTransportDirectives(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	s.route("/tagged.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("X-Robots-Tag", "noarchive")
		w.Header().Add("X-Robots-Tag", "examplebot: nofollow")
		w.Header().Add("X-Robots-Tag", "otherbot: noindex")
		_, _ = io.WriteString(w, "page")
	})
	_, tr, hc := newTestTransport(t)
	resp, err := hc.Get(s.URL + "/tagged.html")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	d := tr.headerDirectives(resp)
	if !d.Index() || d.Follow() || !d.NoArchive {
		t.Errorf("Directives = %+v, want index, nofollow, noarchive", d)
	}
	if d := tr.headerDirectives(nil); !d.Index() || !d.Follow() {
		t.Errorf("Directives(nil) = %+v, want the zero value", d)
	}
}

// TestTransportPageDirectives reads a page for a crawler known by a
// Mozilla-style User-Agent: the header and the META tags named for its
// product token and for robots all count, merged.
func TestTransportPageDirectives(t *testing.T) {
	checkLeaks(t)
	const head = `<!doctype html><html><head><title>x</title>
<meta name="XBot" content="noindex">
<meta name="robots" content="nofollow, max-snippet:20">
<meta name="OtherBot" content="noarchive">
</head><body><meta name="robots" content="noimageindex">`
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	s.route("/page.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("X-Robots-Tag", "xbot: nosnippet, unavailable_after: 2030-01-02")
		w.Header().Add("X-Robots-Tag", "otherbot: notranslate")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, head)
	})
	s.route("/plain.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, head)
	})
	s.route("/untyped", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // no sniffing by the server
		_, _ = io.WriteString(w, head)
	})
	c := newTestClient(t, WithUserAgent("Mozilla/5.0 (compatible; XBot/1.0; +https://example.com/bot)"))
	tr := NewTransport(c, nil)
	hc := &http.Client{Transport: tr}
	read := func(path string) (*http.Response, []byte) { return fetchPage(t, hc, s.URL+path) }

	resp, body := read("/page.html")
	want := meta.Directives{NoIndex: true, NoFollow: true, NoSnippet: true,
		UnavailableAfter: time.Date(2030, 1, 2, 0, 0, 0, 0, time.UTC), Other: []string{"max-snippet:20"}}
	if got := tr.PageDirectives(resp, body); !reflect.DeepEqual(got, want) {
		t.Errorf("PageDirectives = %+v,\nwant %+v", got, want)
	}
	if got := tr.headerDirectives(resp); got.NoIndex || got.NoFollow || !got.NoSnippet {
		t.Errorf("Directives (header only) = %+v", got)
	}
	// META tags past the prefix read are not seen: the page says no to
	// everything, since they might.
	padded := append([]byte("<html><head>"+strings.Repeat(" ", 1<<20)), body...)
	if got := tr.PageDirectives(resp, padded); !reflect.DeepEqual(got.Merge(unreadPage), got) || len(got.Other) != 0 {
		t.Errorf("PageDirectives of a head past the first mebibyte: %+v", got)
	}

	// A body that is not HTML has no META tags; one without a
	// Content-Type is read when it looks like HTML.
	if resp, body := read("/plain.txt"); tr.PageDirectives(resp, body).NoIndex {
		t.Error("META tags read from a text/plain body")
	}
	if resp, body := read("/untyped"); resp.Header.Get("Content-Type") != "" || !tr.PageDirectives(resp, body).NoIndex {
		t.Errorf("META tags not read from an untyped HTML body (Content-Type %q)", resp.Header.Get("Content-Type"))
	}
	if d := tr.PageDirectives(nil, body); !reflect.DeepEqual(d, meta.Directives{}) {
		t.Errorf("PageDirectives(nil, …) = %+v, want the zero value", d)
	}
}

// dropRequest is a RoundTripper that returns responses without their
// Request, as a cache or a test double may.
type dropRequest struct{ next http.RoundTripper }

func (d dropRequest) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := d.next.RoundTrip(req)
	if resp != nil {
		resp.Request = nil
	}
	return resp, err
}

// TestReceiptTDMRepPageInAnyCharsetOrLength: a tdmrep.json that is the
// page a site serves for every path it lacks is no file, also in Latin-1
// naming no charset, and past the size a tdmrep.json may have; each read
// as an unreadable file, reserving every page of the site (review163).
func TestReceiptTDMRepPageInAnyCharsetOrLength(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA), WithTDMRep()})
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	for i, soft := range []struct{ body, ctype string }{
		{"<!DOCTYPE html><html><body>Page introuvable \xE0 cette adresse</body></html>", "text/html"},
		{"<!DOCTYPE html><html><head><script>" + strings.Repeat("var x = 1;\n", 30<<10) + "</script></head><body>Not found</body></html>", "text/html; charset=utf-8"},
	} {
		h := fmt.Sprintf("soft%d.test", i)
		w.on(h+"/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
		w.on(h+tdmrepPath, serve(200, soft.body, "Content-Type", soft.ctype))
		w.on(h+"/page", serve(200, "page", "Content-Type", "text/plain"))
		resp, body := fetchPage(t, hc, "http://"+h+"/page")
		if r := tr.Receipt(resp, body); r.Usage != (Usage{}) || len(r.Signals) != 0 {
			t.Errorf("tdmrep.json served as a page (%.30q…, %d bytes, %s): usage %q, signals %q; want no file", soft.body, len(soft.body), soft.ctype, r.Usage, sigs(r.Signals))
		}
	}
}

// TestReceiptOfTheSiteServed: a receipt reads the robots.txt and the
// tdmrep.json of the site a request's Host names, whose page the server
// returns; a next RoundTripper that drops the response's Request loses
// no signal; META tags count under a Content-Type with a parameter that
// does not parse; and a tdmrep.json that is an HTML page (a soft 404)
// is no file.
func TestReceiptOfTheSiteServed(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	open := serve(200, "User-agent: *\nAllow: /\n")
	for _, h := range []string{"a", "b", "c", "d"} {
		w.on(h+".test/robots.txt", open)
	}
	w.on("b.test"+tdmrepPath, serve(200, `[{"location": "/", "tdm-reservation": 1}]`))
	w.on("a.test/page", serve(200, "a's page", "Content-Type", "text/plain"))
	w.on("b.test/page", serve(200, "b's page", "Content-Type", "text/plain"))
	w.on("c.test/page", serve(200, `<html><head><meta name="robots" content="noai"></head>`, "Content-Type", "text/html; charset"))
	w.on("d.test"+tdmrepPath, serve(200, "<!DOCTYPE html><html><body>Not here</body></html>", "Content-Type", "text/html"))
	w.on("d.test/page", serve(200, "d's page", "Content-Type", "text/plain"))
	c, tr := NewClientTransport(dropRequest{w.transport(t)}, []Option{WithUserAgent(testUA), WithTDMRep()})
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}

	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://a.test/page", nil)
	req.Host = "b.test"
	resp, body := fetchPageReq(t, hc, req)
	if r := tr.Receipt(resp, body); r.Usage.statement() != "train-ai=n" || r.URL != "http://b.test/page" ||
		r.Robots == nil || r.Robots.Authority != "http://b.test:80" {
		t.Errorf("a.test's address, b.test's Host: usage %q, URL %q, robots %+v; want b.test's reservation", r.Usage, r.URL, r.Robots)
	}
	// Sent past the Transport (SkipRobots) to the address of a site whose
	// robots.txt disallows the page: the receipt is still b.test's.
	w.on("e.test/robots.txt", serve(200, "User-agent: *\nDisallow: /page\n"))
	req, _ = http.NewRequestWithContext(SkipRobots(t.Context()), http.MethodGet, "http://e.test/page", nil)
	req.Host = "b.test"
	c2, tr2 := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA), WithTDMRep()})
	t.Cleanup(func() { _ = c2.Close() })
	resp, body = fetchPageReq(t, &http.Client{Transport: tr2}, req)
	if r := tr2.Receipt(resp, body); r.Usage.statement() != "train-ai=n" || r.URL != "http://b.test/page" ||
		r.Robots == nil || r.Robots.Authority != "http://b.test:80" || tr2.Usage(resp).Pref("train-ai") != PrefNo {
		t.Errorf("unsent, e.test's address, b.test's Host: usage %q, URL %q, robots %+v; want b.test's reservation", r.Usage, r.URL, r.Robots)
	}
	resp, body = fetchPage(t, hc, "http://c.test/page")
	if r := tr.Receipt(resp, body); r.Usage.Pref("train-ai") != PrefNo {
		t.Errorf("noai under text/html; charset: usage %q, signals %q", r.Usage, sigs(r.Signals))
	}
	resp, body = fetchPage(t, hc, "http://d.test/page")
	if r := tr.Receipt(resp, body); r.Usage != (Usage{}) || r.Robots == nil {
		t.Errorf("a soft-404 tdmrep.json: usage %q, signals %q, robots %+v; want no file, and robots.txt read", r.Usage, sigs(r.Signals), r.Robots)
	}
	// Any page, however it starts, and an empty body are no file either.
	for i, soft := range []string{"<meta charset=utf-8><title>Not found</title>", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"/>`,
		"\xEF\xBB\xBF<!DOCTYPE html><p>gone", "\r\n  <link rel=stylesheet href=/s.css><p>gone", ""} {
		h := fmt.Sprintf("soft%d.test", i)
		w.on(h+"/robots.txt", open)
		w.on(h+tdmrepPath, serve(200, soft, "Content-Type", "text/html"))
		w.on(h+"/page", serve(200, "page", "Content-Type", "text/plain"))
		resp, body = fetchPage(t, hc, "http://"+h+"/page")
		if r := tr.Receipt(resp, body); r.Usage != (Usage{}) {
			t.Errorf("tdmrep.json %q: usage %q, signals %q; want no file", soft, r.Usage, sigs(r.Signals))
		}
	}
}

// TestReceiptCountsTheServerSentTo: a request whose Host names another
// site than the server it is sent to (net/http keeping a caller's Host
// across a redirect to another server; a Host at another port), which
// the Transport checks against both sites' robots.txt files and sends in
// both sites' turns, has the refusals of both robots.txt files counted
// by Receipt and Usage: the server that sent the page says train-ai=n in
// its robots.txt (tdmrep82: only the Host's site was read, and the
// receipt said nothing of training). Its tdmrep.json is not read.
func TestReceiptCountsTheServerSentTo(t *testing.T) {
	site := func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			_, _ = w.Write([]byte("User-agent: *\nAllow: /\n"))
		case "/page", "/twin":
			// a protocol-relative redirect, as many sites send to their www twin
			w.Header().Set("Location", map[string]string{"/page": "//b.test/page", "/twin": "//www.a.test/page"}[r.URL.Path])
			w.WriteHeader(http.StatusMovedPermanently)
		default:
			http.NotFound(w, r)
		}
	}
	other := func(w http.ResponseWriter, r *http.Request) { // whatever the Host
		switch r.URL.Path {
		case "/robots.txt":
			_, _ = w.Write([]byte("User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n"))
		case tdmrepPath:
			_, _ = w.Write([]byte(`[{"location":"/","tdm-reservation":1}]`))
		case "/page":
			w.Header().Set("Content-Type", "text/plain")
			_, _ = w.Write([]byte("the other server's page"))
		default:
			http.NotFound(w, r)
		}
	}
	for _, tc := range []struct {
		name, url, host string
		otherAddr       string // the address dialled that reaches "other"
	}{
		// net/http follows the redirect to b.test keeping the Host
		// "a.test" the caller set (golang.org/issue/22233); the
		// Transport sends it to b.test's server in both sites' turns.
		{"redirect keeps the Host", "http://front.test/page", "a.test", "b.test:80"},
		// The same to the Host's own www. twin, paced as one site with
		// it: two sites' robots.txt all the same.
		{"redirect to the www. twin keeps the Host", "http://front.test/twin", "a.test", "www.a.test:80"},
		// A Host naming the URL's host at another port.
		{"Host at another port", "http://a.test:8080/page", "a.test", "a.test:8080"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			sSite, sOther := httptest.NewServer(http.HandlerFunc(site)), httptest.NewServer(http.HandlerFunc(other))
			t.Cleanup(sSite.Close)
			t.Cleanup(sOther.Close)
			var d net.Dialer
			next := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				to := sSite.Listener.Addr().String() // no name reaches a resolver
				if addr == tc.otherAddr {
					to = sOther.Listener.Addr().String()
				}
				return d.DialContext(ctx, network, to)
			}}
			t.Cleanup(next.CloseIdleConnections)
			c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA), WithTDMRep()})
			t.Cleanup(func() { _ = c.Close() })

			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, tc.url, nil)
			req.Host = tc.host
			resp, body := fetchPageReq(t, &http.Client{Transport: tr}, req)
			if string(body) != "the other server's page" {
				t.Fatalf("body %q: not the other server's page", body)
			}
			r := tr.Receipt(resp, body)
			if r.Usage.Pref("train-ai") != PrefNo {
				t.Errorf("Receipt: usage %q; want train-ai=n: the server that sent the page refuses training "+
					"in its robots.txt, which the Transport checked the request against", r.Usage)
			}
			if u := tr.Usage(resp); u.Pref("train-ai") != PrefNo {
				t.Errorf("Transport.Usage: %q; want train-ai=n", u)
			}
			// The refusal is listed, where the server sent to said it.
			robots := false
			for _, sg := range r.Signals {
				robots = robots || sg.Source == "robots.txt" && sg.Pref == PrefNo && sg.Where == "http://"+tc.otherAddr+" line 2"
			}
			if !robots {
				t.Errorf("signals %q; want the robots.txt refusal of http://%s", sigs(r.Signals), tc.otherAddr)
			}
		})
	}
}

// sentToNext returns a Transport that dials srv for every name.
func sentToNext(srv *httptest.Server) *http.Transport {
	var d net.Dialer
	return &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.DialContext(ctx, network, srv.Listener.Addr().String())
	}}
}

// sentToSites serves a.test (port 80) and a.test:8080 from one server,
// telling them by the Host a request names: robots[host] is a site's
// robots.txt, tdm[host] its tdmrep.json (404 when none), any other path
// a text page.
func sentToSites(t *testing.T, robots, tdm map[string]string) *http.Transport {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, robots[r.Host])
		case tdmrepPath:
			if f, ok := tdm[r.Host]; ok {
				io.WriteString(w, f)
				return
			}
			http.NotFound(w, r)
		default:
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "page")
		}
	}))
	t.Cleanup(srv.Close)
	next := sentToNext(srv)
	t.Cleanup(next.CloseIdleConnections)
	return next
}

// TestReceiptListsTheSiteSentToAsItsOwn: of the site a page was sent to
// beside the one its Host names (http://a.test:8080/page, Host a.test),
// a receipt lists the robots.txt refusals as the Host's site's are
// listed: a Content-Signal record as such, with what the site wrote and
// its line; each source's signals together and within their bound
// (review133: a record listed as robots.txt's "train-ai=n"; 32 signals
// of robots.txt after content-signal's). Its tdmrep.json is not read: a
// fetch of it redirected into the Host's site waited for the turn the
// page had taken (review134).
func TestReceiptListsTheSiteSentToAsItsOwn(t *testing.T) {
	var labels []string
	for i := range 16 {
		labels = append(labels, fmt.Sprintf("l%02d=n", i))
	}
	many := strings.Join(labels, ", ")
	for _, tc := range []struct {
		name        string
		robots, tdm map[string]string
		check       func(rc Receipt) string // what is wrong, or ""
	}{
		{"a Content-Signal record",
			map[string]string{"a.test": "User-agent: *\nAllow: /\n", "a.test:8080": "User-agent: *\nContent-Signal: ai-train=no, search=yes\nAllow: /\n"}, nil,
			func(rc Receipt) string {
				if got := sigs(rc.Signals); !reflect.DeepEqual(got, []string{"content-signal train-ai n http://a.test:8080 line 2"}) ||
					!strings.Contains(rc.Signals[0].Value, "ai-train=no") {
					return fmt.Sprintf("signals %+v; want the record as content-signal, as written", rc.Signals)
				}
				return ""
			}},
		{"no tdmrep.json",
			map[string]string{"a.test": "User-agent: *\nAllow: /\n", "a.test:8080": "User-agent: *\nAllow: /\n"},
			map[string]string{"a.test:8080": `[{"location":"/","tdm-reservation":1}]`},
			func(rc Receipt) string {
				if rc.Usage != (Usage{}) || len(rc.Signals) != 0 {
					return fmt.Sprintf("usage %q, signals %q; want a.test's tdmrep.json alone read, which there is none of", rc.Usage, sigs(rc.Signals))
				}
				return ""
			}},
		{"sources together, bounded",
			map[string]string{"a.test": "User-agent: *\nContent-Usage: " + many + "\nContent-Signal: search=yes\nAllow: /\n",
				"a.test:8080": "User-agent: *\nContent-Usage: " + many + "\nAllow: /\n"}, nil,
			func(rc Receipt) string {
				n, last := map[string]int{}, ""
				for _, sg := range rc.Signals {
					if sg.Source != last && n[sg.Source] > 0 {
						return fmt.Sprintf("signals of %s apart: %q", sg.Source, sigs(rc.Signals))
					}
					n[sg.Source]++
					last = sg.Source
				}
				if n["robots.txt"] > maxSourceSignals || rc.Dropped != 16 {
					return fmt.Sprintf("%d signals of robots.txt, %d dropped: %q", n["robots.txt"], rc.Dropped, sigs(rc.Signals))
				}
				return ""
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			c, tr := NewClientTransport(sentToSites(t, tc.robots, tc.tdm), []Option{WithUserAgent(testUA), WithTDMRep()})
			defer c.Close()
			req, _ := http.NewRequestWithContext(t.Context(), "GET", "http://a.test:8080/page", nil)
			req.Host = "a.test"
			resp, body := fetchPageReq(t, &http.Client{Transport: tr}, req)
			if wrong := tc.check(tr.Receipt(resp, body)); wrong != "" {
				t.Error(wrong)
			}
		})
	}
}

// TestReceiptOfAnUnsentPageAtAnotherPort: a page at a.test:8080 with
// Host a.test, sent through the Transport or past it (SkipRobots): its
// receipt counts the refusal of a.test:8080's robots.txt, whose server
// sent it, either way (review135: past the Transport it read a.test's
// alone).
func TestReceiptOfAnUnsentPageAtAnotherPort(t *testing.T) {
	checkLeaks(t)
	next := sentToSites(t, map[string]string{
		"a.test":      "User-agent: *\nAllow: /\n",
		"a.test:8080": "User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n",
	}, nil)
	c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA)})
	defer c.Close()
	hc := &http.Client{Transport: tr}
	for _, skip := range []bool{false, true} {
		ctx := t.Context()
		if skip {
			ctx = SkipRobots(ctx)
		}
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://a.test:8080/p", nil)
		req.Host = "a.test"
		resp, body := fetchPageReq(t, hc, req)
		rc := tr.Receipt(resp, body)
		if rc.Usage.Pref("train-ai") != PrefNo {
			t.Errorf("SkipRobots %v: usage %q; want train-ai=n, the robots.txt of a.test:8080, whose server sent the page, refuses it", skip, rc.Usage)
		}
		if u := tr.Usage(resp); u.Pref("train-ai") != PrefNo {
			t.Errorf("SkipRobots %v: Transport.Usage %q; want train-ai=n", skip, u)
		}
	}
}

// TestReceiptDatedAfterItsRobotsTxt: a receipt for a page the Transport
// did not send fetches its robots.txt, and is dated after it, not before
// the file it rests on (consent87 bug 3).
func TestReceiptDatedAfterItsRobotsTxt(t *testing.T) {
	checkLeaks(t)
	next := sentToSites(t, map[string]string{"a.test": "User-agent: *\nAllow: /\n"}, nil)
	var mu sync.Mutex
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { // a minute on at every reading
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Minute)
		return now
	}
	c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA), WithClock(clock)})
	defer c.Close()
	req, _ := http.NewRequestWithContext(SkipRobots(t.Context()), "GET", "http://a.test/p", nil)
	resp, body := fetchPageReq(t, &http.Client{Transport: tr}, req)
	rc := tr.Receipt(resp, body)
	if rc.Robots == nil || rc.Robots.FetchedAt.IsZero() || rc.FetchedAt.Before(rc.Robots.FetchedAt) {
		t.Errorf("receipt dated %v, its robots.txt %+v; want the receipt no earlier", rc.FetchedAt, rc.Robots)
	}
}

// TestReceiptOfAnUnsentPageItsServerDisallows: a page fetched past the
// Transport at a.test:8080 with Host a.test, which a.test:8080's
// robots.txt disallows: of a URL it disallows, that robots.txt states
// nothing, and nothing of it is listed (review136: its train-ai=n was
// listed, not counted).
func TestReceiptOfAnUnsentPageItsServerDisallows(t *testing.T) {
	checkLeaks(t)
	next := sentToSites(t, map[string]string{
		"a.test":      "User-agent: *\nAllow: /\n",
		"a.test:8080": "User-agent: *\nContent-Usage: train-ai=n\nDisallow: /\n",
	}, nil)
	c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA)})
	defer c.Close()
	req, _ := http.NewRequestWithContext(SkipRobots(t.Context()), "GET", "http://a.test:8080/p", nil)
	req.Host = "a.test"
	resp, body := fetchPageReq(t, &http.Client{Transport: tr}, req)
	if rc := tr.Receipt(resp, body); len(rc.Signals) != 0 || rc.Usage != (Usage{}) {
		t.Errorf("usage %q, signals %q: for a URL robots.txt disallows, robots.txt states nothing", rc.Usage, sigs(rc.Signals))
	}
}

// TestReceiptOfAnUnsentPageAtAZonedAddress: a page fetched past the
// Transport at http://[fe80::1%eth0]:8080/p with Host [fe80::1], whose
// URL's authority the Transport cannot read: the receipt fails closed
// (review136: it read the Host's site alone, and said nothing).
func TestReceiptOfAnUnsentPageAtAZonedAddress(t *testing.T) {
	checkLeaks(t)
	next := sentToSites(t, map[string]string{
		"[fe80::1]":      "User-agent: *\nAllow: /\n",
		"[fe80::1]:8080": "User-agent: *\nAllow: /\n",
	}, nil)
	c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA)})
	defer c.Close()
	req, _ := http.NewRequestWithContext(SkipRobots(t.Context()), "GET", "http://[fe80::1%25eth0]:8080/p", nil)
	req.Host = "[fe80::1]"
	resp, body := fetchPageReq(t, &http.Client{Transport: tr}, req)
	if rc := tr.Receipt(resp, body); rc.Usage.Pref("train-ai") != PrefNo {
		t.Errorf("usage %q, signals %q; want train-ai=n: the site sent to cannot be checked", rc.Usage, sigs(rc.Signals))
	}
}

// TestReceiptOfAPinnedAddressIsTheHostsSite: a pinned crawler's page
// (http://10.0.0.1/page, Host a.test, in a.test's turn alone) is a.test's:
// its receipt reads no tdmrep.json of the address, whose server
// redirects to a.test, and which waited for the turn the page holds
// (body open) or a.test's Crawl-delay (closed), to say train-ai=n
// (review133).
func TestReceiptOfAPinnedAddressIsTheHostsSite(t *testing.T) {
	for _, open := range []bool{true, false} {
		checkLeaks(t)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Host == "10.0.0.1" {
				http.Redirect(w, r, "http://a.test"+r.URL.RequestURI(), http.StatusMovedPermanently)
				return
			}
			switch r.URL.Path {
			case "/robots.txt":
				io.WriteString(w, "User-agent: *\nAllow: /\nCrawl-delay: 5\n")
			case tdmrepPath:
				io.WriteString(w, `[{"location":"/","tdm-reservation":0}]`)
			default:
				w.Header().Set("Content-Type", "text/plain")
				io.WriteString(w, "page")
			}
		}))
		next := sentToNext(srv)
		c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA), WithTDMRep(), WithFetchTimeout(time.Second)})
		req, _ := http.NewRequestWithContext(t.Context(), "GET", "http://10.0.0.1/page", nil)
		req.Host = "a.test"
		var rc Receipt
		if open {
			resp, err := (&http.Client{Transport: tr}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			rc = tr.Receipt(resp, nil) // as the body is read: the page's turn is held
			resp.Body.Close()
		} else {
			resp, body := fetchPageReq(t, &http.Client{Transport: tr}, req)
			rc = tr.Receipt(resp, body)
		}
		if rc.Usage.Pref("train-ai") == PrefNo {
			t.Errorf("body open %v: usage %q, signals %q; want a.test's word alone, which reserves nothing", open, rc.Usage, sigs(rc.Signals))
		}
		_ = c.Close()
		next.CloseIdleConnections()
		srv.Close()
	}
}

// TestReceiptNamesNoURLTheTransportRefuses: a page fetched past the
// Transport (SkipRobots) at a URL the Transport refuses with ErrBadURL
// (a port past 65535 or 0, a zone) gets a receipt naming no URL
// (receipt82: it named them).
func TestReceiptNamesNoURLTheTransportRefuses(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("a.test/p", serve(200, "page"))
	c := newTestClient(t, WithUserAgent(testUA), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	tr := NewTransport(c, w.transport(t))
	hc := &http.Client{Transport: tr}
	for _, u := range []string{"http://a.test:99999/p", "http://a.test:0/p", "http://[::1%25eth0]/p"} {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, u, nil)
		if _, err := hc.Do(req); !errors.Is(err, ErrBadURL) {
			t.Fatalf("%s: %v; want ErrBadURL", u, err)
		}
		req, _ = http.NewRequestWithContext(SkipRobots(context.Background()), http.MethodGet, u, nil)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if r := tr.Receipt(resp, nil); r.URL != "" {
			t.Errorf("%s, which the Transport refuses with ErrBadURL: Receipt.URL %q (signals %q); want \"\"", u, r.URL, sigs(r.Signals))
		}
	}
}

// TestReceiptOfARequestNamingNeitherSite: http://a.test/p with Host
// b.test:8080, another host at another port, which the Transport refuses
// with ErrBadURL, fetched past it (SkipRobots), gets a receipt naming no
// URL and failing closed (review134: it named b.test:8080's page and
// rested on its robots.txt alone, train-ai=y, where a.test's server,
// which sent the page, said n).
func TestReceiptOfARequestNamingNeitherSite(t *testing.T) {
	checkLeaks(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := strings.Cut(r.Host, ":")
		switch {
		case r.URL.Path == "/robots.txt" && host == "b.test":
			io.WriteString(w, "User-agent: *\nContent-Usage: train-ai=y\nAllow: /\n")
		case r.URL.Path == "/robots.txt":
			io.WriteString(w, "User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n")
		default:
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "a.test's page")
		}
	}))
	defer srv.Close()
	next := sentToNext(srv)
	defer next.CloseIdleConnections()
	c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA)})
	defer c.Close()
	hc := &http.Client{Transport: tr}
	req, _ := http.NewRequestWithContext(t.Context(), "GET", "http://a.test/p", nil)
	req.Host = "b.test:8080"
	if _, err := hc.Do(req); !errors.Is(err, ErrBadURL) {
		t.Fatalf("checked: %v; want ErrBadURL", err)
	}
	req, _ = http.NewRequestWithContext(SkipRobots(t.Context()), "GET", "http://a.test/p", nil)
	req.Host = "b.test:8080"
	resp, body := fetchPageReq(t, hc, req)
	rc := tr.Receipt(resp, body)
	if rc.URL != "" || rc.Usage.Pref("train-ai") != PrefNo {
		t.Errorf("URL %q, usage %q, signals %q, robots %+v; the Transport refuses this request with ErrBadURL: want URL \"\" and train-ai=n",
			rc.URL, rc.Usage, sigs(rc.Signals), rc.Robots)
	}
	if u := tr.Usage(resp); u.Pref("train-ai") != PrefNo {
		t.Errorf("Usage %q; want train-ai=n", u)
	}
}

// TestReceiptNamesTheFileRead: a robots.txt that redirects to another
// site's is named by where it led, whose file the SHA-256 is of, so that
// the evidence can be checked against it; its own is named by none.
func TestReceiptNamesTheFileRead(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	const moved = "User-agent: *\nAllow: /\n# kept at the CDN\n"
	w.on("a.test/robots.txt", redirectTo("http://cdn.test/robots.txt"))
	w.on("cdn.test/robots.txt", serve(200, moved))
	w.on("b.test/robots.txt", serve(200, moved))
	for _, h := range []string{"a.test", "b.test"} {
		w.on(h+"/page", serve(200, "page", "Content-Type", "text/plain"))
	}
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = c.Close() })
	sum := sha256.Sum256([]byte(moved))
	for host, final := range map[string]string{"a.test": "http://cdn.test/robots.txt", "b.test": ""} {
		resp, body := fetchPage(t, &http.Client{Transport: tr}, "http://"+host+"/page")
		r := tr.Receipt(resp, body)
		if r.Robots == nil || r.Robots.FinalURL != final || r.Robots.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: robots %+v; want the file of %q", host, r.Robots, final)
		}
		if j, _ := json.Marshal(r.Robots); strings.Contains(string(j), "final_url") != (final != "") {
			t.Errorf("%s: %s; want final_url only when redirected", host, j)
		}
	}
}

// TestReceiptKeepsEveryNo: however many labels robots.txt states, y or
// n, a later source's train-ai=n is never crowded out of the merged
// answer (an n of a label no crawler reads once outranked it).
func TestReceiptKeepsEveryNo(t *testing.T) {
	checkLeaks(t)
	for _, v := range []string{"y", "n"} {
		var signal, usage []string
		for i := range 1500 {
			signal = append(signal, fmt.Sprintf("s%d=%s", i, map[string]string{"y": "yes", "n": "no"}[v]))
			usage = append(usage, fmt.Sprintf("x%d=%s", i, v))
		}
		s := newTestSite(t, "User-agent: *\nAllow: /\nContent-Signal: "+strings.Join(signal, ", ")+"\nContent-Usage: "+strings.Join(usage, ", ")+"\n")
		s.route("/page", serve(200, "page", "X-Robots-Tag", "noai"))
		_, tr, hc := newTestTransport(t)
		resp, body := fetchPage(t, hc, s.URL+"/page")
		if r := tr.Receipt(resp, body); r.Usage.Pref("train-ai") != PrefNo {
			t.Errorf("labels =%s: the receipt lost X-Robots-Tag's noai: train-ai %v", v, r.Usage.Pref("train-ai"))
		}
		if u := tr.Usage(resp); u.Pref("train-ai") != PrefNo {
			t.Errorf("labels =%s: Usage lost X-Robots-Tag's noai: train-ai %v", v, u.Pref("train-ai"))
		}
	}
}

// TestReceiptOfTheCheckSent: a receipt rests on the robots.txt the
// Transport sent the request under, whatever became of it since (it
// expired and changed, left the cache, stopped answering, or the
// request's context ended with the body), and no robots.txt is fetched
// to make it.
func TestReceiptOfTheCheckSent(t *testing.T) {
	checkLeaks(t)
	const v1 = "User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n"
	sum := sha256.Sum256([]byte(v1))
	tests := []struct {
		name    string
		opts    []Option
		timeout time.Duration // of the http.Client: closing the body ends resp.Request's context
		after   func(t *testing.T, s *testSite, clock *testClock, hc *http.Client)
	}{
		{name: "expired and changed", after: func(t *testing.T, s *testSite, clock *testClock, _ *http.Client) {
			s.route("/robots.txt", serve(200, "User-agent: *\nContent-Usage: train-ai=y\nDisallow: /page\n"))
			clock.Advance(25 * time.Hour)
		}},
		{name: "evicted", opts: []Option{WithCacheSize(1)}, after: func(t *testing.T, s *testSite, _ *testClock, hc *http.Client) {
			s.route("/robots.txt", serve(200, "User-agent: *\nDisallow: /page\n"))
			_, _ = fetchPage(t, hc, newTestSite(t, "User-agent: *\nAllow: /\n").URL+"/x")
		}},
		{name: "evicted, the body closed", opts: []Option{WithCacheSize(1)}, timeout: time.Minute,
			after: func(t *testing.T, _ *testSite, _ *testClock, hc *http.Client) {
				_, _ = fetchPage(t, hc, newTestSite(t, "User-agent: *\nAllow: /\n").URL+"/x")
			}},
		{name: "unreachable", after: func(t *testing.T, s *testSite, clock *testClock, _ *http.Client) {
			s.route("/robots.txt", serve(503, "down"))
			clock.Advance(25 * time.Hour)
		}},
	}
	for _, tt := range tests {
		s := newTestSite(t, v1)
		clock := newTestClock()
		c := newTestClient(t, append([]Option{WithUserAgent(testUA), WithClock(clock.Now)}, tt.opts...)...)
		next := &http.Transport{}
		t.Cleanup(next.CloseIdleConnections)
		tr := NewTransport(c, next)
		hc := &http.Client{Transport: tr, Timeout: tt.timeout}
		resp, body := fetchPage(t, hc, s.URL+"/page")
		tt.after(t, s, clock, hc)
		r := tr.Receipt(resp, body)
		if r.Robots == nil || r.Robots.SHA256 != hex.EncodeToString(sum[:]) || r.Robots.RuleLine != 3 || r.Robots.Stale ||
			r.Usage.Pref("train-ai") != PrefNo || r.Robots.FetchedAt.After(r.FetchedAt) {
			t.Errorf("%s: robots %+v, usage %q, signals %q; want the robots.txt the page was fetched under",
				tt.name, r.Robots, r.Usage, sigs(r.Signals))
		}
		if u := tr.Usage(resp); u != r.Usage {
			t.Errorf("%s: Usage %q, Receipt's %q", tt.name, u, r.Usage)
		}
		if n := len(s.times("/robots.txt")); n != 1 {
			t.Errorf("%s: robots.txt fetched %d times, want once, for the request", tt.name, n)
		}
	}
}

// TestReceiptNotOfAnotherRequest: a context made from one response's
// request carries the check it was sent under to others; a request it
// does not speak for (skipping robots.txt, to another site) is checked.
func TestReceiptNotOfAnotherRequest(t *testing.T) {
	checkLeaks(t)
	a := newTestSite(t, "User-agent: *\nContent-Usage: train-ai=y\nAllow: /\n")
	b := newTestSite(t, "User-agent: *\nContent-Usage: train-ai=n\nDisallow: /p\n")
	a.route("/p", serve(200, "a", "Content-Type", "text/plain"))
	b.route("/p", serve(200, "b", "Content-Type", "text/plain"))
	_, tr, hc := newTestTransport(t)
	first, _ := fetchPage(t, hc, a.URL+"/p")
	req, _ := http.NewRequestWithContext(SkipRobots(first.Request.Context()), http.MethodGet, b.URL+"/p", nil)
	resp, body := fetchPageReq(t, hc, req)
	r := tr.Receipt(resp, body)
	if r.Robots == nil || r.Robots.Authority != b.URL || r.Usage.Pref("train-ai") == PrefYes {
		t.Errorf("receipt of %s/p under %s/p's context: robots %+v, usage %q; want b's", b.URL, a.URL, r.Robots, r.Usage)
	}
}

// FuzzXHTMLHead: a <meta> first in an XHTML head, its elements prefixed
// or not, is read whatever follows it; one after text and elements no
// HTML head holds is read whatever they are, unless the page is not XML
// there (then it reads as cut); and an internal subset hides none of
// the head.
func FuzzXHTMLHead(f *testing.F) {
	f.Add(`<script src="a"/><title/><meta name=robots content=noai/></head>`)
	f.Add(`<object><p a="/>">t<a hr`)
	f.Add(`<noscript><img/></noscript><template><meta name="robots" content="all"/></template></head><body><script/>`)
	f.Add("<title>\xff&bogus;</title><x:y xmlns:x='urn:x'/><meta name='robots' content='nofollow'/>")
	f.Add(`<h:script src="a"/><x:y:title><h:p/></h:head><h:body>`)
	f.Add(`<!ENTITY a "&#60;x y='"><!-- a><x y=' --><?p '>?>`)
	f.Add(`<!ENTITY a "x"> text &a;`)
	const head = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head>`
	const noai = `<meta name="robots" content="noai"/>`
	read := func(t *testing.T, page string, cutOK bool) {
		got, whole, _ := xhtmlHead([]byte(page))
		if !whole && cutOK {
			return
		}
		if d, _ := meta.FromHTML(bytes.NewReader(got), "ExampleBot"); !d.NoAI {
			t.Fatalf("xhtmlHead(%q) = %q, whole %v: %+v; want noai", page, got, whole, d)
		}
	}
	f.Fuzz(func(t *testing.T, rest string) {
		text := strings.NewReplacer("<", "", "&", "").Replace(rest)
		read(t, head+noai+rest, false)
		// XHTML's elements prefixed.
		read(t, `<h:html xmlns:h="http://www.w3.org/1999/xhtml"><h:head><h:meta name="robots" content="noai"/>`+rest, false)
		// Text and elements that leave the XML head open.
		read(t, head+text+`<object data="a"/><p>`+text+`</p><noscript><img/></noscript>`+noai, true)
		// An internal subset before the head.
		read(t, `<?xml version="1.0"?><!DOCTYPE html [`+strings.ReplaceAll(rest, "]", "")+`]><html xmlns="http://www.w3.org/1999/xhtml"><head>`+noai, true)
	})
}

// TestReceiptManyHeaderLines: a response of thousands of Content-Signal
// lines keeps its no, each line a record (BenchmarkReceiptHeaderLines
// measures that they are read in linear time: each line combined into
// the whole took seconds).
func TestReceiptManyHeaderLines(t *testing.T) {
	checkLeaks(t)
	tr, resp := manyHeaderLines(t, 8000)
	if got := tr.Receipt(resp, nil); got.Usage.Pref("train-ai") != PrefNo || got.Usage.Pref("x7999") != PrefYes {
		t.Errorf("usage %.80q, want train-ai=n, x7999=y", got.Usage)
	}
}

// manyHeaderLines returns a Transport and a response from its site with
// n Content-Signal lines after ai-train=no.
func manyHeaderLines(tb testing.TB, n int) (*Transport, *http.Response) {
	s := newTestSite(tb, "User-agent: *\nAllow: /\n")
	_, tr, _ := newTestTransport(tb)
	lines := []string{"ai-train=no"}
	for i := range n {
		lines = append(lines, fmt.Sprintf("x%d=yes", i))
	}
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, s.URL+"/page", nil)
	return tr, &http.Response{StatusCode: 200, Header: http.Header{"Content-Signal": lines}, Request: req}
}

// BenchmarkReceiptHeaderLines reads a response of 1,000 and of 8,000
// Content-Signal lines: the time a line stays flat.
func BenchmarkReceiptHeaderLines(b *testing.B) {
	for _, n := range []int{1000, 8000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			tr, resp := manyHeaderLines(b, n)
			tr.Receipt(resp, nil) // robots.txt fetched
			for b.Loop() {
				tr.Receipt(resp, nil)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/line")
		})
	}
}

// TestReceiptXHTMLCutInHead: an XHTML page cut within its head, after an
// element no HTML head holds, is read as cut there: what the rest of its
// head held is unknown.
func TestReceiptXHTMLCutInHead(t *testing.T) {
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	_, tr, _ := newTestTransport(t)
	const page = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title><object data="a.swf"/><meta name="robots" content="noai"/></head><body/></html>`
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
	resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/xhtml+xml"}}, Request: req, ContentLength: int64(len(page))}
	cut := []byte(page[:strings.Index(page, "<meta")])
	if r := tr.Receipt(resp, cut); r.Usage.Pref("train-ai") != PrefNo || !slices.Contains(sigs(r.Signals), "robots-meta train-ai n unreadable") {
		t.Errorf("cut after the <object>: usage %q, signals %q; want the head unreadable", r.Usage, sigs(r.Signals))
	}
	// A head past the first MiB, which is all a receipt reads, whether
	// rewritten (XHTML) or decoded (ISO-2022-JP) to fewer bytes.
	jp, _ := japanese.ISO2022JP.NewEncoder().Bytes([]byte("<html><head><script>" + strings.Repeat(`"ID:1 会員 "`, 1<<17) + `</script><meta name="robots" content="noai"></head>`))
	for ct, page := range map[string][]byte{
		"application/xhtml+xml":          []byte(`<html xmlns="http://www.w3.org/1999/xhtml"><head><style>` + strings.Repeat("p{}", 1<<19) + `</style><meta name="robots" content="noai"/></head>`),
		"text/html; charset=iso-2022-jp": jp,
	} {
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {ct}}, Request: req, ContentLength: int64(len(page))}
		if r := tr.Receipt(resp, page); r.Usage.Pref("train-ai") != PrefNo || !slices.Contains(sigs(r.Signals), "robots-meta train-ai n unreadable") {
			t.Errorf("%s, a head past the first MiB: usage %q, signals %q; want the head unreadable", ct, r.Usage, sigs(r.Signals))
		}
	}
}

// TestReceiptXHTMLReadAsXML: an XHTML head is read as XML reads it,
// where the HTML tokenizer reads otherwise: a META naming an entity its
// DTD declares says what the entity expands to, and a CDATA section, a
// processing instruction or a script's CDATA holding a '>', a "<body>" or
// "</head>" ends no head. An ATTLIST giving a default (which XML gives
// the META) makes the head unreadable. A prolog's declaration and
// processing instructions, a CDATA section in a script or whole,
// entities declared for the body, and a public DOCTYPE are read as ever.
func TestReceiptXHTMLReadAsXML(t *testing.T) {
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	_, tr, _ := newTestTransport(t)
	const prolog, html = `<?xml version="1.0" encoding="UTF-8"?>` + "\n", `<html xmlns="http://www.w3.org/1999/xhtml">`
	receipt := func(page string) Receipt {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/xhtml+xml"}}, Request: req, ContentLength: int64(len(page))}
		return tr.Receipt(resp, []byte(page))
	}
	const noai, reserved, unreadable = "robots-meta train-ai n robots", "tdm-meta train-ai n tdm-reservation", "robots-meta train-ai n unreadable"
	for name, c := range map[string]struct{ page, want string }{
		"entity in content": {prolog + `<!DOCTYPE html [<!ENTITY reserved "1">]>` + html +
			`<head><title>t</title><meta name="tdm-reservation" content="&reserved;"/></head><body/></html>`, reserved},
		"entity in name": {prolog + `<!DOCTYPE html [<!ELEMENT x ANY>` + "\n" + `<!ENTITY tdm "tdm-reservation">]>` + html +
			`<head><title>t</title><meta name="&tdm;" content="1"/></head><body/></html>`, reserved},
		"CDATA holding <body>": {prolog + html + `<head><title>t</title><noscript><![CDATA[ if (a > b) document.write("<body>") ]]></noscript>` +
			`<meta name="robots" content="noai"/></head><body/></html>`, noai},
		"instruction holding >": {prolog + html + `<head><?pi a > b <body> ?><meta name="robots" content="noai"/></head><body/></html>`, noai},
		"a script's CDATA holding </script></head>": {prolog + html + `<head><script>//<![CDATA[
w.document.write("<head><script src='/p.js'></script></head><body>");
//]]></script><meta name="robots" content="noai"/></head><body/></html>`, noai},
		"an ATTLIST naming meta": {prolog + `<!DOCTYPE html [<!ATTLIST meta name CDATA "robots">]>` + html +
			`<head><meta content="noai"/></head><body/></html>`, unreadable},
	} {
		if r := receipt(c.page); r.Usage.Pref("train-ai") != PrefNo || !slices.Equal(sigs(r.Signals), []string{c.want}) {
			t.Errorf("%s: usage %q, signals %q; want %q", name, r.Usage, sigs(r.Signals), c.want)
		}
	}
	for name, page := range map[string]string{
		"prolog":     prolog + `<?xml-stylesheet href="a.xsl" type="text/xsl"?>` + html + `<head><title>t</title></head><body/></html>`,
		"public DTD": prolog + `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">` + html + `<head><title>t</title></head><body/></html>`,
		"entities declared, used in the body": prolog + `<!DOCTYPE html [<!ENTITY nbsp "&#160;"> <!ENTITY copy "&#169;">]>` + html +
			`<head><title>Caf&#233;</title><meta name="robots" content="noarchive"/></head><body><p>8&nbsp;&copy;</p></body></html>`,
		"a head comment naming <!ENTITY": prolog + html + `<head><!-- add <!ENTITY nbsp "&#160;"> to a DOCTYPE --><meta name="robots" content="noarchive"/></head><body/></html>`,
		"CDATA in a script": prolog + html + `<head><script>//<![CDATA[
if (a > b) document.write("<body>");
//]]></script><noscript><![CDATA[ no tags ]]></noscript></head><body/></html>`,
	} {
		if r := receipt(page); r.Usage.Pref("train-ai") != PrefUnknown || len(r.Signals) != 0 {
			t.Errorf("%s: usage %q, signals %q; want nothing stated", name, r.Usage, sigs(r.Signals))
		}
	}
}

// TestReceiptXHTMLServedAsXML: an XHTML page served as application/xml
// or text/xml, which W3C's XHTML Media Types allows and browsers render
// as XHTML, is read as XHTML (consent84: its noai, noindex and
// tdm-reservation were lost, though the same bytes with no Content-Type
// were read). An XML document whose root is not XHTML's html, a sitemap
// or a feed, holds no page's tags: one past the MiB a receipt reads is
// no head cut short, whatever its type.
func TestReceiptXHTMLServedAsXML(t *testing.T) {
	const page = xhtmlProlog + xhtmlRoot + `<head><title>t</title><meta name="robots" content="noindex, noai"/>` +
		`<meta name="tdm-reservation" content="1"/></head><body><p>x</p></body></html>`
	sitemap := xhtmlProlog + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
		strings.Repeat("<url><loc>http://a.test/</loc></url>", 40000) + `</urlset>`
	const metaOfAFeed = xhtmlProlog + `<feed xmlns="http://www.w3.org/2005/Atom"><meta xmlns="http://www.w3.org/1999/xhtml" name="robots" content="noai"/></feed>`
	// Feeds whose prolog XML does not read past (review143: a blank line
	// before the declaration, as PHP's leave, an encoding XML does not
	// know, a Latin-1 byte in a comment) are no page: they said
	// nothing before XML's types were read, and say nothing still.
	const rss = `<rss version="2.0"><channel><title>t</title></channel></rss>`
	feeds := map[string]string{
		"/blank":   "\n" + xhtmlProlog + rss,
		"/latin-1": `<?xml version="1.0" encoding="latin-1"?>` + "\n" + `<rss version="2.0"><channel><title>caf` + "\xe9" + `</title></channel></rss>`,
		"/comment": xhtmlProlog + "<!-- caf\xe9 -->\n" + rss,
	}
	// Pages whose prolog XML reads but xhtmlHead cannot follow read as
	// cut in their head: no to everything, served as XML as served as
	// XHTML (tdmrep85: served as XML, they read as no page).
	unfollowed := map[string]string{
		"/v1.1":      `<?xml version="1.1" encoding="utf-8"?>`,
		"/attlist":   `<!DOCTYPE html [ <!ATTLIST html lang CDATA "en"> ]>`,
		"/parameter": `<!DOCTYPE html [ <!ENTITY % draft "INCLUDE"> ]>`,
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(page))
	_ = zw.Close()
	for _, ct := range []string{"", "application/xhtml+xml", "application/xml", "text/xml", "text/xml; charset=utf-8"} {
		w := newHosts(t)
		w.on("a.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
		w.on("a.test/coded", func(rw http.ResponseWriter, r *http.Request) {
			rw.Header()["Content-Type"] = nil
			if ct != "" {
				rw.Header().Set("Content-Type", ct)
			}
			rw.Header().Set("Content-Encoding", "gzip")
			_, _ = rw.Write(gz.Bytes())
		})
		feeds["/page"], feeds["/sitemap.xml"], feeds["/feed"] = page, sitemap, metaOfAFeed
		for path, prolog := range unfollowed {
			// With no tag of its own: read as cut, it says no all the same.
			feeds[path] = prolog + xhtmlRoot + `<head><title>t</title></head><body><p>x</p></body></html>`
		}
		for path, body := range feeds {
			w.on("a.test"+path, func(rw http.ResponseWriter, r *http.Request) {
				rw.Header()["Content-Type"] = nil // none: net/http sniffs none
				if ct != "" {
					rw.Header().Set("Content-Type", ct)
				}
				_, _ = rw.Write([]byte(body))
			})
		}
		c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)})
		t.Cleanup(func() { _ = c.Close() })
		hc := &http.Client{Transport: tr}
		resp, body := fetchPage(t, hc, "http://a.test/page")
		r, d := tr.Receipt(resp, body), tr.PageDirectives(resp, body)
		if want := []string{"robots-meta train-ai n robots", "tdm-meta train-ai n tdm-reservation"}; !slices.Equal(sigs(r.Signals), want) || !d.NoIndex || !d.NoAI {
			t.Errorf("%q: signals %q, noindex %v, noai %v; want %q, noindex and noai", ct, sigs(r.Signals), d.NoIndex, d.NoAI, want)
		}
		for _, u := range []string{"http://a.test/sitemap.xml", "http://a.test/feed", "http://a.test/blank", "http://a.test/latin-1", "http://a.test/comment"} {
			if faulty := !strings.Contains(u, "/sitemap") && !strings.Contains(u, "/feed"); faulty && !strings.Contains(ct, "/xml") {
				continue // served as XHTML, or as nothing, XML that does not read is a page cut in its head
			}
			resp, body := fetchPage(t, hc, u)
			if r, d := tr.Receipt(resp, body), tr.PageDirectives(resp, body); len(r.Signals) != 0 || d.NoIndex {
				t.Errorf("%q, %s of %d bytes: signals %q, noindex %v; want none", ct, u, len(body), sigs(r.Signals), d.NoIndex)
			}
		}
		for path := range unfollowed {
			if ct == "" {
				break // a DOCTYPE first sniffs as HTML, as browsers read it
			}
			resp, body := fetchPage(t, hc, "http://a.test"+path)
			if d := tr.PageDirectives(resp, body); !d.NoIndex || !d.NoAI {
				t.Errorf("%q, %s: noindex %v, noai %v; want no to everything", ct, path, d.NoIndex, d.NoAI)
			}
		}
		// Cut in its prolog, before its root, it may have said anything
		// (review144: read as no page).
		if ct != "" {
			resp, body := fetchPage(t, hc, "http://a.test/page")
			for _, n := range []int{0, 20, len(xhtmlProlog) - 5} {
				if d := tr.PageDirectives(resp, body[:n]); !d.NoIndex || !d.NoAI {
					t.Errorf("%q cut at %d, in its prolog: noindex %v, noai %v; want no to everything", ct, n, d.NoIndex, d.NoAI)
				}
			}
		}
		// In a coding the caller asked for, which net/http leaves, its
		// tags cannot be read: no to everything, as an HTML page's
		// (review143: as XML's, it read as no page).
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://a.test/coded", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		if resp, body := fetchPageReq(t, hc, req); ct != "" {
			if r, d := tr.Receipt(resp, body), tr.PageDirectives(resp, body); !d.NoIndex || !slices.Contains(sigs(r.Signals), "robots-meta train-ai n unreadable") {
				t.Errorf("%q in gzip: signals %q, noindex %v; want the page unreadable", ct, sigs(r.Signals), d.NoIndex)
			}
		}
	}
}

// xhtmlReceipt returns the receipt and the page directives of page served
// as application/xhtml+xml by a site whose robots.txt allows everything.
func xhtmlReceipt(t *testing.T, page string) (Receipt, bool, bool, bool) {
	t.Helper()
	r, d := xhtmlDirectives(t, page)
	return r, d.NoIndex, d.NoAI, d.NoArchive
}

const xhtmlProlog, xhtmlRoot = `<?xml version="1.0" encoding="UTF-8"?>` + "\n", `<html xmlns="http://www.w3.org/1999/xhtml">`

// TestReceiptXHTMLAttlistWithoutDefault: an ATTLIST that gives no
// default (#IMPLIED, #REQUIRED: the Open Graph "make xmlns:og validate"
// subset) changes nothing XML reads: the head says noarchive alone.
func TestReceiptXHTMLAttlistWithoutDefault(t *testing.T) {
	for name, doctype := range map[string]string{
		"Open Graph's xmlns:og declared #IMPLIED": `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd" [` + "\n" +
			`<!ATTLIST html xmlns:og CDATA #IMPLIED>` + "\n" + `<!ATTLIST html xmlns:fb CDATA #IMPLIED>` + "\n]>\n",
		"an RDFa attribute declared #IMPLIED on meta": `<!DOCTYPE html [<!ATTLIST meta property CDATA #IMPLIED>]>` + "\n",
	} {
		page := xhtmlProlog + doctype + `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:og="http://ogp.me/ns#" xmlns:fb="http://www.facebook.com/2008/fbml">` +
			`<head><title>t</title><meta property="og:title" content="t"/><meta name="robots" content="noarchive"/></head><body><p>x</p></body></html>`
		r, noindex, noai, noarchive := xhtmlReceipt(t, page)
		if r.Usage.Pref("train-ai") != PrefUnknown || len(r.Signals) != 0 || noindex || noai || !noarchive {
			t.Errorf("%s: receipt usage %q, signals %q; PageDirectives noindex %v noai %v noarchive %v; want nothing stated, noarchive alone (an ATTLIST without a default gives the META nothing)",
				name, r.Usage, sigs(r.Signals), noindex, noai, noarchive)
		}
	}
}

// TestReceiptXHTMLSubsetComment: an internal subset whose comment holds
// an apostrophe and a '>' ("doesn't") is read to its end as XML reads it:
// the head says noarchive alone.
func TestReceiptXHTMLSubsetComment(t *testing.T) {
	page := xhtmlProlog + "<!DOCTYPE html [\n  <!-- Named entities XHTML5 doesn't define -->\n  <!ENTITY nbsp \"&#160;\">\n  <!ENTITY copy \"&#169;\">\n]>\n" +
		xhtmlRoot + `<head><title>t</title><meta name="robots" content="noarchive"/></head><body><p>8&nbsp;&copy;</p></body></html>`
	r, noindex, noai, noarchive := xhtmlReceipt(t, page)
	if r.Usage.Pref("train-ai") != PrefUnknown || len(r.Signals) != 0 || noindex || noai || !noarchive {
		t.Errorf("receipt usage %q, signals %q; PageDirectives noindex %v noai %v noarchive %v; want nothing stated, noarchive alone",
			r.Usage, sigs(r.Signals), noindex, noai, noarchive)
	}
}

// TestReceiptXHTMLEntityExpanded: a declared entity that XML expands to
// a robots noai, in a META outside <head> (none written, or between
// </head> and <body>, where HTML's parser puts it in the head), is read
// as the same META written out is (the controls); one whose text is a
// whole META, or declared by a parameter entity, leaves the head
// unreadable (encoding/xml writes an entity as text).
func TestReceiptXHTMLEntityExpanded(t *testing.T) {
	const noai, unreadable = "robots-meta train-ai n robots", "robots-meta train-ai n unreadable"
	for name, c := range map[string]struct{ page, want string }{
		"a META naming an entity, in a page with no <head> tag": {xhtmlProlog + `<!DOCTYPE html [<!ENTITY r "noai">]>` + "\n" + xhtmlRoot +
			`<title>t</title><meta name="robots" content="&r;"/><body/></html>`, noai},
		"a META naming an entity, between </head> and <body>": {xhtmlProlog + `<!DOCTYPE html [<!ENTITY r "noai">]>` + "\n" + xhtmlRoot +
			`<head><title>t</title></head><meta name="robots" content="&r;"/><body/></html>`, noai},
		"an entity in the head's content that is a META": {xhtmlProlog + `<!DOCTYPE html [<!ENTITY m "&#60;meta name='robots' content='noai'/&#62;">]>` + "\n" + xhtmlRoot +
			`<head><title>t</title>&m;</head><body/></html>`, unreadable},
		"an entity declared by a parameter entity": {xhtmlProlog + `<!DOCTYPE html [<!ENTITY % decl "&#60;!ENTITY r 'noai'&#62;"> %decl;]>` + "\n" + xhtmlRoot +
			`<head><title>t</title><meta name="robots" content="&r;"/></head><body/></html>`, unreadable},
	} {
		if r, _, noai, _ := xhtmlReceipt(t, c.page); r.Usage.Pref("train-ai") != PrefNo || !noai || !slices.Equal(sigs(r.Signals), []string{c.want}) {
			t.Errorf("%s: receipt usage %q, signals %q, PageDirectives NoAI %v; want %q", name, r.Usage, sigs(r.Signals), noai, c.want)
		}
	}
	// Controls: the same METAs written out are read as noai.
	for name, page := range map[string]string{
		"no <head> tag":              xhtmlProlog + xhtmlRoot + `<title>t</title><meta name="robots" content="noai"/><body/></html>`,
		"between </head> and <body>": xhtmlProlog + xhtmlRoot + `<head><title>t</title></head><meta name="robots" content="noai"/><body/></html>`,
	} {
		if r, _, noai, _ := xhtmlReceipt(t, page); r.Usage.Pref("train-ai") != PrefNo || !noai {
			t.Errorf("control %s: receipt usage %q, NoAI %v; want train-ai=n", name, r.Usage, noai)
		}
	}
}

// TestReceiptXHTMLSubsetMarkup: a comment or processing instruction of
// a DOCTYPE's internal subset holding a '>', then what reads as a tag
// ("<x y='"), or a DOCTYPE literal holding one, hides no head: XML reads
// the noai after it.
func TestReceiptXHTMLSubsetMarkup(t *testing.T) {
	tail := xhtmlRoot + `<head><title>t</title><meta name="robots" content="noai"/></head><body><p>It's here.</p></body></html>`
	for name, doctype := range map[string]string{
		"a comment in the subset holding '>'": "<!DOCTYPE html [<!-- a><x y=' -->]>\n",
		"a PI in the subset holding '>'":      "<!DOCTYPE html [<?pi don't 'a><x y='?>]>\n",
		"a DOCTYPE literal holding '>'":       `<!DOCTYPE html SYSTEM "local.dtd?v=>2<x y='">` + "\n",
	} {
		r, _, noai, _ := xhtmlReceipt(t, xhtmlProlog+doctype+tail)
		if !xhtmlNoAIRead(r) {
			t.Errorf("%s: receipt usage %q, signals %q, PageDirectives NoAI %v; want train-ai=n (XML reads noai in the head)",
				name, r.Usage, sigs(r.Signals), noai)
		}
	}
	if r, _, _, _ := xhtmlReceipt(t, xhtmlProlog+"<!DOCTYPE html [<!-- a comment -->]>\n"+tail); r.Usage.Pref("train-ai") != PrefNo {
		t.Errorf("control: receipt usage %q; want train-ai=n", r.Usage)
	}
}

// xhtmlDirectives returns the receipt and the page directives of page
// served as application/xhtml+xml by a site whose robots.txt allows
// everything.
func xhtmlDirectives(t *testing.T, page string) (Receipt, meta.Directives) {
	t.Helper()
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	_, tr, _ := newTestTransport(t)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
	resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/xhtml+xml"}}, Request: req, ContentLength: int64(len(page))}
	return tr.Receipt(resp, []byte(page)), tr.PageDirectives(resp, []byte(page))
}

// TestReceiptXHTMLCommentRunsOn: XML's comment "<!-->" (or "<!--->")
// runs on to the next "-->", which the HTML tokenizer ends at once: in
// the prolog, the internal subset or the head, a "<x y='" in it hides no
// head: noai is read.
func TestReceiptXHTMLCommentRunsOn(t *testing.T) {
	tail := xhtmlRoot + `<head><title>t</title><meta name="robots" content="noai"/></head><body><p>It's here.</p></body></html>`
	for _, c := range []struct{ name, page string }{
		{"<!--> in the internal subset", xhtmlProlog + "<!DOCTYPE html [\n<!--> ]> <x y=' -->\n]>\n" + tail},
		{"<!---> in the internal subset", xhtmlProlog + "<!DOCTYPE html [\n<!---> ]> <x y=' -->\n]>\n" + tail},
		{"<!--> in the prolog", xhtmlProlog + "<!--> <x y=' -->\n<!DOCTYPE html>\n" + tail},
		{"<!--> in the head", xhtmlProlog + "<!DOCTYPE html>\n" + xhtmlRoot +
			`<head><title>t</title><!--> <x y=' --><meta name="robots" content="noai"/></head><body><p>It's here.</p></body></html>`},
	} {
		if r, d := xhtmlDirectives(t, c.page); !xhtmlNoAIRead(r) {
			t.Errorf("%s: receipt usage %q, signals %q, PageDirectives NoAI %v; want train-ai=n (XML reads noai in the head)",
				c.name, r.Usage, sigs(r.Signals), d.NoAI)
		}
	}
	// Control: a comment XML and HTML end alike.
	if r, d := xhtmlDirectives(t, xhtmlProlog+"<!DOCTYPE html [\n<!-- a ]> b -->\n]>\n"+tail); r.Usage.Pref("train-ai") != PrefNo {
		t.Errorf("control: receipt usage %q, NoAI %v; want train-ai=n", r.Usage, d.NoAI)
	}
}

// TestReceiptXHTMLRawTextHoldsMeta: XML has no raw text: a <meta/> in
// an XHTML head's <title>, <style>, <script> or <noframes> is a head
// element to it (the HTML tokenizer reads it as text): its noai is read.
func TestReceiptXHTMLRawTextHoldsMeta(t *testing.T) {
	for _, el := range []string{"title", "style", "script", "noframes"} {
		page := xhtmlProlog + "<!DOCTYPE html>\n" + xhtmlRoot + `<head><` + el + `><meta name="robots" content="noai"/></` + el + `></head><body><p>x</p></body></html>`
		if r, d := xhtmlDirectives(t, page); !xhtmlNoAIRead(r) {
			t.Errorf("a <meta/> within the head's <%s>: receipt usage %q, signals %q, PageDirectives NoAI %v; want train-ai=n (XML reads noai in the head)",
				el, r.Usage, sigs(r.Signals), d.NoAI)
		}
	}
}

// xhtmlNoAIRead reports whether r says train-ai=n by a robots META's
// noai, and nothing else: the head read, not unreadable.
func xhtmlNoAIRead(r Receipt) bool {
	return slices.Equal(sigs(r.Signals), []string{"robots-meta train-ai n robots"})
}

const (
	xhtmlPrologDoctype = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<!DOCTYPE html>` + "\n"
	xhtmlStrictDoctype = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">` + "\n"
	xhtmlNoAI          = `<meta name="robots" content="noai"/>`
	xhtmlBody          = `<body><p>It's here.</p></body></html>`
)

// TestReceiptXHTMLCommentedScript: a head <script> or <style> whose code
// is wrapped in an XML comment (the old "<!-- … //-->" idiom), holding
// tag-like text, is read: XML reads a comment there, no tag.
func TestReceiptXHTMLCommentedScript(t *testing.T) {
	for name, el := range map[string]string{
		"a script in a comment writing a tag": `<script type="text/javascript"><!--` + "\n" + `document.write("<p>Please enable cookies.</p>");` + "\n" + `//--></script>`,
		"a style in a comment naming a tag":   `<style type="text/css"><!--` + "\n" + `/* <b> and <strong> alike */ b, strong { font-weight: bold }` + "\n" + `--></style>`,
	} {
		page := xhtmlPrologDoctype + xhtmlRoot + `<head><title>t</title>` + el + `<meta name="robots" content="noarchive"/></head>` + xhtmlBody
		r, d := xhtmlDirectives(t, page)
		if len(r.Signals) != 0 || r.Usage.Pref("train-ai") == PrefNo || !d.NoArchive || d.NoIndex || d.NoAI {
			t.Errorf("%s: receipt usage %q, signals %q; PageDirectives noindex %v noai %v noarchive %v; want nothing stated, noarchive alone (XML reads a comment, expat: [('robots', 'noarchive')])",
				name, r.Usage, sigs(r.Signals), d.NoIndex, d.NoAI, d.NoArchive)
		}
	}
}

// TestReceiptXHTMLPredefinedEntities: a DOCTYPE declaring XML's five
// predefined entities again, as XML 1.0 §4.6 recommends, changes nothing:
// "&amp;" in a link or title, "&quot;" in a META, are read.
func TestReceiptXHTMLPredefinedEntities(t *testing.T) {
	const subset = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<!DOCTYPE html [
<!ENTITY lt     "&#38;#60;">
<!ENTITY gt     "&#62;">
<!ENTITY amp    "&#38;#38;">
<!ENTITY apos   "&#39;">
<!ENTITY quot   "&#34;">
<!ENTITY nbsp   "&#160;">
]>` + "\n"
	for name, head := range map[string]string{
		"a stylesheet link's query":    `<title>t</title><link rel="stylesheet" href="/style.css?v=2&amp;theme=dark"/>`,
		"a title holding &amp;":        `<title>Tom &amp; Jerry</title>`,
		"a description holding &quot;": `<title>t</title><meta name="description" content="The &quot;best&quot; recipes"/>`,
	} {
		page := subset + xhtmlRoot + `<head>` + head + `<meta name="robots" content="noarchive"/></head>` + xhtmlBody
		r, d := xhtmlDirectives(t, page)
		if len(r.Signals) != 0 || r.Usage.Pref("train-ai") == PrefNo || !d.NoArchive || d.NoIndex || d.NoAI {
			t.Errorf("%s: receipt usage %q, signals %q; PageDirectives noindex %v noai %v noarchive %v; want nothing stated, noarchive alone (expat: [('robots', 'noarchive')])",
				name, r.Usage, sigs(r.Signals), d.NoIndex, d.NoAI, d.NoArchive)
		}
	}
}

// TestReceiptXHTMLCDATAInComment: "<![CDATA[" within a comment or a
// processing instruction in a head's <title> or <style> opens no CDATA
// section: the META after it, an element to XML, makes the page
// unreadable.
func TestReceiptXHTMLCDATAInComment(t *testing.T) {
	head := xhtmlPrologDoctype + xhtmlRoot + `<head>`
	for name, page := range map[string]string{
		"comments in the title": head + `<title>t<!--<![CDATA[-->` + xhtmlNoAI + `<!--]]>--></title></head>` + xhtmlBody,
		"PIs in the title":      head + `<title>t<?x <![CDATA[?>` + xhtmlNoAI + `<?x ]]>?></title></head>` + xhtmlBody,
		"comments in a style":   head + `<title>t</title><style><!--<![CDATA[-->` + xhtmlNoAI + `<!--]]>--></style></head>` + xhtmlBody,
	} {
		if r, d := xhtmlDirectives(t, page); !xhtmlNoAIRead(r) {
			t.Errorf("%s: receipt usage %q, signals %q, PageDirectives NoAI %v; want train-ai=n (XML reads noai in the head)",
				name, r.Usage, sigs(r.Signals), d.NoAI)
		}
	}
	// Control: no comments.
	if r, _ := xhtmlDirectives(t, head+`<title>t`+xhtmlNoAI+`</title></head>`+xhtmlBody); r.Usage.Pref("train-ai") != PrefNo {
		t.Errorf("control: receipt usage %q; want train-ai=n", r.Usage)
	}
}

// TestReceiptXHTMLLongEntityName: an entity of a long name is read as
// any other: used in the body, the page is read; named in a META, the
// META says what it expands to.
func TestReceiptXHTMLLongEntityName(t *testing.T) {
	name := strings.Repeat("e", 500)
	doctype := `<?xml version="1.0"?><!DOCTYPE html [<!ENTITY ` + name + ` "noai">]>` + xhtmlRoot
	if r, d := xhtmlDirectives(t, doctype+`<head><title>t</title><meta name="robots" content="noarchive"/></head><body><p>&`+name+`;</p></body></html>`); len(r.Signals) != 0 || !d.NoArchive || d.NoAI {
		t.Errorf("used in the body: receipt usage %q, signals %q, %+v; want noarchive alone", r.Usage, sigs(r.Signals), d)
	}
	if r, _ := xhtmlDirectives(t, doctype+`<head><meta name="robots" content="&`+name+`;"/></head><body/></html>`); !slices.Equal(sigs(r.Signals), []string{"robots-meta train-ai n robots"}) {
		t.Errorf("named in a META: receipt usage %q, signals %q; want the META's noai", r.Usage, sigs(r.Signals))
	}
}

// TestReceiptXHTMLCaseFolded: XML tells names apart by case, which the
// HTML tokenizer folds, keeping the first of two folded alike: beside a
// META's NAME, an XMLNS, xmlns:H beside xmlns:h, a <HEAD> or <BODY> (no
// head, no body to XML), the noai XML reads is read.
func TestReceiptXHTMLCaseFolded(t *testing.T) {
	head := xhtmlPrologDoctype + xhtmlRoot + `<head><title>t</title>`
	for name, page := range map[string]string{
		// The tokenizer keeps the first of two names folded alike.
		"NAME before name":       head + `<meta NAME="description" name="robots" content="noai"/></head>` + xhtmlBody,
		"CONTENT before content": head + `<meta name="robots" CONTENT="" content="noai"/></head>` + xhtmlBody,
		// XMLNS is an attribute to XML, the default namespace to xhtmlHead.
		"XMLNS on the meta": head + `<meta XMLNS="urn:x" name="robots" content="noai"/></head>` + xhtmlBody,
		// xmlns:H folds onto xmlns:h, the first kept.
		"xmlns:H before xmlns:h": xhtmlPrologDoctype + `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:H="urn:x" xmlns:h="http://www.w3.org/1999/xhtml">` +
			`<head><title>t</title><h:meta name="robots" content="noai"/></head>` + xhtmlBody,
		// <BODY/> is an unknown element of the head to XML.
		"<BODY/> in the head": head + `<BODY/>` + xhtmlNoAI + `</head>` + xhtmlBody,
		// <HEAD> is no head to XML: the head is the one after.
		"<HEAD></HEAD><DIV/> before the head": xhtmlPrologDoctype + xhtmlRoot + `<HEAD></HEAD><DIV/><head><title>t</title>` + xhtmlNoAI + `</head>` + xhtmlBody,
	} {
		if r, d := xhtmlDirectives(t, page); !xhtmlNoAIRead(r) {
			t.Errorf("%s: receipt usage %q, signals %q, PageDirectives NoAI %v; want train-ai=n (XML reads noai or tdm-reservation 1 in the head)",
				name, r.Usage, sigs(r.Signals), d.NoAI)
		}
	}
	page := head + `<meta NAME="x" name="tdm-reservation" content="1"/></head>` + xhtmlBody
	if r, _ := xhtmlDirectives(t, page); !slices.Equal(sigs(r.Signals), []string{"tdm-meta train-ai n tdm-reservation"}) {
		t.Errorf("NAME before a tdm-reservation: signals %q; want the reservation read", sigs(r.Signals))
	}
	// Control: the same head, names as XML reads them.
	if r, d := xhtmlDirectives(t, head+xhtmlNoAI+`</head>`+xhtmlBody); r.Usage.Pref("train-ai") != PrefNo || !d.NoAI {
		t.Errorf("control: receipt usage %q, NoAI %v; want train-ai=n", r.Usage, d.NoAI)
	}
}

// TestReceiptXHTMLHeadBounds: the head ends where its element does: a
// <body/> or <head></head> within it ends nothing, and an element before
// it (a <div/>, a foreign one) begins no body, so its META is read.
func TestReceiptXHTMLHeadBounds(t *testing.T) {
	for name, page := range map[string]string{
		"a <body/> within the head":             xhtmlPrologDoctype + xhtmlRoot + `<head><title>t</title><body/>` + xhtmlNoAI + `</head>` + xhtmlBody,
		"a body holding the META in the head":   xhtmlPrologDoctype + xhtmlRoot + `<head><title>t</title><body>` + xhtmlNoAI + `</body></head>` + xhtmlBody,
		"a <head></head> within the head":       xhtmlPrologDoctype + xhtmlRoot + `<head><title>t</title><head></head><div/>` + xhtmlNoAI + `</head>` + xhtmlBody,
		"a <div/> before the head":              xhtmlPrologDoctype + xhtmlRoot + `<div/><head><title>t</title>` + xhtmlNoAI + `</head>` + xhtmlBody,
		"another namespace's element before it": xhtmlPrologDoctype + xhtmlRoot + `<x:foo xmlns:x="urn:x"/><head><title>t</title>` + xhtmlNoAI + `</head>` + xhtmlBody,
	} {
		if r, d := xhtmlDirectives(t, page); !xhtmlNoAIRead(r) {
			t.Errorf("%s: receipt usage %q, signals %q, PageDirectives NoAI %v; want train-ai=n (XML reads noai in the head)",
				name, r.Usage, sigs(r.Signals), d.NoAI)
		}
	}
}

// TestReceiptXHTMLEmptyHead: a self-closing <head/> is empty, as XML
// reads it: the body is no head (a page past 1 MiB, or nesting deep, is
// read, and a body META is not the head's).
func TestReceiptXHTMLEmptyHead(t *testing.T) {
	head := xhtmlPrologDoctype + xhtmlRoot + `<head/>`
	for name, page := range map[string]string{
		"a body past 1 MiB":         head + `<body>` + strings.Repeat("<p>Some text of the article.</p>\n", (1<<20)/32+64) + `</body></html>`,
		"a body nested 300 deep":    head + `<body>` + strings.Repeat("<div>", 300) + "x" + strings.Repeat("</div>", 300) + `</body></html>`,
		"a robots meta in the body": head + `<body><div><meta name="robots" content="noarchive"/></div></body></html>`,
	} {
		r, d := xhtmlDirectives(t, page)
		if len(r.Signals) != 0 || r.Usage.Pref("train-ai") == PrefNo || d.NoIndex || d.NoAI || d.NoArchive {
			t.Errorf("%s: receipt usage %q, signals %q; PageDirectives noindex %v noai %v noarchive %v; want nothing stated (XML's head is empty, expat: [])",
				name, r.Usage, sigs(r.Signals), d.NoIndex, d.NoAI, d.NoArchive)
		}
	}
}

// TestReceiptXHTMLUpperCaseNames: names in upper case that fold onto no
// other (HTTP-EQUIV, Content, xmlns:MSHelp) change nothing XML reads: the
// head says noarchive alone.
func TestReceiptXHTMLUpperCaseNames(t *testing.T) {
	for name, page := range map[string]string{
		"a META's HTTP-EQUIV and CONTENT": xhtmlPrologDoctype + xhtmlRoot + `<head><title>t</title><meta HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=utf-8"/><meta name="robots" content="noarchive"/></head>` + xhtmlBody,
		"a description's Content":         xhtmlPrologDoctype + xhtmlRoot + `<head><title>t</title><meta name="description" Content="A page"/><meta name="robots" content="noarchive"/></head>` + xhtmlBody,
		"xmlns:MSHelp on <html>":          xhtmlPrologDoctype + `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:MSHelp="http://msdn.microsoft.com/mshelp"><head><title>t</title><meta name="robots" content="noarchive"/></head>` + xhtmlBody,
	} {
		r, d := xhtmlDirectives(t, page)
		if len(r.Signals) != 0 || r.Usage.Pref("train-ai") == PrefNo || !d.NoArchive || d.NoIndex || d.NoAI {
			t.Errorf("%s: receipt usage %q, signals %q; PageDirectives noindex %v noai %v noarchive %v; want nothing stated, noarchive alone (expat reads the head: noarchive)",
				name, r.Usage, sigs(r.Signals), d.NoIndex, d.NoAI, d.NoArchive)
		}
	}
}

// TestReceiptXHTMLFoldedStructure: a prefixed <h:BODY/> or <h:HEAD>, or a
// <TEMPLATE> (no template to XML, its META in the head), is no element of
// the head's structure: the noai XML reads is read.
func TestReceiptXHTMLFoldedStructure(t *testing.T) {
	h := xhtmlPrologDoctype + `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:h="http://www.w3.org/1999/xhtml">`
	for name, page := range map[string]string{
		"<h:BODY/> before the head":               h + `<h:BODY/><head><title>t</title>` + xhtmlNoAI + `</head>` + xhtmlBody,
		"<h:HEAD></h:HEAD><div/> before the head": h + `<h:HEAD></h:HEAD><div/><head><title>t</title>` + xhtmlNoAI + `</head>` + xhtmlBody,
		"<TEMPLATE> in the head":                  xhtmlPrologDoctype + xhtmlRoot + `<head><title>t</title><TEMPLATE>` + xhtmlNoAI + `</TEMPLATE></head>` + xhtmlBody,
	} {
		if r, d := xhtmlDirectives(t, page); !xhtmlNoAIRead(r) {
			t.Errorf("%s: receipt usage %q, signals %q, PageDirectives NoAI %v; want train-ai=n (XML reads noai in the head)",
				name, r.Usage, sigs(r.Signals), d.NoAI)
		}
	}
	// Control: <BODY/>, <HEAD> unprefixed.
	if r, _ := xhtmlDirectives(t, xhtmlPrologDoctype+xhtmlRoot+`<HEAD></HEAD><DIV/><head><title>t</title>`+xhtmlNoAI+`</head>`+xhtmlBody); r.Usage.Pref("train-ai") != PrefNo {
		t.Errorf("control: receipt usage %q; want train-ai=n", r.Usage)
	}
}

// TestReceiptXHTMLPrefixFolded: a prefix declared in upper case on one
// element (xmlns:H) and in lower case on another (xmlns:h) are two to XML
// (and one to the HTML tokenizer): the noai of an <h:meta> XML reads as
// XHTML's is read.
func TestReceiptXHTMLPrefixFolded(t *testing.T) {
	const x = "http://www.w3.org/1999/xhtml"
	for name, page := range map[string]string{
		"xmlns:H on the head, <h:meta>": xhtmlPrologDoctype + `<html xmlns="` + x + `" xmlns:h="` + x + `"><head xmlns:H="urn:x"><title>t</title><h:meta name="robots" content="noai"/></head>` + xhtmlBody,
		"xmlns:h on the head, <H:meta>": xhtmlPrologDoctype + `<html xmlns="` + x + `" xmlns:H="` + x + `"><head xmlns:h="urn:x"><title>t</title><H:meta name="robots" content="noai"/></head>` + xhtmlBody,
		"xmlns:H on the meta, <h:meta>": xhtmlPrologDoctype + `<html xmlns="` + x + `" xmlns:h="` + x + `"><head><title>t</title><h:meta xmlns:H="urn:x" name="robots" content="noai"/></head>` + xhtmlBody,
	} {
		if r, d := xhtmlDirectives(t, page); !xhtmlNoAIRead(r) {
			t.Errorf("%s: receipt usage %q, signals %q, PageDirectives NoAI %v; want train-ai=n (XML reads noai in the head, expat: [('robots', 'noai')])",
				name, r.Usage, sigs(r.Signals), d.NoAI)
		}
	}
	// Control: the same prefixes on one tag.
	if r, _ := xhtmlDirectives(t, xhtmlPrologDoctype+`<html xmlns="`+x+`" xmlns:h="`+x+`" xmlns:H="urn:x"><head><title>t</title><h:meta name="robots" content="noai"/></head>`+xhtmlBody); r.Usage.Pref("train-ai") != PrefNo {
		t.Errorf("control: receipt usage %q; want train-ai=n", r.Usage)
	}
}

// TestReceiptXHTMLUpperCaseMeta: a META whose NAME and CONTENT are in
// upper case names nothing to XML: its tdm-policy replaces no other, its
// noindex is not read.
func TestReceiptXHTMLUpperCaseMeta(t *testing.T) {
	page := xhtmlPrologDoctype + xhtmlRoot + `<head><title>t</title><meta NAME="tdm-policy" CONTENT="https://evil.example/"/><meta name="tdm-policy" content="https://real.example/"/><meta name="tdm-reservation" content="1"/></head>` + xhtmlBody
	r, _ := xhtmlDirectives(t, page)
	policy := r.TDMPolicy
	if policy != "https://real.example/" {
		t.Errorf("tdm-policy: receipt policy %q, usage %q; want https://real.example/ (XML reads no name on the NAME/CONTENT META)", policy, r.Usage)
	}
	// Other attributes in upper case leave it read.
	for _, attr := range []string{`data-Src="x"`, `itemProp="x"`, `ID="m1"`, `xmlns:DC="urn:dc"`} {
		page := xhtmlPrologDoctype + xhtmlRoot + `<head><title>t</title><meta name="robots" content="noai" ` + attr + `/></head>` + xhtmlBody
		if r, _ := xhtmlDirectives(t, page); !xhtmlNoAIRead(r) {
			t.Errorf("a noai META with %s: receipt usage %q, signals %q; want train-ai=n", attr, r.Usage, sigs(r.Signals))
		}
	}
	page = xhtmlPrologDoctype + xhtmlRoot + `<head><title>t</title><meta NAME="robots" CONTENT="noindex"/></head>` + xhtmlBody
	if r, d := xhtmlDirectives(t, page); d.NoIndex || len(r.Signals) != 0 {
		t.Errorf("NAME=robots CONTENT=noindex: PageDirectives noindex %v, receipt usage %q signals %q; want nothing stated (expat: [(None, None)])",
			d.NoIndex, r.Usage, sigs(r.Signals))
	}
}

// BenchmarkXHTMLEntities reads a page of 1 MiB, half of it entities its
// DOCTYPE declares, half tags in its head: each '&' is looked up once,
// however many are declared (a scan of each entity at each tag took
// 20 s).
func BenchmarkXHTMLEntities(b *testing.B) {
	var decls, tags strings.Builder
	for i := 0; decls.Len() < 512<<10; i++ {
		fmt.Fprintf(&decls, `<!ENTITY e%d "x">`, i)
	}
	for tags.Len() < 512<<10 {
		tags.WriteString(`<b title="&amp;&e7;"/>`)
	}
	page := []byte(xhtmlProlog + "<!DOCTYPE html [" + decls.String() + "]>" + xhtmlRoot + "<head>" + tags.String() +
		`<meta name="robots" content="noai"/></head><body/></html>`)
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if _, whole, _ := xhtmlHead(page); !whole {
			b.Fatal("the page not read whole")
		}
	}
}

// TestXHTMLHeadNotWellFormed: an XHTML page not well-formed before its
// body (served all the same) is read as cut there, whatever the HTML
// tokenizer or encoding/xml, which checks less than XML asks, makes of
// it; the tags before are kept. XML does not read it, nor does a browser.
func TestXHTMLHeadNotWellFormed(t *testing.T) {
	const x = "http://www.w3.org/1999/xhtml"
	const first = `<meta name="robots" content="noindex"/>`
	head := `<html xmlns="` + x + `"><head>` + first
	for name, c := range map[string]struct {
		page    string
		noindex bool // the META before the fault read
	}{
		"stray end tags": {`<h:html xmlns:h="` + x + `"><h:head>` + first + `</h:p></h:div>` +
			`<h:meta name="robots" content="noai"/></h:head><h:body/></h:html>`, true},
		"a void element left open in SVG": {head + `<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"></svg>` +
			`<meta name="robots" content="noai"/></head><body/></html>`, true},
		"an undeclared prefix":  {head + `<x:link/><meta name="robots" content="noai"/></head><body/></html>`, true},
		"a name given twice":    {head + `<meta name="robots" name="x" content="noai"/></head><body/></html>`, true},
		"text outside the root": {`<?xml version="1.0"?>a word` + head + `<meta name="robots" content="noai"/></head><body/></html>`, false},
		"no root":               {`<?xml version="1.0"?>`, false},
		"an undeclared entity":  {head + `<title>&bogus;</title><meta name="robots" content="noai"/></head><body/></html>`, true},
		// An entity's text holds no '%' (a parameter entity's
		// reference, which no internal subset may hold, or none).
		"a '%' in an entity's text":      {`<!DOCTYPE html [<!ENTITY e "noai %p;">]>` + head + `<meta name="robots" content="&e;"/></head><body/></html>`, false},
		"a bare '%' in an entity's text": {`<!DOCTYPE html [<!ENTITY e "100%">]>` + head + `<meta name="robots" content="&e;"/></head><body/></html>`, false},
		"cut in the head":                {head + `<title>`, true},
		// encoding/xml lets the last of two xmlns win, and reads the
		// rest of these as written.
		"xmlns twice on the root": {`<html xmlns="` + x + `" xmlns="urn:x"><head><meta name="robots" content="noai"/></head><body/></html>`, false},
		"xmlns twice on the head": {`<html xmlns="` + x + `"><head xmlns="` + x + `" xmlns="urn:x"><meta name="robots" content="noai"/></head><body/></html>`, false},
		"xmlns twice on the meta": {head + `<meta xmlns="` + x + `" xmlns="urn:x" name="robots" content="noai"/></head><body/></html>`, true},
		"xmlns:h twice":           {`<h:html xmlns:h="` + x + `" xmlns:h="urn:x"><h:head><h:meta name="robots" content="noai"/></h:head><h:body/></h:html>`, false},
		"two prefixes bound alike, one name": {`<html xmlns="` + x + `" xmlns:a="urn:a" xmlns:b="urn:a"><head>` + first +
			`<link a:rel="x" b:rel="y"/><meta name="robots" content="noai"/></head><body/></html>`, true},
		"an attribute given twice":           {head + `<link rel="a" rel="b"/><meta name="robots" content="noai"/></head><body/></html>`, true},
		"an attribute's prefix undeclared":   {head + `<link x:rel="stylesheet"/><meta name="robots" content="noai"/></head><body/></html>`, true},
		"a directive in the head":            {head + `<!ELEMENT x ANY><meta name="robots" content="noai"/></head><body/></html>`, true},
		"a directive holding a META":         {head + `<!x <meta name="robots" content="noai"/> ></head><body/></html>`, true},
		"a DOCTYPE in the head":              {head + `<!DOCTYPE x [<!ENTITY a "b">]><meta name="robots" content="noai"/></head><body/></html>`, true},
		"an XML declaration in the head":     {head + `<?xml version="1.0"?><meta name="robots" content="noai"/></head><body/></html>`, true},
		"a line before the XML declaration":  {"\n" + `<?xml version="1.0"?>` + head + `<meta name="robots" content="noai"/></head><body/></html>`, false},
		"an XML declaration without version": {`<?xml encoding="UTF-8"?>` + head + `<meta name="robots" content="noai"/></head><body/></html>`, false},
		"a prefix undeclared (xmlns:h=\"\")": {head + `<link xmlns:h=""/><meta name="robots" content="noai"/></head><body/></html>`, true},
		"attributes without white space":     {head + `<link rel="a"href="b"/><meta name="robots" content="noai"/></head><body/></html>`, true},
		"bytes not UTF-8":                    {head + "\xE9<meta name=\"robots\" content=\"noai\"/></head><body/></html>", true},
		// What encoding/xml reads no character of: checked after it.
		"a comment not UTF-8":                            {head + "<!-- \xA9 M\xFCller --><meta name=\"robots\" content=\"noai\"/></head><body/></html>", true},
		"a control character in a comment":               {head + "<!-- \x01 --><meta name=\"robots\" content=\"noai\"/></head><body/></html>", true},
		"an instruction not UTF-8":                       {head + "<?php echo 'M\xFCller'; ?><meta name=\"robots\" content=\"noai\"/></head><body/></html>", true},
		"a DOCTYPE's id not UTF-8":                       {"<?xml version=\"1.0\"?><!DOCTYPE html SYSTEM \"M\xFCller.dtd\">" + head + `</head><body/></html>`, false},
		"a reference to a surrogate":                     {head + `<link rel="x&#xD800;"/><meta name="robots" content="noai"/></head><body/></html>`, true},
		"a reference to a surrogate in a META":           {head + `<meta name="robots" content="noai&#55296;"/></head><body/></html>`, true},
		"<?XmL ...?>":                                    {`<?XmL version="1.0"?>` + head + `</head><body/></html>`, false},
		"a CDATA section before the root":                {`<?xml version="1.0"?><![CDATA[ ]]>` + head + `</head><body/></html>`, false},
		"a reference before the root":                    {`<?xml version="1.0"?>&#32;` + head + `</head><body/></html>`, false},
		"<!DOCTYPEhtml>":                                 {`<?xml version="1.0"?><!DOCTYPEhtml>` + head + `</head><body/></html>`, false},
		"a quote astray in the subset":                   {`<?xml version="1.0"?><!DOCTYPE html [ ' ]> ' ]>` + head + `</head><body/></html>`, false},
		"a conditional section in the subset":            {`<?xml version="1.0"?><!DOCTYPE html [<![INCLUDE[ ]]>]>` + head + `</head><body/></html>`, false},
		"a parameter entity in an ELEMENT":               {`<?xml version="1.0"?><!DOCTYPE html [<!ELEMENT x %p;>]>` + head + `</head><body/></html>`, false},
		"a reference to a surrogate in an entity":        {`<?xml version="1.0"?><!DOCTYPE html [<!ENTITY e "&#xD800;">]>` + head + `</head><body/></html>`, false},
		"xmlns:xmlns declared":                           {head + `<link xmlns:xmlns="urn:x"/><meta name="robots" content="noai"/></head><body/></html>`, true},
		"xmlns:xml bound elsewhere":                      {head + `<link xmlns:xml="urn:x"/><meta name="robots" content="noai"/></head><body/></html>`, true},
		"a prefix bound out of scope":                    {head + `<x xmlns:q="p"/><p:y/><meta name="robots" content="noai"/></head><body/></html>`, true},
		"a prefix bound nowhere, spelled as a namespace": {head + `<x xmlns:q="h"><h:y/></x><meta name="robots" content="noai"/></head><body/></html>`, true},
		"an element naming it as it binds another":       {head + `<h:y xmlns:q="h"/><meta name="robots" content="noai"/></head><body/></html>`, true},
		"an attribute's prefix spelled as a namespace":   {head + `<x xmlns:q="h"><link h:rel="x"/></x><meta name="robots" content="noai"/></head><body/></html>`, true},
		"p:q, p bound to the namespace named xmlns":      {head + `<x xmlns:p="xmlns" p:q="urn:q"><q:y/></x><meta name="robots" content="noai"/></head><body/></html>`, true},
		"an element prefixed xmlns":                      {head + `<xmlns:x/><meta name="robots" content="noai"/></head><body/></html>`, true},
		"a name begun by ':'":                            {head + `<link :a="1"/><meta name="robots" content="noai"/></head><body/></html>`, true},
		"a name ended by ':'":                            {head + `<link a:="1"/><meta name="robots" content="noai"/></head><body/></html>`, true},
		"a prefix bound to xml's namespace":              {head + `<x xmlns:p="http://www.w3.org/XML/1998/namespace"/><meta name="robots" content="noai"/></head><body/></html>`, true},
		"the default namespace xmlns's":                  {head + `<x xmlns="http://www.w3.org/2000/xmlns/"/><meta name="robots" content="noai"/></head><body/></html>`, true},
	} {
		out, whole, _ := xhtmlHead([]byte(c.page))
		d, err := meta.FromHTML(pageText{b: out, cut: !whole}.reader(), "ExampleBot")
		if whole || err == nil || d.NoAI || d.NoIndex != c.noindex {
			t.Errorf("%s: xhtmlHead = %q, whole %v; FromHTML %+v, %v; want noindex %v alone, cut", name, out, whole, d, err, c.noindex)
		}
	}
	// Control: written well, its attributes on new lines or after '/',
	// or named with a prefix bound to the namespace spelled "xmlns" (an
	// attribute, no declaration: expat reads them).
	for _, tag := range []string{`<x xmlns:p="xmlns" p:a=""/>`, `<x xmlns:p="xmlns" p:xml="urn:z"/>`, `<x xmlns:p="xmlns" p:xmlns="urn:z"/>`,
		`<x xmlns:p="xmlns" p:a="v" xmlns:a="urn:a"/>`} {
		page := head + tag + "<meta name=\"robots\" content=\"noai\"/></head><body/></html>"
		if out, whole, _ := xhtmlHead([]byte(page)); !whole || !bytes.Contains(out, []byte("noai")) {
			t.Errorf("control %s: xhtmlHead = %q, whole %v; want the noai, whole", tag, out, whole)
		}
	}
	page := head + "<link\n\trel=\"a\"\n\thref='b'/><meta name=\"robots\" content=\"noai\"/></head><body/></html>"
	if out, whole, _ := xhtmlHead([]byte(page)); !whole || !bytes.Contains(out, []byte("noai")) {
		t.Errorf("control: xhtmlHead = %q, whole %v; want the noai, whole", out, whole)
	}
}

// TestXHTMLHeadTypedAttlist: an ATTLIST that gives an attribute a type
// (NMTOKEN, ID, an enumeration) has XML normalize its value, which
// encoding/xml does not: an xmlns written " http://www.w3.org/1999/xhtml "
// names XHTML's namespace to XML, its META's noai read. Such a page is
// unreadable, not read without the noai.
func TestXHTMLHeadTypedAttlist(t *testing.T) {
	const x = "http://www.w3.org/1999/xhtml"
	for name, page := range map[string]string{
		"NMTOKEN xmlns on the meta": xhtmlProlog + `<!DOCTYPE html [<!ATTLIST meta xmlns NMTOKEN #IMPLIED>]>` + xhtmlRoot +
			`<head><title>t</title><meta xmlns=" ` + x + ` " name="robots" content="noai"/></head>` + xhtmlBody,
		"NMTOKEN xmlns on the root": xhtmlProlog + `<!DOCTYPE html [<!ATTLIST html xmlns NMTOKEN #IMPLIED>]>` +
			"<html xmlns=\"\n  " + x + "\n\"><head><title>t</title>" + xhtmlNoAI + `</head>` + xhtmlBody,
		"ID xmlns on the meta": xhtmlProlog + `<!DOCTYPE html [<!ATTLIST meta xmlns ID #IMPLIED>]>` + xhtmlRoot +
			`<head><title>t</title><meta xmlns="` + x + ` " name="robots" content="noai"/></head>` + xhtmlBody,
		"enumerated xmlns on the head": xhtmlProlog + `<!DOCTYPE html [<!ATTLIST head xmlns (a|b) #IMPLIED>]>` + xhtmlRoot +
			`<head xmlns=" ` + x + `"><title>t</title>` + xhtmlNoAI + `</head>` + xhtmlBody,
	} {
		if r, _ := xhtmlDirectives(t, page); !slices.Equal(sigs(r.Signals), []string{"robots-meta train-ai n unreadable"}) {
			t.Errorf("%s: receipt usage %q, signals %q; want the page unreadable", name, r.Usage, sigs(r.Signals))
		}
	}
}

// TestReceiptXHTMLAttributeWhiteSpace: a META's name or content is read
// as XML normalizes an attribute's value, each tab or line break (CR LF
// as one) a space: a name "ExampleBot" and more on the next line names
// ExampleBot, and a tdm-policy wrapped over two lines is kept with a
// space.
func TestReceiptXHTMLAttributeWhiteSpace(t *testing.T) {
	head := xhtmlPrologDoctype + xhtmlRoot + `<head><title>t</title>`
	for name, page := range map[string]string{
		"the name as XML reads it":      head + `<meta name="ExampleBot news" content="noai"/></head>` + xhtmlBody,
		"a line break in the name":      head + "<meta name=\"ExampleBot\nnews\" content=\"noai\"/></head>" + xhtmlBody,
		"a CR LF in the name":           head + "<meta name=\"ExampleBot\r\nnews\" content=\"noai\"/></head>" + xhtmlBody,
		"an entity's &#10; in the name": xhtmlProlog + `<!DOCTYPE html [<!ENTITY bot "ExampleBot&#10;news">]>` + xhtmlRoot + `<head><title>t</title><meta name="&bot;" content="noai"/></head>` + xhtmlBody,
	} {
		if r, _ := xhtmlDirectives(t, page); !slices.Equal(sigs(r.Signals), []string{"robots-meta train-ai n ExampleBot"}) {
			t.Errorf("%s: receipt usage %q, signals %q; want ExampleBot's noai", name, r.Usage, sigs(r.Signals))
		}
	}
	page := head + `<meta name="tdm-reservation" content="1"/><meta name="tdm-policy" content="https://example.com/tdm/` + "\r\n" + `policy.json"/></head>` + xhtmlBody
	if r, _ := xhtmlDirectives(t, page); r.TDMPolicy != "https://example.com/tdm/ policy.json" {
		t.Errorf("a tdm-policy over two lines: receipt TDMPolicy %q; want %q", r.TDMPolicy, "https://example.com/tdm/ policy.json")
	}
}

// TestReceiptXHTMLReferenceAsText: "&#0;" in a comment, a CDATA section,
// a processing instruction or a comment of the internal subset is text
// to XML ('&', '#', digits, ';'), no reference to a character XML does
// not allow: such a page (Closure Library's htmlEscape in a CDATA script
// writes '&#0;') is read, its head saying noarchive alone.
func TestReceiptXHTMLReferenceAsText(t *testing.T) {
	const root = `<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en">`
	const tail = `<meta name="robots" content="noarchive"/></head><body><p>x</p></body></html>`
	for _, c := range []struct{ name, page string }{
		{"Closure's htmlEscape in a CDATA script", xhtmlProlog + xhtmlStrictDoctype + root + `<head><title>t</title>` +
			`<script type="text/javascript">//<![CDATA[` + "\n" +
			`goog.string.htmlEscape=function(a){return a.replace(/&/g,"&amp;").replace(/</g,"&lt;").replace(/\x00/g,"&#0;")};` + "\n" +
			`//]]></script>` + tail},
		{"a comment naming a surrogate pair's references", xhtmlProlog + xhtmlStrictDoctype + root + `<head><title>t</title>` +
			`<!-- not &#55357;&#56832; but &#128512; for the emoji -->` + tail},
		{"a CDATA style naming &#xFFFF;", xhtmlProlog + xhtmlStrictDoctype + root + `<head><title>t</title>` +
			`<style type="text/css">/*<![CDATA[*/ .s:after { content: "&#xFFFF;" } /*]]>*/</style>` + tail},
		{"a PHP instruction", xhtmlProlog + xhtmlStrictDoctype + root + `<head><title>t</title><?php $nul = "&#0;"; ?>` + tail},
		{"a comment in the internal subset", xhtmlProlog + "<!DOCTYPE html [\n<!-- NUL, &#0;, is no character of XML's -->\n<!ATTLIST meta property CDATA #IMPLIED>\n]>\n" +
			root + `<head><title>t</title>` + tail},
		{"a comment in the prolog", xhtmlProlog + "<!-- &#1; -->\n" + root + `<head><title>t</title>` + tail},
	} {
		r, d := xhtmlDirectives(t, c.page)
		if r.Usage.Pref("train-ai") != PrefUnknown || len(r.Signals) != 0 || !d.NoArchive || d.NoAI {
			t.Errorf("%s: receipt usage %q, signals %q, PageDirectives noai %v noarchive %v; want nothing stated, noarchive alone (expat reads the head: [('robots', 'noarchive')]; '&#0;' there is text, no reference)",
				c.name, r.Usage, sigs(r.Signals), d.NoAI, d.NoArchive)
		}
	}
}

// TestXHTMLHeadEntityExpansion: a page whose references would expand to
// more than maxExpansion bytes of text (a 64 KiB entity named 1,024
// times in 68 KB: encoding/xml copies it at each) is unreadable, not
// expanded; a page naming its entities as real ones do is read.
func TestXHTMLHeadEntityExpansion(t *testing.T) {
	page := []byte(xhtmlProlog + `<!DOCTYPE html [<!ENTITY e "` + strings.Repeat("a", 64<<10) + `">]>` + xhtmlRoot +
		`<head><title>` + strings.Repeat("&e;", (maxExpansion>>16)+1) + `</title>` + xhtmlNoAI + `</head>` + xhtmlBody)
	if out, whole, _ := xhtmlHead(page); whole || len(out) > 64 {
		t.Errorf("amplified: xhtmlHead = %.64q…, whole %v; want unreadable", out, whole)
	}
	page = []byte(xhtmlProlog + `<!DOCTYPE html [<!ENTITY e "` + strings.Repeat("a", 64<<10) + `">]>` + xhtmlRoot +
		`<head><title>` + strings.Repeat("&e;", (maxExpansion>>16)-1) + "&nbsp;&amp;" + `</title>` + xhtmlNoAI + `</head>` + xhtmlBody)
	if out, whole, _ := xhtmlHead(page); !whole || !bytes.Contains(out, []byte("noai")) {
		t.Errorf("within the bound: xhtmlHead = %q, whole %v; want the noai, whole", out, whole)
	}
}

// TestXHTMLHeadSecondHead: a META in a second <head> before the body is
// read, as HTML's parser reads it into the head (as a META that is a
// child of the root there).
func TestXHTMLHeadSecondHead(t *testing.T) {
	for name, page := range map[string]string{
		"a second head":       xhtmlPrologDoctype + xhtmlRoot + `<head><title>t</title></head><head>` + xhtmlNoAI + `</head>` + xhtmlBody,
		"a child of the root": xhtmlPrologDoctype + xhtmlRoot + `<head><title>t</title></head>` + xhtmlNoAI + xhtmlBody,
	} {
		if r, _ := xhtmlDirectives(t, page); !xhtmlNoAIRead(r) {
			t.Errorf("%s: receipt usage %q, signals %q; want the noai read", name, r.Usage, sigs(r.Signals))
		}
	}
}

// TestReceiptXHTMLEncoding: a UTF-8 byte-order mark decides an XHTML
// page's encoding over its Content-Type's charset, as browsers read it:
// a page served as ISO-8859-1 (a server's default), Shift_JIS or UTF-16
// is read as UTF-8, as XML. A page in UTF-8 holding a byte that is not
// is unreadable, as to XML (not read with U+FFFD in its place).
func TestReceiptXHTMLEncoding(t *testing.T) {
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	_, tr, _ := newTestTransport(t)
	page := []byte("\xEF\xBB\xBF" + xhtmlPrologDoctype + xhtmlRoot + `<head><title>t` + xhtmlNoAI + `</title><meta name="robots" content="noarchive"/></head>` + xhtmlBody)
	for _, cs := range []string{"iso-8859-1", "windows-1252", "shift_jis", "utf-16", "utf-8"} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/xhtml+xml; charset=" + cs}}, Request: req, ContentLength: int64(len(page))}
		if r, d := tr.Receipt(resp, page), tr.PageDirectives(resp, page); !xhtmlNoAIRead(r) || !d.NoArchive || d.NoIndex {
			t.Errorf("charset=%s: receipt signals %q, PageDirectives %+v; want noai (a META in the title, to XML) and noarchive", cs, sigs(r.Signals), d)
		}
	}
	page = []byte(xhtmlPrologDoctype + xhtmlRoot + "<head><title>Caf\xE9</title>" + xhtmlNoAI + "</head>" + xhtmlBody)
	for _, ct := range []string{"application/xhtml+xml", "application/xhtml+xml; charset=utf-8"} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {ct}}, Request: req, ContentLength: int64(len(page))}
		if r := tr.Receipt(resp, page); !slices.Equal(sigs(r.Signals), []string{"robots-meta train-ai n unreadable"}) {
			t.Errorf("%s, a byte not UTF-8: receipt signals %q; want the page unreadable", ct, sigs(r.Signals))
		}
	}
}

// TestReceiptXHTMLNestedPastBound: an XHTML head nesting more elements
// than are read is read as cut there: unreadable, train-ai=n.
func TestReceiptXHTMLNestedPastBound(t *testing.T) {
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	_, tr, _ := newTestTransport(t)
	page := `<html xmlns="http://www.w3.org/1999/xhtml"><head><svg xmlns="http://www.w3.org/2000/svg">` +
		strings.Repeat(`<path d="M0 0">`, maxXMLDepth) + `</svg><meta name="robots" content="noai"/></head><body/></html>`
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
	resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/xhtml+xml"}}, Request: req, ContentLength: int64(len(page))}
	if r := tr.Receipt(resp, []byte(page)); r.Usage.Pref("train-ai") != PrefNo || !slices.Contains(sigs(r.Signals), "robots-meta train-ai n unreadable") {
		t.Errorf("usage %q, signals %q; want the head unreadable", r.Usage, sigs(r.Signals))
	}
}

// A benign page: a <template> in its head, and 65 "<html" in a script
// in its body (or custom elements, or srcdoc iframes).
func templatePage(body string) string {
	return "<!doctype html><html lang=en><head><title>Demo</title>" +
		`<template id="row"><tr><td class="name"></td></tr></template>` +
		`<meta name="robots" content="index, follow">` +
		"</head><body><h1>Demo</h1>" + body + "</body></html>"
}

// TestPageDirectivesBenignRootTags: a page whose text names "<html" and
// "<body" many times (scripts, comments, custom elements, srcdoc) is
// read, not unreadable: the bound on root tags the parser copies counts
// their attributes.
func TestPageDirectivesBenignRootTags(t *testing.T) {
	cases := map[string]string{
		"script strings": "<script>var docs = [" + strings.Repeat(`"<html><body></body></html>",`, 33) + "];</script>",
		"comments":       strings.Repeat("<!-- <html> was here --><p>x</p>", 65),
		"custom element": strings.Repeat(`<body-card title="x"></body-card>`, 65),
		"iframe srcdoc":  strings.Repeat(`<iframe srcdoc="<html><body>preview</body></html>"></iframe>`, 33),
		"textarea":       "<textarea>" + strings.Repeat("<html><body></body></html>\n", 33) + "</textarea>",
	}
	c, rt := NewClientTransport(nil, []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = c.Close() })
	for name, body := range cases {
		page := templatePage(body)
		d, err := meta.FromHTML(strings.NewReader(page), "testbot")
		if err != nil || d.NoIndex {
			t.Errorf("%s: meta.FromHTML = %+v, %v; want no error, index", name, d, err)
		}
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/html"}}, ContentLength: int64(len(page))}
		if pd := rt.PageDirectives(resp, []byte(page)); pd.NoIndex || pd.NoAI {
			t.Errorf("%s: PageDirectives = %+v: a benign %d-byte page reads as no to everything", name, pd, len(page))
		}
		rc := rt.Receipt(resp, []byte(page))
		for _, s := range rc.Signals {
			if s.Where == "unreadable" {
				t.Errorf("%s: Receipt signal %+v: a false train-ai=n", name, s)
			}
		}
	}
}

// TestPageDirectivesScriptedRootTags: a head whose script names "<html"
// many times is read as a browser running scripts builds it too: a
// noindex after a <noscript><iframe> pixel is kept.
func TestPageDirectivesScriptedRootTags(t *testing.T) {
	page := "<!doctype html><html><head><title>t</title><script>var a=[" + strings.Repeat(`'<html>',`, 65) + "];</script>" +
		`<noscript><iframe src="https://pixel.example/ns"></noscript>` +
		`<meta name="robots" content="noindex"></head><body>x</body></html>`
	d, err := meta.FromHTML(strings.NewReader(page))
	if !d.NoIndex {
		t.Errorf("FromHTML = %+v, %v: the noindex a browser running scripts reads in the head is lost", d, err)
	}
}

// TestXMLEncoding: the encoding an XML declaration at the start names.
func TestXMLEncoding(t *testing.T) {
	for in, want := range map[string]string{
		`<?xml version="1.0" encoding="ISO-2022-JP"?><html/>`: "ISO-2022-JP",
		`<?xml version='1.0' encoding = 'utf-8' ?>`:           "utf-8",
		`<?xml version="1.0"?><p encoding="x"/>`:              "",
		`<?xml version="1.0" encoding=x?>`:                    "",
		`<?xml version="1.0" encoding="unclosed`:              "",
		` <?xml version="1.0" encoding="utf-8"?>`:             "",
		`<html><?xml encoding="utf-8"?>`:                      "",
		"":                                                    "",
	} {
		if got := xmlEncoding([]byte(in)); got != want {
			t.Errorf("xmlEncoding(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestReceiptWaitsForSlot: a receipt's fill of tdmrep.json that finds
// the one fetch slot taken (WithMaxFetches(1)) waits for it, then
// fetches, for longer than a fetch may take: the file, reachable and
// reserving nothing, says so (it gave up at the fetch timeout, n).
func TestReceiptWaitsForSlot(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nAllow: /\nContent-Usage: train-ai=y\n"))
	w.on("a.test/page", serve(200, "page", "Content-Type", "text/plain"))
	w.on("a.test"+tdmrepPath, func(rw http.ResponseWriter, r *http.Request) {
		time.Sleep(600 * time.Millisecond) // begun as the page is sent, read once the slot is free
		rw.Header().Set("Content-Type", "application/json")
		_, _ = rw.Write([]byte(`[{"location":"/","tdm-reservation":0}]`))
	})
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA), WithTDMRep(), WithMaxFetches(1), WithFetchTimeout(time.Second)})
	t.Cleanup(func() { _ = c.Close() })
	resp, body := fetchPage(t, &http.Client{Transport: tr}, "http://a.test/page")
	release := holdSlot(t, c, func(h http.HandlerFunc) string {
		w.on("slow.test/robots.txt", h)
		return "http://slow.test"
	})
	time.AfterFunc(750*time.Millisecond, release) // with the file's 600 ms, past a fetch's 1 s
	if r := tr.Receipt(resp, body); r.Usage.Pref("train-ai") != PrefYes {
		t.Errorf("usage %q, signals %q; want train-ai=y (tdmrep.json reachable, reserving nothing)", r.Usage, sigs(r.Signals))
	}
}

// pageReceipt returns the receipt and the PageDirectives of an XHTML
// page of the given bytes and Content-Type, a response the Transport did
// not send (read as it reads any).
func pageReceipt(t *testing.T, ct string, page []byte) (Receipt, meta.Directives) {
	t.Helper()
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	_, tr, _ := newTestTransport(t)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
	resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {ct}}, Request: req, ContentLength: int64(len(page))}
	return tr.Receipt(resp, page), tr.PageDirectives(resp, page)
}

// utf16LEWith writes s as UTF-16LE with a byte-order mark, each U+E000
// in s written as the unpaired low surrogate 0xDC00 (a code unit no
// character is: the page is not in UTF-16, XML 1.0 §4.3.3).
func utf16LEWith(s string) []byte {
	b := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		if u == 0xE000 {
			u = 0xDC00
		}
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

// TestReceiptXHTMLUnpairedSurrogate: an XHTML page in UTF-16 holding an
// unpaired (low) surrogate is not UTF-16, and XML (expat: "not
// well-formed (invalid token)") reads no page: unreadable, train-ai=n,
// as a UTF-8 page holding bytes not UTF-8. The decoder's U+FFFD made the
// head readable: "noai\uFFFD", no noai.
func TestReceiptXHTMLUnpairedSurrogate(t *testing.T) {
	const root = `<?xml version="1.0" encoding="UTF-16"?>` + "\n" + `<html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title>`
	for _, c := range []struct{ name, head string }{
		{"a surrogate after the noai in its content", `<meta name="robots" content="noai` + "\uE000" + `"/>`},
		{"a surrogate in a comment of the head, noarchive alone", `<meta name="robots" content="noarchive"/><!-- ` + "\uE000" + ` -->`},
	} {
		page := utf16LEWith(root + c.head + `</head><body><p>x</p></body></html>`)
		r, d := pageReceipt(t, "application/xhtml+xml", page)
		if r.Usage.Pref("train-ai") != PrefNo || !strings.Contains(strings.Join(sigs(r.Signals), "|"), "unreadable") || !d.NoAI {
			t.Errorf("%s: receipt usage %q, signals %q, PageDirectives NoAI %v; want train-ai=n, robots-meta unreadable (XML refuses the page: not UTF-16)",
				c.name, r.Usage, sigs(r.Signals), d.NoAI)
		}
	}
	// Control: the same page with the surrogate paired reads as written.
	page := utf16LEWith(root + `<meta name="robots" content="noai"/><!-- ` + "\U0001F600" + ` --></head><body><p>x</p></body></html>`)
	if r, d := pageReceipt(t, "application/xhtml+xml", page); r.Usage.Pref("train-ai") != PrefNo || !d.NoAI {
		t.Errorf("control: receipt usage %q, signals %q, NoAI %v; want train-ai=n", r.Usage, sigs(r.Signals), d.NoAI)
	}
}

// TestReceiptXHTMLBytesNotOfItsEncoding: the same for an XHTML page in
// Shift_JIS (by its declaration, or its Content-Type's charset), GBK,
// EUC-KR or Big5, holding a byte sequence that encoding has not (0x81
// before '"'), or in a single-byte encoding holding a byte it maps to no
// character, not a C1 one (ISO-8859-3's 0xA5): XML 1.0 §4.3.3 makes it
// a fatal error (expat: not well-formed).
func TestReceiptXHTMLBytesNotOfItsEncoding(t *testing.T) {
	for enc, b := range map[string]string{
		"Shift_JIS": "\x81", "GBK": "\x81", "EUC-KR": "\x81", "Big5": "\x81",
		// single-byte encodings' bytes of no character, no C1 byte
		"ISO-8859-3": "\xA5", "ISO-8859-6": "\xA1", "ISO-8859-7": "\xAE", "ISO-8859-8": "\xFF", "windows-1253": "\xAA",
	} {
		for _, byCharset := range []bool{false, true} {
			page := []byte(`<?xml version="1.0" encoding="` + enc + `"?>` + "\n" + `<html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title>` +
				`<meta name="robots" content="noai` + b + `"/></head><body><p>x</p></body></html>`)
			ct := "application/xhtml+xml"
			if byCharset {
				ct += "; charset=" + enc
			}
			r, d := pageReceipt(t, ct, page)
			if r.Usage.Pref("train-ai") != PrefNo || !d.NoAI {
				t.Errorf("%s (Content-Type %q), %x after noai: receipt usage %q, signals %q, PageDirectives NoAI %v; want train-ai=n, unreadable (not %s: XML reads no page)",
					enc, ct, b, r.Usage, sigs(r.Signals), d.NoAI, enc)
			}
		}
	}
}

// TestReceiptLegacyCharsetReadDecoded: a page in another encoding than
// UTF-8 is read decoded, as browsers build it: a no-break space, or the
// ideographic space a Japanese keyboard types, after a robots META's
// comma counts as it does written in UTF-8 or as a character reference.
// Read raw, "noindex,\xA0noai" held no noai.
func TestReceiptLegacyCharsetReadDecoded(t *testing.T) {
	s := newTestSite(t, "User-agent: *\nContent-Usage: train-ai=y\n")
	_, tr, _ := newTestTransport(t)
	page := func(content string) []byte {
		return []byte(`<html><head><title>t</title><meta name="robots" content="` + content + `"></head><body><p>x</p></body></html>`)
	}
	read := func(b []byte, ctype string) (bool, []string) {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {ctype}}, Request: req}
		return tr.PageDirectives(resp, b).NoAI, sigs(tr.Receipt(resp, b).Signals)
	}
	for _, c := range []struct {
		ctype         string
		literal, same []byte
	}{
		{"text/html; charset=windows-1252", page("noindex,\xa0noai"), page("noindex,&nbsp;noai")},
		{"text/html; charset=ISO-8859-1", page("noindex,\xa0noai"), page("noindex,&#160;noai")},
		{"text/html", page("noindex,\xa0noai"), page("noindex,&nbsp;noai")}, // naming none, not UTF-8
		{"text/html; charset=Shift_JIS", page("noindex,\x81\x40noai"), page("noindex,&#12288;noai")},
		{"text/html; charset=EUC-JP", page("noindex,\xa1\xa1noai"), page("noindex,&#x3000;noai")},
	} {
		ai, signals := read(c.literal, c.ctype)
		if !ai || !slices.Contains(signals, "robots-meta train-ai n robots") {
			t.Errorf("%s, %q: NoAI %v, signals %q; want noai read, as from %q", c.ctype, c.literal, ai, signals, c.same)
		}
		if sameAI, sameSignals := read(c.same, c.ctype); sameAI != ai || !slices.Equal(sameSignals, signals) {
			t.Errorf("%s: %q reads NoAI %v, %q; the same page built from %q: %v, %q", c.ctype, c.literal, ai, signals, c.same, sameAI, sameSignals)
		}
	}
}

// TestReceiptLegacyHeadWithinReads: a page in a legacy charset whose head
// ends within its first mebibyte has its head read, though decoded to
// UTF-8 it runs longer (Cyrillic doubles, kana grows by half) than meta
// reads: 4670537 read such pages as cut in the head, noindex, nofollow
// and noai (receipt5).
func TestReceiptLegacyHeadWithinReads(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	for _, tc := range []struct {
		path, charset string
		text          []byte // one character in the charset, not ASCII
		n             int
	}{
		{"/ru", "windows-1251", []byte{0xE0}, 560 << 10},    // "а": two bytes in UTF-8
		{"/ja", "shift_jis", []byte{0x82, 0xA0}, 720 << 10}, // "あ": three bytes in UTF-8
	} {
		var page bytes.Buffer
		page.WriteString("<!doctype html><html><head><meta charset=\"" + tc.charset + "\"><title>t</title><script>var strings=\"")
		page.Write(bytes.Repeat(tc.text, tc.n/len(tc.text)))
		page.WriteString("\";</script><meta name=\"robots\" content=\"index, follow\"></head><body><p>text</p></body></html>")
		w.on("a.test"+tc.path, serve(200, page.String(), "Content-Type", "text/html; charset="+tc.charset))
	}
	c := newTestClient(t, WithUserAgent(testUA), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	rt := NewTransport(c, w.transport(t))
	hc := &http.Client{Transport: rt}
	for _, path := range []string{"/ru", "/ja"} {
		resp, err := hc.Get("http://a.test" + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20)) // the README's loop
		resp.Body.Close()
		head := bytes.Index(body, []byte("</head>"))
		d := rt.PageDirectives(resp, body)
		r := rt.Receipt(resp, body)
		if d.NoIndex || d.NoFollow || d.NoAI || r.Usage.Pref("train-ai") != PrefUnknown || len(r.Signals) != 0 {
			t.Errorf("%s (%d bytes, read whole; </head> at byte %d): PageDirectives noindex %v nofollow %v noai %v, receipt usage %v signals %v; "+
				"want no directive and no signal: the head ends within the page's first mebibyte",
				path, len(body), head, d.NoIndex, d.NoFollow, d.NoAI, r.Usage, sigs(r.Signals))
		}
	}
}

// TestReceiptLegacyCharsetReadDecodedAtAnyLength: a page in a legacy
// charset whose first mebibyte decodes longer than meta reads (a page of
// a mebibyte with one é, a Japanese page of 700 KB, a Cyrillic one of
// 600 KB) is read decoded to its head's end, as a short one is: read
// raw, its noai after a no-break space or an ideographic space was lost
// (meta89). So is one whose head runs past what meta reads decoded but
// ends within the raw mebibyte (a long inline script): its tags as far
// as meta reads decoded count too (review162 #2: read raw alone, it lost
// the noai).
func TestReceiptLegacyCharsetReadDecodedAtAnyLength(t *testing.T) {
	_, tr, hc := newTestTransport(t)
	for _, c := range []struct {
		charset, head, fill string
		n                   int
		inHead              bool // the fill a script in the head
	}{
		{"windows-1252", "noindex,\xA0noai", "caf\xE9 ", 100, false},
		{"windows-1252", "noindex,\xA0noai", "caf\xE9 ", 220_000, false},
		{"shift_jis", "noindex,\x81\x40noai", "\x82\xa0", 1000, false},
		{"shift_jis", "noindex,\x81\x40noai", "\x82\xa0", 350_000, false},
		{"windows-1251", "noindex,\xA0noai", "\xe0", 600_000, false},
		{"windows-1251", "noindex,\xA0noai", "\xe0", 100, true},
		{"windows-1251", "noindex,\xA0noai", "\xe0", 560_000, true},
		{"shift_jis", "noindex,\x81\x40noai", "\x82\xa0", 360_000, true},
		{"windows-1252", "noindex,\xA0noai", "caf\xE9 ", 200_000, true},
	} {
		s := newTestSite(t, "User-agent: *\nAllow: /\n")
		page := `<html><head><meta name="robots" content="` + c.head + `"></head><body><p>` + strings.Repeat(c.fill, c.n)
		if c.inHead {
			page = `<html><head><meta name="robots" content="` + c.head + `"><script>var s="` + strings.Repeat(c.fill, c.n) +
				`";</script></head><body><p>text</p></body></html>`
		}
		s.route("/page", serve(200, page, "Content-Type", "text/html; charset="+c.charset))
		resp, b := fetchPage(t, hc, s.URL+"/page")
		d, rc := tr.PageDirectives(resp, b), tr.Receipt(resp, b)
		if !d.NoIndex || !d.NoAI || rc.Usage.Pref("train-ai") != PrefNo {
			t.Errorf("%s page of %d bytes, </head> at byte %d: NoIndex %v, NoAI %v, receipt signals %q; want noindex and noai, as from a short page",
				c.charset, len(b), strings.Index(string(b), "</head>"), d.NoIndex, d.NoAI, sigs(rc.Signals))
		}
	}
}

// TestReceiptTDMMetaInALegacyLongHead: a tdm-reservation META tag whose
// name a no-break space ends, in a legacy page whose head runs past what
// meta reads decoded, reserves as on a short page (review172 #5: its
// tags were read raw alone, where the space is a byte no trim takes).
func TestReceiptTDMMetaInALegacyLongHead(t *testing.T) {
	_, tr, hc := newTestTransport(t)
	for _, n := range []int{100, 560_000} {
		s := newTestSite(t, "User-agent: *\nAllow: /\n")
		page := `<html><head><meta name="tdm-reservation` + "\xA0" + `" content="1"><script>var s="` +
			strings.Repeat("\xe0", n) + `";</script></head><body><p>text</p></body></html>`
		s.route("/page", serve(200, page, "Content-Type", "text/html; charset=windows-1251"))
		resp, b := fetchPage(t, hc, s.URL+"/page")
		if rc := tr.Receipt(resp, b); rc.Usage.Pref("train-ai") != PrefNo {
			t.Errorf("windows-1251 page of %d bytes, </head> at byte %d, tdm-reservation 1: train-ai %v, signals %q; want reserved, as from a short page",
				len(b), strings.Index(string(b), "</head>"), rc.Usage.Pref("train-ai"), sigs(rc.Signals))
		}
	}
}

// TestReceiptURLWithholdsCredentials: Receipt.URL is documented as
// "the page's URL, as the request reached the server, without userinfo",
// and a receipt is a log line kept for years. For a response the
// Transport did not check (a SkipRobots request, or one built by hand,
// both documented as Receipt's), the URL is pasted from the request as it
// is: a path url.JoinPath made of a URL's userinfo, an opaque URL in the
// "//host/path" form net/url documents, and a Host holding userinfo all
// put "alice:secret" into Receipt.URL, while the same receipt's signal
// (the check's error) withholds it. The opaque form also names no page:
// "http://a.testhttp://…". And tdmrep.json is read for the site that
// pasted URL parses as: x.test, named in the joined path's userinfo (its
// file is listed as the page's evidence), or "a.testhttp": the receipt
// makes the Client fetch robots.txt and tdmrep.json of sites the page
// is not at (receipt5). A URL the Transport would not send names no
// page: the receipt's URL is empty, and tdmrep.json unreachable.
func TestReceiptURLWithholdsCredentials(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("a.test/p", serve(200, "page"))
	w.on("x.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("x.test/.well-known/tdmrep.json", serve(200, `[{"location":"/","tdm-reservation":0}]`))
	c := newTestClient(t, WithUserAgent(testUA), WithTDMRep(), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	rt := NewTransport(c, w.transport(t))
	hc := &http.Client{Transport: rt}

	base, _ := url.Parse("http://a.test")
	for _, tc := range []struct {
		name string
		u    *url.URL
	}{
		{"a path url.JoinPath made of userinfo", base.JoinPath("alice:secret@x.test", "y")},
		{"an opaque URL", &url.URL{Scheme: "http", Host: "a.test", Opaque: "//alice:secret@a.test/p"}},
	} {
		req, _ := http.NewRequestWithContext(SkipRobots(context.Background()), http.MethodGet, "http://a.test/", nil)
		req.URL = tc.u
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		resp.Body.Close()
		r := rt.Receipt(resp, nil)
		checkNoSecret(t, tc.name+" (SkipRobots, status "+resp.Status+")", r)
		for _, s := range r.Signals {
			if s.Source == "tdmrep.json" && s.Where != "unreachable" {
				t.Errorf("%s: the receipt of a page at a.test lists %+v, an entry of another site's tdmrep.json", tc.name, s)
			}
		}
	}
	for _, u := range []string{"http://x.test/.well-known/tdmrep.json", "http://a.testhttp/.well-known/tdmrep.json", "http://a.testhttp/robots.txt"} {
		if n := w.count(u); n > 0 {
			t.Errorf("receipts of pages at a.test made the Client fetch %s (%d times)", u, n)
		}
	}

	// A response built by hand, whose Request.Host holds userinfo.
	req, _ := http.NewRequest(http.MethodGet, "http://a.test/p", nil)
	req.Host = "alice:secret@a.test"
	checkNoSecret(t, "a Request.Host with userinfo (built by hand)",
		rt.Receipt(&http.Response{StatusCode: 200, Header: http.Header{}, Request: req}, nil))

	// No credentials, but the form net/url documents for a path sent as
	// written: not pasted into a URL naming no page.
	req, _ = http.NewRequestWithContext(SkipRobots(context.Background()), http.MethodGet, "http://a.test/", nil)
	req.URL = &url.URL{Scheme: "http", Host: "a.test", Opaque: "//a.test/p"}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if r := rt.Receipt(resp, nil); r.URL != "" {
		t.Errorf("an opaque URL //a.test/p (SkipRobots, status %s): Receipt.URL %q; want none", resp.Status, r.URL)
	}
}

func checkNoSecret(t *testing.T, what string, r Receipt) {
	t.Helper()
	b, _ := json.Marshal(r)
	if strings.Contains(r.URL, "secret") {
		t.Errorf("%s: Receipt.URL %q holds the password (the receipt's own signal withholds it: %q); JSON: %s",
			what, r.URL, sigs(r.Signals), b)
	}
}

// TestReceiptUTF8PageCutMidCharacter: a page naming no
// charset, in UTF-8 (as legacy reads it: "only when the page is not
// UTF-8" is it Windows-1252), whose first metaReads bytes end within a
// character, is decoded as Windows-1252: "noindex,\u00a0noai" in UTF-8
// became "noindex,Â\u00a0noai" and the noai its whole-page twin holds
// was lost (review71). A page read to a 1 MiB limit ends so one time in
// three when its text is not ASCII.
func TestReceiptUTF8PageCutMidCharacter(t *testing.T) {
	s := newTestSite(t, "User-agent: *\nContent-Usage: train-ai=y\n")
	_, tr, _ := newTestTransport(t)
	// A head whose first KiB is ASCII (scripts, styles, links), so that no
	// charset is sniffed from it: the page reads as UTF-8 when it is that.
	head := `<html><head><title>Cafe</title>` + strings.Repeat(`<link rel="preload" href="/static/app.js" as="script">`, 24) +
		`<meta name="robots" content="noindex,` + "\u00a0" + `noai"></head><body><p>`
	read := func(b []byte) (bool, []string) {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/html"}}, Request: req}
		return tr.PageDirectives(resp, b).NoAI, sigs(tr.Receipt(resp, b).Signals)
	}
	small := []byte(head + "é</p></body></html>")
	if ai, signals := read(small); !ai || !slices.Contains(signals, "robots-meta train-ai n robots") {
		t.Fatalf("the short page: NoAI %v, %q; want noai", ai, signals)
	}
	// Text of 'é' (2 bytes) so that the byte at metaReads-1 is an 'é''s first.
	pad := strings.Repeat("x", (metaReads-len(head)-1)%2) + strings.Repeat("é", metaReads) // far past metaReads
	for _, n := range []int{metaReads, metaReads + 1, metaReads + 4096} {
		b := []byte(head + pad)[:n]
		if ai, signals := read(b); !ai || !slices.Contains(signals, "robots-meta train-ai n robots") {
			t.Errorf("the same UTF-8 page, %d bytes read (cut within an 'é' at %d): NoAI %v, %q; want noai, as the whole page says", n, metaReads, ai, signals)
		}
	}
}

// TestReceiptMetaXUserDefinedIsWindows1252: a <meta charset> naming
// x-user-defined makes browsers decode the page as Windows-1252 (WHATWG
// HTML, prescan: "If charset is x-user-defined, then set charset to
// windows-1252"), so "noindex,\xA0noai" holds a no-break space and noai,
// as the same page naming windows-1252 does; legacy decoded it by
// x-user-defined, whose 0xA0 is U+F7A0: no noai (review71).
func TestReceiptMetaXUserDefinedIsWindows1252(t *testing.T) {
	s := newTestSite(t, "User-agent: *\nContent-Usage: train-ai=y\n")
	_, tr, _ := newTestTransport(t)
	read := func(b []byte) (bool, []string) {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/html"}}, Request: req}
		return tr.PageDirectives(resp, b).NoAI, sigs(tr.Receipt(resp, b).Signals)
	}
	for _, label := range []string{"windows-1252", "x-user-defined"} {
		b := []byte(`<html><head><meta charset="` + label + `"><title>t</title><meta name="robots" content="noindex,` + "\xa0" + `noai"></head><body><p>x</p></body></html>`)
		if ai, signals := read(b); !ai || !slices.Contains(signals, "robots-meta train-ai n robots") {
			t.Errorf("<meta charset=%s>, \"noindex,\\xA0noai\": NoAI %v, %q; want noai, as browsers read it in Windows-1252", label, ai, signals)
		}
	}
}

// TestReceiptGBKPageReadAsGB18030: the Encoding Standard's GBK decoder
// is the gb18030 decoder ("The GBK decoder is the gb18030 decoder"), so
// browsers read a page labelled gb2312 or GBK, as most Chinese pages are,
// with GB18030's four-byte sequences: 81 30 84 32 is a no-break space,
// and "noindex,<it>noai" holds noai, as in the page labelled GB18030.
// legacy decoded it with x/text's GBK decoder, which has no four-byte
// sequences: U+FFFD "0" U+FFFD "2" before noai, which was lost
// (review71).
func TestReceiptGBKPageReadAsGB18030(t *testing.T) {
	s := newTestSite(t, "User-agent: *\nContent-Usage: train-ai=y\n")
	_, tr, _ := newTestTransport(t)
	read := func(b []byte, ctype string) (bool, []string) {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {ctype}}, Request: req}
		return tr.PageDirectives(resp, b).NoAI, sigs(tr.Receipt(resp, b).Signals)
	}
	b := []byte(`<html><head><title>t</title><meta name="robots" content="noindex,` + "\x81\x30\x84\x32" + `noai"></head><body><p>x</p></body></html>`)
	for _, cs := range []string{"GB18030", "gb2312", "GBK"} {
		ai, signals := read(b, "text/html; charset="+cs)
		t.Logf("charset=%s: NoAI %v, %q", cs, ai, signals)
		if !ai || !slices.Contains(signals, "robots-meta train-ai n robots") {
			t.Errorf("charset=%s, \"noindex,\\x81\\x30\\x84\\x32noai\": NoAI %v, %q; want noai, as browsers read it", cs, ai, signals)
		}
	}
	// XHTML labelled GBK: XML reads it with the same decoder; x/text's
	// writes U+FFFD for the four bytes, and the page is taken for one
	// holding bytes its encoding has not: unreadable, train-ai=n.
	x := []byte(`<?xml version="1.0" encoding="GBK"?>` + "\n" + xhtmlRootHead +
		`<title>a` + "\x81\x30\x84\x32" + `b</title><meta name="robots" content="noarchive"/></head><body><p>x</p></body></html>`)
	for _, ct := range []string{"application/xhtml+xml", "application/xhtml+xml; charset=gb18030"} {
		ai, signals := read(x, ct)
		t.Logf("XHTML, %s: NoAI %v, %q", ct, ai, signals)
		if ai || slices.Contains(signals, "robots-meta train-ai n unreadable") {
			t.Errorf("XHTML labelled GBK, %s, a GB18030 four-byte character in its title: NoAI %v, %q; want it read (noarchive, no noai)", ct, ai, signals)
		}
	}
}

// TestJISMisread: the Encoding Standard's ISO-2022-JP decoder meets an
// error in these, and none in text x/text's encoder writes.
func TestJISMisread(t *testing.T) {
	good, _ := japanese.ISO2022JP.NewEncoder().Bytes([]byte("a 漢字 ｶﾅ b\n漢\n"))
	for _, c := range []struct {
		b        string
		cut, bad bool
	}{
		{string(good), false, false},
		{"\x1b$B4A\x1b(J\\~", false, false},
		{"\x1b$B4A;\x1b(B", false, true}, // an escape as a trail byte
		{"\x1b$B4A \x1b(B", false, true}, // a blank in a run
		{"\x1b$B4A\n4A\x1b(B", false, true},
		{"caf\x1b$(D", false, true},     // ISO-2022-JP-1's escape
		{"a\x1b(B\x1b(Bb", false, true}, // two escapes in a row
		{"a\x0eb", false, true},         // SO
		{"caf\xe9", false, true},
		{"\x1b(I\x60", false, true}, // no katakana
		{"\x1b$B4", false, true},    // the page ends within a character
		{"\x1b$B4", true, false},    // cut there
		{"a\x1b$", false, true},
		{"a\x1b$", true, false},
	} {
		if got := jisMisread([]byte(c.b), c.cut); got != c.bad {
			t.Errorf("jisMisread(%q, cut %v) = %v, want %v", c.b, c.cut, got, c.bad)
		}
	}
}

// TestUnreadCharacters: unpaired writes an unpaired surrogate of UTF-16,
// either byte order, as U+FFFE, and leaves pairs; unread writes as
// U+FFFE a U+FFFD a multi-byte decoder put for bytes its encoding has
// not, but not one last in a page cut short, nor a single-byte
// encoding's.
func TestUnreadCharacters(t *testing.T) {
	for _, c := range []struct {
		in, want []byte
	}{
		{[]byte("\xFF\xFEa\x00\x00\xDCb\x00"), []byte("\xFF\xFEa\x00\xFE\xFFb\x00")}, // LE, a low surrogate alone
		{[]byte("\xFE\xFF\x00a\xD8\x00\x00b"), []byte("\xFE\xFF\x00a\xFF\xFE\x00b")}, // BE, a high one alone
		{[]byte("\xFF\xFE=\xD8\x00\xDEa\x00"), []byte("\xFF\xFE=\xD8\x00\xDEa\x00")}, // LE, a pair
		{[]byte("\xFF\xFEa\x00\x3D\xD8"), []byte("\xFF\xFEa\x00\xFE\xFF")},           // LE, a high one last
	} {
		if got := unpaired(c.in); !bytes.Equal(got, c.want) {
			t.Errorf("unpaired(% x) = % x, want % x", c.in, got, c.want)
		}
	}
	sjis, gb, latin2 := japanese.ShiftJIS, simplifiedchinese.GB18030, charmap.ISO8859_2
	for _, c := range []struct {
		e    encoding.Encoding
		in   string
		cut  bool
		want string
	}{
		{sjis, "a\x81\"b", false, "a" + notChar + "\"b"},
		{sjis, "ab\x81", true, "ab\uFFFD"}, // a character cut
		{sjis, "a\x81\"\x81", true, "a" + notChar + "\"\uFFFD"},
		{gb, "a\xFFb", false, "a" + notChar + "b"},
		{latin2, "a\x84b", false, "a\u0084b"}, // a C1 control to browsers and XML
		{latin2, "a\x84b\xE9", true, "a\u0084b\u00E9"},
		{charmap.ISO8859_3, "a\xA5b\x84", false, "a" + notChar + "b\u0084"}, // 0xA5: no character
		{charmap.Windows1253, "\xAA", true, notChar},
	} {
		text, _ := c.e.NewDecoder().Bytes([]byte(c.in))
		if got := string(unread(c.e, []byte(c.in), text, c.cut)); got != c.want {
			t.Errorf("unread(%q, cut %v) = %q, want %q", c.in, c.cut, got, c.want)
		}
	}
}

const xhtmlRootHead = `<html xmlns="http://www.w3.org/1999/xhtml"><head>`

// TestReceiptXHTMLC1ControlsRead: a well-formed XHTML page in ISO-8859-1
// (expat's own), ISO-8859-2 or ISO-8859-15 holding a byte 0x80-0x9F,
// which each reads as a C1 control XML 1.0 allows (expat: its one META
// noarchive), is read, though x/text's decoder writes U+FFFD for it.
func TestReceiptXHTMLC1ControlsRead(t *testing.T) {
	for _, c := range []struct{ enc, b string }{
		{"ISO-8859-1", "\x81"},   // expat native: U+0081
		{"ISO-8859-1", "\x9D"},   // U+009D
		{"ISO-8859-2", "\x96"},   // Windows-1250's en dash in a page labelled ISO-8859-2: U+0096
		{"ISO-8859-2", "\x84"},   // „
		{"ISO-8859-15", "\x80"},  // U+0080
		{"ISO-8859-8-I", "\x84"}, // ISO-8859-8's table: U+0084
	} {
		page := []byte(`<?xml version="1.0" encoding="` + c.enc + `"?>` + "\n" + xhtmlRootHead +
			`<title>a` + c.b + `b</title><meta name="robots" content="noarchive"/></head><body><p>x</p></body></html>`)
		r, d := pageReceipt(t, "application/xhtml+xml", page)
		if r.Usage.Pref("train-ai") == PrefNo || strings.Contains(strings.Join(sigs(r.Signals), "|"), "unreadable") || d.NoAI || !d.NoArchive {
			t.Errorf("%s page with byte %x in its title (expat: well-formed, META noarchive alone): usage %q, signals %q, NoAI %v, NoArchive %v; want the head read: noarchive, no unreadable",
				c.enc, c.b, r.Usage, sigs(r.Signals), d.NoAI, d.NoArchive)
		}
	}
}

// TestReceiptXHTMLGB18030BadByte: a GB18030 page whose META content
// holds a byte GB18030 has not (0xFF: python's strict gb18030 codec
// refuses the page) is unreadable, also when its bytes hold GB18030's
// U+FFFD (84 31 A4 37) elsewhere, not as a character (an early version
// of unread counted those bytes against the decoder's U+FFFDs).
func TestReceiptXHTMLGB18030BadByte(t *testing.T) {
	for _, byCharset := range []bool{false, true} {
		page := []byte(`<?xml version="1.0" encoding="GB18030"?>` + "\n" + xhtmlRootHead +
			`<title>t</title><meta name="robots" content="noai` + "\xFF" + `"/></head><body><p>a` + "\x81\x84\x31\xA4\x37\x81\x30" + `b</p></body></html>`)
		ct := "application/xhtml+xml"
		if byCharset {
			ct += "; charset=GB18030"
		}
		r, d := pageReceipt(t, ct, page)
		if r.Usage.Pref("train-ai") != PrefNo || !d.NoAI {
			t.Errorf("GB18030 (Content-Type %q), 0xFF after noai, the bytes 84 31 A4 37 in the body (no U+FFFD): usage %q, signals %q, NoAI %v; want train-ai=n, unreadable (not GB18030: XML reads no page)",
				ct, r.Usage, sigs(r.Signals), d.NoAI)
		}
	}
	// Control: without those bytes in the body the fix holds.
	page := []byte(`<?xml version="1.0" encoding="GB18030"?>` + "\n" + xhtmlRootHead +
		`<title>t</title><meta name="robots" content="noai` + "\xFF" + `"/></head><body><p>ab</p></body></html>`)
	if r, d := pageReceipt(t, "application/xhtml+xml", page); r.Usage.Pref("train-ai") != PrefNo || !d.NoAI {
		t.Errorf("control: usage %q, signals %q, NoAI %v; want train-ai=n", r.Usage, sigs(r.Signals), d.NoAI)
	}
}

// TestReceiptSkipRobotsUnderOldContext: a request sent with SkipRobots,
// unchecked, under the context of an earlier response's request for the
// same URL, is not the request the Transport checked: its receipt must
// rest on robots.txt as it is now (checked now), not on the decision the
// earlier request was sent under.
func TestReceiptSkipRobotsUnderOldContext(t *testing.T) {
	checkLeaks(t)
	const v1 = "User-agent: *\nContent-Usage: train-ai=y\nAllow: /\n"
	const v2 = "User-agent: *\nDisallow: /p\n"
	s := newTestSite(t, v1)
	s.route("/p", serve(200, "page", "Content-Type", "text/plain"))
	clock := newTestClock()
	c := newTestClient(t, WithUserAgent(testUA), WithClock(clock.Now))
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	tr := NewTransport(c, next)
	hc := &http.Client{Transport: tr}
	first, _ := fetchPage(t, hc, s.URL+"/p")

	s.route("/robots.txt", serve(200, v2))
	clock.Advance(25 * time.Hour)
	if ok, _ := c.Allowed(t.Context(), s.URL+"/p"); ok {
		t.Fatal("robots.txt v2 not read")
	}
	// Fetched again past the Transport, in the context the crawler keeps
	// per page: as a person asked for it (SkipRobots), and by a plain
	// http.Client the crawler keeps beside (a request built by hand).
	plain := &http.Transport{}
	t.Cleanup(plain.CloseIdleConnections)
	for name, how := range map[string]struct {
		ctx context.Context
		hc  *http.Client
	}{
		"SkipRobots":     {SkipRobots(first.Request.Context()), hc},
		"plain, by hand": {first.Request.Context(), &http.Client{Transport: plain}},
	} {
		req, _ := http.NewRequestWithContext(how.ctx, http.MethodGet, s.URL+"/p", nil)
		resp, body := fetchPageReq(t, how.hc, req)
		r := tr.Receipt(resp, body)
		sum := sha256.Sum256([]byte(v2))
		if r.Robots == nil || r.Robots.SHA256 != hex.EncodeToString(sum[:]) || r.Robots.RuleLine != 2 || r.Usage.Pref("train-ai") == PrefYes {
			t.Errorf("%s: receipt of an unchecked request: robots %+v, usage %q, signals %q; want robots.txt as it is now (v2, Disallow at line 2)",
				name, r.Robots, r.Usage, sigs(r.Signals))
		}
	}
}

// TestReceiptTellsADisallowedPage: the receipt of a page fetched past the
// Transport (SkipRobots) that robots.txt disallows must not read as the
// receipt of one it allows: here the two sites differ only in line 2
// being Allow or Disallow, and the robots evidence of the two receipts,
// but for what names the site and file, must differ.
func TestReceiptTellsADisallowedPage(t *testing.T) {
	checkLeaks(t)
	allows := newTestSite(t, "User-agent: *\nAllow: /p\n")
	disallows := newTestSite(t, "User-agent: *\nDisallow: /p\n")
	_, tr, hc := newTestTransport(t)
	var seen []string
	for _, s := range []*testSite{allows, disallows} {
		s.route("/p", serve(200, "page", "Content-Type", "text/plain", "Content-Usage", "train-ai=y"))
		req, _ := http.NewRequestWithContext(SkipRobots(t.Context()), http.MethodGet, s.URL+"/p", nil)
		resp, body := fetchPageReq(t, hc, req)
		j, err := json.Marshal(tr.Receipt(resp, body))
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ Robots map[string]any }
		if err := json.Unmarshal(j, &r); err != nil || r.Robots == nil {
			t.Fatalf("%s: %v", j, err)
		}
		for _, k := range []string{"authority", "fetched_at", "sha256"} {
			delete(r.Robots, k)
		}
		e, _ := json.Marshal(r.Robots)
		seen = append(seen, string(e))
	}
	if seen[0] == seen[1] {
		t.Errorf("robots evidence of a page robots.txt allows and of one it disallows read alike: %s", seen[0])
	}
}

// TestReceiptCharsetParameterAsBrowsers: a page's Content-Type is read as
// browsers read it (the Fetch standard's "extract a MIME type"). Its
// first charset parameter wins, even a quoted empty one, which names no
// encoding; a '"' inside an unquoted parameter starts no quoted string.
// Browsers read these pages' META tags in ASCII; read as UTF-16, the
// page's noai is lost.
func TestReceiptCharsetParameterAsBrowsers(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nContent-Usage: train-ai=y\n")
	_, tr, _ := newTestTransport(t)
	const noai = `<html><head><meta name="robots" content="noai"></head><body>x</body></html>`
	for _, ctype := range []string{
		`text/html; charset=""; charset=utf-16`,
		`text/html; x=a"b; charset=utf-8; y="; charset=utf-16`,
	} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {ctype}}, Request: req}
		if d := tr.PageDirectives(resp, []byte(noai)); !d.NoAI {
			t.Errorf("Content-Type %q: PageDirectives %+v; want noai, as browsers read the page", ctype, d)
		}
		r := tr.Receipt(resp, []byte(noai))
		if r.Usage.Pref("train-ai") != PrefNo {
			t.Errorf("Content-Type %q: receipt %q allows train-ai", ctype, sigs(r.Signals))
		}
	}
}

// TestReceiptContentTypeTokensAsBrowsers: '{' and '}' are not HTTP token
// code points, so MIME Sniffing fails these values, which a browser skips;
// mime.ParseMediaType takes them (RFC 2045 tokens).
func TestReceiptContentTypeTokensAsBrowsers(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nContent-Usage: train-ai=y\n")
	_, tr, _ := newTestTransport(t)
	const noai = `<html><head><meta name="robots" content="noai"></head><body>x</body></html>`
	for _, lines := range [][]string{
		{"text/html{; charset=utf-16"},
		{"text/html{"},
		{"text/html, text/html}; charset=utf-16"},
		{"text/html", "text/html}; charset=utf-16"},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/page", nil)
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": lines}, Request: req}
		d := tr.PageDirectives(resp, []byte(noai))
		r := tr.Receipt(resp, []byte(noai))
		if !d.NoAI || r.Usage.Pref("train-ai") != PrefNo {
			t.Errorf("Content-Type %q: noai %v, receipt %q", lines, d.NoAI, sigs(r.Signals))
		}
	}
}

// TestReceiptISO2022JPNamedPastPrescan: a page whose ISO-2022-JP is named
// where x/net's prescan does not look (past its first 1024 bytes, in the
// head, where the HTML parser's "change the encoding" takes it, its label
// perhaps written with character references, which the parser decodes;
// or in a <script>'s text, which the WHATWG prescan reads as bytes and
// finds) is decoded by browsers as ISO-2022-JP: there "-ESC(B->" is
// "-->", which ends a comment, and the robots META after it says noai.
// Read raw, the comment would run on past that tag: the receipt says
// train-ai=n, the page read or unreadable.
func TestReceiptISO2022JPNamedPastPrescan(t *testing.T) {
	checkLeaks(t)
	const tail = "<!-- x -\x1b(B-> <meta name=\"robots\" content=\"noai\"><!-- -->\n</head><body>x</body></html>"
	pages := map[string]string{
		"/late.html":   `<html><head><title>` + strings.Repeat("a", 1100) + `</title><meta charset="iso-2022-jp">` + tail,
		"/script.html": `<html><head><script>var tag = '<meta charset="iso-2022-jp">';</script>` + tail,
		// The same with a character of UTF-8 before, which x/net's
		// detector takes for a page in UTF-8 (no declaration in its
		// 1024 bytes); the late <meta> still changes the encoding.
		"/late-utf8.html": `<html><head><title>café ` + strings.Repeat("a", 1100) + `</title><meta charset="iso-2022-jp">` + tail,
		"/ref-dec.html":   `<html><head><title>café ` + strings.Repeat("a", 1100) + `</title><meta charset="iso-2022&#45;jp">` + tail,
		"/ref-hex.html":   `<html><head><title>café ` + strings.Repeat("a", 1100) + `</title><meta charset="&#x69;so-2022-jp">` + tail,
	}
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	for path, page := range pages {
		if strings.Contains(page, "&#") && !tokenizedCharset(page, "iso-2022-jp") {
			t.Fatalf("%s: the tokenizer reads no ISO-2022-JP label", path)
		}
		// As a browser decoding the page as ISO-2022-JP reads it.
		decoded, err := japanese.ISO2022JP.NewDecoder().String(page)
		if err != nil {
			t.Fatal(err)
		}
		if d, err := meta.FromHTML(strings.NewReader(decoded)); err != nil || !d.NoAI {
			t.Fatalf("%s decoded: %+v, %v; want noai", path, d, err)
		}
		s.route(path, serve(200, page, "Content-Type", "text/html"))
	}
	_, tr, hc := newTestTransport(t)
	for path := range pages {
		resp, body := fetchPage(t, hc, s.URL+path)
		if rc := tr.Receipt(resp, body); rc.Usage.Pref("train-ai") != PrefNo {
			t.Errorf("%s: receipt usage %v, signals %q; want train-ai=n (robots META noai, or the page unreadable)",
				path, rc.Usage, sigs(rc.Signals))
		}
		if d := tr.PageDirectives(resp, body); !d.NoAI {
			t.Errorf("%s: PageDirectives %+v, want NoAI", path, d)
		}
	}
}

// tokenizedCharset reports whether a <meta charset> of page reads as
// label to the HTML tokenizer, its character references decoded.
func tokenizedCharset(page, label string) bool {
	z := html.NewTokenizer(strings.NewReader(page))
	for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
		if tok := z.Token(); tok.Data == "meta" {
			for _, a := range tok.Attr {
				if a.Key == "charset" && strings.EqualFold(a.Val, label) {
					return true
				}
			}
		}
	}
	return false
}

// TestReceiptRangeOfConflictingContentRanges: a 206 whose Content-Range
// field lines disagree on where its part starts cannot be read as a page
// from its start: as for one Content-Range naming a part past the start,
// its META tags cannot be read, and the receipt says train-ai=n
// ("unreadable"), whichever line comes first.
func TestReceiptRangeOfConflictingContentRanges(t *testing.T) {
	checkLeaks(t)
	page := `<html><head><meta name="robots" content="noai"><title>t</title></head><body>` +
		strings.Repeat("<p>text of the article</p>", 40) + "</body></html>"
	const from = 300
	part := page[from:]
	whole := fmt.Sprintf("bytes 0-%d/%d", len(page)-1, len(page))
	tail := fmt.Sprintf("bytes %d-%d/%d", from, len(page)-1, len(page))
	s := newTestSite(t, "User-agent: *\nAllow: /\nContent-Usage: train-ai=y\n")
	for path, ranges := range map[string][]string{
		"/tail":           {tail},
		"/whole-and-tail": {whole, tail},
		"/tail-and-whole": {tail, whole},
	} {
		s.route(path, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header()["Content-Range"] = ranges
			w.WriteHeader(http.StatusPartialContent)
			_, _ = io.WriteString(w, part) // the bytes from 300 on, as the second line says
		})
	}
	_, tr, hc := newTestTransport(t)
	for _, path := range []string{"/tail", "/whole-and-tail", "/tail-and-whole"} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+path, nil)
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", from))
		resp, body := fetchPageReq(t, hc, req)
		r := tr.Receipt(resp, body)
		if r.Usage.Pref("train-ai") != PrefNo || !slices.Contains(sigs(r.Signals), "robots-meta train-ai n unreadable") {
			t.Errorf("%s (Content-Range %q): usage %q, signals %q; want train-ai=n, the page unreadable",
				path, resp.Header.Values("Content-Range"), r.Usage, sigs(r.Signals))
		}
		if d := tr.PageDirectives(resp, body); !d.NoAI {
			t.Errorf("%s: PageDirectives %+v, want every restriction (its tags cannot be read)", path, d)
		}
	}
}

// TestReceiptTemplateInIntegrationPoint: a robots META noai and a TDMRep
// reservation in the head, after a <template> of the head that holds an
// inline SVG whose foreignObject holds a template (declarative shadow
// DOM), are read by browsers; the receipt and PageDirectives must say so,
// or fail closed.
func TestReceiptTemplateInIntegrationPoint(t *testing.T) {
	checkLeaks(t)
	const page = `<!DOCTYPE html><html><head><title>t</title>` +
		`<template id="icon"><svg viewBox="0 0 10 10"><foreignObject width="10" height="10"><my-el><template shadowrootmode="open"><slot></slot></template></my-el></foreignObject></svg></template>` +
		`<meta name="robots" content="noai"><meta name="tdm-reservation" content="1"></head><body><p>x</p></body></html>`
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	s.route("/p.html", serve(200, page, "Content-Type", "text/html; charset=utf-8"))
	_, tr, hc := newTestTransport(t)
	resp, body := fetchPage(t, hc, s.URL+"/p.html")
	if rc := tr.Receipt(resp, body); rc.Usage.Pref("train-ai") != PrefNo {
		t.Errorf("receipt usage %v, signals %q; want train-ai=n (robots META noai and tdm-reservation 1)", rc.Usage, sigs(rc.Signals))
	}
	if d := tr.PageDirectives(resp, body); !d.NoAI {
		t.Errorf("PageDirectives %+v, want NoAI", d)
	}
}

// TestReceiptPolicyDisallowAllFailsClosed: a robots.txt the Client never
// read, its 503 or its failed fetch (the connection closed with no
// answer) read as disallow-all by a status or error policy, is a file
// that "cannot be consulted": the receipt of a page fetched past the
// Transport (SkipRobots) must say train-ai=n, Where "unreachable", as
// for the allow-all such a policy gives, not take the page's own
// train-ai=y as all there is.
func TestReceiptPolicyDisallowAllFailsClosed(t *testing.T) {
	checkLeaks(t)
	down := serve(503, "down")
	noAnswer := func(w http.ResponseWriter, _ *http.Request) {
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
	}
	onFailure := func(out Outcome) Option { return WithErrorPolicy(func(error) Outcome { return out }) }
	on5xx := func(out Outcome) Option {
		return WithStatusPolicy(func(status int) Outcome {
			if status >= 500 {
				return out // RFC 9309 §2.3.1.4: assume complete disallow, for OutcomeDisallowAll
			}
			return LegacyStatusPolicy(status)
		})
	}
	for _, tc := range []struct {
		name   string
		robots http.HandlerFunc
		policy Option
		gives  Outcome // the receipt's robots.txt outcome: the policy's
	}{
		{"status policy's disallow-all", down, on5xx(OutcomeDisallowAll), OutcomeDisallowAll},
		{"status policy's allow-all", down, on5xx(OutcomeAllowAll), OutcomeAllowAll},
		{"error policy's disallow-all", noAnswer, onFailure(OutcomeDisallowAll), OutcomeDisallowAll},
		{"error policy's allow-all", noAnswer, onFailure(OutcomeAllowAll), OutcomeAllowAll},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSite(t, "")
			s.route("/robots.txt", tc.robots)
			s.route("/p", serve(200, "page", "Content-Type", "text/plain", "Content-Usage", "train-ai=y"))
			c := newTestClient(t, WithUserAgent(testUA), tc.policy)
			next := &http.Transport{}
			t.Cleanup(next.CloseIdleConnections)
			tr := NewTransport(c, next)
			hc := &http.Client{Transport: tr}
			req, _ := http.NewRequestWithContext(SkipRobots(t.Context()), http.MethodGet, s.URL+"/p", nil)
			resp, body := fetchPageReq(t, hc, req)
			r := tr.Receipt(resp, body)
			if r.Robots == nil || r.Robots.Outcome != tc.gives.name() {
				t.Fatalf("receipt's robots.txt evidence %+v; want the policy's %s", r.Robots, tc.gives.name())
			}
			if r.Usage.Pref("train-ai") != PrefNo || !slices.Contains(sigs(r.Signals), "robots.txt train-ai n unreachable") {
				t.Errorf("receipt resting on a robots.txt never read: usage %q, signals %q, robots %+v; want train-ai=n, robots.txt unreachable",
					r.Usage, sigs(r.Signals), r.Robots)
			}
		})
	}
}

// TestReceiptSniffsFirefoxHTMLStarts: a page with no Content-Type whose
// first tag is one Firefox's sniffer reads as HTML (<meta, <link) has
// its robots META noai and tdm-reservation read, as meta.FromHTML reads
// them: the Transport's list of HTML starts held WHATWG's and Chrome's
// only, and the receipt said nothing of either.
func TestReceiptSniffsFirefoxHTMLStarts(t *testing.T) {
	checkLeaks(t)
	pages := map[string]string{
		"/meta.html": `<meta charset="utf-8"><meta name="robots" content="noai"><meta name="tdm-reservation" content="1"><title>t</title><p>x`,
		"/link.html": `<link rel="stylesheet" href="/s.css"><meta name="robots" content="noai"><meta name="tdm-reservation" content="1"><p>x`,
	}
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	for path, page := range pages {
		if d, err := meta.FromHTML(strings.NewReader(page)); err != nil || !d.NoAI {
			t.Fatalf("%s: meta.FromHTML = %+v, %v; want NoAI", path, d, err)
		}
		s.route(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = nil // no Content-Type: browsers sniff
			_, _ = w.Write([]byte(page))
		})
	}
	_, tr, hc := newTestTransport(t)
	for path := range pages {
		resp, body := fetchPage(t, hc, s.URL+path)
		if ct := resp.Header.Values("Content-Type"); len(ct) != 0 {
			t.Fatalf("%s: Content-Type %q, want none", path, ct)
		}
		if rc := tr.Receipt(resp, body); rc.Usage.Pref("train-ai") != PrefNo {
			t.Errorf("%s: receipt usage %v, signals %q; want train-ai=n (robots META noai, tdm-reservation 1)",
				path, rc.Usage, sigs(rc.Signals))
		}
		if d := tr.PageDirectives(resp, body); !d.NoAI {
			t.Errorf("%s: PageDirectives NoAI false, want true", path)
		}
	}
}

// TestReceiptNoImageAICodedBody: a body still in a content coding
// net/http left (zstd a server sent unasked, or gzip the crawler asked
// for) is the coding's bytes, not the image's: served as
// application/octet-stream or with no type, it tells no more than no
// body, and the receipt counts X-Robots-Tag noimageai, as Transport.Usage
// does of the same response, not sniffing it as "not an image".
func TestReceiptNoImageAICodedBody(t *testing.T) {
	checkLeaks(t)
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(png)
	_ = zw.Close()
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	zst := enc.EncodeAll(png, nil)
	_ = enc.Close()
	coded := map[string][]byte{"gzip": gz.Bytes(), "zstd": zst}
	s := newTestSite(t, "User-agent: *\nAllow: /\nContent-Usage: train-ai=y\n")
	type tc struct{ path, ct, coding, accept string }
	cases := []tc{
		{"/gzip-octet", "application/octet-stream", "gzip", "gzip"}, // the crawler undoes codings itself
		{"/gzip-none", "", "gzip", "gzip"},
		{"/zstd-octet", "application/octet-stream", "zstd", ""}, // sent unasked: net/http leaves it
		{"/zstd-none", "", "zstd", ""},
	}
	for _, c := range cases {
		s.route(c.path, func(w http.ResponseWriter, _ *http.Request) {
			w.Header()["Content-Type"] = nil
			if c.ct != "" {
				w.Header().Set("Content-Type", c.ct)
			}
			w.Header().Set("Content-Encoding", c.coding)
			w.Header().Set("X-Robots-Tag", "noimageai")
			_, _ = w.Write(coded[c.coding])
		})
	}
	_, tr, hc := newTestTransport(t)
	for _, c := range cases {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+c.path, nil)
		if c.accept != "" {
			req.Header.Set("Accept-Encoding", c.accept)
		}
		resp, body := fetchPageReq(t, hc, req)
		if resp.Header.Get("Content-Encoding") != c.coding || !bytes.Equal(body, coded[c.coding]) {
			t.Fatalf("%s: the coding was undone: %q", c.path, resp.Header.Values("Content-Encoding"))
		}
		r := tr.Receipt(resp, body)
		if r.Usage.Pref("train-ai") != PrefNo || !slices.Contains(sigs(r.Signals), "x-robots-tag train-ai n X-Robots-Tag") {
			t.Errorf("%s (Content-Type %q, Content-Encoding %s): receipt usage %q, signals %q; want train-ai=n, noimageai counted: the body cannot be sniffed",
				c.path, c.ct, c.coding, r.Usage, sigs(r.Signals))
		}
		if u := tr.Usage(resp); u.Pref("train-ai") != r.Usage.Pref("train-ai") {
			t.Errorf("%s: Transport.Usage %q but Receipt %q for one response", c.path, u, r.Usage)
		}
	}
}

// TestReceiptTwoTurnPageDoesNotWaitForItsTurn: a page asked of
// a.test:8080 by a Host, sent to a.test:80 (two turns), read with its
// body open; a.test:8080's tdmrep.json redirects to a.test:80's. The
// receipt must not wait for the page's own turn (WithTDMRep).
func TestReceiptTwoTurnPageDoesNotWaitForItsTurn(t *testing.T) {
	checkLeaks(t)
	next := portTwins(t, &twinSites{}) // a.test:8080's tdmrep.json, redirected, reserves nothing
	c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA), WithTDMRep(), WithFetchTimeout(2 * time.Second)})
	defer c.Close()
	hc := &http.Client{Transport: tr}
	req, _ := http.NewRequest("GET", "http://a.test/x", nil)
	req.Host = "a.test:8080"
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	rc := tr.Receipt(resp, nil) // as the body is read: the page's turns are held
	took := time.Since(start)
	if got := rc.Usage.statement(); got != "" {
		t.Errorf("receipt of a page of a.test:8080, whose tdmrep.json (behind a redirect to a.test:80) reserves nothing: usage %q after %v, want none; signals %+v", got, took, rc.Signals)
	}
	resp.Body.Close()
	time.Sleep(1100 * time.Millisecond)
	req2, _ := http.NewRequest("GET", "http://a.test/y", nil)
	req2.Host = "a.test:8080"
	if resp2, err := hc.Do(req2); err == nil {
		io.Copy(io.Discard, resp2.Body)
		resp2.Body.Close()
		if rc2 := tr.Receipt(resp2, nil); rc2.Usage.statement() != "" {
			t.Errorf("a later page, its body read and closed: usage %q, want none; signals %+v", rc2.Usage.statement(), rc2.Signals)
		}
	} else {
		t.Errorf("a later page: %v", err)
	}
}

// TestReceiptKeptHostPageDoesNotWaitForItsTurn: a pinned crawler's
// page (http://10.0.0.1/start, Host a.test) redirected to
// "//cdn.test/x": net/http keeps Host a.test on cdn.test's server, and
// the request takes a.test's and cdn.test's turns. a.test's tdmrep.json
// lives on the CDN. A receipt made with the body open must not wait for
// the page's own cdn.test turn (WithTDMRep), nor read the file as
// unreachable.
func TestReceiptKeptHostPageDoesNotWaitForItsTurn(t *testing.T) {
	checkLeaks(t)
	const file = `[{"location": "/", "tdm-reservation": 0}]`
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nAllow: /\n")
		case "/start":
			w.Header().Set("Location", "//cdn.test/x")
			w.WriteHeader(http.StatusFound)
		case "/.well-known/tdmrep.json":
			http.Redirect(w, r, "http://cdn.test/a.test/tdmrep.json", http.StatusMovedPermanently)
		default:
			io.WriteString(w, "page")
		}
	}))
	defer a.Close()
	cdn := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nAllow: /\nCrawl-delay: 1\n")
		case "/a.test/tdmrep.json":
			io.WriteString(w, file)
		case "/.well-known/tdmrep.json": // the CDN's own, which counts too
			http.NotFound(w, r)
		default:
			io.WriteString(w, "page")
		}
	}))
	defer cdn.Close()
	var d net.Dialer
	next := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		to := a.Listener.Addr().String()
		if host, _, _ := net.SplitHostPort(addr); host == "cdn.test" {
			to = cdn.Listener.Addr().String()
		}
		return d.DialContext(ctx, network, to)
	}}
	defer next.CloseIdleConnections()
	c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA), WithTDMRep(), WithFetchTimeout(2 * time.Second)})
	defer c.Close()
	hc := &http.Client{Transport: tr}
	req, _ := http.NewRequest("GET", "http://10.0.0.1/start", nil)
	req.Host = "a.test"
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	start := time.Now()
	rc := tr.Receipt(resp, nil) // as the body is read: the page's turns are held
	took := time.Since(start)
	if got := rc.Usage.statement(); got != "" {
		t.Errorf("receipt of a.test's page (served from cdn.test's server), whose tdmrep.json (on cdn.test) reserves nothing: usage %q after %v, want none; signals %+v",
			got, took, rc.Signals)
	}
}

// TestReceiptOfA304IsNotThePages: a page says X-Robots-Tag noindex and
// noai, Content-Usage train-ai=n and Tdm-Reservation 1 in its 200; a
// crawler revalidates it, and the 304 holds none of those, as RFC 9110
// asks of it. Receipt(304, the stored body), Usage(304) and
// PageDirectives(304, the stored body) read the 304's header as the
// page's (consent83): train-ai=y, and noindex dropped, as for a stored
// HTML page with a byte-order mark whose robots META says noai, sniffed
// as text under the 304's missing Content-Type. They fail closed now;
// the stored response, its header updated with the 304's and its Request
// the 304's, reads as the page, of no stated length too (review138: the
// 304's body record, which saw no body, read it as cut).
func TestReceiptOfA304IsNotThePages(t *testing.T) {
	for _, tc := range []struct {
		name, page string
		header     http.Header
		chunked    bool // of no stated length, its head running to its end
	}{
		{"header", "<html><head><title>t</title></head><body>x</body></html>", http.Header{
			"Content-Type": {"text/html"}, "X-Robots-Tag": {"noindex, noai"}, "Content-Usage": {"train-ai=n"}, "Tdm-Reservation": {"1"}}, false},
		{"META", "\xEF\xBB\xBF<!DOCTYPE html><html><head><meta name=\"robots\" content=\"noindex, noai\"></head><body>x</body></html>",
			http.Header{"Content-Type": {"text/html; charset=utf-8"}}, false},
		{"META, chunked", "<!DOCTYPE html><meta name=\"robots\" content=\"noindex, noai\">",
			http.Header{"Content-Type": {"text/html; charset=utf-8"}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newHosts(t)
			w.on("a.test/robots.txt", serve(200, "User-agent: *\nAllow: /\nContent-Usage: train-ai=y\n"))
			w.on("a.test/page", func(rw http.ResponseWriter, r *http.Request) {
				rw.Header().Set("ETag", `"v1"`)
				if r.Header.Get("If-None-Match") == `"v1"` {
					rw.WriteHeader(http.StatusNotModified)
					return
				}
				maps.Copy(rw.Header(), tc.header)
				if tc.chunked {
					_, _ = rw.Write([]byte(tc.page[:5]))
					rw.(http.Flusher).Flush()
					_, _ = rw.Write([]byte(tc.page[5:]))
					return
				}
				_, _ = rw.Write([]byte(tc.page))
			})
			c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)})
			t.Cleanup(func() { _ = c.Close() })
			hc := &http.Client{Transport: tr}
			first, stored := fetchPage(t, hc, "http://a.test/page")
			if u := tr.Receipt(first, stored).Usage; u.Pref("train-ai") != PrefNo || !tr.PageDirectives(first, stored).NoIndex {
				t.Fatalf("the 200: %q", u.statement())
			}
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://a.test/page", nil)
			req.Header.Set("If-None-Match", `"v1"`)
			again, _ := fetchPageReq(t, hc, req)
			if again.StatusCode != http.StatusNotModified {
				t.Fatalf("status %d", again.StatusCode)
			}
			rc, u, d := tr.Receipt(again, stored), tr.Usage(again), tr.PageDirectives(again, stored)
			if rc.Usage.Pref("train-ai") != PrefNo || u.Pref("train-ai") != PrefNo || !d.NoIndex || !d.NoAI {
				t.Errorf("the 304: Receipt %q %v, Usage %q, PageDirectives %+v; want train-ai=n and noindex", rc.Usage.statement(), sigs(rc.Signals), u.statement(), d)
			}
			if !slices.ContainsFunc(rc.Signals, func(s Signal) bool { return s.Source == "page" && s.Where == "unreadable" }) {
				t.Errorf("the 304's receipt does not say the page went unread: %v", sigs(rc.Signals))
			}
			// The stored response, as the receipt's doc says to pass it.
			validated := *first
			validated.Header = first.Header.Clone()
			maps.Copy(validated.Header, again.Header)
			validated.Request = again.Request // checked against robots.txt as it stands now
			rc = tr.Receipt(&validated, stored)
			if rc.Usage.Pref("train-ai") != PrefNo || slices.ContainsFunc(rc.Signals, func(s Signal) bool { return s.Where == "unreadable" }) ||
				!tr.PageDirectives(&validated, stored).NoIndex {
				t.Errorf("the stored response, validated: %q %v; want the page's train-ai=n, and nothing unreadable", rc.Usage.statement(), sigs(rc.Signals))
			}
		})
	}
}

// TestReceiptURLEscapesTheQuerysBytes: a query's bytes past ASCII, which
// net/http sends raw, are escaped in Receipt.URL as the path's are
// (review138): two Latin-1 queries, one page reserved, log two URLs, and
// a C1 control of a link reaches no log raw.
func TestReceiptURLEscapesTheQuerysBytes(t *testing.T) {
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("a.test/search", func(rw http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.RawQuery, "\xe9") {
			rw.Header().Set("Tdm-Reservation", "1")
		}
	})
	// A robots.txt redirected to a query of such bytes is named so too
	// (review143).
	w.on("b.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery == "" {
			rw.Header().Set("Location", "http://b.test/robots.txt?v=caf\xe9") // raw, as a legacy server writes it
			rw.WriteHeader(http.StatusFound)
			return
		}
		_, _ = io.WriteString(rw, "User-agent: *\nAllow: /\n")
	})
	w.on("b.test/page", serve(200, ""))
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	resp, body := fetchPage(t, hc, "http://b.test/page")
	if rc := tr.Receipt(resp, body); rc.Robots == nil || rc.Robots.FinalURL != "http://b.test/robots.txt?v=caf%E9" {
		t.Errorf("the receipt's robots.txt evidence: %+v, want its FinalURL escaped", rc.Robots)
	}
	for _, tc := range []struct{ url, want string }{
		{"http://a.test/search?q=caf\xe9", "http://a.test/search?q=caf%E9"},
		{"http://a.test/search?q=caf\xe8", "http://a.test/search?q=caf%E8"},
		{"http://a.test/search?q=\u009b31m", "http://a.test/search?q=%C2%9B31m"},
		{"http://a.test/search?q=%e9&r=\u00e9", "http://a.test/search?q=%e9&r=%C3%A9"},
		{"http://a.test/search?q=ascii", "http://a.test/search?q=ascii"},
	} {
		resp, body := fetchPage(t, hc, tc.url)
		rc := tr.Receipt(resp, body)
		j, err := json.Marshal(rc)
		if err != nil {
			t.Fatal(err)
		}
		var logged struct{ URL string }
		if err := json.Unmarshal(j, &logged); err != nil {
			t.Fatal(err)
		}
		if rc.URL != tc.want || logged.URL != tc.want {
			t.Errorf("%q: Receipt.URL %q, logged %q, want %q", tc.url, rc.URL, logged.URL, tc.want)
		}
	}
}

// TestReceiptNamesALongURLWhole: two pages whose URLs differ past their
// 512th byte (a search's query), one reserved and one not, got receipts
// naming one URL, cut, neither page's (consent83): a log could not tell
// which page each was of. A receipt names the URL whole.
func TestReceiptNamesALongURLWhole(t *testing.T) {
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on("a.test/search", func(rw http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.RawQuery, "&p=2") {
			rw.Header().Set("Tdm-Reservation", "1")
		}
	})
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)})
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	base := "http://a.test/search?q=" + strings.Repeat("x", 7000)
	for _, u := range []string{base + "&p=1", base + "&p=2"} {
		resp, body := fetchPage(t, hc, u)
		if rc := tr.Receipt(resp, body); rc.URL != u {
			t.Errorf("the receipt of a page of %d bytes names a URL of %d bytes ending %q", len(u), len(rc.URL), rc.URL[max(0, len(rc.URL)-8):])
		}
	}
	// A host no DNS name is as long as, which only the caller's dialer
	// answers, is cut (review138): the URL stays within its bound.
	long := strings.Repeat(strings.Repeat("h", 60)+".", 100) + "test"
	w.on(long+"/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
	w.on(long+"/search", serve(200, ""))
	resp, body := fetchPage(t, hc, "http://"+long+"/search?q="+strings.Repeat("x", 7000))
	if rc := tr.Receipt(resp, body); len(rc.URL) > maxReceiptURL+len("…") || !strings.HasSuffix(rc.URL, "…") {
		t.Errorf("the receipt of a page at a host of %d bytes names a URL of %d bytes", len(long), len(rc.URL))
	}
}

// TestReceiptLongMetaPolicyIsThePages: a page's own tdm-policy META past
// 2 KiB (a signed URL) is the page's policy, which supersedes the one its
// site's tdmrep.json gives, cut and marked in the receipt as the header's
// is: the META tag's was dropped, and the receipt named the file's
// (tdmrep85).
func TestReceiptLongMetaPolicyIsThePages(t *testing.T) {
	const sitePolicy = "https://a.test/site-policy.json"
	long := "https://a.test/page-policy.json?sig=" + strings.Repeat("A", 2100)
	for _, tc := range []struct {
		name   string
		header []string
		meta   string
	}{
		{"META", nil, `<meta name="tdm-reservation" content="1"><meta name="tdm-policy" content="` + long + `">`},
		{"header", []string{"Tdm-Reservation", "1", "Tdm-Policy", long}, ""},
	} {
		w := newHosts(t)
		w.on("a.test/robots.txt", serve(200, "User-agent: *\nAllow: /\n"))
		w.on("a.test/.well-known/tdmrep.json", serve(200, `[{"location":"/","tdm-reservation":1,"tdm-policy":"`+sitePolicy+`"}]`))
		w.on("a.test/p", serve(200, "<html><head>"+tc.meta+"</head><body>x</body></html>",
			append([]string{"Content-Type", "text/html"}, tc.header...)...))
		c := newTestClient(t, WithUserAgent(testUA), WithTDMRep(), WithHTTPClient(&http.Client{Transport: w.transport(t)}))
		tr := NewTransport(c, w.transport(t))
		resp, body := fetchPage(t, &http.Client{Transport: tr}, "http://a.test/p")
		r := tr.Receipt(resp, body)
		if !strings.HasPrefix(r.TDMPolicy, "https://a.test/page-policy.json?sig=AAA") || !strings.HasSuffix(r.TDMPolicy, "…") {
			t.Errorf("the page's policy in its %s: TDMPolicy %.60q (%d bytes); want the page's, cut and marked", tc.name, r.TDMPolicy, len(r.TDMPolicy))
		}
	}
}
