package redisstore

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// logEvery is the least time between two log lines of one kind.
const logEvery = 10 * time.Second

// A throttledLog logs one kind of message at most once every logEvery and
// reports how many lines it held back in between.
type throttledLog struct {
	logger *slog.Logger

	mu         sync.Mutex
	last       map[string]time.Time // by message
	suppressed map[string]int       // by message
}

func newThrottledLog(l *slog.Logger) *throttledLog {
	return &throttledLog{logger: l, last: map[string]time.Time{}, suppressed: map[string]int{}}
}

func (t *throttledLog) warn(msg string, args ...any) { t.log(slog.LevelWarn, msg, args...) }
func (t *throttledLog) info(msg string, args ...any) { t.log(slog.LevelInfo, msg, args...) }

func (t *throttledLog) log(level slog.Level, msg string, args ...any) {
	t.mu.Lock()
	now := time.Now()
	if last, ok := t.last[msg]; ok && now.Sub(last) < logEvery {
		t.suppressed[msg]++
		t.mu.Unlock()
		return
	}
	n := t.suppressed[msg]
	t.last[msg], t.suppressed[msg] = now, 0
	t.mu.Unlock()
	if n > 0 {
		args = append(args, "suppressed", n)
	}
	t.logger.Log(context.Background(), level, msg, append(args, "component", "redisstore")...)
}
