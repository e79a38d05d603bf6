package boltstore

import (
	"bytes"
	"encoding/binary"
	"errors"
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
			h, data, ok := parseHeader(v)
			if !ok {
				t.Errorf("%q: a value of %d bytes, without a header", k, len(v))
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

// boltFile makes a bbolt file laid out by lay and returns its path.
func boltFile(t *testing.T, lay func(tx *bolt.Tx) error) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "robots.db")
	db, err := bolt.Open(path, 0o600, nil)
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
// and leaves them as they were.
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
		{"a later layout", layout(2, bucketMeta, bucketValues, bucketExpiry, bucketWritten, []byte("hosts")), "layout 2"},
		{"no layout version", layout(0, bucketMeta, bucketValues, bucketExpiry, bucketWritten), "no layout version"},
		{"a bucket missing", layout(1, bucketMeta, bucketValues, bucketWritten), `"expiry" bucket`},
	} {
		path := boltFile(t, c.lay)
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Open(path)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Open: %v, want ErrFormat saying %s", c.name, err, c.want)
		}
		if err == nil {
			_ = s.Close()
		}
		if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
			t.Errorf("%s: the refused file changed (%v)", c.name, err)
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
