package robotstxt

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/robotsgate/robotstxt/internal/body"
	"github.com/robotsgate/robotstxt/internal/target"
	"github.com/robotsgate/robotstxt/internal/tdmrep"
	"golang.org/x/text/encoding/charmap"
)

// fetchResult is what one fetch, redirects included, gave.
type fetchResult struct {
	outcome     Outcome
	status      int // final status; 0 when no response arrived
	notModified bool
	// otherBody says the 304 names another body than the copy's (RFC
	// 9111 §4.3.4: it renews none), as a server that judges
	// If-Modified-Since alone answers for a file changed in its second.
	otherBody bool
	body      []byte // UTF-8, at most the body limit
	cut       bool   // body is the part of a longer one within the limit
	header    http.Header
	redirects string // see persisted.redirects
	err       error  // why the result is unreachable or allow-all
	theirs    *entry // another site's robots.txt entry the redirects led to, which the result is (see Client.theirs)
	// froms are the other sites whose robots.txt the redirects asked
	// for as their own fetch asks, and followed on as it would: the
	// result is each one's too (see Client.keepTheirs).
	froms []theirFetch
}

// A theirFetch is another site whose robots.txt a fetch's redirects led
// to: at is the place in the fetch's redirects from which they are that
// site's own, and redirects lists them as its own fetch would.
type theirFetch struct {
	authority string
	at        int
	redirects string
}

// errRedirects is wrapped when redirects cannot lead to the file asked
// for: a robots.txt or a tdmrep.json.
var errRedirects = errors.New("robotstxt: redirects do not reach the file")

// A fetcher gets robots.txt files for a Client, following redirects by
// hand so that each hop is checked (see admitHop) and paced (see pace).
type fetcher struct {
	hc http.Client
	c  *Client
}

// maxKeptRedirects bounds the redirects an entry lists: beyond it, the
// final URL takes the last place.
const maxKeptRedirects = 10

// maxLocation bounds the URL a redirect of a fetch leads to: the entry
// lists it (see maxKeptRedirects), and net/http reads headers of up to
// 10 MiB. Servers refuse request lines far shorter
// (nginx: 8 KiB).
const maxLocation = 16 << 10

// maxRedirectsText bounds the redirects an entry lists, as text: a status
// and its mark, a space, a URL and a newline each.
const maxRedirectsText = maxKeptRedirects * (maxServerText + 6)

