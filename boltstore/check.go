package boltstore

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"

	bolt "go.etcd.io/bbolt"
)

// verify checks the whole of tx's file for WithReplaceDamaged, where
// contain recovers. bolt.Tx.Check runs on a goroutine of its own, where a
// fault ends the process, and loops as long as a damaged count says. It
// holds no more than a page of the file at a time: a list of every
// entry's rows took 280 MB for a million, and a crawler run close to its
// memory limit died in the check, twice, which replaced its healthy file.
func verify(tx *bolt.Tx) error {
	if err := walk(tx); err != nil {
		return err
	}
	values := tx.Bucket(bucketValues)
	var n int
	var sum int64
	err := inOrder(values, func(k, v []byte) error {
		_, data, ok := parseRow(k, v)
		if !ok {
			return fmt.Errorf("%w: the entry under %q fails its checksum", ErrDamaged, k)
		}
		n++
		sum += cost(len(k), len(data))
		return nil
	})
	if err != nil {
		return err
	}
	for _, ix := range []struct {
		name []byte
		row  func(header) []byte
	}{{bucketExpiry, header.expiryKey}, {bucketWritten, func(h header) []byte { return seqKey(h.seq) }}} {
		if err := sameRows(tx.Bucket(ix.name), values, n, ix.row); err != nil {
			return fmt.Errorf("the %q index: %w", ix.name, err)
		}
	}
	if err := inOrder(tx.Bucket(bucketMeta), func(_, _ []byte) error { return nil }); err != nil {
		return err
	}
	if live := readLive(tx.Bucket(bucketMeta)); live != sum {
		return fmt.Errorf("%w: a live total of %d, the entries add up to %d", ErrDamaged, live, sum)
	}
	return nil
}

// sameRows fails unless index holds, for each of the n entries of
// values, the row that row makes of its header, naming it, and no other:
// each of its rows is the one its entry makes, and there are n of them
// (two entries making one row would leave an entry without its own).
func sameRows(index, values *bolt.Bucket, n int, row func(header) []byte) error {
	rows, c := 0, values.Cursor() // one cursor: Get makes one each time
	err := inOrder(index, func(k, v []byte) error {
		key, val := c.Seek(v)
		h, _, ok := parseRow(v, val)
		if !ok || !bytes.Equal(key, v) || !bytes.Equal(k, row(h)) {
			return fmt.Errorf("%w: a row %x of %q that no entry has", ErrDamaged, k, v)
		}
		rows++
		return nil
	})
	if err == nil && rows != n {
		err = fmt.Errorf("%w: %d rows for %d entries", ErrDamaged, rows, n)
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
