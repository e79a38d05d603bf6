package redisstore

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/crawltest"
	"github.com/robotsgate/robotstxt/internal/longtest"
	"github.com/robotsgate/robotstxt/internal/redistest"
	"github.com/robotsgate/robotstxt/internal/target"
)

const (
	// failoverNodeTimeout is the cluster-node-timeout of the failover
	// test's cluster: a replica is promoted about 2–3 s after its master
	// dies. Shorter would risk a loaded CI machine failing over a node
	// that was only slow.
	failoverNodeTimeout = time.Second
	// resumeBound is how soon after the promotion every process of the
	// fleet must share fetches and pace through the new master again. The
	// Store notices within reloadEvery of its next call; the rest is
	// margin for a loaded machine.
	resumeBound = 2 * time.Second
	// failoverInterval is the spacing the fleet keeps between requests
	// to one authority (the Transport's default interval; the sites give
	// no crawl-delay).
	failoverInterval = 100 * time.Millisecond
	// sendLimit bounds how long a helper keeps retrying a paced request
	// that its Store could not pace.
	sendLimit = 20 * time.Second
)

// A roundReport is what a cluster helper process answers for a round
// (every probe of each host checked, and a paced request to each sent or
// held back), and at its end.
type roundReport struct {
	Checks      int        `json:"checks"`
	Wrong       []string   `json:"wrong"`    // wrong answers and failed checks
	Deferred    []deferral `json:"deferred"` // paced requests held back, sent since the last report
	Unsent      []string   `json:"unsent"`   // paced requests never sent within sendLimit
	StoreErrors uint64     `json:"store_errors"`
}

// A deferral is a paced request whose Take failed: it was not sent from
// From, when it first failed, until To, when its response came.
type deferral struct {
	Host string    `json:"host"`
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
	Err  string    `json:"err"` // the first failure
}

// TestFleetClusterFailover: three crawler processes share a Redis Cluster
// of three masters with a replica each, on loopback, and check new sites
// round after round; each round one site lives on the victim master's
// slots and one elsewhere. The victim is killed with SIGKILL in the
// middle of a round. Throughout, every check is answered right, every
// site elsewhere is fetched once for the whole fleet, and no paced
// request to it is held up; a paced request to the victim's site is held
// back (never sent unpaced) only between the kill and resumeBound after
// its replica's promotion. Before the kill and from resumeBound after the
// promotion every site is fetched once, and all along requests to one
// site reach it at least failoverInterval apart. Then a new fleet of
// three processes, with the dead master still in their seed list, shares
// and paces from its first request.
func TestFleetClusterFailover(t *testing.T) {
	longtest.Gate(t)
	cl := redistest.StartCluster(t, 3, 1, failoverNodeTimeout,
		// The other masters keep serving their slots while one is down.
		"--cluster-require-full-coverage", "no")
	w := newWeb(t, crawltest.WithDelay(50*time.Millisecond)) // long enough for the others to wait on the lease
	slotOf := func(host string) int {
		a, _, err := target.Split("http://"+host+"/", nil)
		if err != nil {
			t.Fatal(err)
		}
		return cl.KeySlot(defaultPrefix + "{" + string(a) + "}")
	}
	victimSlot := slotOf("failover0.test")
	victim := cl.MasterOf(victimSlot)
	ranges := cl.SlotRanges(victim)
	onVictim := func(slot int) bool {
		return slices.ContainsFunc(ranges, func(r [2]int) bool { return r[0] <= slot && slot <= r[1] })
	}
	f := &failoverRun{t: t, web: w, killRound: math.MaxInt, onTheVictim: func(host string) (on, off bool) {
		// Its entry's slot, and its pacing key's: host and the empty
		// default port, as a Transport paces http://host (see
		// robotstxt.Pacer).
		entry, pace := onVictim(slotOf(host)), onVictim(cl.KeySlot(defaultPrefix+"{"+host+":}:pace"))
		return entry && pace, !entry && !pace
	}}
	env := []string{envHelper + "=cluster", envRedis + "=" + strings.Join(cl.Addrs(), ","),
		envWeb + "=" + w.Addr()}
	f.startFleet(env)
	for range 3 {
		f.round()
	}

	f.killRound = f.next
	killed, promoted := make(chan time.Time, 1), make(chan time.Time, 1)
	go func() {
		time.Sleep(failoverInterval) // mid-round: the fleet is checking and sending
		killed <- time.Now()
		cl.Kill(victim)
		for giveUp := time.Now().Add(time.Minute); time.Now().Before(giveUp); time.Sleep(20 * time.Millisecond) {
			if _, err := cl.NewMaster(context.Background(), victimSlot, victim); err == nil {
				promoted <- time.Now()
				return
			}
		}
		close(promoted)
	}()
	f.round()
	f.killedAt = <-killed
	for f.promotedAt.IsZero() || time.Since(f.promotedAt) < resumeBound {
		select {
		case at, ok := <-promoted:
			if !ok {
				t.Fatalf("no replica of %s promoted within a minute", victim)
			}
			f.promotedAt = at
		default:
		}
		f.round()
	}
	for range 8 {
		f.round()
	}
	f.stopFleet()
	f.startFleet(env) // a new fleet, with the dead master among its seeds
	for range 4 {
		f.round()
	}
	f.stopFleet()

	f.checkFetches()
	f.checkDeferrals()
	for i := range f.next {
		for _, h := range []string{f.onVictim[i], f.elsewhere[i]} {
			if i == f.killRound && h == f.onVictim[i] {
				continue // a turn taken on the victim just before it died may be lost with it
			}
			at := w.PageArrivals(h)
			for j := 1; j < len(at); j++ {
				if gap := at[j].Sub(at[j-1]); gap < failoverInterval {
					t.Errorf("round %d, %s: requests %d and %d reached it %v apart, want >= %v", i, h, j-1, j, gap, failoverInterval)
				}
			}
		}
	}
}

