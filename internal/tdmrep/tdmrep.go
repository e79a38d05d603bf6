// Package tdmrep reads the TDM Reservation Protocol (TDMRep, the W3C
// community group's final report of 10 May 2024): the values of its
// tdm-reservation property, and the site-wide /.well-known/tdmrep.json
// file. It does no I/O.
package tdmrep

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/robotsgate/robotstxt/internal/match"
	"github.com/robotsgate/robotstxt/internal/quote"
)

// Reservation reads a tdm-reservation value, from a header field or a
// META tag's content: "1" (TDM rights reserved) or "0" (not), blanks
// around it ignored (HTML's, which include a header's). Any other value
// is a protocol error: ok is false, and the report reads it as if the
// property were absent.
func Reservation(v string) (reserved, ok bool) {
	switch strings.Trim(v, " \t\n\f\r") {
	case "1":
		return true, true
	case "0":
		return false, true
	}
	return false, false
}

// The bounds of a tdmrep.json: a real one holds a few rules in a few
// hundred bytes, while a hostile one within them, of wildcard locations
// matched across a URL of 8 KiB, costs a receipt some 20 ms and 1.3 MB
// (parsed anew at each, some 4 ms and 1 MB of that). A file past them is
// an error, never read in part: a rule dropped could be the one that
// reserves a URL.
const (
	MaxSize  = 256 << 10 // bytes of the file
	MaxRules = 1024      // entries of its array
)

// ErrTooLarge is wrapped by the error [Parse] returns for a file past
// [MaxSize] bytes or [MaxRules] entries.
var ErrTooLarge = errors.New("tdmrep.json too large")

// A Rule is one entry of a tdmrep.json: the paths it covers and what it
// says of them.
type Rule struct {
	// Location is the pattern as written.
	Location string
	// Reserved reports tdm-reservation 1: TDM rights are reserved.
	Reserved bool
	// Policy is the tdm-policy URL as written, or "" when the entry has
	// none.
	Policy string

	pattern string // Location normalised as a robots.txt pattern is (see Match)
}

// A File is a parsed tdmrep.json: its rules, in file order. It is
// immutable and safe for concurrent use.
type File struct{ rules []Rule }

// Parse reads a tdmrep.json: a JSON array (a UTF-8 byte-order mark before
// it is skipped) of objects, each with a string "location", a
// "tdm-reservation" of 0 or 1 (a number, or those digits as a string),
// and an optional string "tdm-policy" (null is no policy); other members
// are ignored, and names are matched without regard to case, as
// encoding/json does; a name given twice with two values is an error. A file that does not read so is an error, as is
// one too large ([ErrTooLarge]): a TDM agent cannot tell what it
// reserves. Parse takes time linear in len(b).
func Parse(b []byte) (*File, error) {
	if len(b) > MaxSize {
		return nil, fmt.Errorf("tdmrep: %w: %d bytes, more than %d", ErrTooLarge, len(b), MaxSize)
	}
	b = bytes.TrimPrefix(b, []byte("\uFEFF"))
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, errors.New("tdmrep: not a JSON array")
	}
	f := &File{}
	for dec.More() {
		if len(f.rules) == MaxRules {
			return nil, fmt.Errorf("tdmrep: %w: more than %d entries", ErrTooLarge, MaxRules)
		}
		r, err := readRule(dec)
		if err != nil {
			return nil, fmt.Errorf("tdmrep: entry %d: %w", len(f.rules)+1, err)
		}
		f.rules = append(f.rules, r)
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return nil, fmt.Errorf("tdmrep: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("tdmrep: data after the array")
	}
	return f, nil
}

// readRule decodes the next entry of dec: an object (null reads as one
// without members).
func readRule(dec *json.Decoder) (Rule, error) {
	var r Rule
	members, err := readMembers(dec)
	if err != nil {
		return r, err
	}
	if loc := members["location"]; len(loc) == 0 || loc[0] != '"' || json.Unmarshal(loc, &r.Location) != nil {
		return r, errors.New(`"location" is not a string`)
	}
	switch string(members["tdm-reservation"]) {
	case "1", `"1"`:
		r.Reserved = true
	case "0", `"0"`:
	default:
		return r, errors.New(`"tdm-reservation" is not 0 or 1`)
	}
	if p := members["tdm-policy"]; len(p) > 0 && string(p) != "null" && (p[0] != '"' || json.Unmarshal(p, &r.Policy) != nil) {
		return r, errors.New(`"tdm-policy" is not a string`)
	}
	r.pattern = match.UnescapePattern(match.Escape(r.Location))
	return r, nil
}

// names are the members of an entry TDMRep defines.
var names = [...]string{"location", "tdm-reservation", "tdm-policy"}

// readMembers decodes the next value of dec, an object or null, and
// returns its members that names holds, each by that name however its
// letters are cased, as encoding/json matches them. A name given twice
// with two values is an error: readers that take the first, the last or
// only the name so cased would each read the entry otherwise.
func readMembers(dec *json.Decoder) (map[string]json.RawMessage, error) {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	members := map[string]json.RawMessage{}
	if string(raw) == "null" {
		return members, nil
	}
	if raw[0] != '{' {
		return nil, errors.New("not an object")
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	_, _ = d.Token() // '{', as raw was decoded
	for d.More() {
		tok, _ := d.Token()
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, err
		}
		for _, name := range names {
			if !strings.EqualFold(tok.(string), name) {
				continue
			}
			if prev, ok := members[name]; ok && !bytes.Equal(prev, v) {
				return nil, fmt.Errorf("%q given twice, %s and %s", name, quote.Cut(string(prev), 64), quote.Cut(string(v), 64))
			}
			members[name] = v
		}
	}
	return members, nil
}

// Len returns the number of rules.
func (f *File) Len() int { return len(f.rules) }

// Match returns the rule that decides for path, the path and query of a
// URL as sent (see match.Path), and its index: the first rule whose
// location matches, as TDMRep asks; ok is false when none does.
// Locations match as robots.txt patterns do (see match.Match), after both
// sides are normalised as RFC 9309 reads them (see match.Escape,
// match.UnescapePattern and match.UnescapePath), each in linear time.
func (f *File) Match(path string) (i int, r Rule, ok bool) {
	path = match.UnescapePath(match.Escape(path))
	for i := range f.rules {
		if match.Match(f.rules[i].pattern, path) {
			return i, f.rules[i], true
		}
	}
	return 0, Rule{}, false
}
