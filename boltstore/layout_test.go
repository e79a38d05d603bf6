package boltstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
)

// consistent fails the test unless the buckets of s's file agree: every
// entry has its two index rows, no index row is left over, and the live
// total is the sum of the entries' costs.
func consistent(t testing.TB, s *Store) {
	t.Helper()
	err := s.db.View(func(tx *bolt.Tx) error {
		values, expiry, written := tx.Bucket(bucketValues), tx.Bucket(bucketExpiry), tx.Bucket(bucketWritten)
		var sum int64
		n := 0
		err := values.ForEach(func(k, v []byte) error {
			h, data, ok := parseRow(k, v)
			if !ok {
				t.Errorf("%q: a value of %d bytes failing its checksum", k, len(v))
				return nil
			}
			n++
			sum += cost(len(k), len(data))
			if got := expiry.Get(h.expiryKey()); !bytes.Equal(got, k) {
				t.Errorf("%q: expiry row holds %q", k, got)
			}
			if got := written.Get(seqKey(h.seq)); !bytes.Equal(got, k) {
				t.Errorf("%q: written row holds %q", k, got)
			}
			return nil
		})
		if ne, nw := expiry.Stats().KeyN, written.Stats().KeyN; ne != n || nw != n {
			t.Errorf("%d entries, %d expiry rows, %d written rows", n, ne, nw)
		}
		if live := readLive(tx.Bucket(bucketMeta)); live != sum {
			t.Errorf("live total %d, entries add up to %d", live, sum)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// storedKeys returns the keys of the entries in s's file, in order.
func storedKeys(t testing.TB, s *Store) []string {
	t.Helper()
	var keys []string
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketValues).ForEach(func(k, _ []byte) error {
			keys = append(keys, string(k))
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// boltFile makes a bbolt file laid out by lay, with opts, and returns its
// path.
func boltFile(t *testing.T, opts *bolt.Options, lay func(tx *bolt.Tx) error) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "robots.db")
	db, err := bolt.Open(path, 0o600, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(db.Update(lay), db.Close()); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOpenRefusesOtherLayouts: Open refuses with ErrFormat a bbolt file
// of another program and files whose layout is not this package's,
// and leaves them as they were, also those whose free list is not synced
// (etcd's default), to which bbolt opened for writing commits.
func TestOpenRefusesOtherLayouts(t *testing.T) {
	layout := func(version uint64, buckets ...[]byte) func(*bolt.Tx) error {
		return func(tx *bolt.Tx) error {
			for _, name := range buckets {
				if _, err := tx.CreateBucket(name); err != nil {
					return err
				}
			}
			if meta := tx.Bucket(bucketMeta); meta != nil && version != 0 {
				return meta.Put(keyLayout, binary.BigEndian.AppendUint64(nil, version))
			}
			return nil
		}
	}
	for _, c := range []struct {
		name string
		lay  func(*bolt.Tx) error
		want string // in the error
	}{
		{"another program's", layout(0, []byte("users"), []byte("sessions")), `bucket "sessions"`},
		{"a later layout", layout(layoutVersion+1, bucketMeta, bucketValues, bucketExpiry, bucketWritten, []byte("hosts")), fmt.Sprintf("layout %d", layoutVersion+1)},
		{"no layout version", layout(0, bucketMeta, bucketValues, bucketExpiry, bucketWritten), "no layout version"},
		{"a bucket missing", layout(layoutVersion, bucketMeta, bucketValues, bucketWritten), `"expiry" bucket`},
	} {
		for _, unsynced := range []bool{false, true} {
			path := boltFile(t, &bolt.Options{NoFreelistSync: unsynced}, c.lay)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Open(path)
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s (free list unsynced %v): Open: %v, want ErrFormat saying %s", c.name, unsynced, err, c.want)
			}
			if err == nil {
				_ = s.Close()
			}
			if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
				t.Errorf("%s (free list unsynced %v): the refused file changed (%v)", c.name, unsynced, err)
			}
		}
	}
}

// TestGarbageValues: values the Client did not write come back from Get
// byte for byte, for the Client to reject, and the Client then fetches;
// a value too short to have the Store's header is a miss; Set replaces
// both.
func TestGarbageValues(t *testing.T) {
	w := crawltest.NewWeb(t)
	garbage := []byte("\x00\xffnot an entry")
	const short = "http://short.test:80"
	s, path := newStore(t)
	host := site(1)
	key := "http://" + host + ":80"
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		b := writable(tx)
		if err := b.put(key, &record{value: garbage, expires: time.Now().Add(time.Hour).UnixNano()}); err != nil {
			return err
		}
		if err := b.values.Put([]byte(short), []byte("short")); err != nil {
			return err
		}
		b.live += cost(len(short), 0) // as if written whole, then cut
		return b.saveLive()
	})
	if err := errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}

	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, err := s.Get(t.Context(), key); err != nil || !bytes.Equal(got, garbage) {
		t.Errorf("Get of a garbage value = %q, %v; want it as stored", got, err)
	}
	if got, err := s.Get(t.Context(), short); !errors.Is(err, robotstxt.ErrCacheMiss) {
		t.Errorf("Get of a value without a header = %q, %v; want a miss", got, err)
	}
	c := newClient(t, s, w.Addr())
	defer c.Close()
	if err := check(c, host); err != nil {
		t.Error(err)
	}
	if n := w.Fetches(host); n != 1 {
		t.Errorf("over a garbage value: %d fetches, want 1", n)
	}
	set(t, s, short, []byte("fresh"))
	flushed(t, s)
	if got, err := s.Get(t.Context(), short); err != nil || string(got) != "fresh" {
		t.Errorf("after Set over a value without a header: Get = %q, %v", got, err)
	}
	consistent(t, s)
}

// rowFlips returns a flip of every bit of the row of key in the bbolt
// file at path: its key, the Store's header and checksum, and the
// Client's value, where bbolt keeps them in a leaf page.
func rowFlips(t *testing.T, path, key string) []flip {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var row []byte
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *bolt.Tx) error {
		row = bytes.Clone(tx.Bucket(bucketValues).Get([]byte(key)))
		return nil
	})
	if err := errors.Join(err, db.Close()); err != nil || row == nil {
		t.Fatalf("reading the row of %s: %v", key, err)
	}
	kv := append([]byte(key), row...)
	page := inPage(t, path, b, "leaf", kv)
	at := page + bytes.Index(b[page:page+os.Getpagesize()], kv)
	var fs []flip
	for off := at; off < at+len(kv); off++ {
		for bit := range uint8(8) {
			fs = append(fs, flip{off, bit})
		}
	}
	return fs
}

