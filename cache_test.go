package robotstxt

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestCacheFreshness(t *testing.T) {
	checkLeaks(t)
	date := time.Now().UTC()
	for _, tc := range []struct {
		name    string
		headers []string
		opts    []Option
		want    time.Duration
	}{
		{"max-age", []string{"Cache-Control", "max-age=3600"}, nil, time.Hour},
		{"s-maxage wins", []string{"Cache-Control", "max-age=60, s-maxage=7200"}, nil, 2 * time.Hour},
		{"Expires against Date", []string{"Date", date.Format(http.TimeFormat),
			"Expires", date.Add(2 * time.Hour).Format(http.TimeFormat)}, nil, 2 * time.Hour},
		{"max-age over Expires", []string{"Cache-Control", "max-age=600",
			"Expires", date.Add(2 * time.Hour).Format(http.TimeFormat)}, nil, 10 * time.Minute},
		{"capped at 24 h", []string{"Cache-Control", "max-age=604800"}, nil, 24 * time.Hour},
		{"no header", nil, nil, 24 * time.Hour},
		{"Last-Modified alone", []string{"Last-Modified", date.Add(-1000 * time.Hour).Format(http.TimeFormat)}, nil, 24 * time.Hour},
		{"cap option", []string{"Cache-Control", "max-age=7200"}, []Option{WithMaxFreshness(time.Hour)}, time.Hour},
		{"no header, cap option", nil, []Option{WithMaxFreshness(3 * time.Hour)}, 3 * time.Hour},
		{"max-age=0 floored", []string{"Cache-Control", "max-age=0"}, nil, time.Minute},
		{"no-store floored", []string{"Cache-Control", "no-store"}, nil, time.Minute},
		{"Expires in the past", []string{"Expires", "0"}, nil, time.Minute},
		// RFC 9111 §4.2.1: an invalid freshness value makes the
		// response stale, so it is kept for the floor only.
		{"garbage Cache-Control", []string{"Cache-Control", `max-age="`}, nil, time.Minute},
		{"negative max-age", []string{"Cache-Control", "max-age=-5"}, nil, time.Minute},
		{"max-age below the floor", []string{"Cache-Control", "max-age=2"}, nil, time.Minute},
		{"floor option", []string{"Cache-Control", "max-age=2"}, []Option{WithMinFreshness(2 * time.Second)}, 2 * time.Second},
		{"floor option, invalid", []string{"Cache-Control", "max-age=-5"}, []Option{WithMinFreshness(5 * time.Second)}, 5 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := newTestClock()
			s := newSite(t, serve(200, privateRules, tc.headers...))
			c := newTestClient(t, append([]Option{WithClock(clock.Now)}, tc.opts...)...)
			d, err := c.Check(context.Background(), s.URL+"/")
			if err != nil {
				t.Fatal(err)
			}
			if got := d.Expires.Sub(clock.Now()); got != tc.want {
				t.Errorf("fresh for %v, want %v", got, tc.want)
			}
			clock.Advance(tc.want - time.Second)
			_, _ = c.Allowed(context.Background(), s.URL+"/")
			if s.hits.Load() != 1 {
				t.Errorf("refetched before expiry")
			}
			clock.Advance(time.Second)
			_, _ = c.Allowed(context.Background(), s.URL+"/")
			if s.hits.Load() != 2 {
				t.Errorf("not refetched at expiry")
			}
		})
	}
}

