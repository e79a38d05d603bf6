package robotstxt

import (
	"hash/maphash"
	"math"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// memCache is the Client's in-memory cache of entries, bounded by an
// entry count and a byte budget (see [WithCacheBytes]): hot holds the
// entries with their rules, cold the frozen ones, which a check thaws
// (see Client.rulesOf). An entry's rules change only under mu, so what
// was added for it is what is taken off.
//
// A hit does not move its entry in the LRU, which would take mu
// exclusively and make checks on many cores queue for it: it notes the
// use in uses, once an epoch, and the LRU learns of the uses, in order,
// before the cache next changes (see drain).
type memCache struct {
	mu    sync.RWMutex
	hot   *simplelru.LRU[string, *entry]
	cold  *simplelru.LRU[string, *entry]
	bytes int64 // retained by the entries of both
	// coldBytes are those retained by cold's entries: past half the
	// budget, shrink evicts them rather than freezing hot entries, whose
	// rules (several times a body) the sites in use need: freezing first
	// until one was left hot, a crawl over more sites than the budget held
	// frozen thawed, a parse and the exclusive lock, at every check (40
	// µs, against 1 µs).
	coldBytes int64
	frozen    int // cold entries with rules
	evicted   uint64
	max       int   // entry bound
	budget    int64 // byte bound
	// freezes says its entries keep rules, which the budget drops before
	// it evicts; a cache of bodies alone (tdmrep.json) only evicts.
	freezes bool
	// published, if set, is told of each entry put, with mu held.
	published func(*entry)
	// watches holds, by key, those waiting for an entry (see watch).
	watches map[string]*watch

	epoch atomic.Uint32 // advanced by each drain
	nuses atomic.Int32  // uses noted since the last drain, some perhaps dropped
	uses  [maxUses]atomic.Pointer[entry]

	// front holds hot entries found lately, by their key's hash, so that
	// a hit takes no lock: the read lock's reader count, which every hit
	// wrote, made 8 goroutines on 2 CPUs cost 1.18-1.35x one goroutine
	// (BenchmarkClientWarmParallel). An entry leaves it when it leaves hot.
	seed  maphash.Seed
	front [frontSlots]atomic.Pointer[entry]
}

// frontSlots is the size of memCache.front: the authorities a crawler
// checks at once, many times each, fit; others take the lock, as before.
const frontSlots = 1024

// epochMask keeps an epoch to the 31 bits an entry has for it; an epoch
// that comes round again after 2^31 drains only loses a note.
const epochMask = 1<<31 - 1

// maxUses is how many uses the cache notes between two drains: each entry
// once, so that a crawl over up to this many authorities with no new one
// drains nothing. Beyond it a hit drains, if it can take mu.
const maxUses = 1024

func newMemCache(maxEntries int, maxBytes int64, freezes bool) *memCache {
	// Each LRU may hold every entry and one more, so that an Add never
	// evicts behind the counts' back; shrink keeps their sum within max.
	// (NewLRU fails only for a size below 1.)
	size := min(maxEntries, math.MaxInt-1) + 1
	hot, _ := simplelru.NewLRU[string, *entry](size, nil)
	cold, _ := simplelru.NewLRU[string, *entry](size, nil)
	return &memCache{hot: hot, cold: cold, max: maxEntries, budget: maxBytes, freezes: freezes, seed: maphash.MakeSeed()}
}

// get returns the entry for key, fresh or not, or nil, and notes its use.
// key may live in the caller's buffer: the LRUs only compare it.
func (m *memCache) get(key []byte) *entry {
	k := unsafe.String(unsafe.SliceData(key), len(key))
	slot := m.slot(k)
	if e := slot.Load(); e != nil && e.key == k {
		m.used(e)
		return e
	}
	m.mu.RLock()
	e, hot := m.hot.Peek(k)
	if hot {
		slot.Store(e) // under the lock, which remove and freeze take to clear it
	} else {
		e, _ = m.cold.Peek(k)
	}
	m.mu.RUnlock()
	switch {
	case e == nil:
	case !hot && e.outcome != OutcomeRules:
		// Cold, with nothing to thaw: it is in use again. Only entries
		// frozen for room come here, and only once each.
		m.mu.Lock()
		m.drain()
		if c, ok := m.cold.Peek(e.key); ok && c == e {
			m.cold.Remove(e.key)
			m.coldBytes -= e.cost()
			m.hot.Add(e.key, e)
		}
		m.mu.Unlock()
	default:
		m.used(e)
	}
	return e
}

// slot returns the slot of front that key hashes to.
func (m *memCache) slot(key string) *atomic.Pointer[entry] {
	return &m.front[maphash.String(m.seed, key)%frontSlots]
}

// used notes the use of e, once an epoch.
func (m *memCache) used(e *entry) {
	if ep := m.epoch.Load() & epochMask; e.usedIn() != ep {
		m.note(e, ep)
	}
}

// note notes the use of e in epoch ep (see drain).
func (m *memCache) note(e *entry, ep uint32) {
	i := m.nuses.Add(1) - 1
	switch {
	case i < maxUses:
		m.uses[i].Store(e)
		e.noteUse(ep)
	case i == maxUses:
		// The one hit that finds the notes full drains them, waiting
		// for the lock if it must, and notes its use in the next epoch.
		m.mu.Lock()
		m.drain()
		m.mu.Unlock()
		m.note(e, m.epoch.Load()&epochMask)
	}
}

// drain moves the entries whose uses were noted to the front of their
// LRU, in the order of their first use this epoch, and begins the next; a
// use noted meanwhile may be lost, or count in the next. The caller holds mu.
func (m *memCache) drain() {
	m.epoch.Add(1)
	n := min(int(m.nuses.Swap(0)), maxUses)
	for i := range n {
		e := m.uses[i].Swap(nil)
		if e == nil {
			continue
		}
		if c, ok := m.hot.Peek(e.key); ok && c == e {
			m.hot.Get(e.key)
		} else if c, ok := m.cold.Peek(e.key); ok && c == e {
			m.cold.Get(e.key)
		}
	}
}

// peek returns the entry for key, or nil, without marking it used.
func (m *memCache) peek(key string) *entry {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if e, ok := m.hot.Peek(key); ok {
		return e
	}
	e, _ := m.cold.Peek(key)
	return e
}

// put publishes e in place of any entry for its key, and returns it.
func (m *memCache) put(e *entry) *entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.publish(e)
	return e
}

