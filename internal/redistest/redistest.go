// Package redistest starts a real redis-server for tests: on a free
// loopback port, with persistence off, killed when the test ends. It can
// kill, pause and restart the server on the same port, for fault tests,
// and start a whole Redis Cluster on loopback (StartCluster), whose
// masters a test can kill to watch a replica take over.
package redistest

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// RequireEnv names the environment variable under which a missing
// redis-server binary fails the test instead of skipping it. CI sets it to
// "1".
const RequireEnv = "ROBOTSTXT_REQUIRE_REDIS"

// startTimeout bounds how long a started server may take to answer PING.
const startTimeout = 10 * time.Second

// A Server is a redis-server process started for one test.
type Server struct {
	tb      testing.TB
	bin     string
	port    int
	busPort int // cluster bus port, 0 unless the server is a cluster node
	args    []string
	dir     string

	mu   sync.Mutex
	cmd  *exec.Cmd     // nil when not running
	done chan struct{} // closed when cmd has exited
}

// Binary returns the path of redis-server from PATH. When it is missing,
// the test is skipped, or failed when RequireEnv is "1".
func Binary(tb testing.TB) string {
	tb.Helper()
	return lookPath(tb, "redis-server")
}

// lookPath returns the path of the named program from PATH. When it is
// missing, the test is skipped, or failed when RequireEnv is "1".
func lookPath(tb testing.TB, name string) string {
	tb.Helper()
	bin, err := exec.LookPath(name)
	if err == nil {
		return bin
	}
	if os.Getenv(RequireEnv) == "1" {
		tb.Fatalf("%s not found in PATH and %s=1: %v", name, RequireEnv, err)
	}
	tb.Skipf("%s not found in PATH (set %s=1 to fail instead): %v", name, RequireEnv, err)
	return ""
}

// Start starts a redis-server on a free loopback port and waits until it
// answers PING. Extra command-line arguments (such as "--cluster-enabled",
// "yes") are passed through. The server is killed when the test ends.
func Start(tb testing.TB, extraArgs ...string) *Server {
	tb.Helper()
	return start(tb, false, extraArgs)
}

// StartNode starts a redis-server with cluster mode enabled, on a free
// loopback port and a free cluster bus port, and waits until it answers
// PING. It owns no slots and knows no other node; see StartCluster for a
// whole cluster. Extra arguments are passed through.
func StartNode(tb testing.TB, extraArgs ...string) *Server {
	tb.Helper()
	return start(tb, true, append([]string{
		"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
	}, extraArgs...))
}

func start(tb testing.TB, cluster bool, args []string) *Server {
	tb.Helper()
	s := &Server{tb: tb, bin: Binary(tb), args: args, dir: tb.TempDir()}
	tb.Cleanup(s.Kill)
	var err error
	for range 5 { // a free port can be taken between probing and binding
		if s.port, err = freePort(); err != nil {
			continue
		}
		// The bus port defaults to port+10000, which may be taken or
		// past 65535: pick a free one too.
		if cluster {
			if s.busPort, err = freePort(); err != nil {
				continue
			}
		}
		if err = s.start(); err == nil {
			return s
		}
	}
	tb.Fatalf("redistest: starting redis-server: %v", err)
	return nil
}

// Addr returns the server's address, "127.0.0.1:port".
func (s *Server) Addr() string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port))
}

// Kill kills the server with SIGKILL and waits for it to exit. Killing a
// server that is not running does nothing.
func (s *Server) Kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.done
	s.cmd = nil
}

// Restart kills the server if it runs and starts a new, empty one on the
// same port.
func (s *Server) Restart() {
	s.tb.Helper()
	s.Kill()
	if err := s.start(); err != nil {
		s.tb.Fatalf("redistest: restarting redis-server: %v", err)
	}
}

// Pause stops the server process with SIGSTOP: connections stay open but
// nothing is answered, like a hung or overloaded server.
func (s *Server) Pause() { s.signal(syscall.SIGSTOP) }

// Resume continues a paused server with SIGCONT.
func (s *Server) Resume() { s.signal(syscall.SIGCONT) }

func (s *Server) signal(sig syscall.Signal) {
	s.tb.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		s.tb.Fatalf("redistest: %v: server not running", sig)
	}
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.tb.Fatalf("redistest: %v: %v", sig, err)
	}
}

func (s *Server) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	args := append([]string{
		"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", s.dir,
	}, s.args...)
	if s.busPort != 0 {
		args = append(args, "--cluster-port", strconv.Itoa(s.busPort))
	}
	cmd := exec.Command(s.bin, args...)
	out := new(bytes.Buffer)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("redistest: %w", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	if err := waitPing(s.Addr(), startTimeout, done); err != nil {
		_ = cmd.Process.Kill()
		<-done
		return fmt.Errorf("redistest: %w; server output:\n%s", err, out)
	}
	s.cmd, s.done = cmd, done
	return nil
}

// waitPing polls addr with PING until it answers +PONG, the process exits
// (exited is closed) or timeout passes.
func waitPing(addr string, timeout time.Duration, exited <-chan struct{}) error {
	deadline := time.Now().Add(timeout)
	var err error
	for time.Now().Before(deadline) {
		if err = ping(addr); err == nil {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("redis-server exited before answering PING: %w", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	return fmt.Errorf("no PONG from %s within %v: %w", addr, timeout, err)
}

func ping(addr string) error {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return fmt.Errorf("dial: %w", err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Second))
	if _, err := conn.Write([]byte("PING\r\n")); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return fmt.Errorf("read: %w", err)
	}
	if line != "+PONG\r\n" {
		return fmt.Errorf("unexpected reply %q", line)
	}
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("redistest: finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// running reports whether the server process runs (it has been started
// and not killed).
func (s *Server) running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cmd != nil
}
