package boltstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// sweepLimit is how many expired entries a commit removes unasked, at
// least: few enough to keep a commit short. A commit that wrote more
// removes as many as it wrote, so that expired entries never pile up
// while a writer behind a slow disk commits thousands at a time.
const sweepLimit = 1000

// trim removes expired entries (sweepLimit or as many as the commit
// wrote, from sequence first on, or more while need is not met), then
// the oldest written before first, until it has freed need bytes of
// counted cost: a Set is never undone by its own commit.
func (b *buckets) trim(now, need int64, first uint64) error {
	var freed int64
	limit := sweepLimit
	if last := b.written.Sequence(); last >= first {
		limit = max(limit, int(min(last-first+1, 1<<30)))
	}
	err := b.dropWhile(b.expiry, &freed, func(n int, row []byte) bool {
		return (n < limit || freed < need) && (len(row) != indexKeyLen || int64(binary.BigEndian.Uint64(row)) <= now)
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
// the cost freed to *freed. Each row is sought from the last one dropped:
// bbolt rebalances at the commit, so the leaves emptied before it stay,
// and a walk from the first row over them made dropping k rows cost k²
// (a bound lowered under a file of 400,000 entries: 34 s in one commit).
func (b *buckets) dropWhile(index *bolt.Bucket, freed *int64, more func(n int, row []byte) bool) error {
	var last []byte
	for n := 0; ; n++ {
		var row, key []byte
		if c := index.Cursor(); last == nil {
			row, key = c.First()
		} else {
			row, key = c.Seek(last)
		}
		if row != nil && last != nil && bytes.Compare(row, last) <= 0 {
			return unordered(row) // the row dropped last is still there
		}
		if row == nil || !more(n, row) {
			break
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
		last = row
	}
	if first, _ := index.Cursor().First(); first != nil && last != nil && bytes.Compare(first, last) <= 0 {
		// A leaf whose keys are out of order: Delete's seek missed a
		// row, which would come first for ever.
		return unordered(first)
	}
	return nil
}

// unordered returns the error of an index row that cannot be deleted.
func unordered(row []byte) error {
	return fmt.Errorf("%w: row %x of an index cannot be deleted", ErrDamaged, row)
}

const (
	// initialRatio is the pages in use per counted byte until measured:
	// B+tree leaves are about half full after bbolt splits them.
	initialRatio = 2
	// maxRatio caps the ratio: bbolt merges a page under a quarter full.
	maxRatio = 4
	// ratioSample is the least live total to measure the ratio on, where
	// the fixed pages (meta, freelist, bucket roots) no longer skew it.
	ratioSample = 256 << 10
)

// A bound keeps the pages in use near maxBytes, projecting what a
// transaction adds to them from its counted cost, times the ratio
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
