// Package logthrottle holds back repeated log lines, so that a failing
// dependency (a Store, a Redis server) cannot flood a crawler's log.
package logthrottle

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Interval is the least time between two log lines of one kind: short
// enough that an operator sees an outage begin and end within seconds,
// long enough that a dependency failing a thousand times a second costs
// one line per kind every five seconds.
const Interval = 5 * time.Second

// A Throttle lets one line of each kind through per interval, and counts
// those it holds back. It is safe for concurrent use.
type Throttle struct {
	every time.Duration
	now   func() time.Time

	mu      sync.Mutex
	last    map[string]time.Time // by kind
	held    map[string]int       // by kind
	sweepAt int                  // drop the kinds past their interval when last reaches this size
}

// minSweep is the size from which a Throttle drops the kinds whose
// interval has passed: kinds such as a Redis node's address come and go.
const minSweep = 64

// New returns a Throttle with the given interval.
func New(every time.Duration) *Throttle {
	return &Throttle{every: every, now: time.Now, last: map[string]time.Time{}, held: map[string]int{}, sweepAt: minSweep}
}

// Allow reports whether a line of the given kind may be logged now, and
// how many of that kind were held back since the last that went through.
func (t *Throttle) Allow(kind string) (ok bool, held int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if last, seen := t.last[kind]; seen && now.Sub(last) < t.every {
		t.held[kind]++
		return false, 0
	}
	held = t.held[kind]
	if len(t.last) >= t.sweepAt {
		// A kind past its interval lets its next line through anyway;
		// dropped, it loses only the count of lines held before.
		for k, at := range t.last {
			if now.Sub(at) >= t.every {
				delete(t.last, k)
				delete(t.held, k)
			}
		}
		t.sweepAt = max(2*len(t.last), minSweep)
	}
	t.last[kind], t.held[kind] = now, 0
	return true, held
}

// A Logger logs through an slog.Logger at most one line of each message
// per [Interval]; a line after held-back ones counts them in a
// "suppressed" attribute. It is safe for concurrent use.
type Logger struct {
	logger   *slog.Logger
	throttle *Throttle
}

// NewLogger returns a Logger writing to l.
func NewLogger(l *slog.Logger) *Logger {
	return &Logger{logger: l, throttle: New(Interval)}
}

// Log logs msg with args at level, unless a line with the same msg went
// through less than [Interval] ago.
func (l *Logger) Log(ctx context.Context, level slog.Level, msg string, args ...any) {
	ok, held := l.throttle.Allow(msg)
	if !ok {
		return
	}
	if held > 0 {
		args = append(args, "suppressed", held)
	}
	l.logger.Log(ctx, level, msg, args...)
}
