package main

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// zeros is an endless reader of zero bytes, like /dev/zero.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestDocumentBounded: a file or standard input over maxInput is read as
// a response over it is, up to maxInput (a mistaken /dev/zero is
// linted as what it is), and answers as crawlers read it, where it was
// refused as "not a robots.txt" (exit 2) and the same bytes fetched
// from a URL were answered.
func TestDocumentBounded(t *testing.T) {
	var out, errOut strings.Builder
	code := runIO([]string{"lint", "-"}, io.LimitReader(zeros{}, maxInput+10), &out, &errOut)
	if code != exitDisallowed || !strings.Contains(out.String(), "[not-robots-txt]") {
		t.Errorf("lint of zeros: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	huge := "User-agent: *\nDisallow: /private/\n" + strings.Repeat("# padding\n", maxInput/10+1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, huge)
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(path, []byte(huge), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := runCmd(t, "", "lint", path); !strings.Contains(r.stdout, "no rule or other record is past it in the first 16 MiB") {
		t.Errorf("lint %s: exit %d, stdout %q", path, r.code, r.stdout)
	}
	for _, src := range []string{srv.URL + "/robots.txt", path, "-"} {
		r := runCmd(t, huge, "test", "-file", src, "/private/x", "/public")
		if r.code != exitDisallowed || !strings.Contains(r.stdout, "DISALLOW  /private/x") || !strings.Contains(r.stdout, "ALLOW     /public") ||
			!strings.Contains(r.stderr, "is over 16 MiB; like crawlers, only the first 500 KiB is read (-full reads the first 16 MiB)") {
			t.Errorf("test -file %s: exit %d, stdout %q, stderr %q", src, r.code, r.stdout, r.stderr)
		}
	}
}

// TestDocumentDecodeBounded: a small response whose content coding
// decodes past maxInput (deflate twice, which net/http leaves to the
// command) is read whole only up to maxInput.
func TestDocumentDecodeBounded(t *testing.T) {
	var raw bytes.Buffer
	outer, _ := flate.NewWriter(&raw, flate.BestCompression)
	inner, _ := flate.NewWriter(outer, flate.BestSpeed)
	line := bytes.Repeat([]byte("#\n"), 1<<19)
	for range (maxInput + 4<<20) / len(line) {
		_, _ = inner.Write(line)
	}
	_ = inner.Close()
	_ = outer.Close()
	d := &document{name: "r"}
	if err := d.decode(raw.Bytes(), http.Header{"Content-Encoding": {"deflate, deflate"}}); err != nil {
		t.Fatal(err)
	}
	if n := len(d.whole.Text); n > maxInput || !d.whole.Truncated {
		t.Errorf("%d bytes of the response decoded: %d (truncated %v), want maxInput at most, cut", raw.Len(), n, d.whole.Truncated)
	}
	var errOut strings.Builder
	d.noteLimit(true, env{stderr: &errOut})
	if !strings.Contains(errOut.String(), "is over 16 MiB") || strings.Contains(errOut.String(), "reads it all") {
		t.Errorf("-full on a file over maxInput: %q", errOut.String())
	}
}

// TestDocumentCutStream: a capture cut in a compressed stream decodes
// only as far as crawlers read; it is not told as over maxInput.
func TestDocumentCutStream(t *testing.T) {
	var raw bytes.Buffer
	zw := gzip.NewWriter(&raw)
	for i := range 100000 {
		fmt.Fprintf(zw, "Disallow: /%d\n", i)
	}
	_ = zw.Close()
	d := &document{name: "r"}
	if err := d.decode(raw.Bytes()[:raw.Len()*3/4], http.Header{"Content-Encoding": {"gzip"}}); err != nil {
		t.Fatal(err)
	}
	var errOut strings.Builder
	d.noteLimit(false, env{stderr: &errOut})
	if !d.body.Truncated || d.over || strings.Contains(d.size(), "MiB") || strings.Contains(errOut.String(), "16 MiB") {
		t.Errorf("truncated %v, over %v, size %q, note %q", d.body.Truncated, d.over, d.size(), errOut.String())
	}
}

// TestDocumentPipeline checks that files are read as the Client reads
// bodies: UTF-16 with a byte-order mark, Windows-1252 when not UTF-8, a
// path spelled in Windows-1252 read so too (as Google's parser, reading
// the bytes, matches it).
func TestDocumentPipeline(t *testing.T) {
	utf16 := "\xff\xfeU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00D\x00i\x00s\x00a\x00l\x00l\x00o\x00w\x00:\x00 \x00/\x00x\x00\n\x00"
	r := runCmd(t, utf16, "test", "-file", "-", "/x")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "(line 2: Disallow: /x)") {
		t.Errorf("UTF-16: exit %d, stdout %q", r.code, r.stdout)
	}
	r = runCmd(t, "User-agent: *\nDisallow: /caf\xe9\n", "test", "-file", "-", "/café", "/caf%E9")
	want := []string{
		"DISALLOW  /café    (line 2: Disallow: /café)",
		"DISALLOW  /caf%E9  (served as /caf%C3%A9; line 2: Disallow: /café)",
	}
	if got := outputLines(r.stdout); r.code != exitDisallowed || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Windows-1252: exit %d, stdout:\n%s\nwant:\n%s", r.code, r.stdout, strings.Join(want, "\n"))
	}
}

// TestUnreadableFileIsUsageError: a local robots.txt the Client's body
// pipeline refuses (gzip bytes with no Content-Encoding to name them) is
// unreadable input, exit 2, for test and explain as for lint: they
// answered DEFER, exit 3, "retry after …" for a file on disk.
func TestUnreadableFileIsUsageError(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("User-agent: *\nDisallow: /p\n"))
	zw.Close()
	name := filepath.Join(t.TempDir(), "robots.txt.gz")
	if err := os.WriteFile(name, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	lint := runCmd(t, "", "lint", name)
	if lint.code != exitUsage || !strings.Contains(lint.stderr, "compressed bytes under no Content-Encoding") {
		t.Fatalf("lint: exit %d, stderr %q", lint.code, lint.stderr)
	}
	for _, args := range [][]string{
		{"test", "-file", name, "/p"},
		{"test", "-json", "-file", name, "/p"},
		{"test", "-file", "-", "/p"},
		{"explain", "-file", name, "/p"},
		{"explain", "-json", "-file", name, "/p"},
	} {
		stdin := ""
		if args[len(args)-2] == "-" {
			stdin = gz.String()
		}
		r := runCmd(t, stdin, args...)
		out := r.stdout + r.stderr
		if r.code != exitUsage || !strings.Contains(r.stderr, "compressed bytes under no Content-Encoding") ||
			strings.Contains(out, "retry after") || strings.Contains(out, "deferred") || strings.Contains(out, "DISALLOW") {
			t.Errorf("%q: exit %d, want %d (unreadable input) as lint gives\nstdout:\n%sstderr: %s", args, r.code, exitUsage, r.stdout, r.stderr)
		}
	}
}

// gzipRobots serves, as /robots.txt, the gzip coding of about 900 KiB
// of text whose first rule is "Disallow: /private", sent to three
// quarters: past what the 500 KiB crawlers read needs, the rest of the
// stream never comes. With stall, the server then stalls, and the
// command's read is cut by its timeout; else the response ends there,
// whole as far as HTTP is concerned (its Content-Length), its gzip
// stream broken off.
func gzipRobots(t *testing.T, stall bool) *httptest.Server {
	t.Helper()
	var text strings.Builder
	text.WriteString("User-agent: *\nDisallow: /private\n")
	r := rand.New(rand.NewSource(1))
	for text.Len() < 900<<10 {
		fmt.Fprintf(&text, "Disallow: /%016x%016x\n", r.Uint64(), r.Uint64())
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, _ = zw.Write([]byte(text.String()))
	_ = zw.Close()
	raw := z.Bytes()
	sent := raw[:len(raw)*3/4]
	if !stall {
		raw = sent
	}
	stop := make(chan struct{})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path != "/robots.txt" {
			fmt.Fprint(w, "page")
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", fmt.Sprint(len(raw)))
		_, _ = w.Write(sent)
		if stall {
			w.(http.Flusher).Flush()
			<-stop
		}
	}))
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(stop) }) // runs before s.Close
	return s
}

