package main

import (
	"strings"
	"testing"
)

// TestCommandTable checks the entries of the table: each has a name, a
// help and a function, and no name or alias runs two commands.
func TestCommandTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range commands {
		if c.name == "" || c.short == "" || c.long == "" || c.run == nil {
			t.Errorf("command %q: incomplete entry %+v", c.name, c)
		}
		for _, n := range append([]string{c.name}, c.aliases...) {
			if seen[n] {
				t.Errorf("%q names two commands", n)
			}
			seen[n] = true
			if lookup(n) != c {
				t.Errorf("lookup(%q) is not command %s", n, c.name)
			}
		}
	}
}

// TestMessagesNameEveryCommand checks that the errors for an unknown
// command name every command of the table.
func TestMessagesNameEveryCommand(t *testing.T) {
	for _, args := range [][]string{{"frobnicate"}, {"help", "frobnicate"}} {
		r := runCmd(t, "", args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, commandNames()) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", args, r.code, r.stderr, exitUsage, commandNames())
		}
	}
	for _, c := range commands {
		if !strings.Contains(commandNames(), c.name) {
			t.Errorf("commandNames() = %q lacks %s", commandNames(), c.name)
		}
	}
}