// fetch gets and classifies k's document; prev, if not nil, supplies
// validators. ctx is c.base for a check's own fetch, or the fetch whose
// redirect hop needs this one. To asked it adds what ends each other
// site's robots.txt it asks for (see asking), for its caller to call once
// their answers are kept.
func (f *fetcher) fetch(ctx context.Context, k key, prev *entry, asked *[]func()) fetchResult {
	f.c.stats.inFlight.Add(1)
	defer f.c.stats.inFlight.Add(-1)
	ctx, cancel := context.WithTimeout(f.c.within(ctx, k), f.c.cfg.fetchTimeout)
	defer cancel()
	target, authority := k.url(), k.authority
	var led []string         // the redirects followed, as persisted.redirects lists them
	var froms []theirFetch   // see fetchResult.froms
	var redirect fetchResult // the one that led to another site's robots.txt (see instead)
	var waited []string      // the robots.txt files it waited for another fetch's answer to
	for hop := 0; ; hop++ {
		validated := prev
		if prev != nil && target != prev.fetchedFrom(k) {
			validated = nil // its validators speak of another URL's body
		}
		var meanwhile func() bool // see pace
		if len(froms) > 0 && froms[len(froms)-1].at == len(led) {
			// The robots.txt of another site, unless a fetch kept its
			// answer while the hop waited for its turn.
			from := froms[:len(froms)-1]
			meanwhile = func() bool { return f.instead(ctx, k, &redirect, authority, target, led, from, false) }
		}
		// Its own request cut or timed out, a hop takes the answer
		// another hop kept meanwhile (a stalled or a slow victim's); a
		// refusal, or the server's own answer, stands.
		tookMeanwhile := func(status int, err error) bool {
			return err != nil && meanwhile != nil && !refused(err) && !serversOwn(status, err) && meanwhile()
		}
		resp, err := f.send(ctx, target, authority, validated, meanwhile)
		if ue := (*url.Error)(nil); errors.As(err, &ue) && strings.HasPrefix(ue.Err.Error(), "failed to parse Location header") {
			// A 3xx whose Location net/url cannot parse, which net/http
			// reports with no response and no error of a type to test:
			// a refusal, before tookMeanwhile reads it (review171 #3).
			err = fmt.Errorf("%w: %w", errRedirects, err)
		}
		if errors.Is(err, errAnsweredMeanwhile) || tookMeanwhile(0, err) {
			return redirect
		}
		if err != nil {
			res := fetchResult{outcome: f.noResponse(k, err), redirects: kept(led), err: err}
			res.froms = ownFetches(froms, led, nil) // no connection where their own fetches connect (see send)
			return res
		}
		res := fetchResult{status: resp.StatusCode, header: resp.Header, redirects: kept(led)}
		if !followed(resp.StatusCode) {
			f.classify(&res, resp, k, target, validated)
			if tookMeanwhile(res.status, res.err) {
				return redirect
			}
			res.froms = ownFetches(froms, led, nil)
			return res
		}
		discard(resp)
		locs := resp.Header.Values("Location")
		loc, disagree := "", slices.ContainsFunc(locs, func(l string) bool { return l != locs[0] })
		if len(locs) > 0 && !disagree {
			loc = locs[0] // lines that disagree name no target for sure, as browsers read them
		}
		ref, err := url.Parse(loc)
		var next *url.URL
		if err == nil {
			next = resp.Request.URL.ResolveReference(ref)
			next.Fragment, next.RawFragment = "", ""
			next.User = nil // credentials from a Location header are neither sent nor shown
		}
		// A redirect that cannot be followed is a fault; only too many
		// redirects mean there is none (RFC 9309 §2.3.1.2). A loop runs
		// to the limit: a server may redirect to the same URL once, to
		// answer it the next time.
		res.outcome = OutcomeUnreachable
		switch {
		case disagree:
			res.err = fmt.Errorf("%w: %d with Location lines that disagree", errRedirects, resp.StatusCode)
		case loc == "" || err != nil || ref.Host == "" && (ref.Scheme != "" || strings.HasPrefix(loc, "//")):
			// "//" names no host, and resolves to the URL asked for.
			res.err = fmt.Errorf("%w: %d without a usable Location", errRedirects, resp.StatusCode)
		case len(next.String()) > maxLocation:
			res.err = fmt.Errorf("%w: %d to a URL of %d bytes", errRedirects, resp.StatusCode, len(next.String()))
		case next.Scheme != "http" && next.Scheme != "https":
			res.err = fmt.Errorf("%w: redirect to scheme %q", errRedirects, capQuote(next.Scheme))
		case hop >= f.c.cfg.maxRedirects:
			res.outcome = OutcomeAllowAll
			res.err = fmt.Errorf("%w: more than %d redirects", errRedirects, f.c.cfg.maxRedirects)
			return res
		}
		if res.err != nil {
			res.err = unreadAnswer{res.err} // whoever asks
			res.froms = ownFetches(froms, led, nil)
			return res
		}
		var checked, robotsOf bool
		site := k.authority
		if len(froms) > 0 {
			site = froms[len(froms)-1].authority // within its own fetch, which checks no hop within its site
		}
		if authority, checked, robotsOf, res.err = f.c.admitHop(ctx, k.authority, site, next); res.err != nil {
			return res
		}
		target = next.String()
		status := strconv.Itoa(resp.StatusCode)
		if checked {
			// A Store's reader may not trust it (see ownOutcome): its
			// policies, or its Mode within a tdmrep.json's own site,
			// may refuse the hop's path.
			status += "*"
		}
		led = append(led, status+" "+capText(target))
		// A site's own fetch follows a redirect within its site (http to
		// https, to its www twin), within the site of the last robots.txt
		// reached, or to another's robots.txt, unchecked as this one
		// does: a site whose robots.txt is another's (a shop's on its
		// CDN) keeps the answer as its own, lest each site redirected to
		// it ask it again (hops85).
		if !robotsOf && !sameSite(site, authority) {
			froms = slices.DeleteFunc(froms, func(s theirFetch) bool { return !sameSite(s.authority, authority) })
		}
		if robotsOf && k.doc.robots {
			if f.instead(ctx, k, &res, authority, target, led, froms, true) {
				return res
			}
			// Waited for once: a chain back to it (a cycle of two
			// sites' robots.txt) asks itself the next times.
			end, ok := f.c.asking.ask(ctx, authority, !slices.Contains(waited, authority))
			if ok {
				*asked = append(*asked, end)
			} else {
				waited = append(waited, authority)
			}
			if f.instead(ctx, k, &res, authority, target, led, froms, false) {
				return res // what a fetch asking it meanwhile kept
			}
			// Asked for with the Host its own fetch sends (see send).
			froms = append(froms, theirFetch{authority: authority, at: len(led)})
			redirect = res
		}
	}
}

