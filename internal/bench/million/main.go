// Command million fills a robotstxt.Client with a million authorities (or
// -n of them) whose robots.txt files cycle through the corpus, and reports
// the heap they retain against the bodies they were fetched from. It
// measures what a crawler's cache of that size costs instead of
// extrapolating it from a smaller one.
//
// Run it from internal/bench:
//
//	go run ./million               # N = 1,000,000, budget 0.6 x the bodies
//	go run ./million -n 100000
//	go run ./million -budget 0     # no byte budget: every entry whole
//
// The Client's byte budget (WithCacheBytes) is -budget times the sum of
// the bodies it reads: 0.6 by default, the target for heap per authority,
// so that the Client must freeze entries (drop their parsed rules and
// keep their compressed bodies) to hold all N. The program fails if any
// authority is evicted.
//
// Every request is answered in process by a RoundTripper (no sockets): the
// robots.txt of host "sNNNNNNN.example" is corpus file N modulo the number
// of files, served with a day's max-age. After the fill, a sample of
// authorities is checked through the Client against robotstxt.Parse of the body as the Client reads it:
// a decision that differs is fatal, and so is a check that is not answered
// from memory. It reports how many entries are frozen after the fill and
// how many the checks thawed.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/bench/heap"
	"github.com/robotsgate/robotstxt/internal/body"
)

// The corpus is read from the directory ROBOTSTXT_CORPUS names, when it
// names one, else from the repository's sample (relative to
// internal/bench).
const corpusSampleDir = "../../testdata/corpus/files"

// token is the Client's product token.
const token = "ExampleBot"

func main() {
	n := flag.Int("n", 1_000_000, "authorities to fill")
	sample := flag.Int("sample", 2000, "authorities whose decisions are checked after the fill")
	budgetRatio := flag.Float64("budget", 0.6, "byte budget as a multiple of the bodies' total size; 0 for none")
	heapProfile := flag.String("heapprofile", "", "write a heap profile after the fill to this file")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the fill to this file")
	dir := flag.String("corpus", "", "directory of robots.txt bodies (default: $ROBOTSTXT_CORPUS/files, else the sample)")
	flag.Parse()
	log.SetFlags(0)

	bodies, name := loadCorpus(*dir)
	var sum int64 // of the bodies as the Client reads them, cut at the body limit
	for i := range *n {
		sum += int64(min(len(bodies[i%len(bodies)]), body.DefaultLimit))
	}
	mean := float64(sum) / float64(*n)
	fmt.Printf("corpus %s: %d files; N = %d authorities, mean body %.0f B\n", name, len(bodies), *n, mean)
	budget := int64(1 << 50)
	if *budgetRatio > 0 {
		budget = int64(*budgetRatio * float64(sum))
		fmt.Printf("budget: %.2f GB (%.2f x the bodies)\n", float64(budget)/1e9, *budgetRatio)
	} else {
		fmt.Println("budget: none")
	}

	before := heap.InUse()
	c := robotstxt.NewClient(
		robotstxt.WithHTTPClient(&http.Client{Transport: corpusTransport{bodies}}),
		robotstxt.WithProductTokens(token),
		robotstxt.WithCacheSize(*n+1),
		robotstxt.WithCacheBytes(budget),
	)
	defer c.Close()

	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
	}
	start := time.Now()
	fill(c, *n)
	took := time.Since(start)
	if *cpuProfile != "" {
		pprof.StopCPUProfile()
	}

	live := heap.InUse() - before
	st := c.Stats()
	if st.Entries != *n || st.Fetches.Rules != uint64(*n) || st.Evictions != 0 {
		log.Fatalf("%d entries, %d rules fetched, %d evicted; want %d, %[4]d, none", st.Entries, st.Fetches.Rules, st.Evictions, *n)
	}
	per := float64(live) / float64(*n)
	fmt.Printf("fill: %v (%.0f authorities/s on %d CPUs)\n", took.Round(time.Millisecond),
		float64(*n)/took.Seconds(), runtime.GOMAXPROCS(0))
	fmt.Printf("heap: %.3f GB total, %.0f B per authority = %.4f x the mean body\n",
		float64(live)/1e9, per, per/mean)
	fmt.Printf("Stats.Bytes: %.0f B per authority (the cache's own estimate); %d frozen (%.1f %%)\n",
		float64(st.Bytes)/float64(*n), st.Frozen, 100*float64(st.Frozen)/float64(*n))
	if *heapProfile != "" {
		f, err := os.Create(*heapProfile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.WriteHeapProfile(f); err != nil {
			log.Fatal(err)
		}
		f.Close()
	}

	start = time.Now()
	checked := verify(c, bodies, *n, *sample)
	took = time.Since(start)
	after := c.Stats()
	fmt.Printf("decisions: %d checks of %d authorities agree with robotstxt.Parse, all from memory; %d thaws, %v\n",
		checked, min(*sample, *n), after.Thaws-st.Thaws, took.Round(time.Millisecond))
	if after.Bytes > budget {
		log.Fatalf("Stats.Bytes %d over the budget %d", after.Bytes, budget)
	}
	runtime.KeepAlive(c)
}

