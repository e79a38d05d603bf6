package redisstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
	"github.com/robotsgate/robotstxt/internal/longtest"
	"github.com/robotsgate/robotstxt/internal/redistest"
)

// TestFleetRedisRestartResumesSharing: while Redis is down each process
// fetches for itself and answers right; once Redis is back (empty, same
// address) the same processes share fetches again, without being
// recreated.
func TestFleetRedisRestartResumesSharing(t *testing.T) {
	longtest.Gate(t)
	srv, _ := newRedis(t)
	w := newWeb(t)
	a := newDefaultProcess(t, srv.Addr(), w)
	b := newDefaultProcess(t, srv.Addr(), w)
	before := crawltest.Hosts("before", 3)
	checkAll(t, a, before)
	checkAll(t, b, before)

	srv.Kill()
	during := crawltest.Hosts("during", 3)
	checkAll(t, a, during)
	checkAll(t, b, during)

	srv.Restart()
	deadline := time.Now().Add(10 * time.Second) // the Store probes Redis every second
	for i := 0; ; i++ {
		h := crawltest.Host("after", i)
		checkAll(t, a, []string{h})
		checkAll(t, b, []string{h})
		if w.Fetches(h) == 1 {
			t.Logf("sharing resumed at the %d. site checked after the restart", i+1)
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("Redis is back but the processes never shared a fetch again")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestFleetGarbageOverEveryKey: every key the fleet wrote, and every lease
// key, is overwritten with garbage: random bytes, empty, other versions,
// truncated or padded entries, other Redis types. A fresh process still
// answers right without delay, refetching; its writes replace the garbage,
// so a third process is served from Redis again.
func TestFleetGarbageOverEveryKey(t *testing.T) {
	srv, rdb := newRedis(t)
	w := newWeb(t)
	hs := crawltest.Hosts("garbage", 10)
	checkAll(t, newProcess(t, srv.Addr(), w), hs)

	keys, err := rdb.Keys(t.Context(), defaultPrefix+"*").Result()
	if err != nil || len(keys) != len(hs) {
		t.Fatalf("keys after the first process: %q, %v; want %d", keys, err, len(hs))
	}
	for i, k := range keys {
		spoil(t, rdb, k, i)
		spoil(t, rdb, k+":lease", i)
	}

	b := newProcess(t, srv.Addr(), w)
	start := time.Now()
	checkAll(t, b, hs)
	if d := time.Since(start); d > ceiling {
		t.Errorf("checking %d sites over garbage took %v, over the %v ceiling", len(hs), d, ceiling)
	}
	for _, h := range hs {
		if n := w.Fetches(h); n != 2 {
			t.Errorf("%s: %d fetches, want 2 (the garbage is a miss)", h, n)
		}
	}

	c := newProcess(t, srv.Addr(), w)
	checkAll(t, c, hs)
	if n := w.Fetches(""); n != 2*len(hs) {
		t.Errorf("third process fetched %d times, want 0: the garbage was not overwritten", n-2*len(hs))
	}
}

// spoil overwrites key with the i-th kind of garbage (cycling), without
// expiry.
func spoil(t *testing.T, rdb *redis.Client, key string, i int) {
	t.Helper()
	ctx := t.Context()
	valid, _ := rdb.Get(ctx, key).Bytes() // empty for a lease key
	junk := []func() error{
		func() error { return rdb.Set(ctx, key, []byte{0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3, 0xff}, 0).Err() },
		func() error { return rdb.Set(ctx, key, "", 0).Err() },
		func() error { return rdb.Set(ctx, key, "not an entry at all", 0).Err() },
		func() error { return rdb.Set(ctx, key, otherVersion(valid), 0).Err() },
		func() error { return rdb.Set(ctx, key, valid[:len(valid)/2], 0).Err() },
		func() error { return rdb.Set(ctx, key, append(valid, "trailing"...), 0).Err() },
		func() error { rdb.Del(ctx, key); return rdb.RPush(ctx, key, "a", "b").Err() },
		func() error { rdb.Del(ctx, key); return rdb.HSet(ctx, key, "f", "v").Err() },
		func() error { rdb.Del(ctx, key); return rdb.ZAdd(ctx, key, redis.Z{Score: 1, Member: "m"}).Err() },
	}
	if err := junk[i%len(junk)](); err != nil {
		t.Fatalf("spoiling %s: %v", key, err)
	}
}

// otherVersion returns v with its leading version byte changed.
func otherVersion(v []byte) []byte {
	if len(v) == 0 {
		return []byte{0x7f}
	}
	o := append([]byte(nil), v...)
	o[0]++
	return o
}

// failoverClient returns a cluster client set up as the package doc
// and ExampleNew_cluster say.
func failoverClient(t *testing.T, cl *redistest.Cluster) *redis.ClusterClient {
	t.Helper()
	cc := redis.NewClusterClient(&redis.ClusterOptions{
		Addrs:                 cl.Addrs(),
		ContextTimeoutEnabled: true,
		DialerRetries:         1,
		DialTimeout:           500 * time.Millisecond,
	})
	t.Cleanup(func() { _ = cc.Close() })
	return cc
}

// onMaster returns an authority whose keys live on master's slots.
func onMaster(t *testing.T, cl *redistest.Cluster, s *Store, master, not string) string {
	t.Helper()
	ranges := cl.SlotRanges(master)
	for i := range 10000 {
		a := fmt.Sprintf("https://site%d.example:443", i)
		if a == not {
			continue
		}
		slot := cl.KeySlot(s.valueKey(a))
		if slices.ContainsFunc(ranges, func(r [2]int) bool { return r[0] <= slot && slot <= r[1] }) {
			return a
		}
	}
	t.Fatalf("no authority on %s", master)
	return ""
}

// TestFailoverEndsTurnAndLease: a paced turn and a fetch lease are
// taken on a master, and replicated to its replica. The master is
// SIGKILLed while the request and the fetch are out; the turn's Done and
// the lease's release then fail (the master is dead), and are sent again
// until the replica, promoted, answers: sharing and pacing stop "until
// its replica is promoted", as the package doc says. Nothing sent them
// again: the promoted replica held the ended turn for its whole 30 s
// lease, and the released lease for its whole TTL.
func TestFailoverEndsTurnAndLease(t *testing.T) {
	longtest.Gate(t)
	cl := redistest.StartCluster(t, 3, 1, time.Second, "--cluster-require-full-coverage", "no")
	ctx := context.Background()
	a := New(failoverClient(t, cl), WithLogger(quietLogger)) // the process that sends and fetches
	b := New(failoverClient(t, cl), WithLogger(quietLogger)) // another process of the fleet

	victim := cl.MasterOf(0)
	site := onMaster(t, cl, a, victim, "")
	lsite := onMaster(t, cl, a, victim, site)
	const interval = time.Second
	const leaseTTL = 15400 * time.Millisecond // the Client's default lease TTL

	// Let both Stores load the slot map.
	waitUntil(t, "slot maps", func() bool {
		_, e1 := a.Get(ctx, "warm")
		_, e2 := b.Get(ctx, "warm")
		return (e1 == nil || isMiss(e1)) && (e2 == nil || isMiss(e2))
	})

	id, wait, err := a.Take(ctx, site, interval)
	if err != nil || id == 0 || wait != 0 {
		t.Fatalf("Take: id=%d wait=%v err=%v", id, wait, err)
	}
	release, ok, err := a.Lease(ctx, lsite, leaseTTL)
	if err != nil || !ok {
		t.Fatalf("Lease: ok=%v err=%v", ok, err)
	}
	// Both are on the replica, as they are within a millisecond or two.
	adm := redis.NewClient(&redis.Options{Addr: victim})
	if n, err := adm.Wait(ctx, 1, 2000).Result(); err != nil || n != 1 {
		t.Fatalf("WAIT: %d, %v", n, err)
	}
	_ = adm.Close()

	cl.Kill(victim)
	killedAt := time.Now()
	// The request's response comes and the fetch ends: the turn ends,
	// and the lease is given back (the result stored, or not).
	doneErr := a.Done(ctx, site, id, interval, 0)
	release()
	t.Logf("Done after the kill: %v", doneErr)

	slot := cl.KeySlot(a.paceKey(site))
	cl.AwaitPromotion(slot, victim)
	promotedAt := time.Now()
	t.Logf("replica promoted %v after the kill", promotedAt.Sub(killedAt).Round(time.Millisecond))

	// From now on the fleet should pace the site and share its robots.txt
	// again: a turn at most one interval after the request ended (plus
	// resumeBound for the Stores to find the new master), and the lease
	// free, since its holder gave it back.
	freedSoon(t, b, site, lsite, interval, leaseTTL, "the promotion", promotedAt)
}

// freedSoon checks that process b takes a turn at site and the lease on
// lsite soon after since (what names it), as another process ended and
// gave them back while Redis could not be reached: a failed end is sent
// again every retryAfter, the first try after since may still meet the
// old slot map, and then the site's interval runs. Broken, the turn was
// held for its 30 s lease and the lease for its TTL.
func freedSoon(t *testing.T, b *Store, site, lsite string, interval, leaseTTL time.Duration, what string, since time.Time) {
	t.Helper()
	ctx := context.Background()
	bound := since.Add(resumeBound + 2*retryAfter + interval)
	var turnAt, leaseAt time.Time
	for giveUp := time.Now().Add(45 * time.Second); time.Now().Before(giveUp) && (turnAt.IsZero() || leaseAt.IsZero()); time.Sleep(100 * time.Millisecond) {
		if turnAt.IsZero() {
			if id, _, err := b.Take(ctx, site, interval); err == nil && id != 0 {
				turnAt = time.Now()
				_ = b.Done(ctx, site, id, interval, 0)
			}
		}
		if leaseAt.IsZero() {
			if rel, ok, err := b.Lease(ctx, lsite, leaseTTL); err == nil && ok {
				leaseAt = time.Now()
				rel()
			}
		}
	}
	for _, c := range []struct {
		name string
		at   time.Time
	}{{"another process's first turn at the site", turnAt}, {"another process's first lease on the site fetched", leaseAt}} {
		switch {
		case c.at.IsZero():
			t.Errorf("%s: never, within 45 s of %s", c.name, what)
		case c.at.After(bound):
			t.Errorf("%s: %v after %s; want within %v", c.name, c.at.Sub(since).Round(time.Millisecond), what, bound.Sub(since))
		default:
			t.Logf("%s: %v after %s", c.name, c.at.Sub(since).Round(time.Millisecond), what)
		}
	}
}

func isMiss(err error) bool { return errors.Is(err, robotstxt.ErrCacheMiss) }

// TestRestartEndsTurnAndLease: Redis, persisting its state with
// appendonly as the package doc advises for pacing, is SIGKILLed while a
// paced request and a robots.txt fetch are out, and restarted on the
// same port and directory a second later. The request's Done and the
// fetch's release, which failed while it was down, are sent again once
// it is back: the restored state held the ended turn for its whole 30 s
// lease, and the given-back lease for its whole TTL.
func TestRestartEndsTurnAndLease(t *testing.T) {
	longtest.Gate(t)
	srv := redistest.Start(t, "--appendonly", "yes", "--appendfsync", "always")
	dial := func() *Store {
		rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), ContextTimeoutEnabled: true})
		t.Cleanup(func() { _ = rdb.Close() })
		return New(rdb, WithLogger(quietLogger))
	}
	a, b := dial(), dial()
	ctx := context.Background()
	const site, lsite = "https://paced.example:443", "https://fetched.example:443"
	const interval = time.Second
	const leaseTTL = 15400 * time.Millisecond // the Client's default lease TTL

	id, wait, err := a.Take(ctx, site, interval)
	if err != nil || id == 0 || wait != 0 {
		t.Fatalf("Take: id=%d wait=%v err=%v", id, wait, err)
	}
	release, ok, err := a.Lease(ctx, lsite, leaseTTL)
	if err != nil || !ok {
		t.Fatalf("Lease: ok=%v err=%v", ok, err)
	}
	srv.Kill()
	// The response comes and the fetch ends while Redis is down.
	doneErr := a.Done(ctx, site, id, interval, 0)
	release()
	t.Logf("Done while Redis was down: %v", doneErr)
	time.Sleep(time.Second)
	srv.Restart()
	upAt := time.Now()

	freedSoon(t, b, site, lsite, interval, leaseTTL, "Redis was back", upAt)
}

