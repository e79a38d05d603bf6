package main

import (
	"fmt"
	"io"

	"github.com/robotsgate/robotstxt"
)

// printStats writes the crawl's totals and the Client's cache statistics.
func printStats(w io.Writer, res result, s robotstxt.Stats) {
	fmt.Fprintf(w, "\ncrawl: %d pages fetched, %d disallowed, %d deferred\n",
		len(res.Fetched), len(res.Disallowed), len(res.Deferred))
	f := s.Fetches
	fmt.Fprintf(w, "robots.txt fetches: %d (rules %d, allow-all %d, disallow-all %d, unreachable %d, not modified %d)\n",
		f.Total(), f.Rules, f.AllowAll, f.DisallowAll, f.Unreachable, f.NotModified)
	fmt.Fprintf(w, "client cache: hits %d, misses %d, stale %d, deferred %d, entries %d, evictions %d\n",
		s.Hits, s.Misses, s.StaleServed, s.Deferred, s.Entries, s.Evictions)
}
