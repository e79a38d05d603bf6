package robotstxt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// EntryEncodingVersion is the first byte of every value the Client writes
// to a Store. Values with another first byte are treated as a miss (and
// overwritten by the next fetch), so processes of different versions can
// share a Store.
const EntryEncodingVersion = 2

// errCorruptEntry is wrapped by every decoding failure.
var errCorruptEntry = errors.New("robotstxt: corrupt cache entry")

const flagStale = 1

// encodeEntry serialises the stored fields of e: a version byte, outcome
// and flag bytes, then varints and length-prefixed strings, the body last.
func encodeEntry(e *entry) []byte {
	n := 3 + 7*binary.MaxVarintLen64 + len(e.etag) + len(e.lastMod) +
		len(e.finalURL) + len(e.errText) + len(e.body) + 5*binary.MaxVarintLen32
	b := make([]byte, 0, n)
	var flags byte
	if e.stale {
		flags |= flagStale
	}
	b = append(b, EntryEncodingVersion, byte(e.outcome), flags)
	b = binary.AppendUvarint(b, uint64(e.status))
	b = binary.AppendUvarint(b, uint64(e.failStatus))
	b = binary.AppendUvarint(b, uint64(e.failures))
	b = binary.AppendVarint(b, unixMilli(e.fetched))
	b = binary.AppendVarint(b, unixMilli(e.checked))
	b = binary.AppendVarint(b, unixMilli(e.expires))
	b = binary.AppendVarint(b, unixMilli(e.since))
	for _, s := range []string{e.etag, e.lastMod, e.finalURL, e.errText} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(len(e.body)))
	return append(b, e.body...)
}

// decodeEntry parses a value made by encodeEntry. It never panics; any
// value it does not fully understand is an error.
func decodeEntry(key string, b []byte) (*entry, error) {
	d := decoder{b: b}
	if len(b) < 3 {
		return nil, fmt.Errorf("%w: %d bytes", errCorruptEntry, len(b))
	}
	if b[0] != EntryEncodingVersion {
		return nil, fmt.Errorf("%w: version %d", errCorruptEntry, b[0])
	}
	e := &entry{key: key, outcome: Outcome(b[1]), stale: b[2]&flagStale != 0}
	if e.outcome == OutcomeNone || e.outcome > OutcomeUnreachable || b[2]&^flagStale != 0 {
		return nil, fmt.Errorf("%w: outcome %d flags %d", errCorruptEntry, b[1], b[2])
	}
	d.b = b[3:]
	e.status = d.small(999)
	e.failStatus = d.small(999)
	e.failures = d.small(1 << 20)
	e.fetched = d.time()
	e.checked = d.time()
	e.expires = d.time()
	e.since = d.time()
	e.etag = string(d.bytes())
	e.lastMod = string(d.bytes())
	e.finalURL = string(d.bytes())
	e.errText = string(d.bytes())
	if body := d.bytes(); len(body) > 0 {
		e.body = append([]byte(nil), body...)
	}
	if d.err != nil {
		return nil, d.err
	}
	if len(d.b) != 0 {
		return nil, fmt.Errorf("%w: %d trailing bytes", errCorruptEntry, len(d.b))
	}
	if e.outcome != OutcomeRules && len(e.body) > 0 {
		return nil, fmt.Errorf("%w: body without rules", errCorruptEntry)
	}
	return e, nil
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = fmt.Errorf("%w: bad varint", errCorruptEntry)
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) small(limit uint64) int {
	v := d.uvarint()
	if v > limit {
		d.err = fmt.Errorf("%w: value %d out of range", errCorruptEntry, v)
		return 0
	}
	return int(v)
}

func (d *decoder) time() time.Time {
	if d.err != nil {
		return time.Time{}
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = fmt.Errorf("%w: bad time", errCorruptEntry)
		return time.Time{}
	}
	d.b = d.b[n:]
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v)
}

func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.err = fmt.Errorf("%w: length %d beyond end", errCorruptEntry, n)
		return nil
	}
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

func unixMilli(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}