// fill checks one URL of each of n authorities, on every CPU, so that c
// fetches and caches them all.
func fill(c *robotstxt.Client, n int) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			ctx := context.Background()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if _, err := c.Allowed(ctx, siteURL(i, "/some/page.html")); err != nil {
					log.Fatal(err)
				}
			}
		})
	}
	wg.Wait()
}

// verify checks sample authorities spread over the n filled, each with
// queries drawn from its own rules, through the Client, against Parse of the body as the Client read it. It
// returns the number of checks; every one was answered from memory.
func verify(c *robotstxt.Client, bodies [][]byte, n, sample int) int {
	ctx := context.Background()
	misses := c.Stats().Misses
	checks := 0
	step := max(1, n/max(sample, 1))
	for i := 0; i < n && i/step < sample; i += step {
		raw := bodies[i%len(bodies)]
		read, err := body.Read(bytes.NewReader(raw), http.Header{"Content-Type": {"text/plain"}}, body.DefaultLimit)
		if err != nil {
			log.Fatal(err)
		}
		r := robotstxt.Parse(read.Text)
		for _, q := range queries(r) {
			u := siteURL(i, q)
			got, err := c.Allowed(ctx, u)
			if err != nil {
				log.Fatal(err)
			}
			if want := r.Allowed(token, q); got != want {
				log.Fatalf("%s (corpus file %d): Client %v, Parse %v", u, i%len(bodies), got, want)
			}
			checks++
		}
	}
	if m := c.Stats().Misses; m != misses {
		log.Fatalf("%d checks missed memory after the fill", m-misses)
	}
	return checks
}

// queries returns paths to check against r: a few fixed ones and the
// patterns of up to 8 of the token's rules and of the * group's with
// their wildcards filled,
// keeping only paths that are their own normal form (the Client checks
// the normal forms of a path too, Parse does not).
func queries(r *robotstxt.Robots) []string {
	qs := []string{"/", "/index.html", "/search?q=robots", "/wp-admin/admin-ajax.php"}
	for _, agent := range []string{token, "*"} {
		rules := r.Rules(agent)
		step := max(1, len(rules)/8)
		for i := 0; i < len(rules); i += step {
			p := strings.ReplaceAll(strings.TrimSuffix(rules[i].Pattern, "$"), "*", "x")
			if !strings.HasPrefix(p, "/") {
				p = "/" + p
			}
			qs = append(qs, p, p+"x/y.html")
		}
	}
	return slices.DeleteFunc(qs, func(q string) bool {
		path, _, _ := strings.Cut(q, "?")
		for i := range len(q) {
			if q[i] <= ' ' || q[i] >= 0x7f || q[i] == '#' {
				return true
			}
		}
		return strings.Contains(path, "//") || strings.Contains(path, "%") ||
			strings.Contains(path+"/", "/./") || strings.Contains(path+"/", "/../")
	})
}

func siteURL(n int, path string) string { return "http://s" + strconv.Itoa(n) + ".example" + path }

// corpusTransport answers every request in process: the robots.txt of
// host "sN.example" is bodies[N % len(bodies)], anything else is a 404.
type corpusTransport struct {
	bodies [][]byte
}

func (t corpusTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp := &http.Response{StatusCode: 404, Status: "404 Not Found", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, Body: http.NoBody, Request: req}
	host, ok := strings.CutSuffix(req.URL.Hostname(), ".example")
	n, err := strconv.Atoi(strings.TrimPrefix(host, "s"))
	if !ok || err != nil || !strings.HasPrefix(host, "s") || req.URL.Path != "/robots.txt" {
		return resp, nil
	}
	raw := t.bodies[n%len(t.bodies)]
	resp.StatusCode, resp.Status = 200, "200 OK"
	resp.Header.Set("Content-Type", "text/plain")
	resp.Header.Set("Cache-Control", "max-age=86400")
	resp.ContentLength = int64(len(raw))
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	return resp, nil
}

// loadCorpus reads every regular file of dir, or of the full corpus or
// else the sample, in name order.
func loadCorpus(dir string) ([][]byte, string) {
	dirs := []string{dir}
	if dir == "" {
		dirs = []string{corpusSampleDir}
		if full := os.Getenv("ROBOTSTXT_CORPUS"); full != "" {
			dirs = []string{filepath.Join(full, "files"), corpusSampleDir}
		}
	}
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		var bodies [][]byte
		for _, e := range ents { // ReadDir sorts by name
			if !e.Type().IsRegular() {
				continue
			}
			b, err := os.ReadFile(filepath.Join(d, e.Name()))
			if err != nil {
				log.Fatal(err)
			}
			bodies = append(bodies, b)
		}
		if len(bodies) > 0 {
			return bodies, d
		}
	}
	log.Fatalf("no corpus in %v", dirs)
	return nil, ""
}
