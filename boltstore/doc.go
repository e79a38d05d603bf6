// Package boltstore is a [robotstxt.Store] in a bbolt file, so that a
// crawler that restarts, for a deploy or after a crash, finds the
// robots.txt files it had fetched instead of fetching them all again.
//
// It is for one process: bbolt locks its file for a single writer, and a
// second [Open] of a file in use fails with [ErrLocked]. A fleet of
// processes that should share one cache, and fetch each robots.txt once
// between them, uses [github.com/robotsgate/robotstxt/redisstore].
//
// [Store.Set] records a value in memory, where [Store.Get] finds it at
// once, and a goroutine of the Store commits what was recorded, many Sets
// in one transaction. Every commit is synced to disk, and bbolt's commits
// are atomic: a crash (a kill, a power cut) loses only the values set
// during the last commit and after it, which are fetched again.
//
// # Damage
//
// The file is only a cache, and a damaged one never decides a check. Open
// refuses a file it cannot use with [ErrFormat], or with
// [WithReplaceDamaged] checks the whole file and starts afresh. Otherwise
// Open reads only the pages that lead to the Store's own metadata, and
// damage elsewhere is found when read: a value that fails its checksum is
// a miss, and a page that makes bbolt panic or fault stops the Store using
// its file ([ErrDamaged]). Either way the Client fetches robots.txt.
//
// Some damage no Go program survives, since the runtime ends a process
// whose stack overflows or that runs out of memory: bbolt 1.5 recurses
// for ever on a branch page that names itself, or a page above it, as a
// child (one flipped bit of a page number can do that), and allocates at
// Open as much as a damaged count in a long free list says. Such a file
// ends the process at the first Get or commit that reads the page, and
// again after each restart, unless it is removed or opened with
// [WithReplaceDamaged]. A damaged length in a page can also make bbolt
// copy up to gigabytes before it faults, from which the Store recovers.
package boltstore
