package redisstore

import (
	"bytes"
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
