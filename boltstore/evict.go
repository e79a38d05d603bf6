package boltstore

import (
	"encoding/binary"

	bolt "go.etcd.io/bbolt"
)

// sweepLimit is how many expired entries a commit removes when it need
// not make room: enough to keep up with expiry at any write rate the
// writer sustains, few enough that a commit after a long idle spell (a
// day's entries expiring at once) stays short. Entries needed to make
// room are removed whatever their number.
const sweepLimit = 1000

// trim removes expired entries (up to sweepLimit of them, or more while
// need is not met) and then the oldest entries written before sequence
// first, until it has freed need bytes of counted cost. Entries of the
// batch being committed (first and later) stay, so that a Set is never
// undone by its own commit.
func (b *buckets) trim(now, need int64, first uint64) error {
	var freed int64
	for n := 0; n < sweepLimit || freed < need; n++ {
		row, key := b.expiry.Cursor().First()
		if row == nil || len(row) == indexKeyLen && int64(binary.BigEndian.Uint64(row)) > now {
			break
		}
		f, err := b.dropRow(b.expiry, row, key)
		if err != nil {
			return err
		}
		freed += f
	}
	for freed < need {
		row, key := b.written.Cursor().First()
		if seq, ok := rowSeq(row); row == nil || ok && seq >= first {
			break
		}
		f, err := b.dropRow(b.written, row, key)
		if err != nil {
			return err
		}
		freed += f
	}
	return nil
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
// a transaction will add to the pages in use before it commits, so the
// bound projects it from the counted cost of the entries written and
// removed, times the ratio of pages in use to counted cost measured after
// the previous commit. The projection errs only in a batch's share, which
// the next commit's measurement corrects. It belongs to the writer
// goroutine.
type bound struct {
	maxBytes int64
	inUse    int64   // bytes of the pages in use after the last commit
	ratio    float64 // inUse / live total, measured
}

// need returns the counted cost a transaction must free after adding
// added to stay within the bound.
func (b *bound) need(added int64) int64 {
	if b.maxBytes <= 0 {
		return 0
	}
	room := float64(b.maxBytes-b.inUse) / b.ratio
	return max(added-int64(room), 0)
}

// measure updates the bound after a commit left live counted bytes.
func (b *bound) measure(db *bolt.DB, live int64) {
	if b.maxBytes <= 0 {
		return
	}
	b.inUse = pagesInUse(db)
	if b.ratio == 0 {
		b.ratio = initialRatio
	}
	if live >= ratioSample {
		b.ratio = min(max(float64(b.inUse)/float64(live), 1), maxRatio)
	}
}

// pagesInUse returns the bytes of db's pages that hold data: the pages up
// to the high-water mark less the free ones (including those freed by
// the last commit, which bbolt reuses once no reader needs them).
func pagesInUse(db *bolt.DB) int64 {
	var size int64
	if err := db.View(func(tx *bolt.Tx) error { size = tx.Size(); return nil }); err != nil {
		return 0
	}
	st := db.Stats()
	return max(size-int64(st.FreePageN+st.PendingPageN)*int64(db.Info().PageSize), 0)
}
