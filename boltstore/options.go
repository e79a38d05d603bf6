package boltstore

import "log/slog"

// An Option configures a Store made by Open.
type Option func(*config)

type config struct {
	maxBytes int64        // bound on the pages in use; 0: none
	logger   *slog.Logger // never nil
}

// WithMaxBytes bounds the space the Store's live entries take in the file
// to about n bytes: the bytes of the pages in use (the file's pages less
// the free ones bbolt reuses), which include bbolt's own overhead on top
// of the keys and values. When a write would go over n, the Store first
// removes expired entries and then the oldest written, in the same
// transaction. An entry that would take more than n by itself is refused
// by Set. Without this option (or with n <= 0) the file keeps every entry
// until it expires. n bounds the data, not the file: see the package
// documentation for how the file grows.
func WithMaxBytes(n int64) Option {
	return func(c *config) { c.maxBytes = max(n, 0) }
}

// WithLogger sets the logger for what the Store cannot return as an
// error: the first value that failed its checksum (a miss, which is not
// an error) and how many did by Close; the damage that made the Store
// stop using its file (the Client logs the errors too, throttled). The
// default, like the Client's, discards everything; a nil l keeps it.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}
