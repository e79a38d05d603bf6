package robotstxt

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/body"
	"github.com/robotsgate/robotstxt/internal/match"
	"github.com/robotsgate/robotstxt/internal/parse"
	"github.com/robotsgate/robotstxt/internal/quote"
	"github.com/robotsgate/robotstxt/internal/target"
	"github.com/robotsgate/robotstxt/internal/tdmrep"
	"github.com/robotsgate/robotstxt/internal/usage"
	"github.com/robotsgate/robotstxt/meta"
	"golang.org/x/net/html"
	htmlcharset "golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
)

// A Receipt is everything a site told a crawler about what it may do
// with one page, for a compliance log: the merged preferences, each
// signal behind them, and the robots.txt they rest on. [Transport.Receipt]
// makes one. It marshals with encoding/json and implements
// [slog.LogValuer]. Its JSON is written for a log, not read back into a
// Receipt: a program reading the log decodes each line into types of its
// own, the usage an object of labels with "y" or "n", a signal's pref
// "y", "n" or "unknown" (json.Unmarshal into a Receipt fails at a
// signal's pref, and into a [Usage] keeps nothing).
//
// A Receipt is deterministic: the signals stand in the order
// Transport.Receipt lists their sources, each source's in the order of
// the site's text (X-Robots-Tag's noai before its noimageai, whatever
// their order). It is bounded: it keeps at most 16 signals of each
// source (Dropped counts those left out), the first of each label's
// preference before a repeat, one of a label crawlers read before
// another, and a "no" before a "yes"; and 16 licences. It leaves out
// labels over 64 bytes, in its Usage too, and cuts each other string a
// site chose to 512 bytes (a signal's Value to 256), marked with "…".
type Receipt struct {
	// URL is the page's URL, as the request reached the server, without
	// userinfo, its query's bytes past ASCII escaped as its path's are
	// ("?q=caf%E9"), whole (the Transport sends no path and query past 8 KiB;
	// a URL past 10 KiB, which only a host no DNS name is as long makes,
	// is cut, marked with "…");
	// "" for a request URL the Transport would not send (see
	// [ErrBadURL]), which names no page for sure.
	URL string `json:"url"`
	// Agent is the product token the crawler is matched by (several are
	// joined by ", ").
	Agent string `json:"agent"`
	// FetchedAt is when the receipt was made, by the Client's clock, in
	// UTC, after any robots.txt or tdmrep.json it fetched: make it as soon
	// as the page is read.
	FetchedAt time.Time `json:"fetched_at"`
	// Usage is the merged answer of the signals that count.
	Usage Usage `json:"usage"`
	// Signals are the statements behind Usage.
	Signals []Signal `json:"signals"`
	// Dropped counts the signals left out by the bounds; usually 0.
	Dropped int `json:"dropped,omitempty"`
	// Robots is the robots.txt the answer rests on; nil when robots.txt
	// could not be consulted at all. For an allow-all standing in for a
	// file never read (see [WithUnreachableAllowAfter], [WithErrorPolicy],
	// [WithStatusPolicy]), it says what stood in (Outcome "allow-all",
	// the Status), and Signals say robots.txt was unreachable.
	Robots *RobotsEvidence `json:"robots,omitempty"`
	// Licenses are the RSL License URLs of that robots.txt (see
	// [Robots.Licenses]).
	Licenses []string `json:"licenses"`
	// TDMPolicy is the TDMRep tdm-policy URL that applies to the page
	// when its TDM rights are reserved, else "".
	TDMPolicy string `json:"tdm_policy,omitempty"`
}

// RobotsEvidence identifies the robots.txt a [Receipt] rests on.
type RobotsEvidence struct {
	// Authority is the normalised authority (see [Decision].Authority).
	Authority string `json:"authority"`
	// FinalURL is the URL redirects led to for the authority's
	// robots.txt, whose file the evidence names, or "" when its own
	// /robots.txt answered (see [Decision].FinalURL), its query's bytes
	// past ASCII escaped as [Receipt].URL's are.
	FinalURL string `json:"final_url,omitempty"`
	// FetchedAt is when the robots.txt was fetched or last revalidated,
	// by the clock of the process that fetched it (see
	// [Decision].FetchedAt): a copy another process stored may be dated
	// up to a minute after the receipt's FetchedAt.
	FetchedAt time.Time `json:"fetched_at"`
	// Status is the HTTP status it rests on (see [Decision].Status).
	Status int `json:"status"`
	// Outcome is how it was read: "rules", "allow-all", "disallow-all"
	// or "unreachable" (see [Outcome]).
	Outcome string `json:"outcome"`
	// SHA256 is the hex SHA-256 of the robots.txt the rules were read
	// from, as the Client keeps it: the Text that
	// [github.com/robotsgate/robotstxt/parser.Read] gives of the response
	// body with the body limit of the Client that fetched it (decoded, in
	// UTF-8, cut at the limit, the line the limit cuts kept as that reads
	// it: a copy another process stored under [WithStore] was cut at its
	// limit), which anyone holding the body can compute again; "" when
	// Outcome is not "rules".
	SHA256 string `json:"sha256"`
	// RuleLine is the line of the deciding Allow or Disallow rule, 0
	// when none matched.
	RuleLine int `json:"rule"`
	// Stale reports that a last good copy stood in for a robots.txt
	// that could not be fetched again.
	Stale bool `json:"stale,omitempty"`
	// Disallowed reports that the robots.txt disallows the page (one
	// sent past the Transport, see [SkipRobots]): RuleLine is then a
	// Disallow's, or 0 for a disallow-all.
	Disallowed bool `json:"disallowed,omitempty"`
}

// maxReceiptURL bounds Receipt.URL: past the path and query the
// Transport sends (target.MaxPath), 2 KiB for the scheme, host and port,
// far past a name DNS resolves (253 bytes), which only a dialer of the
// caller's answers.
const maxReceiptURL = target.MaxPath + 2<<10

// receiptURL is a URL as a receipt names it: the query's bytes past
// ASCII, which net/http sends raw, escaped as its path's are, so that
// JSON, which writes invalid UTF-8 as U+FFFD, keeps two such URLs apart
// and no C1 control of a link's reaches a log; cut to maxReceiptURL.
func receiptURL(served string) string {
	q := strings.IndexByte(served, '?') // the host holds none, the path's are escaped
	if q < 0 || ascii.IsASCII(served[q:]) {
		return quote.Cut(served, maxReceiptURL)
	}
	b := []byte(served[:q])
	for _, c := range []byte(served[q:]) {
		if c >= utf8.RuneSelf {
			b = ascii.AppendEscape(b, c)
		} else {
			b = append(b, c)
		}
	}
	return quote.Cut(string(b), maxReceiptURL)
}

// maxLicenses bounds Receipt.Licenses: RSL files name one or two.
const maxLicenses = 16

// Receipt returns everything the site told the crawler about what it may
// do with resp, a response the Transport returned, and with body, the
// page's body the caller has read (nil reads the headers only). Its Usage
// combines, label by label (n if any says n, else y if any says y), every
// signal below, each listed as a [Signal] of the Source named:
//
//   - "robots.txt" and "content-signal": robots.txt's Content-Usage rules
//     and Content-Signal records, as [Decision].Usage reads them for
//     resp.Request in the robots.txt the Transport sent it under; also
//     train-ai=n, Where "unreadable", for a path spelled otherwise than
//     served whose forms cost past a bound to check against a hostile
//     file's rules (see [Decision].Rule); a rule or record whose line was
//     cut short is listed with Where "unreadable" too, as the refusals it
//     is read as (see [Robots.Usage]);
//   - "content-usage-header": the Content-Usage header field, its lines
//     but empty ones joined with ", " into one statement;
//   - "content-signal-header": the Content-Signal header field (as sites
//     serving Cloudflare's Content Signals send it), each of its lines
//     read as one of robots.txt's Content-Signal records, and combined
//     as those are (a no of one line is not undone by another's yes);
//   - "x-robots-tag": noai in the X-Robots-Tag header, train-ai=n;
//     noimageai only on an image, by its Content-Type or else by
//     sniffing body (on a page it speaks of the page's images, which are
//     responses of their own; with neither, it counts);
//   - "robots-meta": noai in a robots META tag, train-ai=n; also
//     train-ai=n, Where "unreadable", for an HTML body whose tags cannot
//     be read (a content coding net/http left, a head past the mebibyte
//     [meta.FromHTML] reads, a body that ends within the head short of
//     the page, or before its first byte: of its Content-Length, of what
//     was read of a body this Transport returned (not one sent past it,
//     see [SkipRobots]), or of a whole page, for a 206; a 206 of a range
//     that does not start at the page's start; an XHTML body XML does not
//     read as far as its body, not well-formed, or whose prolog the
//     Transport's XML reader does not follow);
//   - "tdmrep.json", "tdm-header" and "tdm-meta": TDMRep's
//     /.well-known/tdmrep.json ([WithTDMRep]), tdm-reservation header
//     field and META tag, each a source combined as the others are: a
//     reservation (1) from any is train-ai=n, with TDMPolicy the
//     tdm-policy of the most specific technique giving one (the META's
//     over the header's over the file's), with a reservation or alone,
//     or beside a 0 when a narrower technique then reserves without one
//     and none other is given (a value absent resets none); 0 is listed
//     as [PrefUnknown] and lifts no reservation of another; any other
//     value is no value. A tdmrep.json that is
//     empty, or markup such as an HTML page (a site's page for every
//     path it lacks), is no file;
//   - "page": train-ai=n, Where "unreadable", for a 304 (Not Modified),
//     whose header fields are not the page's: they update those of the
//     response it validates (RFC 9111 §4.3.4), which a server sends few
//     of again. The receipt of a revalidated page is that response's:
//     pass it, its Header updated with the 304's fields and its Request
//     the 304's (checked against robots.txt as it stands now), with the
//     body kept.
//
// Headers and META tags are read as [Transport.PageDirectives] reads
// them. robots.txt and tdmrep.json are those of the site the request's
// Host names, and URL the page's at that site. When the Transport sent it
// to another (a Host naming the URL's host at another port, or kept by an
// http.Client across a redirect to another server, its www. twin's too:
// it checked it against both sites' robots.txt), which site's page the
// server sent is the server's choice: the refusals of the robots.txt of
// the site it was sent to count too, failing closed (its yes does not),
// listed as the first site's are, their Where prefixed with its authority
// ("http://b.test:80 line 2"); its tdmrep.json is not read. A Host naming
// another host on the port dialled names the page's site, reached by a
// pinned address; its site alone is read. Each robots.txt is the copy the
// Transport checked the request against before sending it, parsed again,
// whether it has since expired, changed or left the cache: none is
// fetched for the receipt. For a response the Transport did not send (a
// request of [SkipRobots], one built by hand, even in the context of a
// response it did send; but not the very *http.Request of one it sent,
// sent again, which the receipt cannot tell from it), resp.Request is
// checked now as the Transport checks a request (but that a Host kept
// across servers, or naming the URL's host in another form of an
// internationalised name, is not told: it reads as the Host's site
// alone), and tdmrep.json is read now for every response; a fetch of
// either waits as long as one fetch may take, even once the request's
// context has ended. It fails closed: when either file cannot be
// consulted (unreachable with no usable copy, an allow-all that
// [WithUnreachableAllowAfter] or a [WithErrorPolicy] gave in its place,
// or a [WithStatusPolicy] for a status other than a 4xx but 429 or a
// redirect, a closed Client, no resp.Request), train-ai is n, with a
// Signal whose Where is "unreachable" and whose Value is the error. For a
// URL robots.txt disallows, robots.txt states nothing, and
// [RobotsEvidence].Disallowed says so. A nil resp gives a Receipt of
// nothing.
func (t *Transport) Receipt(resp *http.Response, body []byte) Receipt {
	t.mustBeMade()
	rc := Receipt{Agent: strings.Join(t.c.tokens, ", "), Signals: []Signal{}, Licenses: []string{}}
	if resp != nil {
		rd := reading{record: true, signals: rc.Signals}
		t.read(&rd, resp, body, &rc)
		rc.Usage, rc.Signals, rc.Dropped = rd.usage, rd.signals, rd.dropped
	}
	// Dated once read: a robots.txt fetched for it is no later.
	rc.FetchedAt = t.c.cfg.now().UTC()
	return rc
}

