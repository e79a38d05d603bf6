package logthrottle

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestThrottle(t *testing.T) {
	th := New(10 * time.Second)
	now := time.Unix(1000, 0)
	th.now = func() time.Time { return now }
	if ok, held := th.Allow("a"); !ok || held != 0 {
		t.Fatalf("first line: %v, %d held", ok, held)
	}
	for range 3 {
		if ok, _ := th.Allow("a"); ok {
			t.Fatal("a line within the interval went through")
		}
	}
	if ok, _ := th.Allow("b"); !ok {
		t.Error("another kind was held back")
	}
	now = now.Add(10 * time.Second)
	if ok, held := th.Allow("a"); !ok || held != 3 {
		t.Errorf("after the interval: %v, %d held; want true, 3", ok, held)
	}
	if ok, _ := th.Allow("a"); ok {
		t.Error("the interval did not start again")
	}
}

// TestThrottleBounded: kinds that come and go (a Redis node's address
// among many) are dropped once their interval has passed, where each
// stayed for ever.
func TestThrottleBounded(t *testing.T) {
	th := New(time.Second)
	now := time.Unix(1000, 0)
	th.now = func() time.Time { return now }
	for i := range 10_000 {
		th.Allow(fmt.Sprint("node-", i))
		now = now.Add(100 * time.Millisecond)
	}
	if n := len(th.last); n > 4*minSweep {
		t.Errorf("%d kinds kept after 10,000 that came and went; want at most %d", n, 4*minSweep)
	}
}

func TestThrottleConcurrent(t *testing.T) {
	th := New(time.Hour)
	var wg sync.WaitGroup
	var mu sync.Mutex
	through := 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if ok, _ := th.Allow("k"); ok {
					mu.Lock()
					through++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if through != 1 {
		t.Errorf("%d lines went through in one interval, want 1", through)
	}
}

// TestLogger: a Logger lets the first line of a message through, holds
// back repeats within the interval and counts them on the next line;
// another message has its own interval.
func TestLogger(t *testing.T) {
	var out strings.Builder
	l := NewLogger(slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	})))
	now := time.Unix(1000, 0)
	l.throttle.now = func() time.Time { return now }
	ctx := context.Background()
	for range 3 {
		l.Log(ctx, slog.LevelWarn, "down", "node", "a")
	}
	l.Log(ctx, slog.LevelInfo, "up")
	now = now.Add(Interval)
	l.Log(ctx, slog.LevelWarn, "down", "node", "b")
	want := "level=WARN msg=down node=a\n" +
		"level=INFO msg=up\n" +
		"level=WARN msg=down node=b suppressed=2\n"
	if out.String() != want {
		t.Errorf("logged:\n%s\nwant:\n%s", out.String(), want)
	}
}
