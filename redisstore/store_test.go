package redisstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/storetest"
)

const authority = "https://example.com:443"

// TestStoreContract runs the Store contract (storetest) against a Store on
// a real Redis, standalone and as a one-node cluster. Every Store gets its
// own key prefix on the server, so each check starts empty.
func TestStoreContract(t *testing.T) {
	_, standalone := newRedis(t)
	for _, c := range []struct {
		name string
		rdb  redis.UniversalClient
	}{{"standalone", standalone}, {"cluster", newOneNodeCluster(t)}} {
		t.Run(c.name, func(t *testing.T) {
			var n atomic.Int64
			storetest.Run(t, func(*testing.T) robotstxt.Store {
				prefix := fmt.Sprintf("contract%d:", n.Add(1))
				return New(c.rdb, WithPrefix(prefix), WithLogger(quietLogger), WithTimeout(generous))
			})
		})
	}
}

func TestSetAppliesTTL(t *testing.T) {
	s, rdb, _ := newStore(t)
	ttl := 90 * time.Minute
	if err := s.Set(t.Context(), authority, []byte("v"), ttl); err != nil {
		t.Fatal(err)
	}
	got, err := rdb.PTTL(t.Context(), "robotstxt:{"+authority+"}").Result()
	if err != nil {
		t.Fatal(err)
	}
	if got <= ttl-time.Minute || got > ttl {
		t.Fatalf("PTTL = %v, want just under %v", got, ttl)
	}
}

func TestSetRejectsNonPositiveTTL(t *testing.T) {
	s, rdb, _ := newStore(t)
	for _, ttl := range []time.Duration{0, -time.Second} {
		if err := s.Set(t.Context(), authority, []byte("v"), ttl); err == nil {
			t.Errorf("Set with ttl %v: no error", ttl)
		}
	}
	if n := rdb.DBSize(t.Context()).Val(); n != 0 {
		t.Fatalf("rejected Sets left %d keys", n)
	}
}

func TestKeyLayout(t *testing.T) {
	tests := []struct {
		opts      []Option
		value     string
		leaseName string
	}{
		{nil, "robotstxt:{https://example.com:443}", "robotstxt:{https://example.com:443}:lease"},
		{[]Option{WithPrefix("crawl:v2:")}, "crawl:v2:{https://example.com:443}", "crawl:v2:{https://example.com:443}:lease"},
		{[]Option{WithPrefix("bad{tag}:")}, "badtag:{https://example.com:443}", "badtag:{https://example.com:443}:lease"},
	}
	for _, tt := range tests {
		s, rdb, _ := newStore(t, tt.opts...)
		if err := s.Set(t.Context(), authority, []byte("v"), time.Minute); err != nil {
			t.Fatal(err)
		}
		release, ok, err := s.Lease(t.Context(), authority, time.Minute)
		if err != nil || !ok {
			t.Fatalf("Lease: ok=%v err=%v", ok, err)
		}
		keys, err := rdb.Keys(t.Context(), "*").Result()
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{tt.value: true, tt.leaseName: true}
		if len(keys) != 2 || !want[keys[0]] || !want[keys[1]] {
			t.Errorf("keys = %q, want %q and %q", keys, tt.value, tt.leaseName)
		}
		release()
	}
}

func TestPrefixesAreSeparateCaches(t *testing.T) {
	_, rdb := newRedis(t)
	a := New(rdb, WithPrefix("a:"), WithLogger(quietLogger), WithTimeout(generous))
	b := New(rdb, WithPrefix("b:"), WithLogger(quietLogger), WithTimeout(generous))
	if err := a.Set(t.Context(), authority, []byte("v"), time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Get(t.Context(), authority); !errors.Is(err, robotstxt.ErrCacheMiss) {
		t.Fatalf("store with another prefix: err = %v, want ErrCacheMiss", err)
	}
}

// TestWrongTypeIsMiss: a key someone turned into a list or hash reads as a
// miss, and the next Set replaces it.
func TestWrongTypeIsMiss(t *testing.T) {
	s, rdb, _ := newStore(t)
	key := s.valueKey(authority)
	spoil := []func() error{
		func() error { return rdb.RPush(t.Context(), key, "a", "b").Err() },
		func() error { return rdb.HSet(t.Context(), key, "f", "v").Err() },
		func() error { return rdb.SAdd(t.Context(), key, "m").Err() },
	}
	for i, spoilKey := range spoil {
		_ = rdb.Del(t.Context(), key)
		if err := spoilKey(); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(t.Context(), authority); !errors.Is(err, robotstxt.ErrCacheMiss) {
			t.Fatalf("case %d: Get of a wrong-type key: err = %v, want ErrCacheMiss", i, err)
		}
		if err := s.Set(t.Context(), authority, []byte("fresh"), time.Minute); err != nil {
			t.Fatalf("case %d: Set over a wrong-type key: %v", i, err)
		}
		if got, err := s.Get(t.Context(), authority); err != nil || string(got) != "fresh" {
			t.Fatalf("case %d: Get after Set = %q, %v", i, got, err)
		}
	}
}

func TestNewPanicsOnNilClient(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("New(nil) did not panic")
		}
	}()
	New(nil)
}

