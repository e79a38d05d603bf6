package robotstxt

import (
	"net/url"
	"strings"
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
	// ModeRFC9309 is the strict reading of RFC 9309: /robots.txt itself is
	// always allowed, and percent-escaped unreserved characters are decoded
	// in rules and URLs before they are compared (/%7Efred is /~fred; %2F
	// stays encoded).
	ModeRFC9309
)

// Rule is one allow or disallow line: its normalised pattern, kind and
// line.
type Rule = parse.Rule

// Robots is a parsed robots.txt. It is immutable and safe for concurrent
// use.
//
// It holds the rules and records in a compact form (a table: one
// text and small records that point into it), indexed so that a check
// looks only at the rules that can match the path, and no diagnostics:
// [github.com/robotsgate/robotstxt/parser.Parse] reports those.
type Robots struct {
	t    *parse.Table
	mode Mode

	// first remembers the groups of the first crawler checked, since most
	// callers check every URL for one crawler.
	first atomic.Pointer[resolved]
}

// resolved is the list of groups that apply to one crawler.
type resolved struct {
	agent  string
	groups []int
}

// Parse parses a robots.txt body as Google's parser does. It never fails
// and never panics: lines it cannot use are skipped. The result does not
// refer to body.
func Parse(body []byte) *Robots { return ParseMode(body, ModeGoogle) }

// ParseMode is like Parse but reads the body in the given mode.
func ParseMode(body []byte, mode Mode) *Robots {
	return &Robots{t: parse.Parser{RFC9309: mode == ModeRFC9309}.Compile(body), mode: mode}
}

// Allowed reports whether the crawler whose product token is agent may
// fetch url. The token is compared case-insensitively with the user-agent
// lines; it is not cut or cleaned, so pass "FooBot", not "FooBot/1.2".
// url is an absolute URL or a path, already percent-escaped; it is
// matched as given.
func (r *Robots) Allowed(agent, url string) bool {
	ok, _ := decide(r.t, r.mode, r.groups(agent), match.Path(url))
	return ok
}

// Check is like Allowed but returns the [Decision]: the deciding rule and
// the Content-Usage preferences for url (see [Robots.Usage]), with Outcome
// OutcomeRules. In the default mode it does not allocate, except for a
// URL whose path starts with '?' or ';' (see match.Path), or one the
// crawler's Content-Usage rules cover; in RFC9309 mode a path with escapes
// to decode allocates too.
func (r *Robots) Check(agent, url string) Decision {
	path := match.Path(url)
	groups := r.groups(agent)
	d := Decision{Outcome: OutcomeRules}
	d.Allowed, d.Rule = decide(r.t, r.mode, groups, path)
	if d.Allowed && r.t.HasUsage(groups) {
		d.Usage = stated(r.t, r.mode, groups, path)
	}
	return d
}

// groups returns the groups that apply to agent: those remembered for the
// first crawler checked when agent is that crawler, and otherwise those
// parse.Table.GroupsOf finds. The caller only reads them.
func (r *Robots) groups(agent string) []int {
	f := r.first.Load()
	if f == nil {
		groups, _ := r.t.GroupsOf(agent)
		f = &resolved{agent: strings.Clone(agent), groups: groups}
		if !r.first.CompareAndSwap(nil, f) {
			f = r.first.Load()
		}
	}
	if f.agent == agent {
		return f.groups
	}
	groups, _ := r.t.GroupsOf(agent)
	return groups
}

// rulesPath returns path as the rules of mode compare it, and whether
// mode allows it whatever the rules say: RFC 9309 always allows
// /robots.txt.
func rulesPath(mode Mode, path string) (_ string, always bool) {
	if mode == ModeRFC9309 {
		path = match.UnescapePath(path) // first, so /%72obots.txt is /robots.txt too
		if p, _, _ := strings.Cut(path, "?"); p == "/robots.txt" {
			return path, true
		}
	}
	return path, false
}

// decide checks path against the rules of the given groups of t, read in
// mode, and reports whether it is allowed and the deciding rule (the zero
// Rule when none matched).
func decide(t *parse.Table, mode Mode, groups []int, path string) (bool, Rule) {
	path, always := rulesPath(mode, path)
	if always {
		return true, Rule{}
	}
	rule, ok := t.Decide(groups, path)
	return !ok || rule.Allow, rule
}

