package main

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"compress/zlib"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt"
)

// TestLintJSONGolden lints the files with known problems under
// testdata/lint with -json and compares the output with a golden file.
func TestLintJSONGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/lint/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no lint test files: %v", err)
	}
	r := runCmd(t, "", append([]string{"lint", "-json"}, files...)...)
	if r.code != exitDisallowed {
		t.Errorf("exit %d, want %d; stderr %q", r.code, exitDisallowed, r.stderr)
	}
	golden(t, "lint.jsonl", r.stdout)
	// One object per file, in order, with counts that match the
	// diagnostics.
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	for _, f := range files {
		var rep report
		if err := dec.Decode(&rep); err != nil {
			t.Fatalf("object for %s: %v", f, err)
		}
		if rep.File != f {
			t.Errorf("object for %s names %q", f, rep.File)
		}
		counts := map[string]int{}
		for _, d := range rep.Diagnostics {
			counts[d.Severity.String()]++
		}
		if counts["error"] != rep.Errors || counts["warning"] != rep.Warnings || counts["info"] != rep.Infos {
			t.Errorf("%s: counts %d/%d/%d, diagnostics %v", f, rep.Errors, rep.Warnings, rep.Infos, counts)
		}
	}
}

// UnmarshalText reads a severity name, so tests can decode -json output.
func (s *severity) UnmarshalText(b []byte) error {
	v, err := parseSeverity(string(b))
	*s = v
	return err
}

// UnmarshalText reads a code name, so tests can decode -json output.
func (c *code) UnmarshalText(b []byte) error {
	for i, e := range codeTable {
		if e.name == string(b) {
			*c = code(i)
			return nil
		}
	}
	return fmt.Errorf("unknown lint code %q", b)
}

func TestLintText(t *testing.T) {
	r := runCmd(t, "", "lint", "testdata/lint/problems.txt")
	if r.code != exitDisallowed {
		t.Errorf("exit %d, want %d", r.code, exitDisallowed)
	}
	want := []string{
		`testdata/lint/problems.txt:1: error: rule before any user-agent line: no crawler obeys it [rule-outside-group]`,
		"\tDisallow: /early",
		`testdata/lint/problems.txt:3: info: misspelt key "dissallow"; read as meant, as Google does [misspelt-key]`,
		"\tdissallow: /tmp/",
		`testdata/lint/problems.txt:4: info: not a robots.txt line: skipped [not-a-directive]`,
		"\tthis line is nonsense",
		`testdata/lint/problems.txt:5: warning: value "soon" does not parse: crawlers that read the key skip it [bad-value]`,
		"\tCrawl-delay: soon",
		`testdata/lint/problems.txt:5: warning: Google ignores Crawl-delay (1 line in this file); Bing and Yandex read it [crawl-delay]`,
		"\tCrawl-delay: soon",
		`testdata/lint/problems.txt:6: error: pattern "private" starts with neither / nor *: it matches no URL [no-leading-slash]`,
		"\tDisallow: private",
		`testdata/lint/problems.txt: 1 group, 2 rules, 0 sitemaps: 2 errors, 2 warnings, 2 infos`,
	}
	if got := outputLines(r.stdout); !slices.Equal(got, want) {
		t.Errorf("output:\n%s\nwant:\n%s", r.stdout, strings.Join(want, "\n"))
	}
}

// TestLintExitOnlyForErrors checks that warnings and infos do not fail.
func TestLintExitOnlyForErrors(t *testing.T) {
	for file, code := range map[string]int{
		"testdata/lint/clean.txt":        exitOK,
		"testdata/lint/utf16.txt":        exitOK, // a warning
		"testdata/lint/latin1.txt":       exitOK, // an info
		"testdata/lint/disallow-all.txt": exitOK,
		"testdata/lint/notfound.txt":     exitOK,
		"testdata/lint/html.txt":         exitDisallowed,
		"testdata/lint/agents.txt":       exitDisallowed,
	} {
		if r := runCmd(t, "", "lint", "-q", file); r.code != code || r.stdout != "" {
			t.Errorf("%s: exit %d, stdout %q; want %d and nothing", file, r.code, r.stdout, code)
		}
	}
}

func TestLintLevel(t *testing.T) {
	r := runCmd(t, "", "lint", "testdata/lint/rules.txt", "-level", "error")
	if r.code != exitDisallowed || strings.Contains(r.stdout, "warning:") || strings.Contains(r.stdout, "info:") ||
		!strings.Contains(r.stdout, "error:") || !strings.Contains(r.stdout, ": 5 errors, 5 warnings, 2 infos") {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
}

// TestLintHTMLIsOneFinding checks that an HTML page gives one error, not
// one finding per line.
func TestLintHTMLIsOneFinding(t *testing.T) {
	r := runCmd(t, "", "lint", "-json", "testdata/lint/html.txt")
	var rep report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Diagnostics) != 1 || rep.Diagnostics[0].Code != codeNotRobots || rep.Errors != 1 {
		t.Errorf("diagnostics %+v", rep.Diagnostics)
	}
}

