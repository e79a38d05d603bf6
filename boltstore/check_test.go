package boltstore

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/internal/crawltest"
	bolt "go.etcd.io/bbolt"
)

// TestCheckFindsCycle: a branch page of the values bucket whose second
// child is the page itself (bbolt would follow it for ever) is found by
// the check of WithReplaceDamaged, which walks the tree and meets the
// page twice, and the file is replaced; the process lives on.
func TestCheckFindsCycle(t *testing.T) {
	b := storeFile(t, 500)
	path := writeFile(t, b)
	pageSize := os.Getpagesize()
	found := false
	for id, p := range pageInfos(t, path) {
		at := id * pageSize
		key := func(i int) []byte { // of the i-th element: its position, from the element, and length
			elem := at + pageHeaderLen + i*elementLen
			pos, n := binary.LittleEndian.Uint32(b[elem:]), binary.LittleEndian.Uint32(b[elem+4:])
			return b[elem+int(pos) : elem+int(pos)+int(n)]
		}
		if p.Type == "branch" && p.Count >= 2 && bytes.HasPrefix(key(0), []byte("site")) {
			binary.LittleEndian.PutUint64(b[at+pageHeaderLen+elementLen+childAt:], uint64(id))
			found = true
			break
		}
	}
	if !found {
		t.Fatal("no branch page of the values bucket")
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	logger, logged := records()
	s, err := Open(path, WithReplaceDamaged(), WithLogger(logger))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := os.Stat(path + unusableSuffix); err != nil {
		t.Errorf("the file was not moved aside: %v", err)
	}
	for _, r := range logged() {
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "error" {
				t.Log(a.Value)
				if !strings.Contains(a.Value.String(), "twice") {
					t.Errorf("replaced for %v, want a page reached twice", a.Value)
				}
			}
			return true
		})
	}
}

// TestCheckIndexes: the check of WithReplaceDamaged finds an index row
// missing, one too many, one under a wrong key (such as the key the other
// index gives the entry) and one naming a missing entry, in either index.
func TestCheckIndexes(t *testing.T) {
	intact := storeFile(t, 20)
	entry := []byte(site(3))
	for _, c := range []struct {
		name   string
		damage func(tx *bolt.Tx, h header) error
	}{
		{"written row missing", func(tx *bolt.Tx, h header) error { return tx.Bucket(bucketWritten).Delete(seqKey(h.seq)) }},
		{"expiry row missing", func(tx *bolt.Tx, h header) error { return tx.Bucket(bucketExpiry).Delete(h.expiryKey()) }},
		{"written row extra", func(tx *bolt.Tx, h header) error { return tx.Bucket(bucketWritten).Put(seqKey(h.seq+1000), entry) }},
		{"expiry row under the written key", func(tx *bolt.Tx, h header) error {
			return errors.Join(tx.Bucket(bucketExpiry).Delete(h.expiryKey()), tx.Bucket(bucketExpiry).Put(seqKey(h.seq), entry))
		}},
		{"written row under the expiry key", func(tx *bolt.Tx, h header) error {
			return errors.Join(tx.Bucket(bucketWritten).Delete(seqKey(h.seq)), tx.Bucket(bucketWritten).Put(h.expiryKey(), entry))
		}},
		{"expiry row twice", func(tx *bolt.Tx, h header) error {
			other := h
			other.expires++
			return tx.Bucket(bucketExpiry).Put(other.expiryKey(), entry)
		}},
		{"row naming no entry", func(tx *bolt.Tx, h header) error {
			return errors.Join(tx.Bucket(bucketExpiry).Delete(h.expiryKey()), tx.Bucket(bucketExpiry).Put(h.expiryKey(), []byte("gone")))
		}},
		{"intact", func(*bolt.Tx, header) error { return nil }},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, err := bolt.Open(writeFile(t, intact), 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			err = db.Update(func(tx *bolt.Tx) error {
				h, _, ok := parseRow(entry, tx.Bucket(bucketValues).Get(entry))
				if !ok {
					t.Fatal("no entry")
				}
				return c.damage(tx, h)
			})
			if err != nil {
				t.Fatal(err)
			}
			err = db.View(verify)
			if c.name == "intact" && err != nil || c.name != "intact" && !errors.Is(err, ErrDamaged) {
				t.Errorf("verify: %v", err)
			}
		})
	}
}

