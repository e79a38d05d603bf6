// Package sturdylog wraps a caller's logger so that a panic in its
// handler drops the record instead of reaching the library's goroutines
// (a fill whose callers left, a timer ending a turn, a Store's writer),
// where nothing could recover it, or code that must go on to free what it
// holds.
package sturdylog

import (
	"context"
	"fmt"
	"log/slog"
)

// New returns l, a panic in whose handler drops the record; a logger
// that discards everything when l is nil.
func New(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(handler{l.Handler()})
}

// handler is a caller's handler whose panics it recovers.
type handler struct{ h slog.Handler }

func (s handler) Enabled(ctx context.Context, l slog.Level) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return s.h.Enabled(ctx, l)
}

func (s handler) Handle(ctx context.Context, r slog.Record) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("log handler panicked: a %T", v) // not printed: its String may panic too
		}
	}()
	return s.h.Handle(ctx, r)
}

func (s handler) WithAttrs(attrs []slog.Attr) (h slog.Handler) {
	defer func() {
		if recover() != nil {
			h = s
		}
	}()
	return handler{s.h.WithAttrs(attrs)}
}

func (s handler) WithGroup(name string) (h slog.Handler) {
	defer func() {
		if recover() != nil {
			h = s
		}
	}()
	return handler{s.h.WithGroup(name)}
}
