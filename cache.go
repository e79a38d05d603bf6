package robotstxt

import (
	"math"
	"sync"
	"unsafe"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// memCache is the Client's in-memory cache of entries, bounded by an
// entry count and a byte budget (see [WithCacheBytes]): hot holds the
// entries with their rules, cold the frozen ones, which a check thaws
// (see Client.rulesOf). golang-lru lacks the sizes and the budget; an
// entry's rules change only under mu, so what was added for it is what
// is taken off.
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

func newMemCache(maxEntries int, maxBytes int64) *memCache {
	// Each LRU may hold every entry and one more, so that an Add never
	// evicts behind the counts' back; shrink keeps their sum within max.
	// (NewLRU fails only for a size below 1.)
	size := min(maxEntries, math.MaxInt-1) + 1
	hot, _ := simplelru.NewLRU[string, *entry](size, nil)
	cold, _ := simplelru.NewLRU[string, *entry](size, nil)
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

// put publishes e in place of any entry for its key, and returns it.
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

// thawed gives e, frozen, the rules cr and returns them, or the rules e
// has been given since; a cached e moves back to hot.
func (m *memCache) thawed(e *entry, cr *agentRules) *agentRules {
	m.mu.Lock()
	defer m.mu.Unlock()
	if cur := e.rules.Load(); cur != nil {
		return cur
	}
	if cached, _ := m.cold.Peek(e.key); cached != e {
		e.rules.Store(cr) // no longer cached: nothing to count
		return cr
	}
	m.remove(e.key)
	e.rules.Store(cr)
	m.bytes += e.cost()
	m.hot.Add(e.key, e)
	m.shrink()
	return cr
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
// recently used, cold first; beyond the budget it freezes hot entries,
// oldest first but never the last, then evicts cold ones. The caller holds
// mu. Nothing freezes by age: that would cost a parse for every revisit.
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

// freeze drops the rules of e, just taken out of hot, and moves e to cold.
func (m *memCache) freeze(e *entry) {
	m.bytes -= e.cost()
	e.rules.Store(nil)
	m.bytes += e.cost()
	m.cold.Add(e.key, e)
	if e.outcome == OutcomeRules {
		m.frozen++
	}
}

// evictOldest drops the least recently used entry, cold first. The caller holds mu.
func (m *memCache) evictOldest() {
	_, e, ok := m.cold.GetOldest()
	if !ok {
		_, e, _ = m.hot.GetOldest()
	}
	m.remove(e.key)
	m.evicted++
}

func (m *memCache) usage() (entries int, bytes int64, frozen int, evicted uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hot.Len() + m.cold.Len(), m.bytes, m.frozen, m.evicted
}
