package robotstxt

import (
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robotsgate/robotstxt/internal/match"
	"github.com/robotsgate/robotstxt/internal/parse"
)

// Mode selects how a robots.txt is read where RFC 9309 and Google's
// reference parser differ.
type Mode uint8

const (
	// ModeGoogle reads as Google's reference parser does. It is the default.
	ModeGoogle Mode = iota
	// ModeRFC9309 reads the two points where the RFC's text is plain and
	// Google's parser reads otherwise the RFC's way: /robots.txt itself
	// (with no query) is always allowed, and percent-escaped unreserved
	// characters are decoded in rules and URLs before they are compared
	// (/%7Efred is /~fred; %2F stays encoded), while a '*' or '$' that
	// stands for itself is compared escaped, as the RFC spells it: a
	// rule's "/a$b" reads as "/a%24b", and weighs those six bytes in
	// precedence where Google's parser weighs four. The rest is read
	// as in ModeGoogle: the tolerance of Google's parser (typos in keys,
	// a missing colon, a user-agent cut at its first space, long lines
	// cut) and its rule that an allow of ".../index.html" allows the
	// directory too.
	ModeRFC9309
)

// A Rule is one allow or disallow line of a robots.txt: the rule that
// decided a [Decision], or one of [Robots.Rules]. The zero Rule is none.
type Rule struct {
	// Pattern is the path pattern, normalised (see
	// [github.com/robotsgate/robotstxt/matcher.Escape]); in ModeRFC9309
	// its escaped unreserved characters are decoded and a '$' it does not
	// end with is written %24.
	Pattern string
	Line    int  // 1-based line number
	Allow   bool // an allow rule, not a disallow
}

// Robots is a parsed robots.txt. It is immutable and safe for concurrent
// use. It keeps the groups of the first crawler it checks at hand, which
// makes checking many URLs for one crawler fast. It holds no diagnostics:
// [github.com/robotsgate/robotstxt/parser.Parse] reports those.
type Robots struct {
	t     *parse.Table // indexed: a check looks only at rules that can match
	mode  Mode
	first atomic.Pointer[resolved]
	// signals holds the runs and Content-Signal preferences of other
	// crawlers, by the first of their groups and runs (see usage).
	signals sync.Map
}

// resolved is what applies to one crawler: its groups, the runs of
// theirs whose Content-Usage rules and Content-Signal records speak for
// it, and the preferences of those records.
type resolved struct {
	agent  string
	groups []int
	runs   []int
	signal Usage
}

// Parse parses a robots.txt body as Google's parser does. It never fails
// and never panics: lines it cannot use are skipped. The result does not
// refer to body. It keeps up to 256 MiB of text (patterns, escaped, and
// values): the lines of a larger body past that are dropped.
func Parse(body []byte) *Robots { return ParseMode(body, ModeGoogle) }

// ParseMode is like Parse but reads the body in the given mode.
func ParseMode(body []byte, mode Mode) *Robots {
	return &Robots{t: parse.Parser{RFC9309: mode == ModeRFC9309}.Compile(body), mode: mode}
}

// Allowed reports whether the crawler whose product token is agent may
// fetch url. The token is compared case-insensitively with the user-agent
// lines; it is not cut or cleaned, so pass "FooBot", not "FooBot/1.2".
// url is an absolute URL or a path, already percent-escaped; it is
// matched as given, cut as Google's parser cuts it (see
// [github.com/robotsgate/robotstxt/matcher.Path]: pass the path of a URL
// with userinfo, behind a scheme and host such as "http://h" when it
// starts with "//", which would read as a host).
func (r *Robots) Allowed(agent, url string) bool {
	ok, _ := decide(r.t, r.mode, r.groups(agent), match.Path(url))
	return ok
}

// Check is like Allowed but returns the [Decision]: the deciding rule and
// the usage preferences for url (see [Robots.Usage]), with Outcome
// OutcomeRules. In the default mode it allocates only for a URL whose
// path starts with '?' or ';', or one the crawler's Content-Usage rules
// cover, or, for a crawler other than the first checked, in a file with
// records such as crawl-delay; in RFC9309 mode, also for a path with
// escapes to decode or holding '*' or '$' (compared escaped).
func (r *Robots) Check(agent, url string) Decision {
	path := match.Path(url)
	groups := r.groups(agent)
	d := Decision{Outcome: OutcomeRules}
	d.Allowed, d.Rule = decide(r.t, r.mode, groups, path)
	if !d.Allowed {
		return d
	}
	runs, signal := r.usage(agent)
	if r.t.HasUsage(runs) {
		d.Usage = stated(r.t, r.mode, runs, path)
	}
	d.Usage = d.Usage.combine(signal)
	return d
}

