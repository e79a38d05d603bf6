package robotstxt

import (
	"log/slog"
	"time"
)

// durationAttr is the log attribute of a duration: a Go duration string
// such as "1m0s", rounded, which reads the same under every handler
// (slog.Duration gives JSON nanoseconds).
func durationAttr(key string, d time.Duration) slog.Attr {
	return slog.String(key, roundDuration(d).String())
}

// roundDuration rounds d to the millisecond, or to the microsecond when
// it is shorter than a millisecond, so that it is not rounded to 0.
func roundDuration(d time.Duration) time.Duration {
	if d > -time.Millisecond && d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(time.Millisecond)
}
