package boltstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// The buckets of a Store's file (see the package documentation).
var (
	bucketMeta    = []byte("meta")
	bucketValues  = []byte("values")
	bucketExpiry  = []byte("expiry")
	bucketWritten = []byte("written")
)

// The keys of the meta bucket, each with 8 bytes, big-endian.
var (
	keyLayout = []byte("layout") // layoutVersion
	keyLive   = []byte("live")   // the live entries' cost
)

// layoutVersion is the version of the layout this package writes. Open
// lays out afresh a file of an earlier version, and refuses one of a
// later version: a version that changes the layout gives it a new
// number. Version 1 had no checksums.
const layoutVersion = 2

const (
	// headerLen is the length of the header before each value in the
	// values bucket: its expiry, its write sequence and its checksum.
	headerLen = 20
	// indexKeyLen is the length of a key of the expiry bucket: an
	// expiry and a sequence. A key of the written bucket is the sequence.
	indexKeyLen = 16
	// entryOverhead is what an entry costs beyond its key (stored in the
	// values, expiry and written buckets) and value: the 16-byte element
	// header bbolt keeps for each of its three rows, the value's header,
	// and the keys of its two index rows.
	entryOverhead = 3*16 + headerLen + indexKeyLen + 8
)

// A header is what the values bucket keeps before each value, less the
// checksum.
type header struct {
	expires int64  // Unix nanoseconds
	seq     uint64 // write sequence: the entry's key in the written bucket
}

// castagnoli is the table of CRC-32C, which the hardware computes on
// amd64 and arm64.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// sum returns an entry's checksum: the CRC-32C of its key, the first 16
// bytes of its row (its expiry and sequence) and its value, so that a
// row changed anywhere, or moved under another key, fails it.
func sum(key, head, value []byte) uint32 {
	crc := crc32.Update(0, castagnoli, key)
	crc = crc32.Update(crc, castagnoli, head)
	return crc32.Update(crc, castagnoli, value)
}

// row returns the values bucket's row for an entry under key.
func (h header) row(key, value []byte) []byte {
	v := make([]byte, headerLen, headerLen+len(value))
	binary.BigEndian.PutUint64(v, uint64(h.expires))
	binary.BigEndian.PutUint64(v[8:], h.seq)
	binary.BigEndian.PutUint32(v[16:], sum(key, v[:16], value))
	return append(v, value...)
}

// parseRow splits v, the values bucket's row under key, into its header
// and the Client's bytes. ok is false unless v has a header and its
// checksum matches: for an absent row, and for a damaged one.
func parseRow(key, v []byte) (h header, data []byte, ok bool) {
	if len(v) < headerLen || binary.BigEndian.Uint32(v[16:]) != sum(key, v[:16], v[headerLen:]) {
		return header{}, nil, false
	}
	return header{int64(binary.BigEndian.Uint64(v)), binary.BigEndian.Uint64(v[8:])}, v[headerLen:], true
}

// expiryKey is the entry's key in the expiry bucket: expiry, then
// sequence, so that the bucket is in expiry order and keys are unique.
func (h header) expiryKey() []byte {
	return binary.BigEndian.AppendUint64(seqKey(uint64(h.expires)), h.seq)
}

// seqKey is a sequence number as a key of the written bucket, in a new
// slice (bbolt keeps the slices given to Put until the commit).
func seqKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, indexKeyLen), seq)
}

// cost is the counted size of an entry with a key of k bytes and a value
// of v bytes, as the meta bucket's live total adds it up.
func cost(k, v int) int64 { return int64(3*k + v + entryOverhead) }

// checkLayout checks that tx's file has this package's layout. It
// returns lay true for a file to lay out, a new one or one of an earlier
// layout, and an error wrapping ErrFormat for a bbolt file that another
// program made, or that a later version of this package laid out.
func checkLayout(tx *bolt.Tx) (lay bool, err error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		if name, _ := tx.Cursor().First(); name != nil {
			return false, fmt.Errorf("%w: a bbolt file with a bucket %q and no %q bucket, not made by boltstore", ErrFormat, name, bucketMeta)
		}
		return true, nil
	}
	v := meta.Get(keyLayout)
	if len(v) != 8 {
		return false, fmt.Errorf("%w: no layout version in the %q bucket", ErrFormat, bucketMeta)
	}
	switch n := binary.BigEndian.Uint64(v); {
	case n > layoutVersion:
		return false, fmt.Errorf("%w: layout %d; this version of boltstore reads layout %d", ErrFormat, n, layoutVersion)
	case n < layoutVersion:
		return true, nil
	}
	for _, name := range [][]byte{bucketValues, bucketExpiry, bucketWritten} {
		if tx.Bucket(name) == nil {
			return false, fmt.Errorf("%w: layout %d without a %q bucket", ErrFormat, layoutVersion, name)
		}
	}
	return false, nil
}

