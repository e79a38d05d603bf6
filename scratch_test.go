package robotstxt

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestScratchStages(t *testing.T) {
	dir := "../shared/corpus/files"
	ents, _ := os.ReadDir(dir)
	var bodies [][]byte
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		bodies = append(bodies, b[:min(len(b), 500<<10)])
	}
	h := http.Header{"Content-Type": {"text/plain"}}
	stage := func(name string, f func(b []byte)) {
		best := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			for _, b := range bodies {
				f(b)
			}
			best = min(best, time.Since(start))
		}
		t.Logf("%-28s %6.2f µs/file", name, float64(best.Nanoseconds())/float64(len(bodies))/1e3)
	}
	stage("Parse+Allowed", func(b []byte) { Parse(b).Allowed("ExampleBot", "/some/page.html") })
	stage("Parse", func(b []byte) { Parse(b) })
	stage("Parse+Crawler", func(b []byte) { Parse(b).Crawler("ExampleBot") })
	stage("Parse+Crawler+check", func(b []byte) { Parse(b).Crawler("ExampleBot").Allowed("/some/page.html") })
	stage("ReadBody", func(b []byte) { ReadBody(bytes.NewReader(b), h, 500<<10) })
	stage("compress", func(b []byte) { compress(b) })
	stage("ReadAll", func(b []byte) { var buf bytes.Buffer; buf.ReadFrom(bytes.NewReader(b)) })
}
