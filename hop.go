package robotstxt

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/target"
)

// A chain is what the fetches that one check causes share: the check's
// own fetch (of robots.txt, or of tdmrep.json for a receipt), and the
// fetches of the robots.txt files its redirect hops must be allowed by,
// nested at most maxHopDepth deep.
type chain struct {
	root     string        // the authority the check is for
	sites    []string      // the authorities whose robots.txt fetches ctx serves, outermost first
	depth    int           // the fetches ctx serves, of any document
	requests *atomic.Int64 // what the check may still send (see requestBound)
	// robots says ctx's fetch is of a robots.txt, whose requests within
	// its check's site need no check (RFC 9309 §2.2.2: /robots.txt is
	// implicitly allowed); another document's must be allowed as a
	// crawler's pages must.
	robots bool
	// admitted is the check of the last hop admitHop allowed, whose
	// crawl-delay paces it: the cache may evict that site's entry before
	// it is sent. Only the fetch's goroutine touches it.
	admitted Decision
}

// doc returns the authority whose document ch's fetch is: the robots.txt
// fetched last, or the root's tdmrep.json.
func (ch *chain) doc() string {
	if ch.robots {
		return ch.sites[len(ch.sites)-1]
	}
	return ch.root
}

// chainKey keys the *chain of a fetch's context.
type chainKey struct{}

// chainOf returns the chain of the fetch ctx serves, or nil for a
// crawler's own check.
func chainOf(ctx context.Context) *chain {
	ch, _ := ctx.Value(chainKey{}).(*chain)
	return ch
}

// maxHopDepth bounds how deep the checks of hops nest: two levels cover a
// robots.txt redirected to a CDN that redirects again; more would only
// serve a chain built to tie the Client up.
const maxHopDepth = 2

// requestBound returns how many requests one check may cause: its
// robots.txt and every redirect, and as much again for each of two
// levels of the robots.txt fetches its hops need (18 by default). A tree
// of redirects built to make one check a flood ends there.
//
// It is held within int64: WithMaxRedirects(math.MaxInt) bounds nothing.
func (c *config) requestBound() int64 {
	return 3 * (min(int64(c.maxRedirects), math.MaxInt64/3-1) + 1)
}

// errChain is wrapped when a fetch would exceed the bounds of its chain.
var errChain = errors.New("the check's redirects reach too far")

// within returns ctx for the fetch of k, in the chain of the fetch ctx
// serves, or a new chain.
func (c *Client) within(ctx context.Context, k key) context.Context {
	next := &chain{root: k.authority, requests: new(atomic.Int64), robots: k.doc.robots, depth: 1}
	if ch := chainOf(ctx); ch != nil {
		next.root, next.requests, next.sites, next.depth = ch.root, ch.requests, ch.sites, ch.depth+1
	} else {
		next.requests.Store(c.cfg.requestBound())
	}
	if k.doc.robots {
		next.sites = append(next.sites[:len(next.sites):len(next.sites)], k.authority)
	}
	return context.WithValue(ctx, chainKey{}, next)
}

// admitHop decides whether the hop to next of the fetch for authority,
// at a robots.txt of site's (authority's, or another's its redirects led
// to, whose own fetch this part of it is), may be sent, and returns
// next's authority and whether it checked the hop. A robots.txt fetch's
// hop within site's site or authority's, or to another authority's
// /robots.txt, needs no check; any other must be allowed by its
// authority's robots.txt. Its error wraps errRedirects. robotsOf says
// next is the robots.txt of a site other than authority's (see theirs).
func (c *Client) admitHop(ctx context.Context, authority, site string, next *url.URL) (_ string, checked, robotsOf bool, _ error) {
	dest := next.String()
	refused := func(why error) (string, bool, bool, error) {
		return "", false, false, fmt.Errorf("%w: hop to %s refused: %w", errRedirects, capQuote(dest), why)
	}
	var buf [128]byte
	nextKey, path, err := target.Split(dest, buf[:0])
	if err != nil {
		return refused(err)
	}
	if !ascii.IsASCII(next.Host) {
		// net/http dials the name mapped but asks the server for it
		// unmapped (see headerHost): when that is a second site, which
		// the Transport checks and paces too, a hop does not go there.
		asked, err := askedFor(next)
		if err == nil && asked != string(nextKey) {
			err = fmt.Errorf("net/http would dial %s but ask it for %s", nextKey, asked)
		}
		if err != nil {
			return refused(err)
		}
	}
	ch := chainOf(ctx)
	if robots := path == "/robots.txt"; ch.robots && (robots || sameSite(site, string(nextKey)) || sameSite(authority, string(nextKey))) {
		return string(nextKey), false, robots && !sameSite(authority, string(nextKey)), nil
	}
	sites := ch.sites
	if slices.Contains(sites, string(nextKey)) {
		return refused(fmt.Errorf("%w: its check would fetch %s's robots.txt, which this chain is fetching", errChain, capQuote(string(nextKey))))
	}
	if ch.depth > maxHopDepth {
		return refused(fmt.Errorf("%w: its check would fetch robots.txt files %d deep", errChain, ch.depth))
	}
	var d Decision
	switch ok, err := c.checkAt(ctx, nextKey, path, &d, false); {
	case err != nil:
		return refused(err)
	case !ok:
		return refused(errors.New("its robots.txt disallows it"))
	}
	ch.admitted = d
	return string(nextKey), true, false, nil
}

