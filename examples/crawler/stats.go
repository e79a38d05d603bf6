package main

import (
	"fmt"
	"io"

	"github.com/robotsgate/robotstxt"
)

// printStats writes the crawl's totals, the Transport's counts and the
// Client's cache statistics.
func printStats(w io.Writer, res result, t robotstxt.TransportStats, s robotstxt.Stats) {
	fmt.Fprintf(w, "\ncrawl: %d pages fetched (%d noindex), %d disallowed, %d deferred (%d given up), %d paced, %d requeued\n",
		len(res.Fetched), len(res.NoIndex), len(res.Disallowed), res.Deferred, len(res.GivenUp), res.Paced, res.Requeued)
	fmt.Fprintf(w, "transport: sent %d, disallowed %d, deferred %d, paced %d, held %d, waited %v\n",
		t.Sent, t.Disallowed, t.Deferred, t.Paced, t.Held, t.Waited)
	f := s.Fetches
	fmt.Fprintf(w, "robots.txt fetches: %d (rules %d, allow-all %d, disallow-all %d, unreachable %d, not modified %d)\n",
		f.Rules+f.AllowAll+f.DisallowAll+f.Unreachable+f.NotModified, f.Rules, f.AllowAll, f.DisallowAll, f.Unreachable, f.NotModified)
	fmt.Fprintf(w, "client cache: hits %d, misses %d, stale %d, deferred %d, entries %d, evictions %d\n",
		s.Hits, s.Misses, s.StaleServed, s.Deferred, s.Entries, s.Evictions)
}
