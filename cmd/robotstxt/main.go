// Command robotstxt tells site owners and crawler authors what crawlers
// make of a robots.txt. Every command reads a robots.txt exactly as the
// library's Client does: the same body pipeline (content coding, charset
// and UTF-16 conversion, the 500 KiB limit) and the same URL checks.
//
// Usage:
//
//	robotstxt check [-agent TOKEN] [-ua USER-AGENT] [-timeout D] [-rfc9309] [-legacy] [-tdmrep] [-expect allow|disallow] [-v] [-json] URL...
//	robotstxt test -file FILE|-|URL [-agent TOKEN] [-rfc9309] [-full] [-expect allow|disallow] [-timeout D] [-json] URL|PATH...
//	robotstxt explain [-file FILE|-|URL] [-agent TOKEN] [-rfc9309] [-full] [-timeout D] [-json] URL|PATH...
//	robotstxt lint [-json] [-q] [-level error|warning|info] [-rfc9309] [-agent TOKEN] [-timeout D] FILE|-|URL...
//	robotstxt help [COMMAND]
//	robotstxt version
//
// Exit codes:
//
//	0  every URL allowed, or as -expect says; lint found no error
//	1  a URL disallowed, or not as -expect says; lint found an error
//	2  usage error, unreadable input, nothing to lint, or a URL the Client cannot check
//	3  a robots.txt fetched over HTTP was unreachable (5xx, 429, network error, timeout) with no earlier copy: the answer is deferred
//
// When URLs or files give different outcomes the highest code wins.
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

// runIO is run with a standard input, read by "-" arguments.
func runIO(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	c := lookup(args[0])
	if c == nil {
		e.errorf("unknown command %q; the commands are %s (run \"robotstxt help\" for usage)", args[0], commandNames())
		return exitUsage
	}
	return c.run(c, args[1:], e)
}

// eofReader is an empty standard input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// commands is the table of robotstxt's commands, in the order the help
// lists them. Dispatch, the top-level help, "robotstxt help COMMAND" and
// the messages that name the commands read it, and a test checks the
// package comment's Usage block against it: a new command is one entry
// here.
var commands []*command

// The table is filled in by init, not where it is declared, because help,
// one of its commands, reads it.
func init() {
	commands = []*command{{
		name:  "check",
		usage: "[-agent TOKEN] [-ua USER-AGENT] [-timeout D] [-rfc9309] [-legacy] [-tdmrep] [-expect allow|disallow] [-v] [-json] URL...",
		short: `Fetch each URL's robots.txt, once per site, as a crawler would, and
print the decision, HTTP status, deciding rule and usage preferences,
with every signal of an allowed page; -v adds the requests and
redirects, and why a robots.txt could not be read; -json prints one
object per URL.`,
		long: `Fetch each URL's robots.txt (once per site, as a crawler would) and print
the decision, the HTTP status, the deciding rule as written and its line,
the path a server serves for the URL when that is what is disallowed, why
a robots.txt could not be read, and stale or deferred answers. An allowed
URL is fetched once, through the Transport a crawler sends its requests
through, and under it come the usage preferences of the agent's
Content-Usage rules (IETF AIPREF) and Content-Signal records, as test
shows them, then every other signal its receipt holds (the Content-Usage
header, X-Robots-Tag and robots META noai, TDMRep's header and META and,
with -tdmrep, the site's tdmrep.json), each with where it stands, and
what they all say together. A page waits for its turn while a Retry-After
holds its site; one that could not be read (no response, a body cut
short, a hold past -timeout) is said to be so, and why, and of what its
signals say together only an n, which no unread signal could undo. The
exit code is the verdict's, whether or not the page was read. A URL is
checked as net/http sends it (" as %22, { as %7B), as the Transport
checks it, and one that redirects where robots.txt disallows is
disallowed, or where it is unreachable deferred, as the Transport
refuses it.`,
		json:     urlJSONHelp + "\n" + checkJSONHelp,
		examples: []string{"-agent Googlebot -v https://example.com/ https://example.com/cart"},
		run:      runCheck,
	}, {
		name:  "test",
		usage: "-file FILE|-|URL [-agent TOKEN] [-rfc9309] [-full] [-expect allow|disallow] [-timeout D] [-json] URL|PATH...",
		short: `Check URLs, or paths that start with /, against one robots.txt: a
file, standard input ("-") or the robots.txt of a URL's site; -json
prints one object per URL.`,
		long: `Check URLs, or paths that start with /, against one robots.txt, read as a
crawler reads it: content coding, charset and UTF-16 converted, and only
the first 500 KiB read unless -full is given. FILE "-" is standard input;
an http or https URL reads the robots.txt of its site, fetched as check does.
A URL is checked as net/http sends it, as check's are. Under an allowed
URL, the usage preferences of the agent's Content-Usage rules (IETF
AIPREF) and Content-Signal records, when it has any, the lines they come
from, and what in them states no preference.`,
		json: urlJSONHelp,
		examples: []string{
			"-file robots.txt -agent Googlebot /private/x /",
			"-file robots.txt -expect disallow /admin/ /cart",
		},
		run: runTest,
	}, {
		name:  "explain",
		usage: "[-file FILE|-|URL] [-agent TOKEN] [-rfc9309] [-full] [-timeout D] [-json] URL|PATH...",
		short: `Say why: the groups that apply to the agent and why, every rule that
matches with its line, text as written and length, which one wins
and why, and where RFC 9309 reads the URL otherwise. Without -file it
fetches each URL's robots.txt as check does; -json prints one object
per URL.`,
		long: `Explain the decision for each URL: the groups that apply to the agent and
why (its own groups, merged, or the * group), every rule that matches with
its line, its text as written and its length, which rule decides and why
(longest match; allow wins a tie), the usage preferences of the agent's
Content-Usage rules and Content-Signal records and the lines they come
from, and where RFC 9309 reads the URL otherwise. With -file, URLs may be
paths that start with /; without it, each URL's robots.txt is fetched as
check does.`,
		json:     urlJSONHelp + "\n" + explainJSONHelp,
		examples: []string{"-file robots.txt -agent FooBot /private/x"},
		run:      runExplain,
	}, {
		name:  "lint",
		usage: "[-json] [-q] [-level error|warning|info] [-rfc9309] [-agent TOKEN] [-timeout D] FILE|-|URL...",
		short: `Find what changes what crawlers do (errors), what is likely a mistake
(warnings) and what is tolerated (infos). -json prints one object per
file; run "robotstxt help lint" for its fields and the codes.`,
		long: lintHelp,
		json: lintJSONHelp,
		examples: []string{
			"robots.txt",
			"-level warning -json https://example.com/robots.txt",
		},
		run: runLint,
	}, {
		name:    "help",
		aliases: []string{"-h", "-help", "--help"},
		usage:   "[COMMAND]",
		short:   "Print this text, or the help of COMMAND.",
		long:    "Print the help of robotstxt, or of COMMAND: what it does, and its flags.",
		run:     runHelp,
	}, {
		name:    "version",
		aliases: []string{"-version", "--version"},
		short:   "Print the version.",
		long:    "Print the module version and the Go version it was built with.",
		run:     runVersion,
	}}
}
