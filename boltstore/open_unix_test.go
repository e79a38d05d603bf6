//go:build unix

package boltstore

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestOpenAfterCreateFailed: an Open that creates the file on a disk
// with too little room left (a full disk, or a file size limit: here
// RLIMIT_FSIZE of 8 KiB in a helper process) fails with the operating
// system's error, and leaves no file the next Open, with room again,
// refuses as damaged (two of bbolt's four first pages, "cut short"):
// a crawler restarted once the disk is cleaned up starts.
func TestOpenAfterCreateFailed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	openOnFullDisk(t, path)
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open with no limit, after an Open that failed creating the file: %v", err)
	}
	set(t, s, authority, []byte("v"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestOpenLimitedHelper opens the Store at $BOLTSTORE_PATH under a file
// size limit of $BOLTSTORE_FSIZE bytes (Go ignores SIGXFSZ: a write past
// it fails with EFBIG) and prints what Open returned.
func TestOpenLimitedHelper(t *testing.T) {
	limit := os.Getenv("BOLTSTORE_FSIZE")
	if limit == "" {
		t.Skip("runs only as a helper process")
	}
	var n uint64
	if _, err := fmt.Sscan(limit, &n); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
		t.Fatal(err)
	}
	s, err := Open(os.Getenv(envPath))
	fmt.Printf("OPEN %v\n", err)
	if err == nil {
		_ = s.Close()
	}
}

// TestOpenEmptyFileAfterLayoutFailed: an empty file at path (a
// crawler killed between bbolt's create and its first write, or a path
// made with touch) is one bbolt lays out anew, as it does a file it
// creates. An Open that fails laying it out on a full disk (RLIMIT_FSIZE
// of 8 KiB in a helper process) leaves no part the next Open, with room
// again, refuses as damaged.
func TestOpenEmptyFileAfterLayoutFailed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	openOnFullDisk(t, path)
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open with no limit, after an Open that failed laying out an empty file: %v", err)
	}
	set(t, s, authority, []byte("v"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestOpenAfterCreateFailedThroughSymlink: the Store's path is a symlink
// to where the file is to live (another volume, with room), and the
// first Open, creating the file there, is cut short (RLIMIT_FSIZE, as
// in TestOpenAfterCreateFailed). The link stays, the file at its target
// is emptied, not left cut short, and the next Open makes the Store there.
func TestOpenAfterCreateFailedThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target, path := filepath.Join(dir, "big-volume.db"), filepath.Join(dir, "robots.db")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	openOnFullDisk(t, path)
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("after the failed Open, %s is no longer the symlink to %s (%v, %v)", path, target, fi, err)
	}
	if fi, err := os.Stat(target); err == nil && fi.Size() != 0 {
		t.Errorf("the cut-short file (%d bytes) is still at %s", fi.Size(), target)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open with no limit, after an Open that failed creating the file: %v", err)
	}
	set(t, s, authority, []byte("v"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return
	}
	t.Errorf("the Store was made at %s, in place of the symlink, not at %s", path, target)
}

// ready: the open of writeUnderLock sends on it when about to Open.
var ready chan struct{}

// writeUnderLock makes the file at path empty and holds bbolt's lock on
// it (an flock, as another Open or program holds it), starts open on it,
// and 20 ms after open says it is about to Open (on ready), while Open
// waits for the lock (bbolt retries at 50 ms), writes data and lets go:
// the file was empty when open looked, and holds data when bbolt reads
// it. It returns open's error.
func writeUnderLock(t *testing.T, path string, data []byte, open func() error) error {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	ready = make(chan struct{}, 1)
	go func() { errc <- open() }()
	<-ready // open says when it is about to Open
	time.Sleep(20 * time.Millisecond)
	if _, err := f.WriteAt(data, 0); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	return <-errc
}

// TestOpenEmptyFileSparesDataWrittenMeanwhile: the path names a file
// that is empty when Open looks (a file another program has just made,
// or truncated to write afresh: a log after rotation, a state file) and
// holds that program's data by the time bbolt reads it. Open fails
// (not a bbolt file), and leaves the other program's file as it is: a
// small file is no layout bbolt cut short unless a meta page opens it.
func TestOpenEmptyFileSparesDataWrittenMeanwhile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	data := []byte("2026-12-06T13:00:00Z another program's line\n")
	err := writeUnderLock(t, path, data, func() error {
		ready <- struct{}{}
		s, err := Open(path)
		if err == nil {
			_ = s.Close()
		}
		return err
	})
	t.Logf("Open: %v", err)
	if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
		t.Errorf("after the failed Open, the other program's file holds %q, want %q", got, data)
	}
}

// TestOpenEmptyFileSparesSmallPagedBboltFileWrittenMeanwhile: as in
// TestOpenEmptyFileSparesDataWrittenMeanwhile, the path is empty when
// Open looks and holds another program's file when bbolt reads it; here
// that program keeps a bbolt file of its own (1 KiB pages, NoGrowSync),
// complete and holding data, yet under four of this system's pages.
// Open fails (a bucket not boltstore's), and must leave it as it is: a
// meta page first and a size under 4*os.Getpagesize() is no layout
// bbolt cut short when the meta page says its pages are smaller.
func TestOpenEmptyFileSparesSmallPagedBboltFileWrittenMeanwhile(t *testing.T) {
	other := filepath.Join(t.TempDir(), "other.db")
	db, err := bolt.Open(other, 0o600, &bolt.Options{PageSize: 1024, NoGrowSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("accounts"))
		if err != nil {
			return err
		}
		return b.Put([]byte("alice"), []byte("balance=100"))
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) >= 4*os.Getpagesize() {
		t.Skipf("the other program's file is %d bytes, not under four pages of %d", len(data), os.Getpagesize())
	}
	path := filepath.Join(t.TempDir(), "robots.db")
	err = writeUnderLock(t, path, data, func() error {
		ready <- struct{}{}
		s, err := Open(path)
		if err == nil {
			_ = s.Close()
		}
		return err
	})
	t.Logf("Open: %v", err)
	if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
		t.Errorf("after the failed Open, the other program's bbolt file (%d bytes, 1 KiB pages, a bucket with data) holds %d bytes", len(data), len(got))
	}
}

// openOnFullDisk opens the Store at path in a helper process under a file
// size limit of 8 KiB (TestOpenLimitedHelper), as on a full disk, and
// logs what its Open returned.
func openOnFullDisk(t *testing.T, path string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestOpenLimitedHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), envPath+"="+path, "BOLTSTORE_FSIZE=8192")
	out, _ := cmd.CombinedOutput()
	if !bytes.Contains(out, []byte("OPEN ")) {
		t.Fatalf("helper: %s", out)
	}
	t.Logf("helper: %s", bytes.TrimSpace(bytes.SplitN(out, []byte("\n"), 2)[0]))
}