// TestRestartLeavesFleetPaced: what a crawler sees of
// TestRestartEndsTurnAndLease. Process A's Transport sends a page of a
// site with "Crawl-delay: 1"; Redis (appendonly) dies while the page
// downloads and is back a second later. Process B's Transport then asks
// for a page of the site, within 5 s: the site has been sent nothing for
// over two seconds, and B's request is sent (it was refused, the turn
// held for its lease).
func TestRestartLeavesFleetPaced(t *testing.T) {
	longtest.Gate(t)
	srv := redistest.Start(t, "--appendonly", "yes", "--appendfsync", "always")
	release := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nCrawl-delay: 1\n")
		case "/slow":
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			<-release
			fmt.Fprint(w, "done")
		default:
			fmt.Fprint(w, "page")
		}
	}))
	t.Cleanup(hs.Close)
	site := hs.URL
	process := func() *http.Client {
		rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), ContextTimeoutEnabled: true})
		t.Cleanup(func() { _ = rdb.Close() })
		s := New(rdb, WithLogger(quietLogger))
		c := newClient(t, s, http.DefaultClient)
		return &http.Client{Transport: robotstxt.NewTransport(c, http.DefaultTransport, robotstxt.WithPacer(s))}
	}
	a, b := process(), process()
	resp, err := a.Get(site + "/slow")
	if err != nil {
		t.Fatal(err)
	}
	srv.Kill()
	close(release)
	_, _ = io.ReadAll(resp.Body) // the turn ends here: Done fails, Redis is down
	_ = resp.Body.Close()
	endedAt := time.Now()
	time.Sleep(time.Second)
	srv.Restart()
	time.Sleep(time.Second)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, site+"/page", nil)
	start := time.Now()
	resp, err = b.Do(req)
	if err != nil {
		t.Fatalf("B's request, %v after A's page ended (Crawl-delay 1 s), failed after %v: %v",
			start.Sub(endedAt).Round(time.Millisecond), time.Since(start).Round(time.Millisecond), err)
	}
	_ = resp.Body.Close()
	t.Logf("B's request sent after %v", time.Since(start))
}
