// Package boltstore is a [robotstxt.Store] in a bbolt file, so that a
// crawler that restarts, for a deploy or after a crash, finds the
// robots.txt files it had fetched instead of fetching them all again.
//
// Use it as
//
//	st, err := boltstore.Open("robots.db")
//	if err != nil {
//		log.Fatal(err)
//	}
//	defer st.Close() // after the Client's Close
//	c := robotstxt.NewClient(robotstxt.WithStore(st))
//
// # boltstore or redisstore
//
// boltstore is for one process. bbolt locks its file for a single
// writer: a second [Open] of a file in use, from this process or
// another, fails at once with [ErrLocked]. A fleet of processes that
// should share one cache, and fetch each robots.txt once between them,
// uses [github.com/robotsgate/robotstxt/redisstore] instead.
//
// # Writes
//
// A bbolt commit waits for the disk (fsync), which takes milliseconds;
// the Client writes to its Store before the checks waiting for a fetch
// get their answer. So [Store.Set] only records the value in memory,
// where [Store.Get] finds it at once, and a goroutine of the Store
// commits what was recorded, many Sets in one transaction. If the disk
// falls behind and 16 MiB of values are waiting (a quarter of the
// [WithMaxBytes] bound, if less), Set waits for room until its context
// is done (the Client's Store timeout, 200 ms by default); the Client
// logs the failed Set and keeps the entry in memory only. A commit that
// fails (on a full disk, say) loses its batch, and the next Set returns
// its error for the Client to log. [Store.Close] commits what is waiting
// before it closes the file.
//
// # Durability
//
// Every commit is synced to disk, and bbolt's commits are atomic: a
// crash (a kill, a power cut) leaves the file as the last commit left
// it, and the next Open finds every entry committed before the crash.
// A crash loses only what was not committed yet: the values set during
// the last commit and after it, which are only cache and are fetched
// again.
//
// # Layout
//
// The file holds four buckets. "values" maps each key (an authority
// such as "https://example.com:443") to its expiry (8 bytes, big-endian
// Unix nanoseconds), its write sequence (8 bytes) and the Client's
// value. "expiry" (key: expiry and sequence) and "written" (key:
// sequence) index the entries by when they expire and when they were
// written; their values are the keys. "meta" holds the layout version
// (1) and the live entries' total size as the Store counts it. Every
// change to an entry updates its three rows and the total in one
// transaction.
//
// A value is a miss as soon as it expires. Each commit also removes up
// to a thousand expired entries from the file.
//
// # Size
//
// Without a bound, the file holds every entry until it expires. With
// WithMaxBytes(n), the pages in use (the file's pages less the free ones)
// stay near n: a commit that would go over removes expired entries, then
// the oldest written, in the same transaction.
//
// bbolt never shrinks its file. It reuses the pages that removals free
// (and those each commit frees by writing changed pages afresh), and
// grows the file only when none is free: to the next power of two while
// it is under 16 MiB, then by 16 MiB more than it needs. So the file
// settles at its largest size so far, above the pages in use: in tests,
// a bound of 1 MiB gave a file of 2 MiB, and one of 32 MiB a file of 49
// MiB. To get the space back, stop the crawler and delete the file (it is
// only a cache: the crawler fetches again what it needs), or compact it
// offline with bbolt's command-line tool
// (bbolt compact -o robots.new.db robots.db, then rename).
//
// # Files it cannot use
//
// Open refuses with [ErrFormat] a file that is not bbolt, is cut short,
// belongs to another program, or has another layout version, and leaves
// it as it is. The values it returns are the bytes stored: the Client
// decodes them and treats what it cannot read as a miss. bbolt trusts
// its pages: a file damaged inside (by a failing disk, say) can make
// bbolt panic, which Open reports as ErrFormat, or fault later on.
// Delete such a file.
package boltstore