func TestLintSeveralFilesAndStdin(t *testing.T) {
	r := runCmd(t, "User-agent: *\nDisallow: /x\n", "lint", "testdata/lint/clean.txt", "-")
	if r.code != exitOK || !strings.Contains(r.stdout, "<stdin>: 1 group, 1 rule") {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
	r = runCmd(t, "", "lint", "testdata/lint/clean.txt", "testdata/lint/problems.txt")
	if r.code != exitDisallowed {
		t.Errorf("clean + problems: exit %d, want %d", r.code, exitDisallowed)
	}
	// A second "-" would lint what the first left, nothing, as valid.
	r = runCmd(t, "User-agent: *\nDisalow: /x\n", "lint", "-", "testdata/lint/clean.txt", "-")
	if r.code != exitUsage || r.stdout != "" || !strings.Contains(r.stderr, "twice") {
		t.Errorf("lint - FILE -: exit %d, stdout %q, stderr %q; want a usage error", r.code, r.stdout, r.stderr)
	}
}

func TestLintUnreadable(t *testing.T) {
	r := runCmd(t, "", "lint", "testdata/lint/problems.txt", "testdata/missing.txt")
	if r.code != exitUsage || !strings.Contains(r.stderr, "missing.txt") {
		t.Errorf("exit %d, stderr %q; want %d naming the file", r.code, r.stderr, exitUsage)
	}
	if !strings.Contains(r.stdout, "problems.txt: 1 group") {
		t.Errorf("the readable file was not linted: %q", r.stdout)
	}
}

// pastLimit returns head followed by comment lines to 100 bytes past the
// 500 KiB crawlers read.
func pastLimit(head string) string {
	var b strings.Builder
	b.WriteString(head)
	for b.Len() < crawlerLimit+100 {
		b.WriteString("# padding padding padding padding padding\n")
	}
	return b.String()
}

func TestLintOverLimit(t *testing.T) {
	comments := pastLimit("User-agent: *\n")
	r := runCmd(t, comments, "lint", "-json", "-")
	if r.code != exitOK || !strings.Contains(r.stdout, `"code":"over-limit-no-rules"`) || !strings.Contains(r.stdout, `"truncated":true`) {
		t.Errorf("comments past the limit: exit %d, stdout %q", r.code, r.stdout)
	}
	r = runCmd(t, comments+"Disallow: /late\nDisallow: /later\n", "lint", "-")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "2 rules from this line on are never read [over-limit]\n\tDisallow: /late\n") {
		t.Errorf("rules past the limit: exit %d, stdout %q", r.code, r.stdout)
	}
	// An AI-training refusal past the limit is lost as a rule is.
	r = runCmd(t, comments+"Content-Usage: train-ai=n\nContent-Signal: ai-train=no\n", "lint", "-")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "1 Content-Usage rule and 1 other record from this line on are never read [over-limit]\n\tContent-Usage: train-ai=n\n") {
		t.Errorf("Content-Usage past the limit: exit %d, stdout %q", r.code, r.stdout)
	}
	// A key no major crawler reads, or prose, is lost harmlessly.
	r = runCmd(t, strings.Repeat("Crawl-delay: x\n", 1001)+comments+"Robot-version: 2.0\nNote: generated\n", "lint", "-json", "-")
	if r.code != exitOK || !strings.Contains(r.stdout, `"code":"over-limit-no-rules"`) {
		t.Errorf("unknown keys past the limit: exit %d, stdout %q", r.code, r.stdout)
	}
	// A rule the limit cuts is read as far as it goes: Disallow: / of
	// Disallow: /private, which disallows the whole site, as test says.
	cut := comments[:crawlerLimit-len("Disallow: /")-1] + "\nDisallow: /private\n"
	if r = runCmd(t, cut, "test", "-file", "-", "/products/"); r.code != exitDisallowed {
		t.Errorf("a rule the limit cuts: test exit %d, stdout %q; want /products/ disallowed", r.code, r.stdout)
	}
	r = runCmd(t, cut, "lint", "-")
	if line := strings.Count(cut, "\n"); r.code != exitDisallowed || strings.Contains(r.stdout, "over-limit-no-rules") ||
		!strings.Contains(r.stdout, fmt.Sprintf("%d: error: the file is 501 KiB; crawlers read the first 500 KiB, which ends in this line: they read it as \"Disallow: /\" [over-limit]\n\tDisallow: /private\n", line)) {
		t.Errorf("a rule the limit cuts: exit %d, stdout %q", r.code, r.stdout)
	}
	// Cut past what is shown of it, too.
	long := "Disallow: /" + strings.Repeat("a", 300) + "/private\n"
	if r = runCmd(t, comments[:crawlerLimit-len(long)+5]+"\n"+long, "lint", "-"); r.code != exitDisallowed || !strings.Contains(r.stdout, "which ends in this line") {
		t.Errorf("a long rule the limit cuts: exit %d, stdout %q", r.code, r.stdout)
	}
	// A line crawlers skip whole may be read as a rule cut.
	skipped := comments[:crawlerLimit-len("Disallow /a ")-1] + "\nDisallow /a /b\n"
	if r = runCmd(t, skipped, "lint", "-"); r.code != exitDisallowed || !strings.Contains(r.stdout, `they read it as "Disallow /a"`) {
		t.Errorf("a skipped line the limit cuts into a rule: exit %d, stdout %q", r.code, r.stdout)
	}
	// Cut in its comment or its trailing blanks, it is read as written.
	for _, tail := range []string{"Disallow: /private # secret\n", "Disallow: /private           \n"} {
		settled := comments[:crawlerLimit-len("Disallow: /private # se")-1] + "\n" + tail
		if r = runCmd(t, settled, "lint", "-"); r.code != exitOK || strings.Contains(r.stdout, "which ends in this line") {
			t.Errorf("%q cut after its pattern: exit %d, stdout %q", tail, r.code, r.stdout)
		}
	}
	r = runCmd(t, cut+"Disallow: /late\n", "lint", "-")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "which ends in this line") || !strings.Contains(r.stdout, "1 rule from this line on is never read") {
		t.Errorf("a rule the limit cuts, and one past it: exit %d, stdout %q", r.code, r.stdout)
	}
	// The limit counts the bytes received: a UTF-16 file's text is about
	// half of them.
	u16 := []byte{0xff, 0xfe}
	for _, c := range comments + "Disallow: /late\n" {
		u16 = append(u16, byte(c), 0)
	}
	r = runCmd(t, string(u16), "lint", "-")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "the file is over 500 KiB as UTF-16LE (501 KiB as UTF-8); crawlers read the first 500 KiB (to line 6") {
		t.Errorf("UTF-16 past the limit: exit %d, stdout %q", r.code, r.stdout)
	}
	// Under the limit as UTF-8, over it as served: not "the file is 300
	// KiB; crawlers read the first 500 KiB", then rules never read.
	u16 = []byte{0xfe, 0xff}
	short := comments[:strings.LastIndexByte(comments[:300<<10], '\n')+1]
	for _, c := range short + "Disallow: /late\n" {
		u16 = append(u16, 0, byte(c))
	}
	r = runCmd(t, string(u16), "lint", "-")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "the file is over 500 KiB as UTF-16BE (300 KiB as UTF-8); crawlers read the first 500 KiB (to line 6096)") {
		t.Errorf("UTF-16 under the limit as UTF-8, over it as served: exit %d, stdout %q", r.code, r.stdout)
	}
}

