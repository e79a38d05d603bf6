package main

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"time"
)

// newFlags returns the flag set of command c, whose -h prints c's help.
func newFlags(c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.Usage = func() { c.printHelp(fs) }
	return fs
}

// parseArgs parses args into fs, with flags allowed anywhere among the
// arguments ("test /x -file f" as well as "test -file f /x"), and returns
// the arguments that are not flags, in order. Everything after "--" is an
// argument. With -h it prints the usage to standard output and returns
// exitOK; on a bad flag it prints the error, made printable, and the usage
// to standard error and returns exitUsage. done is false when the command
// should go on.
func parseArgs(fs *flag.FlagSet, args []string, e env) (pos []string, code int, done bool) {
	// The flag package writes its errors, which quote the arguments as
	// typed, to fs's output before the usage: that output is kept from
	// the terminal, and only the usage, which is the command's own text,
	// is passed on.
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	for {
		err := fs.Parse(args)
		switch {
		case errors.Is(err, flag.ErrHelp):
			e.stdout.Write(buf.Bytes())
			return nil, exitOK, true
		case err != nil:
			e.errorf("%s: %v", fs.Name(), err)
			fs.SetOutput(e.stderr)
			fs.Usage()
			return nil, exitUsage, true
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		// The flag package stops at the first argument that is not a
		// flag, and after a "--" it has consumed.
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	fs.SetOutput(e.stderr)
	return pos, exitOK, false
}

// defaultTimeout is the default of every command's -timeout: as long as the
// Client gives one robots.txt fetch by default (10 seconds), so that a
// command waits for a site as long as a crawler using the Client would.
const defaultTimeout = 10 * time.Second

// timeoutFlag defines a -timeout flag on fs, a positive duration with
// defaultTimeout as its default, that bounds what.
func timeoutFlag(fs *flag.FlagSet, what string) *time.Duration {
	d := defaultTimeout
	fs.Var((*timeout)(&d), "timeout", "longest `duration` of "+what)
	return &d
}

// A timeout is the value of a -timeout flag: a duration that must be
// positive, as a fetch with no time to run can only fail.
type timeout time.Duration

func (t *timeout) String() string { return time.Duration(*t).String() }

func (t *timeout) Set(s string) error {
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return errors.New("not a duration such as 10s or 500ms")
	case d <= 0:
		return errors.New("must be positive")
	}
	// A fetch gets a second of grace past it (see fetcher.read), which
	// must not wrap the largest duration round to a deadline passed.
	*t = timeout(min(d, math.MaxInt64-time.Second))
	return nil
}
