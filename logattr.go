package robotstxt

import (
	"log/slog"
	"time"
)

// durationAttr is the log attribute of a duration: a Go duration string
// such as "1m0s", which reads the same under every handler, where
// slog.Duration gives JSON a count of nanoseconds.
func durationAttr(key string, d time.Duration) slog.Attr {
	return slog.String(key, d.String())
}