// Usage returns the Usage of [Transport.Receipt] for resp without a body,
// so without the robots and TDMRep META tags, resting on the same
// robots.txt, and, for a response without a Content-Type, with
// X-Robots-Tag's noimageai (no body tells it is not an image); a nil resp
// gives the zero Usage. Under [WithTDMRep] a tdmrep.json not cached fresh
// (not yet, or expired) is fetched through the Client's HTTP client,
// which [NewClientTransport] shares with the pages: under a cap of
// connections per host (http.Transport's MaxConnsPerHost) the page whose
// body is unread may hold the one the fetch needs, which then waits out
// WithFetchTimeout and keeps the file as unreachable (train-ai=n) for its
// back-off, in a [Store] too; so with a robots.txt not cached fresh (for
// a page sent with [SkipRobots], or expired since the page's check).
// There, ask Usage, and [Transport.Receipt], once the body is read or
// closed.
func (t *Transport) Usage(resp *http.Response) Usage {
	t.mustBeMade()
	if resp == nil {
		return Usage{}
	}
	var rd reading
	t.read(&rd, resp, nil, nil)
	return rd.usage
}

// read gathers into rd what the signals say of resp and body (see
// Transport.Receipt); rc, when not nil, receives the URL, the robots.txt
// evidence, licences and policy.
func (t *Transport) read(rd *reading, resp *http.Response, body []byte, rc *Receipt) {
	var f *tdmrep.File
	var err error
	var path string
	if req := resp.Request; req != nil {
		t.robotsTxt(rd, req, rc)
		if f, err = t.tdmFile(req); f != nil {
			path = requestPath(req)
		}
	} else {
		// The Transport sets it; without it, neither robots.txt nor
		// tdmrep.json can be consulted.
		rd.state("robots.txt", "unreachable", "the response has no Request", noTraining)
	}
	h := resp.Header
	if resp.StatusCode == http.StatusNotModified {
		rd.state("page", "unreadable", errNotModified.Error(), noTraining)
	}
	if stmt := listed(h.Values("Content-Usage")); stmt != "" {
		rd.state("content-usage-header", "Content-Usage", stmt, parseUsage(stmt))
	}
	if lines := h.Values("Content-Signal"); len(lines) > 0 {
		// Each line a record: an origin's no and a CDN's yes combine,
		// in time linear in them all.
		var records usage.Combiner
		for _, line := range lines {
			u := parseContentSignal(line)
			records.Add(u.members)
			rd.list("content-signal-header", "Content-Signal", line, u)
		}
		rd.usage = rd.usage.combine(Usage{records.Members()})
	}
	xrt := t.headerDirectives(resp)
	if xrt.NoAI {
		rd.state("x-robots-tag", "X-Robots-Tag", "noai", noTraining)
	}
	if xrt.NoImageAI && isImage(h, body) {
		rd.state("x-robots-tag", "X-Robots-Tag", "noimageai", noTraining)
	}
	var tags meta.TDM
	page, unread := pageHTML(resp, body, t.bodyRead(resp))
	if page.b != nil {
		unread = t.robotsMeta(rd, page)
		tags = page.tdm()
	}
	if unread != nil {
		rd.state("robots-meta", "unreadable", unread.Error(), noTraining)
	}
	policy := rd.tdmOf(f, err, path, h, tags)
	rd.usage = rd.usage.shortLabels()
	if rc != nil {
		rc.TDMPolicy = capText(policy)
	}
}

// shortLabels returns u without the labels longer than maxSignalLabel,
// which a reading leaves out of its signals too (see reading.note).
func (u Usage) shortLabels() Usage {
	return u.filter(func(label, _ string) bool { return len(label) <= maxSignalLabel })
}

// filter returns u with only the members keep reports true of (u itself
// when it keeps them all).
func (u Usage) filter(keep func(label, value string) bool) Usage {
	var kept []string
	all := true
	for label, v := range usage.All(u.members) {
		if keep(label, v) {
			kept = append(kept, label+"="+v)
		} else {
			all = false
		}
	}
	if all {
		return u
	}
	return Usage{strings.Join(kept, ", ")}
}

// tdmOf gathers into rd what TDMRep says of a page at path (see
// requestPath): its site's tdmrep.json f (nil for none), or the error
// reading it gave; its header fields h (a valid "1" wins over "0", in a
// line of its own or joined with others by commas); and its META tags.
// Each is a source of its own, combined as every other: a reservation
// (1) from any is train-ai=n, which a 0 from another does not lift. It
// returns, when one reserves, the policy of the most specific technique
// that gives one (META, header, file), beside a reservation of its own
// or none, as the report has a page's values replace its site's, or,
// for a narrower one's reservation without one, the policy given beside
// a 0 before it, which a value absent does not reset; else "": the report
// asks agents not to process one beside a 0.
func (rd *reading) tdmOf(f *tdmrep.File, fileErr error, path string, h http.Header, tags meta.TDM) (policy string) {
	if fileErr != nil {
		rd.state("tdmrep.json", "unreachable", fileErr.Error(), noTraining)
	}
	header := tdmSay{source: "tdm-header", where: "tdm-reservation"}
	for _, line := range h.Values("Tdm-Policy") { // the first that says one: an empty line an intermediary added says none
		if header.policy = strings.TrimSpace(line); header.policy != "" {
			break
		}
	}
	for _, line := range h.Values("Tdm-Reservation") {
		for v := range strings.SplitSeq(line, ",") { // lines joined are one list (RFC 9110 §5.3)
			if reserved, ok := tdmrep.Reservation(v); ok {
				header.set, header.reserved = true, header.reserved || reserved
			}
		}
	}
	says := [...]tdmSay{fileSay(f, path), header, {source: "tdm-meta", where: "tdm-reservation", policy: tags.Policy,
		set: tags.Reservation != "", reserved: tags.Reservation == "1"}}
	reserved := false
	var beside0 string // the narrowest policy given beside a 0
	for _, s := range says {
		switch {
		case s.policy != "" && (!s.set || s.reserved):
			// A technique's policy replaces a broader one's, unless given
			// beside its own 0.
			policy = s.policy
		case s.policy != "":
			beside0 = s.policy
		case s.reserved && policy == "":
			// A narrower technique reserves without one: TDMRep's
			// absence of a value resets none given before.
			policy = beside0
		}
		if !s.set {
			continue
		}
		sig := Signal{Source: s.source, Label: "train-ai", Where: s.where, Value: "0"}
		if s.reserved {
			reserved = true
			sig.Pref, sig.Value = PrefNo, "1"
			rd.usage = rd.usage.combine(noTraining)
		}
		rd.note(sig)
	}
	if !reserved {
		return ""
	}
	return policy
}

// A tdmSay is what one TDMRep technique says of a page.
type tdmSay struct {
	source, where string
	set           bool   // tdm-reservation is 0 or 1; else the technique says nothing of it
	reserved      bool   // tdm-reservation is 1
	policy        string // tdm-policy, or ""
}

// fileSay returns what a site's tdmrep.json f, nil for none, says of
// path and the normal forms a server may serve it as: the entry that
// decides for the first form it reserves, else for the first form an
// entry matches.
func fileSay(f *tdmrep.File, path string) (say tdmSay) {
	if f == nil {
		return say
	}
	for _, p := range pathForms(path) {
		i, r, ok := f.Match(p)
		if !ok || say.set && (say.reserved || !r.Reserved) {
			continue
		}
		say = tdmSay{source: "tdmrep.json", where: "entry " + strconv.Itoa(i+1), set: true, reserved: r.Reserved, policy: r.Policy}
	}
	return say
}

// robotsTxt gathers into rd what robots.txt says of req's URL, and into
// rc, when not nil, the URL, the evidence, the licences and the
// statements: those of the site req's Host names, then the refusals of
// the site it was sent to when that is another (see Transport.dialed).
func (t *Transport) robotsTxt(rd *reading, req *http.Request, rc *Receipt) {
	var files []robotsFile
	if f := t.servedRobots(rd, req, rc); f.t != nil {
		files = append(files, f)
	}
	if d, err := t.dialed(req); err != nil {
		rd.state("robots.txt", "unreachable", err.Error(), noTraining)
	} else if d != nil {
		if neverRead(*d) {
			rd.state("robots.txt", "unreachable", at(d.Authority, ": ", unreadWhy(*d)), noTraining)
		} else {
			rd.usage = rd.usage.combine(refusals(d.Usage))
		}
		// Of a URL it disallows, robots.txt states nothing (as the Host
		// site's); its statements are not listed.
		if rc != nil && d.Allowed && d.e != nil && d.e.outcome == OutcomeRules && !neverRead(*d) {
			if text, err := d.e.text(); err == nil {
				files = append(files, t.robotsFileOf(ParseMode(text, d.mode), d.mode, d.Authority))
			}
		}
	}
	if len(files) > 0 {
		rd.robotsTxt(pathForms(requestPath(req)), files...)
	}
}

// robotsFileOf returns r, read in mode, as a reading lists it for the
// Transport's crawler; at as robotsFile has it.
func (t *Transport) robotsFileOf(r *Robots, mode Mode, at string) robotsFile {
	groups, named := r.t.AppendGroups(nil, t.c.tokens...)
	runs := r.t.UsageRuns(nil, named, t.c.tokens...)
	return robotsFile{t: r.t, mode: mode, runs: r.t.Theirs(runs, groups, runs), at: at}
}

// refusals returns the preferences of u that are no.
func refusals(u Usage) Usage {
	return u.filter(func(_, v string) bool { return prefOf(v) == PrefNo })
}

// at returns what, said of the site at names ("" for the site a
// request's Host names), after at and sep.
func at(at, sep, what string) string {
	if at == "" {
		return what
	}
	return at + sep + what
}

// servedRobots gathers into rd what the robots.txt of the site req's
// Host names says of req's URL, and into rc, when not nil, the URL, the
// evidence and the licences; it returns the file to list the statements
// of, when rc is not nil and the URL is allowed (else its t is nil).
func (t *Transport) servedRobots(rd *reading, req *http.Request, rc *Receipt) (_ robotsFile) {
	if rc != nil {
		served, _ := servedURL(req)
		rc.URL = receiptURL(served)
	}
	d, err := t.sentDecision(req)
	var dis *DisallowedError
	if errors.As(err, &dis) {
		d, err = dis.Decision, nil // robots.txt states nothing of a URL it disallows
	}
	switch {
	case err != nil:
		rd.state("robots.txt", "unreachable", err.Error(), noTraining)
		return
	case neverRead(d):
		rd.state("robots.txt", "unreachable", unreadWhy(d), noTraining)
	case dis == nil:
		rd.usage = rd.usage.combine(d.Usage)
	}
	if rc == nil {
		return
	}
	rc.Robots = &RobotsEvidence{Authority: d.Authority, FinalURL: receiptURL(d.FinalURL), FetchedAt: d.FetchedAt.UTC(), Status: d.Status,
		Outcome: d.Outcome.name(), RuleLine: d.Rule.Line, Stale: d.e != nil && d.e.stale, // a stand-in, not a copy merely asked again
		Disallowed: dis != nil}
	if d.e == nil || d.e.outcome != OutcomeRules {
		return
	}
	text, err := d.e.text()
	if err != nil {
		return // d.Usage stands; the lines cannot be listed
	}
	sum := sha256.Sum256(text)
	rc.Robots.SHA256 = hex.EncodeToString(sum[:])
	r := ParseMode(text, d.mode)
	for _, l := range r.Licenses()[:min(len(r.Licenses()), maxLicenses)] {
		rc.Licenses = append(rc.Licenses, capText(l))
	}
	if d.Allowed {
		return t.robotsFileOf(r, d.mode, "")
	}
	return
}

// neverRead reports whether d is the allow-all of
// WithUnreachableAllowAfter, of an error policy or of a status policy for
// a status that says no file is there (a 5xx, a 429): the file was never
// read, and may say no.
func neverRead(d Decision) bool {
	return d.e != nil && (!d.e.good() || d.e.outcome != OutcomeRules && !unavailable(int(d.e.status)))
}

