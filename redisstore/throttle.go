package redisstore

import (
	"context"
	"log/slog"
	"time"

	"github.com/robotsgate/robotstxt/internal/logthrottle"
)

// logEvery is the least time between two log lines of one kind.
const logEvery = 10 * time.Second

// A throttledLog logs each message at most once every logEvery, and
// reports how many lines it held back in between.
type throttledLog struct {
	logger   *slog.Logger
	throttle *logthrottle.Throttle
}

func newThrottledLog(l *slog.Logger) *throttledLog {
	return &throttledLog{logger: l, throttle: logthrottle.New(logEvery)}
}

func (t *throttledLog) warn(msg string, args ...any) { t.log(slog.LevelWarn, msg, args...) }
func (t *throttledLog) info(msg string, args ...any) { t.log(slog.LevelInfo, msg, args...) }

func (t *throttledLog) log(level slog.Level, msg string, args ...any) {
	ok, n := t.throttle.Allow(msg)
	if !ok {
		return
	}
	if n > 0 {
		args = append(args, "suppressed", n)
	}
	t.logger.Log(context.Background(), level, msg, append(args, "component", "redisstore")...)
}
