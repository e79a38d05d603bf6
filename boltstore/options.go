package boltstore

import "log/slog"

// An Option configures a Store made by Open.
type Option func(*config)

type config struct {
	maxBytes int64        // bound on the pages in use; 0: none
	replace  bool         // check the file, and replace it if unusable
	logger   *slog.Logger // never nil
}

// WithMaxBytes bounds the space the Store's live entries take in the file
// to about n bytes of pages in use, bbolt's overhead included: a write
// that would go over n first removes expired entries, then the oldest
// written, in the same transaction, and Set refuses an entry that would
// take more than n by itself. n <= 0 sets no bound: entries stay until
// they expire (each commit removes up to a thousand expired ones).
//
// n bounds the data, not the file. bbolt never shrinks its file: it
// reuses freed pages, and grows the file to the next power of two under
// 16 MiB, then 16 MiB past what it needs, so the file settles at its
// largest size so far (in tests, 2 MiB for a bound of 1 MiB, 49 MiB for
// 32 MiB). To get the space back, stop the crawler and delete the file,
// or compact it offline (bbolt compact -o robots.new.db robots.db, then
// rename).
func WithMaxBytes(n int64) Option {
	return func(c *config) { c.maxBytes = max(n, 0) }
}

// WithReplaceDamaged has [Open] check the whole file before using it and
// start afresh rather than fail with [ErrFormat]: Open then renames the
// file to its path with ".unusable" appended, replacing an earlier file
// of that name, logs it, and opens an empty Store at the path. Use it in
// a crawler that stops when Open fails, so that a damaged cache costs
// fetches, not a crawler that cannot start. Open still fails with
// [ErrLocked], and with errors of the operating system (permissions, a
// full disk).
//
// The check reads every page in use, on the calling goroutine: in tests,
// 50 ms for 10,000 entries of 1 KiB (a 20 MiB file) and half a second for
// 100,000 (224 MiB) in the page cache, plus the time to read the file
// from a cold disk; an Open without it takes a third of a millisecond. A
// check that ends the process (see the package documentation) leaves a
// file path + ".checking" behind, and the next Open replaces the file:
// the crawler dies twice, not in a loop.
func WithReplaceDamaged() Option {
	return func(c *config) { c.replace = true }
}

// WithLogger sets the logger for what the Store cannot return as an
// error: the first value that failed its checksum (a miss, which is not
// an error) and how many did by Close; the damage that made the Store
// stop using its file (the Client logs the errors too, throttled); a
// file that WithReplaceDamaged replaced. The default, like the Client's,
// discards everything; a nil l keeps it.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}
