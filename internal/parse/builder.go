package parse

import (
	"strconv"
	"strings"
	"sync"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/match"
)

// The bounds of one file, past which a diagnostic of kind
// [TooManyDiagnostics] or [UnknownRecordsDropped] counts the rest.
const (
	MaxDiagnostics    = 1000 // diagnostics reported
	MaxUnknownRecords = 1000 // extension records with an unknown key kept
)

// builder collects the records of a file into pooled scratch slices,
// which finish copies at their exact size: growing them costs no garbage.
type builder struct {
	*scratch
	p         Parser
	plain     bool   // no rule needs escaping (see scanner.plain)
	lint      bool   // collect diagnostics
	inRule    bool   // the current group has a rule, so a user-agent starts a new one
	ruled     bool   // a line other than a user-agent has ended the current run (see usageRun)
	runLo     uint32 // the first user-agent line of the current run
	full      bool   // the text reached maxText: the rest of the body is dropped
	usageFull bool   // usageText reached maxText: later Content-Usage rules are dropped
	unknown   int    // extension records with an unknown key
	dropped   int    // diagnostics past MaxDiagnostics
	// Where the diagnostics that count what was dropped are, or -1, and
	// how many of them there are.
	droppedAt, unknownAt, counters int
}

type scratch struct {
	text     []byte
	groups   []group
	agents   []agent
	rules    []rule
	records  []record
	sitemaps []record
	licenses []record
	diags    []Diagnostic
	usage    []usageRule
	runs     []usageRun
	signals  []signalRecord
	cut      []uint32 // the lines of Content-Usage rules and Content-Signal records cut short
	// usageText holds the text of usage apart, so that it never takes
	// room rules need (see builder.keep).
	usageText []byte
}

// scratchPool holds scratch slices between parses, cleared.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxPooled bounds the scratch pooled: one huge file must not pin it.
const maxPooled = 1 << 17

func newBuilder(p Parser, lint bool, size int) builder {
	s := scratchPool.Get().(*scratch)
	if cap(s.text) < size {
		s.text = make([]byte, 0, size) // a parse seldom keeps more than the body
	}
	return builder{scratch: s, p: p, lint: lint, droppedAt: -1, unknownAt: -1}
}

// release returns the scratch slices to the pool, cleared.
func (b *builder) release() {
	s := b.scratch
	b.scratch = nil
	if max(cap(s.agents), cap(s.rules), cap(s.groups), cap(s.records), cap(s.sitemaps), cap(s.licenses), cap(s.diags),
		cap(s.usage), cap(s.runs), cap(s.signals), cap(s.cut), cap(s.text)/64, cap(s.usageText)/64) > maxPooled {
		return
	}
	clear(s.diags)
	s.text, s.groups, s.agents, s.rules = s.text[:0], s.groups[:0], s.agents[:0], s.rules[:0]
	s.records, s.sitemaps, s.licenses, s.diags = s.records[:0], s.sitemaps[:0], s.licenses[:0], s.diags[:0]
	s.usage, s.runs, s.signals, s.cut, s.usageText = s.usage[:0], s.runs[:0], s.signals[:0], s.cut[:0], s.usageText[:0]
	scratchPool.Put(s)
}

// keep appends s to the text and returns its offset, or false when the
// text would grow past maxText: then the rest of the body is dropped, as
// if cut there, lest a later allow outlive its lost disallow.
func (b *builder) keep(s string) (uint32, bool) {
	if b.full || uint64(len(b.text)+len(s)) > maxText {
		b.full = true
		return 0, false
	}
	off := uint32(len(b.text))
	b.text = append(b.text, s...)
	return off, true
}

func (b *builder) line(l *Line) {
	if b.full {
		return
	}
	if b.lint && l.Flags&^(FlagEmpty|FlagComment|FlagCommentOnly) != 0 {
		b.flag(l) // tested here, as flag is too long to inline
	}
	if l.Key != KeyUserAgent && l.Key != KeyNone {
		b.ruled = true // see usageRun
	}
	switch l.Key {
	case KeyUserAgent:
		b.agent(l)
	case KeyAllow, KeyDisallow:
		if len(b.groups) == 0 {
			b.diag(l.Num, RuleOutsideGroup, l.Value)
			return
		}
		b.rule(l)
	case KeySitemap:
		b.sitemaps = b.fileRecord(b.sitemaps, sitemapKey, l)
	case KeyLicense:
		b.licenses = b.fileRecord(b.licenses, licenseKey, l)
	case KeyOther:
		b.extension(l)
	case KeyContentUsage:
		b.usageRule(l)
	}
}

// flag turns the scanner's line flags into diagnostics.
func (b *builder) flag(l *Line) {
	for _, f := range [...]struct {
		flag LineFlags
		kind Kind
		text string
	}{
		{FlagNoKey, NoKey, ""},
		{FlagMissingColon, MissingColon, l.RawKey}, // never with FlagNoKey
		{FlagTypo, MisspeltKey, l.RawKey},
		{FlagTooLong, LineTooLong, ""},
		{FlagNUL, NULByte, ""},
		{FlagInvalidUTF8, InvalidUTF8, ""},
	} {
		if l.Flags&f.flag != 0 {
			b.diag(l.Num, f.kind, f.text)
		}
	}
}

