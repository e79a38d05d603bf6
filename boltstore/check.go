package boltstore

import (
	"bytes"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// verify checks the whole of tx's file for WithReplaceDamaged, where
// contain recovers. bolt.Tx.Check runs on a goroutine of its own, where a
// fault ends the process, and loops as long as a damaged count says.
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

// An indexRow is a row an index should have.
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

// inOrder is b.ForEach, failing unless the keys strictly ascend, as they
// do not past a branch page that points back at itself.
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

// checkPages checks that every page past the meta pages is free, or a
// branch, leaf or free list page whose overflow, which bbolt frees when it
// writes the page anew, ends below the high-water mark.
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
