package boltstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// The buckets of a Store's file. "values" maps each key to a header and
// the Client's value; "expiry" and "written" index the entries, with the
// keys as values; "meta" holds the layout version and the live total.
var (
	bucketMeta    = []byte("meta")
	bucketValues  = []byte("values")
	bucketExpiry  = []byte("expiry")
	bucketWritten = []byte("written")
	allBuckets    = [...][]byte{bucketMeta, bucketValues, bucketExpiry, bucketWritten}
)

// The keys of the meta bucket, each with 8 bytes, big-endian.
var (
	keyLayout = []byte("layout") // layoutVersion
	keyLive   = []byte("live")   // the live entries' cost
)

// layoutVersion is the layout this package writes, a new number for each
// change (1 had no checksums).
const layoutVersion = 2

const (
	// headerLen is that of a header and its checksum.
	headerLen = 20
	// indexKeyLen is that of a key of the expiry bucket.
	indexKeyLen = 16
	// entryOverhead is what an entry costs beyond its key, stored thrice,
	// and value: bbolt's 16-byte element header of each of its three
	// rows, the value's header and the keys of its two index rows.
	entryOverhead = 3*16 + headerLen + indexKeyLen + 8
)

// A header is what the values bucket keeps before each value, with a
// checksum.
type header struct {
	expires int64  // Unix nanoseconds
	seq     uint64 // write sequence: the entry's key in the written bucket
}

// castagnoli is CRC-32C, which amd64 and arm64 compute in hardware.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// sum is an entry's checksum, over its key too, so that a row moved
// under another key fails it.
func sum(key, head, value []byte) uint32 {
	crc := crc32.Update(0, castagnoli, key)
	crc = crc32.Update(crc, castagnoli, head)
	return crc32.Update(crc, castagnoli, value)
}

func (h header) row(key, value []byte) []byte {
	v := make([]byte, headerLen, headerLen+len(value))
	binary.BigEndian.PutUint64(v, uint64(h.expires))
	binary.BigEndian.PutUint64(v[8:], h.seq)
	binary.BigEndian.PutUint32(v[16:], sum(key, v[:16], value))
	return append(v, value...)
}

// parseRow splits v, the row under key; ok is false for an absent or
// damaged row.
func parseRow(key, v []byte) (h header, data []byte, ok bool) {
	if len(v) < headerLen || binary.BigEndian.Uint32(v[16:]) != sum(key, v[:16], v[headerLen:]) {
		return header{}, nil, false
	}
	return header{int64(binary.BigEndian.Uint64(v)), binary.BigEndian.Uint64(v[8:])}, v[headerLen:], true
}

// expiryKey is expiry then sequence: in expiry order, and unique.
func (h header) expiryKey() []byte {
	return binary.BigEndian.AppendUint64(seqKey(uint64(h.expires)), h.seq)
}

// seqKey returns a new slice, since bbolt keeps Put's until the commit.
func seqKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, indexKeyLen), seq)
}

// cost is the counted size of an entry with a k-byte key and v-byte value.
func cost(k, v int) int64 { return int64(3*k + v + entryOverhead) }

// checkLayout returns lay true for a new file or one of an earlier
// layout, and an error wrapping ErrFormat for one it cannot use.
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

// layOut lays out an empty Store, deleting any buckets of an old one.
func layOut(tx *bolt.Tx) error {
	for _, name := range allBuckets {
		if err := tx.DeleteBucket(name); err != nil && !errors.Is(err, bolterrors.ErrBucketNotFound) {
			return err
		}
		if _, err := tx.CreateBucket(name); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketMeta).Put(keyLayout, binary.BigEndian.AppendUint64(nil, layoutVersion))
}

// buckets are those of one write transaction, and its live total.
type buckets struct {
	meta, values, expiry, written *bolt.Bucket
	live                          int64
}

func writable(tx *bolt.Tx) *buckets {
	b := &buckets{
		meta:    tx.Bucket(bucketMeta),
		values:  tx.Bucket(bucketValues),
		expiry:  tx.Bucket(bucketExpiry),
		written: tx.Bucket(bucketWritten),
	}
	// Full pages suit keys in nearly ascending order.
	b.expiry.FillPercent, b.written.FillPercent = 1, 1
	b.live = readLive(b.meta)
	return b
}

// readLive returns the live total, zero if it is missing or damaged.
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

// remove deletes the entry under key and its index rows, which trim
// drops instead if the entry is damaged.
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