func (b *builder) agent(l *Line) {
	if len(b.groups) == 0 || b.inRule {
		b.groups = append(b.groups, group{uint32(len(b.agents)), uint32(len(b.rules)), uint32(len(b.records))})
		b.inRule = false
	}
	if b.ruled {
		b.runLo, b.ruled = uint32(len(b.agents)), false
	}
	v := l.Value
	off, ok := b.keep(v)
	if !ok {
		return
	}
	a := agent{off: off, n: uint16(len(v)), line: uint32(l.Num)}
	if v != "" && v[0] == '*' && (len(v) == 1 || isSpace(v[1])) {
		a.global = true
	} else {
		a.tok = uint16(len(AgentToken(v)))
		switch {
		case a.tok == 0:
			b.diag(l.Num, EmptyAgent, v)
		case int(a.tok) < len(v):
			b.diag(l.Num, AgentCut, v)
		}
	}
	b.agents = append(b.agents, a)
}

func (b *builder) rule(l *Line) {
	b.inRule = true
	p := b.pattern(l.Value)
	if p != "" && p[0] != '/' && p[0] != '*' {
		b.diag(l.Num, NoLeadingSlash, p)
	}
	off, ok := b.keep(p)
	if !ok {
		return
	}
	b.rules = append(b.rules, newRule(p, off, l.Num, l.Key == KeyAllow))
}

// fileRecord appends the record of l, with the known key numbered key.
func (b *builder) fileRecord(records []record, key int, l *Line) []record {
	if off, ok := b.keep(l.Value); ok {
		records = append(records, record{off: off, key: uint32(key), n: uint16(len(l.Value)), line: uint32(l.Num)})
	}
	return records
}

// pattern returns the rule value p normalised.
func (b *builder) pattern(p string) string {
	if !b.plain {
		p = match.Escape(p)
	}
	if b.p.RFC9309 {
		p = match.UnescapePattern(p)
	}
	return p
}

func (b *builder) extension(l *Line) {
	id, known := extensionKey(l.RawKey)
	if id == contentSignalKey && l.Flags&(FlagTooLong|FlagNUL) != 0 {
		l.Value = refusals(l.Value, true)
		b.cut = append(b.cut, uint32(l.Num))
	}
	r := record{line: uint32(l.Num), n: uint16(len(l.Value))}
	if known {
		r.key = uint32(id)
		if id == crawlDelayKey {
			if _, err := CrawlDelay(l.Value); err != nil {
				b.diag(l.Num, BadValue, l.Value)
			}
		}
	} else {
		b.unknown++
		if b.lint {
			b.diag(l.Num, UnknownKey, ascii.LowerString(l.RawKey)) // as the record's key is lowered
		}
		if b.unknown > MaxUnknownRecords {
			if b.lint && b.unknownAt < 0 {
				b.unknownAt, b.counters = len(b.diags), b.counters+1
				b.diags = append(b.diags, Diagnostic{Line: l.Num, Kind: UnknownRecordsDropped})
			}
			return
		}
		off, ok := b.keep(l.RawKey)
		if !ok {
			return
		}
		key := b.text[off:]
		for i, c := range key {
			key[i] = ascii.Lower(c)
		}
		r.key, r.keyN = off, uint16(len(l.RawKey))
	}
	off, ok := b.keep(l.Value)
	if !ok {
		return
	}
	r.off = off
	if id == contentSignalKey && known && len(b.groups) > 0 {
		b.signals = append(b.signals, signalRecord{record: uint32(len(b.records)), run: b.run()})
	}
	b.records = append(b.records, r)
}

// diag records a diagnostic, up to MaxDiagnostics, and counts the rest.
func (b *builder) diag(line int, k Kind, text string) {
	if !b.lint {
		return
	}
	if len(b.diags)-b.counters >= MaxDiagnostics {
		if b.dropped == 0 {
			b.droppedAt, b.counters = len(b.diags), b.counters+1
			b.diags = append(b.diags, Diagnostic{Line: line, Kind: TooManyDiagnostics})
		}
		b.dropped++
		return
	}
	b.diags = append(b.diags, Diagnostic{Line: line, Kind: k, Text: strings.Clone(text)})
}

// finish returns the Table, and the diagnostics if b.lint.
func (b *builder) finish(lines int) (*Table, []Diagnostic) {
	var usage *usageRules
	if len(b.runs)+len(b.cut) > 0 {
		usage = &usageRules{text: string(b.usageText), rules: clone(b.usage), runs: clone(b.runs), signals: clone(b.signals), cut: clone(b.cut)}
	}
	both := &struct { // one allocation
		t Table
		f fileParts
	}{
		t: Table{text: string(b.text), rules: clone(b.rules), more: newMore(clone(b.records), usage)},
		f: fileParts{
			groups:   clone(b.groups),
			agents:   clone(b.agents),
			sitemaps: clone(b.sitemaps),
			licenses: clone(b.licenses),
			lines:    lines,
		},
	}
	t := &both.t
	t.file = &both.f
	if !b.lint {
		return t, nil
	}
	if b.droppedAt >= 0 {
		b.diags[b.droppedAt].Text = strconv.Itoa(b.dropped)
	}
	if b.unknownAt >= 0 {
		b.diags[b.unknownAt].Text = strconv.Itoa(b.unknown - MaxUnknownRecords)
	}
	return t, clone(b.diags)
}

// clone copies s into a new slice of its exact length; nil when empty.
func clone[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}