// TestValueFlipsNeverAllow: every bit of one site's row in a Store's
// file (its key, the Store's header and checksum, and the Client's
// value) is flipped in turn; each time a
// Store is opened on the file, and a Client that cannot fetch checks
// that site's private path and another site's: neither is ever allowed,
// and the process checking survives every flip. A flip in the value
// fails its checksum (and the Store logs the first such value, once).
func TestValueFlipsNeverAllow(t *testing.T) {
	hosts := crawltest.Hosts("flip", 10) // too many for an inline bucket
	path := filledFile(t, hosts)
	fs := rowFlips(t, path, "http://"+hosts[1]+":80")
	tally := runFlips(t, flipSpec{File: path, Flips: fs, Hosts: hosts[:2]})
	if tally.Mismatched == 0 {
		t.Error("no flip failed a checksum")
	}
}

// TestChecksumMismatchIsMiss: a value damaged in the file (one bit
// flipped), and a whole row copied under another key, fail their
// checksums: Get finds a miss, every time; an intact value is found.
// The Store logs the first mismatch once, and at Close how many Gets met
// one.
func TestChecksumMismatchIsMiss(t *testing.T) {
	s, path := newStore(t)
	for _, k := range []string{"a", "b"} {
		set(t, s, k, []byte("value of "+k))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		values := tx.Bucket(bucketValues)
		return values.Put([]byte("c"), bytes.Clone(values.Get([]byte("b"))))
	})
	if err := errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	at := inPage(t, path, b, "leaf", []byte("value of a"))
	b[at+bytes.Index(b[at:], []byte("value of a"))] ^= 1
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}

	logger, logged := records()
	s, err = Open(path, WithLogger(logger))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "a", "c"} {
		if got, err := s.Get(t.Context(), k); !errors.Is(err, robotstxt.ErrCacheMiss) {
			t.Errorf("Get(%s) = %q, %v; want a miss", k, got, err)
		}
	}
	if got, err := s.Get(t.Context(), "b"); err != nil || string(got) != "value of b" {
		t.Errorf("Get(b) = %q, %v; want the value", got, err)
	}
	if n := count(logged(), "checksum"); n != 1 {
		t.Errorf("logged %d lines on checksums before Close, want 1", n)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	rs := logged()
	counted := false
	for _, r := range rs {
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "count" {
				counted = true
				if a.Value.Int64() != 3 {
					t.Errorf("Close logged %v mismatches, want 3", a.Value)
				}
			}
			return true
		})
	}
	if !counted {
		t.Error("Close logged no count of mismatches")
	}
	if n := count(rs, "checksum"); n != 2 {
		t.Errorf("logged %d lines on checksums, want 2 (the first, and the count at Close)", n)
	}
}

