package main

import (
	"fmt"
	"io"
	"strings"
)

// env is what a subcommand reads from and writes to.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// errorf writes one "robotstxt: …" line to standard error, made
// printable, as its arguments may quote a file or a server.
func (e env) errorf(format string, args ...any) {
	fmt.Fprintf(e.stderr, "robotstxt: %s\n", printable(fmt.Sprintf(format, args...)))
}

// fail writes err to standard error once, with the single "robotstxt: "
// prefix that errorf adds.
func (e env) fail(err error) {
	e.errorf("%s", errText(err))
}

// errText is the message of err without the "robotstxt: " prefixes that
// the library's wrapped errors carry at each level, so that a message
// printed by the command says it once.
func errText(err error) string {
	return strings.ReplaceAll(err.Error(), "robotstxt: ", "")
}
