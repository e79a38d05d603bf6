package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// A command is one of robotstxt's commands, an entry of the table
// commands: its name, its help and the function that runs it.
type command struct {
	name string
	// aliases are other arguments that run the command, such as "-h".
	aliases []string
	// usage is the synopsis after the name: flags and arguments.
	usage string
	// short is what the top-level help says of the command.
	short string
	// long is the start of "robotstxt help NAME", which goes on with
	// json, the examples and the flags.
	long string
	// json, for a command with -json, says what it prints: the shape of
	// its JSON objects and what their fields mean.
	json string
	// examples are command lines without the leading "robotstxt NAME ".
	examples []string
	// run runs the command with the arguments that follow its name and
	// returns the exit code. It prints the help on -h.
	run func(c *command, args []string, e env) int
}

// lookup returns the command named or aliased name, or nil.
func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
		for _, a := range c.aliases {
			if a == name {
				return c
			}
		}
	}
	return nil
}

// commandNames lists the names of the commands: "check, test, … and
// version".
func commandNames() string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return andList(names)
}

// synopsis is the command line the command takes: "robotstxt NAME USAGE".
func (c *command) synopsis() string {
	return strings.TrimSpace("robotstxt " + c.name + " " + c.usage)
}

// printExamples writes the examples, one a line after indent.
func (c *command) printExamples(w io.Writer, indent string) {
	for _, ex := range c.examples {
		fmt.Fprintf(w, "%srobotstxt %s %s\n", indent, c.name, ex)
	}
}

// printHelp writes the help of "robotstxt help NAME" to fs's output: the
// synopsis, the long help, what -json prints, the examples and the flags
// of fs.
func (c *command) printHelp(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", c.synopsis(), c.long)
	if c.json != "" {
		fmt.Fprintf(w, "\n%s\n", c.json)
	}
	switch len(c.examples) {
	case 0:
	case 1:
		fmt.Fprintf(w, "\nExample:\n")
	default:
		fmt.Fprintf(w, "\nExamples:\n")
	}
	c.printExamples(w, "  ")
	flags := 0
	fs.VisitAll(func(*flag.Flag) { flags++ })
	if flags == 0 {
		return
	}
	fmt.Fprintf(w, "\nFlags:\n")
	fs.PrintDefaults()
	fmt.Fprintf(w, "\nFlags may come before or after the arguments; \"--\" ends them.\nRun \"robotstxt help\" for the exit codes.\n")
}
