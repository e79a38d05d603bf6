package robotstxt

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/robotsgate/robotstxt/internal/match"
	"github.com/robotsgate/robotstxt/internal/parse"
	"github.com/robotsgate/robotstxt/internal/quote"
	"github.com/robotsgate/robotstxt/internal/tdmrep"
	"github.com/robotsgate/robotstxt/internal/usage"
)

// A Signal is one statement a site made about what may be done with a
// page, read into the AIPREF vocabulary: which signal said it, about
// which use, what, and where. [Transport.Receipt] lists those of a page;
// [Robots.Signals] those of a robots.txt.
type Signal struct {
	// Source is the kind of signal:
	//
	//	robots.txt            a Content-Usage rule of robots.txt
	//	content-signal        a Content-Signal record of robots.txt
	//	content-usage-header  the Content-Usage header field
	//	x-robots-tag          an X-Robots-Tag noai (or noimageai on an image)
	//	robots-meta           a robots META tag's noai
	//	tdmrep.json           an entry of the site's /.well-known/tdmrep.json
	//	tdm-header            the tdm-reservation header field (TDMRep)
	//	tdm-meta              the tdm-reservation META tag (TDMRep)
	Source string `json:"source"`
	// Label is the usage label, such as "train-ai": the AIPREF label
	// of the use, or the signal's own name for a use the vocabulary has
	// no label for (Content-Signal's "ai-input").
	Label string `json:"label"`
	// Pref is [PrefYes] or [PrefNo]; [PrefUnknown] only for a TDMRep
	// tdm-reservation of 0, which says TDM rights are not reserved: a
	// fact worth keeping, but no AIPREF statement.
	Pref Pref `json:"pref"`
	// Where is where the site said it: "line N" of robots.txt; the
	// header field or the META tag's name ("Content-Usage",
	// "X-Robots-Tag", "robots", "tdm-reservation"); or "entry N" of
	// tdmrep.json, the first entry being entry 1. It is "unreachable"
	// for the train-ai=n that stands in for a robots.txt or tdmrep.json
	// that could not be read, whose error Value gives.
	Where string `json:"where"`
	// Value is the text the site wrote there (the statement, record,
	// directive or tdm-reservation value), cut to 256 bytes.
	Value string `json:"value,omitempty"`
	// Superseded marks a TDMRep value that a later technique replaces:
	// as the TDMRep report ranks them, a page's META replaces the header
	// field, which replaces tdmrep.json. It says what the site said, but
	// does not count.
	Superseded bool `json:"superseded,omitempty"`
}

// The sources of signals (see Signal.Source).
const (
	sourceRobots      = "robots.txt"
	sourceSignal      = "content-signal"
	sourceUsageHeader = "content-usage-header"
	sourceXRobots     = "x-robots-tag"
	sourceRobotsMeta  = "robots-meta"
	sourceTDMFile     = "tdmrep.json"
	sourceTDMHeader   = "tdm-header"
	sourceTDMMeta     = "tdm-meta"
)

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
// combining u: the caller has.
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

// note keeps s within the bounds.
func (rd *reading) note(s Signal) {
	if s.Source != rd.source {
		rd.source, rd.run = s.Source, 0
	}
	if rd.run == maxSourceSignals || len(s.Label) > maxSignalLabel {
		rd.dropped++
		return
	}
	rd.run++
	s.Value = quote.Cut(s.Value, maxSignalValue)
	rd.signals = append(rd.signals, s)
}

