package boltstore

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// maxPending bounds the bytes of keys and values waiting for the writer,
// for a disk that stalls: thousands of entries, more than a crawler sets
// during one commit. A quarter of the WithMaxBytes bound, if smaller,
// keeps one batch from overshooting it by much.
const maxPending = 16 << 20

// A record is a value written by Set and not yet committed.
type record struct {
	value   []byte // the Store's own copy
	expires int64  // Unix nanoseconds
	order   uint64 // when it was set, relative to the others
}

// write is the writer goroutine.
func (s *Store) write() {
	defer close(s.done)
	for range s.wake {
		s.flush()
	}
	s.flush()
}

// flush commits the pending records, which Get finds in s.inflight.
func (s *Store) flush() {
	s.mu.Lock()
	batch := s.pending
	if len(batch) == 0 {
		s.mu.Unlock()
		return
	}
	s.inflight, s.pending, s.size = batch, map[string]*record{}, 0
	s.openRoom()
	s.mu.Unlock()
	err := s.commit(batch)
	s.mu.Lock()
	s.inflight, s.werr = nil, err
	s.mu.Unlock()
}

// commit writes batch in the order it was set, and trims the file.
func (s *Store) commit(batch map[string]*record) error {
	keys := slices.SortedFunc(maps.Keys(batch), func(a, b string) int {
		return cmp.Compare(batch[a].order, batch[b].order)
	})
	now := time.Now().UnixNano()
	var live int64
	err := s.guard(func() error {
		update := func(tx *bolt.Tx) error {
			b := writable(tx)
			first, before := b.written.Sequence()+1, b.live
			for _, k := range keys {
				if err := b.put(k, batch[k]); err != nil {
					return fmt.Errorf("storing %q: %w", k, err)
				}
			}
			if err := b.trim(now, s.bound.need(b.live-before), first); err != nil {
				return fmt.Errorf("removing old entries: %w", err)
			}
			live = b.live
			return b.saveLive()
		}
		err := s.db.Update(update)
		if err != nil && !errors.Is(err, bolterrors.ErrIncompatibleValue) && !errors.Is(err, ErrDamaged) && s.sweep(now) {
			err = s.db.Update(update) // in the pages the sweep freed
		}
		if err == nil {
			s.bound.measure(s.db, live)
		}
		if errors.Is(err, bolterrors.ErrIncompatibleValue) {
			// A row bbolt reads as a nested bucket, which no Store
			// writes: a flipped flag, which every later commit meets.
			err = fmt.Errorf("%w: %w", ErrDamaged, err)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("boltstore: writing %d entries to %s: %w", len(keys), s.path, err)
	}
	return nil
}

// sweep removes expired entries in a commit of their own, reporting
// whether it removed any: the pages a commit frees serve only the next,
// so on a full disk a batch that needs more pages than are free failed
// for ever, the expired entries that would make room for it rolled back
// with it.
func (s *Store) sweep(now int64) bool {
	return s.db.Update(func(tx *bolt.Tx) error {
		b := writable(tx)
		before := b.live
		if err := b.trim(now, 0, b.written.Sequence()+1); err != nil {
			return err
		}
		if b.live == before {
			return errNothingExpired // rolled back: the last free pages kept
		}
		return b.saveLive()
	}) == nil
}

var errNothingExpired = errors.New("boltstore: nothing expired")

// openRoom wakes the Sets waiting for room. s.mu is held.
func (s *Store) openRoom() {
	close(s.room)
	s.room = make(chan struct{})
}
