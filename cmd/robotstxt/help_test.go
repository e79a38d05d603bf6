package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestHelpListsEveryCommand checks the top-level help against the table
// of commands: every command's synopsis, what it does and its examples,
// then the exit codes.
func TestHelpListsEveryCommand(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		r := runCmd(t, "", args...)
		if r.code != exitOK {
			t.Errorf("%v: exit %d, want 0", args, r.code)
		}
		// Synopses are wrapped: compare words.
		flat := strings.Join(strings.Fields(r.stdout), " ")
		for _, c := range commands {
			want := []string{strings.Join(strings.Fields(c.name+" "+c.usage+" "+c.short), " ")}
			for _, ex := range c.examples {
				want = append(want, "robotstxt "+c.name+" "+ex)
			}
			for _, w := range want {
				if !strings.Contains(flat, w) {
					t.Errorf("%v: usage lacks %q:\n%s", args, w, r.stdout)
				}
			}
		}
		for _, want := range []string{"Exit codes:", "  0  ", "  1  ", "  2  ", "  3  "} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%v: usage lacks %q:\n%s", args, want, r.stdout)
			}
		}
	}
	if r := runCmd(t, ""); r.code != exitUsage || !strings.HasPrefix(r.stderr, usageIntro) {
		t.Errorf("no arguments: exit %d, stderr %q; want %d and the usage", r.code, r.stderr, exitUsage)
	}
}

// TestHelpForEveryCommand checks "help NAME" and "NAME -h" for every
// command of the table: its synopsis, long help and examples.
func TestHelpForEveryCommand(t *testing.T) {
	for _, c := range commands {
		for _, args := range [][]string{{"help", c.name}, {c.name, "-h"}} {
			r := runCmd(t, "", args...)
			want := "Usage: " + c.synopsis() + "\n\n" + c.long + "\n"
			if r.code != exitOK || !strings.HasPrefix(r.stdout, want) {
				t.Errorf("%q: exit %d, stdout:\n%s\nwant 0 and a start of:\n%s", args, r.code, r.stdout, want)
			}
			for _, ex := range c.examples {
				if !strings.Contains(r.stdout, "\n  robotstxt "+c.name+" "+ex+"\n") {
					t.Errorf("%q: no example %q", args, ex)
				}
			}
			// The synopsis names every flag.
			for _, m := range regexp.MustCompile(`(?m)^  (-[a-z0-9]+)`).FindAllStringSubmatch(r.stdout, -1) {
				if !regexp.MustCompile(`\[?` + m[1] + `[ \]]`).MatchString(c.usage + " ") {
					t.Errorf("%q: the synopsis %q lacks flag %s", args, c.usage, m[1])
				}
			}
		}
	}
	for cmd, want := range map[string]string{
		"test":  "-expect",
		"check": "-v",
		"lint":  `"diagnostics"`,
	} {
		if r := runCmd(t, "", "help", cmd); !strings.Contains(r.stdout, want) {
			t.Errorf("help %s lacks %q:\n%s", cmd, want, r.stdout)
		}
	}
	for _, args := range [][]string{{"help", "nope"}, {"help", "check", "test"}} {
		if r := runCmd(t, "", args...); r.code != exitUsage || r.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want %d and no output", args, r.code, r.stdout, exitUsage)
		}
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  string
	}{
		{"lint [-json] [-q] FILE...", 80, "  lint [-json] [-q] FILE..."},
		{"lint [-json] [-q] FILE...", 20, "  lint [-json] [-q]\n    FILE..."},
		{"test [-expect allow|disallow] URL", 20, "  test\n    [-expect allow|disallow]\n    URL"},
		{"version", 5, "  version"},
		{"help  [COMMAND] ", 80, "  help [COMMAND]"},
	} {
		if got := wrap(tc.s, "  ", "    ", tc.width); got != tc.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}
