package bench

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	robotsgate "github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/match"
)

// These benchmarks measure robotsgate's engine alone (no temoto side): how
// a check's cost spreads over the corpus files, and what a parsed file
// keeps on the heap. They use only API that older versions of the engine
// had too, so that the same file measures a baseline checkout.

// engineAgent is the crawler the engine benchmarks check for.
const engineAgent = "Googlebot"

// maxBody is the most of a body the Client keeps (Google reads 500 KiB).
const maxBody = 500 << 10

// fixedQueries are checked against every file, beside its own rules.
var fixedQueries = []string{
	"/", "/index.html", "/search?q=robots", "/wp-admin/admin-ajax.php",
	"/products/item-1234.html?color=green", "https://example.com/a/b/c/d/e",
}

// queriesOf derives checks from a file's own rules for engineAgent (see
// queriesFor).
func queriesOf(r *robotsgate.Robots) []string { return queriesFor(r, engineAgent) }

// queriesFor derives checks from the rules agent obeys in a file: each
// pattern (up to 32, spread over the file) with its wildcards filled in
// and a suffix, so that the checks reach the rules a real crawl would,
// plus fixedQueries.
func queriesFor(r *robotsgate.Robots, agent string) []string {
	rules := r.Rules(agent)
	qs := slices.Clone(fixedQueries)
	step := max(1, len(rules)/32)
	for i := 0; i < len(rules); i += step {
		p := strings.TrimSuffix(rules[i].Pattern, "$")
		p = strings.ReplaceAll(p, "*", "x")
		if p == "" || p[0] != '/' {
			p = "/" + p
		}
		qs = append(qs, p, p+"x/y.html")
	}
	return qs
}

// BenchmarkCorpusCheck times, for every corpus file, one check averaged
// over that file's queries (queriesOf), and reports the median and the
// maximum over the files and their ratio: how much more a check against
// the costliest file costs than one against a typical file. One op is one
// pass over the corpus; run it with -benchtime=1x.
func BenchmarkCorpusCheck(b *testing.B) {
	files, rs := parseCorpus(b)
	qs := make([][]string, len(files))
	for i, r := range rs {
		qs[i] = queriesOf(r)
		for _, q := range qs[i] {
			sinkBool = r.Allowed(engineAgent, q) // build what the first check builds
		}
	}
	var perFile []float64
	for b.Loop() {
		perFile = timePerFile(len(files), func(i int) int {
			for _, q := range qs[i] {
				sinkBool = rs[i].Allowed(engineAgent, q)
			}
			return len(qs[i])
		})
	}
	reportSpread(b, perFile, func(i int) string {
		return fmt.Sprintf("%s, %d rules for %s", files[i].name, len(rs[i].Rules(engineAgent)), engineAgent)
	})
}

// parseCorpus reads the corpus (see loadCorpus) and parses every file.
func parseCorpus(b *testing.B) ([]corpusFile, []*robotsgate.Robots) {
	files, _ := loadCorpus(b)
	rs := make([]*robotsgate.Robots, len(files))
	for i, f := range files {
		rs[i] = robotsgate.Parse(f.body)
	}
	return files, rs
}

// timePerFile times check(i), which makes some checks against file i and
// returns how many, for each of n files, and returns the time of one
// check for each: the least of three timings, each of at least 20 µs, so
// that a GC or a preemption does not make a file look costly.
func timePerFile(n int, check func(i int) int) []float64 {
	perFile := make([]float64, n)
	for i := range perFile {
		perFile[i] = math.Inf(1)
		for range 3 {
			rounds, checks := 0, 0
			t0 := time.Now()
			for time.Since(t0) < 20*time.Microsecond || rounds < 2 {
				checks += check(i)
				rounds++
			}
			perFile[i] = min(perFile[i], float64(time.Since(t0).Nanoseconds())/float64(checks))
		}
	}
	return perFile
}

// reportSpread reports the median, p99 and maximum of perFile, the time
// of a check against each file, and the maximum over the median, and logs
// the five costliest files, as describe names them.
func reportSpread(b *testing.B, perFile []float64, describe func(i int) string) {
	sorted := slices.Clone(perFile)
	slices.Sort(sorted)
	median, worst := sorted[len(sorted)/2], sorted[len(sorted)-1]
	b.ReportMetric(median, "median-ns/check")
	b.ReportMetric(sorted[len(sorted)*99/100], "p99-ns/check")
	b.ReportMetric(worst, "max-ns/check")
	b.ReportMetric(worst/median, "max/median")
	order := make([]int, len(perFile))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(perFile[b], perFile[a]) })
	for _, i := range order[:min(5, len(order))] {
		b.Logf("%.0f ns/check (%.1f× the median): %s", perFile[i], perFile[i]/median, describe(i))
	}
}

