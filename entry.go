package robotstxt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// entry is what the Client caches for one authority: the rules of its
// product tokens and the body, compressed. Once published only its marks
// and, under memCache's lock, its rules change; a new entry replaces it.
type entry struct {
	key   string                     // normalised authority
	rules atomic.Pointer[agentRules] // nil unless OutcomeRules, and while frozen
	persisted

	body  []byte // the text, compressed (see compress.go); nil unless OutcomeRules
	cause error  // the failure: capErr's copy, or one rebuilt from a Store (storedCause)
	base  int64  // bytes retained but for the rules (derived by derive)
	// marks holds, in one word to keep an entry within 192 bytes, the
	// refreshing mark (bit 0) and the epoch of its last noted use (see
	// memCache.note).
	marks atomic.Uint32
	// delay is the crawl-delay in milliseconds, rounded up, plus one, or 0 for none:
	// a Transport paces a frozen entry's authority without a thaw.
	delay int32
}

// refreshing reports whether a fill is fetching e again.
func (e *entry) refreshing() bool { return e.marks.Load()&1 != 0 }

// setRefreshing sets or clears the refreshing mark.
func (e *entry) setRefreshing(on bool) {
	if on {
		e.marks.Or(1)
	} else {
		e.marks.And(^uint32(1))
	}
}

// usedIn returns the epoch of e's last noted use, in 31 bits.
func (e *entry) usedIn() uint32 { return e.marks.Load() >> 1 }

// noteUse records that e's use was noted in epoch ep.
func (e *entry) noteUse(ep uint32) {
	for {
		m := e.marks.Load()
		if e.marks.CompareAndSwap(m, m&1|ep<<1) {
			return
		}
	}
}

// A stamp is an instant in Unix nanoseconds, 0 for none: 8 bytes where a
// time.Time takes 24.
type stamp int64

// stampOf returns t, which lies between the years 1678 and 2262, as a stamp.
func stampOf(t time.Time) stamp {
	if t.IsZero() {
		return 0
	}
	return stamp(t.UnixNano())
}

func (s stamp) time() time.Time {
	if s == 0 {
		return time.Time{}
	}
	return time.Unix(0, int64(s))
}

// add returns s+d, held at the stamp's end: math.MaxInt64 is for ever, not
// a time in the past (a stamp is never negative).
func (s stamp) add(d time.Duration) stamp {
	if d > 0 && s > math.MaxInt64-stamp(d) {
		return math.MaxInt64
	}
	return s + stamp(d)
}

func (s stamp) sub(u stamp) time.Duration { return time.Duration(s - u) }

// maxFailures bounds an entry's count of failures; the back-off reaches
// its cap long before.
const maxFailures = 1 << 20

// persisted holds the fields of the Store encoding but the key, body and
// the kind of a failure (its entry's cause's, see kindOf).
type persisted struct {
	outcome Outcome
	// stale marks a last good copy kept while the host is unreachable;
	// failStatus, failures, since and errText describe the failures, and
	// causes the classes of the last (see causesOf).
	stale bool
	// status is that of the response the rules rest on, failStatus the
	// last failure's: 100 to 999 (fetcher.send refuses others), or 0.
	status, failStatus int16
	causes             uint16 // beside the int16s, in what would be padding

	fetched stamp
	checked stamp // last fetch attempt
	expires stamp // when to revalidate or retry
	// lifetime is how long, in storedUnit and at most maxLifetime, the
	// headers of the response the rules rest on kept them fresh, less no
	// Age: a 304 renews them for as long, less its own (see Client.renew),
	// though a stand-in's expires has since become its back-off.
	lifetime int32

	failures int32 // at most maxFailures
	since    stamp // when the failures began
	errText  string

	etag    string // at most maxServerText bytes, like every string here
	lastMod string
	// redirects holds the redirects of the fetch, one per line in order:
	// the status that redirected ("*" after it when the hop was checked),
	// a space, and the URL it led to, the last the final one; "" when
	// there were none.
	redirects string
}

// setRules gives e the rules of text for the tokens and keeps z, text compressed.
func (e *entry) setRules(text, z []byte, mode Mode, tokens []string) {
	r := ParseMode(text, mode)
	cr := r.agentRules(tokens...)
	e.rules.Store(cr)
	e.body = z
	if d, ok := cr.crawlDelayOf(r, tokens); ok {
		e.delay = int32((d+time.Millisecond-1)/time.Millisecond) + 1 // rounded up: never faster
	}
}

// rebuild parses the body of e, frozen, for its rules again.
func (e *entry) rebuild(mode Mode, tokens []string) (*agentRules, error) {
	text, err := e.text()
	if err != nil {
		return nil, err
	}
	if text == nil {
		// Parsed, nothing would be an allow-all: never for rules.
		return nil, fmt.Errorf("robotstxt: the cached robots.txt of %s: %w: no body", e.key, errDecompress)
	}
	return ParseMode(text, mode).agentRules(tokens...), nil
}

