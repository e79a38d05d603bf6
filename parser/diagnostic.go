package parser

import "github.com/robotsgate/robotstxt/internal/parse"

// A Diagnostic reports a line that the parser skipped, tolerated or cut.
type Diagnostic struct {
	Line int    // 1-based line number
	Kind Kind   // what was noticed
	Text string // the key or value concerned, when there is one
}

// Kind is what a [Diagnostic] reports. Its String, stable across
// releases, is given beside each kind below.
type Kind uint8

// The kinds of Diagnostic. Skipped lines have no effect on the rules;
// tolerated lines are read as their author most likely meant them; cut
// lines are read up to the cut.
const (
	// NoKey, "not a key-value line": skipped, text that is neither
	// "key: value" nor "key value".
	NoKey Kind = iota + 1
	// UnknownKey, "unknown key": a key no crawler is known to read, kept
	// as an extension record (the first 1,000 such records are kept; see
	// [UnknownRecordsDropped]). Text is the key, its ASCII letters in
	// lower case, as the record's Key.
	UnknownKey
	// RuleOutsideGroup, "rule outside any group": skipped, an allow,
	// disallow or Content-Usage line before any user-agent line.
	RuleOutsideGroup
	// MissingColon, "missing colon accepted": tolerated, "key value"
	// without ':'.
	MissingColon
	// MisspeltKey, "misspelt key accepted": tolerated, a misspelling
	// Google's parser accepts, such as "dissallow".
	MisspeltKey
	// LineTooLong, "line truncated": cut at MaxLineLength bytes, and more
	// than white space and a comment cut off.
	LineTooLong
	// NULByte, "NUL byte ends line": cut at a NUL byte, and more than
	// white space and a comment cut off.
	NULByte
	// InvalidUTF8, "invalid UTF-8": tolerated, the line is not valid
	// UTF-8.
	InvalidUTF8
	// AgentCut, "user-agent cut to product token": tolerated, a
	// user-agent value read as its product token ([UserAgent.Token]).
	AgentCut
	// EmptyAgent, "user-agent names no crawler": a user-agent value with
	// no product token.
	EmptyAgent
	// NoLeadingSlash, "pattern does not start with / or *": a rule that
	// can match no path.
	NoLeadingSlash
	// BadValue, "value does not parse": an extension value that cannot
	// be used, such as "crawl-delay: soon" (see [CrawlDelay]).
	BadValue
	// TooManyDiagnostics, "further diagnostics not reported": after
	// 1,000 diagnostics, from this line on; Text counts them. Only an
	// [UnknownRecordsDropped] may follow it.
	TooManyDiagnostics
	// UnknownRecordsDropped, "further unknown records not kept": after
	// 1,000 records with an unknown key, from this line on; Text counts
	// them. Records with a known key, such as crawl-delay, are all kept.
	UnknownRecordsDropped
)

// The bounds documented here are internal/parse's: these do not compile
// if they differ.
var (
	_ = [1]struct{}{}[MaxLineLength-parse.MaxLineLength]
	_ = [1]struct{}{}[1000-parse.MaxDiagnostics]
	_ = [1]struct{}{}[1000-parse.MaxUnknownRecords]
)

// String describes the kind in a few words, as listed with the kinds;
// "Kind(N)" for a number that is none of them.
func (k Kind) String() string { return parse.Kind(k).String() }

// String formats the diagnostic as "line N: kind: text", with Text
// quoted, or "line N: kind" when it has none.
func (d Diagnostic) String() string {
	return parse.Diagnostic{Line: d.Line, Kind: parse.Kind(d.Kind), Text: d.Text}.String()
}

func fromDiagnostic(d parse.Diagnostic) Diagnostic {
	return Diagnostic{Line: d.Line, Kind: Kind(d.Kind), Text: d.Text}
}