// TestCheckEndsOnFirstChildCycle: the check of WithReplaceDamaged ends on
// a cycle through a branch's first child, the one bbolt's Cursor.First
// follows in a loop that grows its stack without end, where a Get's
// search would overflow its own (a page naming itself first), or refuse
// the page (the free list page, read as a branch whose second id names
// the branch): the file is replaced at once; also in a file of an
// earlier layout, whose buckets Open deletes, walking them, to lay the
// file out anew (it hung there, at every start). Open runs in a helper
// process that gives up after 20 s or 256 MiB of heap, as the check did
// (3 GB after 45 s, growing).
func TestCheckEndsOnFirstChildCycle(t *testing.T) {
	current := filledFile(t, crawltest.Hosts("flip", 40))
	earlier := writeFile(t, readFile(t, current))
	db, err := bolt.Open(earlier, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keyLayout, binary.BigEndian.AppendUint64(nil, 1))
	})
	if err = errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}
	ps := os.Getpagesize()
	for _, base := range []struct{ name, path string }{{"current layout", current}, {"layout 1", earlier}} {
		branch, freelist := -1, -1
		for id, p := range pageInfos(t, base.path) {
			switch p.Type {
			case "branch":
				branch = id
			case "freelist":
				freelist = id
			}
		}
		if branch < 0 || freelist < 0 {
			t.Fatal("no branch or free list page in the file")
		}
		first := branch*ps + pageHeaderLen + childAt
		for _, tc := range []struct {
			name   string
			damage func(b []byte)
		}{
			{"branch names itself first", func(b []byte) { binary.LittleEndian.PutUint64(b[first:], uint64(branch)) }},
			{"first child the free list page", func(b []byte) {
				binary.LittleEndian.PutUint64(b[first:], uint64(freelist))
				binary.LittleEndian.PutUint64(b[freelist*ps+pageHeaderLen+childAt:], uint64(branch))
			}},
		} {
			t.Run(base.name+"/"+tc.name, func(t *testing.T) {
				b := readFile(t, base.path)
				tc.damage(b)
				path := writeFile(t, b)
				c := crawltest.StartChild(t, "TestCheckHelper", "CHECK_PATH="+path)
				var r struct {
					Stuck   bool
					HeapMiB uint64
					Err     string
				}
				c.Reply(t, "RESULT ", &r)
				c.Finish(t)
				if r.Stuck {
					t.Fatalf("Open WithReplaceDamaged still checking after 20 s or with %d MiB of heap", r.HeapMiB)
				}
				if _, err := os.Stat(path + unusableSuffix); err != nil || r.Err != "<nil>" {
					t.Errorf("Open: %s; moved aside: %v; want the file replaced", r.Err, err)
				}
			})
		}
	}
}

// readFile returns the bytes of the file at path.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCheckHelper is the helper process of
// TestCheckEndsOnFirstChildCycle.
func TestCheckHelper(t *testing.T) {
	path := os.Getenv("CHECK_PATH")
	if path == "" {
		t.Skip("runs only as a helper process")
	}
	report := func(stuck bool, heap uint64, err error) {
		js, _ := json.Marshal(map[string]any{"Stuck": stuck, "HeapMiB": heap >> 20, "Err": fmt.Sprint(err)})
		fmt.Println("RESULT " + string(js))
		os.Exit(0)
	}
	start := time.Now()
	go func() {
		for {
			time.Sleep(100 * time.Millisecond)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > 256<<20 || time.Since(start) > 20*time.Second {
				report(true, ms.HeapAlloc, nil)
			}
		}
	}()
	s, err := Open(path, WithReplaceDamaged())
	if err == nil {
		err = s.Close()
	}
	report(false, 0, err)
}
