package redisstore

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt"
)

// Environment of a helper process started by TestFleetMultiProcess.
const (
	envHelper = "REDISSTORE_FLEET_HELPER" // "1" in a helper
	envRedis  = "REDISSTORE_FLEET_REDIS"  // redis-server address
	envWeb    = "REDISSTORE_FLEET_WEB"    // address every site resolves to
	envHosts  = "REDISSTORE_FLEET_HOSTS"  // comma-separated site names
)

const (
	fleetProcesses  = 3
	fleetGoroutines = 100
	fleetSites      = 50
)

// fleetReport is what a helper process prints as its last stdout line.
type fleetReport struct {
	Checks     int      `json:"checks"`
	Wrong      []string `json:"wrong"` // wrong answers and errors, at most 10
	Failures   int      `json:"failures"`
	Fetches    uint64   `json:"fetches"`
	LeaseWaits uint64   `json:"lease_waits"`
	StoreHits  uint64   `json:"store_hits"`
}

// TestFleetMultiProcess: 3 OS processes × 100 goroutines check 50 cold
// sites whose robots.txt takes 200 ms to arrive. Between them they must
// fetch each robots.txt exactly once (singleflight within a process, the
// Redis lease across processes) and answer every check right.
func TestFleetMultiProcess(t *testing.T) {
	srv, _ := newRedis(t)
	w := newWeb(t, 200*time.Millisecond)
	hs := hosts("fleet", fleetSites)
	env := append(os.Environ(), envHelper+"=1", envRedis+"="+srv.Addr(),
		envWeb+"="+w.srv.Listener.Addr().String(), envHosts+"="+strings.Join(hs, ","))

	children := make([]*child, fleetProcesses)
	for i := range children {
		children[i] = startChild(t, "TestHelperProcess", env)
	}
	for _, c := range children { // all ready before any starts checking
		c.waitFor(t, "READY")
	}
	for _, c := range children {
		c.send(t, "GO")
	}
	var total fleetReport
	for i, c := range children {
		r := c.report(t)
		t.Logf("process %d: %d checks, %d fetches, %d lease waits, %d Store hits",
			i, r.Checks, r.Fetches, r.LeaseWaits, r.StoreHits)
		if r.Failures > 0 {
			t.Errorf("process %d: %d wrong answers or errors, e.g. %q", i, r.Failures, r.Wrong)
		}
		if want := fleetGoroutines * fleetSites * len(probesFor("x")); r.Checks != want {
			t.Errorf("process %d: %d checks, want %d", i, r.Checks, want)
		}
		total.Fetches += r.Fetches
	}
	if n := w.fetchCount(""); n != fleetSites {
		t.Errorf("the sites served %d robots.txt fetches in total, want %d", n, fleetSites)
	}
	for _, h := range hs {
		if n := w.fetchCount(h); n != 1 {
			t.Errorf("%s: fetched %d times, want once", h, n)
		}
	}
	if total.Fetches != fleetSites {
		t.Errorf("the processes counted %d fetches, want %d", total.Fetches, fleetSites)
	}
}

// childWait bounds every wait for a line from a helper process.
const childWait = time.Minute

// A child is a running helper process: a test of this binary run by
// name, reading commands from stdin and answering on stdout.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    chan string // stdout lines; closed at its end
	stderr *lockedBuffer
	lines  []string // stdout lines read so far
	once   sync.Once
}

// startChild runs the test named test of this binary as a helper process
// with env, killed when the test ends.
func startChild(t *testing.T, test string, env []string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = env
	c := &child{cmd: cmd, out: make(chan string, 16), stderr: new(lockedBuffer)}
	cmd.Stderr = c.stderr
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting helper process: %v", err)
	}
	go func() {
		defer close(c.out)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			c.out <- sc.Text()
		}
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill(); c.wait() })
	return c
}

func (c *child) wait() { c.once.Do(func() { _ = c.cmd.Wait() }) }

// send writes line to the child's stdin.
func (c *child) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		t.Fatalf("writing to helper process: %v", err)
	}
}

