package main

import (
	"fmt"
	"io"
)

// env is what a subcommand reads from and writes to.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// errorf writes one "robotstxt: …" line to standard error.
func (e env) errorf(format string, args ...any) {
	fmt.Fprintf(e.stderr, "robotstxt: "+format+"\n", args...)
}
