package boltstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"log/slog"
	"os"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestCheckFindsCycle: a branch page of the values bucket whose second
// child is the page itself (bbolt would follow it for ever) is found by
// the check of WithReplaceDamaged, which reads the keys in order and
// meets the first ones again, and the file is replaced; the process
// lives on.
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
				if !strings.Contains(a.Value.String(), "after") {
					t.Errorf("replaced for %v, want keys out of order", a.Value)
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