// BenchmarkCorpusPass checks every query of every corpus file once
// (queriesOf, for engineAgent) and reports the mean time of a check: one
// op is one pass. Where BenchmarkCorpusCheck shows how the cost spreads
// over the files, this shows what the whole corpus costs, and run under
// callgrind (GOGC=off GOMAXPROCS=1, collecting in corpusPass) it counts
// the instructions a check takes, free of a busy machine's noise: how the
// parser's tuning constants were compared.
func BenchmarkCorpusPass(b *testing.B) {
	_, rs := parseCorpus(b)
	qs := make([][]string, len(rs))
	checks := 0
	for i := range rs {
		qs[i] = queriesOf(rs[i])
		checks += len(qs[i])
		corpusPass(rs[i:i+1], qs[i:i+1]) // build what the first check builds
	}
	for b.Loop() {
		corpusPass(rs, qs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*checks), "ns/check")
	b.ReportMetric(float64(checks), "checks")
}

// corpusPass checks qs[i] against rs[i] for engineAgent, for every i.
//
//go:noinline
func corpusPass(rs []*robotsgate.Robots, qs [][]string) {
	for i, r := range rs {
		for _, q := range qs[i] {
			sinkBool = r.Allowed(engineAgent, q)
		}
	}
}

// retained parses bodies (cycling through them until n files are held),
// keeps what keep returns for each, and reports the heap they hold per
// body byte held. It collects twice before it reads the heap: the
// parser's scratch space, pooled, outlives one collection, and is not
// what a parsed file holds.
func retained(bodies [][]byte, n int, keep func([]byte) any) float64 {
	held := make([]any, 0, n)
	var in int64
	runtime.GC()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range n {
		body := bodies[i%len(bodies)]
		held = append(held, keep(body))
		in += int64(len(body))
	}
	runtime.GC()
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(held)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(in)
}

// keepRobots parses body, checks a path (so that what the first check
// builds is counted) and keeps the Robots.
func keepRobots(body []byte) any {
	r := robotsgate.Parse(body)
	sinkBool = r.Allowed(engineAgent, "/x")
	return r
}

// hostileUnknown is a 500 KiB body of unknown-key lines.
func hostileUnknown() []byte { return bytes.Repeat([]byte("b:\n"), maxBody/3) }

// ruleDense is the corpus's largest rule file, 0085.txt, cut to 500 KiB.
func ruleDense(b *testing.B) []byte {
	body, err := os.ReadFile(filepath.Join(corpusSampleDir, "0085.txt"))
	if err != nil {
		b.Skipf("corpus not available: %v", err)
	}
	return body[:min(len(body), maxBody)]
}

// BenchmarkRetained reports the heap a parsed Robots keeps per body
// byte: over the corpus (each body cut at 500 KiB
// as the Client cuts it, 2 passes), and for a 500 KiB body of unknown
// keys and a 500 KiB rule-dense body (16 copies each). Run it with
// -benchtime=1x.
func BenchmarkRetained(b *testing.B) {
	files, _ := loadCorpus(b)
	corpus := make([][]byte, len(files))
	for i, f := range files {
		corpus[i] = f.body[:min(len(f.body), maxBody)]
	}
	inputs := []struct {
		name   string
		bodies [][]byte
		n      int
	}{
		{"corpus", corpus, 2 * len(corpus)},
		{"unknown-keys-500KiB", [][]byte{hostileUnknown()}, 16},
		{"rule-dense-500KiB", [][]byte{ruleDense(b)}, 16},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			var ratio float64
			for b.Loop() {
				ratio = retained(in.bodies, in.n, keepRobots)
			}
			b.ReportMetric(ratio, "heapB/bodyB")
		})
	}
}

// BenchmarkHostileStaircase checks a path that hundreds of nested
// prefixes start (a rule and a wildcard twin for every length, 500 KiB),
// the case that makes an index search a step per byte; the baseline is
// trying every rule of the group, which a check must never cost much
// more than.
func BenchmarkHostileStaircase(b *testing.B) {
	const n = 699
	var sb strings.Builder
	sb.WriteString("User-agent: *\n")
	for k := 1; k < n; k++ {
		a := strings.Repeat("a", k)
		sb.WriteString("Disallow: /" + a + "0\nDisallow: /" + a + "*0\n")
	}
	body := []byte(sb.String())
	path := "/" + strings.Repeat("a", n)
	r := robotsgate.Parse(body)
	againstEveryRule(b, "", r, path, 1)
}