// TestLintLive lints a robots.txt served deflate-compressed (a coding
// net/http leaves to the Client) in Latin-1 with a charset, which WHATWG,
// and so body.Read, reads as Windows-1252: it is read through the
// Client's body pipeline.
func TestLintLive(t *testing.T) {
	var gz bytes.Buffer
	zw := zlib.NewWriter(&gz)
	zw.Write([]byte("User-agent: *\nDisallow: /caf\xe9\nDisallow: /caf\xe9\n"))
	zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		w.Header().Set("Content-Encoding", "deflate")
		w.Write(gz.Bytes())
	}))
	defer srv.Close()
	r := runCmd(t, "", "lint", "-json", srv.URL+"/anything")
	var rep report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v: %q (stderr %q)", err, r.stdout, r.stderr)
	}
	if r.code != exitOK || rep.File != srv.URL+"/robots.txt" || rep.Charset != "windows-1252" || rep.Bytes != gz.Len() ||
		len(rep.Diagnostics) != 2 || rep.Diagnostics[0].Code != codeCharset || rep.Diagnostics[1].Code != codeDuplicate || rep.Diagnostics[1].Text != "Disallow: /café" {
		t.Errorf("exit %d, report %+v", r.code, rep)
	}
	if m := rep.Diagnostics[0].Message; !strings.Contains(m, "in UTF-8 or, escaped, in windows-1252") {
		t.Errorf("windows-1252: %q", m)
	}
	missing := newRobotsServer(t, http.StatusNotFound, "")
	if r := runCmd(t, "", "lint", missing.URL+"/robots.txt"); r.code != exitUsage || !strings.Contains(r.stderr, "nothing to lint: status 404") {
		t.Errorf("404: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runCmd(t, "", "lint", "ftp://example.com/robots.txt"); r.code != exitUsage || !strings.Contains(r.stderr, "bad URL") {
		t.Errorf("ftp: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestLintCorpus lints every corpus file: no file may make it fail, every
// finding must be on a line of its file and have its code's severity,
// and HTML pages must give one finding. It logs the error count and the
// most frequent kinds of error.
func TestLintCorpus(t *testing.T) {
	longTest(t)
	files := corpusFiles(t, "*.txt")
	errs, withErrs := map[string]int{}, 0
	for _, f := range files {
		d, err := readDocument(t.Context(), f, fetchConfig{}, env{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fs := lintDocument(d, robotstxt.ModeGoogle)
		lines := newListing(d.whole.Text).len()
		n := 0
		for _, x := range fs {
			if x.Line < 0 || x.Line > lines || x.Severity != x.Code.severity() || x.Message == "" {
				t.Errorf("%s: bad finding %+v", f, x)
			}
			if x.Severity == sevError {
				errs[x.Code.String()]++
				n++
			}
			if x.Code == codeNotRobots && len(fs) != 1 {
				t.Errorf("%s: %d findings besides not-robots-txt", f, len(fs)-1)
			}
		}
		if n > 0 {
			withErrs++
		}
	}
	codes := make([]string, 0, len(errs))
	for c := range errs {
		codes = append(codes, c)
	}
	sort.Slice(codes, func(i, j int) bool { return errs[codes[i]] > errs[codes[j]] })
	var top []string
	for _, c := range codes {
		top = append(top, fmt.Sprintf("%s %d", c, errs[c]))
	}
	t.Logf("%d of %d files have errors; errors by kind: %s", withErrs, len(files), strings.Join(top, ", "))
}

// TestLintUnreachable checks the exit code of a robots.txt lint cannot
// read, as the help's table gives it, and that -json prints an object for
// it all the same: 3 for an unreachable robots.txt, 2 for none or a
// missing file; and each object says why.
func TestLintUnreachable(t *testing.T) {
	down := newRobotsServer(t, http.StatusServiceUnavailable, "")
	missing := newRobotsServer(t, http.StatusNotFound, "")
	for _, tc := range []struct {
		name string
		code int
		why  string
	}{
		{down.URL + "/robots.txt", exitDeferred, "nothing to lint: robots.txt unreachable: status 503 Service Unavailable; retry after "},
		{missing.URL + "/robots.txt", exitUsage, "nothing to lint: status 404; no robots.txt: allow all"},
		{"http://" + closedPort(t) + "/robots.txt", exitDeferred, "nothing to lint: robots.txt unreachable: connection refused"},
		{"testdata/missing.txt", exitUsage, "missing.txt"},
	} {
		r := runCmd(t, "", "lint", "-json", tc.name, "testdata/lint/clean.txt")
		var reps []report
		dec := json.NewDecoder(strings.NewReader(r.stdout))
		for dec.More() {
			var rep report
			if err := dec.Decode(&rep); err != nil {
				t.Fatalf("%s: %v: %s", tc.name, err, r.stdout)
			}
			reps = append(reps, rep)
		}
		if r.code != tc.code || len(reps) != 2 || !strings.Contains(reps[0].Error, tc.why) || len(reps[0].Diagnostics) != 0 ||
			reps[1].File != "testdata/lint/clean.txt" || reps[1].Error != "" || !strings.Contains(r.stderr, tc.why) {
			t.Errorf("%s: exit %d, stdout %s, stderr %q; want %d and an object saying %q", tc.name, r.code, r.stdout, r.stderr, tc.code, tc.why)
		}
	}
}

// TestLintTDMRep lints tdmrep.json files, local and served, as crawlers
// that read TDMRep read them: one that does not parse, or cannot be
// fetched, gives a tdmrep-unreadable warning that says why; a good one
// nothing.
func TestLintTDMRep(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		body, why string
	}{
		{`[{"location": "/a/*", "tdm-reservation": 1}]`, ""},
		{`[{"location": 3, "tdm-reservation": 1}]`, `tdmrep: entry 1: "location" is not a string`},
		{`{"location": "/"}`, "tdmrep: not a JSON array"},
		{"503", "503"},
	} {
		srv := httptest.NewServer(signalSite{tdmrep: tc.body})
		defer srv.Close()
		names := []string{srv.URL + "/.well-known/tdmrep.json"}
		if tc.body != "503" {
			names = append(names, filepath.Join(dir, "tdmrep.json"))
			if err := os.WriteFile(names[1], []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, name := range names {
			r := runCmd(t, "", "lint", "-json", name)
			var rep report
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != exitOK {
				t.Fatalf("%s: exit %d, %v: %s", name, r.code, err, r.stdout)
			}
			got := ""
			if len(rep.Diagnostics) == 1 && rep.Diagnostics[0].Code == codeTDMRep && rep.Warnings == 1 {
				got = rep.Diagnostics[0].Message
			}
			if tc.why == "" && len(rep.Diagnostics) != 0 || tc.why != "" && !strings.Contains(got, tc.why) {
				t.Errorf("%s of %s: %+v; want a tdmrep-unreadable warning saying %q", name, tc.body, rep, tc.why)
			}
		}
	}
}

// TestLintTDMRepReadAsNoFile: a tdmrep.json that crawlers read as no file
// (empty, or a page: a site's page for every path it lacks) has nothing
// to lint, at a URL or on disk, as one that answers 404; lint called it
// clean (tdmrep89). Lint and the Transport agree on which is which.
func TestLintTDMRepReadAsNoFile(t *testing.T) {
	const reserving = `[{"location": "/*", "tdm-reservation": 1}]`
	dir := t.TempDir()
	for _, body := range []string{
		reserving,
		"\xEF\xBB\xBF \n" + reserving,
		"\n",
		" \r\n\t",
		"<!DOCTYPE html><html><body>Not found</body></html>",
		"\xEF\xBB\xBF\n<p>" + reserving,
		"<!DOCTYPE html><p>Page introuvable \xE0 cette adresse</p>" + reserving, // Latin-1: review163
	} {
		srv := httptest.NewServer(signalSite{tdmrep: body})
		c, rt := robotstxt.NewClientTransport(nil, []robotstxt.Option{robotstxt.WithTDMRep()})
		none := receiptOf(t, rt, srv.URL+"/page").Usage.Pref("train-ai") != robotstxt.PrefNo
		c.Close()
		local := filepath.Join(dir, "tdmrep.json")
		if err := os.WriteFile(local, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{srv.URL + "/.well-known/tdmrep.json", local} {
			r := runCmd(t, "", "lint", name)
			if said := r.code == exitUsage && strings.Contains(r.stderr, "nothing to lint") && strings.Contains(r.stderr, "no tdmrep.json"); said != none ||
				!none && r.code != exitOK {
				t.Errorf("lint of %s holding %q: exit %d, stderr %q; the Transport reads it as no file: %v", name, body, r.code, r.stderr, none)
			}
		}
		srv.Close()
	}
}

// TestLintTDMRepGzippedPage: a gzipped page served for a tdmrep.json,
// decoded past the 256 KiB the Client reads of one, which it reads as no
// file, has nothing to lint too: lint read the part of the stream the
// Client read to 500 KiB, failed, and called the file clean (review164).
func TestLintTDMRepGzippedPage(t *testing.T) {
	noise := make([]byte, 1<<19)
	for i := range noise {
		noise[i] = byte(rand.N(256))
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("<!DOCTYPE html><html><body><p>Not found " + hex.EncodeToString(noise) + "</p></body></html>"))
	zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != tdmrepPath {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gz.Bytes())
	}))
	defer srv.Close()
	c, rt := robotstxt.NewClientTransport(nil, []robotstxt.Option{robotstxt.WithTDMRep()})
	rc := receiptOf(t, rt, srv.URL+"/page")
	c.Close()
	if rc.Usage.Pref("train-ai") == robotstxt.PrefNo {
		t.Fatalf("the Transport reads the page as a file: %v", rc.Signals)
	}
	if r := runCmd(t, "", "lint", srv.URL+tdmrepPath); r.code != exitUsage || !strings.Contains(r.stderr, "nothing to lint") {
		t.Errorf("lint: exit %d, stdout %q, stderr %q; want nothing to lint", r.code, r.stdout, r.stderr)
	}
}

// TestLintTDMRepURL: lint of a site's tdmrep.json that answers 404 has
// nothing to lint (exit 2), as lint of a robots.txt that answers so; of
// one that is there, "bytes" is the body's size, as of the file on disk.
func TestLintTDMRepURL(t *testing.T) {
	const file = `[{"location": "/*", "tdm-reservation": 1, "tdm-policy": "https://example.com/policy.json"}]`
	none := httptest.NewServer(signalSite{})
	defer none.Close()
	if r := runCmd(t, "", "lint", none.URL+"/.well-known/tdmrep.json"); r.code != exitUsage || !strings.Contains(r.stderr, "nothing to lint: status 404") {
		t.Errorf("a tdmrep.json that answers 404: exit %d, stdout %q, stderr %q; want %d, nothing to lint", r.code, r.stdout, r.stderr, exitUsage)
	}
	has := httptest.NewServer(signalSite{tdmrep: file})
	defer has.Close()
	r := runCmd(t, "", "lint", "-json", has.URL+"/.well-known/tdmrep.json")
	var rep report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != exitOK || rep.Bytes != len(file) {
		t.Errorf("a tdmrep.json of %d bytes: exit %d, %v, %+v; want its size", len(file), r.code, err, rep)
	}
}

// TestLintTDMRepCharset: lint -json gives the encoding a tdmrep.json was
// read in, a file's or a URL's, as it does a robots.txt's: a UTF-16LE
// file with its byte order mark, which the Client reads, is "utf-16le".
func TestLintTDMRepCharset(t *testing.T) {
	const doc = `[{"location":"/*","tdm-reservation":1}]`
	u16 := []byte{0xFF, 0xFE}
	for _, r := range doc {
		u16 = append(u16, byte(r), 0)
	}
	for charset, raw := range map[string][]byte{"utf-16le": u16, "utf-8": []byte(doc)} {
		srv := httptest.NewServer(signalSite{tdmrep: string(raw)})
		defer srv.Close()
		file := filepath.Join(t.TempDir(), "tdmrep.json")
		if err := os.WriteFile(file, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{file, srv.URL + "/.well-known/tdmrep.json"} {
			r := runCmd(t, "", "lint", "-json", name)
			var rep report
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != exitOK || len(rep.Diagnostics) != 0 || rep.Charset != charset || rep.Bytes != len(raw) {
				t.Errorf("lint -json of a %s tdmrep.json, %s: exit %d, %v, %+v; want it read in %s, %d bytes", charset, name, r.code, err, rep, charset, len(raw))
			}
		}
	}
}

// TestLintTDMRepURLNoResponse: lint -json of a tdmrep.json that gets no
// response reports it unreadable and 0 bytes, not the size of the file
// the site's robots.txt redirected to, read before it.
func TestLintTDMRepURLNoResponse(t *testing.T) {
	const rules = "User-agent: *\nAllow: /\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.Redirect(w, r, "/rules.txt", http.StatusMovedPermanently)
		case "/rules.txt":
			io.WriteString(w, rules)
		default:
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.Close()
			}
		}
	}))
	defer srv.Close()
	r := runCmd(t, "", "lint", "-json", srv.URL+"/.well-known/tdmrep.json")
	var rep report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Diagnostics) != 1 || rep.Diagnostics[0].Code != codeTDMRep || rep.Bytes != 0 {
		t.Errorf("a tdmrep.json that gets no response: exit %d, %v, %+v; want it unreadable, 0 bytes", r.code, err, rep)
	}
}

