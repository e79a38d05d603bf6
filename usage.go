package robotstxt

import (
	"strconv"

	"github.com/robotsgate/robotstxt/internal/parse"
	"github.com/robotsgate/robotstxt/internal/usage"
)

// A Pref is a preference about one use of content: allowed, disallowed
// or unknown.
type Pref uint8

// The preferences, and the Tokens that state them.
const (
	PrefUnknown Pref = iota // no preference stated (the zero value)
	PrefYes                 // the use is allowed ("y")
	PrefNo                  // the use is disallowed ("n")
)

// String returns "y" for [PrefYes], "n" for [PrefNo], else "unknown".
func (p Pref) String() string {
	switch p {
	case PrefYes:
		return "y"
	case PrefNo:
		return "n"
	}
	return "unknown"
}

// MarshalText returns p's String.
func (p Pref) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// A Usage is a statement of preference about what may be done with
// content a crawler fetches, in the vocabulary of the IETF AIPREF drafts:
// for each usage label, such as "train-ai" (training AI models) or
// "search" (search applications), whether the use is allowed, disallowed
// or unknown. Sites state it in robots.txt's Content-Usage rules and the
// Content-Usage response header, each an RFC 9651 Dictionary such as
// "train-ai=n, search=y" (one that does not parse, or a header of more
// than 68 KiB, states nothing), and in the other signals the package
// reads into the same vocabulary (see [Transport.Receipt]).
//
// A Usage keeps each label the site wrote once, known today or not
// (labels are case-sensitive), with its value if that is a Token; only
// the Tokens y and n state a preference, and the zero Usage states none.
// Usages are comparable: two are == when they hold the same labels and
// values in the same order. A Usage holds a statement of up to about 85
// KiB, any one statement read whole, with as many members as fit (far
// more than the 1,024 RFC 9651 asks parsers to accept).
type Usage struct {
	members string // the statement, as package usage keeps it
}

// maxUsageLen bounds the statement a Usage holds (see usage.MaxLen).
const maxUsageLen = usage.MaxLen

// parseUsage reads a statement of preference (see usage.Parse).
func parseUsage(value string) Usage {
	u, _ := parseStatement(value)
	return u
}

// parseStatement is parseUsage with the reason a statement states no
// preference.
func parseStatement(value string) (Usage, error) {
	m, err := usage.Parse(value)
	return Usage{m}, err
}

// parseContentSignal reads the value of a Content-Signal record into the
// AIPREF vocabulary (see usage.ParseContentSignal).
func parseContentSignal(value string) Usage {
	m, _ := usage.ParseContentSignal(value)
	return Usage{m}
}

// Pref returns the preference about the use that label names, such as
// "train-ai": [PrefYes] or [PrefNo] if the Usage holds the label with the
// value y or n, else [PrefUnknown].
func (u Usage) Pref(label string) Pref {
	v, _ := usage.Value(u.members, label)
	return prefOf(v)
}

// prefOf returns the preference a statement's value states.
func prefOf(value string) Pref {
	switch value {
	case "y":
		return PrefYes
	case "n":
		return PrefNo
	}
	return PrefUnknown
}

// MarshalJSON writes u as a JSON object of each label for which u states
// a preference, in u's order, with "y" or "n": {"train-ai":"n"}.
func (u Usage) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for label, v := range usage.All(u.members) {
		if prefOf(v) == PrefUnknown {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, label) // a label is a Dictionary key: plain ASCII
		b = append(b, ':', '"', v[0], '"')
	}
	return append(b, '}'), nil
}

// combine returns the preferences of u and v together, label by label
// (see usage.Combine).
func (u Usage) combine(v Usage) Usage { return Usage{usage.Combine(u.members, v.members)} }

// agree returns the preferences u and v, stated for two forms of one
// path, agree on, failing closed (see usage.Agree).
func (u Usage) agree(v Usage) Usage { return Usage{usage.Agree(u.members, v.members)} }

// noTraining is what the signals older than the AIPREF vocabulary map to
// (see Transport.Receipt).
var noTraining = Usage{"train-ai=n"}

// usageOf returns the preferences that the Content-Usage rules of runs in
// t, read in mode, state for path, combined with signal, those of the
// Content-Signal records that apply, when the rules of groups allow path;
// the zero Usage otherwise (see Robots.Usage).
func usageOf(t *parse.Table, mode Mode, groups, runs []int, path string, signal Usage) Usage {
	rules := t.HasUsage(runs)
	if !rules && signal == (Usage{}) {
		return Usage{}
	}
	if ok, _ := decide(t, mode, groups, path); !ok {
		return Usage{}
	}
	if rules {
		signal = stated(t, mode, runs, path).combine(signal)
	}
	return signal
}

// stated returns the preferences of the Content-Usage rules of runs in t
// (see parse.Table.UsageRuns), read in mode, that decide for path,
// combined, whether or not the rules allow path.
func stated(t *parse.Table, mode Mode, runs []int, path string) Usage {
	path, _ = rulesPath(mode, path)
	var buf [4]parse.UsageRule
	return combined(t.DecideUsage(buf[:0], runs, path))
}

// formsUsage appends to dst the Content-Usage rules of runs in t, read
// in mode, that decide for path and for each of forms, its normal forms,
// and returns the preferences they agree on (see Usage.agree). Past
// maxCheckWork, as for servedCheck, the forms left are not read and
// train-ai=n stands for them, failing closed, which cut reports.
func formsUsage(dst []parse.UsageRule, t *parse.Table, mode Mode, runs []int, path string, forms []string) (_ Usage, _ []parse.UsageRule, cut bool) {
	var agreed Usage
	work := 0
	for i := -1; i < len(forms); i++ {
		p := path
		if i >= 0 {
			if work > maxCheckWork {
				return agreed.agree(noTraining), dst, true
			}
			p = forms[i]
		}
		p, _ = rulesPath(mode, p)
		start := len(dst)
		var tried int
		dst, tried = t.RunUsage(dst, runs, p)
		work += tried * len(p)
		if u := combined(dst[start:]); i < 0 {
			agreed = u
		} else {
			agreed = agreed.agree(u)
		}
	}
	return agreed, dst, false
}

// combined returns the preferences of rules, combined.
func combined(rules []parse.UsageRule) Usage {
	var c usage.Combiner
	for _, r := range rules {
		u := parseUsage(r.Statement)
		if r.Theirs {
			u = refusals(u) // see parse.Table.Theirs
		}
		c.Add(u.members)
	}
	return Usage{c.Members()}
}

// signalOf returns the preferences of the Content-Signal records of t
// that speak for one crawler (see signals), combined.
func signalOf(t *parse.Table, runs []int) Usage {
	var c usage.Combiner
	for _, r := range signals(t, runs) {
		u := parseContentSignal(r.Value)
		if r.Theirs {
			u = refusals(u) // see parse.Table.Theirs
		}
		c.Add(u.members)
	}
	return Usage{c.Members()}
}

// signals returns the Content-Signal records of t that speak for one
// crawler, in file order: those before the first group and those of runs,
// the crawler's (see parse.Table.UsageRuns).
func signals(t *parse.Table, runs []int) []parse.Record {
	var out []parse.Record
	for _, r := range t.FileExtensions() {
		if r.Key == "content-signal" {
			out = append(out, r)
		}
	}
	return append(out, t.Signals(runs)...)
}
