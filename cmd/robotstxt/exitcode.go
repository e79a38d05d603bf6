package main

// Exit codes. When several URLs or files give different outcomes, the
// highest code wins; exitCodes says what each means.
const (
	exitOK         = 0
	exitDisallowed = 1
	exitUsage      = 2
	exitDeferred   = 3
)

// exitCodes says what each exit code means, in the one table that the
// help prints and that a test holds the package comment to. With -expect
// a deferred URL meets no expectation: the exit code is exitDisallowed
// (see expectation.judge).
var exitCodes = [...]string{
	exitOK:         "every URL allowed, or as -expect says; lint found no error",
	exitDisallowed: "a URL disallowed, or not as -expect says; lint found an error",
	exitUsage:      "usage error, unreadable input, nothing to lint, or a URL the Client cannot check",
	exitDeferred:   "a robots.txt fetched over HTTP was unreachable (5xx, 429, network error, timeout) with no earlier copy: the answer is deferred",
}

// worst returns the exit code that wins of a and b.
func worst(a, b int) int { return max(a, b) }
