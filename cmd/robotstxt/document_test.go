package main

import (
	"bytes"
	"compress/flate"
	"io"
	"net/http"
	"strings"
	"testing"
)

// zeros is an endless reader of zero bytes, like /dev/zero.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestDocumentBounded(t *testing.T) {
	var out, errOut strings.Builder
	code := runIO([]string{"lint", "-"}, io.LimitReader(zeros{}, maxInput+10), &out, &errOut)
	if code != exitUsage || !strings.Contains(errOut.String(), "<stdin> is over 16 MiB") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
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

// TestDocumentPipeline checks that files are read as the Client reads
// bodies: UTF-16 with a byte-order mark, Windows-1252 when not UTF-8.
func TestDocumentPipeline(t *testing.T) {
	utf16 := "\xff\xfeU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00D\x00i\x00s\x00a\x00l\x00l\x00o\x00w\x00:\x00 \x00/\x00x\x00\n\x00"
	r := runCmd(t, utf16, "test", "-file", "-", "/x")
	if r.code != exitDisallowed || !strings.Contains(r.stdout, "(line 2: Disallow: /x)") {
		t.Errorf("UTF-16: exit %d, stdout %q", r.code, r.stdout)
	}
	r = runCmd(t, "User-agent: *\nDisallow: /caf\xe9\n", "test", "-file", "-", "/café", "/caf%E9")
	want := []string{
		"DISALLOW  /café    (line 2: Disallow: /café)",
		"ALLOW     /caf%E9  (no rule matched)",
	}
	if got := outputLines(r.stdout); r.code != exitDisallowed || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Windows-1252: exit %d, stdout:\n%s\nwant:\n%s", r.code, r.stdout, strings.Join(want, "\n"))
	}
}
