package boltstore

import (
	"bytes"
	"encoding/binary"
	"errors"

	bolt "go.etcd.io/bbolt"
)

// sweepLimit is how many expired entries a commit removes when it need
// not make room: enough to keep up with expiry at any write rate the
// writer sustains, few enough that a commit after a long idle spell stays
// short.
const sweepLimit = 1000

// trim removes expired entries (sweepLimit, or more while need is not
// met), then the oldest written before sequence first, until it has freed
// need bytes of counted cost: a Set is never undone by its own commit.
func (b *buckets) trim(now, need int64, first uint64) error {
	var freed int64
	err := b.dropWhile(b.expiry, &freed, func(n int, row []byte) bool {
		return (n < sweepLimit || freed < need) && (len(row) != indexKeyLen || int64(binary.BigEndian.Uint64(row)) <= now)
	})
	if err != nil {
		return err
	}
	return b.dropWhile(b.written, &freed, func(_ int, row []byte) bool {
		ok := len(row) == 8 || len(row) == indexKeyLen
		return freed < need && (!ok || binary.BigEndian.Uint64(row[len(row)-8:]) < first)
	})
}

// dropWhile drops the first row of index while more says so, with the
// entry it names unless the row is one a damaged file left behind, adding
// the cost freed to *freed.
func (b *buckets) dropWhile(index *bolt.Bucket, freed *int64, more func(n int, row []byte) bool) error {
	for n := 0; ; n++ {
		row, key := index.Cursor().First()
		if row == nil || !more(n, row) {
			return nil
		}
		row, key = bytes.Clone(row), bytes.Clone(key) // they point into pages the deletes change
		before := b.live
		var err error
		v := b.values.Get(key)
		if h, _, ok := parseRow(key, v); v != nil && (!ok || bytes.Equal(row, h.expiryKey()) || bytes.Equal(row, seqKey(h.seq))) {
			err = b.remove(key)
		}
		if err = errors.Join(err, index.Delete(row)); err != nil {
			return err
		}
		*freed += before - b.live
	}
}

const (
	// initialRatio is the pages in use per counted byte assumed until
	// the file holds enough to measure it: B+tree leaves are about half
	// full after bbolt splits them.
	initialRatio = 2
	// maxRatio caps the measured ratio: bbolt merges a page that falls
	// below a quarter full, so live entries never take more than about
	// four times their size.
	maxRatio = 4
	// ratioSample is the least live total the ratio is measured on:
	// below it the fixed pages (meta pages, freelist, bucket roots) weigh
	// enough to skew it.
	ratioSample = 256 << 10
)

// A bound keeps the pages in use near maxBytes. bbolt cannot tell what
// a transaction adds to them before it commits, so the bound projects it
// from the counted cost, times the ratio of pages in use to counted cost
// measured after the previous commit. It belongs to the writer.
type bound struct {
	maxBytes int64
	inUse    int64   // bytes of the pages in use after the last commit
	ratio    float64 // inUse / live total, measured; initialRatio before
}

// need returns the counted cost to free after adding added.
func (b *bound) need(added int64) int64 {
	if b.maxBytes <= 0 {
		return 0
	}
	room := float64(b.maxBytes-b.inUse) / b.ratio
	return max(added-int64(room), 0)
}

func (b *bound) measure(db *bolt.DB, live int64) {
	if b.maxBytes <= 0 {
		return
	}
	b.inUse = pagesInUse(db)
	if live >= ratioSample {
		b.ratio = min(max(float64(b.inUse)/float64(live), 1), maxRatio)
	}
}

// pagesInUse returns the bytes of db's pages up to the high-water mark
// less the free and pending ones.
func pagesInUse(db *bolt.DB) int64 {
	var size int64
	if err := db.View(func(tx *bolt.Tx) error { size = tx.Size(); return nil }); err != nil {
		return 0
	}
	st := db.Stats()
	return max(size-int64(st.FreePageN+st.PendingPageN)*int64(db.Info().PageSize), 0)
}
