package boltstore

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
)

// writeFile writes b to a new file in a temporary directory and returns
// its path.
func writeFile(t *testing.T, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "robots.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// storeFile returns the bytes of a closed Store's file holding n entries.
func storeFile(t *testing.T, n int) []byte {
	t.Helper()
	s, path := newStore(t)
	for i := range n {
		set(t, s, site(i), bytes.Repeat([]byte{byte(i)}, 300))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestOpenRefusesNonBolt: Open refuses with ErrFormat, without a panic
// or a fault and without leaving the file locked, a file that is not
// bbolt, one whose meta pages are both damaged, and a Store's file cut
// short; a file left empty is a new Store.
func TestOpenRefusesNonBolt(t *testing.T) {
	rng := rand.NewChaCha8([32]byte{1})
	random := func(n int) []byte {
		b := make([]byte, n)
		_, _ = rng.Read(b)
		return b
	}
	good := storeFile(t, 2000)
	pageSize := os.Getpagesize()
	bothMeta := bytes.Clone(good)
	copy(bothMeta, random(2*pageSize))
	pages := len(pageInfos(t, writeFile(t, good))) // in use or free
	oneMeta := bytes.Clone(good)
	copy(oneMeta[pageSize:], random(pageSize))
	for _, c := range []struct {
		name string
		file []byte
		ok   bool
	}{
		{"empty", nil, true},
		{"text", []byte("User-agent: *\nDisallow: /\n"), false},
		{"random page", random(pageSize), false},
		{"random 64 KiB", random(64 << 10), false},
		{"both meta pages damaged", bothMeta, false},
		{"half", good[:len(good)/2], false},
		{"two pages", good[:2*pageSize], false},
		{"one page short", good[:(pages-1)*pageSize], false},
		{"no page short", good[:pages*pageSize], true},
		{"one meta page damaged", oneMeta, true},
		{"whole", good, true},
	} {
		path := writeFile(t, c.file)
		s, err := Open(path)
		if !c.ok && err != nil {
			// Refused cleanly, the file is not left locked: a second
			// Open is refused the same way.
			_, err = Open(path)
		}
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: Open: %v", c.name, err)
		case c.ok:
			_ = s.Close()
		case !errors.Is(err, ErrFormat):
			t.Errorf("%s: Open: %v, want ErrFormat", c.name, err)
			if err == nil {
				_ = s.Close()
			}
		default:
			t.Logf("%s: %v", c.name, err)
		}
	}
}

// TestOpenRefusesLongFreeListCount: a long free list (64k page ids or
// more) keeps its count in its first slot, under no checksum; bbolt,
// opening the file for writing, allocates as much as it says, and a
// flipped high bit ends the process out of memory, before any check
// could count the end. Open refuses such a count with ErrFormat (in a
// helper process, as a regression would end it): WithReplaceDamaged
// replaces the file at once. A count its page holds opens.
func TestOpenRefusesLongFreeListCount(t *testing.T) {
	good := storeFile(t, 200)
	list := -1
	for id, p := range pageInfos(t, writeFile(t, good)) {
		if p.Type == "freelist" {
			list = id
		}
	}
	if list < 0 {
		t.Fatal("no free list page")
	}
	// The long form of the list: 0xFFFF in the header, the count first.
	long := func(count uint64) []byte {
		b := bytes.Clone(good)
		at := list*os.Getpagesize() + pageHeaderLen
		n := binary.LittleEndian.Uint16(b[at-6:])
		binary.LittleEndian.PutUint16(b[at-6:], 0xFFFF)
		copy(b[at+8:], b[at:at+8*int(n)])
		binary.LittleEndian.PutUint64(b[at:], cmp.Or(count, uint64(n)))
		return b
	}
	t.Run("count its page holds", func(t *testing.T) {
		s, err := Open(writeFile(t, long(0)))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if _, err := s.Get(t.Context(), site(7)); err != nil {
			t.Errorf("Get: %v", err)
		}
	})
	t.Run("count flipped", func(t *testing.T) {
		path := writeFile(t, long(uint64(70_000)|1<<36))
		c := crawltest.StartChild(t, "TestCheckHelper", "CHECK_PATH="+path)
		var r struct {
			Stuck bool
			Err   string
		}
		c.Reply(t, "RESULT ", &r)
		c.Finish(t)
		if _, err := os.Stat(path + unusableSuffix); err != nil || r.Stuck || r.Err != "<nil>" {
			t.Errorf("Open WithReplaceDamaged: %s (stuck %v); moved aside: %v; want the file replaced", r.Err, r.Stuck, err)
		}
	})
}

// TestOpenLocked: a second Open of a file in use in this process fails
// at once with ErrLocked, and succeeds once the first Store is closed.
// bbolt's lock is per open file, so it holds within one process too.
func TestOpenLocked(t *testing.T) {
	s, path := newStore(t)
	start := time.Now()
	if _, err := Open(path); !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
	t.Logf("second Open failed after %v", time.Since(start))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(path)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	_ = again.Close()
}

// TestOpenLockedByProcess: a second Open of a file another process has
// open fails at once with ErrLocked, and succeeds once that process has
// closed it.
func TestOpenLockedByProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	c := crawltest.StartChild(t, "TestHelperProcess", envHelper+"=hold", envPath+"="+path)
	c.WaitFor(t, "READY")
	start := time.Now()
	if _, err := Open(path); !errors.Is(err, ErrLocked) {
		t.Fatalf("Open of a file another process holds: %v, want ErrLocked", err)
	}
	t.Logf("Open failed after %v", time.Since(start))
	c.Finish(t)
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open after the other process closed the file: %v", err)
	}
	_ = s.Close()
}

