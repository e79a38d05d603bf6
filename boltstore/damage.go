package boltstore

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
)

// ErrDamaged is wrapped by the errors of a Store whose file is damaged: a
// page that makes bbolt panic, or fault reading past the end of the
// mapped file, or a row it reads as a nested bucket, which fails every
// commit. The Store recovers, logs the damage once and stops using
// the file: later Gets and Sets fail at once, and Close returns the
// damage after waiting at most a second for bbolt to let go. Open's
// errors wrap it, and [ErrFormat], for a file it found damaged.
var ErrDamaged = errors.New("boltstore: file damaged")

// contain runs f, which calls bbolt, and returns a panic in it, or a
// fault reading the mapped file, as an error wrapping ErrDamaged.
func contain(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		if fault, ok := r.(interface{ Addr() uintptr }); ok {
			err = fmt.Errorf("%w: bbolt faulted reading address %#x: %v", ErrDamaged, fault.Addr(), r)
		} else if r != nil {
			err = fmt.Errorf("%w: bbolt panicked reading it: %v", ErrDamaged, r)
		}
	}()
	return f()
}

// guard runs f as contain does, and if f panics or faults, stops the
// Store using its file and drops the values waiting for the writer.
func (s *Store) guard(f func() error) error {
	err := contain(f)
	if !errors.Is(err, ErrDamaged) {
		return err
	}
	s.mu.Lock()
	first := s.broken == nil
	if first {
		s.broken = err
		s.pending, s.size = map[string]*record{}, 0
		s.openRoom()
		close(s.damaged)
	}
	s.mu.Unlock()
	if first {
		s.logger.Error("boltstore: the file is damaged; the Store stops using it",
			slog.String("path", s.path), slog.String("error", err.Error()))
	}
	return err
}