// unreadWhy says why d, which neverRead, read no file.
func unreadWhy(d Decision) string {
	if d.Err != nil {
		return d.Err.Error()
	}
	return "robots.txt unreachable"
}

// dialed returns the decision of the site the Transport sent req to,
// when its Host named another whose turn the request took too (a Host
// at another port, or kept across servers: see sentUnder.dialed); else
// nil. Which site's page such a server sends is its own choice, so its
// refusals count too, failing closed; its yes does not. Of a request it
// did not send, a Host at another port is told by the request (one kept
// across servers is not), and the site's robots.txt is checked now; its
// error is the check's.
func (t *Transport) dialed(req *http.Request) (*Decision, error) {
	if s, ok := t.sent(req); ok {
		return s.dialed, nil
	}
	served, err := servedURL(req)
	if err != nil {
		return nil, nil // robots.txt cannot be consulted: robotsTxt says so
	}
	rawURL := requestURL(req.URL)
	named, _, err := target.Split(served, nil)
	if err != nil {
		return nil, nil // robots.txt cannot be consulted: robotsTxt says so
	}
	at, _, err := target.Split(rawURL, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: the URL the request was sent to: %w", ErrBadURL, err) // a server no robots.txt can be read for
	}
	if string(named) == string(at) || hostName(string(named)) != hostName(string(at)) {
		return nil, nil // one site, or a pinned address of the Host's
	}
	ctx, cancel := t.c.fillContext(req.Context())
	defer cancel()
	d, err := t.c.decide(ctx, rawURL, false)
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// servedURL returns the URL of the page req asks for as its server reads
// it: the request target at the authority its Host names, whose
// robots.txt and tdmrep.json speak for the page (see Transport.check).
func servedURL(req *http.Request) (string, error) {
	if err := badRequestURL(req.URL); err != nil {
		return "", err // not a URL the Transport sends: pasted, it may name another
	}
	host, err := headerHost(req)
	if err != nil {
		return "", err
	}
	if err := badHost(host); err != nil {
		return "", err
	}
	u := *req.URL
	u.Host = host
	served := requestURL(&u)
	named, _, err := target.Split(served, nil)
	if err != nil {
		return "", err // an authority the Transport refuses: a port past 65535, a zone
	}
	if dialed, _, err := target.Split(requestURL(req.URL), nil); err == nil && namesNeither(string(named), string(dialed)) {
		return "", fmt.Errorf("%w: request Host %q names another host at another port than the one it is sent to", ErrBadURL, capQuote(host))
	}
	return served, nil
}

// requestPath returns the path and query of req's URL as the Client
// reads them (see target.Split), or "" when it cannot.
func requestPath(req *http.Request) string {
	served, _ := servedURL(req)
	_, path, _ := target.Split(served, nil)
	return path
}

// robotsMeta gathers into rd a noai of body's robots META tags, named
// for robots or for one of the Client's product tokens, with Where
// "robots" when that tag says it, else the tokens.
func (t *Transport) robotsMeta(rd *reading, page pageText) error {
	d, err := page.directives(t.c.tokens...)
	if !d.NoAI {
		return err
	}
	where := strings.Join(t.c.tokens, ", ")
	if g, _ := page.directives(); g.NoAI {
		where = "robots"
	}
	rd.state("robots-meta", where, "noai", noTraining)
	return err
}

// tdmFile returns req's site's tdmrep.json, which the Client fetches,
// caches and shares as it does robots.txt (WithTDMRep): nil when the site
// has none or the Client does not read them; an error when it is
// unreachable with no usable copy or cannot be read.
func (t *Transport) tdmFile(req *http.Request) (*tdmrep.File, error) {
	if t.c.tdm == nil {
		return nil, nil
	}
	served, err := servedURL(req)
	if err != nil {
		return nil, err
	}
	var buf [128]byte
	authority, _, err := target.Split(served, buf[:0])
	if err != nil {
		return nil, err
	}
	ctx, cancel := t.c.fillContext(req.Context())
	defer cancel()
	if s, ok := t.sent(req); ok && s.twin.live() {
		ctx = context.WithValue(ctx, twinKey{}, s.twin)
	}
	e, err := t.c.tdmrep(ctx, string(authority))
	switch {
	case err != nil:
		return nil, err
	case e.outcome == OutcomeUnreachable:
		msg := "robotstxt: " + capQuote(key{string(authority), t.c.tdm}.url()) + " unreachable"
		if e.status != 0 {
			msg += fmt.Sprintf(" (status %d)", e.status)
		}
		if e.cause != nil {
			return nil, fmt.Errorf("%s: %w", msg, e.cause)
		}
		return nil, errors.New(msg)
	case e.outcome != OutcomeRules:
		return nil, nil // 4xx: the site has no tdmrep.json
	}
	text, err := e.text()
	switch {
	case err != nil:
		return nil, err
	case softMissing(text):
		// The page a site serves for every path it lacks (a "soft 404"):
		// the site has no tdmrep.json, as for a 404.
		return nil, nil
	}
	return tdmrep.Parse(text)
}

// softMissing reports whether text, served as a tdmrep.json, is no file:
// empty, or markup (an HTML, XHTML or XML page, whatever it starts with),
// which no JSON starts with.
func softMissing(text []byte) bool {
	return len(bytes.TrimLeft(bytes.TrimPrefix(text, []byte("\xEF\xBB\xBF")), " \t\r\n")) == 0 || markup(text)
}

// markup reports whether text, served as a tdmrep.json, is markup, which
// no JSON starts with, however it goes on (see softMissing).
func markup(text []byte) bool {
	text = bytes.TrimLeft(bytes.TrimPrefix(text, []byte("\xEF\xBB\xBF")), " \t\r\n")
	return len(text) > 0 && text[0] == '<'
}

// LogValue returns the receipt as a group of attributes, for slog, named
// as its JSON is, the usage a group of each stated label's y or n.
func (r Receipt) LogValue() slog.Value {
	var prefs []slog.Attr
	for label, v := range usage.All(r.Usage.members) {
		if p := prefOf(v); p != PrefUnknown {
			prefs = append(prefs, slog.String(label, p.String()))
		}
	}
	prefsAttr := slog.Attr{Key: "usage", Value: slog.GroupValue(prefs...)}
	if len(prefs) == 0 {
		prefsAttr = slog.Any("usage", map[string]string{}) // a handler drops an empty group: {} as in JSON
	}
	attrs := []slog.Attr{slog.String("url", r.URL), slog.String("agent", r.Agent), slog.Time("fetched_at", r.FetchedAt),
		prefsAttr, slog.Any("signals", jsonText[Signal](r.Signals))}
	if r.Dropped > 0 {
		attrs = append(attrs, slog.Int("dropped", r.Dropped))
	}
	if b := r.Robots; b != nil {
		robots := []any{slog.String("authority", b.Authority)}
		if b.FinalURL != "" { // as JSON omits it
			robots = append(robots, slog.String("final_url", b.FinalURL))
		}
		robots = append(robots, slog.Time("fetched_at", b.FetchedAt),
			slog.Int("status", b.Status), slog.String("outcome", b.Outcome), slog.String("sha256", b.SHA256),
			slog.Int("rule", b.RuleLine))
		if b.Stale { // as JSON omits it
			robots = append(robots, slog.Bool("stale", true))
		}
		if b.Disallowed { // as JSON omits it
			robots = append(robots, slog.Bool("disallowed", true))
		}
		attrs = append(attrs, slog.Group("robots", robots...))
	}
	attrs = append(attrs, slog.Any("licenses", jsonText[string](r.Licenses)))
	if r.TDMPolicy != "" {
		attrs = append(attrs, slog.String("tdm_policy", r.TDMPolicy))
	}
	return slog.GroupValue(attrs...)
}

// jsonText is a list a log handler writes as its JSON, whichever the
// handler: slog's TextHandler writes a value's MarshalText (quoted), its
// JSONHandler its MarshalJSON. The fields keep their JSON names, and the
// text a site chose stays within its quotes: written with fmt, it could
// read as a signal of its own.
type jsonText[T any] []T

func (l jsonText[T]) MarshalJSON() ([]byte, error) { return json.Marshal([]T(l)) }

func (l jsonText[T]) MarshalText() ([]byte, error) { return l.MarshalJSON() }

// headerDirectives reads the X-Robots-Tag headers of resp for the
// Client's product tokens; a nil resp gives the zero Directives.
func (t *Transport) headerDirectives(resp *http.Response) meta.Directives {
	if resp == nil {
		return meta.Directives{}
	}
	return meta.FromHeader(resp.Header, t.c.tokens...)
}

// PageDirectives reads what a page allows a crawler to do with it: the
// X-Robots-Tag headers of resp, a response the Transport returned, and
// the robots META tags of body, the page's body the caller has read (see
// [meta.FromHTML]), merged with the most restrictive reading winning (see
// [meta.Directives.Merge]), each read for the generic "robots" name and
// every product token of the Client (for XBot, <meta name="XBot" ...> and
// "XBot: noindex"). META tags are read only from an HTML body (a
// Content-Type value of text/html, application/xhtml+xml, application/xml
// or text/xml, whichever value browsers take, or, when it is missing,
// does not parse or says the type is unknown, a body that sniffs as HTML
// in some browser, or that was cut short before sniffing could tell), in
// the UTF-16 its Content-Type declares, or the ISO-2022-JP it or a <meta>
// names; body is neither kept nor changed. An XHTML body
// (application/xhtml+xml, XML's types, which W3C's XHTML Media Types
// allows it, or one sniffing as XML) is read as XML reads it, by an XML
// parser: the META elements of its head (and those HTML's parser would
// put there, children of the root before the body); an XML body whose
// root is not XHTML's <html>, or, served as XML and whole, that XML does
// not read as far as its root and whose root, read leniently, is not
// XHTML's <html> (a feed with a fault in its prolog), holds none. An HTML body whose tags cannot
// be read (see [Transport.Receipt]) says no to everything, as does a 304
// (Not Modified), whose header fields are not the page's: pass the
// response it validates (see [Transport.Receipt]). A nil resp gives the
// zero Directives, which allow everything.
func (t *Transport) PageDirectives(resp *http.Response, body []byte) meta.Directives {
	d := t.headerDirectives(resp)
	if resp == nil {
		return d
	}
	page, err := pageHTML(resp, body, t.bodyRead(resp))
	if page.b != nil {
		var m meta.Directives
		m, err = page.directives(t.c.tokens...)
		d = d.Merge(m)
	}
	if err != nil || resp.StatusCode == http.StatusNotModified {
		d = d.Merge(unreadPage)
	}
	return d
}

// errNotModified says why a 304 tells nothing of the page: its header
// fields update those of the response it validates (RFC 9111 4.3.4),
// the page's, of which a server sends few in a 304 (RFC 9110 15.4.5),
// and the page's body is typed by that response's Content-Type.
var errNotModified = errors.New("a 304 (Not Modified) holds the header of no page: " +
	"give the response it validates, its header updated with the 304's")

// unreadPage is what the META tags of a page that cannot be read may
// say: no to everything.
var unreadPage = meta.Directives{NoIndex: true, NoFollow: true, NoArchive: true, NoSnippet: true,
	NoImageIndex: true, NoTranslate: true, NoAI: true, NoImageAI: true}

// A pageText is a page's HTML as pageHTML returns it: none when b is
// nil. cut says that the response held more than the body given (see
// cutShort), so that a head that runs on to b's end went partly unread:
// its reader then ends in errCutPage, not io.EOF, which the meta package
// reports.
type pageText struct {
	b   []byte
	cut bool
	// decoded, when b is a page in a legacy charset read raw (see
	// decodedHead), is the first metaReads bytes of its decoding, where
	// its head runs on: the tags meta reads there count too, read as a
	// browser reads them (a noai after a no-break space).
	decoded []byte
}

// directives reads p's robots META tags as [meta.FromHTML] does, for
// tokens, merged with those its decoding's first mebibyte holds: a legacy
// page's head is read whole raw, and its tags as decoded as far as meta
// reads, the most restrictive reading winning.
func (p pageText) directives(tokens ...string) (meta.Directives, error) {
	d, err := meta.FromHTML(p.reader(), tokens...)
	if p.decoded != nil {
		more, _ := meta.FromHTML(bytes.NewReader(p.decoded), tokens...) // cut: the raw reading read the rest
		d = d.Merge(more)
	}
	return d, err
}

var errCutPage = errors.New("the page given ends short of the page, within its head")

func (p pageText) reader() io.Reader {
	if !p.cut {
		return bytes.NewReader(p.b)
	}
	return io.MultiReader(bytes.NewReader(p.b), cutPage{})
}

// cutPage is the end of a page cut short: errCutPage.
type cutPage struct{}

func (cutPage) Read([]byte) (int, error) { return 0, errCutPage }

// metaReads is the most of a page meta.FromHTML and meta.TDMFromHTML
// read, as their docs state.
const metaReads = 1 << 20

// listed returns the members of lines, a field's, joined as one line,
// but the empty ones (RFC 9110 5.6.1): an empty line, or a proxy's join
// of one ("search=y, , train-ai=n"), would make the field no Dictionary
// (RFC 9651 4.2), and an intermediary adding one lift the site's
// train-ai=n. A comma within a quoted string divides no members.
func listed(lines []string) string {
	var b strings.Builder
	for _, line := range lines {
		quoted, escaped, start := false, false, 0
		for i := 0; i <= len(line); i++ {
			switch {
			case i == len(line) || !quoted && line[i] == ',':
				if m := strings.Trim(line[start:i], " \t"); m != "" {
					if b.Len() > 0 {
						b.WriteString(", ")
					}
					b.WriteString(m)
				}
				start = i + 1
			case escaped:
				escaped = false
			case quoted && line[i] == '\\':
				escaped = true
			case line[i] == '"':
				quoted = !quoted
			}
		}
	}
	return b.String()
}

// tdm reads p's TDMRep META tags as [meta.TDMFromHTML] does, with those
// its decoding's first mebibyte holds (see directives): a reservation
// either reading finds counts, and the decoded reading's policy comes
// first. Its error is robotsMeta's.
func (p pageText) tdm() meta.TDM {
	t, _ := meta.TDMFromHTML(p.reader())
	if p.decoded != nil {
		more, _ := meta.TDMFromHTML(bytes.NewReader(p.decoded))
		if more.Reservation == "1" || t.Reservation == "" {
			t.Reservation = more.Reservation
		}
		t.Policy = cmp.Or(more.Policy, t.Policy)
	}
	return t
}

// decodedHead returns the page raw as meta is to read it, given text, its
// first metaReads bytes decoded: text, when no longer than metaReads;
// else text cut at the last character starting within metaReads, when
// meta finds the head's end there; else raw, undecoded, whose head may
// end within its first mebibyte where the decoded one runs past it
// (Cyrillic doubles), with that cut text as the decoding whose tags
// count too (review162: a long inline script after a noai lost it).
func decodedHead(raw pageText, text []byte) pageText {
	if len(text) <= metaReads {
		return pageText{b: text, cut: raw.cut}
	}
	n := metaReads
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	if p := (pageText{b: text[:n], cut: true}); headRead(p) {
		return p
	}
	raw.decoded = text[:n]
	return raw
}

// headRead reports whether meta reads the end of p's head.
func headRead(p pageText) bool {
	_, err := meta.FromHTML(p.reader())
	return err == nil
}

// pageHTML returns b, the body of resp, as the HTML whose META tags a
// browser reads: none when it is empty or not HTML (see isHTML), and
// given the byte-order mark of the UTF-16 its Content-Type declares, as
// browsers read it, unless it has one, or decoded from ISO-2022-JP (see
// pageCharset). An error says that it is HTML, or
// may be, but its tags cannot be read: it is in a content coding net/http
// left (the caller asked for it with Accept-Encoding, or a second coding
// after the gzip net/http undid), a range that does not start at the
// page's start, ranges in parts, or Content-Type values that disagree on
// UTF-16. A page cut before its first byte is HTML cut in its head.
func pageHTML(resp *http.Response, b []byte, read *readBody) (pageText, error) {
	h := resp.Header
	if len(b) == 0 {
		// No tags: the headers alone, a HEAD's, 204's or 304's body, or
		// an empty page; but a page cut short may have held them.
		if b == nil || !mayBeHTML(h) || !cutShort(resp, b, read) || resp.StatusCode == http.StatusNoContent ||
			resp.StatusCode == http.StatusNotModified || resp.Request != nil && resp.Request.Method == http.MethodHead {
			return pageText{}, nil
		}
		return pageText{b: b, cut: true}, nil
	}
	mt, charset := body.ContentType(h)
	isCoded := coded(h, b)
	switch {
	case isCoded && mayBeHTML(h):
		how := "compressed bytes under no Content-Encoding"
		if codings := strings.Join(h.Values("Content-Encoding"), ", "); codings != "" {
			how = "Content-Encoding " + capQuote(codings)
		}
		return pageText{}, fmt.Errorf("robotstxt: a page in %s: its META tags cannot be read", how)
	case body.ManyValues(h) && (mayBeHTML(h) || slices.Contains([]string{"text/html", "text/xml"}, mediaType(nil, b))):
		// Which a browser takes, the last, is not known: HTML, maybe,
		// if a value read says so or the page looks it.
		return pageText{}, errors.New("robotstxt: a page with over 64 Content-Type values: its META tags cannot be read")
	case resp.StatusCode == http.StatusPartialContent && body.AnyMediaType(h, "multipart/byteranges"):
		// Whatever a stray Content-Range says.
		return pageText{}, errors.New("robotstxt: ranges of a page in parts (multipart/byteranges): its META tags cannot be read")
	case resp.StatusCode == http.StatusPartialContent && !rangeFromStart(h) && mayBeHTML(h):
		return pageText{}, fmt.Errorf("robotstxt: a range of a page not known to be from its start (Content-Range %s): its META tags cannot be read",
			rangesText(h))
	case sniffedPage(mt) && !isHTML(h, b) && cutShort(resp, b, read) && startsHTML(b, true):
		// Cut before sniffing could tell: HTML cut in its head, maybe.
		// (Coded, it has returned, as a sniffed type may be HTML.)
		return pageText{b: b, cut: true}, nil
	case isCoded || !isHTML(h, b):
		return pageText{}, nil
	case !hasBOM(b) && body.AnyCharset(h, func(mt, cs string) bool {
		return utf16BOM(cs) != utf16BOM(charset) && (cs != "" || sniffedPage(mt) || mt == "text/html" || mt == "application/xhtml+xml")
	}):
		// One value says UTF-16, another not (by a charset, or by naming
		// none for an HTML page), or the other byte order: read one way,
		// the tags another reader sees (http.Header.Get takes the first)
		// are lost. A byte-order mark decides for all.
		return pageText{}, fmt.Errorf("robotstxt: a page whose Content-Type values disagree on UTF-16 (%s): its META tags cannot be read",
			capQuote(strings.Join(h.Values("Content-Type"), ", ")))
	}
	// A page rewritten or decoded is read from its first metaReads bytes,
	// which may come out shorter than meta's bound: past them, it is cut.
	page := pageText{b: b, cut: cutShort(resp, b, read) || len(b) > metaReads}
	first := b[:min(len(b), metaReads)] // the copy need hold no more
	cs, jis := pageCharset(charset, first)
	bom, enc := cmp.Or(utf16BOM(charset), xmlUTF16(h, b)), body.Stateful(cs)
	if bom != "" && !hasBOM(b) {
		first = append([]byte(bom), first...)
		page.b = first
	}
	utf16 := bytes.HasPrefix(first, []byte("\xFF\xFE")) || bytes.HasPrefix(first, []byte("\xFE\xFF"))
	whole, rooted := true, true // read to the end of the head, and its root's start, for XHTML: see xhtmlHead
	var xmlText []byte          // an XHTML page decoded, as xhtmlHead read it
	switch {
	case utf16 && isXHTML(h, b):
		// Read as UTF-8, for encoding/xml; a code unit no character is
		// (an unpaired surrogate) as U+FFFE, which XML allows nowhere,
		// not as the U+FFFD the decoder writes.
		if text, err := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder().Bytes(unpaired(first)); err == nil {
			page.b, whole, rooted = xhtmlHead(text)
			xmlText = text
		}
	case isXHTML(h, b):
		// As XML reads it: by its byte-order mark, else in the
		// Content-Type's charset, else its declaration's encoding (but
		// UTF-16's, which a page whose declaration reads as ASCII is
		// not in), else UTF-8; decoded for encoding/xml, which reads
		// UTF-8 (an escape of ISO-2022-JP read as UTF-8 is a control
		// character XML does not allow). Bytes not UTF-8 in a page in
		// UTF-8 leave it unreadable, as to XML; an encoding no browser
		// knows does too.
		label := charset
		if bytes.HasPrefix(first, []byte("\xEF\xBB\xBF")) {
			label = "utf-8"
		}
		e, err := body.Encoding(label)
		if err != nil {
			if label = xmlEncoding(first); utf16BOM(label) != "" {
				label = ""
			}
			label = cmp.Or(label, "utf-8")
			e, err = body.Encoding(label)
		}
		text := first
		if err == nil && e != unicode.UTF8 {
			text, err = body.Decoder(e).Bytes(first)
			text = unread(e, first, text, page.cut)
		}
		if err != nil && isXML(mt) && !page.cut {
			return pageText{}, nil // as no root: see below
		}
		if err != nil {
			return pageText{}, fmt.Errorf("robotstxt: an XHTML page in %s, which does not decode: its META tags cannot be read: %w", capQuote(label), err)
		}
		page.b, whole, rooted = xhtmlHead(text)
		xmlText = text
	case bom != "" || utf16:
	case bom == "" && !hasBOM(b) && jis != nil:
		return pageText{}, jis
	case bom == "" && !hasBOM(b) && enc != nil:
		// Its text may hold the bytes of '<', '>' and '"' (ISO-2022-JP's
		// 、 is !"): read decoded, as browsers read it, unless browsers
		// meet an error there, where x/text's decoder may frame the
		// bytes that follow otherwise.
		if jisMisread(first, page.cut) {
			return pageText{}, errors.New("robotstxt: an ISO-2022-JP page holding what the encoding does not read: its META tags cannot be read")
		}
		if text, err := enc.NewDecoder().Bytes(first); err == nil {
			page.b = text
		}
	case bom == "" && !hasBOM(b):
		// In another encoding than UTF-8, decoded: a no-break space
		// written in it is the one UTF-8 or &nbsp; writes, as to
		// browsers, whatever the page's length (read raw, a page of a
		// mebibyte with one é lost it; see decodedHead).
		if e := legacy(cs, first); e != nil {
			if text, err := body.Decoder(e).Bytes(first); err == nil {
				page = decodedHead(page, text)
			}
		}
	}
	if !rooted && isXML(mt) && !page.cut && !htmlRoot(xmlText) {
		// An XML document whose root XML does not reach, served as XML
		// whole, and not XHTML's <html> as a lenient reading finds it:
		// a feed or a sitemap with a fault in its prolog is no page, as
		// it was before XML's types were read as XHTML's; cut short, it
		// may be a page cut before its root (review144). A page whose
		// prolog xhtmlHead cannot follow (an XML 1.1 declaration, an
		// ATTLIST's default, a parameter entity) reads as cut, as
		// served as XHTML (tdmrep85).
		return pageText{}, nil
	}
	page.cut = page.cut || !whole
	return page, nil
}

// htmlRoot reports whether the root element of XML document page, as
// encoding/xml finds it reading leniently (its XML declaration, entities
// and DOCTYPE passed over, whatever they hold), is XHTML's <html>.
func htmlRoot(page []byte) bool {
	page = bytes.TrimLeft(bytes.TrimPrefix(page, []byte("\xEF\xBB\xBF")), " \t\r\n")
	if bytes.HasPrefix(page, []byte("<?xml")) {
		if i := bytes.Index(page, []byte("?>")); i >= 0 {
			page = page[i+2:] // its version may be one encoding/xml refuses
		}
	}
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Strict = false
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil } // decoded already
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		if t, ok := tok.(xml.StartElement); ok {
			return t.Name.Local == "html" && (t.Name.Space == "" || t.Name.Space == xhtmlNamespace)
		}
	}
}

