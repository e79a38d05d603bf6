// Package pacing holds what every robotstxt.Pacer shares.
package pacing

import (
	"time"

	"github.com/robotsgate/robotstxt/internal/parse"
)

// TurnTimeout bounds how long a request whose turn is never ended (a
// RoundTripper that never returns, a process that died) holds its
// authority: the next may start TurnTimeout after the turn began, or its
// interval if longer. Thirty seconds outlasts almost any page, and holds a
// site up no longer than a slow page would.
const TurnTimeout = 30 * time.Second

// MaxAhead bounds every span of pacing time a Pacer keeps, an interval
// or a hold however long it is asked for: the longest crawl-delay the
// parser reads, also the Transport's default bound on intervals.
const MaxAhead = parse.MaxCrawlDelay