// groups returns the groups that apply to agent, remembered for the
// first crawler checked; the caller only reads them.
func (r *Robots) groups(agent string) []int {
	f := r.first.Load()
	if f != nil && f.agent == agent {
		return f.groups
	}
	groups, named := r.t.GroupsOf(agent)
	if f == nil {
		runs := runsOf(r.t, groups, r.t.RunsOf(agent, named))
		r.first.CompareAndSwap(nil, &resolved{agent: strings.Clone(agent), groups: groups, runs: runs, signal: signalOf(r.t, runs)})
	}
	return groups
}

// usage returns the runs that speak for agent (see runsOf) and the
// preferences of their Content-Signal records, remembered for the first
// crawler checked, and for the others by their groups and runs, which
// are the table's own: a file of many records took 3.6 ms a check to
// read them again.
func (r *Robots) usage(agent string) ([]int, Usage) {
	if f := r.first.Load(); f != nil && f.agent == agent {
		return f.runs, f.signal
	}
	groups, named := r.t.GroupsOf(agent)
	own := r.t.RunsOf(agent, named)
	var key struct{ groups, own *int } // the first of each; nil for none
	if len(groups) > 0 {
		key.groups = &groups[0]
	}
	if len(own) > 0 {
		key.own = &own[0]
	}
	if v, ok := r.signals.Load(key); ok {
		read := v.(*resolved)
		return read.runs, read.signal
	}
	runs := runsOf(r.t, groups, own)
	read := &resolved{runs: runs, signal: signalOf(r.t, runs)}
	r.signals.Store(key, read)
	return runs, read.signal
}

// runsOf returns own, the runs of t that speak for a crawler obeying
// groups, with those whose refusals alone reach it (see
// parse.Table.Theirs); own when there are none.
func runsOf(t *parse.Table, groups, own []int) []int {
	return t.Theirs(slices.Clip(own), groups, own) // a copy, if it grows: own is the table's
}

// rulesPath returns path as the rules of mode compare it, and whether
// mode allows it whatever the rules say: RFC 9309 always allows
// /robots.txt, the file itself, not a URL that adds a query to it (which
// a site generating the file may act on).
func rulesPath(mode Mode, path string) (_ string, always bool) {
	if mode == ModeRFC9309 {
		path = match.UnescapePath(path) // first, so /%72obots.txt is /robots.txt too
		return path, path == "/robots.txt"
	}
	return path, false
}

// decide reports whether the rules of groups in t, read in mode, allow
// path, and the deciding rule (the zero Rule when none matched).
func decide(t *parse.Table, mode Mode, groups []int, path string) (bool, Rule) {
	ok, rule, _ := decideWork(t, mode, groups, path)
	return ok, rule
}

// decideWork is decide, and returns the work it did: the rules it
// matched times the length of path (see maxCheckWork).
func decideWork(t *parse.Table, mode Mode, groups []int, path string) (bool, Rule, int) {
	path, always := rulesPath(mode, path)
	if always {
		return true, Rule{}, 0
	}
	rule, ok, tried := t.Run(groups, path)
	return !ok || rule.Allow, Rule(rule), tried * len(path) // its twin: converted for free
}

// Usage returns the preferences (see [Usage]) that robots.txt states
// about the use of url's content by the crawler whose product token is
// agent, from its Content-Usage rules (draft-ietf-aipref-attach §4) and
// Cloudflare's Content-Signal records, combined label by label: n if any
// says n, else y if any says y, else unknown. [Transport.Receipt] says
// which lines state them. For a URL Allowed refuses it is the zero Usage.
//
// A Content-Usage rule speaks for the user-agent lines before it, up to
// the last line of another key (a rule, a record such as Crawl-delay, a
// Sitemap), as a file whose groups each end in a rule is read: not for
// those after it, even when they join its group because no Allow or
// Disallow came between (see
// [github.com/robotsgate/robotstxt/parser.UsageRule].Agents), but for
// its refusals: those crawlers obey the group's rules, and a no made for
// the crawlers above them reaches them (decided for each run of lines
// apart, as for its own crawlers, its yes dropped). The rules
// that speak for a crawler merge, as Allow and Disallow do: those naming
// it, or when no group names it, those of "*". The rule whose
// path matches url with the greatest length decides, matched as a rule's
// pattern is ('*', a final '$'), though an index.html path does not
// widen to its directory as an Allow does; a rule without a path matches
// with length 0. Rules matching with the same length combine. Each rule
// is tried without backtracking (see
// [github.com/robotsgate/robotstxt/matcher]). A rule or record whose line
// was cut short (at a NUL byte, past the 16,663 bytes of a line the parser
// keeps, or by the body limit) states only the refusals before the cut
// and train-ai=n: what was cut may have been a refusal, or taken a yes
// back.
//
// A Content-Signal record ("Content-Signal: search=yes, ai-train=no")
// reads as a statement in the AIPREF vocabulary: ai-train is train-ai,
// search is search, and keys with no equivalent (ai-input) keep their
// name; yes is y and no is n. Of a malformed pair, such as
// "/blog/ ai-train=no" or "search=yes; ai-train=no", only the refusals
// are read (ai-train=no), never a yes; so of every pair of a record that
// starts with a path other than "/", and of the pairs after it. A record
// speaks for the user-agent lines a Content-Usage rule in its place
// would, even past blank lines, and its refusals for the other lines of
// its group; one before the first user-agent line speaks for every
// crawler. The records that apply cover every URL the
// crawler may fetch.
func (r *Robots) Usage(agent, url string) Usage {
	groups := r.groups(agent)
	runs, signal := r.usage(agent)
	return usageOf(r.t, r.mode, groups, runs, match.Path(url), signal)
}

