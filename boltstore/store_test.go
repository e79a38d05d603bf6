package boltstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	"go.uber.org/goleak"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/longtest"
	"github.com/robotsgate/robotstxt/storetest"
)

// TestMain checks that no test leaves a goroutine behind. The flips
// helper process is let off one kind: the goroutine of a damaged Store's
// Close still waiting in bbolt's DB.Close, which Close documents (bbolt's
// lock and mapping stay until the process exits).
func TestMain(m *testing.M) {
	var opts []goleak.Option
	if os.Getenv(envHelper) == "flips" {
		opts = append(opts, goleak.IgnoreAnyFunction("go.etcd.io/bbolt.(*DB).Close"))
	}
	goleak.VerifyTestMain(m, opts...)
}

const authority = "https://example.com:443"

// newStore opens a Store on a new file in a temporary directory and
// closes it when the test ends. It returns the Store and the file's path.
func newStore(t testing.TB, opts ...Option) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "robots.db")
	s, err := Open(path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, path
}

// TestStoreContract runs the Store contract (storetest) on Stores with
// and without a bound (large enough for the contract's largest value, 1
// MiB), expiring values to the nanosecond. Most of the contract's Gets
// find values the writer has not committed yet; the "committed" run
// waits for each commit, so that every Get reads the file.
func TestStoreContract(t *testing.T) {
	longtest.Gate(t)
	for _, c := range []struct {
		name      string
		opts      []Option
		committed bool
	}{
		{"unbounded", nil, false},
		{"bounded", []Option{WithMaxBytes(3 << 20)}, false},
		{"committed", nil, true},
		{"committed bounded", []Option{WithMaxBytes(3 << 20)}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			storetest.Run(t, func(t *testing.T) robotstxt.Store {
				s, _ := newStore(t, c.opts...)
				if c.committed {
					return committed{t, s}
				}
				return s
			})
		})
	}
}

// committed is a Store whose Set returns once the writer has committed
// the value.
type committed struct {
	t testing.TB
	*Store
}

func (c committed) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	err := c.Store.Set(ctx, key, value, ttl)
	flushed(c.t, c.Store)
	return err
}

// flushed waits until the writer has committed everything s recorded.
func flushed(t testing.TB, s *Store) {
	t.Helper()
	waitUntil(t, "the writer to commit", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.pending) == 0 && s.inflight == nil
	})
}

// set stores v under key for an hour, or fails the test.
func set(t testing.TB, s *Store, key string, v []byte) {
	t.Helper()
	if err := s.Set(t.Context(), key, v, time.Hour); err != nil {
		t.Fatal(err)
	}
}

// TestGetFindsEveryStage: a value is found while it waits for the
// writer, while the writer commits it, and once it is in the file.
func TestGetFindsEveryStage(t *testing.T) {
	s, _ := newStore(t)
	// Hold bbolt's write lock, so that the writer takes the first value
	// and waits with it in flight while the second waits in pending.
	release := holdWriter(t, s)
	inflight, pending := []byte("committing"), []byte("waiting")
	set(t, s, authority, inflight)
	waitInflight(t, s)
	set(t, s, "https://other.example:443", pending)
	check := func(stage string) {
		t.Helper()
		for key, want := range map[string][]byte{authority: inflight, "https://other.example:443": pending} {
			if got, err := s.Get(t.Context(), key); err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s: Get(%s) = %q, %v; want %q", stage, key, got, err, want)
			}
		}
	}
	check("in flight and pending")
	release()
	flushed(t, s)
	check("committed")
}

// waitUntil polls cond until it holds, failing the test after ten seconds.
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestCloseCommits: Close commits what is pending, later calls fail, and
// a second Close returns nil.
func TestCloseCommits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		set(t, s, fmt.Sprintf("https://site%d.test:443", i), fmt.Appendf(nil, "value %d", i))
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := s.Get(t.Context(), authority); !errors.Is(err, errClosed) {
		t.Errorf("Get after Close: %v, want errClosed", err)
	}
	if err := s.Set(t.Context(), authority, nil, time.Hour); !errors.Is(err, errClosed) {
		t.Errorf("Set after Close: %v, want errClosed", err)
	}
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 100 {
		key, want := fmt.Sprintf("https://site%d.test:443", i), fmt.Sprintf("value %d", i)
		if got, err := s.Get(t.Context(), key); err != nil || string(got) != want {
			t.Errorf("after reopening: Get(%s) = %q, %v; want %q", key, got, err, want)
		}
	}
}

// TestLongTTL: a TTL past the year 2262, where Unix nanoseconds end,
// keeps the value.
func TestLongTTL(t *testing.T) {
	s, _ := newStore(t)
	if err := s.Set(t.Context(), authority, []byte("v"), math.MaxInt64); err != nil {
		t.Fatal(err)
	}
	flushed(t, s)
	if got, err := s.Get(t.Context(), authority); err != nil || string(got) != "v" {
		t.Errorf("Get = %q, %v; want the value", got, err)
	}
}

// TestSetRefuses: Set refuses a non-positive ttl, an empty or oversized
// key, and under WithMaxBytes a value that cannot fit; nothing is stored.
func TestSetRefuses(t *testing.T) {
	s, _ := newStore(t, WithMaxBytes(64<<10))
	for _, c := range []struct {
		name  string
		key   string
		value []byte
		ttl   time.Duration
	}{
		{"zero ttl", authority, nil, 0},
		{"negative ttl", authority, nil, -time.Second},
		{"empty key", "", nil, time.Hour},
		{"key over bbolt's limit", strings.Repeat("k", bolt.MaxKeySize+1), nil, time.Hour},
		{"value over the bound", authority, make([]byte, 64<<10), time.Hour},
	} {
		if err := s.Set(t.Context(), c.key, c.value, c.ttl); err == nil {
			t.Errorf("%s: Set succeeded", c.name)
		}
	}
	flushed(t, s)
	if _, err := s.Get(t.Context(), authority); !errors.Is(err, robotstxt.ErrCacheMiss) {
		t.Errorf("after refused Sets: Get = %v, want a miss", err)
	}
}

// TestContextDone: calls under a done context fail with its error and
// change nothing.
func TestContextDone(t *testing.T) {
	s, _ := newStore(t)
	set(t, s, authority, []byte("old"))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.Get(ctx, authority); !errors.Is(err, context.Canceled) {
		t.Errorf("Get: %v, want context.Canceled", err)
	}
	if err := s.Set(ctx, authority, []byte("new"), time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("Set: %v, want context.Canceled", err)
	}
	if got, err := s.Get(t.Context(), authority); err != nil || string(got) != "old" {
		t.Errorf("Get = %q, %v; want %q", got, err, "old")
	}
}

// TestZeroStorePanics: a Store not made by Open says so when used.
func TestZeroStorePanics(t *testing.T) {
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "without Open") {
			t.Errorf("recovered %q, want a panic saying the Store was not opened", r)
		}
	}()
	_, _ = (&Store{}).Get(context.Background(), "k")
}