// Usage returns the preferences that robots.txt's Content-Usage rules
// state about the use of url's content by the crawler whose product token
// is agent: whether it may train AI models on it, use it for search, and
// so on (see [Usage] and draft-ietf-aipref-attach §4).
//
// Content-Usage rules belong to groups as Allow and Disallow do, and
// those of the groups that apply to agent merge as theirs do. For url the
// rule whose path matches with the greatest length decides, the path
// matched as an Allow or Disallow pattern is ('*', a final '$',
// percent-encoding, in the mode the file was read in); a rule without a
// path matches every URL, with length 0. Rules whose paths match with the
// same length, as identical paths do, combine label by label: n if any
// says n, else y if any says y, else unknown (where Allow and Disallow
// let the allow win). Preferences apply only to what the crawler may
// fetch: for a URL Allowed refuses, as for one that no rule matches,
// every label is unknown (the zero Usage). Content-Signal records are
// not read here: see [Robots.ContentSignal].
//
// url is read as Allowed reads it. For a file without Content-Usage rules
// for agent, Usage answers at once; otherwise it checks url as Allowed
// does and tries every Content-Usage rule of the groups, each in time
// linear in the lengths of its path and of url.
func (r *Robots) Usage(agent, url string) Usage {
	return usageOf(r.t, r.mode, r.groups(agent), match.Path(url))
}

// ContentSignal returns the preferences of the Content-Signal records
// that apply to the crawler whose product token is agent, in the
// vocabulary of Cloudflare's Content Signals Policy, which writes them
// into the robots.txt files it manages: the keys search, ai-input and
// ai-train with the values yes and no, read as [PrefYes] and [PrefNo]
// (so that ContentSignal(agent, url).Pref("ai-train") is PrefNo for
// "ai-train=no"), and any other key=value pair kept as written, such as
// use=reference. Keys are read in lower case, and values yes and no in
// any case; a pair that cannot be read is skipped.
//
// A Content-Signal record belongs to the group it stands in, as an
// extension record does: a record after a group's rules, even past blank
// lines, is that group's. A record before the first user-agent line
// belongs to no group and applies to every crawler, as the file-wide
// record Cloudflare and crawler-commons read it as. The records of the
// groups that apply to agent (merged as for Allowed) and the file-wide
// ones combine label by label, whatever their order: n if any says n,
// else y if any says y, as statements of preference combine (see
// [Robots.Usage]). A record has no path: it covers every URL the crawler
// may fetch, and for a URL Allowed refuses every label is unknown.
// Content-Usage rules are not read here: see [Robots.Usage].
func (r *Robots) ContentSignal(agent, url string) Usage {
	groups := r.groups(agent)
	if ok, _ := decide(r.t, r.mode, groups, match.Path(url)); !ok {
		return Usage{}
	}
	return contentSignal(r.t.FileExtensions()).combine(contentSignal(r.t.Extensions(groups)))
}

// agentRules returns the rules that a crawler known by the given product
// tokens obeys (those of every group that names one of them, merged, or
// when none does, those of the "*" groups), copied out of the file.
func (r *Robots) agentRules(agents ...string) *agentRules {
	groups, _ := r.t.AppendGroups(nil, agents...)
	return &agentRules{t: r.t.Select(groups), mode: r.mode}
}

// Rules returns the rules that apply to agent, in file order: those of
// every group that names it, or else those of the "*" groups.
func (r *Robots) Rules(agent string) []Rule { return r.t.Rules(r.groups(agent)) }

// CrawlDelay returns the first crawl-delay of the groups that apply to
// agent that parses: fractional seconds are kept;
// values that do not parse or are negative are skipped, and values beyond
// a day read as a day.
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
// Simple Licensing) in file order: where the terms under which the site
// licenses its content are. Like Sitemap lines, License lines are
// file-wide: they belong to no group and never end one. Only absolute
// http and https URLs with a host are returned; a relative URL names no
// licence (the parsed form keeps it, for lint: see [github.com/robotsgate/robotstxt/parser.File]).
func (r *Robots) Licenses() []string {
	var out []string
	for _, rec := range r.t.Licenses() {
		if u, err := url.Parse(rec.Value); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			out = append(out, rec.Value)
		}
	}
	return out
}