// instead makes res the result a robots.txt fetch whose redirects led
// (through froms) to authority's robots.txt at target takes instead of
// sending the hop, and reports whether there is one: the entry of theirs
// held, in the Store too if stored is set (see Client.theirs), when its
// redirects fit in what the fetch may follow, else a failure of that
// server's within its back-off (see Client.failing).
func (f *fetcher) instead(ctx context.Context, k key, res *fetchResult, authority, target string, led []string, froms []theirFetch, stored bool) bool {
	theirs := f.c.theirs(ctx, authority, stored)
	var more []string // theirs' own redirects
	if theirs != nil && theirs.redirects != "" {
		more = strings.Split(theirs.redirects, "\n")
	}
	if theirs != nil && len(led)+len(more) <= f.c.cfg.maxRedirects {
		res.outcome, res.redirects, res.theirs = theirs.outcome, kept(append(led, more...)), theirs
		res.froms = ownFetches(froms, led, more)
		return true
	}
	failed := f.c.failing(authority)
	if theirs != nil || failed == nil {
		return false
	}
	// As the hop would have failed, without asking: for the sites the
	// chain passed through too, whose own fetch meets the same failure
	// (fleet85).
	res.status, res.redirects = int(failed.failStatus), kept(led)
	res.froms = ownFetches(froms, led, nil)
	res.err = fmt.Errorf("robotstxt: redirected to %s: %w", capQuote(target), failed.deferral(failed.expires.time()))
	res.outcome = OutcomeUnreachable
	if res.status == 0 && (failed.outcome == OutcomeAllowAll || failed.outcome == OutcomeDisallowAll) {
		// Its own failure the error policy read, not refused: read
		// alike here (its cause, kept, no longer tells a refusal).
		res.outcome = f.noResponse(k, res.err)
	}
	return true
}

// ownFetches returns froms with the redirects each one's own fetch
// follows: led from its place on, all within its site and so unchecked,
// as its own fetch follows them, then more, the last site's own.
func ownFetches(froms []theirFetch, led, more []string) []theirFetch {
	for i := range froms {
		froms[i].redirects = kept(slices.Concat(led[froms[i].at:], more))
	}
	return froms
}

