// Package sharedcall shares a call among the callers that want its result,
// as golang.org/x/sync/singleflight does, and lets a caller that stops
// waiting leave nothing behind: singleflight's DoChan keeps a channel for
// every caller until the call ends, which a check that gives up after a
// millisecond, again and again while a fetch takes seconds, turns into
// megabytes.
package sharedcall

import (
	"errors"
	"sync"

	"golang.org/x/sync/singleflight"
)

// A Group runs one call of a key at a time. Its zero value is ready.
type Group struct {
	g  singleflight.Group
	mu sync.Mutex
	m  map[string]*Call // the calls Start began, by key, until they end
	do map[string]int   // the callers of Do under way, by key
}

// ErrNoResult is the error of a call that ended in runtime.Goexit (a
// test's t.FailNow), which gave no result.
var ErrNoResult = errors.New("the call ended without a result")

// A Call is a call that [Group.Start] began or joined; its result is
// set when Done is closed.
type Call struct {
	done chan struct{}
	Val  any
	Err  error
}

// Done is closed when the call has ended and its result is set.
func (c *Call) Done() <-chan struct{} { return c.done }

// Do runs fn for key, or waits for the call in flight for key, in Do or
// Start, and returns its result, as singleflight.Group.Do does. So a call
// that ends in runtime.Goexit ends the goroutine of each caller of Do
// that joined it too, while Start's callers get ErrNoResult: a check with
// a context that cannot end fills in its own goroutine, as singleflight
// would, and a caller's RoundTripper that calls Goexit (a test's
// t.FailNow) ends the checks that wait for it without a deadline.
func (g *Group) Do(key string, fn func() (any, error)) (any, error) {
	g.mu.Lock()
	if g.do == nil {
		g.do = make(map[string]int)
	}
	g.do[key]++
	g.mu.Unlock()
	defer func() { // also when the call ends in runtime.Goexit
		g.mu.Lock()
		if g.do[key]--; g.do[key] == 0 {
			delete(g.do, key)
		}
		g.mu.Unlock()
	}()
	v, err, _ := g.g.Do(key, fn)
	return v, err
}

// Start returns the call for key that a caller of Start is waiting for,
// or else begins one, in a goroutine of its own, which runs fn, or joins
// the call in flight for key in Do, and whether fn is to run: it began a
// call, and no caller of Do was under way. Either answer may be wrong
// when a call of Do begins or ends just then: a caller must not rely on
// it for more than a hint. A caller may stop waiting on
// its Done at any time, leaving nothing behind. fn must not panic: the
// goroutine has no caller to raise the panic in.
func (g *Group) Start(key string, fn func() (any, error)) (*Call, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c := g.m[key]; c != nil {
		return c, false // no allocation: a result the goroutine below kept would be one
	}
	c := &Call{done: make(chan struct{})}
	if g.m == nil {
		g.m = make(map[string]*Call)
	}
	g.m[key] = c
	go func() {
		returned := false
		defer func() { // also when the call ends in runtime.Goexit: the key must not stay taken
			if !returned {
				c.Val, c.Err = nil, ErrNoResult
			}
			g.mu.Lock()
			delete(g.m, key)
			g.mu.Unlock()
			close(c.done)
		}()
		c.Val, c.Err, _ = g.g.Do(key, fn)
		returned = true
	}()
	return c, g.do[key] == 0
}