// theirs returns the entry of authority's robots.txt that a robots.txt
// whose redirects lead there may take instead of sending the hop: one
// held, fresh, from a server that answered (not an error policy's
// allow-all), with all its redirects listed; else nil. When memory holds
// none, it looks in the Store, as that site's own check would, if ctx
// leaves the fetch time for it, and keeps what it reads in memory as a
// check's lookup does (the copy memory held standing in for a failure;
// not over an entry published since that answers better): a process
// meeting the redirect asks the site nothing when another stored its
// answer, nor, when that is a failure, within its back-off (see
// failing). Nothing else is waited for: another site's fill may be
// waiting for this one's. Unless stored is set, it looks in memory alone.
func (c *Client) theirs(ctx context.Context, authority string, stored bool) *entry {
	held := func() *entry {
		e := c.robots.cache.peek(authority)
		if e == nil || e.outcome == OutcomeUnreachable || e.failures > 0 || e.status == 0 || e.expired(c.cfg.now()) ||
			strings.Count(e.redirects, "\n") >= maxKeptRedirects-1 {
			return nil
		}
		return e
	}
	if e := held(); e != nil || c.tier == nil || !stored {
		return e
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl)/2 < c.cfg.storeTimeout {
		// A Store call that takes its whole timeout leaves the fetch at
		// least as long again: the Store's failure is never the site's.
		return nil
	}
	s, _ := c.tier.get(ctx, key{authority, &c.robots}, true)
	if !c.tier.countLookup(s) {
		return nil
	}
	// The copy memory holds may stand in, as for the site's own check.
	c.robots.cache.putNewer(c.keepGood(s, c.robots.cache.peek(authority)), nil, c.cfg.now())
	return held()
}

// failing returns the entry of authority's robots.txt while it stands
// for a failure of its server (unreachable, or a last good copy standing
// in) within its back-off, its own or one a robots.txt redirected there
// met (see keepTheirFailure), else nil: a robots.txt redirected there is
// unreachable too, and asks it nothing, lest a host many sites redirect
// their robots.txt to (a CDN, a platform) be asked once a site while it
// is down.
func (c *Client) failing(authority string) *entry {
	if e := c.latest(authority); e != nil && e.failures > 0 && !e.expired(c.cfg.now()) {
		return e
	}
	return nil
}

// latest returns the newer of authority's robots.txt entry in the cache
// and the failure kept for the robots.txt files redirected there (see
// keepTheirFailure), or nil: the site's latest word.
func (c *Client) latest(authority string) *entry {
	e := c.robots.cache.peek(authority)
	if kept, ok := c.hopFailed.Peek(authority); ok && (e == nil || kept.checked > e.checked) {
		return kept
	}
	return e
}

// answered forgets the failure kept for the robots.txt files redirected
// to e's site (see keepTheirFailure), and to each site whose robots.txt
// its redirects passed on the way (its www. twin, say), once e, an answer
// of theirs no older than that failure, is in the cache: its own
// fetch's, a copy from the Store, a chain's kept for it.
func (c *Client) answered(e *entry) {
	if c.hopFailed.Len() == 0 || e.failures > 0 || !e.good() {
		return
	}
	forget := func(site string, at stamp) {
		if kept, ok := c.hopFailed.Peek(site); ok && at >= kept.checked {
			c.hopFailed.Remove(site)
		}
	}
	forget(e.key, e.checked)
	// The sites its redirects passed answered when it was fetched: a
	// chain's copy, stamped when the chain read it, may be an older
	// fetch's, which asked them nothing since.
	for line := range strings.SplitSeq(e.redirects, "\n") {
		if site, path, err := target.Split(redirectOf(line).URL, nil); err == nil && path == "/robots.txt" {
			forget(string(site), e.fetched)
		}
	}
}