// layOut empties tx's file of this package's buckets, if it has them,
// and lays out an empty Store.
func layOut(tx *bolt.Tx) error {
	names := [][]byte{bucketMeta, bucketValues, bucketExpiry, bucketWritten}
	for _, name := range names {
		if err := tx.DeleteBucket(name); err != nil && !errors.Is(err, bolterrors.ErrBucketNotFound) {
			return err
		}
	}
	for _, name := range names {
		if _, err := tx.CreateBucket(name); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketMeta).Put(keyLayout, binary.BigEndian.AppendUint64(nil, layoutVersion))
}

// buckets are the buckets of one write transaction and the live total
// as the transaction changes it.
type buckets struct {
	meta, values, expiry, written *bolt.Bucket
	live                          int64
}

// writable returns tx's buckets, which checkLayout checked at Open.
func writable(tx *bolt.Tx) *buckets {
	b := &buckets{
		meta:    tx.Bucket(bucketMeta),
		values:  tx.Bucket(bucketValues),
		expiry:  tx.Bucket(bucketExpiry),
		written: tx.Bucket(bucketWritten),
	}
	// The index buckets take keys in nearly ascending order: full pages
	// suit them, as the bbolt documentation advises for appends.
	b.expiry.FillPercent, b.written.FillPercent = 1, 1
	b.live = readLive(b.meta)
	return b
}

// readLive returns the live total kept in the meta bucket (zero if it is
// missing or damaged).
func readLive(meta *bolt.Bucket) int64 {
	v := meta.Get(keyLive)
	if len(v) != 8 {
		return 0
	}
	return max(int64(binary.BigEndian.Uint64(v)), 0)
}

func (b *buckets) saveLive() error {
	return b.meta.Put(keyLive, binary.BigEndian.AppendUint64(nil, uint64(b.live)))
}

// put stores r under key, replacing the entry there with its index rows.
func (b *buckets) put(key string, r *record) error {
	k := []byte(key)
	if err := b.remove(k); err != nil {
		return err
	}
	seq, err := b.written.NextSequence()
	if err != nil {
		return err
	}
	h := header{expires: r.expires, seq: seq}
	b.live += cost(len(k), len(r.value))
	return errors.Join(
		b.values.Put(k, h.row(k, r.value)),
		b.expiry.Put(h.expiryKey(), k),
		b.written.Put(seqKey(seq), k),
	)
}

// remove deletes the entry under key, if there is one, with its index
// rows. Of a row that fails its checksum it deletes the row alone: its
// index rows cannot be told from its header, and trim drops them when it
// comes to them.
func (b *buckets) remove(key []byte) error {
	v := b.values.Get(key)
	if v == nil {
		return nil
	}
	h, _, ok := parseRow(key, v)
	b.live = max(b.live-cost(len(key), max(len(v)-headerLen, 0)), 0)
	if !ok {
		return b.values.Delete(key)
	}
	return errors.Join(
		b.values.Delete(key),
		b.expiry.Delete(h.expiryKey()),
		b.written.Delete(seqKey(h.seq)),
	)
}

// dropRow deletes the row of index whose key is row and value the
// entry's key. If the entry under that key is the one the row was written
// for, or fails its checksum, the entry goes with it, and dropRow returns
// its cost; a row that a damaged file left behind goes alone.
func (b *buckets) dropRow(index *bolt.Bucket, row, key []byte) (freed int64, err error) {
	row, key = bytes.Clone(row), bytes.Clone(key) // they point into pages the deletes change
	before := b.live
	v := b.values.Get(key)
	if h, _, ok := parseRow(key, v); v == nil || ok && !bytes.Equal(row, h.expiryKey()) && !bytes.Equal(row, seqKey(h.seq)) {
		return 0, index.Delete(row)
	}
	err = errors.Join(b.remove(key), index.Delete(row))
	return before - b.live, err
}
