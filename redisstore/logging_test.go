package redisstore

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for the Store's concurrent logging.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestLogsOutageOnceAndRecovery: an outage is logged once however many
// calls fail, and the recovery is logged when Redis answers again.
func TestLogsOutageOnceAndRecovery(t *testing.T) {
	var out lockedBuffer
	s, _, srv := newStore(t, WithTimeout(defaultTimeout), WithLogger(slog.New(slog.NewTextHandler(&out, nil))))
	srv.Kill()
	for range 20 {
		_, _ = s.Get(t.Context(), authority)
	}
	if n := strings.Count(out.String(), "redis unavailable"); n != 1 {
		t.Fatalf("outage logged %d times, want once:\n%s", n, out.String())
	}
	srv.Restart()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "redis available again") {
		if time.Now().After(deadline) {
			t.Fatalf("recovery never logged:\n%s", out.String())
		}
		_, _ = s.Get(t.Context(), authority)
		time.Sleep(50 * time.Millisecond)
	}
}

// TestLogsFlapEndsOnLatestState: Redis goes down, comes back and goes
// down again within logthrottle.Interval. The second outage's line is
// held back, not lost: once the interval has passed, while Redis is
// still down, the log's last line about it says so.
func TestLogsFlapEndsOnLatestState(t *testing.T) {
	var out lockedBuffer
	s, _, srv := newStore(t, WithTimeout(defaultTimeout), WithLogger(slog.New(slog.NewTextHandler(&out, nil))))
	const down, up = "redis unavailable", "redis available again"
	until := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: timed out; log:\n%s", what, out.String())
			}
		}
	}
	breakerOpen := func() bool {
		_, err := s.Get(t.Context(), authority)
		return errors.Is(err, ErrUnavailable)
	}
	srv.Kill()
	until("first outage", breakerOpen)
	srv.Restart()
	until("recovery logged", func() bool {
		_, _ = s.Get(t.Context(), authority)
		return strings.Contains(out.String(), up)
	})
	srv.Kill()
	until("second outage", breakerOpen)
	if n := strings.Count(out.String(), down); n != 1 {
		t.Fatalf("%d outage lines within the interval, want 1:\n%s", n, out.String())
	}
	until("second outage logged", func() bool {
		breakerOpen()
		return strings.LastIndex(out.String(), down) > strings.LastIndex(out.String(), up)
	})
	if log := out.String(); !strings.Contains(log[strings.LastIndex(log, down):], "consecutive_failures=") {
		t.Errorf("the held-back outage line lacks its failures:\n%s", log)
	}
}
