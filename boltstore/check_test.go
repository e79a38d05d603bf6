package boltstore

import (
	"bytes"
	"encoding/binary"
	"log/slog"
	"os"
	"strings"
	"testing"
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