// pageCharset returns the charset browsers decode HTML page b by: its
// Content-Type's, cs, when that names an encoding they know, else the one
// a <meta> names in b's first 1024 bytes (HTML's prescan). An error says
// that b, its charset not named for certain (by a byte order mark; the
// prescan's is tentative), holds an escape of ISO-2022-JP and either names
// no charset but Windows-1252 (browsers' detectors may read it as
// ISO-2022-JP) or names ISO-2022-JP somewhere (a <meta> the parser meets
// past the prescan changes the encoding): browsers may read its tags
// otherwise than as written ("-ESC(B->" ends a comment).
func pageCharset(cs string, b []byte) (string, error) {
	if _, err := body.Encoding(cs); err == nil {
		return cs, nil
	}
	_, name, certain := htmlcharset.DetermineEncoding(b, "")
	if name == "x-user-defined" {
		name = "windows-1252" // as HTML's prescan reads a <meta> naming it
	}
	escaped := !certain && name != "iso-2022-jp" && slices.ContainsFunc([]string{"\x1b$B", "\x1b$@", "\x1b(I", "\x1b(B", "\x1b(J"}, func(esc string) bool {
		return bytes.Contains(b, []byte(esc))
	})
	if escaped && (name == "windows-1252" || namesJIS(b)) {
		return name, errors.New("robotstxt: a page holding ISO-2022-JP's escapes, which only it may name: its META tags cannot be read")
	}
	return name, nil
}