// robotsTxt notes the signals of t, read in mode, for groups, those of
// one crawler, at paths, a URL's path and its normal forms: the
// Content-Usage rules that decide for any of them, then the Content-Signal
// records that apply, each in line order. The caller combines their
// preferences from the Decision.
func (rd *reading) robotsTxt(t *parse.Table, mode Mode, groups []int, paths []string) {
	var rules []parse.UsageRule
	for _, p := range paths {
		p, _ = rulesPath(mode, p)
		rules = t.DecideUsage(rules, groups, p)
	}
	slices.SortFunc(rules, func(a, b parse.UsageRule) int { return cmp.Compare(a.Line, b.Line) })
	rules = slices.CompactFunc(rules, func(a, b parse.UsageRule) bool { return a.Line == b.Line })
	for _, r := range rules {
		rd.list(sourceRobots, lineOf(r.Line), r.Statement, parseUsage(r.Statement))
	}
	records := append(t.FileExtensions(), t.Extensions(groups)...)
	slices.SortFunc(records, func(a, b parse.Record) int { return cmp.Compare(a.Line, b.Line) })
	for _, r := range records {
		if r.Key == "content-signal" {
			rd.list(sourceSignal, lineOf(r.Line), r.Value, parseContentSignal(r.Value))
		}
	}
}

// lineOf returns the Where of robots.txt line n.
func lineOf(n int) string { return "line " + strconv.Itoa(n) }

// Signals returns the signals behind [Robots.Usage] for url: for each
// label a deciding Content-Usage rule (source "robots.txt") or a
// Content-Signal record that applies (source "content-signal") states y
// or n for, a Signal with the rule's line, the rules first, each kind in
// line order, at most 16 of each; nil for a URL Allowed refuses.
func (r *Robots) Signals(agent, url string) []Signal {
	groups, path := r.groups(agent), match.Path(url)
	if ok, _ := decide(r.t, r.mode, groups, path); !ok {
		return nil
	}
	rd := reading{record: true}
	rd.robotsTxt(r.t, r.mode, groups, []string{path})
	return rd.signals
}

// A tdmSay is what one TDMRep technique says of a page.
type tdmSay struct {
	source, where string
	set           bool   // tdm-reservation is 0 or 1; else the technique says nothing of it
	reserved      bool   // tdm-reservation is 1
	policy        string // tdm-policy, or ""
}

// tdm notes what the TDMRep techniques say of a page, given in the
// order the report ranks them (tdmrep.json, the header field, the page's
// META): the last that sets tdm-reservation decides, and a reservation
// reads as train-ai=n; the policy is the last one given, absence
// resetting nothing, as the report asks. It returns the policy when the
// decision is a reservation, else "" (the report asks agents not to
// process a policy beside tdm-reservation 0).
func (rd *reading) tdm(says ...tdmSay) (policy string) {
	decides := -1
	for i, s := range says {
		if s.set {
			decides = i
		}
		if s.policy != "" {
			policy = s.policy
		}
	}
	for i, s := range says {
		if !s.set {
			continue
		}
		sig := Signal{Source: s.source, Label: "train-ai", Where: s.where, Value: "0", Superseded: i != decides}
		if s.reserved {
			sig.Pref, sig.Value = PrefNo, "1"
		}
		rd.note(sig)
	}
	if decides < 0 || !says[decides].reserved {
		return ""
	}
	rd.usage = rd.usage.combine(noTraining)
	return policy
}

// fileSay returns what a site's tdmrep.json f, nil for none, says of
// path, the path and query of a URL as the Client reads it, and of each
// normal form a server may serve it as (see normalForms): the entry that
// decides for the first form it reserves, else for the first form an
// entry matches.
func fileSay(f *tdmrep.File, path string) tdmSay {
	if f == nil {
		return tdmSay{}
	}
	var say tdmSay
	for _, p := range pathForms(path) {
		i, r, ok := f.Match(p)
		if !ok || say.set && (say.reserved || !r.Reserved) {
			continue
		}
		say = tdmSay{source: sourceTDMFile, where: "entry " + strconv.Itoa(i+1), set: true, reserved: r.Reserved, policy: r.Policy}
	}
	return say
}

// pathForms returns path and the normal forms a server may serve it as.
func pathForms(path string) []string {
	if spelledNormally(path) {
		return []string{path}
	}
	forms, n := normalForms(path, nil)
	return append([]string{path}, forms[:n]...)
}
