package crawltest

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// envHelper says what TestHelperProcess does: "echo", "fail" or "hold".
const envHelper = "CRAWLTEST_HELPER"

// TestHelperProcess is the helper process of the tests below. It does
// nothing unless started by one of them.
func TestHelperProcess(t *testing.T) {
	switch os.Getenv(envHelper) {
	case "echo": // READY, then an ECHO reply to every line until stdin closes
		fmt.Println("READY")
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			js, _ := json.Marshal(map[string]string{"line": in.Text()})
			fmt.Println("ECHO " + string(js))
		}
	case "fail": // READY, then exit 3
		fmt.Println("READY")
		os.Exit(3)
	case "hold": // its PID, then nothing until stdin closes
		fmt.Printf("PID {\"pid\":%d}\n", os.Getpid())
		_, _ = bufio.NewReader(os.Stdin).ReadString(0)
	default:
		t.Skip("runs only as a helper process")
	}
}

// TestChildTalks: a helper is sent lines, its answers are waited for and
// decoded, and it finishes when its stdin closes.
func TestChildTalks(t *testing.T) {
	c := StartChild(t, "TestHelperProcess", envHelper+"=echo")
	c.WaitFor(t, "READY")
	for _, line := range []string{"one", "two"} {
		c.Send(t, line)
		var got struct{ Line string }
		c.Reply(t, "ECHO ", &got)
		if got.Line != line {
			t.Errorf("echo of %q: %q", line, got.Line)
		}
	}
	c.Finish(t)
}

// A fatalRecorder is a testing.TB whose Fatal ends only the goroutine it
// is called on, recording the message.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (r *fatalRecorder) Helper() {}

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// fatal runs f on its own goroutine and returns the message it failed
// with, or "" if it did not fail.
func fatal(t *testing.T, f func(tb testing.TB)) string {
	r := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.msg
}

// TestChildFailures: waiting on a helper that has exited or been killed
// fails the test at once, saying what it printed, and so does a helper
// that exits unsuccessfully.
func TestChildFailures(t *testing.T) {
	for _, tc := range []struct {
		name, helper string
		kill         bool
		f            func(c *Child, tb testing.TB)
		want         string
	}{
		{"WaitFor after exit", "fail", false, func(c *Child, tb testing.TB) { c.WaitFor(tb, "NEVER") },
			"helper process ended before \"NEVER\"; stdout:\nREADY\n"},
		{"Finish after exit 3", "fail", false, func(c *Child, tb testing.TB) { c.Finish(tb) },
			"helper process failed (exit status 3); stdout:\nREADY\n"},
		{"Reply after kill", "echo", true, func(c *Child, tb testing.TB) { c.Reply(tb, "ECHO ", new(any)) },
			"helper process ended before \"ECHO \" (signal: killed); stdout:\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := StartChild(t, "TestHelperProcess", envHelper+"="+tc.helper)
			if tc.kill {
				c.Kill()
			}
			if msg := fatal(t, func(tb testing.TB) { tc.f(c, tb) }); !strings.HasPrefix(msg, tc.want) {
				t.Errorf("failed with %q, want it to begin %q", msg, tc.want)
			}
		})
	}
}

// TestChildKilledAtCleanup: a helper still running when its test ends is
// killed and gone.
func TestChildKilledAtCleanup(t *testing.T) {
	var pid int
	t.Run("hold", func(t *testing.T) {
		c := StartChild(t, "TestHelperProcess", envHelper+"=hold")
		var r struct{ PID int }
		c.Reply(t, "PID ", &r)
		pid = r.PID
	})
	if pid == 0 {
		t.Fatal("the helper did not say its PID")
	}
	p, err := os.FindProcess(pid)
	if err == nil {
		err = p.Signal(syscall.Signal(0))
	}
	if !errors.Is(err, os.ErrProcessDone) && !errors.Is(err, syscall.ESRCH) {
		t.Errorf("helper %d after its test ended: signal 0 = %v, want it gone", pid, err)
	}
}
