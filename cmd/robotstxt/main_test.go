package main

import (
	"bytes"
	"strings"
	"testing"
)

// result is what one in-process run of the command produced.
type result struct {
	code           int
	stdout, stderr string
}

// runCmd runs the command in-process with args and the given standard
// input.
func runCmd(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := runIO(args, strings.NewReader(stdin), &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

func TestHelpListsCommandsAndExitCodes(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		r := runCmd(t, "", args...)
		if r.code != exitOK {
			t.Errorf("%v: exit %d, want 0", args, r.code)
		}
		for _, want := range []string{"check", "test", "lint", "Exit codes:", "  0  ", "  1  ", "  2  ", "  3  "} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%v: usage lacks %q:\n%s", args, want, r.stdout)
			}
		}
	}
}

func TestHelpForCommand(t *testing.T) {
	r := runCmd(t, "", "help", "test")
	if r.code != exitOK || !strings.Contains(r.stdout, "-file") {
		t.Errorf("help test: exit %d, stdout:\n%s", r.code, r.stdout)
	}
	if r := runCmd(t, "", "help", "nope"); r.code != exitUsage {
		t.Errorf("help nope: exit %d, want %d", r.code, exitUsage)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"test", "-nosuchflag"},
		{"lint", "-timeout"},
		{"check"},
	} {
		r := runCmd(t, "", args...)
		if r.code != exitUsage {
			t.Errorf("%q: exit %d, want %d (stderr %q)", args, r.code, exitUsage, r.stderr)
		}
		if r.stderr == "" {
			t.Errorf("%q: nothing on stderr", args)
		}
	}
}

// TestRunWithoutStdin checks that run, which has no standard input, reads
// "-" as an empty file rather than blocking.
func TestRunWithoutStdin(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"lint", "-"}, &out, &errOut); code != exitOK {
		t.Errorf("lint - with no stdin: exit %d, want 0; stderr %q", code, errOut.String())
	}
}
