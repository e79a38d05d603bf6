package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
)

// newFlags returns a flag set for a subcommand whose usage line is
// synopsis and whose description is about.
func newFlags(name, synopsis, about string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: robotstxt %s %s\n\n%s\n\nFlags:\n", name, synopsis, about)
		fs.PrintDefaults()
		fmt.Fprintf(w, "\nRun \"robotstxt help\" for the exit codes.\n")
	}
	return fs
}

// parseFlags parses args into fs. With -h it prints the usage to standard
// output and returns exitOK; on a bad flag it prints the error and usage to
// standard error and returns exitUsage. done is false when the command
// should go on.
func parseFlags(fs *flag.FlagSet, args []string, e env) (code int, done bool) {
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		e.stdout.Write(buf.Bytes())
		return exitOK, true
	case err != nil:
		e.stderr.Write(buf.Bytes())
		return exitUsage, true
	}
	fs.SetOutput(e.stderr)
	return exitOK, false
}
