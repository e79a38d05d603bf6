package main

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

// lintText lints body as read from a file and returns the findings.
func lintText(t testing.TB, body string) []finding {
	t.Helper()
	d := &document{name: "t"}
	if err := d.decode([]byte(body), nil); err != nil {
		t.Fatal(err)
	}
	return lintDocument(d, robotstxt.ModeGoogle)
}

// codesAt returns the findings with the given codes, as "line:code".
func codesAt(fs []finding, codes ...code) []string {
	var out []string
	for _, f := range fs {
		if slices.Contains(codes, f.Code) {
			out = append(out, fmt.Sprintf("%d:%s", f.Line, f.Code))
		}
	}
	return out
}

// FuzzLint lints and explains arbitrary bodies: nothing may panic, and
// every finding must be on a line of the body.
func FuzzLint(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /x\nAllow: /x*\n"))
	f.Add([]byte("\xff\xfeU\x00s\x00e\x00r\x00"))
	f.Add([]byte("<html><body>"))
	f.Add([]byte("User-agent: MJ12bot\nUser-agent: *\nDisallow: /d/index.html\nAllow: /d/index.html\n"))
	f.Add([]byte("User-agent: a\nContent-Usage: /a/ train-ai=y\nContent-Usage: /a/ train-ai=n, ai\nUser-agent: b\nContent-Signal: ai-train=no\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		d := &document{name: "fuzz"}
		if err := d.decode(body, nil); err != nil {
			t.Skip()
		}
		lines := newListing(d.whole.Text).len()
		for _, x := range lintDocument(d, robotstxt.ModeGoogle) {
			if x.Line < 0 || x.Line > lines {
				t.Fatalf("finding on line %d of %d: %+v", x.Line, lines, x)
			}
		}
		p := parser.Parse(d.body.Text)
		if n := newListing(d.body.Text).len(); n != p.Lines {
			t.Fatalf("listing has %d lines, the parser %d", n, p.Lines)
		}
		x := newExplainer(d, "FooBot", robotstxt.ModeGoogle, false, env{stdout: discard{}, stderr: discard{}})
		defer x.close()
		x.explain(target{shown: "/a/b?c", url: pathSite + "/a/b?c"})
	})
}

// discard is an io.Writer that keeps nothing.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// corpusDocuments reads every corpus file as lint reads it, each named
// by its path.
func corpusDocuments(tb testing.TB) []*document {
	var docs []*document
	for _, f := range corpusFiles(tb, "*.txt") {
		raw, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		d := &document{name: f}
		if err := d.decode(raw, nil); err != nil {
			tb.Fatal(err)
		}
		docs = append(docs, d)
	}
	return docs
}

// BenchmarkParseCorpus is the baseline of BenchmarkLintCorpus: parsing
// every corpus file, which lint does once too.
func BenchmarkParseCorpus(b *testing.B) {
	docs := corpusDocuments(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			parser.Parse(d.body.Text)
		}
	}
}

// BenchmarkLintCorpus lints every corpus file.
func BenchmarkLintCorpus(b *testing.B) {
	docs := corpusDocuments(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			lintDocument(d, robotstxt.ModeGoogle)
		}
	}
}
