package boltstore

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// Environment of a helper process (see TestHelperProcess).
const (
	envHelper = "BOLTSTORE_HELPER" // what the helper does: "fill" or "hold"
	envPath   = "BOLTSTORE_PATH"   // the Store's file
	envWeb    = "BOLTSTORE_WEB"    // address every site resolves to ("fill")
	envFirst  = "BOLTSTORE_FIRST"  // number of the first site to fill ("fill")
)

// A child is a running helper process.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Scanner
	stderr *bytes.Buffer
	once   sync.Once
}

// startChild runs this test binary as a helper process with the given
// environment on top of ours. It is killed, if still running, when the
// test ends.
func startChild(t *testing.T, env ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	c := &child{cmd: cmd, stderr: new(bytes.Buffer)}
	cmd.Stderr = c.stderr
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.stdout = bufio.NewScanner(out)
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting helper process: %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); c.wait() })
	return c
}

// wait waits for the process to exit, once.
func (c *child) wait() { c.once.Do(func() { _ = c.cmd.Wait() }) }

// line returns the next line the helper prints, failing the test if it
// exits first.
func (c *child) line(t *testing.T) string {
	t.Helper()
	if c.stdout.Scan() {
		return c.stdout.Text()
	}
	c.wait()
	t.Fatalf("helper process exited (%v); stderr:\n%s", c.cmd.ProcessState, c.stderr)
	return ""
}

// kill kills the helper with SIGKILL and waits for it to be gone.
func (c *child) kill() {
	_ = c.cmd.Process.Kill()
	c.wait()
}

// TestHelperProcess is the helper process of the tests that need another
// process. It does nothing unless started by one of them.
func TestHelperProcess(t *testing.T) {
	switch os.Getenv(envHelper) {
	case "fill":
		fill(t)
	case "hold":
		hold(t)
	default:
		t.Skip("runs only as a helper process")
	}
}

// hold opens the Store, says READY and keeps it open until stdin closes.
func hold(t *testing.T) {
	s, err := Open(os.Getenv(envPath))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("READY")
	_, _ = io.Copy(io.Discard, os.Stdin)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// parseEnvInt reads an integer from the environment, failing the test if
// it is not one.
func parseEnvInt(t *testing.T, name string) int {
	var n int
	if _, err := fmt.Sscan(strings.TrimSpace(os.Getenv(name)), &n); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}
