//go:build unix

package boltstore

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCommitOnFullDiskSweepsExpired: a Store whose file cannot grow (a
// full disk; here RLIMIT_FSIZE of 1 MiB in a helper process) and holds
// nothing but expired entries goes on committing: sweeping them frees
// the pages a new entry needs. The helper fills the file with entries of
// 20 KB that live 2 s, one commit each, until a commit fails; waits
// until all have expired; then tries to commit one of 200 KB (a
// robots.txt under the 500 KiB the Client reads), up to 20 times.
func TestCommitOnFullDiskSweepsExpired(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestFullDiskHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), envPath+"="+path, "BOLTSTORE_FULL=1")
	out, _ := cmd.CombinedOutput()
	i := strings.Index(string(out), "RESULT")
	if i < 0 {
		t.Fatalf("helper: %s", out)
	}
	line, _, _ := strings.Cut(string(out[i:]), "\n")
	t.Log(line)
	if !strings.Contains(line, "; 0 commits") {
		t.Errorf("a file of expired entries that cannot grow takes no new entry: %s", line)
	}
}

// TestFullDiskHelper is TestCommitOnFullDiskSweepsExpired's helper.
func TestFullDiskHelper(t *testing.T) {
	if os.Getenv("BOLTSTORE_FULL") == "" {
		t.Skip("runs only as a helper process")
	}
	const limit, small, large, ttl = 1 << 20, 20_000, 200_000, 2 * time.Second
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		t.Fatal(err)
	}
	s, err := Open(os.Getenv(envPath))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	commit := func(key string, size int, ttl time.Duration) error {
		_ = s.Set(t.Context(), key, make([]byte, size), ttl)
		flushed(t, s)
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.werr
	}
	filled := 0
	for ; filled < 1000 && commit(fmt.Sprintf("https://old%d.example:443", filled), small, ttl) == nil; filled++ {
	}
	time.Sleep(ttl + 100*time.Millisecond) // every entry in the file has expired
	// A crawler sets entries as it goes: here, one a commit, each of a
	// new site.
	failed, last := 0, error(nil)
	for i := range 20 {
		if err := commit(fmt.Sprintf("https://new%d.example:443", i), large, time.Hour); err != nil {
			failed, last = failed+1, err
			continue
		}
		break
	}
	fmt.Printf("RESULT %d expired entries fill the file; %d commits of a new entry failed in a row (last: %v)\n", filled, failed, last)
}
