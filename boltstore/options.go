package boltstore

import "log/slog"

// An Option configures a Store made by Open.
type Option func(*config)

type config struct {
	maxBytes int64        // bound on the pages in use; 0: none
	replace  bool         // check the file, and replace it if unusable
	logger   *slog.Logger // never nil
}

// WithMaxBytes bounds the pages in use by the Store's live entries,
// bbolt's overhead included, to about n bytes: a write that would go over
// n first removes expired entries, then the oldest written, in the same
// transaction, and Set refuses an entry that would take more than n by
// itself. n <= 0 sets no bound: entries stay until they expire (each
// commit removes up to a thousand expired ones).
//
// n bounds the data, not the file, which bbolt never shrinks: it reuses
// freed pages and grows the file to the next power of two under 16 MiB,
// then 16 MiB past what it needs (in tests, 2 MiB for a bound of 1 MiB,
// 49 MiB for 32 MiB). To get the space back, stop the crawler and delete
// the file, or compact it offline (bbolt compact -o robots.new.db
// robots.db, then rename).
func WithMaxBytes(n int64) Option {
	return func(c *config) { c.maxBytes = max(n, 0) }
}

// WithReplaceDamaged has [Open] check every page of the file, on the
// calling goroutine, and start afresh rather than fail with [ErrFormat]:
// Open renames the file to path + ".unusable", replacing an earlier one,
// logs it, and opens an empty Store at path. It still fails with
// [ErrLocked] and with errors of the operating system. Without it, Open
// reads only the Store's metadata, and damage elsewhere is found when
// read ([ErrDamaged]).
//
// In tests the check took 50 ms for 10,000 entries of 1 KiB (20 MiB) and
// half a second for 100,000 (224 MiB) in the page cache, where an Open
// without it takes a third of a millisecond. A check that ends the
// process (see the package documentation) leaves path + ".checking"
// behind, and the next Open replaces the file: the crawler dies twice,
// not in a loop.
func WithReplaceDamaged() Option {
	return func(c *config) { c.replace = true }
}

// WithLogger sets the logger for what the Store cannot return as an
// error: the first value that failed its checksum, and how many did by
// Close; the damage that made the Store stop using its file; a file that
// WithReplaceDamaged replaced. The default discards everything; a nil l
// keeps it.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}
