package redisstore

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt"
)

const authority = "https://example.com:443"

func TestGetMissing(t *testing.T) {
	s, _, _ := newStore(t)
	_, err := s.Get(t.Context(), authority)
	if !errors.Is(err, robotstxt.ErrCacheMiss) {
		t.Fatalf("Get of a missing key: err = %v, want ErrCacheMiss", err)
	}
}

func TestSetGetKeepsBytes(t *testing.T) {
	s, _, _ := newStore(t)
	values := [][]byte{
		[]byte("User-agent: *\nDisallow: /private\n"),
		{0, 1, 2, 0xff, 0xfe, '\r', '\n', 0},
		{},
		bytes.Repeat([]byte("x"), 600<<10),
	}
	for i, want := range values {
		if err := s.Set(t.Context(), authority, want, time.Minute); err != nil {
			t.Fatalf("value %d: Set: %v", i, err)
		}
		got, err := s.Get(t.Context(), authority)
		if err != nil {
			t.Fatalf("value %d: Get: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("value %d: Get returned %d bytes differing from the %d set", i, len(got), len(want))
		}
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
