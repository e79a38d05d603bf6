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

// FuzzHostileRows opens a file of this package's layout holding, under
// a key, whatever row a hostile or damaged file may (and such rows in
// the indexes and the live total): Open takes it; Get returns the row's
// value only when it passes its checksum and has not expired, and
// otherwise a miss; a Set after it is committed and found again once
// the file is reopened; Open with WithReplaceDamaged takes the file too,
// checked or replaced. Never a panic, never an error but a miss.
func FuzzHostileRows(f *testing.F) {
	good := header{expires: math.MaxInt64, seq: 1}.row([]byte(authority), []byte("value"))
	f.Add(authority, good, header{expires: math.MaxInt64, seq: 1}.expiryKey(), []byte(authority), seqKey(1), []byte{0, 0, 0, 0, 0, 0, 0, 42}, false)
	f.Add(authority, good[:len(good)-1], []byte{0}, []byte(""), seqKey(math.MaxUint64), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, true)
	f.Add("k", []byte("garbage"), header{expires: 1, seq: 9}.expiryKey(), []byte("k"), []byte("x"), []byte("\x7f\xff\xff\xff\xff\xff\xff\xff"), true)
	f.Add("k", []byte{}, []byte(nil), []byte(nil), []byte(nil), []byte(nil), false)
	f.Fuzz(func(t *testing.T, key string, row, expiryRow, expiryVal, writtenRow, live []byte, bounded bool) {
		if key == "" || len(key) > 1000 || len(expiryRow) > 1000 || len(writtenRow) > 1000 || key == newKey {
			return
		}
		path := filepath.Join(t.TempDir(), "robots.db")
		db, err := bolt.Open(path, 0o600, &bolt.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		err = db.Update(func(tx *bolt.Tx) error {
			if err := layOut(tx); err != nil {
				return err
			}
			err := errors.Join(tx.Bucket(bucketValues).Put([]byte(key), row), tx.Bucket(bucketMeta).Put(keyLive, live))
			if len(expiryRow) > 0 {
				err = errors.Join(err, tx.Bucket(bucketExpiry).Put(expiryRow, expiryVal))
			}
			if len(writtenRow) > 0 {
				err = errors.Join(err, tx.Bucket(bucketWritten).Put(writtenRow, []byte(key)))
			}
			return err
		})
		if err := errors.Join(err, db.Close()); err != nil {
			t.Fatal(err)
		}
		var opts []Option
		if bounded {
			opts = append(opts, WithMaxBytes(1<<20))
		}
		s, err := Open(path, opts...)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		h, data, ok := parseRow([]byte(key), row)
		before := time.Now().UnixNano()
		got, err := s.Get(context.Background(), key)
		after := time.Now().UnixNano()
		switch {
		case ok && h.expires > after:
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("Get of a sound row: %q, %v; want %q", got, err, data)
			}
		case !ok || h.expires <= before:
			if !errors.Is(err, robotstxt.ErrCacheMiss) || got != nil {
				t.Errorf("Get of a row %s: %q, %v; want a miss", map[bool]string{false: "failing its checksum", true: "expired"}[ok], got, err)
			}
		}
		if err := s.Set(context.Background(), newKey, []byte("new"), time.Hour); err != nil {
			t.Errorf("Set: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		for _, opts := range [][]Option{opts, append(opts, WithReplaceDamaged())} {
			s, err := Open(path, opts...)
			if err != nil {
				t.Fatalf("Open again (%d options): %v", len(opts), err)
			}
			got, err := s.Get(context.Background(), newKey)
			if _, serr := os.Stat(path + unusableSuffix); serr == nil {
				// Replaced: the hostile row failed the check.
				if !errors.Is(err, robotstxt.ErrCacheMiss) {
					t.Errorf("Get from the replacement: %q, %v; want a miss", got, err)
				}
			} else if err != nil || string(got) != "new" {
				t.Errorf("Get after reopening (%d options): %q, %v; want \"new\"", len(opts), got, err)
			}
			if err := s.Close(); err != nil {
				t.Fatalf("Close again: %v", err)
			}
		}
	})
}

// newKey is the key FuzzHostileRows sets beside the hostile row.
const newKey = "https://new.test:443"
