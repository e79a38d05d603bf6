package boltstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The buckets of a Store's file (see the package documentation).
var (
	bucketMeta    = []byte("meta")
	bucketValues  = []byte("values")
	bucketExpiry  = []byte("expiry")
	bucketWritten = []byte("written")
)

// The keys of the meta bucket.
var (
	keyLayout = []byte("layout") // layoutVersion, 8 bytes big-endian
	keyLive   = []byte("live")   // the live entries' cost, 8 bytes big-endian
)

// layoutVersion is the version of the layout this package writes. Open
// refuses a file of any other: a later version that changes the layout
// gives it a new number.
const layoutVersion = 1

// headerLen is the length of the header before each value in the values
// bucket: its expiry and its write sequence.
const headerLen = 16

// A header is what the values bucket keeps before each value.
type header struct {
	expires int64  // Unix nanoseconds
	seq     uint64 // write sequence: the entry's key in the written bucket
}

// parseHeader splits a stored value into its header and the Client's
// bytes. ok is false for an absent value, or one too short to have a
// header (only a damaged file holds one).
func parseHeader(v []byte) (h header, data []byte, ok bool) {
	if len(v) < headerLen {
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
	return binary.BigEndian.AppendUint64(make([]byte, 0, headerLen), seq)
}

// entryOverhead is what an entry costs beyond its key (stored three
// times: in the values, expiry and written buckets) and value: the
// 16-byte element header bbolt keeps for each of its three rows, the
// value's header, and the keys of its two index rows.
const entryOverhead = 3*16 + headerLen + 16 + 8

// cost is the counted size of an entry with a key of k bytes and a value
// of v bytes, as the meta bucket's live total adds it up.
func cost(k, v int) int64 { return int64(3*k + v + entryOverhead) }

// prepare makes a new file's buckets, or checks that an existing file has
// this package's layout. It refuses a bbolt file that another program
// made, or that a later version of this package laid out otherwise.
func prepare(tx *bolt.Tx) error {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		if name, _ := tx.Cursor().First(); name != nil {
			return fmt.Errorf("%w: a bbolt file with a bucket %q and no %q bucket, not made by boltstore", ErrFormat, name, bucketMeta)
		}
		return create(tx)
	}
	v := meta.Get(keyLayout)
	if len(v) != 8 {
		return fmt.Errorf("%w: no layout version in the %q bucket", ErrFormat, bucketMeta)
	}
	if n := binary.BigEndian.Uint64(v); n != layoutVersion {
		return fmt.Errorf("%w: layout %d; this version of boltstore reads layout %d", ErrFormat, n, layoutVersion)
	}
	for _, name := range [][]byte{bucketValues, bucketExpiry, bucketWritten} {
		if tx.Bucket(name) == nil {
			return fmt.Errorf("%w: layout %d without a %q bucket", ErrFormat, layoutVersion, name)
		}
	}
	return nil
}

// create lays out an empty file.
func create(tx *bolt.Tx) error {
	meta, err := tx.CreateBucket(bucketMeta)
	if err != nil {
		return err
	}
	for _, name := range [][]byte{bucketValues, bucketExpiry, bucketWritten} {
		if _, err := tx.CreateBucket(name); err != nil {
			return err
		}
	}
	return meta.Put(keyLayout, binary.BigEndian.AppendUint64(nil, layoutVersion))
}

// buckets are the buckets of one write transaction and the live total
// as the transaction changes it.
type buckets struct {
	meta, values, expiry, written *bolt.Bucket
	live                          int64
}

// writable returns tx's buckets, which prepare checked at Open.
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

// saveLive writes the live total back to the meta bucket.
func (b *buckets) saveLive() error {
	return b.meta.Put(keyLive, binary.BigEndian.AppendUint64(nil, uint64(b.live)))
}

// put stores r under key, replacing the entry there with its index rows.
func (b *buckets) put(key string, r *record) error {
	k := []byte(key)
	if h, data, ok := parseHeader(b.values.Get(k)); ok {
		if err := b.remove(k, h, len(data)); err != nil {
			return err
		}
	}
	seq, err := b.written.NextSequence()
	if err != nil {
		return err
	}
	h := header{expires: r.expires, seq: seq}
	v := make([]byte, headerLen, headerLen+len(r.value))
	binary.BigEndian.PutUint64(v, uint64(h.expires))
	binary.BigEndian.PutUint64(v[8:], h.seq)
	err = errors.Join(
		b.values.Put(k, append(v, r.value...)),
		b.expiry.Put(h.expiryKey(), k),
		b.written.Put(seqKey(seq), k),
	)
	b.live += cost(len(k), len(r.value))
	return err
}

// remove deletes the entry under key, whose header is h and value has n
// bytes, with its index rows.
func (b *buckets) remove(key []byte, h header, n int) error {
	b.live = max(b.live-cost(len(key), n), 0)
	return errors.Join(
		b.values.Delete(key),
		b.expiry.Delete(h.expiryKey()),
		b.written.Delete(seqKey(h.seq)),
	)
}

// dropRow deletes the row of index whose key is row and value the
// entry's key. If the entry under that key is the one the row was written
// for, the entry goes with it, and dropRow returns its cost; a row that a
// damaged file left behind goes alone.
func (b *buckets) dropRow(index *bolt.Bucket, row, key []byte) (freed int64, err error) {
	row, key = bytes.Clone(row), bytes.Clone(key) // they point into pages the deletes change
	h, data, found := parseHeader(b.values.Get(key))
	if !found || !bytes.Equal(row, h.expiryKey()) && !bytes.Equal(row, seqKey(h.seq)) {
		return 0, index.Delete(row)
	}
	before := b.live
	err = errors.Join(b.remove(key, h, len(data)), index.Delete(row))
	return before - b.live, err
}

// rowSeq returns the sequence number an index row's key ends with.
func rowSeq(row []byte) (uint64, bool) {
	if len(row) != 8 && len(row) != headerLen {
		return 0, false
	}
	return binary.BigEndian.Uint64(row[len(row)-8:]), true
}
