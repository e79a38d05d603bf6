package robotstxt

import (
	"sync"
	"sync/atomic"
	"time"
)

// A coarseClock tells a warm check the time without a clock call. A
// check needs the time to know that its entry has not expired, and on
// the machines this library is measured on time.Now costs 80 ns, more
// than the rest of a warm check of a typical file (internal/bench
// BenchmarkClientWarmPath). The clock is advanced every clockTick by a
// timer that stops when a tick finds it unread since the last, and is
// started again by the next check that needs it: an idle Client, or one
// never closed, leaves no timer running.
type coarseClock struct {
	now    atomic.Int64 // Unix nanoseconds at the last tick; 0 while stopped
	read   atomic.Bool  // read since the last tick
	mu     sync.Mutex   // held to start, tick and stop
	closed bool
	timer  *time.Timer
}

// clockTick is how often the coarse clock advances: a warm check sees
// expiry at most this late, unless the timer itself runs late.
const clockTick = 20 * time.Millisecond

// exactMargin is how close to its expiry an entry must be for a check to
// read the exact clock: two ticks, since the coarse clock lags by one.
const exactMargin = stamp(2 * clockTick)

func newCoarseClock() *coarseClock {
	c := new(coarseClock)
	c.timer = time.AfterFunc(time.Hour, c.tick)
	c.timer.Stop()
	return c
}

// load returns the time of the last tick, or 0 while the clock is stopped.
func (c *coarseClock) load() stamp {
	if !c.read.Load() {
		c.read.Store(true) // once a tick: the line stays shared between cores
	}
	return stamp(c.now.Load())
}

// start starts the stopped clock at now, the exact time.
func (c *coarseClock) start(now stamp) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed && c.now.CompareAndSwap(0, int64(now)) {
		c.timer.Reset(clockTick)
	}
}

// tick advances the clock, or stops it if it was not read since the
// last tick.
func (c *coarseClock) tick() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || !c.read.Swap(false) {
		c.now.Store(0)
		return
	}
	c.now.Store(time.Now().UnixNano())
	c.timer.Reset(clockTick)
}

// stop stops the clock for good.
func (c *coarseClock) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	c.timer.Stop()
	c.now.Store(0)
}
