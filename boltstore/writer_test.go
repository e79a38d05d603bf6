package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// holdWriter holds bbolt's write lock until the returned func is called,
// so that the Store's writer waits in its next commit.
func holdWriter(t *testing.T, s *Store) (release func()) {
	t.Helper()
	hold, held, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		_ = s.db.Update(func(*bolt.Tx) error { close(held); <-hold; return nil })
	}()
	<-held
	return func() { close(hold); <-done }
}

// waitInflight waits until the writer has taken a batch to commit.
func waitInflight(t *testing.T, s *Store) {
	t.Helper()
	waitUntil(t, "the writer to take a batch", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.inflight != nil
	})
}

// TestSetBackpressure: while the disk is stuck, Sets fill the queue up to
// its bound and the next waits, until its context is done; when the
// writer moves on, Set goes through again.
func TestSetBackpressure(t *testing.T) {
	s, _ := newStore(t, WithMaxBytes(1<<20)) // a queue of 256 KiB
	release := holdWriter(t, s)
	v := make([]byte, 100<<10)
	set(t, s, site(0), v) // taken by the writer, which waits
	waitInflight(t, s)
	set(t, s, site(1), v)
	set(t, s, site(2), v)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if err := s.Set(ctx, site(3), v, time.Hour); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Set into a full queue: %v, want context.DeadlineExceeded", err)
	}
	release()
	set(t, s, site(3), v)
	flushed(t, s)
	if got := storedKeys(t, s); len(got) != 4 {
		t.Errorf("%d entries in the file, want 4", len(got))
	}
}

// TestCloseWakesWaitingSet: Close ends a Set waiting for room with
// errClosed, commits what was queued, and returns once it has.
func TestCloseWakesWaitingSet(t *testing.T) {
	s, _ := newStore(t, WithMaxBytes(1<<20))
	release := holdWriter(t, s)
	v := make([]byte, 100<<10)
	set(t, s, site(0), v)
	waitInflight(t, s)
	set(t, s, site(1), v)
	set(t, s, site(2), v)
	waiting := make(chan error)
	go func() { waiting <- s.Set(context.Background(), site(3), v, time.Hour) }()
	closed := make(chan error)
	go func() { closed <- s.Close() }()
	if err := <-waiting; !errors.Is(err, errClosed) {
		t.Errorf("Set waiting when Close was called: %v, want errClosed", err)
	}
	release()
	if err := <-closed; err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// TestCommitFailureReported: when a commit fails, the next Set says so
// (having recorded its value all the same), and so does Close.
func TestCommitFailureReported(t *testing.T) {
	s, _ := newStore(t)
	if err := s.db.Close(); err != nil { // from under the writer
		t.Fatal(err)
	}
	set(t, s, site(0), []byte("v"))
	flushed(t, s)
	if err := s.Set(t.Context(), site(1), []byte("v"), time.Hour); !errors.Is(err, bolterrors.ErrDatabaseNotOpen) {
		t.Errorf("Set after a failed commit: %v, want the commit's error", err)
	}
	if err := s.Close(); !errors.Is(err, bolterrors.ErrDatabaseNotOpen) {
		t.Errorf("Close after failed commits: %v, want the commit's error", err)
	}
}

// TestDamagedCommitSweepsNothing: a commit that fails because the file
// is damaged (an index row out of order that cannot be deleted,
// ErrDamaged, as TestUnorderedIndexStops makes it) is followed by no
// other commit, the sweep a failed commit makes on a full disk included:
// the Store stops using the file (ErrDamaged). Before each Set, a few
// expired entries are put in the file, so that the failing commit finds
// some.
func TestDamagedCommitSweepsNothing(t *testing.T) {
	const bound = 256 << 10
	path := filepath.Join(t.TempDir(), "robots.db")
	s, err := Open(path, WithMaxBytes(bound))
	if err != nil {
		t.Fatal(err)
	}
	val := bytes.Repeat([]byte("x"), 1000)
	for i := range 100 {
		set(t, s, site(i), val)
	}
	flushed(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The row of the index of writes, not of expiry (whose key ends in
	// the same sequence, its value the same key): the first key of its
	// leaf, right after the element headers, the last of which gives a
	// key size of 8.
	needle, at := append(seqKey(1), site(0)...), -1
	ps := os.Getpagesize()
	for id, p := range pageInfos(t, path) {
		page := b[id*ps : (id+1)*ps]
		if j := bytes.Index(page, needle); p.Type == "leaf" && j >= 8 && binary.LittleEndian.Uint32(page[j-8:]) == 8 {
			at = id*ps + j
		}
	}
	if at < 0 {
		t.Fatal("the index of writes' first row not found")
	}
	b[at+7] ^= 0x40 // sequence 1 reads as 65, which a seek lands past it on
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(path, WithMaxBytes(bound)); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	countExpired := func() (n int) {
		_ = s.db.View(func(tx *bolt.Tx) error {
			return tx.Bucket(bucketValues).ForEach(func(k, _ []byte) error {
				if bytes.HasPrefix(k, []byte("https://exp")) {
					n++
				}
				return nil
			})
		})
		return n
	}
	past := time.Now().Add(-time.Hour).UnixNano()
	for i := 100; i < 400 && !stopped(s); i++ {
		if err := s.db.Update(func(tx *bolt.Tx) error {
			w := writable(tx)
			for j := range 5 {
				if err := w.put("https://exp"+strconv.Itoa(i)+"-"+strconv.Itoa(j)+".test:443", &record{value: []byte("e"), expires: past}); err != nil {
					return err
				}
			}
			return w.saveLive()
		}); err != nil {
			t.Fatal(err)
		}
		before := countExpired()
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		_ = s.Set(ctx, site(i), val, time.Hour)
		cancel()
		flushed(t, s)
		if stopped(s) {
			t.Logf("stopped at %d: %v; expired before %d after %d", i, s.broken, before, countExpired())
			if after := countExpired(); after != before {
				t.Errorf("after the commit that met the damage (%v), another was made: expired entries in the file %d before, %d after", s.broken, before, after)
			}
			return
		}
	}
	t.Fatal("the Store never met the damaged row")
}