// TestFullReadsWhatDecodes: test and explain read a robots.txt whose gzip
// stream breaks off, or stalls, past the 500 KiB crawlers read, as
// crawlers do, with -full too, and say so: given the whole capture, the
// Client read it as unreachable (DEFER, exit 3), and explain printed
// "DISALLOW: no rule matches" under the rule that matched.
func TestFullReadsWhatDecodes(t *testing.T) {
	const note = "is over 500 KiB, and the rest does not decode: like crawlers, only the first 500 KiB is read, with -full too"
	for _, stall := range []bool{false, true} {
		s := gzipRobots(t, stall)
		robots := s.URL + "/robots.txt"
		for _, full := range []bool{false, true} {
			args := []string{"test", "-timeout", "1s", "-file", robots, "/private"}
			if full {
				args = []string{"test", "-full", "-timeout", "1s", "-file", robots, "/private"}
			}
			r := runCmd(t, "", args...)
			if r.code != exitDisallowed || !strings.HasPrefix(r.stdout, "DISALLOW  /private  (line 2: Disallow: /private)") {
				t.Errorf("stall %v, %q: exit %d, stdout %q; want DISALLOW by line 2, exit 1 (the Client's answer)\nstderr %q",
					stall, args, r.code, r.stdout, r.stderr)
			}
			if !stall && (!strings.Contains(r.stderr, note) || strings.Contains(r.stderr, "-full reads it all")) {
				t.Errorf("%q: stderr %q, want the note that the rest does not decode", args, r.stderr)
			}
		}
		ex := runCmd(t, "", "explain", "-full", "-timeout", "1s", s.URL+"/private")
		if ex.code != exitDisallowed || !strings.Contains(ex.stdout, "decision  DISALLOW by line 2") || strings.Contains(ex.stdout, "read whole") {
			t.Errorf("stall %v, explain -full: exit %d, stdout:\n%s\nwant decision DISALLOW by line 2, exit 1, the file not read whole", stall, ex.code, ex.stdout)
		}
	}
}