// TestLintTDMRepURLCountsItsOwn: lint -json's "bytes" of a tdmrep.json
// URL counts the file's own response, where its redirects led: not the
// robots.txt fetched to check a hop (b.example's, redirected to
// /rules.txt, which disallows the file), which the Client reads in
// between.
func TestLintTDMRepURLCountsItsOwn(t *testing.T) {
	const file = `[{"location": "/*", "tdm-reservation": 1}]`
	rules := "User-agent: *\nDisallow: /.well-known/\n" + strings.Repeat("# the rules of b.example, padded to be told apart\n", 80)
	var port string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.Split(r.Host, ":")[0]
		switch {
		case host == "a.example" && r.URL.Path == "/robots.txt":
			io.WriteString(w, "User-agent: *\nAllow: /\n")
		case host == "a.example" && r.URL.Path == "/.well-known/tdmrep.json":
			http.Redirect(w, r, "http://b.example:"+port+"/.well-known/tdmrep.json", http.StatusMovedPermanently)
		case host == "b.example" && r.URL.Path == "/robots.txt":
			http.Redirect(w, r, "/rules.txt", http.StatusMovedPermanently)
		case host == "b.example" && r.URL.Path == "/rules.txt":
			io.WriteString(w, rules)
		case host == "c.example" && r.URL.Path == "/robots.txt":
			io.WriteString(w, "User-agent: *\nAllow: /\n")
		case host == "c.example" && r.URL.Path == "/.well-known/tdmrep.json":
			http.Redirect(w, r, "/tdm/rep.json#v2", http.StatusFound)
		case host == "c.example" && r.URL.Path == "/tdm/rep.json":
			io.WriteString(w, file)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	port = strings.Split(srv.Listener.Addr().String(), ":")[1]
	mapHosts(t, ".example", srv.Listener.Addr().String())
	name := fmt.Sprintf("http://a.example:%s/.well-known/tdmrep.json", port)
	r := runCmd(t, "", "lint", "-json", name)
	var rep report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Diagnostics) != 1 || rep.Diagnostics[0].Code != codeTDMRep {
		t.Fatalf("exit %d, %v: %s %s; want one tdmrep-unreadable warning", r.code, err, r.stdout, r.stderr)
	}
	if rep.Bytes >= len(rules) {
		t.Errorf("lint -json %s: \"bytes\": %d, the size of b.example's /rules.txt (%d bytes), fetched for the hop's check; want the tdmrep.json's own (its 301's body, or 0)",
			name, rep.Bytes, len(rules))
	}
	// Where the file's own redirect led, it is counted.
	r = runCmd(t, "", "lint", "-json", fmt.Sprintf("http://c.example:%s/.well-known/tdmrep.json", port))
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != exitOK || rep.Bytes != len(file) {
		t.Errorf("a tdmrep.json redirected within its site: exit %d, %v, %+v; want the %d bytes of the file", r.code, err, rep, len(file))
	}
}

