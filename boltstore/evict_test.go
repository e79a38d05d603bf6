package boltstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/robotsgate/robotstxt/internal/longtest"
)

// TestTrim: trim frees expired entries first, then the oldest written,
// until it has freed what is needed; it never removes the batch being
// committed; with nothing needed it still sweeps expired entries.
func TestTrim(t *testing.T) {
	now := time.Now().UnixNano()
	hour, expired := now+int64(time.Hour), now-1
	// Written in this order; "d" expired.
	entries := []struct {
		key     string
		expires int64
	}{{"a", hour}, {"b", hour}, {"c", hour}, {"d", expired}, {"e", hour}, {"f", hour}}
	one := cost(1, 100)
	for _, c := range []struct {
		name   string
		need   int64
		first  uint64 // the first sequence of the batch being committed
		remain string
	}{
		{"nothing needed: the expired one", 0, 7, "abcef"},
		{"one: the expired one", one, 7, "abcef"},
		{"two: the expired one and the oldest", 2 * one, 7, "bcef"},
		{"four", 4 * one, 7, "ef"},
		{"all", 100 * one, 7, ""},
		{"all, but not the batch", 100 * one, 5, "ef"},
	} {
		s, _ := newStore(t)
		err := s.db.Update(func(tx *bolt.Tx) error {
			b := writable(tx)
			for _, e := range entries {
				if err := b.put(e.key, &record{value: make([]byte, 100), expires: e.expires}); err != nil {
					return err
				}
			}
			if err := b.trim(now, c.need, c.first); err != nil {
				return err
			}
			return b.saveLive()
		})
		if err != nil {
			t.Fatal(err)
		}
		consistent(t, s)
		if got := storedKeys(t, s); !slices.Equal(got, split(c.remain)) {
			t.Errorf("%s: %q remain, want %q", c.name, got, split(c.remain))
		}
	}
}

// split returns the letters of s as strings.
func split(s string) []string {
	var out []string
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}

// TestTrimDamagedRows: index rows a damaged file left behind (naming a
// missing entry, naming an entry that has another expiry, or with a key
// of the wrong length) are dropped on the way, without removing the
// entries they name, and trim still frees what it needs: the oldest
// entry, "a".
func TestTrimDamagedRows(t *testing.T) {
	s, _ := newStore(t)
	now := time.Now().UnixNano()
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := writable(tx)
		for _, key := range []string{"a", "b", "c"} {
			if err := b.put(key, &record{value: make([]byte, 100), expires: now + int64(time.Hour)}); err != nil {
				return err
			}
		}
		stale := header{expires: now - 2, seq: 2} // "b" is at sequence 2, but expires later
		return errors.Join(
			b.expiry.Put(header{expires: now - 3, seq: 9}.expiryKey(), []byte("gone")),
			b.expiry.Put(stale.expiryKey(), []byte("b")),
			b.expiry.Put([]byte{0}, []byte("b")),
			b.written.Put([]byte{0, 0, 0}, []byte("c")),
			b.trim(now, cost(1, 100), 100),
			b.saveLive(),
		)
	})
	if err != nil {
		t.Fatal(err)
	}
	consistent(t, s)
	if got := storedKeys(t, s); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("%q remain, want b and c", got)
	}
}

// TestCommitSweepsExpired: a commit removes expired entries from the
// file, whether or not the Store is bounded.
func TestCommitSweepsExpired(t *testing.T) {
	s, _ := newStore(t)
	for i := range 50 {
		if err := s.Set(t.Context(), site(i), []byte("v"), time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	flushed(t, s)
	time.Sleep(2 * time.Millisecond)
	set(t, s, authority, []byte("v"))
	flushed(t, s)
	consistent(t, s)
	if got := storedKeys(t, s); !slices.Equal(got, []string{authority}) {
		t.Errorf("%d entries remain, want only %s", len(got), authority)
	}
}

// TestBoundedPages: a Store bounded to n, written 20 times n in values of
// 100 bytes to 6 KB, keeps its pages in use within 1.5 n throughout,
// keeps the entries written last, and its buckets agree. Reopened with a
// smaller bound, it shrinks to that at the next commit.
func TestBoundedPages(t *testing.T) {
	longtest.Gate(t)
	const n = 1 << 20
	s, path := newStore(t, WithMaxBytes(n))
	rng := rand.New(rand.NewPCG(1, 2))
	var written, worst int64
	var last []string
	for i := 0; written < 20*n; i++ {
		v := make([]byte, 100+rng.IntN(6000))
		for j := range v {
			v[j] = byte(rng.Uint32())
		}
		key := "http://" + site(i) + ":80"
		set(t, s, key, v)
		written += int64(len(v))
		last = append(last, key)
		if len(last) > 10 {
			last = last[1:]
		}
		if i%100 == 99 {
			flushed(t, s)
			worst = max(worst, pagesInUse(s.db))
		}
	}
	flushed(t, s)
	worst = max(worst, pagesInUse(s.db))
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d bytes under a bound of %d: pages in use at most %.2f n, now %.2f n; file %.2f n",
		written, n, float64(worst)/n, float64(pagesInUse(s.db))/n, float64(fi.Size())/n)
	if worst > n*3/2 {
		t.Errorf("pages in use reached %d bytes, over 1.5 × %d", worst, n)
	}
	for _, key := range last {
		if _, err := s.Get(t.Context(), key); err != nil {
			t.Errorf("one of the last entries written, %s: %v", key, err)
		}
	}
	consistent(t, s)

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path, WithMaxBytes(n/2))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	set(t, s, authority, []byte("v"))
	flushed(t, s)
	if got := pagesInUse(s.db); got > n/2*3/2 {
		t.Errorf("reopened with a bound of %d: pages in use %d after a commit", n/2, got)
	}
	consistent(t, s)
}

