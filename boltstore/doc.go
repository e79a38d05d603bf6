// Package boltstore is a [robotstxt.Store] in a bbolt file, so that a
// crawler that restarts, for a deploy or after a crash, finds the
// robots.txt files it had fetched instead of fetching them all again.
//
// Use it as
//
//	st, err := boltstore.Open("robots.db", boltstore.WithReplaceDamaged())
//	if err != nil {
//		log.Fatal(err) // boltstore.ErrLocked: another crawler has the file
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
// A crash loses only the values set during the last commit and after
// it, which are only cache and are fetched again.
//
// # Layout
//
// The file holds four buckets. "values" maps each key (an authority
// such as "https://example.com:443") to its expiry (8 bytes, big-endian
// Unix nanoseconds), its write sequence (8 bytes), a checksum (4 bytes,
// big-endian: the CRC-32C of the key, the expiry and sequence, and the
// value) and the Client's value. "expiry" (key: expiry and sequence)
// and "written" (key: sequence) index the entries by when they expire
// and when they were written; their values are the keys. "meta" holds
// the layout version (2) and the live entries' total size as the Store
// counts it. Every change to an entry updates its three rows and the
// total in one transaction. Open empties a file of layout 1, whose
// values had no checksum, and lays it out anew: the crawler fetches its
// entries again.
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
// only a cache), or compact it offline with bbolt's command-line tool
// (bbolt compact -o robots.new.db robots.db, then rename).
//
// # Files it cannot use
//
// Open refuses with [ErrFormat], and leaves as it is, a file that is not
// bbolt, is another program's bbolt file, or has a later layout
// version; and a damaged file (the error then wraps [ErrDamaged] too):
// one cut short (Open opens it read-only first, and compares the size of
// the pages bbolt counts with the file's, before anything reads past its
// end), one whose two meta pages fail their checksums, and one that
// bbolt panics, or faults, reading as it opens it (a damaged free list
// page). bbolt keeps its mapping of that last kind of file, and the
// file's lock, until the process exits: Open refuses it again, rather
// than report it in use; removing or renaming it and opening anew works.
//
// Beyond that, Open reads only the pages that lead to the Store's own
// metadata, and a damage elsewhere is found when read:
//
//   - A value that fails its checksum is a miss: the Client fetches
//     robots.txt, and its Set replaces the value. So a damaged value,
//     or one moved under another key, never decides a check. The Store
//     logs the first (see [WithLogger]), and at Close how many Gets met
//     one.
//   - bbolt trusts its pages: a damaged one can make it panic, or read
//     past the end of the file it maps, which raises a fault. The Store
//     recovers from both, in Get, in the writer's commits and in Close
//     (it has a fault raise a panic on the goroutine that makes the
//     call, while the call lasts). The call fails with an error wrapping
//     ErrDamaged, the Store logs it once and stops using the file:
//     every later Get and Set fails at once, and the Client, which
//     treats a Store's errors as its failures, fetches robots.txt
//     itself. Close returns the damage, after waiting at most a second
//     for bbolt to let go of the file.
//
// [WithReplaceDamaged] has Open check the whole file first, and start
// afresh rather than fail on a file it cannot use: it renames the file
// to its path + ".unusable" and opens an empty Store. Use it in a
// crawler that stops when Open fails, so that a damaged cache costs
// fetches, not a crawler that cannot start.
//
// Some damage no Go program survives, since the runtime ends a process
// whose stack overflows or that runs out of memory: bbolt 1.5 follows a
// branch page that names itself, or a page above it, as a child (one
// flipped bit of a page number can do that) for ever, recursing until
// the stack overflows (seconds, and a gigabyte of stack) or, walking to
// the first key, growing memory until the process is killed; a damaged
// count in a long free list makes it allocate as much as the count says
// at Open. Such a file ends the process at the first Get or commit that
// reads the page, and again after each restart. With WithReplaceDamaged
// the check reads every page, and so ends the process at the next
// start; but it marks the check in a file beside it (path +
// ".checking"), and the start after that replaces a file whose check
// did not end: the crawler dies twice, not in a loop. Without it, remove
// the file. A damaged length in a page can also make bbolt copy as many
// bytes as it says before it faults: a burst of up to gigabytes of
// memory, from which the Store recovers.
package boltstore