// TestLintTDMRepAsRobotsAllows: the tdmrep.json of a site whose robots.txt
// is unreachable is not linted, as lint of that robots.txt exits; one
// that robots.txt disallows is unread by crawlers, which the warning says.
func TestLintTDMRepAsRobotsAllows(t *testing.T) {
	const file = `[{"location": "/*", "tdm-reservation": 0}]`
	down := httptest.NewServer(signalSite{robots: "503", tdmrep: file})
	defer down.Close()
	if r := runCmd(t, "", "lint", down.URL+"/.well-known/tdmrep.json"); r.code != exitDeferred || !strings.Contains(r.stderr, "nothing to lint") {
		t.Errorf("robots.txt unreachable: exit %d, %q; want %d, nothing to lint", r.code, r.stderr, exitDeferred)
	}
	closed := httptest.NewServer(signalSite{robots: "User-agent: *\nDisallow: /.well-known/\n", tdmrep: file})
	defer closed.Close()
	r := runCmd(t, "", "lint", "-json", closed.URL+"/.well-known/tdmrep.json")
	var rep report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != exitOK || rep.Warnings != 1 ||
		!strings.Contains(rep.Diagnostics[0].Message, "robots.txt disallows") {
		t.Errorf("robots.txt disallows the file: exit %d, %v, %+v; want a warning saying robots.txt disallows it", r.code, err, rep)
	}
}

