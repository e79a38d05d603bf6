package robotstxt

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// entry is what the Client caches for one authority. It is immutable once
// published, except for the refreshing flag and the memo of its parsed
// file.
//
// An entry keeps the rules its Client checks hot, in the compact form of a
// [Crawler] for the Client's product tokens, and the body only
// flate-compressed: the rest of the file is parsed again from it when
// another token is checked or the whole file is asked for, and kept only
// while someone holds it.
type entry struct {
	// What a hit reads comes first, so that it shares a cache line.
	key       string        // normalised authority
	crawler   *Crawler      // the Client's rules; nil unless outcome is OutcomeRules
	expiresAt int64         // expires in Unix nanoseconds (derived by derive)
	gen       atomic.Uint32 // the cache generation in which e was last promoted
	outcome   Outcome
	// stale marks a last good copy kept while the host is unreachable;
	// failStatus, failures and errText describe the failures.
	stale bool

	status   int                    // status of the response the rules rest on
	zbody    []byte                 // the body as parsed (UTF-8), compressed; nil unless OutcomeRules
	file     atomic.Pointer[Robots] // the whole parsed file, once asked for
	fetched  time.Time
	checked  time.Time // last fetch attempt
	expires  time.Time // when to revalidate or retry
	etag     string
	lastMod  string
	finalURL string // the robots.txt URL after redirects; "" when none

	failStatus int
	failures   int
	since      time.Time // when the failures began
	errText    string
	cause      error // the failure itself, when it happened in this process

	deferErr   *DeferredError // set for OutcomeUnreachable
	refreshing atomic.Bool
	size       int64 // bytes retained by the entry (derived by derive)
}

// setRules gives e the rules of text, the body as parsed, for the product
// tokens, and keeps text compressed.
func (e *entry) setRules(text []byte, zbody []byte, mode Mode, tokens []string) {
	e.crawler = ParseMode(text, mode).Crawler(tokens...)
	e.zbody = zbody
}

// body returns the body as parsed, decompressed; nil unless the outcome
// is OutcomeRules.
func (e *entry) body() ([]byte, error) {
	if e.zbody == nil {
		return nil, nil
	}
	return inflate(e.zbody, math.MaxInt64)
}

// good reports whether e holds a usable answer from a reachable server:
// not a deferral, and not the allow-all that stands in for a server
// unreachable for too long (see WithUnreachableAllowAfter).
func (e *entry) good() bool {
	return e.outcome != OutcomeUnreachable && (e.failures == 0 || e.stale)
}

// fresh reports whether e may be used at now without asking the server.
func (e *entry) fresh(now time.Time) bool { return now.Before(e.expires) }

// derive computes the fields derived from the stored ones.
func (e *entry) derive() *entry {
	if e.outcome == OutcomeUnreachable {
		cause := e.cause
		if cause == nil && e.errText != "" {
			cause = errors.New(e.errText)
		}
		e.deferErr = &DeferredError{Authority: e.key, Status: e.status, RetryAt: e.expires, Err: cause}
	}
	e.expiresAt = e.expires.UnixNano()
	e.size = e.retainedSize()
	return e
}

// entryOverhead estimates what an entry costs beyond its own fields and
// text: the LRU node and index slot that hold it, its deferral, and the
// Crawler's fixed part.
const entryOverhead = 384

// retainedSize estimates the bytes e keeps alive, for the cache's byte
// budget.
func (e *entry) retainedSize() int64 {
	n := int64(entryOverhead) + int64(len(e.key)+len(e.etag)+len(e.lastMod)+len(e.finalURL)+len(e.errText))
	n += int64(cap(e.zbody))
	if e.crawler != nil {
		n += int64(e.crawler.t.Size())
	}
	return n
}

// clone copies the stored fields of e (not the refreshing flag).
func (e *entry) clone() *entry {
	return &entry{
		key: e.key, outcome: e.outcome, status: e.status, crawler: e.crawler,
		zbody: e.zbody, fetched: e.fetched, checked: e.checked, expires: e.expires,
		etag: e.etag, lastMod: e.lastMod, finalURL: e.finalURL, stale: e.stale,
		failStatus: e.failStatus, failures: e.failures, since: e.since, errText: e.errText,
	}
}

// Flate writers and readers cost tens of kilobytes each to make: they
// are reused across entries and Clients. Pooled objects hold nothing of a
// body once put back.
var (
	deflaters sync.Pool // of *flate.Writer
	inflaters sync.Pool // of io.ReadCloser that is a flate.Resetter
)

// deflate returns text compressed at flate's default level, which shrinks
// real robots.txt files to about a fifth (the fastest level leaves 12 %
// more, which a cache of a million entries notices more than a fetch
// notices the time).
func deflate(text []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(text)/4 + 64)
	w, _ := deflaters.Get().(*flate.Writer)
	if w == nil {
		w, _ = flate.NewWriter(&buf, flate.DefaultCompression)
	} else {
		w.Reset(&buf)
	}
	_, _ = w.Write(text)
	_ = w.Close()
	w.Reset(io.Discard)
	deflaters.Put(w)
	return bytes.Clone(buf.Bytes()) // of exact size: the buffer grew past it
}

// errInflate is wrapped when a compressed body does not decompress within
// its limit.
var errInflate = errors.New("robotstxt: compressed body unreadable")

// inflate decompresses a body made by deflate, failing when it does not
// decompress or is longer than limit.
func inflate(z []byte, limit int64) ([]byte, error) {
	src := bytes.NewReader(z)
	r, _ := inflaters.Get().(io.ReadCloser)
	if r == nil {
		r = flate.NewReader(src)
	} else if err := r.(flate.Resetter).Reset(src, nil); err != nil {
		return nil, fmt.Errorf("%w: %v", errInflate, err)
	}
	defer func() {
		_ = r.(flate.Resetter).Reset(bytes.NewReader(nil), nil)
		inflaters.Put(r)
	}()
	b, err := io.ReadAll(io.LimitReader(r, limit))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errInflate, err)
	}
	if int64(len(b)) == limit {
		if n, _ := r.Read(make([]byte, 1)); n > 0 {
			return nil, fmt.Errorf("%w: longer than %d bytes", errInflate, limit)
		}
	}
	return b, nil
}

// EntryEncodingVersion is the first byte of every value the Client writes
// to a Store. Values with another first byte are treated as a miss (and
// overwritten by the next fetch), so processes of different versions can
// share a Store.
const EntryEncodingVersion = 2

// errCorruptEntry is wrapped by every decoding failure.
var errCorruptEntry = errors.New("robotstxt: corrupt cache entry")

const flagStale = 1

// encodeEntry serialises the stored fields of e: a version byte, outcome
// and flag bytes, then varints and length-prefixed strings, the
// compressed body last.
func encodeEntry(e *entry) []byte {
	n := 3 + 7*binary.MaxVarintLen64 + len(e.etag) + len(e.lastMod) +
		len(e.finalURL) + len(e.errText) + len(e.zbody) + 5*binary.MaxVarintLen32
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
	b = binary.AppendUvarint(b, uint64(len(e.zbody)))
	return append(b, e.zbody...)
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
		e.zbody = body[:len(body):len(body)] // b is the caller's to keep
	}
	if d.err != nil {
		return nil, d.err
	}
	if len(d.b) != 0 {
		return nil, fmt.Errorf("%w: %d trailing bytes", errCorruptEntry, len(d.b))
	}
	if e.outcome != OutcomeRules && len(e.zbody) > 0 {
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