// TestOpenSurvivesBboltPanic: bbolt panics opening a file whose free
// list page is garbage. Open returns ErrFormat and ErrDamaged instead,
// and so does a second Open, though bbolt keeps the file locked; the
// remedy the errors suggest, deleting the file, gives a new Store.
func TestOpenSurvivesBboltPanic(t *testing.T) {
	b := storeFile(t, 500)
	pageSize := os.Getpagesize()
	for id, p := range pageInfos(t, writeFile(t, b)) {
		if p.Type == "freelist" {
			copy(b[id*pageSize:], bytes.Repeat([]byte{0xa5}, pageSize))
		}
	}
	path := writeFile(t, b)
	for range 2 {
		if _, err := Open(path); !errors.Is(err, ErrFormat) || !errors.Is(err, ErrDamaged) {
			t.Fatalf("Open: %v, want ErrFormat and ErrDamaged", err)
		} else {
			t.Log(err)
		}
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open after removing the file: %v", err)
	}
	_ = s.Close()
}

// A pageInfo is what bbolt tells of a page (bolt.Tx.Page): its type,
// "meta", "freelist", "branch", "leaf" or "free", and its number of
// elements.
type pageInfo struct {
	Type  string
	Count int
}

// pageInfos returns what bbolt tells of each page of the file at path,
// by page number, up to its high-water mark.
func pageInfos(t testing.TB, path string) []pageInfo {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var pages []pageInfo
	err = db.View(func(tx *bolt.Tx) error {
		for id := 0; int64(id) < tx.Size()/int64(db.Info().PageSize); id++ {
			p, err := tx.Page(id)
			if err != nil {
				return err
			}
			pages = append(pages, pageInfo{p.Type, p.Count})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// TestOpenReplaceDamaged: with WithReplaceDamaged, Open moves aside a
// file it cannot use (to its path + ".unusable", as it was) and opens an
// empty Store in its place, whether the file is refused at once or the
// damage is one that only the check of the whole file finds; it logs
// the replacement. Without it, Open refuses the first kind and opens the
// second. An intact file is kept, entries and all.
func TestOpenReplaceDamaged(t *testing.T) {
	intact := storeFile(t, 200)
	pageSize := os.Getpagesize()
	// bytesOf writes a copy of the intact file changed by f.
	bytesOf := func(f func(b []byte, pages []pageInfo) []byte) func(t *testing.T, path string) {
		return func(t *testing.T, path string) {
			b := f(bytes.Clone(intact), pageInfos(t, writeFile(t, intact)))
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	// update writes the intact file and changes it with bbolt.
	update := func(f func(tx *bolt.Tx) error) func(t *testing.T, path string) {
		return func(t *testing.T, path string) {
			if err := os.WriteFile(path, intact, 0o600); err != nil {
				t.Fatal(err)
			}
			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := errors.Join(db.Update(f), db.Close()); err != nil {
				t.Fatal(err)
			}
		}
	}
	// leaf returns the offset of the leaf page holding the entry of
	// site(0).
	leaf := func(b []byte, pages []pageInfo) int {
		for id, p := range pages {
			if page := b[id*pageSize : (id+1)*pageSize]; p.Type == "leaf" && bytes.Contains(page, []byte(site(0))) && bytes.Contains(page, bytes.Repeat([]byte{0}, 300)) {
				return id * pageSize
			}
		}
		panic("no leaf page holds site(0)'s entry")
	}
	for _, c := range []struct {
		name    string
		damage  func(t *testing.T, path string)
		refused bool // without WithReplaceDamaged
	}{
		{"cut short", bytesOf(func(b []byte, _ []pageInfo) []byte { return b[:len(b)/2] }), true},
		{"free list garbage", bytesOf(func(b []byte, pages []pageInfo) []byte {
			for id, p := range pages {
				if p.Type == "freelist" {
					copy(b[id*pageSize:], bytes.Repeat([]byte{0xa5}, pageSize))
				}
			}
			return b
		}), true},
		{"both meta pages garbage", bytesOf(func(b []byte, _ []pageInfo) []byte {
			copy(b, bytes.Repeat([]byte{0x5a}, 2*pageSize))
			return b
		}), true},
		{"a value flipped", bytesOf(func(b []byte, pages []pageInfo) []byte {
			at := leaf(b, pages)
			b[at+bytes.Index(b[at:at+pageSize], bytes.Repeat([]byte{0}, 300))] ^= 1
			return b
		}), false},
		{"a leaf page naming another", bytesOf(func(b []byte, pages []pageInfo) []byte {
			b[leaf(b, pages)] ^= 0x40
			return b
		}), false},
		{"a leaf page overflowing the file", bytesOf(func(b []byte, pages []pageInfo) []byte {
			b[leaf(b, pages)+15] = 0x40
			return b
		}), false},
		{"an index row missing", update(func(tx *bolt.Tx) error {
			k, _ := tx.Bucket(bucketWritten).Cursor().Last()
			return tx.Bucket(bucketWritten).Delete(k)
		}), false},
		{"a live total off", update(func(tx *bolt.Tx) error {
			return tx.Bucket(bucketMeta).Put(keyLive, binary.BigEndian.AppendUint64(nil, uint64(readLive(tx.Bucket(bucketMeta))+1)))
		}), false},
		{"a later layout", update(func(tx *bolt.Tx) error {
			return tx.Bucket(bucketMeta).Put(keyLayout, binary.BigEndian.AppendUint64(nil, layoutVersion+1))
		}), true},
		{"not bbolt", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte("User-agent: *\nDisallow: /\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "robots.db")
			c.damage(t, path)
			damaged, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if s, err := Open(path); (err != nil) != c.refused {
				t.Errorf("Open without WithReplaceDamaged: %v, want refused %v", err, c.refused)
			} else if err == nil {
				_ = s.Close()
			} else if !errors.Is(err, ErrFormat) {
				t.Errorf("Open without WithReplaceDamaged: %v, want ErrFormat", err)
			}
			logger, logged := records()
			s, err := Open(path, WithReplaceDamaged(), WithLogger(logger))
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer s.Close()
			if aside, err := os.ReadFile(path + unusableSuffix); err != nil || !bytes.Equal(aside, damaged) {
				t.Errorf("the file moved aside is not the damaged file (%v)", err)
			}
			if _, err := s.Get(t.Context(), site(1)); !errors.Is(err, robotstxt.ErrCacheMiss) {
				t.Errorf("Get from the new file: %v, want a miss", err)
			}
			if count(logged(), "moved it aside") != 1 {
				t.Errorf("logged %v, want the replacement once", logged())
			}
			if _, err := os.Stat(path + checkingSuffix); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the check's mark is left: %v", err)
			}
		})
	}
	t.Run("intact", func(t *testing.T) {
		path := writeFile(t, intact)
		s, err := Open(path, WithReplaceDamaged())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if _, err := os.Stat(path + unusableSuffix); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("an intact file was moved aside: %v", err)
		}
		if _, err := s.Get(t.Context(), site(1)); err != nil {
			t.Errorf("Get from the intact file: %v", err)
		}
	})
	t.Run("locked", func(t *testing.T) {
		s, path := newStore(t)
		if _, err := Open(path, WithReplaceDamaged()); !errors.Is(err, ErrLocked) {
			t.Errorf("Open of a file in use: %v, want ErrLocked", err)
		}
		if _, err := os.Stat(path + unusableSuffix); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a file in use was moved aside: %v", err)
		}
		_ = s.Close()
	})
}

// TestOpenAfterCheckDied: a mark of a check left beside the file (the
// process ended while Open checked it, perhaps killed with nothing amiss)
// has Open, with WithReplaceDamaged, check the file again and keep it
// intact; a mark of two such ends in a row has it replace the file
// without checking it; without the option, Open ignores the mark.
func TestOpenAfterCheckDied(t *testing.T) {
	path := writeFile(t, storeFile(t, 10))
	if err := os.WriteFile(path+checkingSuffix, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	once, err := Open(path, WithReplaceDamaged())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := once.Get(t.Context(), site(1)); err != nil {
		t.Errorf("Get after one check that died: %v; want the intact file's value", err)
	}
	if err := once.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+checkingSuffix, []byte{1}, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(t.Context(), site(1)); err != nil {
		t.Errorf("Get without WithReplaceDamaged: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path, WithReplaceDamaged())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Get(t.Context(), site(1)); !errors.Is(err, robotstxt.ErrCacheMiss) {
		t.Errorf("Get after two checks that died: %v, want a miss from a new file", err)
	}
	if _, err := os.Stat(path + unusableSuffix); err != nil {
		t.Errorf("the file was not moved aside: %v", err)
	}
	if _, err := os.Stat(path + checkingSuffix); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the mark is left: %v", err)
	}
}

// TestOpenReplaceOnce: two Opens that find the file unusable at once do
// not both open a Store, one of them on the file the other moved aside:
// the second fails with ErrLocked.
func TestOpenReplaceOnce(t *testing.T) {
	for range 20 {
		path := writeFile(t, bytes.Repeat([]byte("not bolt "), 2000))
		var stores [2]*Store
		var errs [2]error
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range stores {
			wg.Go(func() {
				<-start
				stores[i], errs[i] = Open(path, WithReplaceDamaged())
			})
		}
		close(start)
		wg.Wait()
		opened := 0
		for i, s := range stores {
			if s != nil {
				opened++
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
			} else if !errors.Is(errs[i], ErrLocked) {
				t.Errorf("the Open that lost: %v, want ErrLocked", errs[i])
			}
		}
		if opened != 1 {
			t.Fatalf("%d Stores opened on one file, want 1", opened)
		}
	}
	// A lock file a crash left unusable is made again.
	for _, lock := range [][]byte{bytes.Repeat([]byte("x"), 100), make([]byte, 8<<10)} {
		path := writeFile(t, bytes.Repeat([]byte("not bolt "), 2000))
		if err := os.WriteFile(path+replacingSuffix, lock, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := Open(path, WithReplaceDamaged())
		if err != nil {
			t.Fatalf("Open beside an unusable lock file: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpenReplaceHoldsTheFile: an Open that found the file unusable only
// by checking it (here, the mark of two checks that ended the process)
// keeps it locked until it is aside: another Open fails with ErrLocked.
// Another Open, which finds
// the file usable (the mark gone), got a Store on the file the first then
// moved aside, and its writes were lost.
func TestOpenReplaceHoldsTheFile(t *testing.T) {
	path := writeFile(t, storeFile(t, 10))
	if err := os.WriteFile(path+checkingSuffix, []byte{1}, 0o600); err != nil {
		t.Fatal(err)
	}
	// Another Open replacing the file holds this: the first waits for it.
	lock, err := bolt.Open(path+replacingSuffix, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	type opened struct {
		s   *Store
		err error
	}
	open := func(to chan<- opened) {
		s, err := Open(path, WithReplaceDamaged())
		to <- opened{s, err}
	}
	first, second := make(chan opened, 1), make(chan opened, 1)
	go open(first)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Microsecond) {
		if _, err := os.Stat(path + checkingSuffix); errors.Is(err, fs.ErrNotExist) {
			break // the first read the mark
		}
		if time.Now().After(deadline) {
			t.Fatal("the first Open never read the mark")
		}
	}
	go open(second)
	time.Sleep(lockTimeout / 4)
	if err := lock.Close(); err != nil { // the first moves the file aside
		t.Fatal(err)
	}
	a, b := <-first, <-second
	for _, o := range []opened{a, b} {
		if o.s != nil {
			if err := o.s.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if a.s != nil && b.s != nil {
		t.Fatalf("both Opens got a Store, one of them on the file moved aside")
	}
	if !errors.Is(b.err, ErrLocked) {
		t.Errorf("the Open beside a replacement: %v, want ErrLocked", b.err)
	}
}

// TestOpenUnsyncedFreeListDamaged: a Store's file whose current meta page
// keeps no free list (bbolt's own "surgery freelist abandon" leaves a file
// so, as does any write with NoFreelistSync) and one of whose branch pages
// has a child id with one bit flipped. bbolt, opening such a file for
// writing, rebuilds the free list by walking every tree on a goroutine of
// its own, where no recover or SetPanicOnFault reaches: the fault ends
// the process, before the check of WithReplaceDamaged has written its
// mark, so every start ends so and the file is never replaced. Open runs
// three times in a helper process; the file should be moved aside (at
// once, or after two ends in a row, as the package documents).
func TestOpenUnsyncedFreeListDamaged(t *testing.T) {
	path := writeFile(t, storeFile(t, 200))
	branch := -1
	for id, p := range pageInfos(t, path) { // before: pageInfos's Open writes a free list
		if p.Type == "branch" {
			branch = id
		}
	}
	if branch < 0 {
		t.Fatal("no branch page in the file")
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{NoFreelistSync: true})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keyLayout, binary.BigEndian.AppendUint64(nil, layoutVersion))
	})
	if err = errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}
	b := readFile(t, path)
	// Undamaged, it is refused too, and left as it is.
	if s, err := Open(path); !errors.Is(err, ErrFormat) {
		if err == nil {
			_ = s.Close()
		}
		t.Fatalf("Open of a file keeping no free list: %v, want ErrFormat", err)
	}
	if after := readFile(t, path); !bytes.Equal(after, b) {
		t.Fatal("Open changed the file it refused")
	}
	at := branch*os.Getpagesize() + pageHeaderLen + childAt
	binary.LittleEndian.PutUint64(b[at:], binary.LittleEndian.Uint64(b[at:])^1<<20) // one bit
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var last string
	for range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCheckHelper$", "-test.count=1")
		cmd.Env = append(os.Environ(), "CHECK_PATH="+path)
		out, err := cmd.CombinedOutput()
		last = fmt.Sprintf("%v: %.600s", err, out)
		if err == nil && bytes.Contains(out, []byte(`RESULT {"Err":"\u003cnil\u003e"`)) {
			break
		}
	}
	if _, err := os.Stat(path + unusableSuffix); err != nil {
		t.Fatalf("after three Opens WithReplaceDamaged the file is still in place (%v); the last: %s", err, last)
	}
}

// TestOpenDirectory: a path that names a directory (a cache directory
// given where the file's path belongs) is no file of another program:
// Open fails with the operating system's error ("is a directory"), not
// ErrFormat, and WithReplaceDamaged leaves it where it is, its files in
// it, rather than moving it aside for a new Store.
func TestOpenDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "other.db"), []byte("another program's"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir)
	if errors.Is(err, ErrFormat) {
		t.Errorf("Open of a directory: %v, want the operating system's error, not ErrFormat", err)
	}
	s, err := Open(dir, WithReplaceDamaged())
	if err == nil {
		_ = s.Close()
		t.Errorf("Open of a directory WithReplaceDamaged opened a Store there")
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Errorf("the directory is no longer at %s (%v)", dir, err)
	}
	if _, err := os.Stat(dir + unusableSuffix); err == nil {
		t.Errorf("the directory was moved aside to %s", dir+unusableSuffix)
	}
}

// TestEmptyUnfinishedSparesAnOpenAboutToLock: emptyUnfinished (the end
// of an Open that found no file and failed: nothing written on a full
// disk, a size limit) must not take the file from an Open that has it
// open but not yet locked (bbolt opens with O_CREATE, then flocks: a
// second crawler started on the same path), which holds no lock to
// refuse it: that Open's Store stays on the file at path, and a third
// Open there fails with ErrLocked.
func TestEmptyUnfinishedSparesAnOpenAboutToLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	opened, resume := make(chan struct{}), make(chan struct{})
	type result struct {
		db  *bolt.DB
		err error
	}
	done := make(chan result, 1)
	go func() { // the other Open's bbolt.Open, as openDB calls it
		db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: lockTimeout,
			OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
				f, err := os.OpenFile(name, flag, perm)
				close(opened) // open, not yet locked
				<-resume
				return f, err
			}})
		done <- result{db, err}
	}()
	<-opened
	emptyUnfinished(path) // the failed Open's end: an empty file, under four pages
	close(resume)
	r := <-done
	if r.err != nil {
		t.Fatalf("the other Open: %v", r.err)
	}
	defer r.db.Close()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("emptyUnfinished removed the file another Open had open and was about to lock: %v", err)
		s, err := Open(path)
		if err == nil {
			_ = s.Close()
			t.Errorf("and a third Open opened a Store at %s while the other holds one (want ErrLocked)", path)
		}
	}
}
