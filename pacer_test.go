package robotstxt

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Turn is what the tests keep of a turn a Pacer gave, for its Done.
type Turn struct {
	Authority string
	Interval  time.Duration
	ID        uint64
}

// takeTurn asks p for a turn as the Transport does, and reports it as a Turn
// with ok set when it was given.
func takeTurn(ctx context.Context, p Pacer, authority string, interval time.Duration) (Turn, time.Duration, bool, error) {
	id, wait, err := p.Take(ctx, authority, interval)
	if err != nil || wait > 0 {
		return Turn{}, wait, false, err
	}
	return Turn{Authority: authority, Interval: max(interval, 0), ID: id}, 0, true, nil
}

// endTurn ends the turn t with p.
func endTurn(ctx context.Context, p Pacer, t Turn, hold time.Duration) error {
	return p.Done(ctx, t.Authority, t.ID, t.Interval, hold)
}

// turnTaker returns a function that waits for a turn from p as RoundTrip
// does, through a Transport with p as its Pacer. Without a deadline it
// waits up to a day.
func turnTaker(t testing.TB, p Pacer) func(ctx context.Context, authority string, interval time.Duration) (Turn, error) {
	t.Helper()
	tr := NewTransport(newTestClient(t), nil, WithPacer(p), WithMaxWait(24*time.Hour))
	return func(ctx context.Context, authority string, interval time.Duration) (Turn, error) {
		tu, _, err := tr.awaitTurn(ctx, authority, interval)
		return Turn{Authority: tu.authority, Interval: tu.interval, ID: tu.id}, err
	}
}

// turnLog records, for turns taken through a Pacer, when each began and
// ended, and fails the test if two exclusive turns overlap.
type turnLog struct {
	t        *testing.T
	mu       sync.Mutex
	inFlight int
	starts   []time.Time
	ends     []time.Time
}

func (l *turnLog) begin() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inFlight++
	if l.inFlight > 1 {
		l.t.Errorf("%d turns in flight at once", l.inFlight)
	}
	l.starts = append(l.starts, time.Now())
}

func (l *turnLog) end() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inFlight--
	l.ends = append(l.ends, time.Now())
}

// checkGaps fails unless every turn began at least interval after the
// previous one ended.
func (l *turnLog) checkGaps(interval time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := 1; i < len(l.starts); i++ {
		if gap := l.starts[i].Sub(l.ends[i-1]); gap < interval {
			l.t.Errorf("turn %d began %v after turn %d ended, want >= %v", i, gap, i-1, interval)
		}
	}
}

func TestMemPacerSpacesAndExcludes(t *testing.T) {
	checkLeaks(t)
	p := newMemPacer()
	take := turnTaker(t, p)
	const interval = 40 * time.Millisecond
	log := &turnLog{t: t}
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			turn, err := take(context.Background(), "https://a.example:443", interval)
			if err != nil {
				t.Error(err)
				return
			}
			if turn.ID == 0 || turn.Interval != interval || turn.Authority != "https://a.example:443" {
				t.Errorf("turn = %+v", turn)
			}
			log.begin()
			time.Sleep(5 * time.Millisecond) // the request in flight
			log.end()
			if err := endTurn(context.Background(), p, turn, 0); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if len(log.starts) != 6 {
		t.Fatalf("%d turns, want 6", len(log.starts))
	}
	log.checkGaps(interval)
}

// TestMemPacerTake checks Take's answers: the turn when a request may be
// sent now, otherwise a wait that is positive and never past the earliest
// moment the turn may come.
func TestMemPacerTake(t *testing.T) {
	p := newMemPacer()
	ctx := context.Background()
	const a = "https://a.example:443"
	const interval = 10 * time.Second // shorter than the flight lease
	first, wait, ok, err := takeTurn(ctx, p, a, interval)
	if err != nil || !ok || wait != 0 || first.ID == 0 || first.Interval != interval || first.Authority != a {
		t.Fatalf("Take = %+v, %v, %v, %v; want an exclusive turn", first, wait, ok, err)
	}
	// In flight: the next turn comes at least interval after it ends, so
	// interval is the longest wait that cannot miss it.
	if turn, wait, ok, err := takeTurn(ctx, p, a, interval); err != nil || ok || wait != interval || turn != (Turn{}) {
		t.Errorf("Take while in flight = %+v, %v, %v, %v; want no turn and a wait of %v", turn, wait, ok, err, interval)
	}
	// A zero (or negative) interval takes no slot and is not held back.
	for _, iv := range []time.Duration{0, -time.Second} {
		turn, wait, ok, err := takeTurn(ctx, p, a, iv)
		if err != nil || !ok || wait != 0 || turn != (Turn{Authority: a}) {
			t.Errorf("Take(%v) while in flight = %+v, %v, %v, %v; want a turn with ID 0 and interval 0", iv, turn, wait, ok, err)
		}
	}
	ended := time.Now()
	if err := endTurn(ctx, p, first, 0); err != nil {
		t.Fatal(err)
	}
	_, wait, ok, err = takeTurn(ctx, p, a, interval)
	if err != nil || ok || wait > interval || wait < interval-time.Since(ended) {
		t.Errorf("Take after the turn = %v, %v, %v; want the rest of %v", wait, ok, err, interval)
	}
	const hold = 2 * time.Hour
	held := time.Now()
	if err := endTurn(ctx, p, Turn{Authority: a}, hold); err != nil {
		t.Fatal(err)
	}
	_, wait, ok, err = takeTurn(ctx, p, a, 0)
	if err != nil || ok || wait > hold || wait < hold-time.Since(held) {
		t.Errorf("Take during a hold = %v, %v, %v; want the rest of %v", wait, ok, err, hold)
	}
}