func (e *entry) frozen() bool {
	return e.outcome == OutcomeRules && e.rules.Load() == nil
}

// cost returns the bytes e retains now, for the cache's byte budget.
func (e *entry) cost() int64 {
	if cr := e.rules.Load(); cr != nil {
		return e.base + cr.cost()
	}
	return e.base
}

// cost returns the bytes rules cr add to their entry.
func (cr *agentRules) cost() int64 {
	return int64(cr.t.Size()) + rulesOverhead + cr.signalSize()
}

// What an agentRules costs beyond its table's Size, and an entry beyond
// its strings, body and rules (fields, LRU node and map slot, rounding to
// size classes), measured over internal/bench's million with and without
// a byte budget, so that the byte budget is what the heap holds.
const (
	rulesOverhead = 140
	entryOverhead = 384
	// causeOverhead is what a failure's error chain retains beyond its
	// text (a *url.Error over a *net.OpError over an *os.SyscallError,
	// wrapped): 319 bytes an entry of 20,000 refused connections freed.
	// One rebuilt from a Store (storedCause) of the classes a fetch's
	// failure has holds less (TestEntryCountsStoredCause).
	causeOverhead = 320
)

// text returns the body decompressed; nil unless the outcome is OutcomeRules.
func (e *entry) text() ([]byte, error) {
	if e.body == nil {
		return nil, nil
	}
	// No Client keeps a longer text (see body.Read's conversion), so a
	// body whose stated size is larger was damaged in memory.
	b, err := decompress(e.body, 3*maxBodyLimit)
	if err != nil {
		return nil, fmt.Errorf("robotstxt: the cached robots.txt of %s: %w", e.key, err)
	}
	return b, nil
}

// fetchedFrom returns the URL of the body e holds for k: where the
// redirects of its fetch led, else k's own.
func (e *entry) fetchedFrom(k key) string {
	if e.redirects != "" {
		return e.finalURL()
	}
	return k.url()
}

// finalURL returns the URL of e's last redirect, which must have one.
func (e *entry) finalURL() string {
	return redirectOf(e.redirects[strings.LastIndexByte(e.redirects, '\n')+1:]).URL
}

// good reports whether e holds a usable answer from a reachable server:
// not a deferral, not the allow-all a WithErrorPolicy gave a failure
// with no response (status 0), and not the allow-all that stands in for
// a server unreachable for too long (see WithUnreachableAllowAfter).
func (e *entry) good() bool {
	return e.outcome != OutcomeUnreachable && (e.failures == 0 || e.stale) && (e.status != 0 || e.outcome != OutcomeAllowAll)
}

// answers reports whether e is a server's answer: good, and neither a
// failure nor a copy standing in for one.
func (e *entry) answers() bool { return e.good() && !e.stale }

// validators returns the validators a fetch sends for e's body: none
// when e is nil or not good.
func (e *entry) validators() (etag, lastMod string) {
	if e == nil || !e.good() {
		return "", ""
	}
	return e.etag, e.lastMod
}

// expired reports whether e must not answer at now: its expiry has come,
// or it is dated beyond maxClockSkew in the future (the clock stepped
// back), whose expiry would stretch the freshness cap.
func (e *entry) expired(now time.Time) bool {
	n := stamp(now.UnixNano())
	return n >= e.expires || n < e.checked-stamp(maxClockSkew)
}

// derive computes the fields derived from the stored ones.
func (e *entry) derive() *entry {
	var chain int64 // what the failure's error chain retains
	if e.cause != nil {
		chain = causeOverhead + causeBytes(e.cause)
	}
	e.base = entryOverhead + chain + int64(len(e.key)+len(e.etag)+len(e.lastMod)+len(e.redirects)+len(e.errText)+cap(e.body))
	return e
}

// deferral returns a new error for e, unreachable until retryAt.
func (e *entry) deferral(retryAt time.Time) *DeferredError {
	return &DeferredError{Authority: e.key, Status: int(e.status), RetryAt: retryAt, Failures: int(e.failures), Err: e.cause}
}

func (e *entry) crawlDelay() (time.Duration, bool) {
	if e.delay == 0 {
		return 0, false
	}
	return time.Duration(e.delay-1) * time.Millisecond, true
}

// standingFor returns a copy of e, a good copy, marked stale to stand in
// for failed: with its failure, count, start and expiry.
func (e *entry) standingFor(failed *entry) *entry {
	s := e.clone()
	s.stale, s.cause = true, failed.cause
	s.failStatus, s.failures, s.since, s.errText = failed.failStatus, failed.failures, failed.since, failed.errText
	s.causes = failed.causes
	s.checked, s.expires = failed.checked, failed.expires
	return s.derive()
}