// BenchmarkHostileGrams checks a long path that repeats the one gram
// 4,096 wildcard rules share (`/*aaaa*XYZ`), the case that would make the
// gram index scan a bucket once per byte of the path; the baseline is
// trying every rule.
func BenchmarkHostileGrams(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("User-agent: *\n")
	for i := range 4096 {
		fmt.Fprintf(&sb, "Disallow: /*aaaa*%03x\n", i)
	}
	r := robotsgate.Parse([]byte(sb.String()))
	path := "/" + strings.Repeat("a", 1000)
	againstEveryRule(b, "", r, path, 1)
}

// BenchmarkHostileChain checks a 2,000-byte path below a chain of 100
// nested prefixes (`/a`, `/a/a`, …), each the prefix of a block of 17
// wildcard rules that the path does not match, the case that would make
// every block of the chain look up every gram of the path; in "two-byte",
// half the rules have grams of two bytes only, so both kinds are looked
// up. The baseline is trying every rule.
func BenchmarkHostileChain(b *testing.B) {
	for _, short := range []bool{false, true} {
		var sb strings.Builder
		sb.WriteString("User-agent: *\n")
		prefix := ""
		for d := range 100 {
			prefix += "/a"
			for j := range 17 {
				if short && j%2 == 0 {
					fmt.Fprintf(&sb, "Disallow: %s*Q%c*Z\n", prefix, 'A'+j)
				} else {
					fmt.Fprintf(&sb, "Disallow: %s*QQ%02d%02dZ\n", prefix, d, j)
				}
			}
		}
		r := robotsgate.Parse([]byte(sb.String()))
		buf := []byte(prefix)
		for i := 0; len(buf) < 2000; i++ {
			buf = append(buf, "abcdefghijklmnop/"[i*7%17])
		}
		path := string(buf)
		name := "four-byte"
		if short {
			name = "two-byte"
		}
		againstEveryRule(b, name+"/", r, path, 1)
	}
}

// BenchmarkHostileLongPath checks paths of 2 KB and 100 KB against a block
// of ten wildcard rules that end in '$' (`/a*q0NNq$`), which fail at once
// whatever the path's length, beside 33 plain rules: noting the grams of
// so long a path would cost hundreds of times matching the rules. The
// baseline is trying every rule.
func BenchmarkHostileLongPath(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("User-agent: *\n")
	for i := range 10 {
		fmt.Fprintf(&sb, "Disallow: /a*q0%02dq$\n", i)
	}
	for i := range 33 {
		fmt.Fprintf(&sb, "Disallow: /z%d\n", i)
	}
	r := robotsgate.Parse([]byte(sb.String()))
	for _, n := range []int{2 << 10, 100 << 10} {
		path := "/a/" + strings.Repeat("x", n)
		name := fmt.Sprintf("%dKB", n>>10)
		againstEveryRule(b, name+"/", r, path, 100)
	}
}

// againstEveryRule runs a sub-benchmark, named name+"robotsgate", that
// checks path with r for "x" (Robots.Allowed) beside its baseline, trying
// every rule, alternately, k of each a round (see pair): x-baseline is
// the ratio.
func againstEveryRule(b *testing.B, name string, r *robotsgate.Robots, path string, k int) {
	rules := r.Rules("x")
	if r.Allowed("x", path) != everyRule(rules, path) {
		b.Fatalf("%s: the check and trying every rule disagree", name)
	}
	b.Run(name+"robotsgate", func(b *testing.B) {
		b.ReportAllocs()
		pair(b, k, func(int) { sinkBool = everyRule(rules, path) },
			func(int) { sinkBool = r.Allowed("x", path) })
	})
}

// everyRule decides path by trying every rule, the longest match winning:
// the baseline the hostile benchmarks compare with (their rules never tie).
func everyRule(rules []robotsgate.Rule, path string) bool {
	allowed, best := true, -1
	for _, ru := range rules {
		if len(ru.Pattern) > best && match.Match(ru.Pattern, path) {
			allowed, best = ru.Allow, len(ru.Pattern)
		}
	}
	return allowed
}