// noResponse returns the outcome of k's fetch that err ended with no
// response: unreachable (RFC 9309 §2.3.1.4), unless WithErrorPolicy says
// otherwise of a robots.txt, whose rules no response has to read; a
// refusal (see refused), or an answer cut (errCutAnswer), is unreachable
// whatever it says.
func (f *fetcher) noResponse(k key, err error) Outcome {
	outcome := OutcomeUnreachable
	if p := f.c.cfg.errPolicy; p != nil && k.doc.robots && !errors.Is(err, errCutAnswer) {
		outcome = valid(p(err))
	}
	if outcome == OutcomeRules || refused(err) {
		outcome = OutcomeUnreachable
	}
	return outcome
}

// errCutAnswer is wrapped when a server began to answer and the network
// or the clock cut its header: an outage's failure, as a body cut is,
// which no WithErrorPolicy maps, the server having answered.
var errCutAnswer = errors.New("the server's answer was cut")

// errFollowedBelow is wrapped when a RoundTripper below the Client's own
// or a Transport's next followed a redirect itself: every hop must pass
// through the Client, to be checked and paced.
var errFollowedBelow = errors.New("a RoundTripper below followed a redirect")

// followedBelow reports whether resp, the answer to req, answers a
// redirect a RoundTripper below followed itself (an http.Client used as
// one): its request is a hop net/http made of a response that req did
// not come with, or asks another scheme, target or Host than req (a hop
// whose Response a RoundTripper cleared). A RoundTripper that sends a
// copy of req to another address (a pinned one, a pool's), its scheme,
// target and Host kept, follows none.
func followedBelow(resp *http.Response, req *http.Request) bool {
	hop := resp.Request
	if hop == nil || hop == req || hop.URL == nil || req.URL == nil {
		return false
	}
	if hop.Response != nil && hop.Response != req.Response || hop.URL.RequestURI() != req.URL.RequestURI() {
		return true
	}
	h, r := cmp.Or(hop.Host, hop.URL.Host), cmp.Or(req.Host, req.URL.Host)
	if strings.EqualFold(hop.URL.Scheme, req.URL.Scheme) && strings.EqualFold(h, r) {
		return false
	}
	a := target.Authority(hop.URL.Scheme, h) // a.test:80 is a.test
	return a == "" || a != target.Authority(req.URL.Scheme, r)
}

// withoutUser returns u as a string, without its userinfo: an error or a
// Store holds no credential.
func withoutUser(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}

// errAnswer is wrapped when a server began to answer but its answer could
// not be read (by net/http, or its body by the Client): no failure to
// reach it, which WithErrorPolicy maps.
var errAnswer = errors.New("the server's answer could not be read")

// refused reports whether err, a failed fetch's, is the Client's refusal
// of what it was given, not an outage, which neither WithErrorPolicy nor
// WithUnreachableAllowAfter turns into allow-all: a robots.txt a guard
// refused is never "no robots.txt", nor is a hop that may not be sent or
// a Location that cannot be followed, nor an answer that could not be
// read (a redirect's Location with a control byte, a status of four
// digits, a body in a coding the Client cannot read, or only a part of
// the file).
func refused(err error) bool {
	return errors.Is(err, ErrNonPublic) || errors.Is(err, errRedirects) || errors.Is(err, errAnswer)
}

// serversOwn reports whether a fetch's failure, err after status (0 for
// none), is its server's whoever asks, not the doing of a chain of
// redirects that asked (its deadline, its bounds, a cut): an error
// status (but for a body a policy reads that was cut), no connection
// (causeUnanswered), an answer that could not be read (a coding the
// Client cannot read, a part of the file, a redirect it cannot follow).
// Only such a failure, met through a hop, is kept for the site, as its
// own check would keep it (see keepTheirFailure). err may be capErr's
// copy.
func serversOwn(status int, err error) bool {
	causes := causesOf(err)
	return status >= 400 && causes&causeCut == 0 || causes&causeUnanswered != 0 || errors.Is(err, errAnswer)
}

