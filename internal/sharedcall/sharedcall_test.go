package sharedcall

import (
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// TestStart: the callers of Start and Do while a call is in flight share
// it, fn running once; a caller of Start that joins keeps nothing (no
// allocation), and once the call ends the next Start begins another.
func TestStart(t *testing.T) {
	var g Group
	var runs atomic.Int32
	release := make(chan struct{})
	fn := func() (any, error) {
		runs.Add(1)
		<-release
		return "v", errors.New("e")
	}
	first, began := g.Start("k", fn)
	if !began {
		t.Fatal("the first Start of k did not begin a call")
	}
	if allocs := testing.AllocsPerRun(1000, func() {
		if c, began := g.Start("k", fn); c != first || began {
			t.Fatal("a second call in flight")
		}
	}); allocs != 0 {
		t.Errorf("joining a call: %v allocations, want 0", allocs)
	}
	for runs.Load() == 0 {
		runtime.Gosched() // fn under way in Start's goroutine
	}
	done := make(chan any)
	go func() {
		v, _ := g.Do("k", func() (any, error) { return "other", nil })
		done <- v
	}()
	for st := stacks(); strings.Count(st, "singleflight.(*Group).Do(") < 2 || !strings.Contains(st, "sync.(*WaitGroup).Wait("); st = stacks() {
		runtime.Gosched() // Do waiting for the call
	}
	if other, _ := g.Start("other", func() (any, error) { return 1, nil }); other == first {
		t.Error("another key joined the call of k")
	}
	close(release)
	<-first.Done()
	if first.Val != "v" || first.Err == nil || first.Err.Error() != "e" {
		t.Errorf("result %v, %v; want v, e", first.Val, first.Err)
	}
	if v := <-done; v != "v" {
		t.Errorf("Do joined and got %v, want v", v)
	}
	if n := runs.Load(); n != 1 {
		t.Errorf("fn ran %d times, want once", n)
	}
	next, _ := g.Start("k", func() (any, error) { return "again", nil })
	<-next.Done()
	if next == first || next.Val != "again" {
		t.Errorf("after the call ended: %v, want a new call", next.Val)
	}
}

// stacks returns the stacks of every goroutine.
func stacks() string {
	buf := make([]byte, 1<<20)
	return string(buf[:runtime.Stack(buf, true)])
}

// TestStartAfterGoexit: a call that ends in runtime.Goexit (a test's
// t.FailNow in a RoundTripper) ends its waiters' wait and leaves the key
// free for the next call.
func TestStartAfterGoexit(t *testing.T) {
	var g Group
	c, _ := g.Start("k", func() (any, error) { runtime.Goexit(); return nil, nil })
	<-c.Done()
	if c.Val != nil || c.Err != ErrNoResult {
		t.Errorf("result %v, %v; want ErrNoResult", c.Val, c.Err)
	}
	next, _ := g.Start("k", func() (any, error) { return "again", nil })
	<-next.Done()
	if next.Val != "again" {
		t.Errorf("after a Goexit: %v, want a new call", next.Val)
	}
}

// TestStartBesideDo: Start while a call of Do is under way joins it, fn
// not to run, and says so; once it has ended, Start begins one that runs
// fn.
func TestStartBesideDo(t *testing.T) {
	var g Group
	entered, release := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = g.Do("k", func() (any, error) {
			close(entered)
			<-release
			return "do", nil
		})
	}()
	<-entered
	c, runs := g.Start("k", func() (any, error) { return "start", nil })
	if runs {
		t.Error("Start beside a Do of k says its fn runs")
	}
	for strings.Count(stacks(), "singleflight.(*Group).Do(") < 2 {
		runtime.Gosched() // Start's goroutine joining the Do
	}
	close(release)
	<-c.Done()
	<-done
	if c.Val != "do" {
		t.Errorf("Start beside a Do of k: %v, want the Do's result", c.Val)
	}
	c, runs = g.Start("k", func() (any, error) { return "start", nil })
	if !runs {
		t.Error("Start after the Do of k ended says its fn does not run")
	}
	<-c.Done()
	if c.Val != "start" {
		t.Errorf("Start after the Do: %v, want its own result", c.Val)
	}
}
