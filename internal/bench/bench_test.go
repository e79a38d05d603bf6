// Package bench compares github.com/robotsgate/robotstxt with
// github.com/temoto/robotstxt v1.1.2, side by side in one run. It is a
// nested module so that the library itself does not depend on temoto.
//
//	go test -run='^$' -bench . -benchmem
//
// See README.md.
package bench

import (
	"runtime"
	"slices"
	"testing"
	"time"

	robotsgate "github.com/robotsgate/robotstxt"
	temoto "github.com/temoto/robotstxt"
)

// Sinks keep the compiler from discarding the work being measured.
var (
	sinkBool   bool
	sinkRG     *robotsgate.Robots
	sinkTemoto *temoto.RobotsData
)

// TestAgree checks that both libraries reach the same decisions on the
// inputs the benchmarks use, so that they are measured doing the same work.
func TestAgree(t *testing.T) {
	rg := robotsgate.Parse([]byte(realistic))
	tm, err := temoto.FromString(realistic)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		agent, path string
		want        bool
	}{
		{checkAgent, checkPath, false},
		{checkAgent, "/shop/garden/tools/spade-1234.html?color=green", true},
		{checkAgent, "/docs/manual.pdf", true},
		{checkAgent, "/files/manual.pdf", false},
		{checkAgent, "/search?q=robots", true},
		{checkAgent, "/search?q=cats", false},
		{"Googlebot-Image", "/images/private/x.png", false},
		{"OtherBot", "/admin/public/x", true},
		{"OtherBot", "/admin/x", false},
	} {
		got := rg.Allowed(c.agent, c.path)
		gotT := tm.FindGroup(c.agent).Test(c.path)
		if got != c.want || gotT != c.want {
			t.Errorf("%s %s: robotsgate %v, temoto %v, want %v", c.agent, c.path, got, gotT, c.want)
		}
	}
	if got := rg.Allowed(checkAgent, checkURL); got {
		t.Errorf("robotsgate: absolute URL %s allowed", checkURL)
	}

	for _, in := range hostileInputs {
		body, path := in.gen()
		if len(path) != in.pathLen {
			t.Fatalf("hostile %s: path is %d bytes", in.name, len(path))
		}
		r := robotsgate.Parse(body)
		if v := r.Check("AnyBot", path); !v.Allowed || v.Rule.Line != 0 {
			t.Errorf("hostile %s: robotsgate %+v, want allowed by no rule", in.name, v)
		}
		t.Logf("hostile %s: %d bytes, %d rules", in.name, len(body), len(r.Rules("AnyBot")))
	}
}

// BenchmarkParse parses the realistic ~40-line file.
func BenchmarkParse(b *testing.B) {
	body := []byte(realistic)
	b.Run("robotsgate", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			sinkRG = robotsgate.Parse(body)
		}
	})
	b.Run("temoto", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			r, err := temoto.FromBytes(body)
			if err != nil {
				b.Fatal(err)
			}
			sinkTemoto = r
		}
	})
}

// BenchmarkCheck checks one URL against the realistic file.
//
//   - robotsgate: Robots.Allowed(agent, path), everything included (group
//     lookup by agent, path extraction, matching).
//   - robotsgate-absURL: the same with an absolute URL, which Allowed
//     reduces to its path itself.
//   - temoto-FindGroup+Test: data.FindGroup(agent).Test(path), the
//     equivalent of robotsgate's call (temoto's TestAgent does the same).
//   - temoto-Test-only: group.Test(path) with the group found beforehand,
//     outside the timed loop; it does less work than robotsgate's call.
func BenchmarkCheck(b *testing.B) {
	rg := robotsgate.Parse([]byte(realistic))
	tm, err := temoto.FromString(realistic)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("robotsgate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkBool = rg.Allowed(checkAgent, checkPath)
		}
	})
	b.Run("robotsgate-absURL", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkBool = rg.Allowed(checkAgent, checkURL)
		}
	})
	b.Run("temoto-FindGroup+Test", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkBool = tm.FindGroup(checkAgent).Test(checkPath)
		}
	})
	b.Run("temoto-Test-only", func(b *testing.B) {
		g := tm.FindGroup(checkAgent)
		b.ReportAllocs()
		for b.Loop() {
			sinkBool = g.Test(checkPath)
		}
	})
}

// allocRatio reports the bytes allocated per input byte since before.
func allocRatio(b *testing.B, before *runtime.MemStats, input int64) {
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if n := int64(b.N) * input; n > 0 {
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n), "allocB/inB")
	}
}