// failure returns the failure e, a copy standing in, stands for, as the
// fetch that failed made it (unreachable), without the copy's body,
// rules, validators and redirects.
func (e *entry) failure() *entry {
	f := &entry{key: e.key, persisted: e.persisted, cause: e.cause}
	f.stale, f.outcome, f.status, f.lifetime = false, OutcomeUnreachable, e.failStatus, 0
	f.fetched, f.etag, f.lastMod, f.redirects = e.checked, "", "", "" // the failure's redirects went unkept
	return f.derive()
}

// clone copies the persisted fields of e, its body, its rules, its
// crawl-delay and its failure's error (not the refreshing flag).
func (e *entry) clone() *entry {
	c := &entry{key: e.key, persisted: e.persisted, body: e.body, cause: e.cause, delay: e.delay}
	c.rules.Store(e.rules.Load())
	return c
}

// entryVersion begins every value the Client writes to a Store; values of
// another version are a miss, so processes of different versions share one.
// A change of which values a Client writes, or of what one means to a
// reader, needs a new version as a change of the bytes' layout does (the
// golden encoding in testdata/store catches the layout alone): 12 came
// when a cut robots.txt stopped keeping validators, which a reader of an
// older value renewed as the whole file; 13 when it kept a TLS failure's
// kind (see kindOf), which a reader's error policy may tell apart; 14
// when it kept a resolver's failure and a dial's as kinds too.
const entryVersion = 14

// castagnoli is the table of the CRC-32C that ends every encoding: a
// Store that damages a value (a flipped bit turned Disallow: /private
// into rules that allow it) gives a miss. Most CPUs compute it in
// hardware.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errCorruptEntry is wrapped by every decoding failure but errOtherCrawler.
var errCorruptEntry = errors.New("robotstxt: corrupt cache entry")

// errOtherCrawler is the error of decodeEntry for a value another crawler
// wrote (see Store).
var errOtherCrawler = errors.New("robotstxt: cache entry of another User-Agent or product tokens")

// The flags of the Store encoding.
const flagStale = 1

