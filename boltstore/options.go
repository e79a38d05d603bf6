package boltstore

import (
	"log/slog"

	"github.com/robotsgate/robotstxt/internal/sturdylog"
)

// An Option configures a Store made by Open.
type Option func(*config)

type config struct {
	maxBytes int64        // bound on the pages in use; 0: none
	replace  bool         // check the file, and replace it if unusable
	logger   *slog.Logger // never nil
}

// WithMaxBytes bounds the pages in use by the Store's live entries,
// bbolt's overhead included, to about n bytes: a commit that would go
// over n first removes expired entries, then the oldest written, and Set
// refuses an entry that would take more than n by itself. n <= 0 sets no
// bound: entries stay until they expire (each commit removes up to a
// thousand expired ones, or as many as it wrote). bbolt never shrinks the file: it reuses freed
// pages, and grows the file to the next power of two under 16 MiB, then
// 16 MiB past its need (in tests, 2 MiB for a bound of 1 MiB, 49 MiB for
// 32 MiB); values of many pages each leave the freed pages apart, and the
// file grows to about 4n (4 MiB for 1 MiB of values up to 300 KB). To get
// the space back, stop the crawler and delete the file,
// or compact it (bbolt compact -o new.db robots.db) and rename new.db.
func WithMaxBytes(n int64) Option {
	return func(c *config) { c.maxBytes = max(n, 0) }
}

// WithReplaceDamaged has [Open] check every page of the file, on the
// calling goroutine, and start afresh rather than fail with [ErrFormat]:
// it renames the file to path + ".unusable", replacing an earlier one,
// logs it, and opens an empty Store at path, holding path + ".replacing"
// (a small bbolt file, left behind) open meanwhile as a lock. It still
// fails with [ErrLocked] (also when another Open is replacing the file)
// and errors of the operating system. Without it, Open reads only the
// Store's metadata, and finds damage elsewhere when read ([ErrDamaged]). In tests the check took 50 ms for 10,000 entries of 1
// KiB (20 MiB) and half a second for 100,000 (224 MiB) in the page cache;
// an Open without it, a third of a millisecond. A check that ends the
// process (see the package documentation) leaves path + ".checking"
// behind: the next Open checks again, and after two such ends in a row
// replaces the file.
func WithReplaceDamaged() Option {
	return func(c *config) { c.replace = true }
}

// WithLogger sets the logger for what the Store cannot return as an
// error: the first value that failed its checksum, and how many did by
// Close; the damage that made the Store stop using its file; a file that
// WithReplaceDamaged replaced. The default discards everything; a nil l
// keeps it. A panic in l's handler drops the record.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = sturdylog.New(l)
		}
	}
}