// A failoverRun drives the fleet of TestFleetClusterFailover through its
// rounds and keeps what they reported.
type failoverRun struct {
	t                   *testing.T
	web                 *crawltest.Web
	onTheVictim         func(host string) (on, off bool) // all of a site's keys on the victim's slots, or none
	onVictim, elsewhere []string                         // sites on the victim's slots and elsewhere, one of each per round
	tried               int                              // sites named so far
	fleet               []*crawltest.Child
	next                int         // the next round
	started             []time.Time // when each round began
	killRound           int         // the round the victim was killed in
	killedAt            time.Time
	promotedAt          time.Time
	deferred            []deferral
}

func (f *failoverRun) startFleet(env []string) {
	f.t.Helper()
	f.fleet = nil
	for range 3 {
		f.fleet = append(f.fleet, crawltest.StartChild(f.t, "TestClusterHelperProcess", env...))
	}
	for _, c := range f.fleet {
		c.WaitFor(f.t, "READY")
	}
}

// stopFleet ends the fleet's processes once they have sent the requests
// they held back.
func (f *failoverRun) stopFleet() {
	f.t.Helper()
	for _, c := range f.fleet {
		c.CloseStdin()
	}
	for i, c := range f.fleet {
		f.report(i, "FINAL ", "at the end")
		c.Finish(f.t)
	}
}

// round has every process check the next pair of sites and send a paced
// request to each, and waits until each process has sent its requests or
// seen one held back.
func (f *failoverRun) round() {
	f.t.Helper()
	r := f.next
	f.next++
	for len(f.onVictim) <= r || len(f.elsewhere) <= r {
		h := crawltest.Host("failover", f.tried)
		f.tried++
		switch on, off := f.onTheVictim(h); {
		case on:
			f.onVictim = append(f.onVictim, h)
		case off:
			f.elsewhere = append(f.elsewhere, h)
		}
	}
	if r > 0 { // rounds begin at least an interval apart
		time.Sleep(failoverInterval - time.Since(f.started[r-1]))
	}
	f.started = append(f.started, time.Now())
	for _, c := range f.fleet {
		c.Send(f.t, "ROUND "+f.onVictim[r]+","+f.elsewhere[r])
	}
	for i := range f.fleet {
		rep := f.report(i, "DONE ", fmt.Sprintf("round %d", r))
		if rep.StoreErrors > 0 && (r < f.killRound || f.sharedAfter(r)) {
			f.t.Errorf("round %d, process %d: %d Store errors, want none", r, i, rep.StoreErrors)
		}
	}
}