// maxHopFailures bounds the failures kept for the robots.txt files
// redirected to a site (see keepTheirFailure): a crawler meets a few
// hosts many sites redirect to (CDNs, platforms), and a site failing
// past them is asked once more, no worse than without.
const maxHopFailures = 1024

// pace takes the turn of a request of ctx's fetch to authority when it
// leaves the site of the check's own authority, and returns what ends
// it, given the response: a 429 or 503 holds authority's pages as a
// page's does (see Transport.hold), whichever site it is. It first
// spends one of the chain's requests. Within that site a fetch, of
// robots.txt or tdmrep.json, takes no turn: the one the page the
// caller asks about took may still be running, and the caller may be
// holding that page's body open (Transport.Usage). That holds only for
// a fetch of that site's own documents: another site's robots.txt,
// fetched to check a hop, that redirects into the check's site was
// chosen by that other site, and takes the turn its own check would
// (waiting, should the caller hold it, until the fetch's timeout
// refuses the hop). A site whose turn the request a Receipt or Usage
// reads holds with the root's (see twinLease) counts as the root's own
// site, both as the fetch's document and as where a request goes: that
// page took its turn.
//
// A hop to another site's robots.txt that waited for its turn asks
// meanwhile, after each wait, whether a fetch has kept an answer of that
// site's since (its own check's, or another hop's it stopped waiting
// for): if so, pace returns errAnsweredMeanwhile, and nothing is sent.
func (c *Client) pace(ctx context.Context, authority string, meanwhile func() bool) (done func(*http.Response), err error) {
	ch := chainOf(ctx)
	if ch.requests.Add(-1) < 0 {
		return nil, fmt.Errorf("%w: %w: more than %d requests", errRedirects, errChain, c.cfg.requestBound())
	}
	t := c.hopPacing()
	twin, _ := ctx.Value(twinKey{}).(*twinLease)
	own := func(a string) bool { return sameSite(ch.root, a) || twin.holds(ch.root, a) }
	if own(authority) && own(ch.doc()) {
		sent := time.Now()
		return func(resp *http.Response) {
			if hold := t.hold(ctx, authority, resp); hold > 0 {
				// A hold, no turn: for the server that answered, and the
				// check's own authority, whose twin it may be; the pages
				// refused meanwhile are told turns as long as this
				// request took (see retryQueue.ran).
				held := []string{authority}
				if authority != ch.root {
					held = append(held, ch.root)
				}
				for _, a := range held {
					t.done(ctx, turn{authority: a}, hold)
					c.queue.ran(a, 0, hold, time.Since(sent), false)
				}
			}
		}, nil
	}
	iv := t.intervalAt(authority)
	if ch.admitted.Authority == authority {
		iv = t.interval(ch.admitted)
	}
	var recheck func() (time.Duration, error)
	if meanwhile != nil {
		recheck = func() (time.Duration, error) {
			if meanwhile() {
				return 0, errAnsweredMeanwhile
			}
			return iv, nil
		}
	}
	tu, w, err := t.awaitTurn(ctx, authority, iv, turn{}, time.Now(), false, recheck)
	t.count(w)
	if errors.Is(err, errAnsweredMeanwhile) {
		return nil, err
	}
	if local := Pacer(c.pacer()); err != nil && t.cfg.pacer != local && !errors.As(err, new(*PacedError)) && ctx.Err() == nil {
		// The Pacer failed (a Store that did not answer): the hop is
		// paced in this process instead, as a Store's outage costs
		// requests, not answers. Failed, the fetch was kept as the
		// redirecting site's failure, for its back-off, in the Store
		// too: a stall of the node holding the other site's pacing
		// deferred a healthy site for a fleet.
		cfg := t.cfg
		cfg.pacer = local
		t = &Transport{c: c, cfg: cfg}
		tu, _, err = t.awaitTurn(ctx, authority, iv, turn{}, time.Now(), false, recheck)
		if errors.Is(err, errAnsweredMeanwhile) {
			return nil, err
		}
	}
	if pe := (*PacedError)(nil); errors.As(err, &pe) {
		// Said, not wrapped: the crawler's request whose robots.txt this
		// is has no turn to come back for, and a frontier would put back
		// pe's URL (see PacedError).
		return nil, fmt.Errorf("%w: %v", errRedirects, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errRedirects, err)
	}
	c.queue.sending(authority, iv)
	sent := time.Now()
	return func(resp *http.Response) {
		hold := t.hold(ctx, authority, resp)
		c.queue.ran(authority, iv, hold, time.Since(sent), false) // as a page's turn (see flight.end)
		t.done(ctx, tu, hold)
	}, nil
}

