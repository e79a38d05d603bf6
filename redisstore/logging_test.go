package redisstore

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/internal/redistest"
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

// await waits up to 10 s for line in b (the breaker writes its lines in
// a goroutine), and returns what b holds then.
func (b *lockedBuffer) await(t *testing.T, line string) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(b.String(), line) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	return b.String()
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
	if log := out.await(t, "redis unavailable"); strings.Count(log, "redis unavailable") != 1 {
		t.Fatalf("outage logged %d times, want once:\n%s", strings.Count(log, "redis unavailable"), log)
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

// stallingHandler is a log whose sink stalls (a full pipe, a log shipper
// that does not answer) on the Store's outage line until release is
// closed.
type stallingHandler struct {
	entered chan struct{}
	release chan struct{}
}

func (h stallingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h stallingHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h stallingHandler) WithGroup(string) slog.Handler            { return h }
func (h stallingHandler) Handle(_ context.Context, r slog.Record) error {
	if strings.Contains(r.Message, "redis unavailable") {
		close(h.entered)
		<-h.release
	}
	return nil
}

// stalledOutage returns a Store whose Redis, srv, is gone and whose
// breaker has opened, its "redis unavailable" line stuck in a log that
// takes it only after stall (or at the test's end).
func stalledOutage(t *testing.T, stall time.Duration) (*Store, *redistest.Server) {
	h := stallingHandler{entered: make(chan struct{}), release: make(chan struct{})}
	s, _, srv := newStore(t, WithLogger(slog.New(h)))
	srv.Kill()
	go func() {
		for range tripAfter {
			_, _ = s.Get(context.Background(), authority)
		}
	}()
	<-h.entered
	let := time.AfterFunc(stall, func() { close(h.release) })
	t.Cleanup(func() {
		if let.Stop() {
			close(h.release)
		}
	})
	return s, srv
}

// callsReturnWithin checks that a Get and a Take of s given 100 ms each,
// at once, return within limit.
func callsReturnWithin(t *testing.T, s *Store, limit time.Duration) {
	t.Helper()
	var wg sync.WaitGroup
	for name, call := range map[string]func(ctx context.Context) error{
		"Get": func(ctx context.Context) error { _, err := s.Get(ctx, "https://other.example:443"); return err },
		"Take": func(ctx context.Context) error {
			_, _, err := s.Take(ctx, "https://other.example:443", time.Second)
			return err
		},
	} {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			start := time.Now()
			err := call(ctx)
			if took := time.Since(start); took > limit {
				t.Errorf("%s given 100 ms returned after %v (%v): it waited for the log", name, took.Round(time.Millisecond), err)
			}
		})
	}
	wg.Wait()
}

// TestStalledLogHoldsUpNoCall: while the line of a breaker that opened is
// being written to a log that does not take it, calls to Redis go on
// within their deadlines: the breaker logged holding its lock, which
// every call takes, and a Get and a Take given 100 ms each returned when
// the log let go, 3 s later.
func TestStalledLogHoldsUpNoCall(t *testing.T) {
	const stall = 2 * time.Second
	s, _ := stalledOutage(t, stall)
	callsReturnWithin(t, s, stall/2)
}

// TestStalledLogHoldsUpNoCallWhenRedisReturns (review123): the breaker
// opened and its "redis unavailable" line is stuck in a log that does
// not take it; Redis comes back, and the probe that finds it closes the
// breaker. Neither the probe, whose "available again" line waited for the
// stuck one holding the breaker's lock, nor the calls after it, which
// waited for that lock, wait for the log: they returned 2.8 s late.
func TestStalledLogHoldsUpNoCallWhenRedisReturns(t *testing.T) {
	s, srv := stalledOutage(t, 4*time.Second)
	srv.Restart()
	time.Sleep(retryAfter + 100*time.Millisecond) // a probe may go
	probe := make(chan time.Duration, 1)
	go func() { // the probe: Redis answers, the breaker closes
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, _ = s.Get(ctx, authority)
		probe <- time.Since(start)
	}()
	time.Sleep(100 * time.Millisecond)
	callsReturnWithin(t, s, time.Second)
	if took := <-probe; took > time.Second {
		t.Errorf("the probe given 500 ms returned after %v", took.Round(time.Millisecond))
	}
}

// TestStalledLogHoldsUpNoTrippingCall (review124): under a Store timeout
// of 100 ms, the Get that opens the breaker, given 100 ms, returns within
// it though the log stalls on its "redis unavailable" line: it wrote the
// line itself, and returned 2 s later, when the log let go.
func TestStalledLogHoldsUpNoTrippingCall(t *testing.T) {
	h := stallingHandler{entered: make(chan struct{}), release: make(chan struct{})}
	s, _, srv := newStore(t, WithLogger(slog.New(h)), WithTimeout(100*time.Millisecond))
	srv.Kill()
	const stall = 2 * time.Second
	released := make(chan struct{})
	go func() {
		defer close(released)
		<-h.entered
		time.Sleep(stall)
		close(h.release)
	}()
	for i := range tripAfter {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start := time.Now()
		_, err := s.Get(ctx, authority)
		took := time.Since(start)
		cancel()
		if took > time.Second {
			t.Errorf("Get %d given 100 ms returned after %v (%v): it waited for the stalled log", i+1, took.Round(time.Millisecond), err)
		}
	}
	select {
	case <-h.entered:
	default:
		close(h.entered) // never logged: let the goroutine end
	}
	<-released
}