// encodeEntry encodes k's entry e, fetched by crawler (see crawlerOf), for
// a Store: after the version, key, crawler, outcome and flags come bounded
// varints, times in Unix milliseconds, length-prefixed strings and last
// the body after its dictionary's id (0 for no body), and the CRC-32C of
// all that. decodeEntry reads the fields in the same order.
func encodeEntry(k key, e *entry, crawler uint64) []byte {
	p := &e.persisted
	n := 15 + binary.MaxVarintLen32 + len(k.store()) + 13*binary.MaxVarintLen64 +
		len(p.etag) + len(p.lastMod) + len(p.redirects) + len(p.errText) + len(e.body)
	b := append(make([]byte, 0, n), entryVersion)
	b = binary.LittleEndian.AppendUint64(appendString(b, k.store()), crawler)
	var flags byte
	if p.stale {
		flags |= flagStale
	}
	b = binary.AppendUvarint(append(b, byte(p.outcome), flags), uint64(p.causes))
	b = binary.AppendUvarint(b, uint64(kindOf(e.cause)))
	for _, v := range [...]int32{int32(p.status), int32(p.failStatus), p.failures, p.lifetime} {
		b = binary.AppendUvarint(b, uint64(v))
	}
	for _, s := range [...]stamp{p.fetched, p.checked, p.expires, p.since} {
		b = binary.AppendVarint(b, int64(s)/int64(storedUnit))
	}
	for _, s := range [...]string{p.etag, p.lastMod, p.redirects, p.errText} {
		b = appendString(b, s)
	}
	var dict uint64
	if len(e.body) > 0 {
		dict = bodyDictID
	}
	b = appendString(binary.AppendUvarint(b, dict), string(e.body))
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// decodeEntry parses a value made by encodeEntry for k and crawler. It
// never panics; a value it does not fully understand is an error, and so
// is one encoded for another key, which is not this authority's
// robots.txt, or by another crawler, which the server may have answered
// otherwise.
func decodeEntry(k key, b []byte, crawler uint64) (*entry, error) {
	key := k.store()
	if len(b) < 5 || b[0] != entryVersion {
		return nil, fmt.Errorf("%w: not version %d", errCorruptEntry, entryVersion)
	}
	b, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(b, castagnoli) != sum {
		return nil, fmt.Errorf("%w: checksum", errCorruptEntry)
	}
	d := decoder{b: b[1:]}
	if k := d.bytes(len(key) + 1); d.err == nil && string(k) != key {
		return nil, fmt.Errorf("%w: written for another authority", errCorruptEntry)
	}
	if d.err != nil || len(d.b) < 10 {
		return nil, fmt.Errorf("%w: truncated", errCorruptEntry)
	}
	if binary.LittleEndian.Uint64(d.b) != crawler {
		return nil, errOtherCrawler
	}
	d.b = d.b[8:]
	e := &entry{key: k.authority}
	p := &e.persisted
	p.outcome, p.stale = Outcome(d.b[0]), d.b[1]&flagStale != 0
	if p.outcome == 0 || p.outcome > OutcomeUnreachable || d.b[1]&^flagStale != 0 {
		return nil, fmt.Errorf("%w: outcome %d flags %d", errCorruptEntry, d.b[0], d.b[1])
	}
	d.b = d.b[2:]
	p.causes = uint16(d.uvarint(causeAll))
	kind := uint16(d.uvarint(maxKind))
	p.status = int16(d.uvarint(999))
	p.failStatus = int16(d.uvarint(999))
	p.failures = int32(d.uvarint(maxFailures))
	p.lifetime = int32(d.uvarint(math.MaxInt32))
	for _, s := range [...]*stamp{&p.fetched, &p.checked, &p.expires, &p.since} {
		*s = d.stamp()
	}
	p.etag, p.lastMod = d.text(), d.text()
	p.redirects = string(d.bytes(maxRedirectsText))
	p.errText = d.text()
	dict := d.uvarint(math.MaxUint64)
	body := d.bytes(math.MaxInt)
	switch {
	case d.err != nil:
		return nil, d.err
	case len(body) > 0 && dict != bodyDictID, len(body) == 0 && dict != 0:
		return nil, fmt.Errorf("%w: body of dictionary %#x", errCorruptEntry, dict)
	case len(d.b) != 0:
		return nil, fmt.Errorf("%w: %d trailing bytes", errCorruptEntry, len(d.b))
	case !validRedirects(p.redirects):
		return nil, fmt.Errorf("%w: redirects %q", errCorruptEntry, capText(p.redirects))
	case len(body) > 0 && p.outcome != OutcomeRules:
		return nil, fmt.Errorf("%w: body without rules", errCorruptEntry)
	case !knownKind(kind):
		return nil, fmt.Errorf("%w: failure of kind %#x", errCorruptEntry, kind)
	case len(body) > 0:
		e.body = bytes.Clone(body) // not the rest of the Store's value
	}
	if p.errText != "" {
		// What the process that fetched tells apart of its failure.
		e.cause = storedCause(p.errText, p.causes, kind)
	}
	return e, nil
}

// validRedirects reports whether s lists redirects as a Client writes
// them (see persisted.redirects): at most maxKeptRedirects lines, each a
// redirect status, perhaps marked checked, a space and a URL.
func validRedirects(s string) bool {
	if s == "" {
		return true
	}
	n := 0
	for line := range strings.SplitSeq(s, "\n") {
		status, url, _ := strings.Cut(line, " ")
		status = strings.TrimSuffix(status, "*")
		if code, err := strconv.Atoi(status); err != nil || len(status) != 3 || !followed(code) {
			return false
		}
		if n++; url == "" || n > maxKeptRedirects {
			return false
		}
	}
	return true
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

type decoder struct {
	b   []byte
	err error
}

// uvarint reads a varint of at most limit.
func (d *decoder) uvarint(limit uint64) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	switch {
	case n <= 0:
		d.err = fmt.Errorf("%w: bad varint", errCorruptEntry)
	case v > limit:
		d.err = fmt.Errorf("%w: value %d out of range", errCorruptEntry, v)
	default:
		d.b = d.b[n:]
		return v
	}
	return 0
}

// stamp reads a time in Unix milliseconds that a stamp holds, from 1970
// (no entry is older) to 2262.
func (d *decoder) stamp() stamp {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 || v < 0 || v > math.MaxInt64/int64(storedUnit) {
		d.err = fmt.Errorf("%w: bad time", errCorruptEntry)
		return 0
	}
	d.b = d.b[n:]
	return stamp(v * int64(storedUnit))
}

// storedUnit is the unit of the Store encoding's times, each rounded down
// to it: a span between two of them may be off by one unit.
const storedUnit = time.Millisecond

// bytes reads a length-prefixed byte string of at most limit bytes.
func (d *decoder) bytes(limit int) []byte {
	n := d.uvarint(math.MaxUint64)
	switch {
	case d.err != nil:
		return nil
	case n > uint64(len(d.b)):
		d.err = fmt.Errorf("%w: length %d beyond end", errCorruptEntry, n)
		return nil
	case n > uint64(limit):
		d.err = fmt.Errorf("%w: string of %d bytes", errCorruptEntry, n)
		return nil
	}
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

// text reads a string of at most maxServerText bytes, as Clients write.
func (d *decoder) text() string { return string(d.bytes(maxServerText)) }