// asking is the robots.txt files hops of this process are asking for
// now: sites checked at once whose robots.txt all redirect to one host's
// (a platform's, a CDN's) would each ask it at once, unpaced where no
// Crawl-delay is known, though one answer serves them all (pace89). That
// site's own fill is not waited for (see Client.theirs).
type asking struct {
	mu sync.Mutex
	m  map[string]asker // by authority
}

// An asker is a fetch asking for a robots.txt (see asking).
type asker struct {
	done  chan struct{} // closed once its answer is kept
	check *atomic.Int64 // its check's (see chain.requests), which waits for none of its own
	out   *atomic.Bool  // its request is out, unanswered (see sending)
}

// maxAskWait bounds how long a hop waits for another fetch's answer to
// the same robots.txt while that fetch has no request out: one takes a
// fraction of a second, and that fetch may be waiting for what the waiter
// holds (a turn, a chain through its site, its own answer to that
// fetch's hop), which this wait then breaks.
const maxAskWait = 2 * time.Second

// ask returns what ends authority's robots.txt being asked for by the
// fetch ctx serves, and true, when no other fetch is asking for it; else
// nil and false, if wait is set once that fetch has kept its answer, or
// that fetch has had no request out, unanswered, at a look made every
// maxAskWait, or half of what ctx left has passed (a request out is a
// server's to answer: asking again would take no less, and would ask it
// twice; but it may be stalled). The caller then looks in memory for
// that answer, and failing it asks itself (and looks again should that
// fail: see fetch). A fetch of the same check (a chain back to a
// robots.txt it asked for, a hop's check) is not waited for: it may be
// waiting for this one.
func (a *asking) ask(ctx context.Context, authority string, wait bool) (end func(), ok bool) {
	check := chainOf(ctx).requests
	a.mu.Lock()
	other, busy := a.m[authority]
	if !busy {
		if a.m == nil {
			a.m = map[string]asker{}
		}
		other = asker{make(chan struct{}), check, new(atomic.Bool)}
		a.m[authority] = other
	}
	a.mu.Unlock()
	if !busy {
		return func() {
			a.mu.Lock()
			delete(a.m, authority)
			a.mu.Unlock()
			close(other.done)
		}, true
	}
	dl, has := ctx.Deadline()
	if !wait || !has || other.check == check {
		return nil, false
	}
	by := time.Now().Add(time.Until(dl) / 2)
	t := time.NewTimer(min(maxAskWait, time.Until(by)))
	defer t.Stop()
	for {
		select {
		case <-other.done:
			return nil, false
		case <-ctx.Done():
			return nil, false
		case <-t.C:
		}
		if !other.out.Load() || !time.Now().Before(by) {
			return nil, false
		}
		t.Reset(min(maxAskWait, time.Until(by)))
	}
}

// sending records whether the fetch ctx serves has its request to
// authority out, unanswered, when it is asking for its robots.txt (see
// ask).
func (a *asking) sending(ctx context.Context, authority string, out bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if other, ok := a.m[authority]; ok && other.check == chainOf(ctx).requests {
		other.out.Store(out)
	}
}

// errAnsweredMeanwhile is returned by pace when a hop to another site's
// robots.txt need not be sent: a fetch kept its answer while it waited.
var errAnsweredMeanwhile = errors.New("robotstxt: the hop was answered meanwhile")

// hopPacing returns the Transport whose pacer and intervals pace the
// requests that leave a check's site: the first Transport made for c,
// or before there is one, one with the default configuration and c's
// in-process pacer, which that Transport shares unless given another.
// Its counts go unread.
func (c *Client) hopPacing() *Transport {
	if t := c.hops.Load(); t != nil {
		return t
	}
	return c.hopsAlone()
}

// hopTransport returns the Transport that paces c's hops with cfg: one
// that waits for a turn within the fetch's deadline, whatever the pages'
// wait policy, since the fetch's timeout bounds it.
func hopTransport(c *Client, cfg transportConfig) *Transport {
	cfg.noWait, cfg.hops = false, true
	if cfg.pacer == nil {
		cfg.pacer = c.pacer()
	}
	return &Transport{c: c, cfg: cfg}
}

// sameSite reports whether the authorities a and b are one site: the same
// host but for "www.", on the same port or each scheme's default, paced
// as one (see paceKey, which holds the rule).
func sameSite(a, b string) bool { return paceKey(a) == paceKey(b) }

// atSite reports whether r goes to the site of authority (see sameSite),
// the site its Host names at any address (a pinned one): a Retry-After
// its server sends holds that site.
func atSite(r *http.Request, authority string) bool {
	return sameSite(target.Authority(r.URL.Scheme, cmp.Or(r.Host, r.URL.Host)), authority)
}
