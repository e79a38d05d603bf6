package redisstore

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
)

// A run keeps goroutines checking probes through several Clients until
// stopped, recording wrong answers, errors and the slowest check.
type run struct {
	checks atomic.Int64
	stop   chan struct{}
	wg     sync.WaitGroup

	mu       sync.Mutex
	failures []string
	slowest  time.Duration
}

// startRun starts workers goroutines per client, each cycling over the
// probes of hs.
func startRun(clients []*robotstxt.Client, hs []string, workers int) *run {
	r := &run{stop: make(chan struct{})}
	var probes []crawltest.Probe
	for _, h := range hs {
		probes = append(probes, crawltest.Probes(h)...)
	}
	for _, c := range clients {
		for w := range workers {
			r.wg.Go(func() { r.work(c, probes, w*7) })
		}
	}
	return r
}

func (r *run) work(c *robotstxt.Client, probes []crawltest.Probe, i int) {
	for ; ; i++ {
		select {
		case <-r.stop:
			return
		default:
		}
		start := time.Now()
		err := checkOne(c, probes[i%len(probes)])
		d := time.Since(start)
		r.checks.Add(1)
		r.mu.Lock()
		r.slowest = max(r.slowest, d)
		if err != nil && len(r.failures) < 10 {
			r.failures = append(r.failures, err.Error())
		}
		r.mu.Unlock()
	}
}

// await blocks until n more checks than now have completed, failing the
// test if that takes over a minute.
func (r *run) await(t *testing.T, n int64) {
	t.Helper()
	target := r.checks.Load() + n
	deadline := time.Now().Add(time.Minute)
	for r.checks.Load() < target {
		if time.Now().After(deadline) {
			t.Fatalf("checks stalled at %d, want %d", r.checks.Load(), target)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// finish stops the run and fails the test on any wrong answer, error, or a
// check slower than ceiling.
func (r *run) finish(t *testing.T) {
	t.Helper()
	close(r.stop)
	r.wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	t.Logf("%d checks, slowest %v", r.checks.Load(), r.slowest)
	if len(r.failures) > 0 {
		t.Errorf("wrong answers or errors, e.g. %q", r.failures)
	}
	if r.slowest > ceiling {
		t.Errorf("slowest check took %v, over the %v ceiling", r.slowest, ceiling)
	}
}
