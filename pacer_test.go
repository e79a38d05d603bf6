package robotstxt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotsgate/robotstxt/internal/pacing"
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
		tu, _, err := tr.awaitTurn(ctx, authority, interval, turn{}, time.Now(), false, nil)
		return Turn{Authority: paceKey(tu.authority), Interval: tu.interval, ID: tu.id}, err // as p knows it
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
			if turn.ID == 0 || turn.Interval != interval || turn.Authority != paceKey("https://a.example:443") {
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
	// A zero (or negative) interval, a caller's that knows no
	// Crawl-delay, keeps the site's pace; where the pacer knows none, it
	// takes no slot and is not held back.
	for _, iv := range []time.Duration{0, -time.Second} {
		if turn, wait, ok, err := takeTurn(ctx, p, a, iv); err != nil || ok || wait != interval || turn != (Turn{}) {
			t.Errorf("Take(%v) while in flight = %+v, %v, %v, %v; want no turn and a wait of %v", iv, turn, wait, ok, err, interval)
		}
		const b = "https://b.example:443"
		if turn, wait, ok, err := takeTurn(ctx, p, b, iv); err != nil || !ok || wait != 0 || turn != (Turn{Authority: b}) {
			t.Errorf("Take(%v) at a site of no pace = %+v, %v, %v, %v; want a turn with ID 0 and interval 0", iv, turn, wait, ok, err)
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
	if _, wait, ok, err = takeTurn(ctx, p, a, 0); err != nil || ok || wait > interval || wait < interval-time.Since(ended) {
		t.Errorf("Take(0) after the turn = %v, %v, %v; want the rest of %v, the site's pace", wait, ok, err, interval)
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

// TestMemPacerPaceLapses: a site's pace lasts until it has passed since
// its last turn ended, whatever state the pacer still keeps: a lowered
// Crawl-delay, or none, holds requests back no longer (the state of a
// pace that had passed stood until a sweep, and each turn took its
// interval again, for ever).
func TestMemPacerPaceLapses(t *testing.T) {
	p := newMemPacer()
	ctx := context.Background()
	const a = "https://a.example:443"
	first, _, ok, err := takeTurn(ctx, p, a, 20*time.Millisecond)
	if !ok || err != nil {
		t.Fatalf("first Take: %v, %v", ok, err)
	}
	_ = endTurn(ctx, p, first, 0)
	time.Sleep(30 * time.Millisecond)
	if turn, wait, ok, err := takeTurn(ctx, p, a, 0); !ok || err != nil || wait != 0 || turn.ID != 0 {
		t.Errorf("Take(0) after the pace passed = %+v, %v, %v, %v; want a turn with ID 0", turn, wait, ok, err)
	}
	second, _, ok, err := takeTurn(ctx, p, a, time.Millisecond)
	if !ok || err != nil {
		t.Fatalf("Take(1ms) after the pace passed: %v, %v", ok, err)
	}
	_ = endTurn(ctx, p, second, 0)
	if _, wait, ok, err := takeTurn(ctx, p, a, time.Millisecond); err != nil || !ok && wait > time.Millisecond {
		t.Errorf("Take(1ms) after a 1ms turn = %v, %v, %v; want at most 1ms, the lowered pace", wait, ok, err)
	}
}

// TestMemPacerKeepsTheLongerInterval: a turn that ends with a shorter
// interval (another crawler's Crawl-delay) does not let the state go
// before a longer one asked before it would.
func TestMemPacerKeepsTheLongerInterval(t *testing.T) {
	p := newMemPacer()
	ctx := context.Background()
	const a = "https://a.example:443"
	first, _, _, _ := takeTurn(ctx, p, a, time.Hour)
	_ = endTurn(ctx, p, first, 0)
	sh := p.shard(a)
	sh.mu.Lock()
	s := sh.m[a]
	s.end -= int64(time.Hour - time.Millisecond) // the hour all but over
	sh.m[a] = s
	sh.mu.Unlock()
	time.Sleep(2 * time.Millisecond)
	second, _, ok, err := takeTurn(ctx, p, a, time.Millisecond)
	if !ok || err != nil {
		t.Fatalf("Take at a millisecond: %v, %v", ok, err)
	}
	_ = endTurn(ctx, p, second, 0)
	sh.mu.Lock()
	s = sh.m[a]
	sh.mu.Unlock()
	if s.dropAt(int64(p.timeout)) < s.end+int64(time.Hour) {
		t.Errorf("the state drops %v after the last turn, want an hour", time.Duration(s.dropAt(int64(p.timeout))-s.end))
	}
}

// TestMemPacerRaisedInterval: a Take whose interval is longer than any
// before (its site raised its Crawl-delay) waits that long after the last
// turn ended, though the shorter interval has passed and sweeps have run
// since: the state outlives the lease.
func TestMemPacerRaisedInterval(t *testing.T) {
	p := newMemPacer()
	ctx := context.Background()
	const a = "https://a.example:443"
	tu, _, _, _ := takeTurn(ctx, p, a, 20*time.Millisecond)
	_ = endTurn(ctx, p, tu, 0)
	time.Sleep(30 * time.Millisecond)
	for i := range 8 * minSweep * memShards {
		other, _, _, _ := takeTurn(ctx, p, fmt.Sprintf("https://h%d.example:443", i), time.Nanosecond)
		_ = endTurn(ctx, p, other, 0)
	}
	if _, wait, ok, err := takeTurn(ctx, p, a, time.Hour); ok || err != nil || wait < 59*time.Minute {
		t.Errorf("Take(1h) after a 20ms turn and sweeps: wait %v, turn %v, %v; want about an hour", wait, ok, err)
	}
}

// TestMemPacerLongestSpans: an interval or a hold of any length, the
// longest a Duration holds included (a "no bound" WithMaxHold), holds the
// authority back for at most pacing.MaxAhead; summed with the clock it
// overflowed, and held nothing back.
func TestMemPacerLongestSpans(t *testing.T) {
	ctx := context.Background()
	const a = "https://a.example:443"
	for _, tc := range []struct{ interval, hold time.Duration }{
		{math.MaxInt64, 0}, {0, math.MaxInt64}, {time.Second, math.MaxInt64}, {48 * time.Hour, 48 * time.Hour},
	} {
		p := newMemPacer()
		id, _, err := p.Take(ctx, a, tc.interval)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Done(ctx, a, id, tc.interval, tc.hold); err != nil {
			t.Fatal(err)
		}
		if _, wait, err := p.Take(ctx, a, tc.interval); err != nil || wait < pacing.MaxAhead-time.Minute || wait > pacing.MaxAhead {
			t.Errorf("interval %v, hold %v: the next turn waits %v, %v; want %v", tc.interval, tc.hold, wait, err, pacing.MaxAhead)
		}
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

// TestMemPacerHoldBeforeAnyTurn: a hold set where no turn has ended
// (Done with id 0, as for a robots.txt's Retry-After), or after a turn
// whose lease ran out, holds until it ends, not for an interval counted
// from the pacer's start, as the Redis pacer reads it too.
func TestMemPacerHoldBeforeAnyTurn(t *testing.T) {
	ctx := context.Background()
	p := newMemPacer()
	if err := p.Done(ctx, "https://a.test:443", 0, 0, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	if _, wait, _ := p.Take(ctx, "https://a.test:443", time.Hour); wait > 2*time.Second {
		t.Errorf("after a 2 s hold, Take(1h) waits %v", wait)
	}
	p.timeout = 10 * time.Millisecond
	if _, wait, _ := p.Take(ctx, "https://b.test:443", 5*time.Millisecond); wait != 0 {
		t.Fatalf("first turn: wait %v", wait)
	}
	time.Sleep(20 * time.Millisecond) // the lease runs out, no Done
	if _, wait, _ := p.Take(ctx, "https://b.test:443", time.Hour); wait != 0 {
		t.Errorf("after a lapsed turn, Take(1h) waits %v", wait)
	}
}

// TestMemPacerHoldWhileBusy: a hold set while a turn is in flight (the
// headers of a 503 with Retry-After in, its body still arriving) is what
// Take tells the next to wait, not the interval: no turn comes before
// it, and a WithNoWait RetryAt or a deadline inside it must know.
func TestMemPacerHoldWhileBusy(t *testing.T) {
	ctx := context.Background()
	p := newMemPacer()
	const a = "https://a.test:443"
	id, wait, _ := p.Take(ctx, a, time.Second)
	if id == 0 || wait != 0 {
		t.Fatalf("first turn: %d, %v", id, wait)
	}
	if err := p.Done(ctx, a, 0, time.Second, time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, wait, _ := p.Take(ctx, a, time.Second); wait < time.Hour-time.Minute {
		t.Errorf("an hour's hold set while a turn is in flight: Take waits %v", wait)
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
	p.timeout = time.Millisecond // the lease, which the state outlives
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

// TestTransportNoWaitRedirect: under WithNoWait, a redirect an http.Client
// follows within the site waits for its turn, as the README's loop,
// requeueing the URL it asked for, would otherwise never reach it.
func TestTransportNoWaitRedirect(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 0.2\n")
	s.route("/a", redirectTo("/a/"))
	s.route("/a/", serve(200, "page"))
	_, _, hc := newTestTransport(t, WithNoWait())
	start := time.Now()
	if _, err := get(context.Background(), hc, s.URL+"/a"); err != nil {
		t.Fatalf("a redirect within the site: %v, want it followed after its turn", err)
	}
	if got := s.got(); !slices.Equal(got[len(got)-2:], []string{"/a", "/a/"}) || time.Since(start) < 200*time.Millisecond {
		t.Errorf("the site saw %q within %v; want /a, then /a/ a Crawl-delay later", got, time.Since(start))
	}
}

// TestTransportNoWaitRedirectWithHost: the same holds for a request
// sent to an address with a Host header naming the site, whose redirect
// keeps that Host: it is paced as the site the Host names.
func TestTransportNoWaitRedirectWithHost(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("site.test/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 0.2\n"))
	w.on("10.0.0.1/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 0.2\n"))
	w.on("site.test/a", redirectTo("/a/"))
	w.on("site.test/a/", serve(200, "page"))
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	if err := getHost(&http.Client{Transport: tr}, "http://10.0.0.1/a", "site.test"); err != nil {
		t.Errorf("a redirect within the site a Host names: %v, want it followed after its turn", err)
	}
	if w.count("http://site.test/a/") != 1 {
		t.Errorf("the site saw /a/ %d times, want once", w.count("http://site.test/a/"))
	}
}

// TestTransportNoWaitRedirectPastTimeout: under WithNoWait, a redirect
// within a site whose next turn comes after the http.Client's Timeout is
// refused with a PacedError naming the redirect's URL, which the README's
// loop puts back: putting back the URL asked for would spend every turn
// on the redirect and never fetch the page. It is no timeout: under
// WithNoWait, a PacedError never matches context.DeadlineExceeded.
func TestTransportNoWaitRedirectPastTimeout(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 0.6\n")
	s.route("/a", redirectTo("/a/#top"))
	s.route("/a/", serve(200, "page"))
	_, tr, _ := newTestTransport(t, WithNoWait())
	hc := &http.Client{Transport: tr, Timeout: 300 * time.Millisecond}
	withUser := strings.Replace(s.URL, "http://", "http://user:pw@", 1)
	queue := []string{withUser + "/a#frag"}
	var fetched []string
	for tries := 0; len(queue) > 0 && tries < 6; tries++ {
		u := queue[0]
		queue = queue[1:]
		resp, err := hc.Get(u)
		var pe *PacedError
		switch {
		case errors.As(err, &pe):
			if pe.URL != withUser+"/a/" {
				t.Errorf("PacedError.URL = %q, want the redirect's, credentials kept: %s/a/", pe.URL, withUser)
			}
			if errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%v matches context.DeadlineExceeded under WithNoWait", err)
			}
			time.Sleep(time.Until(pe.RetryAt))
			queue = append(queue, pe.URL)
		case err != nil:
			t.Fatalf("%s: %v", u, err)
		default:
			_ = resp.Body.Close()
			fetched = append(fetched, resp.Request.URL.String())
		}
	}
	if want := withUser + "/a/"; !slices.Equal(fetched, []string{want}) {
		t.Errorf("the loop fetched %q (the site saw %q); want %s", fetched, s.got(), want)
	}
}

// TestTransportNoWaitRedirectElsewhere: under WithNoWait, a redirect to
// another site whose turn is not free fails at once, as any request
// there would: no worker waits on a site a redirect chose.
func TestTransportNoWaitRedirectElsewhere(t *testing.T) {
	checkLeaks(t)
	b := newTestSite(t, "User-agent: *\nCrawl-delay: 60\n")
	a := newTestSite(t, "User-agent: *\nAllow: /\n")
	a.route("/go", redirectTo(b.URL+"/page"))
	_, _, hc := newTestTransport(t, WithNoWait())
	if _, err := get(context.Background(), hc, b.URL+"/first"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := get(context.Background(), hc, a.URL+"/go"); !errors.Is(err, ErrPaced) || time.Since(start) > 5*time.Second {
		t.Errorf("a redirect to a site whose turn is taken: %v after %v; want ErrPaced at once", err, time.Since(start))
	}
}

// TestTransportNoWait checks that under WithNoWait a request whose turn
// is not free fails at once with a *PacedError, through the http.Client's
// *url.Error, and is not sent; and that RetryAt is the earliest the turn
// may come, whether the previous request has ended or is in flight.
func TestTransportNoWait(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 60\n")
	_, tr, hc := newTestTransport(t, WithNoWait())
	ctx := context.Background()
	authority := "http://" + s.Listener.Addr().String()

	if _, err := get(ctx, hc, s.URL+"/a.html"); err != nil {
		t.Fatal(err)
	}
	ended := time.Now()
	_, err := get(ctx, hc, s.URL+"/b.html")
	var ue *url.Error
	var pe *PacedError
	if !errors.As(err, &ue) || !errors.As(err, &pe) || !errors.Is(err, ErrPaced) {
		t.Fatalf("request within the crawl-delay: %v, want a *url.Error around a *PacedError", err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a WithNoWait refusal matches DeadlineExceeded: %v", err)
	}
	// The previous request ended at about ended: the turn comes 60 s
	// after that, never before.
	if pe.Authority != authority || pe.RetryAt.Before(ended.Add(59*time.Second)) || pe.RetryAt.After(time.Now().Add(60*time.Second)) {
		t.Errorf("PacedError = %+v, want %s and RetryAt 60 s after the first response", pe, authority)
	}
	if d := time.Until(pe.RetryAt); d <= 59*time.Second || d > 60*time.Second {
		t.Errorf("RetryAt in %v, want about 60s", d)
	}
	if !strings.Contains(pe.Error(), authority) || !strings.Contains(pe.Error(), "WithNoWait") {
		t.Errorf("Error() = %q, want the authority and the cause", pe.Error())
	}

	// While a request is in flight the turn comes the interval after it
	// ends, or when its lease runs out (30 s, or the interval if longer,
	// after it began), whichever is first: RetryAt is no later than the
	// interval from now and no earlier than the lease's end.
	other := newTestSite(t, "User-agent: *\nCrawl-delay: 30\n")
	release := make(chan struct{})
	other.route("/slow.html", func(w http.ResponseWriter, r *http.Request) { <-release })
	done := make(chan error, 1)
	began := time.Now()
	go func() { _, err := get(ctx, hc, other.URL+"/slow.html"); done <- err }()
	for waited := time.Duration(0); !slices.Contains(other.got(), "/slow.html"); waited += time.Millisecond {
		if waited > 10*time.Second {
			t.Fatal("the slow request never arrived")
		}
		time.Sleep(time.Millisecond)
	}
	_, err = get(ctx, hc, other.URL+"/c.html")
	if !errors.As(err, &pe) || pe.RetryAt.Before(began.Add(30*time.Second)) || pe.RetryAt.After(time.Now().Add(30*time.Second)) {
		t.Errorf("request while another is in flight: %v, want RetryAt about 30 s from now", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, site := range []*testSite{s, other} {
		if got := site.got(); slices.Contains(got, "/b.html") || slices.Contains(got, "/c.html") {
			t.Errorf("a refused request reached the server: %q", got)
		}
	}
	if st := tr.Stats(); st.Paced != 2 || st.Waited != 0 || st.Sent != 2 {
		t.Errorf("Stats = %+v, want 2 sent, 2 paced and no wait", st)
	}
}

// TestTransportDeadlineBeforeTurn checks that a request whose deadline
// comes before its turn fails at once with a *PacedError that matches the
// deadline too, instead of waiting for the deadline in vain.
func TestTransportDeadlineBeforeTurn(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 60\n")
	_, tr, hc := newTestTransport(t)
	hc.Timeout = 10 * time.Second // the turn comes after it
	if _, err := get(context.Background(), hc, s.URL+"/a.html"); err != nil {
		t.Fatal(err)
	}
	asked := time.Now()
	_, err := get(context.Background(), hc, s.URL+"/b.html")
	took := time.Since(asked)
	var ue *url.Error
	var pe *PacedError
	if !errors.As(err, &ue) || !errors.As(err, &pe) || !errors.Is(err, ErrPaced) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a *url.Error around a *PacedError matching DeadlineExceeded", err)
	}
	if took >= hc.Timeout {
		t.Errorf("refusing took %v: the deadline was waited out", took)
	}
	if pe.RetryAt.Before(asked.Add(59 * time.Second)) {
		t.Errorf("RetryAt %v is before the crawl-delay ends", pe.RetryAt)
	}
	if !strings.Contains(err.Error(), "deadline") {
		t.Errorf("error text %q does not say the deadline came first", err)
	}
	if slices.Contains(s.got(), "/b.html") {
		t.Error("the refused request reached the server")
	}
	if st := tr.Stats(); st.Paced != 1 || st.Waited != 0 {
		t.Errorf("Stats = %+v, want 1 paced, no wait", st)
	}
}

// TestAwaitTurnWokenLateWithinMaxWait: a request with no deadline woken
// for a turn that came within WithMaxWait is sent, though a late timer
// or its recheck of robots.txt took it a little past the bound (less than
// deadlineMargin, which the Transport's own bound does not race); it was
// refused, "past the longest wait", and on a loaded machine a 0.97 s
// Crawl-delay's turn was refused so under a 1 s WithMaxWait. Woken past
// the margin (a fetch of robots.txt took the rest of the wait), it is
// refused still.
func TestAwaitTurnWokenLateWithinMaxWait(t *testing.T) {
	checkLeaks(t)
	const maxWait, interval = time.Minute, 20 * time.Millisecond
	tr := NewTransport(newTestClient(t), nil, WithMaxWait(maxWait))
	ctx := context.Background()
	for i, tc := range []struct {
		name string
		late time.Duration // past the bound, when the recheck ends
		sent bool
	}{
		{"within the margin", deadlineMargin / 5, true},
		{"past the margin", deadlineMargin + 10*time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for attempt := 0; ; attempt++ {
				authority := fmt.Sprintf("a%d-%d.test:80", i, attempt)
				tu, _, err := tr.awaitTurn(ctx, authority, interval, turn{}, time.Now(), false, nil)
				if err != nil {
					t.Fatal(err)
				}
				tr.done(ctx, tu, 0)
				start := time.Now().Add(2*interval - maxWait) // the turn, an interval away, comes within the wait
				turnBy := start.Add(maxWait)
				var woke time.Time
				recheck := func() (time.Duration, error) {
					time.Sleep(time.Until(turnBy.Add(tc.late)))
					woke = time.Now()
					return interval, nil
				}
				tu, _, err = tr.awaitTurn(ctx, authority, interval, turn{}, start, false, recheck)
				if tc.sent && woke.After(turnBy.Add(deadlineMargin*4/5)) && attempt < 5 {
					tr.done(ctx, tu, 0)
					continue // the machine was slower than the margin: no verdict
				}
				var pe *PacedError
				switch {
				case woke.IsZero():
					t.Fatalf("the request was not woken for its turn: %v", err)
				case tc.sent && err != nil:
					t.Errorf("woken %v past the longest wait: %v", woke.Sub(turnBy).Round(time.Millisecond), err)
				case !tc.sent && !errors.As(err, &pe):
					t.Errorf("woken %v past the longest wait: err = %v, want a *PacedError", woke.Sub(turnBy).Round(time.Millisecond), err)
				}
				tr.done(ctx, tu, 0)
				return
			}
		})
	}
}

// TestTransportsShareClientPacer checks that two Transports made for one
// Client keep a Crawl-delay between them, and that WithPacer still gives a
// Transport its own.
func TestTransportsShareClientPacer(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 0.2\n")
	c := newTestClient(t, WithUserAgent(testUA))
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	one, two := NewTransport(c, next), NewTransport(c, next)
	own := newMemPacer()
	if mine := NewTransport(c, next, WithPacer(own)); mine.cfg.pacer != own || one.cfg.pacer != two.cfg.pacer {
		t.Errorf("pacers: %p, %p, WithPacer %p; want the first two shared, the third its own", one.cfg.pacer, two.cfg.pacer, own)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		tr := []*Transport{one, two}[i%2]
		wg.Go(func() {
			if _, err := get(context.Background(), &http.Client{Transport: tr}, fmt.Sprintf("%s/p%d.html", s.URL, i)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	var pages []time.Time
	for i := range 4 {
		pages = append(pages, s.times(fmt.Sprintf("/p%d.html", i))...)
	}
	if len(pages) != 4 {
		t.Fatalf("%d pages reached the server, want 4", len(pages))
	}
	checkSpacing(t, "two Transports, Crawl-delay: 0.2", pages, 200*time.Millisecond)
}

// frontierItem is a URL a test crawler has yet to fetch, not before at.
type frontierItem struct {
	url string
	at  time.Time
}

// TestTransportNoWaitPool has 8 workers crawl three loopback sites through
// one WithNoWait Transport, putting back every URL refused with a
// PacedError for its RetryAt. The site with Crawl-delay: 1 must not hold
// up the others: every page of the fast sites is done before the slow
// site's second page could be sent, and no worker ever waits in RoundTrip.
func TestTransportNoWaitPool(t *testing.T) {
	checkLeaks(t)
	slow := newTestSite(t, "User-agent: *\nCrawl-delay: 1\n")
	fast := []*testSite{newTestSite(t, "User-agent: *\nAllow: /\n"), newTestSite(t, "")}
	_, tr, hc := newTestTransport(t, WithNoWait())

	var (
		mu       sync.Mutex
		queue    []frontierItem
		pending  int         // URLs queued or being fetched
		fastDone []time.Time // when each fast page was done
		slowDone int
	)
	for i := range 3 {
		queue = append(queue, frontierItem{url: fmt.Sprintf("%s/s%d.html", slow.URL, i)})
	}
	for i := range 12 {
		for _, f := range fast {
			queue = append(queue, frontierItem{url: fmt.Sprintf("%s/f%d.html", f.URL, i)})
		}
	}
	pending = len(queue)
	// next takes the first URL that is due, or says how long to wait.
	next := func() (it frontierItem, wait time.Duration, ok bool) {
		mu.Lock()
		defer mu.Unlock()
		if pending == 0 {
			return it, 0, false
		}
		for i, q := range queue {
			if !time.Now().Before(q.at) {
				queue = slices.Delete(queue, i, i+1)
				return q, 0, true
			}
		}
		return it, 5 * time.Millisecond, true
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for ctx.Err() == nil {
				it, wait, ok := next()
				if !ok {
					return
				}
				if wait > 0 {
					time.Sleep(wait)
					continue
				}
				_, err := get(ctx, hc, it.url)
				mu.Lock()
				var pe *PacedError
				switch {
				case errors.As(err, &pe):
					queue = append(queue, frontierItem{url: it.url, at: pe.RetryAt})
					mu.Unlock()
					continue
				case err != nil:
					t.Error(err)
				case strings.HasPrefix(it.url, slow.URL):
					slowDone++
				default:
					fastDone = append(fastDone, time.Now())
				}
				pending--
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatal("the crawl did not finish")
	}
	if slowDone != 3 || len(fastDone) != 24 {
		t.Fatalf("done %d slow and %d fast pages, want 3 and 24", slowDone, len(fastDone))
	}
	var slowPages []time.Time
	for i := range 3 {
		slowPages = append(slowPages, slow.times(fmt.Sprintf("/s%d.html", i))...)
	}
	slices.SortFunc(slowPages, time.Time.Compare)
	checkSpacing(t, "Crawl-delay: 1", slowPages, time.Second)
	if last := slices.MaxFunc(fastDone, time.Time.Compare); !last.Before(slowPages[1]) {
		t.Errorf("the last fast page was done %v after the slow site's second page was sent", last.Sub(slowPages[1]))
	}
	st := tr.Stats()
	if st.Sent != 27 || st.Waited != 0 || st.Paced == 0 {
		t.Errorf("Stats = %+v, want 27 sent, some paced, no wait", st)
	}
}

// TestTransportNoWaitSpreadsRetries: the requests refused at one site are
// told successive turns, each at least the interval after the one told
// before, the first the earliest the turn may come; so a frontier that
// puts them back until their RetryAt does not bring them back at once,
// whichever of the Client's Transports refused them. Another site's
// refusals are told their own site's turns.
func TestTransportNoWaitSpreadsRetries(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 60\n")
	other := newTestSite(t, "User-agent: *\nCrawl-delay: 10\n")
	c, _, hc := newTestTransport(t, WithNoWait())
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	hc2 := &http.Client{Transport: NewTransport(c, next, WithNoWait())}
	ctx := context.Background()
	for _, site := range []*testSite{s, other} {
		if _, err := get(ctx, hc, site.URL+"/first"); err != nil {
			t.Fatal(err)
		}
	}
	asked := 0
	retryAt := func(u string) time.Time {
		t.Helper()
		var pe *PacedError
		asked++
		if _, err := get(ctx, []*http.Client{hc, hc2}[asked%2], u); !errors.As(err, &pe) {
			t.Fatalf("%s: %v, want a PacedError", u, err)
		}
		return pe.RetryAt
	}
	var told []time.Time
	for i := range 5 {
		told = append(told, retryAt(fmt.Sprintf("%s/p%d", s.URL, i)))
		if i == 2 {
			if d := time.Until(retryAt(other.URL + "/x")); d > 10*time.Second {
				t.Errorf("another site's first refusal is told to come back in %v, want its own 10 s", d)
			}
		}
	}
	if d := time.Until(told[0]); d < 59*time.Second || d > 60*time.Second {
		t.Errorf("the first refused comes back in %v, want about 60 s", d)
	}
	for i := 1; i < len(told); i++ {
		if gap := told[i].Sub(told[i-1]); gap < 60*time.Second || gap > 70*time.Second {
			t.Errorf("refusal %d is told %v after refusal %d, want a turn: 60 s and a little", i, gap, i-1)
		}
	}
	if got := s.got(); len(got) != 2 {
		t.Errorf("the server saw %q, want robots.txt and the first page", got)
	}
}

// TestRetryQueueBoundedMemory: a retryQueue keeps an authority only while
// turns told to it, or its next turn, are yet to come, or for a turn's
// lease after its last request, whose duration a hold met elsewhere
// needs: however many sites come meanwhile.
func TestRetryQueueBoundedMemory(t *testing.T) {
	var q retryQueue
	const n = 100_000
	for i := range n {
		authority := fmt.Sprintf("https://h%d.example:443", i)
		if i%3 != 0 {
			q.retryAt(authority, time.Microsecond, time.Now())
		}
		if i%3 != 1 {
			q.ran(authority, time.Microsecond, 0, time.Microsecond, false)
		}
	}
	for a, e := range q.m { // a lease later
		e.keep = e.keep.Add(-pacing.TurnTimeout)
		q.m[a] = e
	}
	for i := range n {
		q.retryAt(fmt.Sprintf("https://later%d.example:443", i), time.Microsecond, time.Now())
	}
	if got, limit := len(q.m), n/4; got > limit {
		t.Errorf("the queue keeps %d of %d authorities after their turns, want <= %d", got, 2*n, limit)
	}
	q.retryAt("https://busy.example:443", time.Hour, time.Now())
	q.ran("https://busy.example:443", time.Hour, 0, time.Second, false)
	if e, ok := q.m[paceKey("https://busy.example:443")]; !ok || e.took != time.Second {
		t.Errorf("an authority with a turn to come: %+v, %v; want it kept with the request's duration", e, ok)
	}
	// So is a site with no interval held by a Retry-After, and one with
	// none held, by a hold another process met: its refusals were all
	// told the hold's end.
	for _, hold := range []time.Duration{time.Minute, 0} {
		held := fmt.Sprintf("https://held%v.example:443", hold)
		q.ran(held, 0, hold, 300*time.Millisecond, false)
		for i := range n {
			q.ran(fmt.Sprintf("https://other%d.example:443", i), time.Microsecond, 0, time.Microsecond, false)
		}
		end := time.Now().Add(2 * time.Minute)
		first := q.retryAt(held, 0, end)
		if gap := q.retryAt(held, 0, end).Sub(first); gap < 300*time.Millisecond {
			t.Errorf("a site held %v here: refusals told %v apart after other sites came, want its request's 300ms", hold, gap)
		}
	}
}

// TestTransportNoWaitRetriesCountTheLastRequest: the first refusals after
// a request are told turns that last the interval and that request's
// duration, as PacedError.RetryAt says, not the interval alone; so too at
// a site with no Crawl-delay held by a 503's Retry-After, whose refusals
// were all told the hold's end, and a frontier sent them back at once to
// a server that had just said it was overloaded; and so too when another
// Client sharing the Pacer (a process of a fleet) met that 503: the
// request this one sent there before was not timed, having no interval.
func TestTransportNoWaitRetriesCountTheLastRequest(t *testing.T) {
	checkLeaks(t)
	const latency = 300 * time.Millisecond
	slow := func(w http.ResponseWriter, r *http.Request) { time.Sleep(latency) }
	busy := func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(latency)
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	for _, tc := range []struct {
		robots    string
		first     http.HandlerFunc
		elsewhere http.HandlerFunc // then asked by another Client through the same Pacer
		gap       time.Duration    // the least between two turns told
	}{
		{"User-agent: *\nCrawl-delay: 1\n", slow, nil, time.Second + latency},
		{"User-agent: *\nDisallow: /private\n", busy, nil, latency},
		{"User-agent: *\nDisallow: /private\n", slow, busy, latency},
	} {
		s := newTestSite(t, tc.robots)
		s.route("/first", tc.first)
		p := newMemPacer()
		_, _, hc := newTestTransport(t, WithNoWait(), WithPacer(p))
		ctx := context.Background()
		if _, err := get(ctx, hc, s.URL+"/first"); err != nil {
			t.Fatal(err)
		}
		if tc.elsewhere != nil {
			s.route("/elsewhere", tc.elsewhere)
			_, _, other := newTestTransport(t, WithNoWait(), WithPacer(p))
			if _, err := get(ctx, other, s.URL+"/elsewhere"); err != nil {
				t.Fatal(err)
			}
		}
		var told []time.Time
		for i := range 3 {
			var pe *PacedError
			if _, err := get(ctx, hc, fmt.Sprintf("%s/p%d", s.URL, i)); !errors.As(err, &pe) {
				t.Fatalf("%q, p%d: %v, want a PacedError", tc.robots, i, err)
			}
			told = append(told, pe.RetryAt)
		}
		for i := 1; i < len(told); i++ {
			if gap := told[i].Sub(told[i-1]); gap < tc.gap {
				t.Errorf("%q, held elsewhere %v: refusal %d is told %v after refusal %d, want a turn: at least %v",
					tc.robots, tc.elsewhere != nil, i, gap, i-1, tc.gap)
			}
		}
	}
}

// TestTransportNoWaitRetriesCountARequestInFlight: refusals met while a
// site's next request is in flight, its interval past, are told turns of
// the interval and the last request's duration, as PacedError.RetryAt
// says, however many other paced sites the crawler met meanwhile: the
// queue's sweep dropped the site, and the duration with it, after some 64
// (the turns told were 1.125s apart at a site answering in 300ms).
func TestTransportNoWaitRetriesCountARequestInFlight(t *testing.T) {
	checkLeaks(t)
	const latency = 300 * time.Millisecond
	robots := map[string]string{"slow.test": "User-agent: *\nCrawl-delay: 1\n"}
	for i := range 70 {
		robots[fmt.Sprintf("o%d.test", i)] = "User-agent: *\nCrawl-delay: 5\n"
	}
	v := newVhosts(t, robots)
	v.route("slow.test/r1", func(w http.ResponseWriter, r *http.Request) { time.Sleep(latency) })
	release := make(chan struct{})
	v.route("slow.test/r2", func(w http.ResponseWriter, r *http.Request) {
		select { // in flight until the refusals are told
		case <-release:
		case <-r.Context().Done():
		}
	})
	tr := v.transport(t)
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: tr}))
	hc := &http.Client{Transport: NewTransport(c, tr, WithNoWait())}
	ctx := context.Background()
	if _, err := get(ctx, hc, "http://slow.test/r1"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second + 100*time.Millisecond) // r1's turn has passed
	r2 := make(chan error, 1)
	go func() { _, err := get(ctx, hc, "http://slow.test/r2"); r2 <- err }()
	defer func() {
		close(release)
		if err := <-r2; err != nil {
			t.Errorf("r2: %v", err)
		}
	}()
	for deadline := time.Now().Add(5 * time.Second); !slices.Contains(v.requests(), "slow.test/r2"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("r2 never reached the server")
		}
	}
	for i := range 70 {
		if _, err := get(ctx, hc, fmt.Sprintf("http://o%d.test/p", i)); err != nil {
			t.Fatal(err)
		}
	}
	var told []time.Time
	for i := range 3 {
		var pe *PacedError
		if _, err := get(ctx, hc, fmt.Sprintf("http://slow.test/p%d", i)); !errors.As(err, &pe) {
			t.Fatalf("p%d: %v, want a PacedError (r2 is in flight)", i, err)
		}
		told = append(told, pe.RetryAt)
	}
	for i := 1; i < len(told); i++ {
		if gap := told[i].Sub(told[i-1]); gap < time.Second+latency {
			t.Errorf("refusal %d is told %v after refusal %d, want a turn: at least %v", i, gap, i-1, time.Second+latency)
		}
	}
}

// TestTransportCloseEndsWait: a request waiting for its turn when the
// Client is closed returns ErrClosed, unsent.
func TestTransportCloseEndsWait(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nCrawl-delay: 60\n")
	c, _, hc := newTestTransport(t)
	if _, err := get(context.Background(), hc, s.URL+"/a"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := get(context.Background(), hc, s.URL+"/b"); done <- err }()
	time.Sleep(50 * time.Millisecond) // most often Close comes during the wait
	_ = c.Close()
	if err := <-done; !errors.Is(err, ErrClosed) {
		t.Errorf("a request waiting for its turn when the Client closed: %v, want ErrClosed", err)
	}
	if got := s.got(); len(got) != 2 {
		t.Errorf("the server saw %q, want robots.txt and the first page", got)
	}
}

// TestRetryQueueTookBounded: a request whose body took an hour to read
// has the refused told turns of its interval and a turn's lease at most,
// which is as long as it held the site.
func TestRetryQueueTookBounded(t *testing.T) {
	var q retryQueue
	q.ran("a", time.Second, 0, time.Hour, false)
	first := q.retryAt("a", time.Second, time.Now())
	second := q.retryAt("a", time.Second, time.Now())
	if gap := second.Sub(first); gap > 2*(time.Second+pacing.TurnTimeout) {
		t.Errorf("turns told %v apart after a request of an hour, want at most a lease's", gap)
	}
}

// TestRetryQueueRedirectTurns: after a redirect within the site, the
// turns told last its page's two, also under a Crawl-delay longer than a
// turn's lease (a cap on the sum cut them to less); not after an unpaced
// hop, whose page's turn was not this interval's.
func TestRetryQueueRedirectTurns(t *testing.T) {
	const iv = time.Minute
	var q retryQueue
	q.ran("a", iv, 0, time.Second, false) // the page's first request
	q.ran("a", iv, 0, time.Second, true)  // the redirect it answered
	first := q.retryAt("a", iv, time.Now())
	if gap := q.retryAt("a", iv, time.Now()).Sub(first); gap < 2*iv {
		t.Errorf("turns told %v apart after a redirect, want a page's two turns, %v and more", gap, 2*iv)
	}
	var unpaced retryQueue
	unpaced.ran("b", 0, time.Minute, time.Hour, false) // a hold's
	unpaced.ran("b", 0, 0, time.Second, true)
	first = unpaced.retryAt("b", time.Second, time.Now())
	if gap := unpaced.retryAt("b", time.Second, time.Now()).Sub(first); gap > 3*time.Second {
		t.Errorf("turns told %v apart after an unpaced hop, want about a second's", gap)
	}
}

// TestTransportLoweredCrawlDelay: once a site drops its Crawl-delay, its
// old pace ends when it has passed since the last page: the next pages
// go unpaced (each was paced at the old Crawl-delay, for ever, while the
// pacer kept the site's state).
func TestTransportLoweredCrawlDelay(t *testing.T) {
	checkLeaks(t)
	var robots atomic.Value
	robots.Store("User-agent: *\nCrawl-delay: 0.2\n")
	s := newTestSite(t, "")
	s.route("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=0")
		_, _ = io.WriteString(w, robots.Load().(string))
	})
	c := newTestClient(t, WithUserAgent(testUA), WithMinFreshness(0))
	next := &http.Transport{}
	t.Cleanup(next.CloseIdleConnections)
	tr := NewTransport(c, next, WithNoWait())
	hc := &http.Client{Transport: tr}
	ctx := context.Background()
	if _, err := get(ctx, hc, s.URL+"/a"); err != nil {
		t.Fatal(err)
	}
	robots.Store("User-agent: *\nAllow: /\n")
	time.Sleep(300 * time.Millisecond) // the old pace has passed
	for i := range 5 {
		if _, err := get(ctx, hc, fmt.Sprintf("%s/p%d", s.URL, i)); err != nil {
			t.Fatalf("page %d, the Crawl-delay gone: %v", i, err)
		}
	}
}

// TestTransportHeldCountsHolds: a wait a Pacer rounds up to its unit
// (redisstore's microseconds) is no hold; a wait past the interval by
// more is.
func TestTransportHeldCountsHolds(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	for _, tc := range []struct {
		name string
		wait func(time.Duration) time.Duration
		held int64
	}{
		{"rounded to a microsecond", func(iv time.Duration) time.Duration { return iv.Truncate(time.Microsecond) + time.Microsecond }, 0},
		{"held", func(iv time.Duration) time.Duration { return iv + 50*time.Millisecond }, 1},
	} {
		p := &waitOncePacer{wait: tc.wait, asked: map[string]bool{}}
		_, tr, hc := newTestTransport(t, WithPacer(p), WithDefaultInterval(time.Second/30))
		if _, err := get(context.Background(), hc, s.URL+"/a"); err != nil {
			t.Fatal(err)
		}
		if st := tr.Stats(); st.Held != tc.held {
			t.Errorf("%s: Held = %d, want %d (%+v)", tc.name, st.Held, tc.held, st)
		}
	}
}

// TestTransportRetryAtWithinPacerBound: an interval bound past the 24
// hours a Pacer keeps tells no RetryAt past them.
func TestTransportRetryAtWithinPacerBound(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	_, _, hc := newTestTransport(t, WithNoWait(), WithIntervalBounds(48*time.Hour, 48*time.Hour))
	if _, err := get(context.Background(), hc, s.URL+"/a"); err != nil {
		t.Fatal(err)
	}
	_, err := get(context.Background(), hc, s.URL+"/b")
	var pe *PacedError
	if !errors.As(err, &pe) {
		t.Fatalf("a second request within the interval: %v, want a PacedError", err)
	}
	if late := time.Now().Add(25 * time.Hour); pe.RetryAt.After(late) {
		t.Errorf("RetryAt in %v, want within the 24 hours a Pacer keeps", time.Until(pe.RetryAt).Round(time.Hour))
	}
}

// TestTransportRetryAtWithinPacerBoundForHolds: a hold bound
// (WithMaxHold) past the 24 hours a Pacer keeps tells no RetryAt past
// them, as TestTransportRetryAtWithinPacerBound asks of intervals: the
// Pacer gives the turn after 24 hours, so a RetryAt 48 hours out would keep
// a crawler away a day longer than the Pacer does.
func TestTransportRetryAtWithinPacerBoundForHolds(t *testing.T) {
	checkLeaks(t)
	s := newTestSite(t, "User-agent: *\nAllow: /\n")
	s.route("/busy", serve(503, "", "Retry-After", "172800")) // 48 hours
	_, _, hc := newTestTransport(t, WithNoWait(), WithMaxHold(48*time.Hour))
	if _, err := get(context.Background(), hc, s.URL+"/busy"); err != nil {
		t.Fatal(err)
	}
	_, err := get(context.Background(), hc, s.URL+"/b")
	var pe *PacedError
	if !errors.As(err, &pe) {
		t.Fatalf("a request within the hold: %v, want a PacedError", err)
	}
	if late := time.Now().Add(25 * time.Hour); pe.RetryAt.After(late) {
		t.Errorf("RetryAt in %v, want within the 24 hours a Pacer keeps", time.Until(pe.RetryAt).Round(time.Hour))
	}
}

// TestTransportRefusedPairGivesBackItsTurn: a request that takes two
// turns (its Host names its URL's host at another port) and is refused
// the second sends nothing, so the first goes back to the in-process
// pacer untaken: the site it would have reached is not held a
// Crawl-delay for it.
func TestTransportRefusedPairGivesBackItsTurn(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	w.on("a.test/robots.txt", serve(200, "User-agent: *\nCrawl-delay: 3\n"))
	for _, p := range []string{"/b1", "/x", "/a1"} {
		w.on("a.test"+p, serve(200, "page", "Content-Type", "text/plain"))
	}
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA)}, WithNoWait())
	t.Cleanup(func() { _ = c.Close() })
	hc := &http.Client{Transport: tr}
	get := func(rawURL, host string) error {
		req, err := http.NewRequest(http.MethodGet, rawURL, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		resp, err := hc.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
		return err
	}
	if err := get("http://a.test:8080/b1", ""); err != nil {
		t.Fatal(err)
	}
	if err := get("http://a.test:8080/x", "a.test"); !errors.Is(err, ErrPaced) {
		t.Fatalf("a request of both a.test:8080 and a.test, after a page of the first: %v, want ErrPaced", err)
	}
	if err := get("http://a.test/a1", ""); err != nil {
		t.Errorf("a.test's first page, after a refused request sent nothing there: %v", err)
	}
}

// TestTransportRecheckGivesBackItsTurn: a request that waited for its
// turn and is then refused by the robots.txt fetched meanwhile sends
// nothing, so its turn goes back untaken: the next request to the site
// need not wait a Crawl-delay for it.
func TestTransportRecheckGivesBackItsTurn(t *testing.T) {
	checkLeaks(t)
	w := newHosts(t)
	var fetched atomic.Int32
	w.on("a.test/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Cache-Control", "max-age=1")
		if fetched.Add(1) == 1 {
			_, _ = io.WriteString(rw, "User-agent: *\nCrawl-delay: 2\nAllow: /\n")
			return
		}
		_, _ = io.WriteString(rw, "User-agent: *\nCrawl-delay: 2\nDisallow: /y\n")
	})
	for _, p := range []string{"/x", "/y", "/z"} {
		w.on("a.test"+p, serve(200, "page", "Content-Type", "text/plain"))
	}
	c, tr := NewClientTransport(w.transport(t), []Option{WithUserAgent(testUA), WithMinFreshness(0)})
	t.Cleanup(func() { _ = c.Close() })
	get := func(hc *http.Client, u string) error {
		resp, err := hc.Get(u)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
		return err
	}
	hc := &http.Client{Transport: tr}
	if err := get(hc, "http://a.test/x"); err != nil {
		t.Fatal(err)
	}
	refreshed := make(chan struct{})
	go func() { // while /y waits, a check once the copy expired fetches the new one
		defer close(refreshed)
		time.Sleep(1200 * time.Millisecond)
		_, _ = c.Check(context.Background(), "http://a.test/q")
	}()
	defer func() { <-refreshed }()
	if err := get(hc, "http://a.test/y"); !errors.Is(err, ErrDisallowed) {
		t.Fatalf("/y, after its wait, under the new robots.txt: %v, want ErrDisallowed", err)
	}
	noWait := &http.Client{Transport: NewTransport(c, w.transport(t), WithNoWait())}
	if err := get(noWait, "http://a.test/z"); err != nil {
		t.Errorf("/z, after /y sent nothing: %v", err)
	}
}

// downAt is a Pacer that is not the in-process one (as a Store's is not)
// whose Take fails at the authorities down reports, as a Redis Cluster
// node holding one site's pacing state fails while another's answers.
type downAt struct {
	Pacer
	down func(authority string) bool
}

func (p downAt) Take(ctx context.Context, authority string, interval time.Duration) (uint64, time.Duration, error) {
	if p.down(authority) {
		return 0, 0, errors.New("test: pacer state unreachable")
	}
	return p.Pacer.Take(ctx, authority, interval)
}

// TestTransportSecondTurnHoldUnknownFailsClosed: as
// TestTransportSecondTurnSeesHold, under a Pacer other than the
// in-process one (a redisstore Store's), which fails once a.test:80's
// robots.txt has set a 4 s Retry-After hold there: heldSince's Take at
// a.test:80 cannot tell whether a hold began while the request waited
// for a.test:8080's turn. An error of Take means the request is not sent
// (Pacer doc: a Pacer that cannot reach its state fails closed); the
// request must not reach a.test:80 inside the hold.
func TestTransportSecondTurnHoldUnknownFailsClosed(t *testing.T) {
	checkLeaks(t)
	const hold = 4 * time.Second
	w, held, arrived := secondTurnSite(t, hold) // and a.test:80's pacing state unreachable, once downNow is set
	var downNow atomic.Bool
	pacer := downAt{Pacer: newMemPacer(), down: func(a string) bool { return a == "http://a.test:80" && downNow.Load() }}
	c := newTestClient(t, WithHTTPClient(&http.Client{Transport: w.transport(t)}))
	hc := &http.Client{Transport: NewTransport(c, w.transport(t), WithPacer(pacer))}
	if err := getHost(hc, "http://a.test:8080/q", ""); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- getHost(hc, "http://a.test:8080/r", "a.test") }()
	time.Sleep(300 * time.Millisecond) // /r holds a.test:80's turn, waits for a.test:8080's
	held.Store(true)
	downNow.Store(true)
	forget(c, "http://a.test/")
	if _, err := c.Check(context.Background(), "http://a.test/s"); !errors.Is(err, ErrDeferred) {
		t.Fatalf("a.test:80's robots.txt answering 503: %v, want ErrDeferred", err)
	}
	holdEnd := time.Now().Add(hold)
	err := <-done
	if at, sent := arrived("a.test/r"); sent && at.Before(holdEnd) {
		t.Errorf("/r (Host a.test) reached a.test:80 %v before the end of its Retry-After hold, the Pacer failing there (err %v)",
			holdEnd.Sub(at).Round(time.Millisecond), err)
	}
}

// TestPaceKey: a site's http, https and www. twin share a key, which is a
// part of the authority, allocating nothing; another port, or another
// host, has its own.
func TestPaceKey(t *testing.T) {
	for _, tc := range []struct{ authority, key string }{
		{"http://a.test:80", "a.test:"},
		{"https://a.test:443", "a.test:"},
		{"https://www.a.test:443", "a.test:"},
		{"http://www.a.test:80", "a.test:"},
		{"http://a.test:8080", "a.test:8080"},
		{"https://www.a.test:8080", "a.test:8080"},
		{"http://a.test:443", "a.test:443"},
		{"https://a.test:80", "a.test:80"},
		{"http://[::1]:80", "[::1]:"},
		{"http://wwwa.test:80", "wwwa.test:"},
	} {
		if got := paceKey(tc.authority); got != tc.key {
			t.Errorf("paceKey(%q) = %q, want %q", tc.authority, got, tc.key)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = paceKey("https://www.a.test:443") }); n != 0 {
		t.Errorf("paceKey allocates %v times", n)
	}
}