// kept returns the redirects led lists as persisted.redirects lists
// them: at most maxKeptRedirects, the final one last.
func kept(led []string) string {
	if len(led) > maxKeptRedirects {
		led = append(led[:maxKeptRedirects-1:maxKeptRedirects-1], led[len(led)-1])
	}
	return strings.Join(led, "\n")
}

// send sends one GET to authority, taking its turn (see pace), with the
// configured headers and prev's validators; meanwhile, if not nil, is
// asked after each wait for the turn whether the request is needed no
// longer, which send then reports with errAnsweredMeanwhile.
func (f *fetcher) send(ctx context.Context, target, authority string, prev *entry, meanwhile func() bool) (*http.Response, error) {
	var answered atomic.Bool // the server began to answer
	trace := &httptrace.ClientTrace{GotFirstResponseByte: func() { answered.Store(true) }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(context.WithValue(ctx, fetchKey{}, f), trace),
		http.MethodGet, target, nil)
	if err != nil {
		return nil, fmt.Errorf("robotstxt: request for %s: %w", capQuote(target), err)
	}
	if h := sentHost(authority); h != req.URL.Host {
		req.Host = h // the authority's spelling, as the Transport sends its pages
		// The URL's host as the site's own fetch spells it, so that
		// TLS names the server as that fetch does: a hop to
		// https://VICTIM.TEST/ said "VICTIM.TEST", which a server
		// choosing its certificate or backend by exact name answers
		// otherwise, and the answer was kept as victim.test's own.
		// A name with a final dot too: dialled as written, it may
		// resolve otherwise than the site's own fetch dials, and its
		// answer, failure or hold would be kept as the site's. An IDN
		// is dialled as its A-label, as net/http would: its HTTP/2
		// pool keeps a connection under the lower-case A-label, looks
		// it up under the name made ASCII with its case kept
		// ("xn--Bcher-kva.test"), misses, and dials again without end
		// (Go 1.26, golang/go#80417).
		req.URL.Host = h
	}
	cfg := &f.c.cfg
	req.Header.Set("User-Agent", cfg.userAgent)
	req.Header.Set("Accept", "text/plain, */*;q=0.5")
	// Asked for here, not by net/http, whose transparent gzip reads a
	// body with no gzip stream at all (a 200 cut before its first byte)
	// as an empty file: allow everything. body.Read undoes it instead.
	req.Header.Set("Accept-Encoding", "gzip")
	if cfg.from != "" {
		req.Header.Set("From", cfg.from)
	}
	etag, lastMod := prev.validators()
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	if lastMod != "" {
		req.Header.Set("If-Modified-Since", lastMod)
	}
	turnDone, err := f.c.pace(ctx, authority, meanwhile)
	if err != nil {
		return nil, err
	}
	// Out until its answer is read or given up, with the turn.
	f.c.asking.sending(ctx, authority, true)
	done := func(resp *http.Response) {
		f.c.asking.sending(ctx, authority, false)
		turnDone(resp)
	}
	var resp *http.Response
	handed := false // the turn ends with the body
	defer func() {
		if !handed {
			done(resp) // no response will come (a panic too)
		}
	}()
	resp, err = f.hc.Do(req)
	err = withheldLocation(err)
	if err != nil && answered.Load() {
		why := errAnswer
		if cut(errors.Unwrap(err)) { // Do's *url.Error is a net.Error itself: what it wraps tells
			why = errCutAnswer
		}
		return nil, fmt.Errorf("robotstxt: fetching %s: %w: %w", capQuote(target), why, err)
	}
	if err != nil {
		return nil, fmt.Errorf("robotstxt: fetching %s: %w", capQuote(target), err)
	}
	if resp.StatusCode < 100 || resp.StatusCode > 999 {
		// No status an HTTP/1 status line carries, which net/http's
		// HTTP/2 client or a RoundTripper may give (65736): no answer a
		// policy reads, nor one the Store keeps.
		_ = resp.Body.Close()
		return nil, fmt.Errorf("robotstxt: fetching %s: %w: status %d", capQuote(target), errAnswer, resp.StatusCode)
	}
	if resp.Request == nil {
		// A RoundTripper need not fill it in; what follows reads it.
		resp.Request = req
	}
	if followedBelow(resp, req) {
		// Its hops were not checked, and the answer may be another
		// site's page, whose Retry-After holds no turn of this one's.
		_ = resp.Body.Close()
		to := resp.Request
		if !atSite(to, authority) {
			resp = nil
		}
		return nil, fmt.Errorf("robotstxt: fetching %s: %w: %w to %s", capQuote(target), errRedirects, errFollowedBelow, capQuote(withoutUser(to.URL)))
	}
	// The request's context does not bound every body (an unsolicited 101
	// gives the raw connection): close it when the fetch ends. The turn
	// ends with the body, read to its end or closed, as a page's does: a
	// hop's body still arriving keeps its site's next request waiting.
	sb := &stopBody{ReadCloser: resp.Body, ctx: ctx}
	got := resp
	sb.end = func() { done(got) }
	sb.stop = context.AfterFunc(ctx, sb.cut)
	resp.Body, handed = sb, true
	return resp, nil
}

