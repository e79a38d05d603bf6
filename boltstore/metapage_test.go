package boltstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
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
	var pages int // the high-water mark: pages in use or free
	for _, at := range []int{0, pageSize} {
		pages = max(pages, int(binary.NativeEndian.Uint64(good[at+metaAt+offHighWater:])))
	}
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
