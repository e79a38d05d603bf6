// Package boltstore is a [robotstxt.Store] in a bbolt file, so that a
// crawler that restarts, for a deploy or after a crash, finds the
// robots.txt files it had fetched instead of fetching them all again. It
// is for one process ([ErrLocked]); a fleet of processes that should
// share one cache uses [github.com/robotsgate/robotstxt/redisstore].
//
// A goroutine of the Store commits what [Store.Set] recorded, many Sets in
// one transaction, and syncs each commit to disk. bbolt's commits are
// atomic: a crash loses only the values set during the last commit and
// after it, which are fetched again.
//
// The file is only a cache, and a damaged one never decides a check (see
// [ErrFormat] and [ErrDamaged]). Some damage no Go program survives, since
// the runtime ends a process whose stack overflows or that runs out of
// memory: bbolt 1.5 recurses for ever on a branch page that names itself,
// or a page above it, as a child (one flipped bit of a page number can do
// that). Such a file ends the process at the first Get or commit that
// reads the page, and again after each restart, unless it is removed or
// opened with [WithReplaceDamaged] (whose check, ended so twice in a
// row, replaces it). bbolt also allocates, as it opens a file, as much
// as the count of a long free list says, which no checksum covers, and
// rebuilds a list the file does not keep walking every tree on a
// goroutine no recover reaches: [Open] refuses a count past the list's
// pages and a file keeping no list (boltstore writes none so). A damaged length in a page can also
// make bbolt copy up to gigabytes before it faults, from which the Store
// recovers.
package boltstore
