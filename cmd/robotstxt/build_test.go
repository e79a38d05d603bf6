package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildBinary builds the command with the go tool into a temporary
// directory and returns its path. It skips the test with -short or
// without a go tool.
func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a binary")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("go tool not found: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "robotstxt")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestBinaryBuilds builds the command and runs its help, proving the
// binary links and exits 0 on "help".
func TestBinaryBuilds(t *testing.T) {
	longTest(t)
	bin := buildBinary(t)
	out, err := exec.Command(bin, "help").Output()
	if err != nil {
		t.Fatalf("robotstxt help: %v", err)
	}
	if !strings.Contains(string(out), "Exit codes:") {
		t.Errorf("help output lacks the exit codes:\n%s", out)
	}
	err = exec.Command(bin, "lint", "testdata/lint/problems.txt").Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitDisallowed {
		t.Errorf("lint of a file with problems: %v, want exit status %d", err, exitDisallowed)
	}
}
