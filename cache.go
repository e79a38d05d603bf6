package robotstxt

import (
	"hash/maphash"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// memCache is the Client's in-memory cache: the parsed robots.txt of each
// authority it has seen, bounded by an entry count and a byte budget, with
// the least recently used entries evicted first.
//
// Under the byte budget it first compresses the bodies that entries keep
// as fetched (see entry.kept), then freezes entries rather than evict
// them: a frozen entry keeps its compressed body and what it knows of the
// fetch, and drops its Crawler and the memo of its parsed file, most of
// what it retained (see shrink); the Client builds them again when the
// entry is used (see Client.rules). So a crawler whose robots.txt would
// not fit in memory parsed keeps them all, at the cost of a parse for
// each it comes back to, and one whose active set fits never parses
// again.
//
// A hit takes no lock and writes no shared memory, but for its move to the
// front once a generation (below): authorities are found through an index of
// small copy-on-write shards, read with one atomic load, and freshness is
// judged against a clock that one goroutine advances every [clockTick] (no
// timer per entry). Recency is approximate: an entry is moved to the front of
// the recency list at most once per generation, a generation ending after
// every eighth of the capacity has been filled anew. Between those moves hits
// do not reorder entries, so an entry used only within the current generation
// may be evicted before one used in the last.
//
// Entries are found by a hash of the normalised authority, so the hot path
// need not build the key string; the entry's own key is compared, and a
// hash collision is a miss.
type memCache struct {
	seed   maphash.Seed
	shards []shard // the index: entries by hash, read without locks
	mask   uint64

	mu     sync.Mutex // guards the recency list, n, bytes, packed, cold and frozen, and serialises writers of the index
	recent entry      // the recency list's sentinel: recent.next is the most recently used entry, recent.prev the least
	n      int        // entries in the list
	bytes  int64      // retained size of the entries
	// packed is where compressing resumes: packed and every entry after
	// it in the list keep their bodies compressed, or none. cold is where
	// freezing resumes: cold and every entry after it hold no rules to
	// drop. Each is &recent when there is none.
	packed *entry
	cold   *entry
	frozen int // entries in the list that are frozen
	// tight is set when a shrink has to make room under the byte budget,
	// and cleared when one finds the cache below three quarters of it:
	// see roomy.
	tight   atomic.Bool
	puts    int           // puts in this generation
	gen     atomic.Uint32 // current generation
	max     int           // entry bound
	budget  int64         // byte bound
	evicted atomic.Uint64

	clock  func() time.Time // the Client's clock
	coarse *coarseClock     // nil with a clock given by WithClock
}

// shard is one part of the index: a block of slots, the first of which
// holds the count of the others in h. A block is never modified once
// published: a writer copies it. Shards hold a few entries each, so a
// lookup reads one block of one or two cache lines.
type shard struct {
	p atomic.Pointer[slot]
}

// slot is an entry of the index and the hash of its key.
type slot struct {
	h uint64
	e *entry
}

// slots returns the slots of the block that starts at p.
func slots(p *slot) []slot {
	if p == nil {
		return nil
	}
	return unsafe.Slice(p, p.h+1)[1:]
}

// newMemCache returns a cache of at most maxEntries entries retaining at
// most maxBytes. With real true, now is time.Now and freshness is read
// from a coarse clock; stop it with close.
func newMemCache(maxEntries int, maxBytes int64, now func() time.Time, real bool) *memCache {
	n := 1 << bits.Len(uint(max(maxEntries/4, 16)-1)) // about four entries a shard
	m := &memCache{
		seed:   maphash.MakeSeed(),
		shards: make([]shard, n),
		mask:   uint64(n - 1),
		max:    maxEntries,
		budget: maxBytes,
		clock:  now,
	}
	m.recent.prev, m.recent.next = &m.recent, &m.recent
	m.packed, m.cold = &m.recent, &m.recent
	if real {
		m.coarse = startCoarseClock()
	}
	return m
}

// close stops the coarse clock; the cache keeps working on the exact one.
func (m *memCache) close() {
	if m.coarse != nil {
		m.coarse.stop()
	}
}

// get returns the entry for key, fresh or not, or nil.
func (m *memCache) get(key []byte) *entry {
	h := maphash.Bytes(m.seed, key)
	e := m.lookup(h)
	if e == nil || e.key != string(key) {
		return nil
	}
	if g := m.gen.Load(); e.gen.Load() != g {
		m.promote(e, g)
	}
	return e
}

// peek is get without counting as a use.
func (m *memCache) peek(key string) *entry {
	e := m.lookup(maphash.String(m.seed, key))
	if e == nil || e.key != key {
		return nil
	}
	return e
}

func (m *memCache) lookup(h uint64) *entry {
	for _, s := range slots(m.shards[h&m.mask].p.Load()) {
		if s.h == h {
			return s.e
		}
	}
	return nil
}

// promote moves e to the front of the recency list, once per generation.
func (m *memCache) promote(e *entry, g uint32) {
	if old := e.gen.Load(); old == g || !e.gen.CompareAndSwap(old, g) {
		return // another hit is promoting it
	}
	m.mu.Lock()
	if e.next != nil { // still cached
		m.unlink(e)
		m.pushFront(e)
	}
	m.mu.Unlock()
}

// The recency list is linked through the entries themselves, which
// saves a cache of a million entries a list node and a map slot each
// (about 110 bytes an entry); the index finds entries by hash. The
// caller holds mu.

func (m *memCache) pushFront(e *entry) {
	e.prev, e.next = &m.recent, m.recent.next
	e.next.prev = e
	m.recent.next = e
	m.n++
}

func (m *memCache) unlink(e *entry) {
	if e.next == nil {
		return // not in the list
	}
	if e == m.packed {
		m.packed = e.next
	}
	if e == m.cold {
		m.cold = e.next
	}
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = nil, nil
	m.n--
}

// drop removes e, which is cached, from the list and the index.
func (m *memCache) drop(e *entry) {
	m.unlink(e)
	m.bytes -= e.size
	if e.frozen() {
		m.frozen--
	}
	m.setIndex(maphash.String(m.seed, e.key), nil)
}

// shrink restores the bounds. Beyond the entry bound it evicts the least
// recently used entries. Beyond the byte budget it first compresses the
// bodies entries keep as fetched, least recently used first, which costs
// no parse later; then it freezes entries, and evicts only when every
// entry but the most recent holds no rules to drop, while more than one
// is left (a single entry over the byte budget stays). The most recent
// entry is never frozen: it is in use, and would be parsed again at once.
//
// Entries do not freeze by age while the budget holds: that would save
// memory nobody asked for, at the cost of a parse for every authority a
// crawler comes back to after a pause (its visits to a site are spread
// over hours), and would need a sweep of the cache. Bodies are not
// compressed by age either, for the same reason: a crawler whose cache
// never fills never pays for compression.
func (m *memCache) shrink() {
	for m.n > m.max {
		m.evictOldest()
	}
	if m.bytes > m.budget {
		m.tight.Store(true)
	} else if m.bytes < m.budget/4*3 {
		m.tight.Store(false)
	}
	for m.bytes > m.budget {
		if e := m.loosest(); e != nil {
			m.pack(e)
		} else if m.n <= 1 {
			return
		} else if e := m.coldest(); e != nil {
			m.freeze(e)
		} else {
			m.evictOldest()
		}
	}
}

func (m *memCache) evictOldest() {
	m.drop(m.recent.prev)
	m.evicted.Add(1)
}

// coldest returns the least recently used entry, other than the most
// recent, that holds rules to drop, or nil, moving the cursor cold past
// the entries that hold none. Entries behind the cursor only gain rules
// by being used, which moves them to the front, so each entry is passed
// over once each time it moves there.
func (m *memCache) coldest() *entry {
	for e := m.cold.prev; e != &m.recent && e != m.recent.next; e = e.prev {
		if e.hasRules() {
			return e
		}
		m.cold = e
	}
	return nil
}

// roomy reports whether the cache has room under its byte budget, so
// that a body fetched now may be kept as it came: once the cache has had
// to make room, until it is back below three quarters of its budget, a
// body kept as it came would be compressed as soon as it is put (under
// the lock), and the fetch had better compress it before. The margin
// keeps a cache that hovers at its budget from taking bodies as they come
// every other fetch.
func (m *memCache) roomy() bool { return !m.tight.Load() }

// loosest returns the least recently used entry that keeps its body as
// fetched, or nil, moving the cursor packed past the entries that keep
// theirs compressed. An entry gets a body as fetched only when it is put,
// at the front, so each entry is passed over once.
func (m *memCache) loosest() *entry {
	for e := m.packed.prev; e != &m.recent; e = e.prev {
		if e.loose() {
			return e
		}
		m.packed = e
	}
	return nil
}

// pack compresses the body e keeps as fetched and leaves the cursor on e.
// It holds the lock while it compresses (about 10 µs for a body of the
// corpus's mix), which puts, thaws and a hit's once-a-generation move to
// the front wait for; shrink packs only as many bodies as it needs to get
// back within the budget, and most are compressed by packAhead instead,
// outside the lock.
func (m *memCache) pack(e *entry) {
	old := e.kept.Load()
	m.swapBody(e, old, compressed(*old))
	m.packed = e
}

// packAhead compresses, outside the lock, the body of the least recently
// used entry that keeps one as fetched, when the cache is out of room:
// each put then pays for the room it takes out of the bodies kept while
// there was room, and shrink seldom compresses under the lock. It moves
// the cursor past the entry it compresses, so that concurrent puts take
// others; a shrink that runs meanwhile does not count on the room that
// compression will make, and may freeze an entry more than it needed to.
func (m *memCache) packAhead() {
	if m.roomy() {
		return
	}
	m.mu.Lock()
	e := m.loosest()
	if e != nil {
		m.packed = e
	}
	m.mu.Unlock()
	if e == nil {
		return
	}
	old := e.kept.Load()
	z := compressed(*old)
	m.mu.Lock()
	if e.next != nil { // still cached
		m.swapBody(e, old, z)
	}
	m.mu.Unlock()
}

// swapBody gives e the body z in place of old, unless it has another
// already, and counts the difference. The caller holds mu.
func (m *memCache) swapBody(e *entry, old *[]byte, z []byte) {
	if !e.kept.CompareAndSwap(old, &z) {
		return
	}
	d := int64(cap(z)) - int64(cap(*old))
	e.size += d
	m.bytes += d
}

// freeze drops the Crawler of e and the memo of its parsed file, which
// the Client builds again from e's body when e is next used, and leaves
// the cursor on e.
func (m *memCache) freeze(e *entry) {
	if e.crawler.Load() != nil {
		m.frozen++
	}
	n := e.rulesSize()
	e.crawler.Store(nil)
	e.file.Store(nil)
	e.size -= n
	m.bytes -= n
	m.cold = e
}

// swapCrawler gives e the Crawler cr in place of old, which is nil when
// e was frozen (a thaw) and otherwise e's draft (its index), and returns
// cr; or, when e has since been given another Crawler, returns that one.
// A cached e counts cr against the budget in place of old and becomes the
// most recently used entry.
func (m *memCache) swapCrawler(e *entry, old, cr *Crawler) *Crawler {
	m.mu.Lock()
	defer m.mu.Unlock()
	cur := e.crawler.Load()
	if cur != nil && cur != old {
		return cur
	}
	e.crawler.Store(cr)
	if e.next != nil {
		n := tableCost(cr.t)
		if cur == nil {
			m.frozen-- // frozen before or since the caller looked
		} else {
			n -= tableCost(cur.t)
		}
		m.charge(e, n)
	}
	return cr
}

// keepFile keeps r, the whole parsed file of e, with e, unless e has one
// already, and returns the one e keeps. A cached e counts r against the
// budget and becomes the most recently used entry.
func (m *memCache) keepFile(e *entry, r *Robots) *Robots {
	m.mu.Lock()
	defer m.mu.Unlock()
	if cur := e.file.Load(); cur != nil {
		return cur
	}
	e.file.Store(r)
	if e.next != nil {
		m.charge(e, tableCost(r.t))
	}
	return r
}

// charge counts n more bytes retained by e, which is cached and in use,
// moves e to the front of the recency list (and so out of the frozen
// tail that coldest passes over) and restores the bounds. The caller
// holds mu.
func (m *memCache) charge(e *entry, n int64) {
	e.size += n
	m.bytes += n
	e.gen.Store(m.gen.Load())
	m.unlink(e)
	m.pushFront(e)
	m.shrink()
}

// expired reports whether e has passed its expiry, so that the server must
// be asked before e is used again. For an answer from a reachable server
// (rules, allow-all, disallow-all) it reads the coarse clock, and the exact
// one within exactMargin of the expiry, so such an entry is used past its
// expiry only while the clock goroutine is starved for longer than that. A
// deferral or a stale copy is judged on the exact clock, always: a crawler
// that comes back at a deferral's RetryAt must find the server asked again,
// and these entries are not on the hot path.
func (m *memCache) expired(e *entry) bool {
	if m.coarse != nil && e.outcome != OutcomeUnreachable && !e.stale {
		if now := m.coarse.now.Load(); now != 0 && now < e.expiresAt-exactMargin {
			return false
		}
	}
	return m.clock().UnixNano() >= e.expiresAt
}

// exactMargin is how close to its expiry an entry must be for expired to
// read the exact clock: two ticks of the coarse clock, which lags the
// exact one by at most a tick while its goroutine runs on time.
const exactMargin = int64(2 * clockTick)

// put publishes e in place of any entry for its key and evicts the least
// recently used entries beyond the bounds. It returns e.
func (m *memCache) put(e *entry) *entry {
	m.packAhead()
	h := maphash.String(m.seed, e.key)
	m.mu.Lock()
	defer m.mu.Unlock()
	e.gen.Store(m.gen.Load())
	if old := m.lookup(h); old != nil && old.next != nil {
		// The entry for key, or for a key of the same hash: the index
		// holds one entry a hash.
		m.unlink(old)
		m.bytes -= old.size
		if old.frozen() {
			m.frozen--
		}
	}
	m.pushFront(e)
	m.setIndex(h, e)
	m.bytes += e.size
	if e.frozen() {
		m.frozen++ // a copy of a frozen entry, revalidated or standing in
	}
	if m.puts++; m.puts >= max(m.max/8, 1) {
		m.puts = 0
		m.gen.Add(1)
	}
	m.shrink()
	return e
}

// forget removes key's entry, if any; it is not an eviction.
func (m *memCache) forget(key string) {
	h := maphash.String(m.seed, key)
	m.mu.Lock()
	defer m.mu.Unlock()
	if e := m.lookup(h); e != nil && e.key == key {
		m.drop(e)
	}
}

// setIndex publishes a copy of h's shard with h mapped to e, or removed
// when e is nil. The caller holds mu.
func (m *memCache) setIndex(h uint64, e *entry) {
	s := &m.shards[h&m.mask]
	cur := slots(s.p.Load())
	next := make([]slot, 1, len(cur)+2)
	for _, sl := range cur {
		if sl.h != h {
			next = append(next, sl)
		}
	}
	if e != nil {
		next = append(next, slot{h: h, e: e})
	}
	if len(next) == 1 {
		s.p.Store(nil)
		return
	}
	next[0].h = uint64(len(next) - 1)
	s.p.Store(&next[0])
}

// usage returns the number of entries, their retained size in bytes, and
// how many of them are frozen.
func (m *memCache) usage() (n int, bytes int64, frozen int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n, m.bytes, m.frozen
}

// evictions returns the number of entries evicted to keep the bounds.
func (m *memCache) evictions() uint64 { return m.evicted.Load() }

// clockTick is how often the coarse clock advances: expiry is noticed at
// most this late.
const clockTick = 20 * time.Millisecond

// coarseClock is the time in Unix nanoseconds, advanced every clockTick by
// one goroutine, so that a hit reads the time with one atomic load rather
// than a clock call that costs more than the rest of the check.
type coarseClock struct {
	now  atomic.Int64 // 0 once stopped
	done chan struct{}
	once sync.Once
}

func startCoarseClock() *coarseClock {
	c := &coarseClock{done: make(chan struct{})}
	c.now.Store(time.Now().UnixNano())
	go c.run()
	return c
}

func (c *coarseClock) run() {
	t := time.NewTicker(clockTick)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			c.now.Store(0)
			return
		case now := <-t.C:
			c.now.Store(now.UnixNano())
		}
	}
}

func (c *coarseClock) stop() { c.once.Do(func() { close(c.done) }) }