// namesJIS reports whether b holds a label of ISO-2022-JP, in any case.
func namesJIS(b []byte) bool {
	named := func(b []byte) bool {
		return ascii.ContainsFold(b, "iso-2022-jp") || ascii.ContainsFold(b, "csiso2022jp")
	}
	// As the parser reads an attribute: with its character references
	// decoded (iso-2022&#45;jp).
	return named(b) || bytes.Contains(b, []byte("&#")) && named([]byte(html.UnescapeString(string(b))))
}

// jisMisread reports whether the Encoding Standard's ISO-2022-JP decoder,
// browsers', meets an error in b: a byte no state reads (a blank, a line
// end or an escape in a two-byte run, which x/text's decoder takes as
// half a character and then reads every byte pair that follows, tags
// too, as kanji), an escape it does not know (ISO-2022-JP-1's ESC $ ( D,
// which x/text's reads), two escapes in a row, or b ending within a
// character or an escape, unless cut there.
func jisMisread(b []byte, cut bool) bool {
	const (
		single = iota // ASCII or JIS X 0201 Roman: ASCII's bytes
		katakana
		lead // JIS X 0208: a character's first byte, or an escape
		trail
		escape
	)
	state, escaped := single, false // escaped: an escape, nothing read since
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == 0x1B && state != trail {
			if i+2 >= len(b) {
				return !cut
			}
			switch string(b[i+1 : i+3]) {
			case "(B", "(J":
				state = single
			case "(I":
				state = katakana
			case "$@", "$B":
				state = lead
			default:
				return true
			}
			if escaped {
				return true
			}
			escaped, i = true, i+2
			continue
		}
		escaped = false
		switch {
		case state == single && c < 0x80 && c != 0x0E && c != 0x0F:
		case state == katakana && 0x21 <= c && c <= 0x5F:
		case state == lead && 0x21 <= c && c <= 0x7E:
			state = trail
		case state == trail && 0x21 <= c && c <= 0x7E:
			state = lead
		default:
			return true
		}
	}
	return state == trail && !cut
}

// legacy returns the encoding that page b, not in UTF-16 nor
// ISO-2022-JP, is decoded by when it is neither UTF-8 nor the
// replacement encoding (which browsers decode to one U+FFFD, and a page
// read so says nothing), else nil: cs, the charset pageCharset gives,
// unless that is Windows-1252 (which a page naming none reads as) and b
// is UTF-8, as it reads now.
func legacy(cs string, b []byte) encoding.Encoding {
	e, err := body.Encoding(cs)
	if err != nil {
		return nil
	}
	switch name, _ := htmlindex.Name(e); name {
	case "utf-8", "replacement", "utf-16le", "utf-16be":
		return nil
	case "windows-1252":
		// UTF-8 up to a character the read may have cut.
		for i := len(b) - 1; i >= max(0, len(b)-utf8.UTFMax+1); i-- {
			if utf8.RuneStart(b[i]) {
				if !utf8.FullRune(b[i:]) {
					b = b[:i]
				}
				break
			}
		}
		if utf8.Valid(b) {
			return nil
		}
	}
	return e
}

// xhtmlNamespace is the namespace of XHTML's elements.
const xhtmlNamespace = "http://www.w3.org/1999/xhtml"

// notChar is what unpaired and unread write for what a page's encoding
// does not read: U+FFFE, a character XML allows nowhere, so that a head
// holding one is unreadable (XML 1.0 §4.3.3) and a body is not read.
const notChar = "\uFFFE"

// unpaired returns b, UTF-16 after its byte-order mark, with each code
// unit no character is, an unpaired surrogate, written as U+FFFE (see
// notChar), and an odd last byte dropped.
func unpaired(b []byte) []byte {
	if len(b) < 2 {
		return b
	}
	unit := func(i int) uint16 { return uint16(b[i])<<8 | uint16(b[i+1]) } // big-endian
	if b[0] == 0xFF {
		unit = func(i int) uint16 { return uint16(b[i+1])<<8 | uint16(b[i]) }
	}
	var out []byte
	for i := 2; i+1 < len(b); i += 2 {
		u, paired := unit(i), false
		switch {
		case 0xD800 <= u && u < 0xDC00:
			if paired = i+3 < len(b) && 0xDC00 <= unit(i+2) && unit(i+2) < 0xE000; paired {
				i += 2
			}
		case 0xDC00 <= u && u < 0xE000:
		default:
			paired = true
		}
		if !paired {
			if out == nil {
				out = slices.Clone(b[:len(b)&^1])
			}
			out[i], out[i+1] = 0xFF, 0xFE // U+FFFE, big-endian
			if b[0] == 0xFF {
				out[i], out[i+1] = 0xFE, 0xFF
			}
		}
	}
	if out == nil {
		return b
	}
	return out
}

// unread returns text, decoded from src in encoding e, with each U+FFFD
// the decoder wrote for bytes e has not as U+FFFE (see notChar): the
// decoders report none (a page of GB18030 writing U+FFFD itself is read
// so too, failing closed). A U+FFFD last in a page cut short may stand
// for a multi-byte character cut, and stays. A single-byte encoding's
// byte 0x80 to 0x9F that x/text maps to no character (ISO-8859-2's) is
// the C1 control browsers read, which XML allows.
func unread(e encoding.Encoding, src, text []byte, cut bool) []byte {
	if !bytes.Contains(text, []byte("\uFFFD")) {
		return text
	}
	if e == charmap.ISO8859_8I {
		e = charmap.ISO8859_8 // its table, which x/text does not export as a Charmap
	}
	if m, single := e.(*charmap.Charmap); single {
		out := make([]byte, 0, len(text))
		for _, c := range src {
			r := m.DecodeByte(c)
			if r == utf8.RuneError {
				r = 0xFFFE // notChar
				if 0x80 <= c && c <= 0x9F {
					r = rune(c)
				}
			}
			out = utf8.AppendRune(out, r)
		}
		return out
	}
	body, last := text, []byte(nil)
	if cut && bytes.HasSuffix(text, []byte("\uFFFD")) {
		body, last = text[:len(text)-len("\uFFFD")], []byte("\uFFFD")
	}
	return append(bytes.ReplaceAll(body, []byte("\uFFFD"), []byte(notChar)), last...)
}

// xmlUTF16 returns the byte-order mark of the UTF-16 an XHTML page
// without one is in by its first bytes, an XML declaration's "<?" (XML
// 1.0 Appendix F), or "".
func xmlUTF16(h http.Header, b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("<\x00?\x00")) && isXHTML(h, nil):
		return "\xFF\xFE"
	case bytes.HasPrefix(b, []byte("\x00<\x00?")) && isXHTML(h, nil):
		return "\xFE\xFF"
	}
	return ""
}

// xmlEncoding returns the encoding the XML declaration that b starts
// with names, or "".
func xmlEncoding(b []byte) string {
	decl, ok := bytes.CutPrefix(b, []byte("<?xml"))
	if !ok {
		return ""
	}
	if end := bytes.Index(decl, []byte("?>")); end >= 0 {
		decl = decl[:end]
	}
	_, after, ok := bytes.Cut(decl, []byte("encoding"))
	if !ok {
		return ""
	}
	after = bytes.TrimLeft(after, " \t\r\n")
	if after, ok = bytes.CutPrefix(after, []byte("=")); !ok {
		return ""
	}
	after = bytes.TrimLeft(after, " \t\r\n")
	if len(after) == 0 || after[0] != '"' && after[0] != '\'' {
		return ""
	}
	name, _, ok := bytes.Cut(after[1:], after[:1])
	if !ok {
		return ""
	}
	return string(name)
}

// maxXMLDepth bounds the elements an XHTML page may hold open where it is
// read, its head and what comes before it: a head's are a few deep, and
// encoding/xml keeps a record of each open one, which a page nesting a
// megabyte of tags deep would make tens of megabytes. A page nesting
// deeper is read as cut there: what the rest of its head holds is
// unknown.
const maxXMLDepth = 256