// report reads process i's next report, which follows prefix, and keeps
// the requests it held back.
func (f *failoverRun) report(i int, prefix, when string) roundReport {
	f.t.Helper()
	var rep roundReport
	f.fleet[i].Reply(f.t, prefix, &rep)
	if len(rep.Wrong) > 0 || len(rep.Unsent) > 0 {
		f.t.Errorf("%s, process %d: wrong answers or failed checks %q; requests never sent %q", when, i, rep.Wrong, rep.Unsent)
	}
	f.deferred = append(f.deferred, rep.Deferred...)
	return rep
}

// sharedAfter reports whether round r began resumeBound or more after
// the promotion.
func (f *failoverRun) sharedAfter(r int) bool {
	return !f.promotedAt.IsZero() && f.started[r].Sub(f.promotedAt) >= resumeBound
}

// checkFetches checks that every site elsewhere, and every site on the
// victim's slots whose round began before the kill or resumeBound after
// the promotion, was fetched once for the fleet.
func (f *failoverRun) checkFetches() {
	t := f.t
	t.Helper()
	var resumed time.Duration = -1
	var during, fetches int
	for r := range f.next {
		if n := f.web.Fetches(f.elsewhere[r]); n != 1 {
			t.Errorf("round %d: %s, on a live master, fetched %d times, want once for the fleet", r, f.elsewhere[r], n)
		}
		n := f.web.Fetches(f.onVictim[r])
		switch {
		case r < f.killRound || f.sharedAfter(r):
			if n != 1 {
				t.Errorf("round %d: %s fetched %d times, want once for the fleet", r, f.onVictim[r], n)
			}
		case n < 1 || n > len(f.fleet):
			t.Errorf("round %d, during the failover: %s fetched %d times, want 1 to %d", r, f.onVictim[r], n, len(f.fleet))
		default:
			during++
			fetches += n
		}
		if after := f.started[r].Sub(f.promotedAt); resumed < 0 && after > 0 && n == 1 {
			resumed = after
		}
	}
	t.Logf("the victim's replica was promoted %v after the kill; the first site on its slots shared by the fleet was begun %v after the promotion; "+
		"during the failover the fleet fetched %d sites on the victim's slots %d times",
		f.promotedAt.Sub(f.killedAt).Round(time.Millisecond), resumed.Round(time.Millisecond), during, fetches)
}

// checkDeferrals checks that every paced request held back was one to a
// site on the victim, held back only between the kill and resumeBound
// after the promotion.
func (f *failoverRun) checkDeferrals() {
	t := f.t
	t.Helper()
	victim := map[string]bool{}
	for _, h := range f.onVictim {
		victim[h] = true
	}
	var longest time.Duration
	for _, d := range f.deferred {
		longest = max(longest, d.To.Sub(d.From))
		switch {
		case !victim[d.Host]:
			t.Errorf("%s, on a live master, was held back from %v to %v: %s", d.Host, d.From, d.To, d.Err)
		case d.From.Before(f.killedAt) || d.To.After(f.promotedAt.Add(resumeBound)):
			t.Errorf("%s held back from %v to %v (%s), outside the kill at %v to %v after the promotion at %v",
				d.Host, d.From, d.To, d.Err, f.killedAt, resumeBound, f.promotedAt)
		}
	}
	t.Logf("%d paced requests held back during the failover, the longest for %v", len(f.deferred), longest.Round(time.Millisecond))
}