// locationUnread is how net/http's Client begins the error of a
// redirect's Location it cannot parse, which it quotes whole.
const locationUnread = "failed to parse Location header"

// withheldLocation returns err, of an http.Client, with the Location it
// could not parse withheld when it may hold credentials (see withheld):
// a password in it would reach the Decision, the log and the Store.
func withheldLocation(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil && strings.HasPrefix(ue.Err.Error(), locationUnread) {
		msg := ue.Err.Error()
		if shown := withheld(msg, msg); shown != msg {
			return &url.Error{Op: ue.Op, URL: ue.URL, Err: errors.New(locationUnread + " " + shown)}
		}
	}
	return err
}

// classify reads a final response to target, k's document, sent with
// the validators of validated: its status and, for rules, its body. Only
// robots.txt has a configurable policy.
func (f *fetcher) classify(res *fetchResult, resp *http.Response, k key, target string, validated *entry) {
	defer discard(resp)
	// A 304 means "keep your copy" only to a request that had one: one
	// made conditional by a layer below the Client has none to keep.
	if etag, lastMod := validated.validators(); resp.StatusCode == http.StatusNotModified && etag+lastMod != "" {
		res.notModified = true
		res.otherBody = otherBody(validated, resp.Header)
		return
	}
	policy := defaultStatusPolicy
	if k.doc.robots {
		policy = f.c.cfg.policy
	}
	res.outcome = valid(policy(resp.StatusCode))
	if res.outcome != OutcomeRules {
		if res.outcome == OutcomeUnreachable {
			res.err = fmt.Errorf("robotstxt: %s answered %s", capQuote(target), capQuote(resp.Status))
		}
		return
	}
	if resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusResetContent {
		return // no content, whatever coding a header names: an empty file
	}
	// A 206 of a part of the file (a cache may replay another client's)
	// lacks the rules past it, or its groups' user-agent lines: it must
	// name the whole file, and hold it.
	partial := resp.StatusCode == http.StatusPartialContent
	raw := &readBody{ReadCloser: resp.Body}
	var r io.Reader = resp.Body
	if partial {
		r = raw // counted
	}
	b, err := body.Read(r, resp.Header, f.c.cfg.readLimit(k.doc))
	held := raw.n.Load()
	if b.Truncated {
		held = math.MaxInt64 // read to the limit, not to its end
	}
	if partial && err == nil && rangeShort(resp.Header, held) {
		err = fmt.Errorf("a part of the file (Content-Range %q, %d bytes)", rangesText(resp.Header), raw.n.Load())
	}
	if !k.doc.robots && err == nil && markup(b.Text) {
		// A page served for it, in any charset, at any length: no
		// file, as a 404 (see Transport.Receipt), kept as an empty one.
		res.body = b.Text[:0]
		return
	}
	if !k.doc.robots && err == nil && b.Truncated {
		// Only robots.txt is read up to its limit (RFC 9309 §2.5): a
		// tdmrep.json cut there, its last line dropped, could read as
		// no file (one written on one line is all that line).
		err = fmt.Errorf("%w: more than %d bytes", tdmrep.ErrTooLarge, tdmrep.MaxSize)
	}
	if !k.doc.robots && err == nil && !readAsSent(b, resp.Header) {
		err = errors.New("tdmrep.json not in UTF-8, nor read without U+FFFD in the charset its Content-Type names or its byte-order mark tells")
	}
	if err != nil {
		res.outcome = OutcomeUnreachable
		if !cut(err) {
			err = unreadAnswer{err}
		}
		res.err = fmt.Errorf("robotstxt: reading %s: %w", capQuote(target), err)
		return
	}
	res.body, res.cut = b.Text, b.Truncated
}

