package boltstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/robotsgate/robotstxt"
)

// ErrLocked is returned by Open when another Store, in this process or
// another, has the file open. bbolt locks the file for one writer.
var ErrLocked = errors.New("boltstore: file in use by another Store")

// ErrFormat is returned by Open for a file it cannot use: not a bbolt
// file, a damaged one, a bbolt file of another program, or one laid out
// by a later version of this package. The file is only a cache: removing
// it and opening again starts an empty one.
var ErrFormat = errors.New("boltstore: not a usable boltstore file")

// errClosed is returned by calls on a closed Store.
var errClosed = errors.New("boltstore: store closed")

// lockTimeout bounds how long Open waits for the file lock: long enough
// for a process that is exiting to let go of it, short enough that a
// second crawler started on the same file fails at once. bbolt retries
// the lock every 50 ms.
const lockTimeout = 100 * time.Millisecond

// A Store keeps robots.txt entries in a bbolt file, for a Client in one
// process that restarts. It implements robotstxt.Store and is safe for
// concurrent use. Make one with Open and Close it when done.
type Store struct {
	db    *bolt.DB
	limit int   // bound on s.size
	bound bound // the writer's

	mu       sync.Mutex
	pending  map[string]*record // set, waiting for the writer
	inflight map[string]*record // the batch the writer is committing
	size     int                // bytes of keys and values in pending
	order    uint64             // of the last record set
	werr     error              // the last commit's failure
	closed   bool
	room     chan struct{} // closed when the writer takes pending, and by Close

	wake      chan struct{} // pending has records (capacity 1)
	quit      chan struct{} // closed by Close
	done      chan struct{} // closed when the writer has stopped
	closeOnce sync.Once
}

var _ robotstxt.Store = (*Store)(nil)

// Open opens the Store file at path, creating it if it does not exist.
// It fails with ErrLocked if another Store has the file open, and with
// ErrFormat if the file is not one it can use.
func Open(path string, opts ...Option) (*Store, error) {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	if err := checkMeta(path); err != nil {
		return nil, fmt.Errorf("boltstore: open %s: %w", path, err)
	}
	db, err := openDB(path)
	if err != nil {
		return nil, fmt.Errorf("boltstore: open %s: %w", path, err)
	}
	s := &Store{
		db:      db,
		limit:   maxPending,
		bound:   bound{maxBytes: cfg.maxBytes},
		pending: map[string]*record{},
		room:    make(chan struct{}),
		wake:    make(chan struct{}, 1),
		quit:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	if cfg.maxBytes > 0 {
		s.limit = int(min(maxPending, cfg.maxBytes/4))
		var live int64
		_ = db.View(func(tx *bolt.Tx) error { live = readLive(tx.Bucket(bucketMeta)); return nil })
		s.bound.measure(db, live)
	}
	go s.write()
	return s, nil
}

// openDB opens the bbolt file at path and checks or lays out its buckets.
// bbolt trusts its file: on a damaged one it can panic, or fault reading
// it. openDB turns both into ErrFormat. It closes the file then, but
// bbolt's mapping of it stays until the process exits, and with it the
// lock: opening the same file again fails with ErrLocked; removing it
// and opening anew works.
func openDB(path string) (db *bolt.DB, err error) {
	var f *os.File
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if db != nil {
				_ = db.Close()
			} else if f != nil {
				_ = f.Close()
			}
			db, err = nil, fmt.Errorf("%w: bbolt failed reading it: %v", ErrFormat, r)
		}
	}()
	db, err = bolt.Open(path, 0o600, &bolt.Options{
		Timeout: lockTimeout,
		OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
			var err error
			f, err = os.OpenFile(name, flag, perm)
			return f, err
		},
	})
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return nil, ErrLocked
	case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrVersionMismatch), errors.Is(err, bolterrors.ErrChecksum):
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	case err != nil:
		return nil, err
	}
	if err := db.Update(prepare); err != nil {
		_ = db.Close()
		return nil, err
	}
	return db, nil
}

// Get returns the value stored under key, or robotstxt.ErrCacheMiss if
// there is none or it has expired. A value set moments ago is found even
// before the writer has committed it. Get does not wait for the writer's
// commits (a read may wait briefly while bbolt maps a grown file); if ctx
// is already done, it returns ctx's error.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	s.mustBeOpened()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("boltstore: get %q: %w", key, err)
	}
	s.mu.Lock()
	closed := s.closed
	r := s.pending[key]
	if r == nil {
		r = s.inflight[key]
	}
	s.mu.Unlock()
	switch {
	case closed:
		return nil, errClosed
	case r != nil && r.expires <= time.Now().UnixNano():
		return nil, robotstxt.ErrCacheMiss
	case r != nil:
		return bytes.Clone(r.value), nil
	}
	var v []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		h, data, ok := parseHeader(tx.Bucket(bucketValues).Get([]byte(key)))
		if !ok || h.expires <= time.Now().UnixNano() {
			return robotstxt.ErrCacheMiss
		}
		v = bytes.Clone(data)
		return nil
	})
	if err != nil && !errors.Is(err, robotstxt.ErrCacheMiss) {
		return nil, fmt.Errorf("boltstore: get %q: %w", key, err)
	}
	return v, err
}

// Set stores value under key for ttl. It records the value in memory, where
// Get finds it at once, and returns; a goroutine of the Store commits what
// Sets recorded, one batch per transaction. If the values waiting take more
// than 16 MiB (or a quarter of the WithMaxBytes bound, if less), Set waits
// for the writer to take them, until ctx is done. Set fails if the previous
// commit failed, having recorded the value all the same; and, under
// WithMaxBytes, for a value that could never fit.
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
	for !s.closed && s.size > 0 && s.size+len(key)+len(value) > s.limit {
		room := s.room
		s.mu.Unlock()
		select {
		case <-room:
		case <-ctx.Done():
			return fmt.Errorf("boltstore: set %q: waiting for the writer: %w", key, ctx.Err())
		}
		s.mu.Lock()
	}
	if s.closed {
		s.mu.Unlock()
		return errClosed
	}
	if old := s.pending[key]; old != nil {
		s.size -= len(key) + len(old.value)
	}
	s.order++
	r.order = s.order
	s.pending[key] = r
	s.size += len(key) + len(value)
	werr := s.werr
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	if werr != nil {
		return fmt.Errorf("boltstore: set %q: recorded, but the last commit failed: %w", key, werr)
	}
	return nil
}

// expiry returns the time ttl from now in Unix nanoseconds, or the
// latest such time for a ttl that reaches past it (the year 2262).
func expiry(ttl time.Duration) int64 {
	now := time.Now().UnixNano()
	if int64(ttl) > math.MaxInt64-now {
		return math.MaxInt64
	}
	return now + int64(ttl)
}

// mustBeOpened panics with a clear message when s is nil or was not made
// by Open, instead of a nil dereference somewhere inside.
func (s *Store) mustBeOpened() {
	if s == nil || s.db == nil {
		panic("boltstore: Store used without Open")
	}
}

// Close commits what Set recorded, stops the writer and closes the file.
// Calls after Close fail; Close returns nil after the first.
func (s *Store) Close() error {
	s.mustBeOpened()
	var err error
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.openRoom()
		s.mu.Unlock()
		close(s.quit)
		<-s.done
		err = errors.Join(s.werr, s.db.Close())
	})
	return err
}
