package boltstore

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/internal/crawltest"
	"github.com/robotsgate/robotstxt/internal/longtest"
)

// fillWorkers is the number of goroutines of a "fill" helper, each
// checking new sites one after another.
const fillWorkers = 8

// TestCrashLeavesUsableFile: a process filling a Store through its
// Client is killed with SIGKILL, mid-commit as likely as not; three
// times, on one file. Each time the file opens again, its buckets agree
// with each other, it holds every site the helper saw committed before
// the kill, and a new Client answers every one of them right without
// fetching.
func TestCrashLeavesUsableFile(t *testing.T) {
	longtest.Gate(t)
	w := crawltest.NewWeb(t)
	addr := w.Addr()
	path := filepath.Join(t.TempDir(), "robots.db")
	for round := range 3 {
		first := round * 1_000_000
		c := crawltest.StartChild(t, "TestHelperProcess", envHelper+"=fill", envPath+"="+path, envWeb+"="+addr, envFirst+"="+strconv.Itoa(first))
		c.WaitFor(t, "COMMITTED 300")
		time.Sleep(time.Duration(rand.IntN(20)) * time.Millisecond)
		c.Kill()

		st, err := Open(path)
		if err != nil {
			t.Fatalf("round %d: reopening after SIGKILL: %v", round, err)
		}
		consistent(t, st)
		keys := storedKeys(t, st)
		fetched := w.Fetches("")
		client := newClient(t, st, addr)
		found := sitesFrom(keys, first)
		for _, k := range keys {
			u, err := url.Parse(k)
			if err != nil {
				t.Fatalf("round %d: stored key %q: %v", round, k, err)
			}
			if err := check(client, u.Hostname()); err != nil {
				t.Errorf("round %d: %v", round, err)
			}
		}
		_ = client.Close()
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d: %d sites in the file, %d of this round", round, len(keys), found)
		if found < 300 {
			t.Errorf("round %d: %d sites of the round in the file, want the 300 committed before the kill", round, found)
		}
		if n := w.Fetches("") - fetched; n != 0 {
			t.Errorf("round %d: answering from the file took %d fetches, want none", round, n)
		}
	}
}

// sitesFrom counts the keys of sites numbered first or more.
func sitesFrom(keys []string, first int) int {
	found := 0
	for _, k := range keys {
		u, err := url.Parse(k)
		if err != nil {
			continue
		}
		var n int
		if _, err := fmt.Sscanf(u.Hostname(), "site%d.test", &n); err == nil && n >= first {
			found++
		}
	}
	return found
}

// fill is the "fill" helper: it fills new sites through a Client on the
// Store, from number $BOLTSTORE_FIRST on, until it is killed. It prints
// COMMITTED n as the sites of this run committed to the file pass each
// hundred: a check returns before the Store's writer commits its Set.
func fill(t *testing.T) {
	s, err := Open(os.Getenv(envPath))
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t, s, os.Getenv(envWeb))
	first := parseEnvInt(t, envFirst)
	next := atomic.Int64{}
	next.Store(int64(first))
	var wg sync.WaitGroup
	for range fillWorkers {
		wg.Go(func() {
			for {
				if err := check(c, site(int(next.Add(1)-1))); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
			}
		})
	}
	for told := 0; ; time.Sleep(time.Millisecond) {
		for n := sitesFrom(storedKeys(t, s), first); told+100 <= n; {
			told += 100
			fmt.Println("COMMITTED", told)
		}
	}
}
