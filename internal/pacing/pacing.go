// Package pacing holds what every robotstxt.Pacer shares: how long a turn
// that is never ended holds its authority.
package pacing

import "time"

// TurnTimeout bounds how long one request in flight keeps the next
// request to its authority waiting when its turn is not ended (a
// RoundTripper that never returns, a process that died): the next request
// may start TurnTimeout, or its interval if that is longer, after the
// turn began. Thirty seconds is longer than almost any page takes to
// arrive, so a live request is never overtaken, and short enough that a
// dead process holds a site up for no longer than a slow page would.
const TurnTimeout = 30 * time.Second
