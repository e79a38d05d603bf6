package redisstore

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
)

// TestLeaseExclusiveAcrossStores: of many concurrent takers on two Stores
// sharing one Redis (two processes of a fleet, say), exactly one gets the
// lease and the others get ok=false with no error. storetest checks one
// Store; this checks that the lease lives in Redis, not in the Store.
func TestLeaseExclusiveAcrossStores(t *testing.T) {
	_, rdb := newRedis(t)
	stores := []*Store{New(rdb, WithLogger(quietLogger), WithTimeout(generous)), New(rdb, WithLogger(quietLogger), WithTimeout(generous))}
	var taken atomic.Int32
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			_, ok, err := stores[i%2].Lease(t.Context(), authority, time.Minute)
			if err != nil {
				t.Errorf("Lease: %v", err)
			}
			if ok {
				taken.Add(1)
			}
		})
	}
	wg.Wait()
	if n := taken.Load(); n != 1 {
		t.Fatalf("%d takers got the lease, want 1", n)
	}
}

func TestLeaseSetsTTL(t *testing.T) {
	s, rdb, _ := newStore(t)
	ttl := 5 * time.Second
	if _, ok, err := s.Lease(t.Context(), authority, ttl); err != nil || !ok {
		t.Fatalf("Lease: ok=%v err=%v", ok, err)
	}
	got := rdb.PTTL(t.Context(), s.leaseKey(authority)).Val()
	if got <= 0 || got > ttl {
		t.Fatalf("lease PTTL = %v, want in (0, %v]", got, ttl)
	}
	if _, _, err := s.Lease(t.Context(), "other", 0); err == nil {
		t.Fatal("Lease with ttl 0: no error")
	}
}

// TestLeaseTakesOverGarbage: a lease key without expiry (or of another
// type) was not written by a Store and must not block leasing forever; a
// lease key with an expiry is someone's lease and is respected.
func TestLeaseTakesOverGarbage(t *testing.T) {
	s, rdb, _ := newStore(t)
	key := s.leaseKey(authority)
	ctx := t.Context()
	spoil := map[string]func() error{
		"string without expiry": func() error { return rdb.Set(ctx, key, "junk", 0).Err() },
		"list":                  func() error { return rdb.RPush(ctx, key, "a").Err() },
		"hash":                  func() error { return rdb.HSet(ctx, key, "f", "v").Err() },
	}
	for name, spoilKey := range spoil {
		rdb.Del(ctx, key)
		if err := spoilKey(); err != nil {
			t.Fatal(err)
		}
		release, ok, err := s.Lease(ctx, authority, time.Minute)
		if err != nil || !ok {
			t.Fatalf("%s at the lease key: ok=%v err=%v, want the lease taken", name, ok, err)
		}
		release()
	}
	rdb.Set(ctx, key, "another-holder", time.Minute)
	if _, ok, err := s.Lease(ctx, authority, time.Minute); err != nil || ok {
		t.Fatalf("lease held by another: ok=%v err=%v, want false, nil", ok, err)
	}
}

// TestLeaseReleaseOutlivesContext: release works after the context given
// to Lease is cancelled (a caller that gave up still frees the lease).
func TestLeaseReleaseOutlivesContext(t *testing.T) {
	s, rdb, _ := newStore(t)
	ctx, cancel := context.WithCancel(t.Context())
	release, ok, err := s.Lease(ctx, authority, time.Minute)
	if err != nil || !ok {
		t.Fatalf("Lease: ok=%v err=%v", ok, err)
	}
	cancel()
	release()
	if n := rdb.Exists(t.Context(), s.leaseKey(authority)).Val(); n != 0 {
		t.Fatal("lease still held after release")
	}
}

// TestLeaseScriptRunAgain: the lease script run again with the token it
// took the lease with, as go-redis sends it after a cut reply, finds the
// lease its own; with another token, taken.
func TestLeaseScriptRunAgain(t *testing.T) {
	s, rdb, _ := newStore(t)
	k := s.leaseKey(authority)
	for i, token := range []string{"mine", "mine", "theirs"} {
		n, err := acquireScript.Run(t.Context(), rdb, []string{k}, token, int64(60000)).Int64()
		if want := int64(map[bool]int{true: 1}[token == "mine"]); err != nil || n != want {
			t.Fatalf("run %d with token %q: %d, %v; want %d", i+1, token, n, err, want)
		}
	}
}

