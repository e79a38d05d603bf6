// Command robotstxt tells site owners and crawler authors what crawlers
// make of a robots.txt. Every command reads a robots.txt exactly as the
// library's Client does: the same body pipeline (content coding, charset
// and UTF-16 conversion, the 500 KiB limit) and the same URL checks.
//
// Usage:
//
//	robotstxt check [-agent TOKEN] [-ua UA] [-timeout D] [-rfc9309] [-legacy] [-expect allow|disallow] [-v] URL...
//	robotstxt test -file FILE|-|URL [-agent TOKEN] [-rfc9309] [-full] [-expect allow|disallow] [-timeout D] URL|PATH...
//	robotstxt explain [-file FILE|-|URL] [-agent TOKEN] [-rfc9309] [-full] [-timeout D] URL|PATH...
//	robotstxt lint [-json] [-q] [-level error|warning|info] [-rfc9309] [-timeout D] FILE|-|URL...
//	robotstxt help [COMMAND]
//	robotstxt version
//
// Exit codes:
//
//	0  every URL allowed (or as -expect says); lint found no error
//	1  a URL disallowed (or not as -expect says); lint found an error
//	2  usage error, unreadable input, or a URL the Client cannot check
//	3  a robots.txt fetched over HTTP was unreachable: the answer is deferred
//
// When URLs or files give different outcomes the highest code wins.
package main

import (
	"fmt"
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

// command returns the function that runs the named command, or nil.
func command(name string) func(args []string, e env) int {
	switch name {
	case "check":
		return runCheck
	case "test":
		return runTest
	case "explain":
		return runExplain
	case "lint":
		return runLint
	case "version":
		return runVersion
	}
	return nil
}

// runIO is run with a standard input, read by "-" arguments.
func runIO(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		return runHelp(rest, e)
	case "-version", "--version":
		return runVersion(rest, e)
	}
	if cmd := command(name); cmd != nil {
		return cmd(rest, e)
	}
	e.errorf("unknown command %q; run \"robotstxt help\" for usage", name)
	return exitUsage
}

// eofReader is an empty standard input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// usageText is the top-level help, printed by "robotstxt help".
const usageText = `robotstxt tells what crawlers make of a robots.txt. It reads files exactly
as the robotstxt Client does: content coding, charset and UTF-16 converted,
only the first 500 KiB read, and URLs accepted only where the Client accepts
them.

Commands:
  check [-agent TOKEN] [-v] [-expect allow|disallow] URL...
      Fetch each URL's robots.txt, once per site, as a crawler would, and
      print the decision, HTTP status and deciding rule; -v adds the
      requests and redirects, and why a robots.txt could not be read.
        robotstxt check -agent Googlebot -v https://example.com/cart
  test -file FILE|-|URL [-agent TOKEN] [-expect allow|disallow] URL|PATH...
      Check URLs, or paths that start with /, against one robots.txt: a
      file, standard input ("-") or the robots.txt of a URL's site.
        robotstxt test -file robots.txt -agent Googlebot /private/x /
        robotstxt test -file robots.txt -expect disallow /admin/ /cart
  explain [-file FILE|-|URL] [-agent TOKEN] URL|PATH...
      Say why: the groups that apply to the agent and why, every rule that
      matches with its line, text as written and length, which one wins
      and why, and where RFC 9309 reads the URL otherwise. Without -file it
      fetches each URL's robots.txt as check does.
        robotstxt explain -file robots.txt -agent FooBot /private/x
  lint [-json] [-q] [-level error|warning|info] FILE|-|URL...
      Find what changes what crawlers do (errors), what is likely a mistake
      (warnings) and what is tolerated (infos). -json prints one object per
      file; run "robotstxt help lint" for its fields.
        robotstxt lint robots.txt
        robotstxt lint -json https://example.com/robots.txt
  help [COMMAND]
      Print this text, or the flags of COMMAND.
  version
      Print the version.

Flags may come before or after the arguments. The default crawler token
is %q. Add -rfc9309 to read as RFC 9309 strictly does instead of
as Google's parser, and -full to test or explain a file past the 500 KiB
that crawlers read.

Exit codes:
  0  every URL allowed, or as -expect says; lint found no error
  1  a URL disallowed, or not as -expect says; lint found an error
  2  usage error, unreadable input, or a URL the Client cannot check
  3  a robots.txt fetched over HTTP was unreachable (5xx, 429, network
     error, timeout) with no earlier copy: the answer is deferred
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
	case "check", "test", "explain", "lint":
		return command(args[0])([]string{"-h"}, e)
	case "version":
		fmt.Fprintln(e.stdout, "Usage: robotstxt version\n\nPrint the module version and the Go version it was built with.")
		return exitOK
	}
	e.errorf("no help for %q; commands are check, test, explain, lint and version", args[0])
	return exitUsage
}
