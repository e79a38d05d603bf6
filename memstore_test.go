package robotstxt

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"time"
)

// memStore is an in-process Store and Leaser, standing in for Redis in the
// Client's tests. It keeps the Store contract (storetest runs it, in
// store_contract_test.go): values and leases expire after their TTL, by
// the wall clock whatever clock the Client under test uses, and only the
// holder's release frees a lease. fail and block inject faults.
type memStore struct {
	mu     sync.Mutex
	vals   map[string]memValue
	leases map[string]memLease
	tokens uint64        // the last lease token handed out
	fail   error         // returned by every call when set
	block  chan struct{} // every call waits on it (and its context) when set
	ended  error         // the context error of the last call block held to its end
	began  int           // calls begun
	ttl    time.Duration // of the last lease asked for
}

type memValue struct {
	b       []byte
	expires time.Time
}

type memLease struct {
	token   uint64
	expires time.Time
}

func newMemStore() *memStore {
	return &memStore{vals: map[string]memValue{}, leases: map[string]memLease{}}
}

// hang makes every call wait until release, or until its context ends.
func (m *memStore) hang() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.block = make(chan struct{})
}

// release ends hang, and returns the context error of the last call it
// held to its context's end.
func (m *memStore) release() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	close(m.block)
	m.block = nil
	return m.ended
}

// calls returns how many calls have begun.
func (m *memStore) calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.began
}

// wait applies the injected faults: it blocks while block is set (until
// ctx is done) and then returns fail.
func (m *memStore) wait(ctx context.Context) error {
	m.mu.Lock()
	block, fail := m.block, m.fail
	m.began++
	m.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			m.mu.Lock()
			m.ended = ctx.Err()
			m.mu.Unlock()
			return ctx.Err()
		}
	}
	return fail
}

func (m *memStore) Get(ctx context.Context, key string) ([]byte, error) {
	if err := m.wait(ctx); err != nil {
		return nil, err
	}
	if v := m.get(key); v != nil {
		return bytes.Clone(v), nil
	}
	return nil, ErrCacheMiss
}

func (m *memStore) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	if err := m.wait(ctx); err != nil {
		return err
	}
	if ttl <= 0 {
		return errors.New("memStore: ttl must be positive")
	}
	m.put(key, v, ttl)
	return nil
}

func (m *memStore) Lease(ctx context.Context, key string, ttl time.Duration) (func(), bool, error) {
	if err := m.wait(ctx); err != nil {
		return nil, false, err
	}
	if ttl <= 0 {
		return nil, false, errors.New("memStore: lease ttl must be positive")
	}
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ttl = ttl
	if l, held := m.leases[key]; held && now.Before(l.expires) {
		return nil, false, nil
	}
	m.tokens++
	token := m.tokens
	m.leases[key] = memLease{token: token, expires: now.Add(ttl)}
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.leases[key].token == token {
			delete(m.leases, key)
		}
	}, true, nil
}

// get returns the live value under key, not a copy, or nil. A value
// stored empty is returned as an empty, non-nil slice.
func (m *memStore) get(key string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.vals[key]
	if !ok || !time.Now().Before(v.expires) {
		return nil
	}
	return v.b
}

// put stores a copy of v under key for ttl, bypassing the injected
// faults.
func (m *memStore) put(key string, v []byte, ttl time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.vals[key] = memValue{b: append([]byte{}, v...), expires: time.Now().Add(ttl)}
}

// clearValues drops every value, as a restarted Redis would.
func (m *memStore) clearValues() {
	m.mu.Lock()
	defer m.mu.Unlock()
	clear(m.vals)
}
