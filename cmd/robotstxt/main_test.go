package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt"
	"go.uber.org/goleak"
)

// update rewrites the golden files: go test ./cmd/robotstxt -run Golden -update
var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

func TestMain(m *testing.M) {
	// No name reaches the system resolver: a host that is not an IP
	// address is not found, as names under .invalid never are.
	dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if host, _, err := net.SplitHostPort(addr); err == nil && net.ParseIP(host) == nil {
			return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}}
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	goleak.VerifyTestMain(m)
}

// longTest skips a test that takes seconds unless ROBOTSTXT_LONG_TESTS is
// 1, as the repository's long tests do (see CONTRIBUTING.md).
func longTest(tb testing.TB) {
	tb.Helper()
	if os.Getenv("ROBOTSTXT_LONG_TESTS") != "1" {
		tb.Skip("a long test: ROBOTSTXT_LONG_TESTS=1 runs it")
	}
}

// result is what one in-process run of the command produced.
type result struct {
	code           int
	stdout, stderr string
}

// runCmd runs the command in-process with args and the given standard
// input.
func runCmd(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := runIO(args, strings.NewReader(stdin), &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

// outputLines splits output into its lines.
func outputLines(s string) []string {
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// corpusDir holds the sample of the real-world robots.txt corpus that
// the repository carries; the whole corpus is in the directory
// ROBOTSTXT_CORPUS names, when it names one. Both are read only through
// corpusFiles.
const corpusDir = "../../testdata/corpus/files"

// corpusFiles returns the corpus files whose names match pattern
// ("0153.txt", "*.txt"): those of the sample, and when the full corpus is
// at hand, its files that the sample does not hold. The test fails when
// the sample has none: every file a test names is in the sample.
func corpusFiles(t testing.TB, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(corpusDir, pattern))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no corpus file %s in %s", pattern, corpusDir)
	}
	held := make(map[string]bool, len(files))
	for _, f := range files {
		held[filepath.Base(f)] = true
	}
	var extra []string
	if full := os.Getenv("ROBOTSTXT_CORPUS"); full != "" {
		if _, err := os.Stat(filepath.Join(full, "files")); err != nil {
			t.Fatalf("ROBOTSTXT_CORPUS: %v", err) // not the sample alone, unseen
		}
		if extra, err = filepath.Glob(filepath.Join(full, "files", pattern)); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range extra {
		if !held[filepath.Base(f)] {
			files = append(files, f)
		}
	}
	return files
}

// golden compares got with testdata/golden/name, or rewrites the file
// with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update to accept):\n--- got\n%s\n--- want\n%s", p, got, want)
	}
}

// TestDocUsageMatchesCommands checks the Usage block of the package
// comment against the table: one line per command, in its order, as the
// command's synopsis.
func TestDocUsageMatchesCommands(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatal("main.go has no package comment")
	}
	_, block, ok := strings.Cut(f.Doc.Text(), "\nUsage:\n\n")
	if !ok {
		t.Fatalf("the package comment has no Usage block:\n%s", f.Doc.Text())
	}
	block, _, _ = strings.Cut(block, "\n\n")
	var got, want []string
	for line := range strings.SplitSeq(block, "\n") {
		got = append(got, strings.TrimPrefix(line, "\t"))
	}
	for _, c := range commands {
		want = append(want, c.synopsis())
	}
	if !slices.Equal(got, want) {
		t.Errorf("the package comment's Usage block is\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"test", "-nosuchflag"},
		{"lint", "-timeout"},
		{"lint", "-level", "loud", "testdata/lint/clean.txt"},
		{"check"},
		{"explain"},
		{"test", "-file", "testdata/robots.txt", "-expect", "maybe", "/"},
	} {
		r := runCmd(t, "", args...)
		if r.code != exitUsage {
			t.Errorf("%q: exit %d, want %d (stderr %q)", args, r.code, exitUsage, r.stderr)
		}
		if r.stderr == "" {
			t.Errorf("%q: nothing on stderr", args)
		}
	}
}

// TestErrorsSaidOnce checks that no error repeats the "robotstxt: "
// prefix that the library's errors carry.
func TestErrorsSaidOnce(t *testing.T) {
	for _, args := range [][]string{
		{"check", "ftp://example.com/x"},
		{"test", "-file", "testdata/robots.txt", "not a url"},
		{"explain", "http://exa mple.com/"},
		{"lint", "testdata/missing.txt"},
	} {
		r := runCmd(t, "", args...)
		if r.code != exitUsage || strings.Count(r.stderr, "robotstxt:") != 1 || !strings.HasPrefix(r.stderr, "robotstxt: ") {
			t.Errorf("%q: exit %d, stderr %q; want %d and one prefixed line", args, r.code, r.stderr, exitUsage)
		}
	}
}

// TestRunWithoutStdin checks that run, which has no standard input, reads
// "-" as an empty file rather than blocking.
func TestRunWithoutStdin(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"lint", "-"}, &out, &errOut); code != exitOK {
		t.Errorf("lint - with no stdin: exit %d, want 0; stderr %q", code, errOut.String())
	}
}

// TestExitCodesWrittenOnce checks the package comment's Exit codes block
// and the top-level help against exitCodes, the one table of the exit
// codes: one line per code, in order.
func TestExitCodesWrittenOnce(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	_, block, _ := strings.Cut(f.Doc.Text(), "\nExit codes:\n\n")
	block, _, _ = strings.Cut(block, "\n\n")
	help := runCmd(t, "", "help").stdout
	_, codes, _ := strings.Cut(help, "\nExit codes:\n")
	var want []string
	for c, about := range exitCodes {
		want = append(want, fmt.Sprintf("\t%d  %s", c, about))
		if !strings.Contains(codes, wrap(about, fmt.Sprintf("  %d  ", c), "     ", 78)+"\n") {
			t.Errorf("the help does not list exit code %d as %q:\n%s", c, about, codes)
		}
	}
	if got := strings.Split(block, "\n"); !slices.Equal(got, want) {
		t.Errorf("the package comment's Exit codes block is\n%s\nwant\n%s", block, strings.Join(want, "\n"))
	}
}

// routedSite serves, for each "host/path" key, a body with headers, on a
// loopback listener that every name ending in .routed reaches through the
// package's dial hook; anything else answers 404.
func routedSite(t *testing.T, routes map[string]struct {
	header map[string]string
	body   string
}) {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		rr, ok := routes[host+r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		for k, v := range rr.header {
			w.Header().Set(k, v)
		}
		io.WriteString(w, rr.body)
	}))
	t.Cleanup(s.Close)
	mapHosts(t, ".routed", s.Listener.Addr().String())
}

// libraryClient returns a Client and Transport with opts that dial as the
// command's do.
func libraryClient(t *testing.T, opts ...robotstxt.Option) (*robotstxt.Client, *robotstxt.Transport) {
	t.Helper()
	c, rt := robotstxt.NewClientTransport(newTransport(), opts)
	t.Cleanup(func() { c.Close() })
	return c, rt
}

// receiptOf fetches url through rt, as a crawler fetches a page, and
// returns the page's receipt.
func receiptOf(t *testing.T, rt *robotstxt.Transport, url string) robotstxt.Receipt {
	t.Helper()
	resp, err := (&http.Client{Transport: rt}).Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return rt.Receipt(resp, body)
}