// xhtmlHead reads the head of XHTML page, in UTF-8, as XML reads it
// (with encoding/xml), and returns its META tags written as an HTML head
// for package meta to read: the XHTML <meta> elements the head holds,
// at any depth but within a <template> (whose content is no part of the
// page), and those that are children of the root element before its
// <body> (where HTML's parser puts them in the head: a page that leaves
// out <head>, or writes one after </head>), with their name and content
// attributes. The head is the first XHTML <head> that is a child of the
// page's root <html>; an element is XHTML's in XHTML's
// namespace or, as the page was served, in none, the default namespace
// undeclared (not undone by xmlns=""). Entities are those xmlDoctype
// reads, HTML's (&nbsp;) among them. Reading stops at the root's <body>
// or end, or at a root that is not XHTML's <html>: an XML document that
// is no page (a feed, a sitemap) holds no page's tags, whatever its
// size.
//
// rooted reports that XML read as far as the root element's start tag.
// whole is false, the tags read before kept, for a page XML does not read
// so far: one not well-formed or cut short, one naming an entity it does
// not declare or whose text holds markup (which XML reads as elements, a
// <meta> among them: see xmlDoctype), one with a prefix no declaration
// in scope binds, with text outside its root, with an attribute given
// twice, with a character XML does not allow (bytes not UTF-8, a control
// character, a reference to a surrogate), or nesting elements past
// maxXMLDepth. What the rest of its head holds is unknown: the page reads
// as cut there. Faults of grammar encoding/xml lets pass that change no
// element and no attribute (an XML declaration's settings, words astray
// in a DOCTYPE or an entity's declaration) are not looked for: such a
// page is read as XML would read it were it well-formed.
func xhtmlHead(page []byte) (out []byte, whole, rooted bool) {
	out = []byte("<head>")
	page = bytes.TrimPrefix(page, []byte("\xEF\xBB\xBF"))
	page, entities, ok := xmlDoctype(page)
	if !ok || expansion(page, entities) > maxExpansion {
		return out, false, rooted
	}
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Entity = entities
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil } // decoded already
	read := func() ([]byte, bool, bool) { return append(out, "</head><body>"...), true, rooted }
	type element struct {
		bare, template bool
		bound          []string // the prefixes its declarations bound
	}
	var open []element        // the elements open: bare before each, whether a template of the head
	bare := true              // an element in no namespace is XHTML's: none was undone
	bound := map[string]int{} // the prefixes bound where the element is
	head, templates := 0, 0   // the depth of a head open; the templates open in it
	doctype := false          // the DOCTYPE came
	for n := 0; ; n++ {
		at := d.InputOffset()
		tok, err := d.Token()
		if err != nil {
			return out, false, rooted // io.EOF too: the root, or the head, did not end
		}
		// encoding/xml checks the characters of text and values alone,
		// not of comments and instructions, and writes a reference to a
		// surrogate as U+FFFD. References are references in tags and
		// text, not in a CDATA section, comment or instruction.
		raw := page[at:d.InputOffset()]
		_, tag := tok.(xml.StartElement)
		_, text := tok.(xml.CharData)
		if !xmlChars(raw, tag || text && !bytes.HasPrefix(raw, []byte("<![CDATA["))) {
			return out, false, rooted
		}
		switch t := tok.(type) {
		case xml.ProcInst:
			if ascii.EqualFold(t.Target, "xml") && (t.Target != "xml" || n > 0 || !bytes.Contains(t.Inst, []byte("version"))) {
				return out, false, rooted // an XML declaration not first, or without its version; a name XML keeps
			}
		case xml.Directive:
			if doctype || len(open) > 0 || !bytes.HasPrefix(t, []byte("DOCTYPE")) {
				return out, false, rooted // XML declares nothing past the prolog's one DOCTYPE
			}
			doctype = true
		case xml.StartElement:
			if len(open) == maxXMLDepth {
				return out, false, rooted
			}
			// The names as written tell declarations and prefixes:
			// encoding/xml gives p:q the name of a declaration xmlns:q
			// when p is bound to "xmlns", and a prefix bound nowhere as
			// the namespace, which may be spelled as one bound.
			names, ok := tagNames(page[at:d.InputOffset()])
			if !ok || len(names) != len(t.Attr)+1 || !uniqueAttrs(t.Attr, names[1:]) {
				return out, false, rooted
			}
			e := element{bare: bare}
			for i, a := range t.Attr {
				p, local, prefixed := strings.Cut(names[i+1], ":")
				switch {
				case p != "xmlns":
				case !prefixed: // the default namespace
					if a.Value == xmlURL || a.Value == xmlnsURL {
						return out, false, rooted
					}
					bare = bare && a.Value != ""
				case a.Value == "" || local == "xmlns" || (local == "xml") != (a.Value == xmlURL) || a.Value == xmlnsURL:
					return out, false, rooted // a prefix undeclared, or one XML reserves, bound
				default:
					bound[local]++
					e.bound = append(e.bound, local)
				}
			}
			open = append(open, e)
			rooted = true
			for i, name := range names {
				p, local, prefixed := strings.Cut(name, ":")
				if p == "" || prefixed && (local == "" || !(p == "xml" || i > 0 && p == "xmlns" || bound[p] > 0)) {
					return out, false, rooted // a name begun or ended by ':', a prefix bound nowhere in scope
				}
			}
			xhtml := t.Name.Space == xhtmlNamespace || t.Name.Space == "" && bare
			if len(open) == 1 && (!xhtml || t.Name.Local != "html") {
				return read() // a root not XHTML's html: no page, a feed or a sitemap
			}
			if !xhtml {
				continue // none of XHTML's
			}
			inHead := head > 0 && len(open) > head
			switch {
			case len(open) == 2 && t.Name.Local == "body":
				return read() // meta reads no further
			case head == 0 && len(open) <= 2 && t.Name.Local == "head":
				head = len(open) // the first, or one after it before the body, as HTML's parser reads it
			case inHead && t.Name.Local == "template":
				open[len(open)-1].template = true
				templates++
			case (inHead && templates == 0 || len(open) == 2) && t.Name.Local == "meta":
				out = appendMeta(out, t.Attr)
			}
		case xml.EndElement:
			e := open[len(open)-1]
			if e.template {
				templates--
			}
			if len(open) == 1 {
				return read()
			}
			if len(open) == head {
				head = 0
			}
			for _, p := range e.bound {
				bound[p]--
			}
			open, bare = open[:len(open)-1], e.bare
		case xml.CharData:
			if len(open) == 0 && len(bytes.Trim(page[at:d.InputOffset()], " \t\r\n")) > 0 {
				return out, false, rooted // XML allows white space alone outside the root, written as such
			}
		}
	}
}

// xmlChars reports whether b is UTF-8 of the characters XML allows (XML
// 1.0 §2.2: no control character but tab, line feed and carriage
// return, no surrogate, neither U+FFFE nor U+FFFF), and, with refs, its
// character references (&#xD800;) too: encoding/xml writes one to a
// surrogate as U+FFFD ("noai&#xD800;" read as no noai where XML reads no
// page).
func xmlChars(b []byte, refs bool) bool {
	for len(b) > 0 {
		c := b[0]
		if refs && c == '&' && len(b) > 1 && b[1] == '#' {
			digits, base := b[2:], 10
			if len(digits) > 0 && digits[0] == 'x' {
				digits, base = digits[1:], 16
			}
			end := 0 // past the digits, each read once
			for end < len(digits) && strings.IndexByte("0123456789abcdefABCDEF"[:base+max(base-10, 0)], digits[end]) >= 0 {
				end++
			}
			if end < len(digits) && digits[end] == ';' {
				if n, err := strconv.ParseUint(string(digits[:end]), base, 32); err == nil && !xmlChar(rune(n)) {
					return false
				}
			}
		}
		if c < utf8.RuneSelf {
			if !xmlChar(rune(c)) {
				return false
			}
			b = b[1:]
			continue
		}
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 || !xmlChar(r) {
			return false
		}
		b = b[size:]
	}
	return true
}

// xmlChar reports whether XML allows the character r (XML 1.0 §2.2).
func xmlChar(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || ' ' <= r && r < 0xD800 || 0xE000 <= r && r <= 0xFFFD || 0x10000 <= r && r <= utf8.MaxRune
}

// maxExpansion bounds the text the references to a page's entities
// expand to (see expansion), as it bounds what a page may be read from:
// encoding/xml copies an entity's text at every reference, which a page
// declaring one of 64 KiB and naming it at every turn would make
// gigabytes of (expat and libxml2 refuse such pages too).
const maxExpansion = metaReads

// expansion returns the length of the text the references of page to
// entities would expand to, each '&' read once: a reference ends at the
// first byte no XML name holds.
func expansion(page []byte, entities map[string]string) int {
	n := 0
	for i := bytes.IndexByte(page, '&'); i >= 0; i = bytes.IndexByte(page, '&') {
		page = page[i+1:]
		end := bytes.IndexFunc(page, func(r rune) bool {
			return !(r >= 0x80 || r == '-' || r == '.' || r == '_' || r == ':' || '0' <= r && r <= '9' || 'a' <= r|0x20 && r|0x20 <= 'z')
		})
		if end >= 0 && page[end] == ';' {
			n += len(entities[string(page[:end])])
		}
	}
	return n
}

// uniqueAttrs reports whether no attribute of attrs, named as written
// in names, is given twice, which encoding/xml does not check: no
// declaration twice by its name (xmlns, xmlns:h), no other attribute
// twice by its namespace and local name (two prefixes bound alike). The
// two are apart: encoding/xml names p:a, p bound to the namespace
// spelled "xmlns", as it names the declaration xmlns:a.
func uniqueAttrs(attrs []xml.Attr, names []string) bool {
	key := func(i int) xml.Name {
		if n := names[i]; n == "xmlns" || strings.HasPrefix(n, "xmlns:") {
			return xml.Name{Space: "\x00", Local: n} // no namespace holds a NUL
		}
		return attrs[i].Name
	}
	if len(attrs) > 16 {
		seen := make(map[xml.Name]bool, len(attrs))
		for i := range attrs {
			if seen[key(i)] {
				return false
			}
			seen[key(i)] = true
		}
		return true
	}
	for i := range attrs {
		for j := range i {
			if key(j) == key(i) {
				return false
			}
		}
	}
	return true
}

// tagNames returns the names of start tag raw as written, its element's
// first, then its attributes' in order; !ok for an attribute XML does not
// read and encoding/xml does, one not after white space (rel="a"href="b").
func tagNames(raw []byte) (names []string, ok bool) {
	const stops = " \t\r\n/>="
	for i := 1; i < len(raw); { // past '<'
		switch c := raw[i]; {
		case c == '"' || c == '\'':
			end := bytes.IndexByte(raw[i+1:], c)
			if end < 0 {
				return nil, false
			}
			i += end + 2
			if i < len(raw) && !bytes.ContainsRune([]byte(" \t\r\n/>"), rune(raw[i])) {
				return nil, false
			}
		case strings.IndexByte(stops, c) >= 0:
			i++
		default:
			n := bytes.IndexAny(raw[i:], stops)
			if n < 0 {
				n = len(raw) - i
			}
			names = append(names, string(raw[i:i+n]))
			i += n
		}
	}
	return names, true
}

// xmlSpaces writes the white space XML normalizes in an attribute's value
// as the space it normalizes it to.
var xmlSpaces = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")

// xmlURL and xmlnsURL are the namespaces XML binds the prefixes xml and
// xmlns to, which no other prefix, nor the default namespace, may name.
const (
	xmlURL   = "http://www.w3.org/XML/1998/namespace"
	xmlnsURL = "http://www.w3.org/2000/xmlns/"
)

// appendMeta appends to out the XHTML <meta> element of attributes attrs
// as an HTML <meta> tag with its name and content (attributes in a
// namespace, h:name, are none of these), their tabs and line breaks
// spaces, as XML normalizes a value (encoding/xml does not; it writes a
// character reference to one, which XML keeps, alike: read as a space
// too).
func appendMeta(out []byte, attrs []xml.Attr) []byte {
	var name, content *string
	for i, a := range attrs {
		switch {
		case a.Name.Space != "":
		case a.Name.Local == "name":
			name = &attrs[i].Value
		case a.Name.Local == "content":
			content = &attrs[i].Value
		}
	}
	if name == nil {
		return out // meta reads named tags alone
	}
	out = append(append(append(out, `<meta name="`...), html.EscapeString(xmlSpaces.Replace(*name))...), '"')
	if content != nil {
		out = append(append(append(out, ` content="`...), html.EscapeString(xmlSpaces.Replace(*content))...), '"')
	}
	return append(out, '>')
}

// xmlDoctype reads the DOCTYPE in the prolog of XHTML page as XML does,
// its literals and internal subset with their comments and processing
// instructions, and returns page with it written "<!DOCTYPE html>", for
// encoding/xml to pass over as xmlDoctype read it, and the entities the
// page may name, for its Decoder: those of XHTML's DTDs (the HTML
// entities), but for those the subset declares, which it gives plain
// text to; one whose text may hold markup is left out, for a reference
// to it to fail (encoding/xml writes an entity as text, where XML reads
// its tags). ok is false for a DOCTYPE XML reads otherwise than
// xmlDoctype can follow: not ended, a parameter entity (which may declare
// anything), an ATTLIST giving a default (which XML adds to the elements,
// a <meta>'s name too) or a type, a '<' no declaration begins, a literal
// outside a declaration (no browser reads such a page). A page without
// one is returned as it is.
func xmlDoctype(page []byte) (_ []byte, entities map[string]string, ok bool) {
	entities = xml.HTMLEntity
	var declared map[string]bool // the first declaration binds
	i := len(page) - len(bytes.TrimPrefix(page, []byte("\xEF\xBB\xBF")))
	skip := func(open, end string) bool { // past end, from past open at i
		n := bytes.Index(page[i+len(open):], []byte(end))
		i += len(open) + n + len(end)
		return n >= 0
	}
	for {
		i = len(page) - len(bytes.TrimLeft(page[i:], " \t\r\n"))
		switch rest := page[i:]; {
		case bytes.HasPrefix(rest, []byte("<?")):
			if !skip("<?", "?>") {
				return page, entities, true
			}
			continue
		case bytes.HasPrefix(rest, []byte("<!--")):
			if !skip("<!--", "-->") {
				return page, entities, true
			}
			continue
		case !bytes.HasPrefix(rest, []byte("<!DOCTYPE")):
			return page, entities, true
		}
		break
	}
	start := i
	if i += len("<!DOCTYPE"); i >= len(page) || !bytes.ContainsRune([]byte(" \t\r\n"), rune(page[i])) {
		return page, entities, false
	}
	literal := func() bool { // past the quoted literal at i
		q := page[i : i+1]
		return skip(string(q), string(q))
	}
	for subset := false; ; {
		if i >= len(page) {
			return page, entities, false
		}
		switch c := page[i]; {
		case subset && (c == '"' || c == '\''):
			return page, entities, false // a literal outside a declaration
		case c == '"' || c == '\'':
			if !literal() {
				return page, entities, false
			}
		case !subset && c == '[':
			subset = true
			i++
		case !subset && c == '>':
			if !xmlChars(page[start:i+1], false) { // references are an entity's (see xmlDecl)
				return page, entities, false
			}
			out := slices.Concat(page[:start], []byte("<!DOCTYPE html>"), page[i+1:])
			return out, entities, true
		case !subset && c == '<':
			return page, entities, false // not XML: no browser reads the page
		case !subset:
			i++
		case c == ']':
			subset = false
			i++
		case c == '%':
			return page, entities, false // a parameter entity's reference
		case bytes.HasPrefix(page[i:], []byte("<!--")):
			if !skip("<!--", "-->") {
				return page, entities, false
			}
		case bytes.HasPrefix(page[i:], []byte("<?")):
			if !skip("<?", "?>") {
				return page, entities, false
			}
		case bytes.HasPrefix(page[i:], []byte("<!")):
			decl := i
			for i < len(page) && page[i] != '>' {
				switch page[i] {
				case '"', '\'':
					if !literal() {
						return page, entities, false
					}
					continue
				case '%':
					return page, entities, false // a parameter entity's reference
				}
				i++
			}
			name, text, markup, ok := xmlDecl(page[decl:i])
			if !ok {
				return page, entities, false
			}
			if name != "" && !declared[name] && !predefined[name] {
				if declared == nil {
					declared, entities = make(map[string]bool), maps.Clone(entities)
				}
				declared[name] = true
				if delete(entities, name); !markup {
					entities[name] = text
				}
			}
			i++
		case c == '<':
			return page, entities, false
		default:
			i++
		}
	}
}

