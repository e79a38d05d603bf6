package parse

import "fmt"

// A Diagnostic reports a line that the parser skipped, tolerated or cut,
// for linting and debugging.
type Diagnostic struct {
	Line int    // 1-based line number
	Kind Kind   // what was noticed
	Text string // the key or value concerned, when there is one
}

// String formats the diagnostic as "line N: reason: text".
func (d Diagnostic) String() string {
	if d.Text == "" {
		return fmt.Sprintf("line %d: %s", d.Line, d.Kind)
	}
	return fmt.Sprintf("line %d: %s: %q", d.Line, d.Kind, d.Text)
}

// Kind is the reason of a Diagnostic.
type Kind uint8

// The kinds of Diagnostic. Skipped lines have no effect on the rules;
// tolerated lines are read as their author most likely meant them.
const (
	NoKey                 Kind = iota + 1 // skipped: text that is not a key-value pair
	UnknownKey                            // kept as an extension record: a key no crawler is known to read
	RuleOutsideGroup                      // skipped: allow or disallow before any user-agent line
	MissingColon                          // tolerated: "key value" without ':'
	MisspeltKey                           // tolerated: a misspelling such as "dissallow"
	LineTooLong                           // cut: the line is longer than MaxLineLength bytes
	NULByte                               // cut: the line holds a NUL byte and ends there
	InvalidUTF8                           // tolerated: the line is not valid UTF-8
	AgentCut                              // tolerated: a user-agent value cut to its product token
	EmptyAgent                            // a user-agent value with no product token: it names no crawler
	NoLeadingSlash                        // a rule pattern that starts with neither '/' nor '*': it can match no path
	BadValue                              // an extension value that does not parse, such as crawl-delay: soon
	TooManyDiagnostics                    // more than MaxDiagnostics: Text counts those not reported, from this line on
	UnknownRecordsDropped                 // more than MaxUnknownRecords unknown keys: Text counts the records not kept, from this line on
)

var kindNames = [...]string{
	NoKey:                 "not a key-value line",
	UnknownKey:            "unknown key",
	RuleOutsideGroup:      "rule outside any group",
	MissingColon:          "missing colon accepted",
	MisspeltKey:           "misspelt key accepted",
	LineTooLong:           "line truncated",
	NULByte:               "NUL byte ends line",
	InvalidUTF8:           "invalid UTF-8",
	AgentCut:              "user-agent cut to product token",
	EmptyAgent:            "user-agent names no crawler",
	NoLeadingSlash:        "pattern does not start with / or *",
	BadValue:              "value does not parse",
	TooManyDiagnostics:    "further diagnostics not reported",
	UnknownRecordsDropped: "further unknown records not kept",
}

// String describes the kind in a few words.
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}
