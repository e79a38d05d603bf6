package bench

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	robotsgate "github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/bench/heap"
	"github.com/robotsgate/robotstxt/internal/body"
)

// These benchmarks measure what a crawler pays per authority it keeps in
// memory: retained heap, what a byte budget holds the heap to, and GC
// time, each against a baseline taken in the same run and reported as a
// ratio (the unit names end in "/baseline" or say what they divide).

// siteTransport answers every request in process, without a socket:
// robots.txt of host "sNNNNNN.example" is bodies[N % len(bodies)]. A
// million TCP connections would measure the kernel, not the cache.
type siteTransport struct {
	bodies [][]byte
}

func (t siteTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var n int
	if _, err := fmt.Sscanf(req.URL.Hostname(), "s%d.example", &n); err != nil || req.URL.Path != "/robots.txt" {
		return &http.Response{StatusCode: 404, Body: http.NoBody, Header: http.Header{}, Request: req}, nil
	}
	rec := httptest.NewRecorder()
	rec.Header().Set("Content-Type", "text/plain")
	rec.Header().Set("Cache-Control", "max-age=86400")
	rec.WriteHeader(200)
	_, _ = rec.Write(t.bodies[n%len(t.bodies)])
	resp := rec.Result()
	resp.Request = req
	return resp, nil
}

func siteURL(n int) string { return fmt.Sprintf("http://s%06d.example/some/page.html", n) }

// fill checks one URL of each of n authorities, so that c caches them all.
func fill(b *testing.B, c *robotsgate.Client, n int) {
	ctx := context.Background()
	for i := range n {
		if _, err := c.Allowed(ctx, siteURL(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHeapPerAuthority caches N authorities whose robots.txt cycle
// through the corpus, and reports the heap each retains against the mean
// body it was fetched from (heap/body; the target is ≤ 1.0), and against
// the same bodies held as plain byte slices (the baseline, 1.0 by
// definition, reported as bytes). It also times a forced GC with the
// cache alive against one with the plain slices alive.
func BenchmarkHeapPerAuthority(b *testing.B) {
	files, _ := loadCorpus(b)
	bodies := make([][]byte, len(files))
	for i, f := range files {
		bodies[i] = f.body
	}
	for _, n := range []int{10000, 50000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			var sum int64 // of the bodies as the Client reads them, cut at 500 KiB
			for i := range n {
				sum += int64(min(len(bodies[i%len(bodies)]), body.DefaultLimit))
			}
			mean := float64(sum) / float64(n)
			for b.Loop() {
				// Baseline: the bodies as plain slices.
				before := heap.InUse()
				plain := make([][]byte, n)
				for i := range plain {
					plain[i] = bytes.Clone(bodies[i%len(bodies)])
				}
				plainHeap := float64(heap.InUse()-before) / float64(n)
				plainGC := timeGC()
				runtime.KeepAlive(plain)
				plain = nil

				before = heap.InUse()
				c := robotsgate.NewClient(
					robotsgate.WithHTTPClient(&http.Client{Transport: siteTransport{bodies}}),
					robotsgate.WithProductTokens(checkAgent),
					robotsgate.WithCacheSize(n+1),
					robotsgate.WithCacheBytes(1<<40),
				)
				fill(b, c, n)
				live := float64(heap.InUse()-before) / float64(n)
				cacheGC := timeGC()
				if got := c.Stats().Entries; got != n {
					b.Fatalf("%d entries cached, want %d", got, n)
				}
				c.Close()

				b.ReportMetric(mean, "B-body/authority")
				b.ReportMetric(live, "B-heap/authority")
				b.ReportMetric(live/mean, "heap/body")
				b.ReportMetric(plainHeap, "B-baseline/authority")
				b.ReportMetric(float64(cacheGC)/float64(plainGC), "GC-time/baseline")
				b.ReportMetric(float64(cacheGC.Microseconds()), "µs-GC")
			}
		})
	}
}

// timeGC returns how long one forced collection takes, the least of three.
func timeGC() time.Duration {
	best := time.Duration(1 << 62)
	for range 3 {
		start := time.Now()
		runtime.GC()
		best = min(best, time.Since(start))
	}
	return best
}

// BenchmarkCacheBytesBudget caches 300 authorities serving rule-dense
// 500 KiB bodies (0085.txt cut to 500 KiB) under a 64 MiB byte budget and reports the heap growth
// against the budget (growth/budget; the target is ≤ 1.5), and how many
// authorities stayed cached.
func BenchmarkCacheBytesBudget(b *testing.B) {
	const budget = 64 << 20
	bodies := [][]byte{ruleDense(b)}
	for b.Loop() {
		before := heap.InUse()
		c := robotsgate.NewClient(
			robotsgate.WithHTTPClient(&http.Client{Transport: siteTransport{bodies}}),
			robotsgate.WithProductTokens(checkAgent),
			robotsgate.WithCacheBytes(budget),
		)
		fill(b, c, 300)
		growth := float64(heap.InUse() - before)
		st := c.Stats()
		c.Close()
		b.ReportMetric(growth/budget, "growth/budget")
		b.ReportMetric(float64(st.Entries), "entries")
		b.ReportMetric(float64(len(bodies[0])), "B-body")
	}
}

// refused is a RoundTripper every connection of which is refused, as a
// dial to a host that is down is.
type refused struct{}

func (refused) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 80},
		Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
}

