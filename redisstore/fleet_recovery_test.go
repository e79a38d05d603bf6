package redisstore

import (
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt/internal/crawltest"
	"github.com/robotsgate/robotstxt/internal/longtest"
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