// BenchmarkCorpusParse parses every file of the corpus (all kinds,
// junk included, each file whole: Parse has no size limit). One op is one
// pass over the whole corpus.
func BenchmarkCorpusParse(b *testing.B) {
	files, total := loadCorpus(b)
	b.Run("robotsgate", func(b *testing.B) {
		b.SetBytes(total)
		b.ReportAllocs()
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for b.Loop() {
			for _, f := range files {
				sinkRG = robotsgate.Parse(f.body)
			}
		}
		allocRatio(b, &before, total)
	})
	b.Run("temoto", func(b *testing.B) {
		b.SetBytes(total)
		b.ReportAllocs()
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		failed := 0
		for b.Loop() {
			failed = 0
			for _, f := range files {
				r, err := temoto.FromBytes(f.body)
				if err != nil {
					failed++ // temoto rejects the whole file (e.g. a bad crawl-delay)
				}
				sinkTemoto = r
			}
		}
		allocRatio(b, &before, total)
		b.ReportMetric(float64(failed), "rejected-files")
	})
}

// BenchmarkCorpusLatency parses each corpus file on its own and reports
// the p50, p99 and maximum parse time of one file. One op is one pass over
// the corpus; the percentiles are over all files of all passes.
func BenchmarkCorpusLatency(b *testing.B) {
	files, _ := loadCorpus(b)
	run := func(b *testing.B, parse func([]byte)) {
		samples := make([]int64, 0, len(files)*16)
		for b.Loop() {
			for _, f := range files {
				t0 := time.Now()
				parse(f.body)
				samples = append(samples, int64(time.Since(t0)))
			}
		}
		b.StopTimer()
		slices.Sort(samples)
		b.ReportMetric(float64(percentile(samples, 0.50)), "p50-ns/file")
		b.ReportMetric(float64(percentile(samples, 0.99)), "p99-ns/file")
		b.ReportMetric(float64(samples[len(samples)-1]), "max-ns/file")
	}
	b.Run("robotsgate", func(b *testing.B) {
		run(b, func(body []byte) { sinkRG = robotsgate.Parse(body) })
	})
	b.Run("temoto", func(b *testing.B) {
		run(b, func(body []byte) { sinkTemoto, _ = temoto.FromBytes(body) })
	})
}

// BenchmarkHostile checks a 2 KB path against a ~300 KiB file of
// '*'-heavy rules, for two generated files, and an 8 KiB path against a
// third:
//
//   - mixed: rules of six '*'-heavy shapes (many single-byte segments,
//     multi-byte segments, '$' endings) that the path nearly matches
//     (see hostile).
//   - scan: short rules built so that a substring search for their first
//     segment scans the whole path and fails (see hostileScan): the worst
//     case found for robotsgate's matcher.
//   - limits: the worst file found for an 8 KiB path, 500 KiB of rules
//     that all fail at their '$' (see hostileLimits): SECURITY.md's "a
//     fraction of a second at worst".
//
// No rule matches in any, so every rule is tried. temoto compiles each
// wildcard rule to a regexp; Go's regexp engine is linear-time too, but
// with a large constant: one temoto check takes seconds, so it runs with
// b.N = 1 under the default -benchtime.
func BenchmarkHostile(b *testing.B) {
	for _, in := range hostileInputs {
		body, path := in.gen()
		b.Run(in.name+"/robotsgate", func(b *testing.B) {
			r := robotsgate.Parse(body)
			b.ReportAllocs()
			for b.Loop() {
				sinkBool = r.Allowed("AnyBot", path)
			}
		})
		b.Run(in.name+"/temoto", func(b *testing.B) {
			r, err := temoto.FromBytes(body)
			if err != nil {
				b.Fatal(err)
			}
			g := r.FindGroup("AnyBot")
			b.ReportAllocs()
			for b.Loop() {
				sinkBool = g.Test(path)
			}
		})
	}
}

var hostileInputs = []struct {
	name    string
	gen     func() ([]byte, string)
	pathLen int
}{{"mixed", hostile, 2048}, {"scan", hostileScan, 2048}, {"limits", hostileLimits, 8 << 10}}

// BenchmarkHostileParse parses the hostile files themselves.
func BenchmarkHostileParse(b *testing.B) {
	for _, in := range hostileInputs {
		body, _ := in.gen()
		b.Run(in.name+"/robotsgate", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				sinkRG = robotsgate.Parse(body)
			}
		})
		b.Run(in.name+"/temoto", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				r, err := temoto.FromBytes(body)
				if err != nil {
					b.Fatal(err)
				}
				sinkTemoto = r
			}
		})
	}
}