// TestClusterHelperProcess is one crawler process of
// TestFleetClusterFailover, set up as the package documentation advises
// for a Redis Cluster. It does nothing unless started by it.
func TestClusterHelperProcess(t *testing.T) {
	if os.Getenv(envHelper) != "cluster" {
		t.Skip("runs only as a helper process of TestFleetClusterFailover")
	}
	rdb := redis.NewClusterClient(&redis.ClusterOptions{
		Addrs:                 strings.Split(os.Getenv(envRedis), ","),
		ContextTimeoutEnabled: true,
		DialerRetries:         1,
		DialTimeout:           time.Second,
	})
	defer rdb.Close()
	store := New(rdb, WithLogger(quietLogger), WithTimeout(generous))
	web := crawltest.HTTPClient(os.Getenv(envWeb))
	c := newClient(t, store, web, robotstxt.WithStoreTimeout(generous))
	p := &pacedSender{hc: &http.Client{Transport: robotstxt.NewTransport(c, web.Transport,
		robotstxt.WithPacer(store), robotstxt.WithDefaultInterval(failoverInterval))}}

	fmt.Println("READY")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		hosts, ok := strings.CutPrefix(in.Text(), "ROUND ")
		if !ok {
			t.Fatalf("unexpected command %q", in.Text())
		}
		errs := c.Stats().Store.Errors
		rep := clusterRound(c, p, strings.Split(hosts, ","))
		rep.StoreErrors = c.Stats().Store.Errors - errs
		printReport(t, "DONE ", rep)
	}
	p.wg.Wait()
	var rep roundReport
	rep.Deferred, rep.Unsent = p.drain()
	printReport(t, "FINAL ", rep)
}

func printReport(t *testing.T, prefix string, rep roundReport) {
	js, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(prefix + string(js))
}

// clusterRound checks every probe of each host with c and has p send a
// paced request to each. It returns once every request is sent or held
// back, with the requests held back earlier that have been sent since.
func clusterRound(c *robotstxt.Client, p *pacedSender, hosts []string) roundReport {
	var (
		mu  sync.Mutex
		rep roundReport
		wg  sync.WaitGroup
	)
	for _, h := range hosts {
		wg.Go(func() {
			for _, pr := range crawltest.Probes(h) {
				err := checkOne(c, pr)
				mu.Lock()
				rep.Checks++
				if err != nil {
					rep.Wrong = append(rep.Wrong, err.Error())
				}
				mu.Unlock()
			}
			<-p.send(h)
		})
	}
	wg.Wait()
	rep.Deferred, rep.Unsent = p.drain()
	return rep
}

// A pacedSender sends paced requests, retrying in the background those
// its Transport refuses, and keeps what became of them.
type pacedSender struct {
	hc *http.Client
	wg sync.WaitGroup

	mu       sync.Mutex
	deferred []deferral
	unsent   []string
}