// readAsSent reports whether b, a tdmrep.json read with header as a
// robots.txt is, holds the text its server wrote: JSON is UTF-8 (RFC 8259
// §8.1). Not so a body read in Windows-1252 that no Content-Type named (a
// UTF-8 file with one stray byte, whose line "/café/" is on would read as
// "/cafÃ©/"), nor one not in the charset said, whose bytes decode to
// U+FFFD ("/caf\xE9/" said to be UTF-8 or Shift_JIS reads as
// "/caf\uFFFD/"): either location matches no URL, and the reservation
// would be lost. So a file in another charset that holds a U+FFFD of its
// own (UTF-16, UTF-32 and GB18030 can spell one) is unreadable too, which
// reserves every page rather than risk losing a reservation; a file whose
// bytes happen to read as characters of the charset said is read so.
func readAsSent(b body.Body, header http.Header) bool {
	switch b.Charset {
	case "utf-8":
		return utf8.Valid(b.Text)
	case "windows-1252":
		_, charset := body.ContentType(header)
		if enc, err := body.Encoding(charset); err != nil || enc != charmap.Windows1252 {
			return false
		}
	}
	return !bytes.ContainsRune(b.Text, utf8.RuneError)
}

// unanswered reports whether r's fetch ended with no response.
func (r *fetchResult) unanswered() bool { return r.status == 0 && r.err != nil }

// cut reports whether err, of reading an answer, is the network's or the
// clock's, as an outage's is: a connection cut or reset, an HTTP/2
// stream its server ended early (as nginx or a Go server does when the
// backend behind it fails mid-body), a deadline. A stream reset for a
// fault of the protocol is an answer that cannot be read.
func cut(err error) bool {
	var ne net.Error
	var se streamError
	if errors.As(err, &se) {
		switch se.Code {
		case 0x0, 0x2, 0x7, 0x8, 0xa, 0xb:
			// NO_ERROR, INTERNAL_ERROR, REFUSED_STREAM, CANCEL,
			// CONNECT_ERROR, ENHANCE_YOUR_CALM (RFC 9113 §7)
			return true
		}
		return false
	}
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, context.Canceled) || errors.As(err, &ne)
}

// streamError has the fields of an HTTP/2 stream error: net/http's own
// HTTP/2 error converts to any struct of them with errors.As (its way to
// golang.org/x/net/http2.StreamError), so a stream reset is told without
// linking a second HTTP/2 into every crawler.
type streamError struct {
	StreamID uint32
	Code     uint32
	Cause    error
}

func (e streamError) Error() string {
	return fmt.Sprintf("HTTP/2 stream %d ended with error code %#x", e.StreamID, e.Code)
}

// unreadAnswer is the failure to read the body of an answer that is not
// cut: a coding the Client cannot read, a part of the file. It matches
// errAnswer; its text is its cause's.
type unreadAnswer struct{ error }

func (e unreadAnswer) Unwrap() error        { return e.error }
func (e unreadAnswer) Is(target error) bool { return target == errAnswer }