// TestCacheRevalidation checks that an expired entry is revalidated with
// its validators and that a 304 keeps the rules and renews freshness.
func TestCacheRevalidation(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	lastMod := "Sat, 01 Mar 2025 10:00:00 GMT"
	var mu sync.Mutex
	var conditional []string
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		conditional = append(conditional, r.Header.Get("If-None-Match")+"|"+r.Header.Get("If-Modified-Since"))
		mu.Unlock()
		w.Header().Set("Cache-Control", "max-age=3600")
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Last-Modified", lastMod)
		_, _ = w.Write([]byte(privateRules))
	})
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	if ok, _ := c.Allowed(ctx, s.URL+"/private"); ok {
		t.Fatal("first fetch: /private allowed")
	}
	clock.Advance(time.Hour)
	d, err := c.Check(ctx, s.URL+"/private")
	if d.Allowed || err != nil || d.Status != 200 || !d.Expires.Equal(clock.Now().Add(time.Hour)) || d.Stale {
		t.Fatalf("after 304: %+v, %v", d, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(conditional) != 2 || conditional[0] != "|" || conditional[1] != `"v1"|`+lastMod {
		t.Errorf("requests carried validators %q", conditional)
	}
	if st := c.Stats(); st.Fetches.NotModified != 1 || st.Fetches.Rules != 1 {
		t.Errorf("Stats = %+v", st)
	}
}

func TestCacheStaleOnError(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	s := newSite(t, serve(200, privateRules, "Cache-Control", "max-age=60"))
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	if ok, _ := c.Allowed(ctx, s.URL+"/private"); ok {
		t.Fatal("/private allowed")
	}
	fetched := clock.Now()
	for _, fail := range []http.HandlerFunc{serve(503, ""), serve(429, ""), func(w http.ResponseWriter, r *http.Request) {
		conn, _, _ := w.(http.Hijacker).Hijack()
		_ = conn.Close()
	}} {
		s.set(fail)
		clock.Advance(2 * time.Hour)
		d, err := c.Check(ctx, s.URL+"/private")
		if d.Allowed || err != nil || !d.Stale || d.Deferred || d.Status != 200 || !d.Matched() {
			t.Fatalf("unreachable with a good copy: %+v, %v", d, err)
		}
		if ok, err := c.Allowed(ctx, s.URL+"/public"); !ok || err != nil {
			t.Fatalf("/public from the stale copy: %v, %v", ok, err)
		}
	}
	info, _ := c.Cached(s.URL)
	if !info.Stale || info.Failures != 3 || info.Err == nil || !info.FetchedAt.Equal(fetched) {
		t.Errorf("Info = %+v", info)
	}
	// The copy stays usable up to 30 days after it was fetched.
	clock.Advance(30*24*time.Hour - 7*time.Hour)
	if d, err := c.Check(ctx, s.URL+"/public"); !d.Stale || err != nil {
		t.Fatalf("29 days on: %+v, %v", d, err)
	}
	clock.Advance(2 * time.Hour)
	d, err := c.Check(ctx, s.URL+"/public")
	if d.Allowed || !d.Deferred || !errors.Is(err, ErrDeferred) {
		t.Fatalf("past 30 days: %+v, %v; want deferred", d, err)
	}
	s.set(serve(200, "User-agent: *\nDisallow: /public\n"))
	clock.Advance(2 * time.Hour)
	if d, err := c.Check(ctx, s.URL+"/public"); d.Allowed || d.Stale || err != nil || !d.Matched() {
		t.Fatalf("recovered: %+v, %v", d, err)
	}
}

// TestCacheStaleWhileRefreshing checks that while an expired entry is
// being fetched again, other callers get the old copy at once.
func TestCacheStaleWhileRefreshing(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	s := newSite(t, serve(200, privateRules, "Cache-Control", "max-age=60"))
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	if _, err := c.Allowed(ctx, s.URL+"/"); err != nil {
		t.Fatal(err)
	}
	arrived, gate := make(chan struct{}), make(chan struct{})
	s.set(func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-gate
		_, _ = w.Write([]byte("User-agent: *\nDisallow: /\n"))
	})
	clock.Advance(time.Minute)
	refreshed := make(chan Decision)
	go func() {
		d, _ := c.Check(ctx, s.URL+"/public")
		refreshed <- d
	}()
	<-arrived
	d, err := c.Check(ctx, s.URL+"/public")
	if !d.Allowed || !d.Stale || err != nil {
		t.Errorf("during refresh: %+v, %v; want the old rules, marked stale", d, err)
	}
	close(gate)
	if d := <-refreshed; d.Allowed || d.Stale {
		t.Errorf("refreshing caller: %+v; want the new rules", d)
	}
	if ok, _ := c.Allowed(ctx, s.URL+"/public"); ok {
		t.Error("after refresh: old rules")
	}
}

