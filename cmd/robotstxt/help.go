package main

import (
	"fmt"
	"io"
	"strings"
)

// usageIntro and usageEnd are the top-level help before and after the
// commands, and usageCodesEnd follows the exit codes. usageEnd has a %q
// for the default crawler token.
const (
	usageIntro = `robotstxt tells what crawlers make of a robots.txt. It reads files exactly
as the robotstxt Client does: content coding, charset and UTF-16 converted,
only the first 500 KiB read, and URLs accepted only where the Client accepts
them.

Commands:
`
	usageEnd = `
Flags may come before or after the arguments. The default crawler token
is %q. Add -rfc9309 to read as RFC 9309 strictly does instead of
as Google's parser, and -full to test or explain a file past the 500 KiB
that crawlers read.

Exit codes:
`
	usageCodesEnd = "When URLs or files give different outcomes, the highest code wins.\n"
)

// printUsage writes the top-level help to w: for each command of the
// table, its synopsis, what it does and its examples; then the exit
// codes.
func printUsage(w io.Writer) {
	io.WriteString(w, usageIntro)
	for _, c := range commands {
		fmt.Fprintf(w, "%s\n", wrap(c.name+" "+c.usage, "  ", "        ", 78))
		for line := range strings.SplitSeq(c.short, "\n") {
			fmt.Fprintf(w, "      %s\n", line)
		}
		c.printExamples(w, "        ")
	}
	fmt.Fprintf(w, usageEnd, defaultAgent)
	for c, about := range exitCodes {
		fmt.Fprintf(w, "%s\n", wrap(about, fmt.Sprintf("  %d  ", c), "     ", 78))
	}
	io.WriteString(w, usageCodesEnd)
}

// wrap breaks s at spaces into lines of at most width bytes where it can,
// the first line starting with first and the others with indent. A space
// inside brackets, as in "[-expect allow|disallow]", is no break.
func wrap(s, first, indent string, width int) string {
	var words []string
	depth, start := 0, 0
	for i := 0; i <= len(s); i++ {
		switch {
		case i == len(s) || s[i] == ' ' && depth == 0:
			if i > start {
				words = append(words, s[start:i])
			}
			start = i + 1
		case s[i] == '[':
			depth++
		case s[i] == ']':
			depth--
		}
	}
	var b strings.Builder
	b.WriteString(first)
	n := len(first)
	for i, w := range words {
		switch {
		case i == 0:
		case n+1+len(w) > width:
			b.WriteString("\n" + indent)
			n = len(indent)
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

// orList joins words as "a, b or c".
func orList(words []string) string { return joinWords(words, " or ") }

// andList joins words as "a, b and c".
func andList(words []string) string { return joinWords(words, " and ") }

// joinWords joins words with ", ", and the last two with conj.
func joinWords(words []string, conj string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + conj + words[len(words)-1]
}

// runHelp is "robotstxt help": the top-level help, or the help of the
// named command.
func runHelp(cmd *command, args []string, e env) int {
	args, code, done := parseArgs(newFlags(cmd), args, e)
	if done {
		return code
	}
	switch {
	case len(args) == 0:
		printUsage(e.stdout)
		return exitOK
	case len(args) > 1:
		e.errorf("help takes one command")
		return exitUsage
	}
	named := lookup(args[0])
	if named == nil {
		e.errorf("no help for %q; the commands are %s", args[0], commandNames())
		return exitUsage
	}
	return named.run(named, []string{"-h"}, e)
}
