package main

import (
	"strings"
	"testing"
)

func TestLintClean(t *testing.T) {
	r := runCmd(t, "", "lint", "testdata/clean.txt")
	if r.code != exitOK {
		t.Errorf("exit %d, want 0; stdout:\n%s", r.code, r.stdout)
	}
	want := "testdata/clean.txt: 1 group, 1 rule, 1 sitemap, 0 diagnostics\n"
	if r.stdout != want {
		t.Errorf("stdout %q, want %q", r.stdout, want)
	}
}

func TestLintProblems(t *testing.T) {
	r := runCmd(t, "", "lint", "testdata/problems.txt")
	if r.code != exitDisallowed {
		t.Errorf("exit %d, want %d", r.code, exitDisallowed)
	}
	want := []string{
		`testdata/problems.txt:1: rule outside any group: "/early"`,
		`testdata/problems.txt:3: misspelt key accepted: "dissallow"`,
		`testdata/problems.txt:4: not a key-value line`,
		`testdata/problems.txt:5: value does not parse: "soon"`,
		`testdata/problems.txt:6: pattern does not start with / or *: "private"`,
		`testdata/problems.txt: 1 group, 2 rules, 0 sitemaps, 5 diagnostics`,
	}
	if got := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n"); !equal(got, want) {
		t.Errorf("output:\n%s\nwant:\n%s", r.stdout, strings.Join(want, "\n"))
	}
}

func TestLintQuiet(t *testing.T) {
	r := runCmd(t, "", "lint", "-q", "testdata/problems.txt")
	if r.code != exitDisallowed || r.stdout != "" {
		t.Errorf("exit %d, stdout %q; want %d and nothing", r.code, r.stdout, exitDisallowed)
	}
}

func TestLintSeveralFilesAndStdin(t *testing.T) {
	r := runCmd(t, "User-agent: *\nDisallow: /x\n", "lint", "testdata/clean.txt", "-")
	if r.code != exitOK || !strings.Contains(r.stdout, "<stdin>: 1 group, 1 rule") {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
	r = runCmd(t, "", "lint", "testdata/clean.txt", "testdata/problems.txt")
	if r.code != exitDisallowed {
		t.Errorf("clean + problems: exit %d, want %d", r.code, exitDisallowed)
	}
}

func TestLintUnreadable(t *testing.T) {
	r := runCmd(t, "", "lint", "testdata/problems.txt", "testdata/missing.txt")
	if r.code != exitUsage || !strings.Contains(r.stderr, "missing.txt") {
		t.Errorf("exit %d, stderr %q; want %d naming the file", r.code, r.stderr, exitUsage)
	}
	if !strings.Contains(r.stdout, "problems.txt: 1 group") {
		t.Errorf("the readable file was not linted: %q", r.stdout)
	}
}