func TestCacheLRUEviction(t *testing.T) {
	checkLeaks(t)
	c := newTestClient(t, WithCacheSize(2))
	var sites []*site
	for range 3 {
		sites = append(sites, newSite(t, serve(200, privateRules)))
	}
	ctx := context.Background()
	for _, s := range sites {
		if _, err := c.Allowed(ctx, s.URL+"/"); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := c.Cached(sites[0].URL); ok {
		t.Error("least recently used authority still cached")
	}
	if st := c.Stats(); st.Evictions != 1 || st.Entries != 2 {
		t.Errorf("Stats = %+v", st)
	}
	_, _ = c.Allowed(ctx, sites[0].URL+"/")
	if sites[0].hits.Load() != 2 {
		t.Errorf("evicted authority fetched %d times, want 2", sites[0].hits.Load())
	}
}

// TestCacheRealClockExpiry checks expiry with the real clock, read from
// the coarse clock.
func TestCacheRealClockExpiry(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	c := newTestClient(t, WithMaxFreshness(20*time.Millisecond))
	ctx := context.Background()
	_, _ = c.Allowed(ctx, s.URL+"/")
	for deadline := time.Now().Add(5 * time.Second); s.hits.Load() < 2; {
		if time.Now().After(deadline) {
			t.Fatal("an entry fresh for 20 ms was still used 5 s later")
		}
		if _, err := c.Allowed(ctx, s.URL+"/"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if st := c.Stats(); st.Fetches.Rules < 2 {
		t.Errorf("Stats = %+v", st)
	}
}

func TestCacheAuthorityKeys(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, privateRules))
	c := newTestClient(t)
	ctx := context.Background()
	port := s.URL[len("http://127.0.0.1:"):]
	for _, u := range []string{
		s.URL + "/a", "HTTP://127.0.0.1:" + port + "/b", "http://user:pw@127.0.0.1:" + port + "/c",
		"http://127.0.0.1:0" + port + "/d#frag",
	} {
		if _, err := c.Allowed(ctx, u); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	if s.hits.Load() != 1 {
		t.Errorf("one authority fetched %d times", s.hits.Load())
	}
	if _, err := strconv.Atoi(port); err != nil {
		t.Fatal(err)
	}
}

// memEntry returns an entry for key retaining size bytes, fresh for an
// hour by the real clock.
func memEntry(key string, size int64) *entry {
	e := &entry{key: key, persisted: persisted{outcome: OutcomeAllowAll, expires: time.Now().Add(time.Hour)}}
	e.derive()
	e.size = size
	return e
}

func TestMemCacheBounds(t *testing.T) {
	m := newMemCache(4, 1000, time.Now, false)
	for i := range 6 {
		m.put(memEntry(fmt.Sprintf("http://h%d:80", i), 100))
	}
	if n, ev := m.len(), m.evictions(); n != 4 || ev != 2 {
		t.Errorf("count bound: %d entries, %d evictions; want 4, 2", n, ev)
	}
	for _, k := range []string{"http://h0:80", "http://h1:80"} {
		if m.peek(k) != nil {
			t.Errorf("%s kept, want the oldest evicted", k)
		}
	}
	// The byte budget: 1000 bytes hold two entries of 400 and two of 100,
	// and a third of 400 evicts the two small ones.
	m.put(memEntry("http://big1:80", 400))
	m.put(memEntry("http://big2:80", 400))
	m.put(memEntry("http://big3:80", 400))
	if n, b := m.len(), m.retained(); b > 1000 || n != 2 || m.peek("http://big1:80") != nil {
		t.Errorf("byte bound: %d entries retaining %d bytes; want big2 and big3 within 1000", n, b)
	}
	// An entry over the whole budget is still kept, alone.
	m.put(memEntry("http://huge:80", 5000))
	if n := m.len(); n != 1 || m.peek("http://huge:80") == nil {
		t.Errorf("an entry over the budget: %d entries, want it alone", n)
	}
	// Replacing an entry accounts for the old one's size.
	m.put(memEntry("http://huge:80", 10))
	if b := m.retained(); b != 10 {
		t.Errorf("after replacement retained %d bytes, want 10", b)
	}
}

func TestMemCacheForgetIsNotEviction(t *testing.T) {
	m := newMemCache(10, 1<<20, time.Now, false)
	m.put(memEntry("http://a:80", 100))
	m.forget("http://a:80")
	m.forget("http://never:80")
	if m.len() != 0 || m.retained() != 0 || m.evictions() != 0 || m.peek("http://a:80") != nil {
		t.Errorf("after forget: %d entries, %d bytes, %d evictions", m.len(), m.retained(), m.evictions())
	}
}

// TestMemCacheRecency checks the approximate LRU: an entry used since the
// last generation turned survives the eviction of one that was not.
func TestMemCacheRecency(t *testing.T) {
	m := newMemCache(8, 1<<20, time.Now, false)
	for i := range 8 {
		m.put(memEntry(fmt.Sprintf("http://h%d:80", i), 1))
	}
	// h0 is the oldest; use it, then fill the cache anew.
	if m.get([]byte("http://h0:80")) == nil {
		t.Fatal("h0 missing")
	}
	for i := 8; i < 15; i++ {
		m.put(memEntry(fmt.Sprintf("http://h%d:80", i), 1))
	}
	if m.peek("http://h0:80") == nil {
		t.Error("h0, used, was evicted before entries never used")
	}
	if m.peek("http://h1:80") != nil {
		t.Error("h1, never used, survived")
	}
}

// TestMemCacheCollision makes two keys collide: the entry of one is put
// in the index under the hash of the other, as a 64-bit collision would
// put it. A lookup of the other key must compare the keys and miss.
func TestMemCacheCollision(t *testing.T) {
	m := newMemCache(10, 1<<20, time.Now, false)
	a := m.put(memEntry("http://a:80", 1))
	m.mu.Lock()
	m.setIndex(maphash.String(m.seed, "http://b:80"), a)
	m.mu.Unlock()
	if e := m.lookup(maphash.String(m.seed, "http://b:80")); e != a {
		t.Fatal("the collision was not made")
	}
	if m.get([]byte("http://b:80")) != nil || m.peek("http://b:80") != nil {
		t.Error("a lookup of b found a's entry through the colliding hash")
	}
	if m.get([]byte("http://a:80")) != a {
		t.Error("a's own entry is lost")
	}
}

func TestMemCacheConcurrent(t *testing.T) {
	m := newMemCache(50, 1<<20, time.Now, true)
	defer m.close()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				k := fmt.Sprintf("http://h%d:80", (i*7+g)%80)
				if e := m.get([]byte(k)); e != nil && (e.key != k || m.expired(e)) {
					t.Errorf("get(%s) = entry of %s, fresh %v", k, e.key, !m.expired(e))
					return
				}
				if i%3 == g%3 {
					m.put(memEntry(k, 10))
				}
				if i%97 == 0 {
					m.forget(k)
				}
			}
		}()
	}
	wg.Wait()
	if n := m.len(); n > 50 {
		t.Errorf("%d entries, bound 50", n)
	}
	var sum int64
	for i := range 80 {
		if e := m.peek(fmt.Sprintf("http://h%d:80", i)); e != nil {
			sum += e.size
		}
	}
	if sum != m.retained() {
		t.Errorf("retained %d, entries sum to %d", m.retained(), sum)
	}
}

