package crawltest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// childWait bounds every wait for a line from a helper process: far
// longer than any helper takes between lines on a loaded machine, far
// shorter than a test binary's deadline.
const childWait = time.Minute

// maxChildLine bounds a line a helper process prints (its reports are
// JSON on one line).
const maxChildLine = 1 << 20

// A Child is a running helper process: a test of this binary run by
// name, reading commands from stdin and answering on stdout.
type Child struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	out     chan string   // stdout lines; closed at its end
	stopped chan struct{} // closed once the process has been waited for
	stderr  bytes.Buffer  // read only once the process has been waited for
	lines   []string      // stdout lines read so far
	once    sync.Once
}

// StartChild runs the test named test of this binary as a helper process
// with env on top of this process's environment. It is killed with
// SIGKILL, if still running, when the test ends. That test runs in every
// ordinary run of the binary too, so it should skip itself unless env
// says it is the helper.
func StartChild(tb testing.TB, test string, env ...string) *Child {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	c := &Child{cmd: cmd, out: make(chan string, 16), stopped: make(chan struct{})}
	cmd.Stderr = &c.stderr
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatalf("starting helper process: %v", err)
	}
	go func() {
		defer close(c.out)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, maxChildLine)
		for sc.Scan() {
			select {
			case c.out <- sc.Text():
			case <-c.stopped: // nobody reads any more
				return
			}
		}
	}()
	tb.Cleanup(c.Kill)
	return c
}

// wait waits for the process to exit, once.
func (c *Child) wait() {
	c.once.Do(func() {
		_ = c.cmd.Wait()
		close(c.stopped)
	})
}

// Kill kills the process with SIGKILL and waits for it to be gone.
func (c *Child) Kill() {
	_ = c.cmd.Process.Kill()
	c.wait()
}

// Send writes line to the process's stdin.
func (c *Child) Send(tb testing.TB, line string) {
	tb.Helper()
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		tb.Fatalf("writing to helper process: %v", err)
	}
}

// CloseStdin closes the process's stdin, telling it to finish.
func (c *Child) CloseStdin() { _ = c.stdin.Close() }

// next returns the process's next stdout line; ok is false at the end of
// its output. It kills the process and fails the test when no line comes
// within childWait.
func (c *Child) next(tb testing.TB) (line string, ok bool) {
	tb.Helper()
	select {
	case line, ok = <-c.out:
		if ok {
			c.lines = append(c.lines, line)
		}
		return line, ok
	case <-time.After(childWait):
		// SIGQUIT first: the Go runtime prints every goroutine's stack
		// to stderr, which says where the process was stuck.
		_ = c.cmd.Process.Signal(syscall.SIGQUIT)
		go c.wait()
		select {
		case <-c.stopped:
		case <-time.After(10 * time.Second):
		}
		c.Kill()
		tb.Fatalf("helper process silent for %v; %s", childWait, c.output())
		return "", false
	}
}

// output describes what the process printed, for a failure message. It
// waits for the process first.
func (c *Child) output() string {
	c.wait()
	return "stdout:\n" + strings.Join(c.lines, "\n") + "\nstderr:\n" + c.stderr.String()
}

// WaitFor reads stdout until a line equal to want, failing the test if
// the output ends first.
func (c *Child) WaitFor(tb testing.TB, want string) {
	tb.Helper()
	for {
		line, ok := c.next(tb)
		if !ok {
			break
		}
		if line == want {
			return
		}
	}
	tb.Fatalf("helper process ended before %q; %s", want, c.output())
}

// Reply reads stdout until a line that starts with prefix and decodes the
// rest of it from JSON into v, failing the test if the output ends
// first.
func (c *Child) Reply(tb testing.TB, prefix string, v any) {
	tb.Helper()
	for {
		line, ok := c.next(tb)
		if !ok {
			break
		}
		if js, found := strings.CutPrefix(line, prefix); found {
			if err := json.Unmarshal([]byte(js), v); err != nil {
				tb.Fatalf("helper process: %v in %q", err, line)
			}
			return
		}
	}
	c.wait()
	tb.Fatalf("helper process ended before %q (%v); %s", prefix, c.cmd.ProcessState, c.output())
}

// Finish closes the process's stdin, reads the rest of its stdout and
// fails the test unless it exits successfully.
func (c *Child) Finish(tb testing.TB) {
	tb.Helper()
	c.CloseStdin()
	for _, ok := c.next(tb); ok; _, ok = c.next(tb) {
	}
	c.wait()
	if !c.cmd.ProcessState.Success() {
		tb.Fatalf("helper process failed (%v); %s", c.cmd.ProcessState, c.output())
	}
}
