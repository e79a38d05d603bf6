package main

import (
	"fmt"
	"io"
)

// usageText is the top-level help, printed by "robotstxt help".
const usageText = `robotstxt checks URLs against robots.txt files and lints them.

Usage:
  robotstxt check [-agent TOKEN] [-ua USER-AGENT] [-timeout D] [-rfc9309] [-legacy] [-v] URL...
      Fetch each URL's robots.txt (cached per host, as a crawler would) and
      print the decision, HTTP status, deciding rule and line, and whether
      the answer is stale or deferred.
  robotstxt test -file FILE [-agent TOKEN] [-rfc9309] URL...
      Check URLs or paths against a local robots.txt (FILE "-" is standard
      input), offline.
  robotstxt lint [-q] [-rfc9309] FILE...
      Print what the parser skipped, tolerated or cut, as FILE:LINE: reason,
      and a summary per file.
  robotstxt help [COMMAND]
      Print this text, or the flags of COMMAND.

Flags go before the URLs or files. The default crawler token is %q.

Exit codes:
  0  every URL allowed; lint found no problems
  1  at least one URL disallowed; lint found problems
  2  usage error, unreadable file, or a URL that cannot be checked
  3  check only: a robots.txt was unreachable (5xx, 429, network error,
     timeout) with no earlier copy, so the answer is deferred: come back later
When URLs or files give different outcomes, the highest code wins.
`

// printUsage writes the top-level help to w.
func printUsage(w io.Writer) {
	fmt.Fprintf(w, usageText, defaultAgent)
}

// runHelp prints the top-level help, or the flags of the named command.
func runHelp(args []string, e env) int {
	if len(args) == 0 {
		printUsage(e.stdout)
		return exitOK
	}
	switch args[0] {
	case "check", "test", "lint":
		return runIO([]string{args[0], "-h"}, e.stdin, e.stdout, e.stderr)
	}
	e.errorf("no help for %q; commands are check, test and lint", args[0])
	return exitUsage
}
