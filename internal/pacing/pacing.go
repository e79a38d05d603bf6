// Package pacing holds what every robotstxt.Pacer shares: how long a turn
// that is never ended holds its authority.
package pacing

import "time"

// TurnTimeout bounds how long a request whose turn is never ended (a
// RoundTripper that never returns, a process that died) holds its
// authority: the next request may start TurnTimeout after the turn
// began, or its interval if longer. Thirty seconds is longer than almost
// any page takes, and holds a site up no longer than a slow page would.
const TurnTimeout = 30 * time.Second