// TestOlderLayoutLaidOutAfresh: a file of layout 1, whose values have no
// checksum, is emptied and laid out anew at Open: its entries are
// misses, and new ones are kept.
func TestOlderLayoutLaidOutAfresh(t *testing.T) {
	path := boltFile(t, nil, func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketMeta, bucketValues, bucketExpiry, bucketWritten} {
			if _, err := tx.CreateBucket(name); err != nil {
				return err
			}
		}
		v := binary.BigEndian.AppendUint64(nil, uint64(time.Now().Add(time.Hour).UnixNano())) // expiry
		v = binary.BigEndian.AppendUint64(v, 1)                                               // sequence
		return errors.Join(
			tx.Bucket(bucketMeta).Put(keyLayout, binary.BigEndian.AppendUint64(nil, 1)),
			tx.Bucket(bucketValues).Put([]byte(authority), append(v, "old value"...)),
			tx.Bucket(bucketExpiry).Put(v, []byte(authority)),
			tx.Bucket(bucketWritten).Put(v[8:], []byte(authority)),
		)
	})
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, err := s.Get(t.Context(), authority); !errors.Is(err, robotstxt.ErrCacheMiss) {
		t.Errorf("Get of an entry of layout 1 = %q, %v; want a miss", got, err)
	}
	set(t, s, authority, []byte("new value"))
	flushed(t, s)
	consistent(t, s)
	err = s.db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketMeta).Get(keyLayout); binary.BigEndian.Uint64(v) != layoutVersion {
			t.Errorf("layout %d after Open, want %d", binary.BigEndian.Uint64(v), layoutVersion)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// FuzzParseRow: parseRow reads any bytes under any key without panicking,
// and accepts only a row that header.row writes back byte for byte; a row
// header.row made reads back as written, and with any one byte changed
// (which CRC-32C always catches), or under its key with one byte
// changed, not at all.
func FuzzParseRow(f *testing.F) {
	good := header{expires: 1 << 60, seq: 7}.row([]byte(authority), []byte("value"))
	f.Add([]byte(authority), good, int64(1<<60), uint64(7), []byte("value"), uint(3), byte(1))
	f.Add([]byte("k"), []byte{}, int64(-1), uint64(0), []byte{}, uint(0), byte(0xff))
	f.Add([]byte("k"), make([]byte, headerLen), int64(0), uint64(1<<63), []byte("\x00"), uint(25), byte(0x80))
	f.Add([]byte(""), good[:headerLen-1], int64(math.MaxInt64), uint64(math.MaxUint64), []byte(nil), uint(19), byte(2))
	f.Fuzz(func(t *testing.T, key, v []byte, expires int64, seq uint64, value []byte, at uint, xor byte) {
		if h, data, ok := parseRow(key, v); ok {
			if len(v) < headerLen || !bytes.Equal(data, v[headerLen:]) {
				t.Fatalf("parseRow(%q, %x) = %x, not the row's tail", key, v, data)
			}
			if again := h.row(key, data); !bytes.Equal(again, v) {
				t.Fatalf("parseRow(%q, %x) = %+v, %x, which row writes as %x", key, v, h, data, again)
			}
		} else if h != (header{}) || data != nil {
			t.Fatalf("parseRow(%q, %x) refused it, yet returned %+v, %x", key, v, h, data)
		}
		want := header{expires: expires, seq: seq}
		row := want.row(key, value)
		h, data, ok := parseRow(key, row)
		if !ok || h != want || !bytes.Equal(data, value) {
			t.Fatalf("round trip of %+v, %x under %q: %+v, %x, %v", want, value, key, h, data, ok)
		}
		if k := h.expiryKey(); len(k) != indexKeyLen || int64(binary.BigEndian.Uint64(k)) != expires || binary.BigEndian.Uint64(k[8:]) != seq {
			t.Fatalf("expiryKey of %+v = %x", h, k)
		}
		if k := seqKey(seq); len(k) != 8 || binary.BigEndian.Uint64(k) != seq {
			t.Fatalf("seqKey(%d) = %x", seq, k)
		}
		if xor != 0 {
			bad := bytes.Clone(row)
			bad[at%uint(len(bad))] ^= xor
			if _, _, ok := parseRow(key, bad); ok {
				t.Fatalf("row %x with byte %d changed to %x read as whole", row, at%uint(len(bad)), bad)
			}
		}
		if xor != 0 && len(key) > 0 {
			other := bytes.Clone(key)
			other[at%uint(len(other))] ^= xor
			if _, _, ok := parseRow(other, row); ok {
				t.Fatalf("row of %q read under %q", key, other)
			}
		}
	})
}
