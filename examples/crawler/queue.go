package main

import "net/url"

// queue is a first-in first-out queue of URLs that takes each URL once.
type queue struct {
	items []*url.URL
	seen  map[string]bool
}

func newQueue() *queue { return &queue{seen: make(map[string]bool)} }

// push adds u unless it was pushed before.
func (q *queue) push(u *url.URL) {
	k := u.String()
	if q.seen[k] {
		return
	}
	q.seen[k] = true
	q.items = append(q.items, u)
}

// pop takes the oldest URL; ok is false when the queue is empty.
func (q *queue) pop() (u *url.URL, ok bool) {
	if len(q.items) == 0 {
		return nil, false
	}
	u, q.items = q.items[0], q.items[1:]
	return u, true
}