// TestLeaseReleaseWithBreakerOpen: a process holding a fetch lease whose
// breaker opened (three of its calls timed out in a Redis stall) gives
// the lease back once Redis answers again, so that another process, whose
// Redis works, need not wait out its lease wait for a result nobody is
// fetching.
func TestLeaseReleaseWithBreakerOpen(t *testing.T) {
	srv, rdb := newRedis(t)
	w := newWeb(t)
	host := crawltest.Hosts("breakerlease", 1)[0]
	authority := "http://" + host + ":80"

	// Process A: takes the lease on the site, as its Client does before
	// fetching, with a Store timeout of 100 ms.
	a := dialStore(t, srv.Addr(), WithTimeout(100*time.Millisecond))
	lctx, cancel := context.WithTimeout(context.Background(), time.Second)
	release, ok, err := a.Lease(lctx, authority, 15400*time.Millisecond) // the Client's default lease TTL
	cancel()
	if err != nil || !ok {
		t.Fatalf("Lease = %v, %v", ok, err)
	}

	tripBreaker(t, srv, a, rdb) // a Redis stall of a few hundred ms

	// A's fetch ends: it gives the lease back. Redis answers again.
	release()
	ttl, err := rdb.PTTL(context.Background(), a.leaseKey(authority)).Result()
	if err != nil {
		t.Fatal(err)
	}
	if ttl > 0 {
		t.Errorf("after A's release, with Redis answering, the lease is still in Redis for %v: release was refused by A's open breaker", ttl)
	}

	// Process B, on the same Redis, which works for it: its check of the
	// site waits for A's lease.
	const leaseWait = 3 * time.Second
	b := newDefaultProcess(t, srv.Addr(), w, robotstxt.WithLeaseWait(leaseWait, 0))
	start := time.Now()
	if err := checkOne(b, crawltest.Probes(host)[0]); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > leaseWait/2 {
		t.Errorf("B's first check of the site took %v (its lease wait is %v): it waited for a lease A had released", took.Round(time.Millisecond), leaseWait)
	}
}

// TestLeaseTimedOutGivenBack: a Redis stall makes process A's Lease call
// time out, but its script was sent and runs when Redis wakes. A fetches
// without the lease, and its breaker, opened by the same stall, refuses
// its Set: unless A gives the lease back, process B, on the same Redis,
// waits its whole lease wait for a fetch nobody makes.
func TestLeaseTimedOutGivenBack(t *testing.T) {
	checkLeaks(t)
	srv, rdb := newRedis(t)
	w := newWeb(t, crawltest.WithDelay(500*time.Millisecond))
	host := crawltest.Hosts("orphanlease", 1)[0]
	authority := "http://" + host + ":80"
	p := crawltest.Probes(host)[0]

	// Process A, whose pool holds a few idle connections, as a busy
	// crawler's does; the default 200 ms timeout.
	rdbA := redis.NewClient(&redis.Options{Addr: srv.Addr(), MinIdleConns: 4})
	t.Cleanup(func() { _ = rdbA.Close() })
	waitUntil(t, "A's pool warm", func() bool { return rdbA.PoolStats().IdleConns >= 4 })
	storeA := New(rdbA, WithLogger(quietLogger))
	// The fleet has run a while: Redis has the lease script cached.
	if _, ok, err := storeA.Lease(t.Context(), "http://earlier.test:80", time.Second); !ok || err != nil {
		t.Fatalf("Lease = %v, %v", ok, err)
	}
	a := newClient(t, storeA, w.HTTPClient())

	srv.Pause()
	resumed := false
	defer func() {
		if !resumed {
			srv.Resume()
		}
	}()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // A checks the site: Get (fails), Lease (fails, but is sent), fetch, Set
		defer wg.Done()
		_ = checkOne(a, p)
	}()
	// While A fetches, another of A's calls fails: its breaker opens,
	// as it does with a crawler's many concurrent checks.
	time.Sleep(450 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	_, _ = storeA.Get(ctx, "http://other.test:80")
	cancel()
	wg.Wait()
	srv.Resume()
	resumed = true
	time.Sleep(100 * time.Millisecond) // Redis runs what was queued

	ttl, _ := rdb.PTTL(context.Background(), storeA.leaseKey(authority)).Result()
	t.Logf("after the stall: lease key PTTL %v, value stored: %v", ttl, rdb.Exists(context.Background(), storeA.valueKey(authority)).Val() == 1)

	// Process B: a healthy process of the fleet.
	const leaseWait = 3 * time.Second
	b := newDefaultProcess(t, srv.Addr(), w, robotstxt.WithLeaseWait(leaseWait, 0))
	start := time.Now()
	if err := checkOne(b, p); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > leaseWait/2 {
		t.Errorf("B's check took %v (lease wait %v): it waited out a lease that A's timed-out Lease call left in Redis, which no process holds or releases",
			took.Round(time.Millisecond), leaseWait)
	}
}

