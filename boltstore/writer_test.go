package boltstore

import (
	"context"
	"errors"
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