// putOver publishes e in place of seen, the entry for its key its caller
// found (nil for none), unless the cache holds another, one a fill
// published since, and returns the one it holds. One expired at now and
// checked before e, such as the copy a Store lookup keeps for the checks
// that cannot wait for its fill (see sharedTier.lookup), gives way.
func (m *memCache) putOver(e, seen *entry, now time.Time) *entry {
	return m.putUnless(e, seen, func(c *entry) bool { return c.checked >= e.checked || !c.expired(now) })
}

// putNewer publishes e, read from a Store, in place of seen, unless the
// cache holds another entry for its key, published since, that answers
// better: a fresh answer (no failure, nor a copy standing in for one)
// over the Store's failure or stand-in, whatever their stamps (another
// process's clock; a stand-in's rules older than its stamp); else an
// entry checked at or after e, but for a failure over the Store's
// answer, which stands as a good copy stands in for a failure.
func (m *memCache) putNewer(e, seen *entry, now time.Time) *entry {
	return m.putUnless(e, seen, func(c *entry) bool {
		return c.answers() && !c.expired(now) && !e.answers() ||
			c.checked >= e.checked && (c.answers() || !e.answers())
	})
}

// putUnless publishes e in place of seen, unless the cache holds
// another entry for its key that keep says to keep, and returns the one
// it holds.
func (m *memCache) putUnless(e, seen *entry, keep func(c *entry) bool) *entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.hot.Peek(e.key)
	if !ok {
		c, ok = m.cold.Peek(e.key)
	}
	if ok && c != seen && keep(c) {
		return c
	}
	m.publish(e)
	return e
}

// publish is put; the caller holds mu.
func (m *memCache) publish(e *entry) {
	m.drain()
	m.remove(e.key)
	if cr := e.rules.Load(); cr != nil && e.base+cr.cost() > m.budget {
		e.rules.Store(nil) // see thawed
	}
	m.bytes += e.cost()
	if m.freezes && e.frozen() {
		// A copy of a frozen entry, revalidated or standing in.
		m.cold.Add(e.key, e)
		m.coldBytes += e.cost()
		m.frozen++
	} else {
		m.hot.Add(e.key, e)
	}
	m.shrink(e)
	if m.published != nil {
		m.published(e)
	}
	if w := m.watches[e.key]; w != nil {
		close(w.published)
		delete(m.watches, e.key)
	}
}

