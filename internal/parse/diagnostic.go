package parse

import "fmt"

// A Diagnostic reports a line that the parser skipped, tolerated or cut.
type Diagnostic struct {
	Line int    // 1-based line number
	Kind Kind   // what was noticed
	Text string // the key or value concerned, when there is one
}

// String formats the diagnostic as "line N: kind: text".
func (d Diagnostic) String() string {
	if d.Text == "" {
		return fmt.Sprintf("line %d: %s", d.Line, d.Kind)
	}
	return fmt.Sprintf("line %d: %s: %q", d.Line, d.Kind, d.Text)
}

// Kind is the reason of a Diagnostic.
type Kind uint8

// The kinds of Diagnostic, documented at parser.Kind.
const (
	NoKey Kind = iota + 1
	UnknownKey
	RuleOutsideGroup
	MissingColon
	MisspeltKey
	LineTooLong
	NULByte
	InvalidUTF8
	AgentCut
	EmptyAgent
	NoLeadingSlash
	BadValue
	TooManyDiagnostics
	UnknownRecordsDropped
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