// An unneeded body is read, up to drainLimit, so that its connection can
// be reused (enough for a typical HTML error page), for up to drainWait:
// a body that stops short of its length on an open connection (a 301 or
// 404 whose Content-Length lies) held the fetch to its deadline, and a
// connection kept saves a handshake, a few round trips, which waiting
// longer would cost.
const (
	drainLimit = 64 << 10
	drainWait  = 250 * time.Millisecond
)

// otherBody reports whether a 304's header names another body than the
// one validated holds (RFC 9111 §4.3.4: it then updates none): by ETag,
// weakly compared (RFC 9110 §8.8.3.2), when both have one; else by
// Last-Modified, when both have one, as a server that sends no ETag
// (net/http's ServeContent) answers 304 with the date of a file rolled
// back to an older one. Never when neither validator is on both.
func otherBody(validated *entry, h http.Header) bool {
	kept, keptMod := validated.validators()
	if etag := h.Get("ETag"); kept != "" && etag != "" {
		return strings.TrimPrefix(kept, "W/") != strings.TrimPrefix(etag, "W/")
	}
	mod := h.Get("Last-Modified")
	if keptMod == "" || mod == "" {
		return false
	}
	a, aerr := http.ParseTime(keptMod)
	b, berr := http.ParseTime(mod)
	if aerr == nil && berr == nil {
		return !a.Equal(b)
	}
	return keptMod != mod
}

// discard drains up to drainLimit of a body send returned, for up to
// drainWait, and closes it.
func discard(resp *http.Response) {
	b := resp.Body.(*stopBody)
	t := time.AfterFunc(drainWait, b.cut)
	_, _ = io.CopyN(io.Discard, b, drainLimit)
	t.Stop()
	_ = b.Close()
}

// fetchKey keys the *fetcher that sent a request in its context.
type fetchKey struct{}

// sentBy reports whether req is one of c's own requests, for robots.txt
// or tdmrep.json, which a Transport passes on as they are: the fetch
// checked and paced what needs it (see admitHop and Client.pace).
func (c *Client) sentBy(req *http.Request) bool {
	return req.Context().Value(fetchKey{}) == &c.fetcher
}

// stopBody is a body whose end, read or closed, ends the turn its
// request took, whose Close stops send's watch, and whose reads after the
// watch closed it name the deadline, not "read on closed body".
type stopBody struct {
	io.ReadCloser
	ctx  context.Context
	stop func() bool
	once sync.Once
	end  func() // ends the turn
	// late is a panic of end run by cut, raised again by the fill's
	// next Read or Close.
	late atomic.Pointer[fillPanic]
}

func (b *stopBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.once.Do(b.end)
		b.raise()
		if err != io.EOF && b.ctx.Err() != nil {
			err = fmt.Errorf("%w (%w)", b.ctx.Err(), err)
		}
	}
	return n, err
}

func (b *stopBody) Close() error {
	b.stop()
	defer b.raise()
	defer b.once.Do(b.end) // also when the caller's body panics in Close
	return b.ReadCloser.Close()
}

// cut closes b and ends the turn from another goroutine than the fill's,
// when the fetch ends or a drain takes too long. A panic in closing the
// body (a caller's RoundTripper gave it) or ending the turn (a Pacer's
// Done) is raised again in the fill, whose read or close the cut ends:
// in a timer's goroutine nothing could recover it.
func (b *stopBody) cut() {
	keep := func() {
		if v := recover(); v != nil {
			b.late.CompareAndSwap(nil, newFillPanic(v))
		}
	}
	func() { // the caller's body, which may panic too
		defer keep()
		_ = b.ReadCloser.Close()
	}()
	b.once.Do(func() {
		defer keep()
		b.end()
	})
}

// raise raises the panic a cut met, once.
func (b *stopBody) raise() {
	if p := b.late.Swap(nil); p != nil {
		panic(p)
	}
}

func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
