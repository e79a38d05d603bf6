package boltstore

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/robotsgate/robotstxt"
)

// ErrLocked is returned by Open when another Store, in this process or
// another, has the file open.
var ErrLocked = errors.New("boltstore: file in use by another Store")

// ErrFormat is returned by Open for a file it cannot use, which it leaves
// as it is: not a bbolt file, one of another program or of a later
// version of this package, or a damaged one (the error wraps [ErrDamaged]
// too): cut short, both meta pages failing their checksums, or one that
// bbolt panics or faults reading as it opens it, and then keeps mapped
// and locked until the process exits (Open refuses it again rather than
// report it in use). Removing the file starts an empty cache, and
// [WithReplaceDamaged] has Open do that.
var ErrFormat = errors.New("boltstore: not a usable boltstore file")

var errClosed = errors.New("boltstore: store closed")

// closeWait bounds how long Close waits for the writer and bbolt to let
// go of a damaged file: milliseconds, or for ever if bbolt faulted
// holding one of its locks.
const closeWait = time.Second

// A Store keeps robots.txt entries in a bbolt file. It is safe for
// concurrent use. Make one with Open and Close it when done.
type Store struct {
	db     *bolt.DB
	path   string
	limit  int   // bound on s.size
	bound  bound // the writer's
	logger *slog.Logger

	mismatches atomic.Int64 // values that failed their checksum

	mu       sync.Mutex
	pending  map[string]*record // set, waiting for the writer
	inflight map[string]*record // the batch the writer is committing
	size     int                // bytes of keys and values in pending
	order    uint64             // of the last record set
	werr     error              // the last commit's failure
	broken   error              // the damage that stopped the Store
	closed   bool
	room     chan struct{} // closed when the writer takes pending, and by Close

	wake      chan struct{} // pending has records (capacity 1); closed by Close
	done      chan struct{} // closed when the writer has stopped
	damaged   chan struct{} // closed when s.broken is set
	closeOnce sync.Once
}

var _ robotstxt.Store = (*Store)(nil)

// Get returns the value stored under key, or robotstxt.ErrCacheMiss if
// there is none, it has expired, or it fails its checksum; a value just
// set is found before it is committed. Get does not wait for commits (a
// read may wait briefly while bbolt maps a grown file); if ctx is already
// done, it returns ctx's error.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	s.mustBeOpened()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("boltstore: get %q: %w", key, err)
	}
	s.mu.Lock()
	closed, broken := s.closed, s.broken
	r := cmp.Or(s.pending[key], s.inflight[key])
	s.mu.Unlock()
	switch {
	case closed:
		return nil, errClosed
	case broken != nil:
		return nil, fmt.Errorf("boltstore: get %q: %w", key, broken)
	case r != nil && r.expires <= time.Now().UnixNano():
		return nil, robotstxt.ErrCacheMiss
	case r != nil:
		return bytes.Clone(r.value), nil
	}
	var v []byte
	k := []byte(key)
	err := s.guard(func() error {
		return s.db.View(func(tx *bolt.Tx) error {
			row := tx.Bucket(bucketValues).Get(k)
			h, data, ok := parseRow(k, row)
			if row != nil && !ok && s.mismatches.Add(1) == 1 {
				s.logger.Warn("boltstore: a stored value failed its checksum; such values are misses, and only this first one is logged",
					slog.String("path", s.path), slog.String("key", key))
			}
			if !ok || h.expires <= time.Now().UnixNano() {
				return robotstxt.ErrCacheMiss
			}
			v = bytes.Clone(data)
			return nil
		})
	})
	if err != nil && !errors.Is(err, robotstxt.ErrCacheMiss) {
		return nil, fmt.Errorf("boltstore: get %q: %w", key, err)
	}
	return v, err
}

// Set stores value under key for ttl. It records the value in memory for
// the Store's writer to commit; while the values waiting take more than
// 16 MiB (or a quarter of the [WithMaxBytes] bound, if less), it first
// waits for the writer to take them, until ctx is done. A commit that
// fails loses its batch, and the next Set returns its error, having
// recorded its value all the same. Set fails for a value that could never
// fit under WithMaxBytes, and, once the Store has found its file damaged,
// at once with an error wrapping [ErrDamaged], recording nothing.
func (s *Store) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	s.mustBeOpened()
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("boltstore: set %q: %w", key, ctx.Err())
	case ttl <= 0:
		return fmt.Errorf("boltstore: set %q: non-positive ttl %v", key, ttl)
	case key == "" || len(key) > bolt.MaxKeySize:
		return fmt.Errorf("boltstore: set: key of %d bytes, want 1 to %d", len(key), bolt.MaxKeySize)
	case len(value) > bolt.MaxValueSize-headerLen:
		return fmt.Errorf("boltstore: set %q: value of %d bytes, over bbolt's limit", key, len(value))
	case s.bound.maxBytes > 0 && cost(len(key), len(value)) > s.bound.maxBytes:
		return fmt.Errorf("boltstore: set %q: %d bytes, over the bound of %d", key, len(value), s.bound.maxBytes)
	}
	r := &record{value: bytes.Clone(value), expires: expiry(ttl)}
	s.mu.Lock()
	defer s.mu.Unlock()
	for !s.closed && s.size > 0 && s.size+len(key)+len(value) > s.limit {
		room := s.room
		s.mu.Unlock()
		select {
		case <-room:
			s.mu.Lock()
		case <-ctx.Done():
			s.mu.Lock()
			return fmt.Errorf("boltstore: set %q: waiting for the writer: %w", key, ctx.Err())
		}
	}
	switch {
	case s.closed:
		return errClosed
	case s.broken != nil:
		return fmt.Errorf("boltstore: set %q: %w", key, s.broken)
	}
	if old := s.pending[key]; old != nil {
		s.size -= len(key) + len(old.value)
	}
	s.order++
	r.order = s.order
	s.pending[key] = r
	s.size += len(key) + len(value)
	select {
	case s.wake <- struct{}{}:
	default:
	}
	if s.werr != nil {
		return fmt.Errorf("boltstore: set %q: recorded, but the last commit failed: %w", key, s.werr)
	}
	return nil
}

// expiry returns the time ttl from now in Unix nanoseconds, capped.
func expiry(ttl time.Duration) int64 {
	now := time.Now().UnixNano()
	return now + min(int64(ttl), math.MaxInt64-now)
}

func (s *Store) mustBeOpened() {
	if s == nil || s.db == nil {
		panic("boltstore: Store used without Open")
	}
}

// Close commits what Set recorded, stops the writer and closes the file.
// It returns the last commit's failure, or the damage that stopped the
// Store if it found its file damaged. Calls after Close fail; Close
// returns nil after the first.
func (s *Store) Close() error {
	s.mustBeOpened()
	var err error
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.openRoom()
		close(s.wake) // Set sends only under s.mu, before Close
		s.mu.Unlock()
		closed := make(chan error, 1)
		go func() {
			<-s.done
			closed <- contain(s.db.Close)
		}()
		var cerr error
		select {
		case cerr = <-closed:
		case <-s.damaged:
			select {
			case cerr = <-closed:
			case <-time.After(closeWait):
				cerr = fmt.Errorf("bbolt did not let go of %s within %v: its lock and mapping stay until the process exits", s.path, closeWait)
			}
		}
		s.mu.Lock()
		err = errors.Join(cmp.Or(s.broken, s.werr), cerr)
		s.mu.Unlock()
		if n := s.mismatches.Load(); n > 0 {
			s.logger.Warn("boltstore: stored values failed their checksum",
				slog.String("path", s.path), slog.Int64("count", n))
		}
	})
	return err
}
