package boltstore

import (
	"bytes"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// verify checks the whole of tx's file for WithReplaceDamaged, on the
// calling goroutine, where contain turns bbolt's panics and faults into
// errors: bbolt's account of its pages (checkPages); every entry's
// checksum; the index rows are those of the entries, no more and no
// fewer; the live total is the sum of the entries' costs; and every
// bucket yields its keys in order, which it does not when a damaged
// branch page points back at itself.
//
// It does not run bolt.Tx.Check: in bbolt 1.5 that runs on a goroutine
// of its own, where a fault ends the process, and loops for as long as a
// damaged page's overflow count says (one flipped bit: minutes, and
// gigabytes).
func verify(tx *bolt.Tx) error {
	if err := checkPages(tx); err != nil {
		return err
	}
	var byExpiry, bySeq []indexRow
	var sum int64
	err := inOrder(tx.Bucket(bucketValues), func(k, v []byte) error {
		h, data, ok := parseRow(k, v)
		if !ok {
			return fmt.Errorf("%w: the entry under %q fails its checksum", ErrDamaged, k)
		}
		byExpiry = append(byExpiry, indexRow{h.expiryKey(), k})
		bySeq = append(bySeq, indexRow{seqKey(h.seq), k})
		sum += cost(len(k), len(data))
		return nil
	})
	if err != nil {
		return err
	}
	if err := sameRows(tx.Bucket(bucketExpiry), byExpiry); err != nil {
		return fmt.Errorf("the %q index: %w", bucketExpiry, err)
	}
	if err := sameRows(tx.Bucket(bucketWritten), bySeq); err != nil {
		return fmt.Errorf("the %q index: %w", bucketWritten, err)
	}
	if err := inOrder(tx.Bucket(bucketMeta), func(_, _ []byte) error { return nil }); err != nil {
		return err
	}
	if live := readLive(tx.Bucket(bucketMeta)); live != sum {
		return fmt.Errorf("%w: a live total of %d, the entries add up to %d", ErrDamaged, live, sum)
	}
	return nil
}

// An indexRow is a row an index should have: its key, and the key of
// the entry it stands for.
type indexRow struct{ key, entry []byte }

// sameRows fails unless the rows of index are want, in some order.
func sameRows(index *bolt.Bucket, want []indexRow) error {
	slices.SortFunc(want, func(a, b indexRow) int { return bytes.Compare(a.key, b.key) })
	i := 0
	err := inOrder(index, func(k, v []byte) error {
		if i == len(want) || !bytes.Equal(k, want[i].key) || !bytes.Equal(v, want[i].entry) {
			return fmt.Errorf("%w: a row %x of %q that no entry has", ErrDamaged, k, v)
		}
		i++
		return nil
	})
	if err == nil && i < len(want) {
		err = fmt.Errorf("%w: no row %x of %q", ErrDamaged, want[i].key, want[i].entry)
	}
	return err
}

// inOrder calls f for each key and value of b, and fails unless the keys
// come in strictly ascending order.
func inOrder(b *bolt.Bucket, f func(k, v []byte) error) error {
	var prev []byte
	return b.ForEach(func(k, v []byte) error {
		if prev != nil && bytes.Compare(prev, k) >= 0 {
			return fmt.Errorf("%w: key %q after %q", ErrDamaged, k, prev)
		}
		prev = k
		return f(k, v)
	})
}

// checkPages checks bbolt's account of each page up to the high-water
// mark: every page past the two meta pages is free, or a branch, leaf or
// free list page whose overflow pages end below the mark. bbolt does not
// read a page's overflow count when it reads the page, but frees that
// many pages when it writes the page anew.
func checkPages(tx *bolt.Tx) error {
	pages := int(tx.Size() / int64(tx.DB().Info().PageSize))
	for id := 2; id < pages; {
		p, err := tx.Page(id)
		if err != nil {
			return err
		}
		switch p.Type {
		case "free":
			id++
			continue
		case "branch", "leaf", "freelist":
		default:
			return fmt.Errorf("%w: page %d of type %s", ErrDamaged, id, p.Type)
		}
		if p.OverflowCount >= pages-id {
			return fmt.Errorf("%w: page %d overflows by %d pages, past the last, %d", ErrDamaged, id, p.OverflowCount, pages-1)
		}
		id += 1 + p.OverflowCount
	}
	return nil
}
