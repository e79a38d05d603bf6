package boltstore

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"os"
)

// bbolt's meta page, as its version 2 file format lays it out: after the
// 16-byte page header, the magic number, the format version, the page
// size, flags, the root bucket (page and sequence), the freelist page,
// the high-water mark (the number of pages in use or free), the
// transaction id and a checksum of all that. Integers are in the
// machine's byte order.
const (
	metaAt       = 16 // offset of the meta in its page
	metaLen      = 64
	boltMagic    = 0xED0CDAED
	boltVersion  = 2
	offPageSize  = 8
	offHighWater = 40
	offChecksum  = 56
)

// checkMeta refuses a file without a valid meta page (not a bbolt file,
// or one whose both meta pages are damaged), and a bbolt file shorter
// than its meta pages say, before bbolt maps it: bbolt would fault
// reading past the end of the file, and though openDB recovers from
// that, the mapping, and with it the file's lock, would stay until the
// process exits. A missing or empty file passes: bbolt creates one.
func checkMeta(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // bbolt creates it, or reports why it cannot
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() == 0 {
		return nil
	}
	pageSize := int64(os.Getpagesize())
	m0 := readMeta(f, 0)
	if m0 != nil {
		pageSize = max(int64(binary.NativeEndian.Uint32(m0[offPageSize:])), 1)
	}
	m1 := readMeta(f, pageSize)
	if m0 == nil && m1 == nil {
		return fmt.Errorf("%w: no valid bbolt meta page in its %d bytes", ErrFormat, fi.Size())
	}
	for i, m := range [][]byte{m0, m1} {
		if m == nil {
			continue
		}
		if pages := binary.NativeEndian.Uint64(m[offHighWater:]); pages > uint64(fi.Size()/pageSize) {
			return fmt.Errorf("%w: truncated: its meta page %d says %d pages of %d bytes, the file has %d bytes",
				ErrFormat, i, pages, pageSize, fi.Size())
		}
	}
	return nil
}

// readMeta returns the meta of the page at off, or nil unless it is a
// valid one: the magic number and version of bbolt's format, and a
// checksum that matches.
func readMeta(f *os.File, off int64) []byte {
	m := make([]byte, metaLen)
	if _, err := f.ReadAt(m, off+metaAt); err != nil {
		return nil
	}
	h := fnv.New64a()
	h.Write(m[:offChecksum])
	if binary.NativeEndian.Uint32(m) != boltMagic ||
		binary.NativeEndian.Uint32(m[4:]) != boltVersion ||
		binary.NativeEndian.Uint64(m[offChecksum:]) != h.Sum64() {
		return nil
	}
	return m
}