// predefined are the entities XML predefines, which a DOCTYPE may declare
// again (XML 1.0 §4.6 recommends it) to no effect.
var predefined = map[string]bool{"lt": true, "gt": true, "amp": true, "apos": true, "quot": true}

// xmlDecl reads decl, a markup declaration of a DOCTYPE's internal subset
// without its '>': an entity's, whose name and text it returns, or
// whether that text may hold markup (a tag, a reference), an ATTLIST, or
// another (an ELEMENT, a NOTATION), which gives the page nothing. ok is
// false for a parameter entity's, an ATTLIST but a plain one (see
// plainAttlist), or none of these four.
func xmlDecl(decl []byte) (name, text string, markup, ok bool) {
	const blanks = " \t\r\n"
	switch {
	case bytes.HasPrefix(decl, []byte("<!ATTLIST")):
		return "", "", false, plainAttlist(string(decl[len("<!ATTLIST"):]))
	case bytes.HasPrefix(decl, []byte("<!ELEMENT")) || bytes.HasPrefix(decl, []byte("<!NOTATION")):
		return "", "", false, true
	case !bytes.HasPrefix(decl, []byte("<!ENTITY")):
		return "", "", false, false // none of XML's (a conditional section, which no internal subset holds)
	}
	rest := bytes.TrimLeft(decl[len("<!ENTITY"):], blanks)
	n := bytes.IndexAny(rest, blanks)
	if n <= 0 || rest[0] == '%' {
		return "", "", false, false
	}
	name, markup = string(rest[:n]), true // an external one (SYSTEM, PUBLIC) may hold anything
	if rest = bytes.TrimLeft(rest[n:], blanks); len(rest) > 0 && (rest[0] == '"' || rest[0] == '\'') {
		if end := bytes.IndexByte(rest[1:], rest[0]); end >= 0 {
			if bytes.IndexByte(rest[1:1+end], '%') >= 0 {
				// An entity's text holds no '%' but a parameter
				// entity's reference, which no internal subset may.
				return "", "", false, false
			}
			lit, ok := charRefsOut(rest[1 : 1+end])
			if !ok {
				return "", "", false, false
			}
			text, markup = string(lit), bytes.ContainsAny(lit, "<&")
		}
	}
	return name, text, markup, true
}

// plainAttlist reports whether defs, an ATTLIST's after its keyword,
// declare text attributes alone, with no default: CDATA, #IMPLIED or
// #REQUIRED (the Open Graph subset's). XML gives an attribute declared
// otherwise a default, or normalizes its value (an NMTOKEN xmlns
// trimmed of its spaces names XHTML's namespace), which encoding/xml
// does not.
func plainAttlist(defs string) bool {
	f := strings.Fields(defs)
	if len(f) == 0 || (len(f)-1)%3 != 0 {
		return false
	}
	for i := 1; i < len(f); i += 3 {
		if f[i+1] != "CDATA" || f[i+2] != "#IMPLIED" && f[i+2] != "#REQUIRED" {
			return false
		}
	}
	return true
}

// charRefsOut returns s with its character references (&#160;, &#xA0;)
// written as what they refer to, as XML reads an entity's literal; !ok
// for one to a character XML does not allow (see xmlChar).
func charRefsOut(s []byte) (_ []byte, ok bool) {
	var out []byte
	for {
		i := bytes.Index(s, []byte("&#"))
		j := bytes.IndexByte(s[max(i, 0):], ';')
		if i < 0 || j < 0 {
			return append(out, s...), true
		}
		num, base := string(s[i+2:i+j]), 10
		if rest, hex := strings.CutPrefix(num, "x"); hex {
			num, base = rest, 16
		}
		n, err := strconv.ParseUint(num, base, 21)
		if err != nil {
			return append(out, s...), true // no reference: its '&' stays
		}
		if !xmlChar(rune(n)) {
			return nil, false
		}
		out = utf8.AppendRune(append(out, s[:i]...), rune(n))
		s = s[i+j+1:]
	}
}

// utf16BOM returns the byte-order mark of the UTF-16 a charset label
// names, by the WHATWG Encoding Standard's labels; "" for another.
func utf16BOM(charset string) string {
	switch ascii.LowerString(strings.Trim(charset, "\t\n\f\r ")) { // WHATWG's ASCII white space alone
	case "utf-16", "utf-16le", "unicode", "unicodefeff", "ucs-2", "csunicode", "iso-10646-ucs-2":
		return "\xFF\xFE"
	case "utf-16be", "unicodefffe":
		return "\xFE\xFF"
	}
	return ""
}

// cutShort reports whether b, given as resp's body, holds less than the
// page: a 206 but of the whole page (see rangeWhole), or less of it (of
// a 206 in a gzip net/http undid, whose Content-Range counts the bytes
// sent, less than read, the Transport's, read to its end, or any when the
// Transport did not send it); less than its Content-Length; or, for a
// body of no stated length (chunked, or a gzip net/http undid) read
// through read, less than was read or not to its end.
func cutShort(resp *http.Response, b []byte, read *readBody) bool {
	switch {
	case resp.StatusCode == http.StatusPartialContent && !resp.Uncompressed:
		return rangeShort(resp.Header, int64(len(b)))
	case resp.StatusCode == http.StatusPartialContent:
		// Its Content-Range counts the bytes sent, not these: a part, or
		// a whole not seen read to its end, is cut.
		_, whole := rangeWhole(resp.Header)
		return !whole || !read.gave(b)
	case resp.ContentLength >= 0:
		return resp.ContentLength > int64(len(b))
	}
	return read != nil && !read.gave(b)
}

// rangeWhole reports whether h's Content-Range is the whole of a page of
// known length, "bytes 0-N/N+1" (RFC 9110 §14.4, the unit in any case),
// and returns that length; a length of "*" is not known.
func rangeWhole(h http.Header) (size int64, whole bool) {
	first, last, n, ok := parseRange(h)
	return int64(n), ok && first == 0 && last+1 == n
}

// rangeShort reports whether n bytes, the body of a 206 with header h,
// are less than the whole of its file: its Content-Range names a part,
// or the whole but more than n bytes.
func rangeShort(h http.Header, n int64) bool {
	size, whole := rangeWhole(h)
	return !whole || n < size
}

// rangesText quotes every Content-Range line of h, for an error.
func rangesText(h http.Header) string { return capQuote(strings.Join(h.Values("Content-Range"), ", ")) }

// rangeFromStart reports whether h's Content-Range is a range from the
// first byte of a page, "bytes 0-N/…".
func rangeFromStart(h http.Header) bool {
	first, _, _, ok := parseRange(h)
	return ok && first == 0
}

// parseRange parses h's Content-Range of bytes, "bytes F-L/N", its length
// 0 when "*"; ok says it parsed, and that its field lines, if several,
// agree: which of lines that disagree tells the part sent is not known.
func parseRange(h http.Header) (first, last, n uint64, ok bool) {
	lines := h.Values("Content-Range")
	if len(lines) == 0 || slices.ContainsFunc(lines[1:], func(v string) bool { return strings.TrimSpace(v) != strings.TrimSpace(lines[0]) }) {
		return 0, 0, 0, false
	}
	unit, rest, _ := strings.Cut(strings.TrimSpace(lines[0]), " ")
	span, length, _ := strings.Cut(rest, "/")
	f, l, _ := strings.Cut(span, "-")
	first, err1 := strconv.ParseUint(f, 10, 62)
	last, err2 := strconv.ParseUint(l, 10, 62)
	if length != "*" {
		var err3 error
		if n, err3 = strconv.ParseUint(length, 10, 62); err3 != nil {
			return 0, 0, 0, false
		}
	}
	return first, last, n, ascii.EqualFold(unit, "bytes") && err1 == nil && err2 == nil && first <= last
}

// A readBody is a response body a Transport returned, which notes how
// much of it was read and whether to its end: a receipt tells a page cut
// short by it whatever its framing.
type readBody struct {
	io.ReadCloser
	n   atomic.Int64
	eof atomic.Bool
}

// bodyRead returns the record of how much of resp's body was read, when
// the Transport sent resp.Request and wrapped its response's body; else
// nil, which tells nothing: a 304's is no record of the page passed in
// its place, the response it validates (see Transport.Receipt).
func (t *Transport) bodyRead(resp *http.Response) *readBody {
	if s, ok := t.sent(resp.Request); ok && s.body.ReadCloser != nil {
		return s.body
	}
	return nil
}

// gave reports whether body is all b gave: it was read to its end, and
// no more than body's bytes; false for a nil b, which tells nothing.
func (b *readBody) gave(body []byte) bool {
	return b != nil && b.eof.Load() && b.n.Load() <= int64(len(body))
}

func (b *readBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	if err == io.EOF {
		b.eof.Store(true)
	}
	return n, err
}

// hasBOM reports whether b starts with a UTF-8 or UTF-16 byte-order mark,
// which says a page's encoding whatever its Content-Type does.
func hasBOM(b []byte) bool {
	return bytes.HasPrefix(b, []byte("\xEF\xBB\xBF")) || bytes.HasPrefix(b, []byte("\xFF\xFE")) || bytes.HasPrefix(b, []byte("\xFE\xFF"))
}

// isHTML reports whether a body with header h is HTML, or might be:
// its media type is HTML's or XHTML's (see isXHTML), a media type that
// says it is unknown is sniffed, as browsers sniff it, and so that a
// restriction is not lost to a reading, any value of its Content-Type
// naming HTML counts.
func isHTML(h http.Header, b []byte) bool {
	mt, _ := body.ContentType(h)
	if sniffedPage(mt) {
		if startsHTML(b, false) {
			return true
		}
		mt = mediaType(nil, b)
	}
	return mt == "text/html" || isXHTML(h, b) || namesHTML(h)
}

// sniffLen is how much of a body browsers sniff, its resource header
// (WHATWG MIME Sniffing §5.2; http.DetectContentType reads as much).
const sniffLen = 512

// htmlStarts are how a body some browser sniffs as HTML starts, after
// white space, in any case. WHATWG's patterns (§7.1), which
// http.DetectContentType follows, want a space or '>' after them;
// Chrome's (net/base/mime_sniffer.cc) want nothing, so "<b" stands for
// "<body" and "<br" too, and the wider reading is kept so that no tags
// are lost to a narrower one. XML's "<?xml" may be XHTML (see isXHTML).
var htmlStarts = []string{"<!doctype html", "<script", "<html", "<!--", "<head", "<iframe", "<h1",
	"<div", "<font", "<table", "<a", "<style", "<title", "<b", "<p", "<?xml",
	// Firefox's sniffer (nsUnknownDecoder) reads these as HTML too, in
	// its older releases at least ("<base", "<body" and "<pre" are read
	// above, as prefixes).
	"<frameset", "<img", "<link", "<applet", "<meta", "<center", "<form", "<isindex",
	"<h2", "<h3", "<h4", "<h5", "<h6"}

