// Command robotstxt checks URLs against robots.txt files, live through the
// caching client or offline against a local file, and lints robots.txt
// files with the parser's diagnostics.
//
// Usage:
//
//	robotstxt check [-agent TOKEN] [-ua UA] [-timeout D] [-rfc9309] [-legacy] [-v] URL...
//	robotstxt test -file robots.txt [-agent TOKEN] [-rfc9309] URL...
//	robotstxt lint [-q] [-rfc9309] FILE...
//	robotstxt help [COMMAND]
//
// Exit codes:
//
//	0  every URL allowed; lint found no problems
//	1  at least one URL disallowed; lint found problems
//	2  usage error, unreadable input or a URL that cannot be checked
//	3  check only: a robots.txt was unreachable, so the answer is deferred
//
// When URLs give different outcomes the highest code wins.
package main

import (
	"io"
	"os"
)

func main() {
	os.Exit(runIO(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run runs the command line args (without the program name) with no
// standard input, writing results to stdout and problems to stderr, and
// returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	return runIO(args, eofReader{}, stdout, stderr)
}

// runIO is run with a standard input, read by "-" file arguments.
func runIO(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	e := env{stdin: stdin, stdout: stdout, stderr: stderr}
	name, rest := args[0], args[1:]
	switch name {
	case "check":
		return runCheck(rest, e)
	case "test":
		return runTest(rest, e)
	case "lint":
		return runLint(rest, e)
	case "help", "-h", "-help", "--help":
		return runHelp(rest, e)
	}
	e.errorf("unknown command %q; run \"robotstxt help\" for usage", name)
	return exitUsage
}

// eofReader is an empty standard input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