func TestMemCacheCoarseClock(t *testing.T) {
	m := newMemCache(10, 1<<20, time.Now, true)
	e := memEntry("http://a:80", 1)
	e.expiresAt = time.Now().Add(50 * time.Millisecond).UnixNano()
	m.put(e)
	if m.expired(e) {
		t.Fatal("fresh entry read as expired")
	}
	deadline := time.Now().Add(2 * time.Second)
	for !m.expired(e) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if !m.expired(e) {
		t.Error("entry still fresh 2 s after its expiry")
	}
	m.close()
	e.expiresAt = time.Now().Add(-time.Second).UnixNano()
	if !m.expired(e) {
		t.Error("after close, an expired entry is read as fresh")
	}
}

// TestCacheNotModifiedEndsOutage checks that a 304 after an outage ends
// it: the next outage counts from its own start.
func TestCacheNotModifiedEndsOutage(t *testing.T) {
	checkLeaks(t)
	clock := newTestClock()
	s := newSite(t, serve(200, privateRules, "ETag", `"v1"`, "Cache-Control", "max-age=60"))
	c := newTestClient(t, WithClock(clock.Now))
	ctx := context.Background()
	u := s.URL + "/"
	if _, err := c.Allowed(ctx, u); err != nil {
		t.Fatal(err)
	}
	key, _, _ := SplitURL(u)
	clock.Advance(2 * time.Minute)
	s.set(serve(503, ""))
	if d, err := c.Check(ctx, u); err != nil || !d.Stale {
		t.Fatalf("during the outage: %+v, %v; want the stale copy", d, err)
	}
	if e := c.cache.peek(key); e.failures != 1 || e.since.IsZero() {
		t.Fatalf("outage not recorded: failures %d since %v", e.failures, e.since)
	}
	clock.Advance(2 * time.Minute)
	s.set(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") != `"v1"` {
			t.Errorf("revalidation without the ETag")
		}
		w.WriteHeader(http.StatusNotModified)
	})
	if d, err := c.Check(ctx, u); err != nil || d.Stale {
		t.Fatalf("after a 304: %+v, %v", d, err)
	}
	if e := c.cache.peek(key); e.failures != 0 || !e.since.IsZero() {
		t.Errorf("after a 304: failures %d, since %v; want the outage ended", e.failures, e.since)
	}
}

