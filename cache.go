package robotstxt

import (
	"sync"
	"unsafe"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// memCache is the Client's in-memory cache of robots.txt entries, one per
// authority, bounded by an entry count and a byte budget.
//
// It holds two LRUs of golang-lru: hot, the entries with their parsed
// rules at hand, and cold, the frozen ones, which keep only their
// compressed body and what the Client knows of the fetch (see
// [WithCacheBytes]). An entry is in one of them at most. Beyond the byte
// budget the least recently used hot entry is frozen (its rules
// dropped, the entry moved to cold), and only when a single hot entry is
// left is the least recently used cold entry evicted; beyond the count
// the least recently used cold entry goes first, then hot ones. A check
// of a frozen entry parses its body again and moves it back (see
// Client.rulesOf). So a crawler whose sites' rules do not all fit keeps
// every site it can, at the cost of a parse each time it comes back to a
// frozen one, and one whose active sites fit never parses again.
//
// What golang-lru lacks is here: the sizes and the budget. An entry's
// size is what it retains, its rules included; its rules change only
// under mu, so that what was added for it is what is taken off.
type memCache struct {
	mu      sync.Mutex
	hot     *simplelru.LRU[string, *entry]
	cold    *simplelru.LRU[string, *entry]
	bytes   int64 // retained by the entries of both
	frozen  int   // cold entries with rules
	evicted uint64
	max     int   // entry bound
	budget  int64 // byte bound
}

// newMemCache returns a cache of at most maxEntries entries retaining at
// most maxBytes.
func newMemCache(maxEntries int, maxBytes int64) *memCache {
	// Each LRU may hold every entry and one more, so that an Add never
	// evicts behind the counts' back; shrink keeps their sum within max.
	hot, _ := simplelru.NewLRU[string, *entry](maxEntries+1, nil)
	cold, _ := simplelru.NewLRU[string, *entry](maxEntries+1, nil)
	return &memCache{hot: hot, cold: cold, max: maxEntries, budget: maxBytes}
}

// get returns the entry for key, fresh or not, or nil, and counts it as
// used. key may live in the caller's buffer: the LRUs only compare it.
func (m *memCache) get(key []byte) *entry {
	k := unsafe.String(unsafe.SliceData(key), len(key))
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.hot.Get(k); ok {
		return e
	}
	e, ok := m.cold.Get(k)
	if ok && e.outcome != OutcomeRules {
		// Nothing to thaw: it is in use again.
		m.cold.Remove(k)
		m.hot.Add(e.key, e)
	}
	return e
}

// peek returns the entry for key, or nil, without counting it as used.
func (m *memCache) peek(key string) *entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.hot.Peek(key); ok {
		return e
	}
	e, _ := m.cold.Peek(key)
	return e
}

// put publishes e in place of any entry for its key and restores the
// bounds. It returns e.
func (m *memCache) put(e *entry) *entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.remove(e.key)
	m.bytes += e.cost()
	if e.frozen() {
		// A copy of a frozen entry, revalidated or standing in.
		m.cold.Add(e.key, e)
		m.frozen++
	} else {
		m.hot.Add(e.key, e)
	}
	m.shrink()
	return e
}

// thawed gives e, which was frozen, the rules cr and returns it; or,
// when e has been given one since, that one. A cached e moves back to the
// hot entries, as the most recently used.
func (m *memCache) thawed(e *entry, cr *agentRules) *agentRules {
	m.mu.Lock()
	defer m.mu.Unlock()
	if cur := e.rules.Load(); cur != nil {
		return cur
	}
	cached, _ := m.cold.Peek(e.key)
	if cached != e {
		e.rules.Store(cr) // no longer cached: nothing to count
		return cr
	}
	m.cold.Remove(e.key)
	m.frozen--
	m.bytes -= e.cost()
	e.rules.Store(cr)
	m.bytes += e.cost()
	m.hot.Add(e.key, e)
	m.shrink()
	return cr
}

// forget removes key's entry, if any; it is not an eviction.
func (m *memCache) forget(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.remove(key)
}

// remove takes key's entry out of either LRU. The caller holds mu.
func (m *memCache) remove(key string) {
	if e, ok := m.hot.Peek(key); ok {
		m.hot.Remove(key)
		m.bytes -= e.cost()
	} else if e, ok := m.cold.Peek(key); ok {
		m.cold.Remove(key)
		m.bytes -= e.cost()
		if e.outcome == OutcomeRules {
			m.frozen--
		}
	}
}

// shrink restores the bounds: beyond the count it evicts the least
// recently used entries, cold ones first; beyond the byte budget it
// freezes the least recently used hot entries, and evicts cold ones
// only when one hot entry is left (the most recent is in use and would
// be parsed again at once: alone over the budget, it stays). The caller
// holds mu.
//
// Entries do not freeze by age while the budget holds: that would save
// memory nobody asked for, at the cost of a parse for every authority a
// crawler comes back to after a pause.
func (m *memCache) shrink() {
	for m.hot.Len()+m.cold.Len() > m.max {
		m.evictOldest()
	}
	for m.bytes > m.budget {
		if m.hot.Len() > 1 {
			_, e, _ := m.hot.RemoveOldest()
			m.freeze(e)
		} else if m.cold.Len() > 0 {
			m.evictOldest()
		} else {
			return
		}
	}
}

// freeze drops the rules of e, just taken out of hot, and moves e to
// cold.
func (m *memCache) freeze(e *entry) {
	m.bytes -= e.cost()
	e.rules.Store(nil)
	m.bytes += e.cost()
	m.cold.Add(e.key, e)
	if e.outcome == OutcomeRules {
		m.frozen++
	}
}

// evictOldest drops the least recently used cold entry, or hot entry
// when there is no cold one. The caller holds mu.
func (m *memCache) evictOldest() {
	_, e, ok := m.cold.GetOldest()
	if !ok {
		_, e, _ = m.hot.GetOldest()
	}
	m.remove(e.key)
	m.evicted++
}

// usage returns the number of entries, the bytes they retain and how
// many of them are frozen.
func (m *memCache) usage() (entries int, bytes int64, frozen int, evicted uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hot.Len() + m.cold.Len(), m.bytes, m.frozen, m.evicted
}
