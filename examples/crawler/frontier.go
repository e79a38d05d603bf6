package main

import (
	"container/heap"
	"context"
	"net/url"
	"sync"
	"time"
)

// A frontier holds the URLs a crawl has yet to fetch, each due at a time:
// now when first found, later when a site asked the crawler to come back
// (a pacing turn not free, robots.txt unreachable). Workers take the URL
// due first; a URL that is not due yet waits in the frontier, never in a
// worker. It takes each URL once, and the crawl is over when no URL is
// queued and none is being worked on.
type frontier struct {
	mu      sync.Mutex
	items   dueHeap
	seq     int             // order of arrival, to keep FIFO among URLs due together
	seen    map[string]bool // every URL ever added
	done    map[string]bool // every URL fetched
	retried map[string]int  // how many times each URL was put back
	working int             // URLs taken and not yet finished
	stopped bool
	changed chan struct{} // closed and replaced when any of the above changes
}

func newFrontier() *frontier {
	return &frontier{seen: make(map[string]bool), done: make(map[string]bool), retried: make(map[string]int),
		changed: make(chan struct{})}
}

// add queues u, due now, unless it was added before.
func (f *frontier) add(u *url.URL) {
	f.mu.Lock()
	defer f.mu.Unlock()
	k := u.String()
	if f.seen[k] || f.stopped {
		return
	}
	f.seen[k] = true
	f.push(u, time.Time{})
}

// fetched marks u fetched, where a redirect led as the URL asked for:
// queued, or added later, it is not taken again.
func (f *frontier) fetched(u *url.URL) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seen[u.String()] = true
	f.done[u.String()] = true
}

// retry finishes taken, a URL taken with next, and queues u, due at at:
// taken again, or the URL a redirect of it led to, unless that was added
// before (so a link to it found meanwhile does not fetch it twice). u
// counts as put back once more than taken was (see tries): a redirect
// chain that names a new URL at every hop is a loop all the same. It
// reports whether u was queued.
func (f *frontier) retry(taken, u *url.URL, at time.Time) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	defer f.finishLocked()
	k := u.String()
	if f.stopped || k != taken.String() && f.seen[k] {
		return false
	}
	f.seen[k] = true
	f.retried[k] = max(f.retried[k], f.retried[taken.String()]) + 1
	f.push(u, at)
	return true
}

// tries returns how many times u was put back.
func (f *frontier) tries(u string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.retried[u]
}

// finish marks a URL taken with next as done.
func (f *frontier) finish() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.finishLocked()
}

// stop empties the frontier and takes no more URLs: the workers end once
// the URLs they hold are finished.
func (f *frontier) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = true
	f.items = nil
	f.signal()
}

// next takes the URL due first, waiting until it is due. It returns false
// when the crawl is over or ctx ends.
func (f *frontier) next(ctx context.Context) (*url.URL, bool) {
	for {
		f.mu.Lock()
		if len(f.items) == 0 && f.working == 0 || f.stopped {
			f.mu.Unlock()
			return nil, false
		}
		wait := time.Hour // nothing queued: wait for a worker to add some
		if len(f.items) > 0 {
			if wait = time.Until(f.items[0].at); wait <= 0 {
				it := heap.Pop(&f.items).(due)
				if f.done[it.u.String()] {
					f.mu.Unlock()
					continue // fetched since it was queued, by a redirect to it
				}
				f.working++
				f.mu.Unlock()
				return it.u, true
			}
		}
		changed := f.changed
		f.mu.Unlock()
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-changed:
		case <-ctx.Done():
			t.Stop()
			return nil, false
		}
		t.Stop()
	}
}

func (f *frontier) push(u *url.URL, at time.Time) {
	f.seq++
	heap.Push(&f.items, due{u: u, at: at, seq: f.seq})
	f.signal()
}

func (f *frontier) finishLocked() {
	f.working--
	f.signal()
}

// signal wakes every worker waiting in next.
func (f *frontier) signal() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// due is a queued URL and when it is due.
type due struct {
	u   *url.URL
	at  time.Time
	seq int
}

// dueHeap orders URLs by when they are due, then by arrival.
type dueHeap []due

func (h dueHeap) Len() int { return len(h) }
func (h dueHeap) Less(i, j int) bool {
	if !h[i].at.Equal(h[j].at) {
		return h[i].at.Before(h[j].at)
	}
	return h[i].seq < h[j].seq
}
func (h dueHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *dueHeap) Push(x any)   { *h = append(*h, x.(due)) }
func (h *dueHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}
