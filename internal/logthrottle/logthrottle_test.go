package logthrottle

import (
	"sync"
	"testing"
	"time"
)

func TestThrottle(t *testing.T) {
	th := New(10 * time.Second)
	now := time.Unix(1000, 0)
	th.now = func() time.Time { return now }
	if ok, held := th.Allow("a"); !ok || held != 0 {
		t.Fatalf("first line: %v, %d held", ok, held)
	}
	for range 3 {
		if ok, _ := th.Allow("a"); ok {
			t.Fatal("a line within the interval went through")
		}
	}
	if ok, _ := th.Allow("b"); !ok {
		t.Error("another kind was held back")
	}
	now = now.Add(10 * time.Second)
	if ok, held := th.Allow("a"); !ok || held != 3 {
		t.Errorf("after the interval: %v, %d held; want true, 3", ok, held)
	}
	if ok, _ := th.Allow("a"); ok {
		t.Error("the interval did not start again")
	}
}

func TestThrottleConcurrent(t *testing.T) {
	th := New(time.Hour)
	var wg sync.WaitGroup
	var mu sync.Mutex
	through := 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if ok, _ := th.Allow("k"); ok {
					mu.Lock()
					through++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if through != 1 {
		t.Errorf("%d lines went through in one interval, want 1", through)
	}
}