// next returns the child's next stdout line; ok is false at the end of
// its output. It fails the test when no line comes within childWait.
func (c *child) next(t *testing.T) (line string, ok bool) {
	t.Helper()
	select {
	case line, ok = <-c.out:
		if ok {
			c.lines = append(c.lines, line)
		}
		return line, ok
	case <-time.After(childWait):
		_ = c.cmd.Process.Kill()
		c.wait()
		t.Fatalf("helper process silent for %v; stdout:\n%s\nstderr:\n%s", childWait, strings.Join(c.lines, "\n"), c.stderr)
		return "", false
	}
}

// waitFor reads stdout until a line equal to want.
func (c *child) waitFor(t *testing.T, want string) {
	t.Helper()
	for {
		line, ok := c.next(t)
		if !ok {
			break
		}
		if line == want {
			return
		}
	}
	c.wait()
	t.Fatalf("helper process ended before %q; stdout:\n%s\nstderr:\n%s", want, strings.Join(c.lines, "\n"), c.stderr)
}

// reply reads stdout until a line that starts with prefix and returns
// the rest of it, decoded from JSON into v.
func (c *child) reply(t *testing.T, prefix string, v any) {
	t.Helper()
	for {
		line, ok := c.next(t)
		if !ok {
			break
		}
		if js, found := strings.CutPrefix(line, prefix); found {
			if err := json.Unmarshal([]byte(js), v); err != nil {
				t.Fatalf("helper process: %v in %q", err, line)
			}
			return
		}
	}
	c.wait()
	t.Fatalf("helper process ended before %q (%v); stdout:\n%s\nstderr:\n%s", prefix, c.cmd.ProcessState, strings.Join(c.lines, "\n"), c.stderr)
}

// report reads the child's report, then closes its stdin, waits for it
// to exit and checks that it succeeded.
func (c *child) report(t *testing.T) fleetReport {
	t.Helper()
	var r fleetReport
	c.reply(t, "REPORT ", &r)
	c.finish(t)
	return r
}

// finish closes the child's stdin, reads the rest of its stdout and
// fails the test unless it exits successfully.
func (c *child) finish(t *testing.T) {
	t.Helper()
	_ = c.stdin.Close()
	for _, ok := c.next(t); ok; _, ok = c.next(t) {
	}
	c.wait()
	if !c.cmd.ProcessState.Success() {
		t.Fatalf("helper process failed (%v); stdout:\n%s\nstderr:\n%s", c.cmd.ProcessState, strings.Join(c.lines, "\n"), c.stderr)
	}
}

// TestHelperProcess is one crawler process of TestFleetMultiProcess. It
// does nothing unless started by it.
func TestHelperProcess(t *testing.T) {
	if os.Getenv(envHelper) != "1" {
		t.Skip("runs only as a helper process of TestFleetMultiProcess")
	}
	rdb := redis.NewClient(&redis.Options{Addr: os.Getenv(envRedis)})
	defer rdb.Close()
	c := newClient(t, New(rdb, WithLogger(quietLogger), WithTimeout(generous)),
		webClient(os.Getenv(envWeb)), robotstxt.WithStoreTimeout(generous))
	hs := strings.Split(os.Getenv(envHosts), ",")

	fmt.Println("READY")
	if line, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil || line != "GO\n" {
		t.Fatalf("waiting for GO: %q, %v", line, err)
	}
	var (
		mu     sync.Mutex
		report fleetReport
		start  = make(chan struct{})
		wg     sync.WaitGroup
	)
	for g := range fleetGoroutines {
		wg.Go(func() {
			<-start
			for k := range hs {
				for _, p := range probesFor(hs[(g+k)%len(hs)]) {
					err := checkOne(c, p)
					mu.Lock()
					report.Checks++
					if err != nil {
						report.Failures++
						if len(report.Wrong) < 10 {
							report.Wrong = append(report.Wrong, err.Error())
						}
					}
					mu.Unlock()
				}
			}
		})
	}
	close(start)
	wg.Wait()
	st := c.Stats()
	report.Fetches = st.Fetches.Total()
	report.LeaseWaits = st.Store.LeaseWaits
	report.StoreHits = st.Store.Hits
	js, err := json.Marshal(report)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("REPORT " + string(js))
}
