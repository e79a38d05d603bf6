package main

// Exit codes. When several URLs or files give different outcomes, the
// highest code wins.
const (
	// exitOK: every URL is allowed (or meets -expect), or lint found no
	// error.
	exitOK = 0
	// exitDisallowed: at least one URL is disallowed (or, with -expect,
	// does not meet the expectation), or lint found an error.
	exitDisallowed = 1
	// exitUsage: bad flags or arguments, an unreadable file, or a URL the
	// client cannot check (not http or https, bad host).
	exitUsage = 2
	// exitDeferred: a robots.txt fetched over HTTP could not be read (5xx,
	// 429, network error, timeout) and no earlier copy was at hand, so the
	// crawler must come back later. With -expect such a URL meets no
	// expectation, and the exit code is exitDisallowed.
	exitDeferred = 3
)

// worst returns the exit code that wins of a and b.
func worst(a, b int) int { return max(a, b) }