func TestMemPacerZeroIntervalTakesNoSlot(t *testing.T) {
	p := newMemPacer()
	take := turnTaker(t, p)
	ctx := context.Background()
	var turns []Turn
	for range 5 { // none ended: they would block each other if exclusive
		turn, err := take(ctx, "https://a.example:443", 0)
		if err != nil || turn.ID != 0 {
			t.Fatalf("take = %+v, %v; want a turn with ID 0", turn, err)
		}
		turns = append(turns, turn)
	}
	for _, turn := range turns {
		if err := endTurn(ctx, p, turn, 0); err != nil {
			t.Fatal(err)
		}
	}
	if n := p.authorities(); n != 0 {
		t.Errorf("pacer keeps %d authorities for zero intervals, want 0", n)
	}
}

func TestMemPacerHold(t *testing.T) {
	checkLeaks(t)
	p := newMemPacer()
	take := turnTaker(t, p)
	ctx := context.Background()
	const a = "https://a.example:443"
	for _, interval := range []time.Duration{0, 10 * time.Millisecond} {
		turn, err := take(ctx, a, interval)
		if err != nil {
			t.Fatal(err)
		}
		const hold = 150 * time.Millisecond
		held := time.Now()
		if err := endTurn(ctx, p, turn, hold); err != nil {
			t.Fatal(err)
		}
		// A deadline before the hold ends fails at once, without waiting.
		short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		_, err = take(short, a, interval)
		cancel()
		if !errors.Is(err, ErrPaced) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("interval %v: take with a deadline inside the hold = %v, want ErrPaced and DeadlineExceeded", interval, err)
		}
		turn, err = take(ctx, a, interval)
		if err != nil {
			t.Fatal(err)
		}
		if waited := time.Since(held); waited < hold {
			t.Errorf("interval %v: next turn %v after the hold began, want >= %v", interval, waited, hold)
		}
		if err := endTurn(ctx, p, turn, 0); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMemPacerCancel(t *testing.T) {
	checkLeaks(t)
	p := newMemPacer()
	take := turnTaker(t, p)
	const a = "https://a.example:443"
	turn, err := take(context.Background(), a, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := take(ctx, a, time.Hour)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("take after cancel = %v, want Canceled", err)
	}
	_ = endTurn(context.Background(), p, turn, 0)
}

// TestMemPacerOtherAuthorities checks that a request waiting for its turn
// at one authority does not hold up another authority.
func TestMemPacerOtherAuthorities(t *testing.T) {
	checkLeaks(t)
	p := newMemPacer()
	take := turnTaker(t, p)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first, err := take(ctx, "https://slow.example:443", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	var waiting atomic.Bool
	waiting.Store(true)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = take(ctx, "https://slow.example:443", time.Hour) // sleeps until cancel
		waiting.Store(false)
	}()
	// Every authority, also those in the slow one's shard, gets its turn
	// while the slow one waits.
	for i := range 4 * memShards {
		a := fmt.Sprintf("https://fast%d.example:443", i)
		turn, err := take(ctx, a, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		_ = endTurn(ctx, p, turn, 0)
	}
	if !waiting.Load() {
		t.Error("the slow authority's waiter got a turn during an hour's interval")
	}
	cancel()
	<-done
	_ = endTurn(context.Background(), p, first, 0)
}

func TestMemPacerLeaseRunsOut(t *testing.T) {
	checkLeaks(t)
	p := newMemPacer()
	p.timeout = 50 * time.Millisecond
	take := turnTaker(t, p)
	ctx := context.Background()
	const a = "https://a.example:443"
	stuck, err := take(ctx, a, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	next, err := take(ctx, a, 10*time.Millisecond) // the stuck turn is never ended in time
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(began); d < p.timeout {
		t.Errorf("next turn after %v, want >= the lease %v", d, p.timeout)
	}
	// The stuck turn ending late must not end the next one.
	_ = endTurn(ctx, p, stuck, 0)
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	_, err = take(short, a, 10*time.Millisecond)
	cancel()
	if err == nil {
		t.Error("a third turn began while the second was in flight")
	}
	_ = endTurn(ctx, p, next, 0)
}

// TestMemPacerBoundedMemory runs through many authorities and checks that
// the state of those whose interval has passed is dropped.
func TestMemPacerBoundedMemory(t *testing.T) {
	p := newMemPacer()
	take := turnTaker(t, p)
	ctx := context.Background()
	const n = 200_000
	for i := range n {
		turn, err := take(ctx, fmt.Sprintf("https://h%d.example:443", i), time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if err := endTurn(ctx, p, turn, 0); err != nil {
			t.Fatal(err)
		}
	}
	// Each shard keeps at most what arrived since its last sweep, which
	// at most doubles what was live then.
	if got, limit := p.authorities(), n/4; got > limit {
		t.Errorf("pacer keeps %d of %d authorities after their intervals, want <= %d", got, n, limit)
	}
	for i := range p.shards {
		if s := p.shards[i].sweepAt; s > 8*minSweep {
			t.Errorf("shard %d sweeps at %d entries: state was not dropped", i, s)
			break
		}
	}
}

// authorities counts the authorities p keeps state for.
func (p *memPacer) authorities() int {
	n := 0
	for i := range p.shards {
		p.shards[i].mu.Lock()
		n += len(p.shards[i].m)
		p.shards[i].mu.Unlock()
	}
	return n
}
