package boltstore

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// verify checks the whole of tx's file for WithReplaceDamaged, where
// contain recovers. bolt.Tx.Check runs on a goroutine of its own, where a
// fault ends the process, and loops as long as a damaged count says.
func verify(tx *bolt.Tx) error {
	if err := walk(tx); err != nil {
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

// walk checks the pages of the file at tx and the trees of its buckets,
// whatever their layout, as checkPages and checkTrees do.
func walk(tx *bolt.Tx) error {
	if err := checkPages(tx); err != nil {
		return err
	}
	return checkTrees(tx)
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

// The layout of a bbolt page, as a cursor reads it: a header (its id,
// flags, element count and overflow), then, in a branch, elements of 16
// bytes, each ending in a child's page id.
const (
	pageHead   = 16
	branchElem = 16
	branchPage = 0x01
	leafPage   = 0x02
)

// checkTrees walks each bucket's pages from its root, reading the file,
// before any cursor does: a cursor reads a page that is not a leaf as a
// branch, and its first descent (Cursor.First) is a loop that grows its
// stack without end on a cycle, which no fault stops (a Get's search
// recurses, and overflows its stack). It fails on a page reached twice,
// outside the file, not naming itself, or neither a branch nor a leaf.
func checkTrees(tx *bolt.Tx) error {
	f, err := os.Open(tx.DB().Path())
	if err != nil {
		return err
	}
	defer f.Close()
	size := uint64(tx.DB().Info().PageSize)
	pages := uint64(tx.Size()) / size
	seen := make(map[uint64]bool)
	var head [pageHead]byte
	for _, name := range allBuckets {
		b := tx.Bucket(name)
		if b == nil || b.Root() == 0 {
			continue // none (an earlier layout), or inline in its parent's page
		}
		todo := []uint64{uint64(b.Root())}
		for len(todo) > 0 {
			id := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			if id < 2 || id >= pages || seen[id] {
				return fmt.Errorf("%w: the %q bucket reaches page %d twice, or past the file's %d", ErrDamaged, name, id, pages)
			}
			seen[id] = true
			if _, err := f.ReadAt(head[:], int64(id*size)); err != nil {
				return err
			}
			self, flags := binary.LittleEndian.Uint64(head[:]), binary.LittleEndian.Uint16(head[8:])
			count, overflow := uint64(binary.LittleEndian.Uint16(head[10:])), uint64(binary.LittleEndian.Uint32(head[12:]))
			switch {
			case self != id:
				return fmt.Errorf("%w: page %d of the %q bucket names itself %d", ErrDamaged, id, name, self)
			case flags == leafPage:
				continue
			case flags != branchPage || overflow >= pages-id || pageHead+count*branchElem > (1+overflow)*size:
				return fmt.Errorf("%w: page %d of the %q bucket (flags %#x, %d elements, %d overflow) is no branch or leaf",
					ErrDamaged, id, name, flags, count, overflow)
			}
			elems := make([]byte, count*branchElem)
			if _, err := f.ReadAt(elems, int64(id*size+pageHead)); err != nil {
				return err
			}
			for e := range count {
				todo = append(todo, binary.LittleEndian.Uint64(elems[e*branchElem+8:]))
			}
		}
	}
	return nil
}