// TestGetBoundsValue writes a 64 MiB value under a key, as anyone who can
// write to Redis can: Get reads no more than its bound and reports it,
// and a value of the bound's size, an empty value and a missing key read
// as they should.
func TestGetBoundsValue(t *testing.T) {
	s, rdb, _ := newStore(t, WithMaxValue(1<<20))
	ctx := t.Context()
	k := s.valueKey(authority)
	if err := rdb.Set(ctx, k, bytes.Repeat([]byte("x"), 64<<20), 0).Err(); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	v, err := s.Get(ctx, authority)
	runtime.ReadMemStats(&after)
	if err == nil || errors.Is(err, robotstxt.ErrCacheMiss) || v != nil {
		t.Errorf("Get of a 64 MiB value: %d bytes, %v; want an error", len(v), err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 8<<20 {
		t.Errorf("Get allocated %d MiB for a value it refuses", n>>20)
	}
	for _, size := range []int{0, 1 << 20} {
		if err := s.Set(ctx, authority, bytes.Repeat([]byte("y"), size), time.Minute); err != nil {
			t.Fatal(err)
		}
		if v, err := s.Get(ctx, authority); err != nil || len(v) != size {
			t.Errorf("Get of a %d-byte value: %d bytes, %v", size, len(v), err)
		}
	}
	if _, err := s.Get(ctx, "https://absent.example:443"); !errors.Is(err, robotstxt.ErrCacheMiss) {
		t.Errorf("Get of a missing key: %v, want ErrCacheMiss", err)
	}
}

// TestZeroStorePanics: a Store not made by New says so when used.
func TestZeroStorePanics(t *testing.T) {
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "without New") {
			t.Errorf("recovered %q, want a panic saying the Store was not made by New", r)
		}
	}()
	_, _ = (&Store{}).Get(context.Background(), "k")
}

// argsHook records the arguments of every command a client sends.
type argsHook struct {
	mu   sync.Mutex
	args [][]any
}

func (h *argsHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *argsHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.mu.Lock()
		h.args = append(h.args, cmd.Args())
		h.mu.Unlock()
		return next(ctx, cmd)
	}
}

func (h *argsHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// TestTTLsRoundedUp: Redis keeps whole milliseconds, and a value or a
// lease is kept for at least its ttl: 1.500999 s is sent as 1,501 ms, not
// cut to 1,500.
func TestTTLsRoundedUp(t *testing.T) {
	s, rdb, _ := newStore(t)
	h := new(argsHook)
	rdb.AddHook(h)
	const ttl = 1500999 * time.Microsecond
	if err := s.Set(t.Context(), authority, []byte("v"), ttl); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Lease(t.Context(), authority, ttl); err != nil || !ok {
		t.Fatalf("Lease: ok=%v err=%v", ok, err)
	}
	h.mu.Lock()
	var sent []string
	for _, args := range h.args {
		sent = append(sent, fmt.Sprint(args...))
	}
	h.mu.Unlock()
	if !slices.ContainsFunc(sent, func(a string) bool { return strings.HasPrefix(a, "set") && strings.HasSuffix(a, "px1501") }) ||
		!slices.ContainsFunc(sent, func(a string) bool { return strings.Contains(a, "sha") && strings.HasSuffix(a, "1501") }) {
		t.Errorf("commands sent: %q; want the value and the lease kept 1501 ms", sent)
	}
	// The longest ttl cannot round up: it is kept, not wrapped negative
	// (no expiry, or an error).
	if err := s.Set(t.Context(), "long", []byte("v"), math.MaxInt64); err != nil {
		t.Fatal(err)
	}
	if got := rdb.PTTL(t.Context(), s.valueKey("long")).Val(); got < 100*365*24*time.Hour {
		t.Errorf("value set with the longest ttl: PTTL %v", got)
	}
	if _, ok, err := s.Lease(t.Context(), "long", math.MaxInt64); err != nil || !ok {
		t.Errorf("lease for the longest ttl: ok=%v err=%v", ok, err)
	}
}

// TestGetRacingSet: a Get that meets a missing key while another process
// Sets it reads the value or a miss, never an empty value the key never
// held.
func TestGetRacingSet(t *testing.T) {
	s, rdb, _ := newStore(t)
	ctx := t.Context()
	k := s.valueKey(authority)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			_ = rdb.Del(ctx, k).Err()
			_ = s.Set(ctx, authority, []byte("a whole value"), time.Hour)
		}
	}()
	empty := 0
	for range 3000 {
		if v, err := s.Get(ctx, authority); err == nil && len(v) == 0 {
			empty++
		}
	}
	close(stop)
	<-done
	if empty > 0 {
		t.Errorf("Get read an empty value %d times; the key only ever held a whole one", empty)
	}
}
