package parser

import (
	"iter"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/sfv"
	"github.com/robotsgate/robotstxt/internal/usage"
)

// Preferences reads a statement of preference about the use of content
// as the robotstxt package reads it, for a linter. key names its kind:
// "content-usage" for the statement of a [UsageRule] or a Content-Usage
// header field (IETF AIPREF: a Dictionary of RFC 9651, such as
// "train-ai=n, search=y"), "content-signal" for the value of a
// Content-Signal [Record] (Cloudflare's: "search=yes, ai-train=no").
//
// The iterator yields each label and its value. For Content-Usage, those
// are the members as written, in order, a repeated label each time (its
// last value counts), each value without its parameters ("" for a label
// written alone, `"n"` for a String). For Content-Signal, each label
// comes once, in the AIPREF vocabulary (ai-train is train-ai), yes and
// no written y and n, with the values of its pairs combined (any n, else
// any y), as the lines of a header field are; of a malformed pair, such as
// "/ ai-train=no" or "search=yes; ai-train=no", only the refusals are
// read, never a yes. Only the values y and n state a preference.
//
// The error says why the statement, or a part of it, states nothing: a
// Content-Usage statement that is not a Dictionary states nothing at all,
// and the iterator yields nothing; for Content-Signal, it names the first
// pair malformed (read for its refusals alone) or whose value is neither
// yes nor no, and how many more there are. Any other key yields nothing,
// with no error.
func Preferences(key, value string) (iter.Seq2[string, string], error) {
	switch {
	case ascii.EqualFold(key, "content-usage"):
		sc := sfv.Scan(value)
		for sc.Next() {
		}
		if err := sc.Err(); err != nil {
			return func(func(string, string) bool) {}, err
		}
		return func(yield func(label, value string) bool) {
			for sc := sfv.Scan(value); sc.Next(); {
				if m := sc.Member(); !yield(m.Key, m.Value) {
					return
				}
			}
		}, nil
	case ascii.EqualFold(key, "content-signal"):
		members, err := usage.ParseContentSignal(value)
		return usage.All(members), err
	}
	return func(func(string, string) bool) {}, nil
}