// TestLintTDMRepAsItsCrawler: whether a crawler may fetch a site's
// tdmrep.json turns on its own robots.txt group: lint reads the file as
// the crawler -agent names, and names it in its finding. Read as
// GPTBot, whose group alone disallows the file, it warns; read as
// GPTBot, whose group alone allows it, it does not, whatever the other
// crawlers' group says.
func TestLintTDMRepAsItsCrawler(t *testing.T) {
	const file = `[{"location": "/p", "tdm-reservation": 1}]`
	for _, tc := range []struct {
		robots, agent string
		unreadable    bool
	}{
		{"User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /.well-known/\n", "GPTBot", true},
		{"User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /.well-known/\n", "", false},
		{"User-agent: *\nDisallow: /.well-known/\n\nUser-agent: GPTBot\nAllow: /\n", "GPTBot/1.2", false},
		{"User-agent: *\nDisallow: /.well-known/\n\nUser-agent: GPTBot\nAllow: /\n", "", true},
	} {
		srv := httptest.NewServer(signalSite{robots: tc.robots, tdmrep: file})
		args := []string{"lint", "-json"}
		if tc.agent != "" {
			args = append(args, "-agent", tc.agent)
		}
		r := runCmd(t, "", append(args, srv.URL+"/.well-known/tdmrep.json")...)
		srv.Close()
		var rep report
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != exitOK {
			t.Fatalf("%q as %q: exit %d, %v: %s %s", tc.robots, tc.agent, r.code, err, r.stdout, r.stderr)
		}
		want := cmp.Or(strings.Split(tc.agent, "/")[0], defaultAgent) + ", reading TDMRep, cannot read it"
		if got := len(rep.Diagnostics) == 1 && strings.Contains(rep.Diagnostics[0].Message, want); got != tc.unreadable || len(rep.Diagnostics) > 1 {
			t.Errorf("%q as %q: %+v; want a finding saying %q: %v", tc.robots, tc.agent, rep.Diagnostics, want, tc.unreadable)
		}
	}
}

