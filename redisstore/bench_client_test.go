package redisstore

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
)

// benchFleet serves the median corpus file as every site's robots.txt and
// returns the web and a Redis client.
func benchFleet(b *testing.B) (*crawltest.Web, string, *redis.Client) {
	b.Helper()
	name, body := medianCorpusFile(b)
	b.Logf("robots.txt: corpus %s, %d bytes", name, len(body))
	srv, rdb := newRedis(b)
	w := newWeb(b, crawltest.WithBody(body))
	return w, srv.Addr(), rdb
}

// BenchmarkAllowedMemoryHit: Allowed answered from the process's memory,
// with a Redis Store configured (Redis is not touched).
func BenchmarkAllowedMemoryHit(b *testing.B) {
	w, addr, _ := benchFleet(b)
	c := newProcess(b, addr, w)
	url := "http://bench.test/some/path/page.html"
	if _, err := c.Allowed(b.Context(), url); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Allowed(b.Context(), url); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAllowedRedisHit: Allowed missing memory and served from Redis
// (GET, decode, parse the median file, match). The process caches one
// site and alternates between two, so every check misses memory. The
// sub-benchmarks are a go-redis client with and without
// ContextTimeoutEnabled; BenchmarkAllowedRedisHitBaseline is the work
// they cannot avoid.
func BenchmarkAllowedRedisHit(b *testing.B) {
	for _, direct := range []bool{true, false} {
		b.Run(fmt.Sprintf("ContextTimeoutEnabled=%v", direct), func(b *testing.B) {
			benchRedisHit(b, direct)
		})
	}
}

// redisHitSetup stores two sites' robots.txt in Redis through one
// process and returns another whose memory holds one site, so that
// checking the two URLs in turn always misses memory and hits Redis;
// direct sets the go-redis client's ContextTimeoutEnabled.
func redisHitSetup(b *testing.B, direct bool) (w *crawltest.Web, rdb *redis.Client, c *robotstxt.Client, urls []string) {
	w, addr, _ := benchFleet(b)
	urls = []string{"http://bench-a.test/some/path/page.html", "http://bench-b.test/some/path/page.html"}
	warm := newProcess(b, addr, w)
	for _, u := range urls {
		if _, err := warm.Allowed(b.Context(), u); err != nil {
			b.Fatal(err)
		}
	}
	rdb = redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: direct})
	b.Cleanup(func() { _ = rdb.Close() })
	c = newClient(b, New(rdb, WithLogger(quietLogger), WithTimeout(generous)), w.HTTPClient(),
		robotstxt.WithStoreTimeout(generous), robotstxt.WithCacheSize(1))
	return w, rdb, c, urls
}

func benchRedisHit(b *testing.B, direct bool) {
	w, _, c, urls := redisHitSetup(b, direct)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := c.Allowed(b.Context(), urls[i%2]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.StopTimer()
	if n := w.Fetches(""); n != len(urls) {
		b.Fatalf("%d robots.txt fetches, want %d: checks were not served from Redis", n, len(urls))
	}
	if st := c.Stats().Store; st.Hits < uint64(i) {
		b.Fatalf("%d Store hits for %d checks", st.Hits, i)
	}
}

// BenchmarkAllowedRedisHitBaseline is the floor of a Redis hit: a raw
// go-redis GET of the same stored value, then Parse of the body and one
// check, with nothing of the Client around them.
func BenchmarkAllowedRedisHitBaseline(b *testing.B) {
	w, addr, rdb := benchFleet(b)
	warm := newProcess(b, addr, w)
	if _, err := warm.Allowed(b.Context(), "http://bench-a.test/"); err != nil {
		b.Fatal(err)
	}
	key := defaultPrefix + "{http://bench-a.test:80}"
	if n, err := rdb.StrLen(b.Context(), key).Result(); err != nil || n == 0 {
		b.Fatalf("stored value %s: %d bytes, %v", key, n, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		v, err := rdb.Get(b.Context(), key).Bytes()
		if err != nil || len(v) == 0 {
			b.Fatal(err)
		}
		if !robotstxt.Parse(w.Body()).Allowed("fleettest", "/some/path/page.html") {
			b.Fatal("disallowed")
		}
	}
}

// BenchmarkAllowedRedisHitRatio runs a Redis hit through the Client and
// its floor (BenchmarkAllowedRedisHitBaseline's work) alternately, 100 of
// each per round, and reports the ratio: alternating keeps a noisy
// machine's drift out of it (target ≤ 1.5).
func BenchmarkAllowedRedisHitRatio(b *testing.B) {
	w, rdb, c, urls := redisHitSetup(b, true)
	key := defaultPrefix + "{http://bench-a.test:80}"
	var tBase, tClient time.Duration
	n := 0
	for b.Loop() {
		start := time.Now()
		for range 100 {
			v, err := rdb.Get(b.Context(), key).Bytes()
			if err != nil || len(v) == 0 || !robotstxt.Parse(w.Body()).Allowed("fleettest", "/some/path/page.html") {
				b.Fatal("baseline failed", err)
			}
		}
		tBase += time.Since(start)
		start = time.Now()
		for i := range 100 {
			if _, err := c.Allowed(b.Context(), urls[i%2]); err != nil {
				b.Fatal(err)
			}
		}
		tClient += time.Since(start)
		n += 100
	}
	b.ReportMetric(float64(tBase.Nanoseconds())/float64(n), "ns-baseline/op")
	b.ReportMetric(float64(tClient.Nanoseconds())/float64(n), "ns-measured/op")
	b.ReportMetric(float64(tClient)/float64(tBase), "x-baseline")
}

// BenchmarkRedisBytesPerAuthority stores the median corpus file for 1000
// sites through the Client and reports what one site costs in Redis: the
// encoded value, MEMORY USAGE of its key, and the growth of used_memory
// divided by the sites. The timed loop is a Store Get of one such value.
func BenchmarkRedisBytesPerAuthority(b *testing.B) {
	w, addr, rdb := benchFleet(b)
	const sites = 1000
	before := usedMemory(b, rdb)
	c := newProcess(b, addr, w)
	for _, h := range crawltest.Hosts("mem", sites) {
		if _, err := c.Allowed(b.Context(), "http://"+h+"/"); err != nil {
			b.Fatal(err)
		}
	}
	after := usedMemory(b, rdb)
	key := defaultPrefix + "{http://mem0.test:80}"
	value := rdb.StrLen(b.Context(), key).Val()
	usage, err := rdb.MemoryUsage(b.Context(), key).Result()
	if err != nil || value == 0 {
		b.Fatalf("key %s: %d bytes, MEMORY USAGE %d, %v", key, value, usage, err)
	}

	s := New(rdb, WithLogger(quietLogger), WithTimeout(generous))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Get(b.Context(), "http://mem0.test:80"); err != nil {
			b.Fatal(err)
		}
	}
	// After the loop: b.Loop's timer reset clears metrics reported before.
	b.ReportMetric(float64(value), "value-B/site")
	b.ReportMetric(float64(usage), "key-B/site")
	b.ReportMetric(float64(after-before)/sites, "used-B/site")
}

// usedMemory returns Redis' used_memory in bytes.
func usedMemory(b *testing.B, rdb *redis.Client) int64 {
	b.Helper()
	info, err := rdb.Info(b.Context(), "memory").Result()
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.Lines(info) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "used_memory:"); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return n
		}
	}
	b.Fatal(fmt.Errorf("no used_memory in INFO memory"))
	return 0
}