// startsHTML reports whether b, a body of a type browsers sniff, starts
// as HTML (see htmlStarts) within its first sniffLen bytes; or, when it
// is cut short of them, whether it may: white space only, or a start's
// first bytes.
func startsHTML(b []byte, cut bool) bool {
	head := b[:min(len(b), sniffLen)]
	rest := bytes.TrimLeft(head, "\t\n\v\f\r ") // Chrome's white space, WHATWG's and \v
	cut = cut && len(head) < sniffLen
	for _, s := range htmlStarts {
		n := min(len(rest), len(s))
		if (n == len(s) || cut) && ascii.EqualFold(string(rest[:n]), s[:n]) {
			return true
		}
	}
	return false
}

// isXHTML reports whether a body with header h is XHTML, which browsers
// read as XML: its media type says so, or says XML (which W3C's XHTML
// Media Types allows it, and browsers render as XHTML), or says it is
// unknown and the body sniffs as XML (an XHTML page's <?xml …?>).
func isXHTML(h http.Header, b []byte) bool {
	mt, _ := body.ContentType(h)
	return mt == "application/xhtml+xml" || isXML(mt) || sniffedPage(mt) && mediaType(nil, b) == "text/xml"
}

// isXML reports whether media type mt is XML's.
func isXML(mt string) bool { return mt == "application/xml" || mt == "text/xml" }

// mayBeHTML reports whether a body with header h may be HTML whatever its
// bytes: no media type, one that says it is unknown, or HTML's.
func mayBeHTML(h http.Header) bool {
	mt, _ := body.ContentType(h)
	return sniffedPage(mt) || namesHTML(h)
}

// sniffedPage reports whether browsers sniff a page of media type mt
// (WHATWG MIME Sniffing §7.1): none, or one that says it is unknown but
// application/octet-stream, a download.
func sniffedPage(mt string) bool {
	return mt == "" || mt != "application/octet-stream" && unknownTypes[mt]
}

// namesHTML reports whether a value of h's Content-Type is HTML's, or
// XHTML's (XML's too: see isXHTML).
func namesHTML(h http.Header) bool {
	return slices.ContainsFunc([]string{"text/html", "application/xhtml+xml", "application/xml", "text/xml"},
		func(mt string) bool { return body.AnyMediaType(h, mt) })
}

// isImage reports whether a body with header h is an image (see
// mediaType), or might be: with no media type to go by, noimageai counts.
// A media type that says it is unknown (application/octet-stream among
// them) is sniffed, as browsers sniff an image. So that a restriction is
// not lost to a reading, it is an image too when its bytes sniff as one,
// or when any value of its Content-Type names an image.
func isImage(h http.Header, b []byte) bool {
	if coded(h, b) {
		b = nil // a coding's bytes, not the image's: nothing to sniff
	}
	sniffed := mediaType(nil, b)
	mt, _ := body.ContentType(h)
	if mt == "" || unknownTypes[mt] {
		mt = sniffed
	}
	return mt == "" || strings.HasPrefix(mt, "image/") || body.AnyMediaType(h, "image/") ||
		strings.HasPrefix(sniffed, "image/")
}

// coded reports whether b, a body with header h, is still in a content
// coding: one a Content-Encoding names (but identity), which net/http
// left, or compressed bytes none names (see body.Compressed).
func coded(h http.Header, b []byte) bool {
	for _, line := range h.Values("Content-Encoding") {
		for c := range strings.SplitSeq(line, ",") {
			if c = strings.TrimSpace(c); c != "" && !ascii.EqualFold(c, "identity") {
				return true
			}
		}
	}
	return body.Compressed(b)
}

// mediaType returns the media type of a body with header h: its
// Content-Type's, as browsers read it (see body.ContentType), or, when
// that has none, what http.DetectContentType sniffs from it; "" for an
// empty body with none.
func mediaType(h http.Header, b []byte) string {
	if mt, _ := body.ContentType(h); mt != "" || len(b) == 0 {
		return mt
	}
	mt, _, _ := mime.ParseMediaType(http.DetectContentType(b))
	return mt
}

// unknownTypes are the media types that say a body's type is unknown.
var unknownTypes = map[string]bool{"application/octet-stream": true, "unknown/unknown": true, "application/unknown": true, "*/*": true}

// A Signal is one statement a site made about what may be done with a
// page, read into the AIPREF vocabulary. [Transport.Receipt] lists those
// of a page, its robots.txt's included.
type Signal struct {
	// Source is the kind of signal, as [Transport.Receipt] names them.
	Source string `json:"source"`
	// Label is the usage label, such as "train-ai": the AIPREF label
	// of the use, or the signal's own name for a use the vocabulary has
	// no label for (Content-Signal's "ai-input").
	Label string `json:"label"`
	// Pref is [PrefYes] or [PrefNo]; [PrefUnknown] only for a TDMRep
	// tdm-reservation of 0, which says TDM rights are not reserved.
	Pref Pref `json:"pref"`
	// Where is where the site said it: "line N" of robots.txt; "entry N"
	// of tdmrep.json, the first entry being entry 1; the header field or
	// the META tag's name ("Content-Usage", "Content-Signal",
	// "X-Robots-Tag", "robots" or the product tokens, "tdm-reservation");
	// or "unreachable" or "unreadable" (see [Transport.Receipt]). Of the
	// robots.txt of the site a request was sent to when its Host named
	// another, "line N" is prefixed with its authority ("http://b.test:80
	// line 2").
	Where string `json:"where"`
	// Value is the text the site wrote there (the statement, record,
	// directive or tdm-reservation value), cut to 256 bytes.
	Value string `json:"value,omitempty"`
}

// The bounds of what a reading keeps of a site's text: a page or a
// robots.txt chooses it, and a receipt is one log line. Each source keeps
// at most maxSourceSignals signals, far more than a site states in
// earnest, and a label longer than maxSignalLabel (the vocabulary's are
// 8) is left out; Receipt.Dropped counts both.
const (
	maxSourceSignals = 16
	maxSignalLabel   = 64
	maxSignalValue   = 256
)

// A reading gathers what the signals about one page say: their
// preferences, combined label by label, and when record is set each
// Signal, in the order noted.
type reading struct {
	usage   Usage
	record  bool
	signals []Signal
	dropped int
	source  string // the source of the signals noted last
	run     int    // how many of them were kept
}

// state combines u, what a signal of source said at where in value, and
// notes it.
func (rd *reading) state(source, where, value string, u Usage) {
	rd.usage = rd.usage.combine(u)
	rd.list(source, where, value, u)
}

// list notes a Signal for each label u states a preference for, without
// combining u.
func (rd *reading) list(source, where, value string, u Usage) {
	if !rd.record {
		return
	}
	for label, v := range usage.All(u.members) {
		if p := prefOf(v); p != PrefUnknown {
			rd.note(Signal{Source: source, Label: label, Pref: p, Where: where, Value: value})
		}
	}
}

// note keeps s within the bounds. Of a source's signals past them, the
// latest of the lightest goes (see weight), so that the receipt lists
// what its Usage rests on: a repeat of a label's preference before any
// first, then one of a label no crawler reads, then a "yes".
func (rd *reading) note(s Signal) {
	if s.Source != rd.source {
		rd.source, rd.run = s.Source, 0
	}
	if len(s.Label) > maxSignalLabel {
		rd.dropped++
		return
	}
	if rd.run == maxSourceSignals {
		rd.dropped++
		first := len(rd.signals) - rd.run // of the source's run
		run := rd.signals[first:]
		ws, out := weight(s, run, -1), -1
		for i := len(run) - 1; i >= 0; i-- {
			if w := weight(run[i], run, i); w < ws && (out < 0 || w < weight(run[out], run, out)) {
				out = i
			}
		}
		if out < 0 {
			return // s is the lightest
		}
		rd.signals = slices.Delete(rd.signals, first+out, first+out+1)
		rd.run--
	}
	rd.run++
	s.Value = quote.Cut(s.Value, maxSignalValue)
	rd.signals = append(rd.signals, s)
}

// weight ranks s, run[self] (self < 0 for a signal not in run), for the
// bounds of note: the only one of run stating its label's preference
// above a repeat; then one of a label crawlers read (train-ai, search,
// ai-input) above another; then a "no" above a "yes".
func weight(s Signal, run []Signal, self int) int {
	w := 0
	if s.Pref == PrefNo {
		w = 1
	}
	if usage.Read(s.Label) {
		w += 2
	}
	for i, o := range run {
		if i != self && o.Label == s.Label && o.Pref == s.Pref {
			return w // a repeat
		}
	}
	return w + 4
}

// A robotsFile is a robots.txt whose statements a reading lists: its
// table, read in mode, and the runs of it that speak for one crawler
// (see parse.Table.UsageRuns). at is "" for the site a request's Host
// names; else the authority of the site it was sent to (see
// Transport.dialed), whose refusals alone count, listed with Where
// prefixed by it.
type robotsFile struct {
	t    *parse.Table
	mode Mode
	runs []int
	at   string
}

// place returns the Where and Value of a signal of f's line n, whose
// statement is stmt (see placeOf).
func (f robotsFile) place(n int, stmt string) (where, value string) {
	where, value = placeOf(f.t, n, stmt)
	if where == "unreadable" {
		return where, at(f.at, ": ", value)
	}
	return at(f.at, " ", where), value
}

// robotsTxt notes the signals of files at paths (a URL's and its normal
// forms): the Content-Usage rules that decide for any of them, then the
// Content-Signal records that apply, each file's in line order, without
// combining their preferences, so that each source's signals stand
// together, within its bound. A rule's yes is noted unless the forms'
// agreement, as servedUsage counts it, leaves its label without a
// preference: a yes that one form lacks counts for none; of a file at
// another site, only its refusals.
func (rd *reading) robotsTxt(paths []string, files ...robotsFile) {
	for _, f := range files {
		agreed, rules, cut := formsUsage(nil, f.t, f.mode, f.runs, paths[0], paths[1:])
		if cut {
			rd.state("robots.txt", "unreadable", at(f.at, ": ", "the forms servers may serve the path as cost past the bound to check against its Content-Usage rules"), noTraining)
		}
		said := make(map[string]bool) // the labels agreed states a preference for
		for label, v := range usage.All(agreed.members) {
			said[label] = prefOf(v) != PrefUnknown
		}
		slices.SortFunc(rules, func(a, b parse.UsageRule) int { return cmp.Compare(a.Line, b.Line) })
		rules = slices.CompactFunc(rules, func(a, b parse.UsageRule) bool { return a.Line == b.Line })
		for _, r := range rules {
			counted := parseUsage(r.Statement).filter(func(label, v string) bool {
				return prefOf(v) == PrefNo || prefOf(v) == PrefYes && f.at == "" && !r.Theirs && said[label]
			})
			where, value := f.place(r.Line, r.Statement)
			rd.list("robots.txt", where, value, counted)
		}
	}
	for _, f := range files {
		for _, r := range signals(f.t, f.runs) {
			u := parseContentSignal(r.Value)
			if f.at != "" || r.Theirs {
				u = refusals(u)
			}
			where, value := f.place(r.Line, r.Value)
			rd.list("content-signal", where, value, u)
		}
	}
}

// placeOf returns the Where and Value of a signal of robots.txt line n,
// whose statement is stmt: "unreadable" and why for a line cut short,
// whose statement the parser made of its refusals (see parse.Table.Cut),
// not what the site wrote.
func placeOf(t *parse.Table, n int, stmt string) (where, value string) {
	if t.Cut(n) {
		return "unreadable", lineOf(n) + " is cut short (at a NUL byte, past 16,663 bytes, or by the body limit): " +
			"read as its refusals and train-ai=n, since what was cut may have been one"
	}
	return lineOf(n), stmt
}

// lineOf returns the Where of robots.txt line n.
func lineOf(n int) string { return "line " + strconv.Itoa(n) }

// pathForms returns path and the normal forms a server may serve it as.
func pathForms(path string) []string {
	if match.SpelledNormally(path) {
		return []string{path}
	}
	forms, n := match.NormalForms(path, nil)
	return append([]string{path}, forms[:n]...)
}