// TestCacheClockStopsWithoutClose checks the promise that a Client
// dropped without Close does not leave its clock goroutine behind.
func TestCacheClockStopsWithoutClose(t *testing.T) {
	clock := func() *coarseClock {
		c := NewClient()
		return c.cache.coarse // the clock alone does not keep c alive
	}()
	deadline := time.Now().Add(10 * time.Second)
	for clock.now.Load() != 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if clock.now.Load() != 0 {
		t.Error("the clock of a collected Client still runs")
	}
}

// TestCacheBytesBudget fills a Client whose byte budget holds a few
// entries: the least recently used are evicted to keep it, and Stats
// reports what is retained.
func TestCacheBytesBudget(t *testing.T) {
	checkLeaks(t)
	body := "User-agent: *\n" + strings.Repeat("Disallow: /private-area-of-this-site/\n", 40)
	c := newTestClient(t, WithCacheBytes(8<<10))
	ctx := context.Background()
	var sites []*site
	for range 12 {
		s := newSite(t, serve(200, body))
		sites = append(sites, s)
		if ok, err := c.Allowed(ctx, s.URL+"/private-area-of-this-site/x"); ok || err != nil {
			t.Fatalf("Allowed = %v, %v", ok, err)
		}
	}
	st := c.Stats()
	if st.Bytes > 8<<10 || st.Bytes <= 0 || st.Evictions == 0 || st.Entries+int(st.Evictions) != 12 {
		t.Fatalf("Stats: %d bytes in %d entries, %d evictions; want at most 8 KiB, some evicted", st.Bytes, st.Entries, st.Evictions)
	}
	if _, ok := c.Cached(sites[0].URL); ok {
		t.Error("the least recently used site was kept")
	}
	if _, ok := c.Cached(sites[11].URL); !ok {
		t.Error("the most recent site was evicted")
	}
}

// TestMemCacheListMatchesIndex puts, replaces, uses, grows and forgets
// entries at random and checks after each step that the recency list
// and the index hold the same entries, that the list is linked both ways,
// and that the byte count is their sum.
func TestMemCacheListMatchesIndex(t *testing.T) {
	m := newMemCache(20, 3000, time.Now, false)
	rng := rand.New(rand.NewPCG(1, 2))
	for step := range 5000 {
		key := fmt.Sprintf("http://h%d:80", rng.IntN(40))
		switch rng.IntN(5) {
		case 0, 1:
			m.put(memEntry(key, int64(1+rng.IntN(400))))
		case 2:
			m.get([]byte(key))
			if rng.IntN(4) == 0 {
				m.gen.Add(1)
			}
		case 3:
			if e := m.peek(key); e != nil {
				m.grow(e, int64(rng.IntN(100)))
			}
		case 4:
			m.forget(key)
		}
		m.mu.Lock()
		n, bytes := 0, int64(0)
		for e := m.recent.next; e != &m.recent; e = e.next {
			if e.next.prev != e || m.lookup(maphash.String(m.seed, e.key)) != e {
				m.mu.Unlock()
				t.Fatalf("step %d: %s badly linked or not indexed", step, e.key)
			}
			n++
			bytes += e.size
		}
		indexed := 0
		for i := range m.shards {
			indexed += len(slots(m.shards[i].p.Load()))
		}
		ok := n == m.n && n == indexed && bytes == m.bytes && n <= m.max && (bytes <= m.budget || n == 1)
		m.mu.Unlock()
		if !ok {
			t.Fatalf("step %d: %d listed, n = %d, %d indexed, %d bytes listed, %d counted", step, n, m.n, indexed, bytes, m.bytes)
		}
	}
}