// TestBucketFlaggedIndexRowStops: one flipped bit in the flags of a row
// of the expiry index (bbolt's flag of a nested bucket, bit 0 of the
// element's flags) makes that row one that bbolt's Delete refuses
// (ErrIncompatibleValue), and whose entry Cursor.First reads as nil. The
// row's entry expires, and every commit's sweep meets it first: a Store
// should drop it, or stop with ErrDamaged as for an index row it cannot
// delete (TestUnorderedIndexStops), not fail every commit for ever,
// losing each batch while Set keeps recording and Get keeps answering.
func TestBucketFlaggedIndexRowStops(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	val := bytes.Repeat([]byte("x"), 100)
	if err := s.Set(t.Context(), site(0), val, 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 100; i++ {
		set(t, s, site(i), val)
	}
	flushed(t, s)
	var row []byte // site(0)'s expiry row: its key, then its value
	err = s.db.View(func(tx *bolt.Tx) error {
		h, _, ok := parseRow([]byte(site(0)), tx.Bucket(bucketValues).Get([]byte(site(0))))
		if !ok {
			return errors.New("no entry of site 0")
		}
		row = append(h.expiryKey(), site(0)...)
		return nil
	})
	if err = errors.Join(err, s.Close()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := inPage(t, path, b, "leaf", row)
	at := page + bytes.Index(b[page:page+os.Getpagesize()], row)
	flipped := false
	for i := range int(binary.LittleEndian.Uint16(b[page+10:])) {
		e := page + pageHeaderLen + i*elementLen
		if e+int(binary.LittleEndian.Uint32(b[e+4:])) == at {
			b[e] ^= 0x01 // bbolt's bucketLeafFlag
			flipped = true
		}
	}
	if !flipped {
		t.Fatal("no element of the leaf page points at the row")
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	time.Sleep(400 * time.Millisecond) // site(0) has expired
	var errs []error
	for i := 100; i < 110 && !stopped(s); i++ {
		errs = append(errs, s.Set(t.Context(), site(i), val, time.Hour))
		flushed(t, s)
	}
	if stopped(s) {
		return // the Store found its file damaged: fine
	}
	lost := 0
	for i := 100; i < 110; i++ {
		if _, err := s.Get(t.Context(), site(i)); err != nil {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("the Store goes on, but lost %d of the 10 values set since it opened; the last Set: %v", lost, errs[len(errs)-1])
	}
}

// TestSweepKeepsUpWithBatches: commits that each carry more new entries
// than the sweep's thousand (a writer behind a slow disk), all expired
// before the next, remove as many expired ones as they add: the file
// holds about one burst, not every burst's leftovers.
func TestSweepKeepsUpWithBatches(t *testing.T) {
	const burst, rounds = 3000, 6
	s, path := newStore(t)
	v := bytes.Repeat([]byte("v"), 300)
	n := 0
	for range rounds {
		release := holdWriter(t, s) // the writer takes the first Set, and the rest wait as one batch
		for range burst {
			if err := s.Set(t.Context(), site(n), v, 50*time.Millisecond); err != nil {
				t.Fatal(err)
			}
			n++
		}
		release()
		flushed(t, s)
		time.Sleep(100 * time.Millisecond) // the whole burst expires
	}
	var entries int
	if err := s.db.View(func(tx *bolt.Tx) error {
		entries = tx.Bucket(bucketValues).Stats().KeyN
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("after %d bursts of %d entries: %d entries in the file, %d bytes", rounds, burst, entries, fi.Size())
	if entries > burst {
		t.Errorf("%d entries in the file, %d of them expired before the last burst; want at most the last burst's %d", entries, entries-burst, burst)
	}
}