// BenchmarkCacheBytesBudgetUnreachable checks 20,000 authorities whose
// robots.txt cannot be reached (each failure keeps its error chain)
// under a 1 MiB byte budget, and reports the heap growth against the
// budget (growth/budget; the target is ≤ 1.5).
func BenchmarkCacheBytesBudgetUnreachable(b *testing.B) {
	const budget = 1 << 20
	for b.Loop() {
		before := heap.InUse()
		c := robotsgate.NewClient(robotsgate.WithHTTPClient(&http.Client{Transport: refused{}}),
			robotsgate.WithProductTokens(checkAgent), robotsgate.WithCacheBytes(budget))
		for i := range 20000 {
			_, _ = c.Allowed(context.Background(), fmt.Sprintf("http://h%05d.example/x", i))
		}
		growth := float64(heap.InUse() - before)
		st := c.Stats()
		c.Close()
		b.ReportMetric(growth/budget, "growth/budget")
		b.ReportMetric(float64(st.Entries), "entries")
	}
}

// pair times base and measured alternately, k calls of each per round,
// and reports both per call and measured/base, which it returns: running
// them side by side keeps a noisy machine's drift out of the ratio.
func pair(b *testing.B, k int, base, measured func(i int)) float64 {
	var tb, tm time.Duration
	calls := 0
	for b.Loop() {
		start := time.Now()
		for i := range k {
			base(i)
		}
		tb += time.Since(start)
		start = time.Now()
		for i := range k {
			measured(i)
		}
		tm += time.Since(start)
		calls += k
	}
	b.ReportMetric(float64(tb.Nanoseconds())/float64(calls), "ns-baseline/op")
	b.ReportMetric(float64(tm.Nanoseconds())/float64(calls), "ns-measured/op")
	b.ReportMetric(float64(tm)/float64(tb), "x-baseline")
	return float64(tm) / float64(tb)
}

// BenchmarkClientOverhead reports what Client.Allowed costs on a warm
// cache against Robots.Allowed of the same rules for its agent and the
// same (escaped) path, which is the matching work the Client cannot avoid (target ≤ 2×,
// or ≤ 3× for URLs that need escaping, and 0 allocs).
func BenchmarkClientOverhead(b *testing.B) {
	bodies := [][]byte{[]byte(realistic)}
	newClient := func(b *testing.B, n int) *robotsgate.Client {
		c := robotsgate.NewClient(
			robotsgate.WithHTTPClient(&http.Client{Transport: siteTransport{bodies}}),
			robotsgate.WithProductTokens(checkAgent),
		)
		b.Cleanup(func() { c.Close() })
		fill(b, c, n)
		return c
	}
	ctx := context.Background()
	r := robotsgate.Parse([]byte(realistic))
	for _, tc := range []struct{ name, path, escaped string }{
		{"ascii", checkPath, checkPath},
		{"cafe-path", "/café/x", "/caf%C3%A9/x"},
		{"cafe-query", checkPath + "&q=café", checkPath + "&q=caf%C3%A9"},
	} {
		b.Run("one-authority/"+tc.name, func(b *testing.B) {
			c := newClient(b, 1)
			u := "http://s000000.example" + tc.path
			if got, _ := c.Allowed(ctx, u); got != r.Allowed(checkAgent, tc.escaped) {
				b.Fatalf("%s: Client %v, Robots %v", tc.name, got, !got)
			}
			b.ReportAllocs()
			pair(b, 1000, func(int) { sinkBool = r.Allowed(checkAgent, tc.escaped) },
				func(int) { sinkBool, _ = c.Allowed(ctx, u) })
		})
	}
	b.Run("1000-authorities-rotating", func(b *testing.B) {
		const n = 1000
		c := newClient(b, n)
		urls := make([]string, n)
		files := make([]*robotsgate.Robots, n)
		for i := range n {
			urls[i] = fmt.Sprintf("http://s%06d.example%s", i, checkPath)
			files[i] = robotsgate.Parse([]byte(realistic))
		}
		b.ReportAllocs()
		pair(b, n, func(i int) { sinkBool = files[i].Allowed(checkAgent, checkPath) },
			func(i int) { sinkBool, _ = c.Allowed(ctx, urls[i]) })
	})
}