// send sends a request for a page of host, trying again every 50 ms while
// the Transport refuses it, for up to sendLimit. The channel it returns
// is closed once the request is sent or first refused.
func (p *pacedSender) send(host string) <-chan struct{} {
	settled := make(chan struct{})
	p.wg.Go(func() {
		d := deferral{Host: host}
		start := time.Now()
		for {
			resp, err := p.hc.Get("http://" + host + "/page")
			if err == nil {
				_ = resp.Body.Close()
				d.To = time.Now()
				break
			}
			if d.From.IsZero() {
				d.From, d.Err = time.Now(), err.Error()
				close(settled)
			}
			if time.Since(start) > sendLimit {
				p.mu.Lock()
				p.unsent = append(p.unsent, host+": "+d.Err)
				p.mu.Unlock()
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		if d.From.IsZero() {
			close(settled)
			return
		}
		p.mu.Lock()
		p.deferred = append(p.deferred, d)
		p.mu.Unlock()
	})
	return settled
}

// drain returns the requests held back and since sent, and those given
// up, that it has not returned before.
func (p *pacedSender) drain() (deferred []deferral, unsent []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	deferred, unsent = p.deferred, p.unsent
	p.deferred, p.unsent = nil, nil
	return deferred, unsent
}

// TestClusterStallOfAHopsPacer: a Redis Cluster of three
// masters. Site a.test's robots.txt redirects to another site's
// (hopto.test/robots.txt), which allows /page. Every process's Client
// has a Transport with WithPacer(store), so the hop is paced through
// the Store. One master, the one that holds hopto.test's pacing key but
// not a.test's keys, stalls for two seconds (CLIENT PAUSE; a fork, a
// slow command or a failover look the same to a client).
//
// The package doc: "The Client treats every Store error as a miss, so a
// Redis outage ... costs extra robots.txt fetches, never wrong answers.
// Errors come only to checks whose deadline is shorter than the Store's
// calls while Redis is slower than they are", and, for a Cluster, "A
// failed master stops sharing for its own slots only".
//
// Process P's check of a.test/page during the stall was deferred, its
// hop's Take timed out; that was kept as a.test's own failure with its
// 60 s back-off and written to the Store on a.test's own healthy master:
// once the stall was over, process Q, which never met it, was deferred
// for a.test from the Store without fetching, and P stayed deferred
// (redis6). The hop is paced in the process now, and a.test read.
func TestClusterStallOfAHopsPacer(t *testing.T) {
	cl := redistest.StartCluster(t, 3, 0, 5*time.Second, "--cluster-require-full-coverage", "no")
	var fetches atomic.Int64
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.Split(r.Host, ":")[0]
		switch {
		case r.URL.Path == "/robots.txt" && host == "hopto.test":
			fetches.Add(1)
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
		case r.URL.Path == "/robots.txt":
			fetches.Add(1)
			http.Redirect(w, r, "http://hopto.test/robots.txt", http.StatusMovedPermanently)
		default:
			fmt.Fprint(w, "page")
		}
	}))
	t.Cleanup(web.Close)
	hc := crawltest.HTTPClient(web.Listener.Addr().String())

	process := func() (*Store, *robotstxt.Client) {
		s := New(failoverClient(t, cl), WithLogger(quietLogger))
		c := newClient(t, s, hc)
		_ = robotstxt.NewTransport(c, hc.Transport, robotstxt.WithPacer(s)) // the crawler's pages go through it
		return s, c
	}
	p, pc := process()
	q, qc := process()

	// The stalled master holds hopto.test's keys; a.test's are elsewhere.
	to := "hopto.test:" // the key a Transport paces http://hopto.test:80 under (see robotstxt.Pacer)
	stalled := cl.MasterOf(cl.KeySlot(p.paceKey(to)))
	from := ""
	for i := range 1000 {
		h := fmt.Sprintf("a%d.test", i)
		if cl.MasterOf(cl.KeySlot(p.valueKey("http://"+h+":80"))) != stalled {
			from = h
			break
		}
	}
	if from == "" {
		t.Fatal("no host off the stalled master")
	}
	t.Logf("hopto.test's pacing on %s; %s's keys on %s", stalled, from, cl.MasterOf(cl.KeySlot(p.valueKey("http://"+from+":80"))))

	ctx := context.Background()
	waitUntil(t, "slot maps", func() bool {
		_, e1 := p.Get(ctx, "warm")
		_, e2 := q.Get(ctx, "warm")
		return isMiss(e1) && isMiss(e2)
	})
	// Both Stores have the pacing script cached on every master.
	for _, s := range []*Store{p, q} {
		id, _, err := s.Take(ctx, "http://warm.test:80", 0)
		if err != nil {
			t.Fatal(err)
		}
		_ = s.Done(ctx, "http://warm.test:80", id, 0, 0)
	}

	check := func(who string, c *robotstxt.Client) (robotstxt.Decision, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return c.Check(ctx, "http://"+from+"/page")
	}

	adm := redis.NewClient(&redis.Options{Addr: stalled})
	defer adm.Close()
	if err := adm.Do(ctx, "CLIENT", "PAUSE", "2000", "ALL").Err(); err != nil {
		t.Fatal(err)
	}
	pausedAt := time.Now()
	d, err := check("P", pc)
	t.Logf("P, during the stall: allowed=%v deferred=%v err=%v", d.Allowed, d.Deferred, err)
	time.Sleep(time.Until(pausedAt.Add(2500 * time.Millisecond)))

	// The stall is over: every master answers.
	if _, _, err := q.Take(ctx, to, 0); err != nil {
		t.Fatalf("after the stall, Take on the stalled master: %v", err)
	}
	before := fetches.Load()
	for _, c := range []struct {
		who string
		c   *robotstxt.Client
	}{{"Q, a process that never met the stall", qc}, {"P", pc}} {
		d, err := check(c.who, c.c)
		if err != nil || !d.Allowed {
			t.Errorf("%s, %v after a 2 s stall of another master ended: %s/page allowed=%v deferred=%v, err=%v; want allowed (robots.txt allows it; a Redis outage costs fetches, never wrong answers)",
				c.who, time.Since(pausedAt.Add(2*time.Second)).Round(100*time.Millisecond), from, d.Allowed, d.Deferred, err)
		}
	}
	t.Logf("robots.txt fetches after the stall: %d", fetches.Load()-before)
}
