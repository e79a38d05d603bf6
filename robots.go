package robotstxt

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robotsgate/robotstxt/matcher"
	"github.com/robotsgate/robotstxt/parser"
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

// String returns "google" or "rfc9309".
func (m Mode) String() string {
	if m == ModeRFC9309 {
		return "rfc9309"
	}
	return "google"
}

// Types of the parsed form, defined in package parser.
type (
	// Rule is one allow or disallow line: its normalised pattern and line.
	Rule = parser.Rule
	// Extension is a non-standard record such as crawl-delay or host.
	Extension = parser.Record
	// Diagnostic reports a line that was skipped, tolerated or cut.
	Diagnostic = parser.Diagnostic
)

// Robots is a parsed robots.txt. It is immutable and safe for concurrent
// use.
type Robots struct {
	file *parser.File
	mode Mode

	// order holds, per group, the indices of its rules by pattern length,
	// longest first and allow first on a tie, so that a check can stop
	// at the first rule too short to win. It is built on the first check.
	orderOnce sync.Once
	order     [][]int32

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
// and never panics: lines it cannot use are skipped and reported by
// Diagnostics. The result does not refer to body.
func Parse(body []byte) *Robots { return ParseMode(body, ModeGoogle) }

// ParseMode is like Parse but reads the body in the given mode.
func ParseMode(body []byte, mode Mode) *Robots {
	f := parser.Parser{RFC9309: mode == ModeRFC9309}.Parse(body)
	return &Robots{file: f, mode: mode}
}

// Mode returns the mode the rules were read in.
func (r *Robots) Mode() Mode { return r.mode }

// A Verdict is the outcome of checking one URL for one crawler.
type Verdict struct {
	// Allowed reports whether the crawler may fetch the URL.
	Allowed bool
	// Rule is the deciding rule, or nil when no rule matched (and the URL
	// is allowed). For an allow of …/index.html that decides for its
	// directory, Rule is that allow.
	Rule *Rule
}

// Allowed reports whether the crawler whose product token is agent may
// fetch url. The token is compared case-insensitively with the user-agent
// lines; it is not cut or cleaned, so pass "FooBot", not "FooBot/1.2".
// url is an absolute URL or a path, already percent-escaped; it is
// matched as given.
func (r *Robots) Allowed(agent, url string) bool {
	return r.Check(agent, url).Allowed
}

// Check is like Allowed but also reports the deciding rule. In the default
// mode it allocates only on the first call for a Robots, when it builds
// the indexes that later checks use, and for a URL whose path starts with
// '?' or ';' (see matcher.Path). In RFC9309 mode a path with escapes to
// decode allocates too.
func (r *Robots) Check(agent, url string) Verdict {
	f := r.first.Load()
	if f == nil {
		f = &resolved{agent: strings.Clone(agent), groups: r.appendGroups(nil, agent)}
		if !r.first.CompareAndSwap(nil, f) {
			f = r.first.Load()
		}
	}
	if f.agent == agent {
		return r.decide(f.groups, url)
	}
	var buf [8]int
	return r.decide(r.appendGroups(buf[:0], agent), url)
}

// decide checks url against the rules of the given groups.
func (r *Robots) decide(groups []int, url string) Verdict {
	path := matcher.Path(url)
	if r.mode == ModeRFC9309 {
		path = matcher.UnescapePath(path) // first, so /%72obots.txt is /robots.txt too
		if p, _, _ := strings.Cut(path, "?"); p == "/robots.txt" {
			return Verdict{Allowed: true}
		}
	}
	r.orderOnce.Do(r.sortRules)
	var best matcher.Best
	var rule *Rule
	for _, gi := range groups {
		rules := r.file.Groups[gi].Rules
		for _, i := range r.order[gi] {
			ru := &rules[i]
			n := len(ru.Pattern)
			if best.Found && n < best.Len {
				break // no rule from here on is long enough to win
			}
			if !best.Beats(n, ru.Allow) {
				continue
			}
			if m, ok := ru.Match(path); ok && best.Beats(m, ru.Allow) {
				best.Take(m, ru.Allow)
				rule = ru
			}
		}
	}
	return Verdict{Allowed: best.Allowed(), Rule: rule}
}

// sortRules builds r.order.
func (r *Robots) sortRules() {
	n := 0
	for _, g := range r.file.Groups {
		n += len(g.Rules)
	}
	flat := make([]int32, n)
	r.order = make([][]int32, len(r.file.Groups))
	for gi, g := range r.file.Groups {
		o := flat[:len(g.Rules):len(g.Rules)]
		flat = flat[len(g.Rules):]
		for i := range o {
			o[i] = int32(i)
		}
		rules := g.Rules
		slices.SortStableFunc(o, func(a, b int32) int {
			ra, rb := &rules[a], &rules[b]
			if d := len(rb.Pattern) - len(ra.Pattern); d != 0 {
				return d
			}
			switch {
			case ra.Allow == rb.Allow:
				return 0
			case ra.Allow:
				return -1
			}
			return 1
		})
		r.order[gi] = o
	}
}

// appendGroups appends the indices of the groups that apply to agent:
// every group that names it, or else every "*" group.
func (r *Robots) appendGroups(dst []int, agent string) []int {
	n := len(dst)
	if agent != "" {
		for i := range r.file.Groups {
			if names(&r.file.Groups[i], agent) {
				dst = append(dst, i)
			}
		}
		if len(dst) > n {
			return dst
		}
	}
	for i := range r.file.Groups {
		for j := range r.file.Groups[i].Agents {
			if r.file.Groups[i].Agents[j].Global {
				dst = append(dst, i)
				break
			}
		}
	}
	return dst
}

// names reports whether a user-agent line of g names the crawler agent.
func names(g *parser.Group, agent string) bool {
	for i := range g.Agents {
		t := g.Agents[i].Token
		if len(t) == len(agent) && (t == agent || strings.EqualFold(t, agent)) {
			return true
		}
	}
	return false
}

// Crawler returns the view of the rules that the crawler whose product
// token is agent obeys. A crawler that checks many URLs against one file
// saves looking up its groups each time.
func (r *Robots) Crawler(agent string) *Crawler {
	a := &Crawler{r: r, groups: r.appendGroups(nil, agent)}
	a.named = agent != "" && len(a.groups) > 0 && names(&r.file.Groups[a.groups[0]], agent)
	return a
}

// Rules returns the rules that apply to agent, in file order: those of
// every group that names it, or else those of the "*" groups.
func (r *Robots) Rules(agent string) []Rule { return r.Crawler(agent).Rules() }

// Extensions returns the extension records (crawl-delay, request-rate,
// host, …) of the groups that apply to agent, in file order.
func (r *Robots) Extensions(agent string) []Extension { return r.Crawler(agent).Extensions() }

// CrawlDelay returns the first crawl-delay of the groups that apply to
// agent. Fractional seconds are kept; values that do not parse, are
// negative or exceed a day are skipped.
func (r *Robots) CrawlDelay(agent string) (time.Duration, bool) {
	return r.Crawler(agent).CrawlDelay()
}

// maxCrawlDelay bounds the crawl-delay values CrawlDelay accepts.
const maxCrawlDelay = 24 * time.Hour

// Sitemaps returns the sitemap URLs in file order.
func (r *Robots) Sitemaps() []string {
	out := make([]string, len(r.file.Sitemaps))
	for i, s := range r.file.Sitemaps {
		out[i] = s.Value
	}
	return out
}

// Diagnostics returns what the parser skipped, tolerated or cut, in line
// order.
func (r *Robots) Diagnostics() []Diagnostic {
	return slices.Clone(r.file.Diagnostics)
}

// File returns the parsed form: groups, rules, agents, records and
// diagnostics. The caller must not modify it.
func (r *Robots) File() *parser.File { return r.file }