// A watch is those waiting for an entry of one key: published is closed
// when one is.
type watch struct {
	published chan struct{}
	waiters   int
}

// watch returns a channel closed when an entry for key is next published,
// and the function that stops watching it: a load waiting for a fetch
// slot watches its authority (see Client.awaitSlot).
func (m *memCache) watch(key string) (<-chan struct{}, func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	w := m.watches[key]
	if w == nil {
		w = &watch{published: make(chan struct{})}
		if m.watches == nil {
			m.watches = make(map[string]*watch)
		}
		m.watches[key] = w
	}
	w.waiters++
	return w.published, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		if w.waiters--; w.waiters == 0 && m.watches[key] == w {
			delete(m.watches, key)
		}
	}
}

// thawed gives e, frozen, the rules cr and returns them, or the rules e
// has been given since; a cached e moves back to hot. Rules that would
// take e alone over the budget serve the caller's check and are not kept:
// kept, they would push every other entry out at each thaw, and a site
// with more rules than the budget holds is parsed again for each check.
func (m *memCache) thawed(e *entry, cr *agentRules) *agentRules {
	m.mu.Lock()
	defer m.mu.Unlock()
	if cur := e.rules.Load(); cur != nil {
		return cur
	}
	if e.base+cr.cost() > m.budget {
		return cr
	}
	if cached, _ := m.cold.Peek(e.key); cached != e {
		e.rules.Store(cr) // no longer cached: nothing to count
		return cr
	}
	m.drain()
	m.remove(e.key)
	e.rules.Store(cr)
	m.bytes += e.cost()
	m.hot.Add(e.key, e)
	m.shrink(e)
	return cr
}

// remove takes key's entry out of either LRU. The caller holds mu.
func (m *memCache) remove(key string) {
	if e, ok := m.hot.Peek(key); ok {
		m.hot.Remove(key)
		m.slot(key).CompareAndSwap(e, nil)
		m.bytes -= e.cost()
	} else if e, ok := m.cold.Peek(key); ok {
		m.cold.Remove(key)
		m.bytes -= e.cost()
		m.coldBytes -= e.cost()
		if e.outcome == OutcomeRules {
			m.frozen--
		}
	}
}

// shrink restores the bounds: beyond the count it evicts the least
// recently used, cold first; beyond the budget it freezes hot entries,
// oldest first but never the last, while cold holds less than half the
// budget, then evicts cold ones. It never evicts keep, the entry just
// published, which a put may have frozen into cold. The caller holds mu.
// Nothing freezes by age: that would cost a parse for every revisit.
func (m *memCache) shrink(keep *entry) {
	for m.hot.Len()+m.cold.Len() > m.max {
		m.evictOldest(keep)
	}
	for m.bytes > m.budget {
		onlyKeep := m.cold.Len() == 1 && keep != nil && m.cold.Contains(keep.key)
		switch {
		case m.freezes && m.hot.Len() > 1 && (m.coldBytes < m.budget/2 || m.cold.Len() == 0 || onlyKeep):
			_, e, _ := m.hot.RemoveOldest()
			m.freeze(e)
		case m.hot.Len()+m.cold.Len() > 1:
			m.evictOldest(keep)
		default:
			return
		}
	}
}

// freeze drops the rules of e, just taken out of hot, and moves e to cold.
func (m *memCache) freeze(e *entry) {
	m.slot(e.key).CompareAndSwap(e, nil)
	m.bytes -= e.cost()
	e.rules.Store(nil)
	m.bytes += e.cost()
	m.coldBytes += e.cost()
	m.cold.Add(e.key, e)
	if e.outcome == OutcomeRules {
		m.frozen++
	}
}

// evictOldest drops the least recently used entry other than keep, cold
// first. The caller holds mu.
func (m *memCache) evictOldest(keep *entry) {
	_, e, ok := m.cold.GetOldest()
	if ok && e == keep {
		m.cold.Get(keep.key) // the most recently used, as published
		_, e, _ = m.cold.GetOldest()
	}
	if !ok || e == keep {
		_, e, _ = m.hot.GetOldest()
	}
	m.remove(e.key)
	m.evicted++
}

// counts returns the entries, the bytes they retain, how many are frozen
// and how many were evicted, for Stats.
func (m *memCache) counts() (entries int, bytes int64, frozen int, evicted uint64) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.hot.Len() + m.cold.Len(), m.bytes, m.frozen, m.evicted
}
