package redisstore

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
	"github.com/robotsgate/robotstxt/internal/longtest"
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
	longtest.Gate(t)
	srv, _ := newRedis(t)
	w := newWeb(t, crawltest.WithDelay(200*time.Millisecond))
	hs := crawltest.Hosts("fleet", fleetSites)
	env := []string{envHelper + "=1", envRedis + "=" + srv.Addr(),
		envWeb + "=" + w.Addr(), envHosts + "=" + strings.Join(hs, ",")}

	children := make([]*crawltest.Child, fleetProcesses)
	for i := range children {
		children[i] = crawltest.StartChild(t, "TestHelperProcess", env...)
	}
	for _, c := range children { // all ready before any starts checking
		c.WaitFor(t, "READY")
	}
	for _, c := range children {
		c.Send(t, "GO")
	}
	var total fleetReport
	for i, c := range children {
		r := readReport(t, c)
		t.Logf("process %d: %d checks, %d fetches, %d lease waits, %d Store hits",
			i, r.Checks, r.Fetches, r.LeaseWaits, r.StoreHits)
		if r.Failures > 0 {
			t.Errorf("process %d: %d wrong answers or errors, e.g. %q", i, r.Failures, r.Wrong)
		}
		if want := fleetGoroutines * fleetSites * len(crawltest.Probes("x")); r.Checks != want {
			t.Errorf("process %d: %d checks, want %d", i, r.Checks, want)
		}
		total.Fetches += r.Fetches
	}
	if n := w.Fetches(""); n != fleetSites {
		t.Errorf("the sites served %d robots.txt fetches in total, want %d", n, fleetSites)
	}
	for _, h := range hs {
		if n := w.Fetches(h); n != 1 {
			t.Errorf("%s: fetched %d times, want once", h, n)
		}
	}
	if total.Fetches != fleetSites {
		t.Errorf("the processes counted %d fetches, want %d", total.Fetches, fleetSites)
	}
}

// readReport reads c's report, then closes its stdin, waits for it to
// exit and checks that it succeeded.
func readReport(t *testing.T, c *crawltest.Child) fleetReport {
	t.Helper()
	var r fleetReport
	c.Reply(t, "REPORT ", &r)
	c.Finish(t)
	return r
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
		crawltest.HTTPClient(os.Getenv(envWeb)), robotstxt.WithStoreTimeout(generous))
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
				for _, p := range crawltest.Probes(hs[(g+k)%len(hs)]) {
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
	f := st.Fetches
	report.Fetches = f.Rules + f.AllowAll + f.DisallowAll + f.Unreachable + f.NotModified
	report.LeaseWaits = st.Store.LeaseWaits
	report.StoreHits = st.Store.Hits
	js, err := json.Marshal(report)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("REPORT " + string(js))
}
