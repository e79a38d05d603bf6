package robotstxt

import (
	"context"
	"hash/maphash"
	"sync"
	"time"

	"github.com/robotsgate/robotstxt/internal/pacing"
)

// A Pacer spaces the requests a [Transport] sends to each authority, as
// the server sees them: from the arrival of a request's response to the
// sending of the next request to the same authority. While a request with
// a non-zero interval is in flight no other to its authority starts, so
// two never reach a server closer than the interval, however long the
// network takes.
//
// A Pacer keeps the state and answers at once; the Transport waits: it
// calls Take until it gets the turn, sleeping as long as Take says, sends
// the request, and calls Done. Waiters are served in no particular order.
// The Client's in-process Pacer is the default; *redisstore.Store is one
// shared by every process that uses the same Redis.
type Pacer interface {
	// Take takes the turn to send a request to authority when one may be
	// sent now: no other request to authority is in flight (when
	// interval > 0), interval has passed since the previous one ended,
	// and no hold set by Done is in force. It then returns wait == 0 and
	// the turn's id. A turn with interval > 0 is exclusive, its id not 0,
	// until Done ends it or a timeout (30 seconds, or interval if longer)
	// has passed, so that a request that never returns does not hold its
	// authority for ever; a turn with interval 0 is not, and its id is 0.
	//
	// Otherwise Take returns wait > 0, how long to wait before asking
	// again, never past the earliest moment the turn may come (at most
	// interval while another request is in flight). Take never books a
	// slot ahead and never blocks. A negative interval counts as 0. An
	// error means Take could not tell: the request is not sent, so a Pacer
	// that cannot reach its state fails closed.
	Take(ctx context.Context, authority string, interval time.Duration) (id uint64, wait time.Duration, err error)
	// Done ends the turn id that Take gave at authority for interval: the
	// next request may be sent interval after now, and not before hold
	// (from a Retry-After) has passed. It ends only that turn, not another
	// begun since its lease ran out. The Transport calls it once per turn,
	// also for a failed request, with the request's context: Done must end
	// the turn even if that has ended. Its error is not returned.
	Done(ctx context.Context, authority string, id uint64, interval, hold time.Duration) error
}

// A turn is what a Transport took from its Pacer, to give back with Done.
type turn struct {
	authority string
	interval  time.Duration
	id        uint64
}

const (
	memShards = 64 // enough that concurrent requests seldom share a lock
	minSweep  = 64 // authorities a shard holds before it looks for state to drop
)

// A memPacer is the in-process [Pacer]. It keeps state only for the
// authorities that hold requests back, dropping the rest lazily, starts
// no goroutines or timers, and locks one shard at a time.
type memPacer struct {
	seed    maphash.Seed
	epoch   time.Time     // origin of the monotonic nanoseconds below
	timeout time.Duration // pacing.TurnTimeout, shorter in tests
	shards  [memShards]memShard
}

type memShard struct {
	mu      sync.Mutex
	m       map[string]paceState
	sweepAt int // sweep when the map reaches this size
	lastID  uint64
	_       [32]byte // one 64-byte cache line per shard
}

// paceState is what a memPacer knows of one authority, in nanoseconds
// since its epoch.
type paceState struct {
	busy      uint64 // ID of the turn in flight, 0 for none
	busyUntil int64  // when the turn in flight stops holding others back
	end       int64  // when the previous turn ended
	interval  int64  // the interval the previous turn ended with
	hold      int64  // no turn before this
}

// dropAt is when s no longer affects any Take with an interval no longer
// than the one it was last given.
func (s *paceState) dropAt() int64 {
	t := max(s.hold, s.end+s.interval)
	if s.busy != 0 {
		t = max(t, s.busyUntil)
	}
	return t
}

func newMemPacer() *memPacer {
	p := &memPacer{seed: maphash.MakeSeed(), epoch: time.Now(), timeout: pacing.TurnTimeout}
	for i := range p.shards {
		p.shards[i].m = make(map[string]paceState)
		p.shards[i].sweepAt = minSweep
	}
	return p
}

func (p *memPacer) now() int64 { return int64(time.Since(p.epoch)) }

func (p *memPacer) shard(authority string) *memShard {
	if p == nil || p.shards[0].m == nil {
		panic("robotstxt: memPacer used without newMemPacer")
	}
	return &p.shards[maphash.String(p.seed, authority)%memShards]
}

// Take implements [Pacer]. It does not use ctx: it never blocks.
func (p *memPacer) Take(_ context.Context, authority string, interval time.Duration) (id uint64, wait time.Duration, err error) {
	id, w := p.shard(authority).take(authority, int64(max(interval, 0)), int64(p.timeout), p.now())
	return id, time.Duration(w), nil
}

// take gives authority the turn at now and its ID, or says how long to
// wait (see Pacer.Take).
func (sh *memShard) take(authority string, interval, timeout, now int64) (id uint64, wait int64) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	s, ok := sh.m[authority]
	if ok {
		if s.busy != 0 && now < s.busyUntil && interval > 0 {
			return 0, min(interval, s.busyUntil-now)
		}
		if t := max(s.hold, s.end+interval); now < t {
			return 0, t - now
		}
	}
	if interval == 0 {
		return 0, 0 // no exclusive slot, nothing to record
	}
	if !ok {
		sh.sweep(now)
	}
	sh.lastID++
	s.busy, s.busyUntil = sh.lastID, now+max(timeout, interval)
	sh.m[authority] = s
	return sh.lastID, 0
}

// sweep drops the state that holds nothing back once the map has doubled,
// copying the rest so that a burst's memory is given back.
func (sh *memShard) sweep(now int64) {
	if len(sh.m) < sh.sweepAt {
		return
	}
	live := make(map[string]paceState, len(sh.m)/2)
	for k, s := range sh.m {
		if now < s.dropAt() {
			live[k] = s
		}
	}
	sh.m = live
	sh.sweepAt = max(2*len(live), minSweep)
}

// Done implements [Pacer].
func (p *memPacer) Done(_ context.Context, authority string, id uint64, interval, hold time.Duration) error {
	if id == 0 && hold <= 0 {
		return nil
	}
	now := p.now()
	sh := p.shard(authority)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	s, ok := sh.m[authority]
	if !ok {
		sh.sweep(now)
	}
	if id != 0 && (s.busy == id || s.busy == 0 || now >= s.busyUntil) {
		// This turn's lease may have run out and another turn begun and
		// ended since; ending later than it did is only more cautious.
		s.busy, s.busyUntil = 0, 0
		s.end, s.interval = now, int64(max(interval, 0))
	}
	if hold > 0 {
		s.hold = max(s.hold, now+int64(hold))
	}
	if now >= s.dropAt() {
		delete(sh.m, authority)
		return nil
	}
	sh.m[authority] = s
	return nil
}