// TestReleaseBoundedAsLease: a fetch lease's release is bounded as its
// Lease call was, by the Client's Store timeout (robotstxt.Leaser: release
// "must also return promptly (bound it as Lease is bounded): the checks
// waiting for the fetch have their answer once it returns"), not only by
// the Store's own, longer timeout (one raised for its Pacer's calls, say).
// Redis hangs while the lease holder fetches robots.txt: the check that
// started the fetch must not wait the Store's 2 s for the release when
// WithStoreTimeout is 100 ms.
func TestReleaseBoundedAsLease(t *testing.T) {
	srv, admin := newRedis(t)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			// Redis hangs while the robots.txt is fetched, under the lease.
			if err := admin.Do(context.Background(), "CLIENT", "PAUSE", 3000, "ALL").Err(); err != nil {
				t.Error(err)
			}
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /x\n")
		}
	}))
	t.Cleanup(hs.Close)
	var d net.Dialer
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, hs.Listener.Addr().String()) // every name to the test server
	}}}
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), ContextTimeoutEnabled: true})
	t.Cleanup(func() { _ = rdb.Close() })
	store := New(rdb, WithLogger(quietLogger), WithTimeout(2*time.Second))
	c := robotstxt.NewClient(robotstxt.WithStore(store), robotstxt.WithHTTPClient(hc),
		robotstxt.WithStoreTimeout(100*time.Millisecond))
	t.Cleanup(func() { _ = c.Close() })
	start := time.Now()
	ok, err := c.Allowed(context.Background(), "http://site.test/x")
	took := time.Since(start)
	if err != nil || ok {
		t.Fatalf("Allowed(/x) = %v, %v; want false, nil", ok, err)
	}
	// The look-up under the lease, the write and the release: three
	// calls of 100 ms at most, beside a fetch of a few ms.
	if took > 1800*time.Millisecond {
		t.Errorf("the check took %v with WithStoreTimeout(100ms): the lease's release waited out the Store's 2 s timeout", took.Round(time.Millisecond))
	}
}

// FuzzLeaseReply feeds Lease any reply value to its script, as go-redis
// hands over what a hostile or broken Redis sent (set in a hook: go-redis's
// own reading of the wire is not under test): the lease is taken only for the number 1 (or
// its decimal string), with a release that takes any reply; any other
// number is another holder's lease, with no error; any other reply an
// error. Never a panic.
func FuzzLeaseReply(f *testing.F) {
	f.Add(uint8(5), int64(1), "", "")
	f.Add(uint8(5), int64(0), "", "")
	f.Add(uint8(5), int64(-1), "", "")
	f.Add(uint8(6), int64(0), "1", "")
	f.Add(uint8(6), int64(0), "+1", "")
	f.Add(uint8(0), int64(1), "", "")
	f.Add(uint8(9), int64(0), "", "")
	f.Add(uint8(10), int64(0), "NOSCRIPT No matching script", "ERR")
	f.Fuzz(func(t *testing.T, shape uint8, a int64, text, releaseText string) {
		h := &replyHook{hostile: map[string]bool{acquireScript.Hash(): true, releaseScript.Hash(): true}}
		h.val, h.err = hostileReply(shape, a, a, text)
		s, done := newHookedStore(h)
		defer done()
		release, ok, err := s.Lease(context.Background(), authority, time.Second)
		n, isInt := h.val.(int64)
		if str, isString := h.val.(string); isString {
			var perr error
			n, perr = strconv.ParseInt(str, 10, 64)
			isInt = perr == nil
		}
		isInt = isInt && h.err == nil
		switch {
		case isInt && n == 1:
			if !ok || err != nil || release == nil {
				t.Fatalf("reply %#v: Lease = %v, %v; want the lease", h.val, ok, err)
			}
			h.val, h.err = hostileReply(shape+1, a, a, releaseText)
			release()
			release()
		case isInt:
			if ok || err != nil || release != nil {
				t.Fatalf("reply %#v: Lease = %v, %v; want another's lease, no error", h.val, ok, err)
			}
		default:
			if ok || err == nil || release != nil {
				t.Fatalf("reply %#v, %v: Lease = %v, %v; want an error", h.val, h.err, ok, err)
			}
		}
	})
}