// agentRules returns the rules that a crawler known by the given product
// tokens obeys, copied out of the file.
func (r *Robots) agentRules(agents ...string) *agentRules {
	t, runs := r.t.SelectFor(agents...)
	a := &agentRules{t: t, mode: r.mode}
	if u := signalOf(r.t, runs); u != (Usage{}) {
		a.signal = &u
	}
	return a
}

// Rules returns the rules that apply to agent, in file order: those of
// every group that names it, or else those of the "*" groups.
func (r *Robots) Rules(agent string) []Rule { return rulesOf(r.t.Rules(r.groups(agent))) }

// rulesOf converts rules from their twins; nil for none.
func rulesOf(rules []parse.Rule) []Rule {
	var out []Rule
	for _, rule := range rules {
		out = append(out, Rule(rule))
	}
	return out
}

// CrawlDelay returns the first crawl-delay of the groups that apply to
// agent that parses: fractional seconds are kept; values that do not
// parse or are negative are skipped, and values beyond a day read as a day.
func (r *Robots) CrawlDelay(agent string) (time.Duration, bool) {
	return crawlDelay(r.t.Extensions(r.groups(agent)))
}

// crawlDelay returns the first crawl-delay of records that parses.
func crawlDelay(records []parse.Record) (time.Duration, bool) {
	for _, e := range records {
		if e.Key != "crawl-delay" {
			continue
		}
		if d, err := parse.CrawlDelay(e.Value); err == nil {
			return d, true
		}
	}
	return 0, false
}

// Sitemaps returns the sitemap URLs in file order.
func (r *Robots) Sitemaps() []string {
	s := r.t.Sitemaps()
	out := make([]string, len(s))
	for i := range s {
		out[i] = s[i].Value
	}
	return out
}

// Licenses returns the URLs of the License records of RSL 1.0 (Really
// Simple Licensing), where the site's licence terms are, in file order.
// Like Sitemap lines, License lines belong to no group and never end one.
// Only absolute http and https URLs with a host are returned; a relative
// one names no licence ([github.com/robotsgate/robotstxt/parser.File]
// keeps it, for lint).
func (r *Robots) Licenses() []string {
	var out []string
	for _, rec := range r.t.Licenses() {
		if u, err := url.Parse(rec.Value); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != "" {
			out = append(out, rec.Value)
		}
	}
	return out
}

// agentRules are the rules that one crawler obeys (see Robots.agentRules),
// in their own table, so that the Client keeps them without the rest of
// the file. They are immutable and safe for concurrent use.
type agentRules struct {
	t    *parse.Table
	mode Mode
	// signal holds the preferences of the Content-Signal records that
	// apply, which the table does not keep; nil for none, the common case,
	// so that it costs 8 bytes.
	signal *Usage
}

// signalSize returns the bytes a's Content-Signal preferences hold: up to
// usage.MaxLen, which a hostile file reaches.
func (a *agentRules) signalSize() int64 {
	if a.signal == nil {
		return 0
	}
	return int64(len(a.signal.members))
}

// selected is the one group of an agentRules' table; nothing changes it.
var selected = []int{0}

// check reports whether path (as match.Path returns it) is allowed, the
// deciding rule, and the work of the check (see decideWork).
func (a *agentRules) check(path string) (bool, Rule, int) {
	return decideWork(a.t, a.mode, selected, path)
}

// contentSignal returns the preferences of a.signal, if any.
func (a *agentRules) contentSignal() Usage {
	if a.signal == nil {
		return Usage{}
	}
	return *a.signal
}

// crawlDelayOf returns the crawl-delay r, whose rules a holds, gives a's
// crawler, known by tokens: the longest of those Robots.CrawlDelay gives
// each token whose groups it obeys, so that a site that slows one
// product of a crawler down is obeyed whichever group comes first. One
// token's is the first of a's.
func (a *agentRules) crawlDelayOf(r *Robots, tokens []string) (d time.Duration, ok bool) {
	if len(tokens) < 2 {
		return crawlDelay(a.t.Extensions(selected))
	}
	anyNamed := false // else every token obeys the * groups
	for _, tok := range tokens {
		groups, named := r.t.GroupsOf(tok)
		if named && !anyNamed {
			anyNamed, d, ok = true, 0, false // the * groups' delay no longer counts
		}
		if named == anyNamed {
			if td, given := crawlDelay(r.t.Extensions(groups)); given {
				d, ok = max(d, td), true
			}
		}
	}
	return d, ok
}
