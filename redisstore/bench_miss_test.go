package redisstore

import (
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
)

// BenchmarkRedisMiss is a memory miss served from Redis through the
// Client (GET, decode, decompress, parse, match) against its floor, a raw
// go-redis GET of the same value, Parse of the body and one check, run
// alternately, 100 of each per round. "busy" keeps every other CPU busy
// with a spinning goroutine, as a crawler's other work would, and reports
// wall time (x-baseline); "cpu" reports the CPU time the process spends
// per call, from getrusage before and after each half (x-baseline-cpu).
// The target for both is ≤ 1.5×.
func BenchmarkRedisMiss(b *testing.B) {
	for _, busy := range []bool{true, false} {
		name := "cpu"
		if busy {
			name = "busy"
		}
		b.Run(name, func(b *testing.B) {
			w, rdb, c, urls := redisHitSetup(b, true)
			key := defaultPrefix + "{http://bench-a.test:80}"
			if busy {
				stop := burn(runtime.GOMAXPROCS(0) - 1)
				defer stop()
			}
			base := func() {
				v, err := rdb.Get(b.Context(), key).Bytes()
				if err != nil || len(v) == 0 || !robotstxt.Parse(w.Body()).Allowed("fleettest", "/some/path/page.html") {
					b.Fatal("baseline failed", err)
				}
			}
			i := 0
			measured := func() {
				if _, err := c.Allowed(b.Context(), urls[i%2]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			var tb, tm, cb, cm time.Duration
			n := 0
			for b.Loop() {
				c0, start := cpuTime(), time.Now()
				for range 100 {
					base()
				}
				tb += time.Since(start)
				c1 := cpuTime()
				cb += c1 - c0
				start = time.Now()
				for range 100 {
					measured()
				}
				tm += time.Since(start)
				cm += cpuTime() - c1
				n += 100
			}
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(n) }
			b.ReportMetric(per(tb), "ns-baseline/op")
			b.ReportMetric(per(tm), "ns-measured/op")
			b.ReportMetric(float64(tm)/float64(tb), "x-baseline")
			if !busy {
				// With a spinning goroutine the process's CPU time is
				// mostly the spinning.
				b.ReportMetric(per(cb), "ns-cpu-baseline/op")
				b.ReportMetric(per(cm), "ns-cpu-measured/op")
				b.ReportMetric(float64(cm)/float64(cb), "x-baseline-cpu")
			}
			if st := c.Stats().Store; st.Hits < uint64(i) {
				b.Fatalf("%d Store hits for %d checks", st.Hits, i)
			}
		})
	}
}

// burn keeps n goroutines spinning until stop is called.
func burn(n int) (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			x := 0
			for !done.Load() {
				for j := range 1000 {
					x += j
				}
			}
			runtime.KeepAlive(x)
		})
	}
	return func() { done.Store(true); wg.Wait() }
}

// cpuTime returns the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