// TestLintTDMRepInItsMode: lint -rfc9309 of a site's tdmrep.json reads
// it as a crawler in that mode does: the site's robots.txt disallows
// /%2Ewell-known/, which RFC 9309 reads as /.well-known/, so such a
// crawler cannot read the file (tdmrep-unreadable), as check -tdmrep
// -rfc9309 and the Client say.
func TestLintTDMRepInItsMode(t *testing.T) {
	routedSite(t, map[string]struct {
		header map[string]string
		body   string
	}{
		"m.routed/robots.txt":              {body: "User-agent: *\nDisallow: /%2Ewell-known/\n"},
		"m.routed/.well-known/tdmrep.json": {header: map[string]string{"Content-Type": "application/json"}, body: `[{"location":"/*","tdm-reservation":0}]`},
		"m.routed/page":                    {header: map[string]string{"Content-Type": "text/html"}, body: "<html><head></head><body>x</body></html>"},
	})

	// The Client in RFC 9309 mode, as a crawler given WithTDMRep: the file
	// is unreadable.
	_, rt := libraryClient(t, robotstxt.WithMode(robotstxt.ModeRFC9309), robotstxt.WithTDMRep())
	unreadable := false
	for _, s := range receiptOf(t, rt, "http://m.routed/page").Signals {
		if s.Source == "tdmrep.json" && s.Where == "unreachable" {
			unreadable = true
		}
	}
	if !unreadable {
		t.Fatalf("setup: the RFC 9309 Client reads tdmrep.json; want it unreadable")
	}
	// check -tdmrep -rfc9309 agrees with the Client.
	if r := runCmd(t, "", "check", "-tdmrep", "-rfc9309", "http://m.routed/page"); !strings.Contains(r.stdout, "tdmrep.json train-ai=n") {
		t.Fatalf("setup: check -tdmrep -rfc9309:\n%s", r.stdout)
	}

	r := runCmd(t, "", "lint", "-json", "-rfc9309", "http://m.routed/.well-known/tdmrep.json")
	var rep struct {
		Diagnostics []struct {
			Code string `json:"code"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("lint -json: %v: %s", err, r.stdout)
	}
	found := false
	for _, d := range rep.Diagnostics {
		found = found || d.Code == "tdmrep-unreadable"
	}
	if !found {
		t.Errorf("lint -rfc9309 http://m.routed/.well-known/tdmrep.json: %s\nwant tdmrep-unreadable: a crawler reading RFC 9309 cannot read the file", r.stdout)
	}
}

// TestLintOneCrawlerOfTwoWords: "User-agent: Offline Explorer" names one
// crawler, whose own User-Agent (Offline Explorer/2.5) a Client cuts to
// the same token, so the group applies as its owner meant: lint passes
// it (such lines, from the common bad-bot lists, are in 190 of 3,224
// real files). Two crawlers on one line stay an error.
func TestLintOneCrawlerOfTwoWords(t *testing.T) {
	for _, c := range []struct{ line, ua string }{
		{"Offline Explorer", "Offline Explorer/2.5"},
		{"Download Ninja", "Download Ninja 7.0"},
		{"Website Quester", "Website Quester - www.asona.org"},
		{"Kenjin Spider", "Kenjin Spider"},
	} {
		body := "User-agent: " + c.line + "\nDisallow: /\n"
		// The library: a crawler sending this User-Agent obeys the group.
		d := &document{name: "t"}
		if err := d.decode([]byte(body), nil); err != nil {
			t.Fatal(err)
		}
		cl := robotstxt.NewClient(robotstxt.WithUserAgent(c.ua),
			robotstxt.WithHTTPClient(&http.Client{Transport: served{d, "/robots.txt"}}))
		dec, err := cl.Check(context.Background(), "http://robots.invalid/x")
		cl.Close()
		if err != nil || dec.Allowed || dec.Rule.Line != 2 {
			t.Fatalf("setup: a Client with User-Agent %q: allowed=%v line %d err %v; want disallowed by line 2", c.ua, dec.Allowed, dec.Rule.Line, err)
		}
		// lint.
		file := filepath.Join(t.TempDir(), "robots.txt")
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		r := runCmd(t, "", "lint", file)
		if r.code != exitOK || strings.Contains(r.stdout, "[two-agents]") {
			t.Errorf("lint of %q: exit %d, want 0: a crawler sending %q obeys this group, as written:\n%s", body, r.code, c.ua, r.stdout)
		}
	}
	// Control: two crawlers on one line stay an error.
	if fs := lintText(t, "User-agent: GPTBot CCBot\nDisallow: /\n"); len(fs) == 0 || fs[0].Code != codeTwoAgents {
		t.Errorf("GPTBot CCBot: %+v, want two-agents", fs)
	}
}

// TestLintTDMRepFileTooLargeNamesTheFile checks that lint of a local
// tdmrep.json over the 256 KiB crawlers read says so of the file, not of
// http://robots.invalid/.well-known/tdmrep.json, a URL the command makes
// up to serve the file, "unreachable (status 200)".
func TestLintTDMRepFileTooLargeNamesTheFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "tdmrep.json")
	body := `[{"location": "/", "tdm-reservation": 1}` + strings.Repeat(" ", 300<<10) + "]"
	if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCmd(t, "", "lint", name)
	if !strings.Contains(r.stdout, "tdmrep-unreadable") {
		t.Fatalf("lint of a %d-byte tdmrep.json: exit %d, stdout %q; want a tdmrep-unreadable warning", len(body), r.code, r.stdout)
	}
	if out := r.stdout + r.stderr; strings.Contains(out, "robots.invalid") || strings.Contains(out, "status 200") {
		t.Errorf("lint of the local file %s says:\n%s\nwant no made-up URL, nor a status no server sent", name, out)
	}
}

// TestLintJSONTextAsDocumented: lint's -json text is a line as its help
// says: as written, white space trimmed, cut to 160 bytes ending in …
// when longer.
func TestLintJSONTextAsDocumented(t *testing.T) {
	line := "Disallow: private/" + strings.Repeat("a", 300)
	r := runCmd(t, "User-agent: *\n"+line+"\n", "lint", "-json", "-")
	var rep report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v: %q", err, r.stdout)
	}
	if len(rep.Diagnostics) == 0 {
		t.Fatalf("no finding for line 2: %q", r.stdout)
	}
	want := line[:160] + "…"
	for _, d := range rep.Diagnostics {
		if d.Line == 2 && (d.Text != want || !strings.Contains(lintJSONHelp, "cut to 160 bytes, ending in …")) {
			t.Errorf("line 2's text is %d bytes ending in %q, want the line's first 160 bytes and …, as the help says", len(d.Text), d.Text[len(d.Text)-6:])
		}
	}
}

// TestLintJSONBadURLWithholdsUserinfo: lint -json of a robots.txt URL
// the Client refuses (a port mistyped, a scheme it does not fetch) names
// the file without the URL's password, as its error and the text output
// do.
func TestLintJSONBadURLWithholdsUserinfo(t *testing.T) {
	const secret = "s3cret"
	for _, arg := range []string{
		"http://alice:" + secret + "@h.test:99999/robots.txt",
		"ftp://alice:" + secret + "@h.test/robots.txt",
		"http://alice:" + secret + "@h.test/%zz/robots.txt",
	} {
		r := runCmd(t, "", "lint", "-json", arg)
		if r.code != exitUsage || strings.Contains(r.stdout+r.stderr, secret) {
			t.Errorf("lint -json %s: exit %d; want %d and no password:\n%s%s", arg, r.code, exitUsage, r.stdout, r.stderr)
		}
	}
}

// TestLintCharsetSaysWhichURLsMatch checks that the charset note says
// which spellings of a URL a rule in another charset matches: crawlers
// read a URL's escapes in UTF-8 and Windows-1252, not in Windows-1251
// (nor in ISO-8859-2 where it spells a letter otherwise: review162).
func TestLintCharsetSaysWhichURLsMatch(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=windows-1251")
		w.Write([]byte("User-agent: *\nDisallow: /\xea\xed\xe8\xe3\xe8/\n"))
	}))
	defer srv.Close()
	r := runCmd(t, "", "lint", "-json", srv.URL+"/robots.txt")
	var rep report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v: %q (stderr %q)", err, r.stdout, r.stderr)
	}
	if rep.Charset != "windows-1251" || len(rep.Diagnostics) != 1 ||
		!strings.Contains(rep.Diagnostics[0].Message, "in UTF-8 or, escaped, in windows-1252, not in windows-1251 where it spells them otherwise") {
		t.Errorf("report %+v", rep)
	}
}

// TestLintWideCharsetWarns checks that a robots.txt in UTF-32, which
// Google reads as no rule as it does one in UTF-16, is warned of as that
// is, and named for what it is (review164).
func TestLintWideCharsetWarns(t *testing.T) {
	text := "User-agent: *\nDisallow: /private/\n"
	wide := func(bom string, width int, big bool) string {
		var b strings.Builder
		b.WriteString(bom)
		for _, c := range []byte(text) {
			pad := strings.Repeat("\x00", width-1)
			if big {
				b.WriteString(pad + string(c))
			} else {
				b.WriteString(string(c) + pad)
			}
		}
		return b.String()
	}
	for name, c := range map[string]struct{ body, charset string }{
		"utf-16le": {wide("\xff\xfe", 2, false), "UTF-16LE"},
		"utf-16be": {wide("\xfe\xff", 2, true), "UTF-16BE"},
		"utf-32le": {wide("\xff\xfe\x00\x00", 4, false), "UTF-32LE"},
		"utf-32be": {wide("\x00\x00\xfe\xff", 4, true), "UTF-32BE"},
	} {
		r := runCmd(t, c.body, "lint", "-json", "-")
		var rep report
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("%s: %v: %q (stderr %q)", name, err, r.stdout, r.stderr)
		}
		if r.code != exitOK || rep.Charset != name || rep.Warnings != 1 || len(rep.Diagnostics) != 1 || rep.Diagnostics[0].Code != codeUTF16 ||
			!strings.HasPrefix(rep.Diagnostics[0].Message, "the file is "+c.charset+":") || !strings.Contains(rep.Diagnostics[0].Message, "cannot read "+c.charset[:6]+";") {
			t.Errorf("%s: exit %d, report %+v; want one utf-16 warning naming %s", name, r.code, rep, c.charset)
		}
	}
}
