package main

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

// diagnostics turns each of the parser's diagnostics into a finding,
// with the code of its kind. Past the 1,000 the parser gives, it reads
// the lines again for their errors alone (see tailErrors), so that no
// lesser finding hides one.
func (lt *linter) diagnostics() {
	for i, dg := range lt.file.Diagnostics {
		switch dg.Kind {
		case parser.TooManyDiagnostics:
			lt.add(dg.Line, codeTooMany, "over %d lines the parser skipped, tolerated or cut: of %s more from this line on, only the errors are reported", i, dg.Text)
			lt.tailErrors(dg.Line)
		case parser.UnknownRecordsDropped:
			lt.add(dg.Line, codeUnknownDropped, "more records with unknown keys than the parser keeps: %s more from this line on are dropped (no major crawler reads them)", dg.Text)
		default:
			lt.diagnostic(dg)
		}
	}
}

// tailChunk is how many lines tailErrors parses at a time: a line gives
// at most eight diagnostics, so that a chunk's stay within the 1,000.
const tailChunk = 100

// tailErrors reports the errors among the diagnostics of the lines from
// line n on, which the parser counted but did not give: it parses them
// again, tailChunk lines at a time, each chunk after a user-agent line
// when one came before it, so that a rule stands in a group as it did.
// Of line n, the parser may have given some: they are not given twice.
func (lt *linter) tailErrors(n int) {
	lt.errorsOnly = true
	given, from := map[code]bool{}, len(lt.findings)
	for _, f := range lt.findings {
		if f.Line == n {
			given[f.Code] = true
		}
	}
	defer func() {
		lt.errorsOnly = false
		tail := slices.DeleteFunc(lt.findings[from:], func(f finding) bool { return f.Line == n && given[f.Code] })
		lt.findings = lt.findings[:from+len(tail)]
	}()
	for from := n; from <= lt.lines.len(); from += tailChunk {
		// A line goes first, so that no line of the chunk is read as the
		// file's first, whose byte order mark the parser drops.
		first := "#"
		if len(lt.file.Groups) > 0 && lt.file.Groups[0].Agents[0].Line < from {
			first = "User-agent: *"
		}
		chunk := append([]string{first}, lt.lines.lines[from-1:min(from-1+tailChunk, lt.lines.len())]...)
		shift := from - 2
		for _, dg := range parser.Parse([]byte(strings.Join(chunk, "\n"))).Diagnostics {
			dg.Line += shift
			lt.diagnostic(dg)
		}
	}
}

// lostKey returns the directive a line the parser skipped was meant to
// be (its key past reading, or no "key: value" after it): a
// user-agent's, a rule's; else "".
func (lt *linter) lostKey(dg parser.Diagnostic) string {
	switch dg.Kind {
	case parser.NoKey:
		return directiveWord(lt.lines.text(dg.Line))
	case parser.UnknownKey:
		if k := nearKey(dg.Text); k == "user-agent" || k == "allow" || k == "disallow" {
			return k
		}
	}
	return ""
}

// diagnostic turns one of the parser's diagnostics into a finding, but
// for those that count others it left out.
func (lt *linter) diagnostic(dg parser.Diagnostic) {
	switch dg.Kind {
	case parser.NoKey:
		if k := lt.lostKey(dg); k != "" {
			lt.add(dg.Line, codeDirectiveLost, "looks like a %s line but is not \"key: value\": crawlers skip it", k)
		} else {
			lt.add(dg.Line, codeNotDirective, "not a robots.txt line: skipped")
		}
	case parser.UnknownKey:
		switch want := nearKey(dg.Text); want {
		case "":
			lt.add(dg.Line, codeUnknownKey, "key %q is not read by major crawlers", dg.Text)
		case "user-agent":
			lt.add(dg.Line, codeDirectiveLost, "unknown key %q, perhaps user-agent: crawlers skip the line, and the rules below it stay in the group above, or in none", dg.Text)
		case "allow", "disallow":
			lt.add(dg.Line, codeDirectiveLost, "unknown key %q, perhaps %s: crawlers skip the rule", dg.Text, want)
		default:
			lt.add(dg.Line, codeKeyTypo, "unknown key %q, perhaps %s: crawlers ignore the line", dg.Text, want)
		}
	case parser.RuleOutsideGroup:
		lt.add(dg.Line, codeOutsideGroup, "rule before any user-agent line: no crawler obeys it")
	case parser.MissingColon:
		if !lt.found(dg.Line, codeKeyIntoValue) { // which says what crawlers read
			lt.add(dg.Line, codeMissingColon, "no colon after the key; read as if there were one")
		}
	case parser.MisspeltKey:
		lt.add(dg.Line, codeMisspeltKey, "misspelt key %q; read as meant, as Google does", dg.Text)
	case parser.LineTooLong:
		lt.add(dg.Line, codeLineTooLong, "line over %d bytes: the rest is dropped%s", parser.MaxLineLength, lt.cutReading(dg.Line))
	case parser.NULByte:
		if !lt.limitCut(dg.Line) {
			lt.add(dg.Line, codeNUL, "a NUL byte ends the line: the rest of it is dropped%s", lt.cutReading(dg.Line))
		}
	case parser.InvalidUTF8:
		lt.add(dg.Line, codeInvalidUTF8, "the line is not valid UTF-8")
	case parser.AgentCut:
		if lt.agents == nil {
			lt.agents = agentsByLine(lt.file)
		}
		if a, ok := lt.agents[dg.Line]; ok { // as the whole file reads the line
			lt.agentCut(a)
		}
	case parser.EmptyAgent:
		whom := "its group applies to no crawler"
		if lt.groupNamesOthers(dg.Line) {
			whom = "the line names no crawler"
		}
		lt.add(dg.Line, codeAgentNoToken, "user-agent %q has no product token (letters, - and _): %s", dg.Text, whom)
	case parser.NoLeadingSlash:
		lt.add(dg.Line, codeNoSlash, "pattern %q starts with neither / nor *: it matches no URL", dg.Text)
	case parser.BadValue:
		lt.add(dg.Line, codeBadValue, "value %q does not parse: crawlers that read the key skip it", dg.Text)
	}
}

// limitCut reports whether line n is the one the body limit cut, ended
// with the NULs parser.Read gives a statement cut there, which are not
// the file's (overLimit reports the cut).
func (lt *linter) limitCut(n int) bool {
	return lt.doc != nil && lt.doc.body.Truncated && n == lt.lines.read() && strings.HasSuffix(lt.lines.lines[n-1], "\x00\x00")
}

// cutReading says how the parser reads line n, which it cut, when that
// is a Content-Usage rule or Content-Signal record crawlers read: as its
// refusals and one of training, since what was cut may have been one
// (see parser.UsageRule.Cut); "" for another line.
func (lt *linter) cutReading(n int) string {
	if lt.cut == nil {
		lt.cut = make(map[int]string)
		signals := func(rs []parser.Record) {
			for _, r := range rs {
				if r.Cut {
					lt.cut[r.Line] = ", and the record reads as its refusals (key=no) and ai-train=no: what was cut may have been a refusal"
				}
			}
		}
		signals(lt.file.Extensions)
		for _, g := range lt.file.Groups {
			for _, r := range g.Usage {
				if r.Cut {
					lt.cut[r.Line] = ", and its statement reads as its refusals (label=n) and train-ai=n: what was cut may have been a refusal"
				}
			}
			signals(g.Extensions)
		}
	}
	return lt.cut[n]
}

// keyIntoValue reports a rule or user-agent line whose key ran into its
// value: the parser split "Disallow http://a.test/x" at the URL's colon,
// the key holding a blank, or "Disallow=/a /b" and "User-agent=a b",
// which have no colon, at the blank, the key holding a mark standing for
// a colon and more; crawlers read the key by its start (Google's keys
// are prefixes), with another pattern or crawler than the one written.
// The misspelling "user agent" is not one, nor a key of another mark
// ("Disallow2: /x", "Disallow; /x"), whose value crawlers read as
// written.
func (lt *linter) keyIntoValue() {
	report := func(n int, read string) {
		l := lt.lines.parsed(n)
		words := strings.Fields(l.Key)
		ranIn := len(words) > 1 && !strings.EqualFold(strings.Join(words, " "), "user agent")
		if i := strings.IndexAny(l.Key, colonMarks); !l.Colon && i > 0 {
			_, size := utf8.DecodeRuneInString(l.Key[i:])
			ranIn = ranIn || i+size < len(l.Key)
		}
		if ranIn {
			lt.add(n, codeKeyIntoValue, "the key %q runs into its value: crawlers read %s", l.Key, read)
		}
	}
	for _, g := range lt.file.Groups {
		for _, a := range g.Agents {
			report(a.Line, "User-agent: "+a.Value)
		}
		for _, r := range g.Rules {
			report(r.Line, kindWord(r.Allow)+": "+r.Pattern)
		}
	}
}

// twoPaths reports a rule whose pattern holds a blank before a / or a *,
// such as Disallow: /private /admin: crawlers read one pattern, the blank
// in it matching only a URL's %20, and so neither path.
func (lt *linter) twoPaths() {
	for _, g := range lt.file.Groups {
		for _, r := range g.Rules {
			v := lt.lines.value(r.Line)
			if k, _ := ranInRecord(v); k != "" {
				lt.add(r.Line, codeDirectiveLost, "the pattern holds the next line (%s: …), its line end lost: crawlers read one pattern, %q, and no %s line; give it a line of its own", k, v, k)
				continue
			}
			words := strings.Fields(v) // as written: a %20 may be meant
			if len(words) > 1 && slices.ContainsFunc(words[1:], func(w string) bool { return w[0] == '/' || w[0] == '*' }) {
				lt.add(r.Line, codeTwoPaths, "one pattern with a blank, which matches only URLs holding %%20 there: not %s; give each path a line of its own",
					andList(words))
			}
		}
	}
}

// starAgents reports a * user-agent followed by a name (User-agent: *
// CCBot, * Google-Extended), which crawlers read as * alone.
func (lt *linter) starAgents() {
	for _, g := range lt.file.Groups {
		for _, a := range g.Agents {
			if a.Global && a.Value != "*" {
				lt.agentCut(a)
			}
		}
	}
}

// agentCut reports a user-agent value that the parser cut to its product
// token: an error when the token stops inside a word (MJ12bot is MJ,
// Mail.RU_Bot is Mail) or a second crawler follows it (GPTBot, CCBot,
// GPTBot ChatGPT-User and * CCBot read as their first), a warning when a
// crawler's name follows a plain word (OpenAI GPTBot; but Flaming
// AttackBot is one crawler), information when the rest is a version, a
// comment, a mark that ends the value or the rest of one crawler's name
// (Googlebot/2.1 and Googlebot. are Googlebot; the bad-bot lists name
// Offline Explorer, whose own User-Agent is cut to Offline too).
func (lt *linter) agentCut(a parser.UserAgent) {
	token := a.Token
	if a.Global {
		token = "*"
	}
	rest := a.Value[len(token):]
	if k, at := ranInRecord(rest); k != "" {
		lt.add(a.Line, codeDirectiveLost, "user-agent %q holds the next line (%s: …), its line end lost: crawlers read it all as the user-agent %s, and no %s line; give it a line of its own",
			a.Value, k, token, k)
		if rest = rest[:at]; strings.TrimSpace(rest) == "" {
			return
		}
	}
	if strings.EqualFold(token, "mozilla") && lt.headerChecks < maxHeaderChecks {
		// A crawler's whole User-Agent header: the token a Client
		// sending it goes by.
		if named, ok := productToken(a.Value); ok && !strings.EqualFold(named, token) && !lt.readsAsNamed(named, a.Line) {
			lt.add(a.Line, codeAgentCut, "user-agent %q is a User-Agent header, read as %s, a browser's name no crawler goes by: %s gets no group; give its token alone (User-agent: %s)",
				a.Value, token, named, named)
			return
		}
	}
	if t := strings.TrimLeftFunc(rest, invisible); t != rest {
		rest = " " + t // a no-break space copied from a page is the blank it stands for
	}
	second, listed := secondAgent(rest)
	for after := rest; second != "" && lt.groupNames(a.Line, second); {
		// Named on a line of the group's own: the next name may not be.
		after = after[strings.Index(after, second)+len(second):] // as written: secondAgent's is a part of after
		var more bool
		second, more = secondAgent(after)
		listed = listed || more
	}
	if strings.EqualFold(second, token) || genericName(second) || !listed && !a.Global && second != "*" && !crawlerName(token) && !crawlerName(second) {
		second = "" // a name of two words (Offline Explorer, Echobot Bot), * robots, or Googlebot googlebot
	}
	if a.Global {
		// * CCBot: CCBot, named in no other group, obeys this one as *,
		// as it would named; so each name after *.
		second, listed = lt.namedElsewhere(rest, a.Line), true
	}
	switch {
	case second != "" && a.Global:
		lt.add(a.Line, codeTwoAgents, "user-agent %q is read as * alone: %s obeys the group that names it, not this one; give it a user-agent line of its own here",
			a.Value, second)
	case second != "" && (listed || second == "*" || crawlerName(token)):
		lt.add(a.Line, codeTwoAgents, "user-agent %q is read as %s alone: %s gets no group; give each crawler a user-agent line of its own",
			a.Value, token, second)
	case second != "" && crawlerName(second):
		lt.add(a.Line, codeTwoWords, "user-agent %q is read as %s alone: if %s is another crawler, it gets no group", a.Value, token, second)
	case a.Global: // what follows * names no crawler
	case strings.ContainsRune(" \t/(;,|+*", rune(rest[0])), !strings.ContainsFunc(rest, isWordRune):
		// A version, a comment, or marks and spaces that continue no
		// name (Googlebot., Googlebot..., a no-break space after it,
		// or before a version).
		lt.add(a.Line, codeAgentToken, "user-agent %q is read as %s", a.Value, a.Token)
	default:
		lt.add(a.Line, codeAgentCut, "user-agent %q is read as %s, which names another crawler: a token has only letters, - and _", a.Value, a.Token)
	}
}

// isWordRune reports whether r may continue a crawler's name: a letter
// or a digit of any script.
func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// invisible reports whether r is white space past ASCII (a no-break
// space) or a format character (a zero-width space), which a value
// copied from a page may hold.
func invisible(r rune) bool {
	return r >= utf8.RuneSelf && (unicode.IsSpace(r) || unicode.Is(unicode.Cf, r))
}

// namedElsewhere returns the first word of rest, what follows * on the
// user-agent line at line, in whatever list, version or punctuation,
// that is the token of a group other than that line's, and not of that
// one: that crawler obeys its own group, not this one, which the line
// says it does; else "".
func (lt *linter) namedElsewhere(rest string, line int) string {
	if lt.groupsOf == nil {
		lt.groupsOf, lt.groupAt = map[string][]int{}, map[int]int{}
		for i, g := range lt.file.Groups {
			for _, a := range g.Agents {
				lt.groupAt[a.Line] = i
				if t := strings.ToLower(a.Token); !a.Global && !slices.Contains(lt.groupsOf[t], i) {
					lt.groupsOf[t] = append(lt.groupsOf[t], i)
				}
			}
		}
	}
	own := lt.groupAt[line]
	// Not past a mark or word that excepts ("* !Googlebot", "* (except
	// Googlebot)"): the line means every crawler but those.
	if i := strings.IndexAny(rest, "!([{"); i >= 0 {
		rest = rest[:i]
	}
	for _, name := range strings.FieldsFunc(rest, func(r rune) bool { return !isTokenRune(r) }) {
		w := strings.ToLower(name)
		if w == "except" || w == "not" || w == "but" || w == "excluding" {
			break
		}
		if gs := lt.groupsOf[w]; len(gs) > 0 && !slices.Contains(gs, own) {
			return name
		}
	}
	return ""
}

// isTokenRune reports whether r may be part of a product token: a
// letter, '-' or '_' (see parser.UserAgent), or a digit, which a name
// may hold past its token (MJ12bot).
func isTokenRune(r rune) bool {
	return 'a' <= r|0x20 && r|0x20 <= 'z' || '0' <= r && r <= '9' || r == '-' || r == '_'
}

// secondAgent returns the name that rest, what follows a user-agent's
// product token, holds after a blank, ',', ';' or '|' (CCBot of
// " CCBot/1.0", * of " *"), or "": a version, a comment or a URL
// (" 2.1", " v2", " (compatible)", " +http://…", " http://…") names
// none. listed says it follows ',', ';', '|' or a word that joins two
// names (and, or, and/or, &), which is passed over: a list of crawlers.
// After the token's own version, a name after ',' or '|' ("/1.0,
// Google-Extended"), or a crawler's after a blank, ';' or a joining word
// ("/1.0 CCBot/1.0"), is a second crawler, not a host's: "BSpider/1.0
// libwww-perl/0.40", "facebookexternalhit/1.1;line-poker/1.0" are one's
// User-Agent. An address (spider-feedback@bytedance.com) names none.
func secondAgent(rest string) (name string, listed bool) {
	versioned := strings.HasPrefix(rest, "/")
	if versioned {
		rest = rest[min(len(rest), strings.IndexAny(rest+" ", " \t,;|(")):] // not into a comment: "/5.0(compatible; …)"
	}
	w := strings.TrimLeft(rest, " \t,;|")
	if len(w) == len(rest) || w == "" {
		return "", false
	}
	sep := rest[:len(rest)-len(w)]
	listed = strings.ContainsAny(sep, ",;|")
	for _, join := range []string{"and/or", "and", "or", "&"} {
		if len(w) >= len(join) && strings.EqualFold(w[:len(join)], join) && (len(w) == len(join) || strings.ContainsRune(" \t,;", rune(w[len(join)]))) {
			name, _ := secondAgent(w[len(join):])
			if versioned && !crawlerAfterVersion(name, false) { // "Googlebot/2.1 and above"
				return "", false
			}
			return name, true
		}
	}
	if w[0] == '*' && (!versioned || strings.ContainsAny(sep, ",|")) {
		return "*", listed
	}
	if i := strings.IndexAny(w, " \t,;|/("); i >= 0 {
		w = w[:i] // the product, without its version
	}
	switch {
	case w == "", !('a' <= w[0]|0x20 && w[0]|0x20 <= 'z'), strings.Contains(w, ":"): // a comment, a dash, a URL
		return "", false
	case strings.Trim(w[1:], "0123456789.") == "": // a version: v2, r1.5
		return "", false
	case strings.Contains(w, "@"), versioned && !crawlerAfterVersion(w, strings.ContainsAny(sep, ",|")):
		return "", false
	case strings.EqualFold(w, "compatible"): // of a browser's string: Googlebot; compatible
		return "", false
	}
	return w, listed
}

// crawlerAfterVersion reports whether w, after a crawler's version in a
// user-agent, names a second crawler: not a host or an address, and in
// a list (listed), or a crawler's name.
func crawlerAfterVersion(w string, listed bool) bool {
	return !strings.ContainsAny(w, ".@") && (listed || crawlerName(w))
}

// crawlerName reports whether w reads as a crawler's name by itself: a
// word holding bot, spider or crawler and more (CCBot, Baiduspider), not
// such a word alone (see genericName).
func crawlerName(w string) bool {
	l := strings.ToLower(w)
	return !genericName(w) && (strings.Contains(l, "bot") || strings.Contains(l, "spider") || strings.Contains(l, "crawler"))
}

// genericName reports whether w is a word that ends many a crawler's name
// of two words (Kenjin Spider, Echobot Bot): bot, robot, spider or
// crawler, or their plural.
func genericName(w string) bool {
	switch strings.TrimSuffix(strings.ToLower(w), "s") {
	case "bot", "robot", "spider", "crawler":
		return true
	}
	return false
}

// agentsByLine returns the user-agent lines of f by line number.
func agentsByLine(f *parser.File) map[int]parser.UserAgent {
	m := make(map[int]parser.UserAgent)
	for _, g := range f.Groups {
		for _, a := range g.Agents {
			m[a.Line] = a
		}
	}
	return m
}

// groupNamesOthers reports whether the group of the user-agent line at
// line has another agent that some crawler answers to.
func (lt *linter) groupNamesOthers(line int) bool {
	if lt.named == nil {
		lt.named = map[int]bool{}
		for _, g := range lt.file.Groups {
			names := slices.ContainsFunc(g.Agents, func(a parser.UserAgent) bool { return a.Global || a.Token != "" })
			for _, a := range g.Agents {
				lt.named[a.Line] = names
			}
		}
	}
	return lt.named[line]
}

// maxHeaderChecks bounds the user-agent lines of a file lint reads as a
// crawler's User-Agent header (a browser's costs nothing), each a parse
// of the whole file: over five times the most a corpus file has (11),
// and a hostile file of 500 KiB of them lints in a fraction of a second.
const maxHeaderChecks = 64

// maxUsageCompared bounds the Content-Usage paths readsAsNamed compares,
// each a Usage call over every rule, so quadratic in them: a file of
// 500 KiB of Content-Usage rules and 64 header lines took minutes. No
// file of the corpus has one yet; past the bound, the line is reported.
const maxUsageCompared = 256

// bom is the UTF-8 byte-order mark.
const bom = "\uFEFF"

// readsAsNamed reports whether crawler (a token) reads the file as it
// would were the user-agent line at line "User-agent: crawler": the same
// rules, Crawl-delay and usage preferences, as the library reads them.
// Then what that line's group says reaches it all the same.
func (lt *linter) readsAsNamed(crawler string, line int) bool {
	lt.headerChecks++
	// Rejoined after a byte-order mark, so that one left at the start of
	// line 1 (a file that began with two) stays off the first key.
	text := func(lines []string) []byte { return []byte(bom + strings.Join(lines, "\n")) }
	if lt.asRead == nil {
		lt.asRead = robotstxt.ParseMode(text(lt.lines.lines), lt.mode)
	}
	lines := slices.Clone(lt.lines.lines)
	lines[line-1] = "User-agent: " + crawler
	as, meant := lt.asRead, robotstxt.ParseMode(text(lines), lt.mode)
	type rule struct {
		pattern string
		allow   bool
	}
	rules := func(r *robotstxt.Robots) map[rule]bool { // a rule twice decides as once
		out := map[rule]bool{}
		for _, ru := range r.Rules(crawler) {
			out[rule{ru.Pattern, ru.Allow}] = true
		}
		return out
	}
	d1, ok1 := as.CrawlDelay(crawler)
	d2, ok2 := meant.CrawlDelay(crawler)
	if d1 != d2 || ok1 != ok2 || !maps.Equal(rules(as), rules(meant)) {
		return false
	}
	paths := []string{"/"}
	for _, g := range lt.file.Groups {
		for _, u := range g.Usage {
			paths = append(paths, u.Path)
		}
	}
	if len(paths) > maxUsageCompared {
		return false // taken as read otherwise: reported, not passed over
	}
	return !slices.ContainsFunc(paths, func(p string) bool {
		return as.Usage(crawler, "http://lint.test"+p) != meant.Usage(crawler, "http://lint.test"+p)
	})
}

// groupNames reports whether the group of the user-agent line at line
// names crawler (a token, or "*") on a line of its own.
func (lt *linter) groupNames(line int, crawler string) bool {
	for _, g := range lt.file.Groups {
		if slices.ContainsFunc(g.Agents, func(a parser.UserAgent) bool { return a.Line == line }) {
			return slices.ContainsFunc(g.Agents, func(a parser.UserAgent) bool {
				return a.Line != line && (crawler == "*" && a.Global || !a.Global && strings.EqualFold(a.Token, crawler))
			})
		}
	}
	return false
}

// ranInRecord returns the key of a record that v, the value of a rule or
// what follows a user-agent's token, holds past its start, where a line
// end was lost ("GPTBot Disallow: /", "/User-agent: MJ12bot"), and where
// it starts: a directive's key (see directiveWord) at a word's start or
// after a mark, then a colon; or after a blank, then a blank and a
// pattern ("GPTBot Disallow /"; but "/blog/allow /*.pdf" is two paths).
func ranInRecord(v string) (key string, at int) {
	isWord := func(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' || c == '-' || c == '_' }
	for i := 1; i < len(v); i++ {
		if isWord(v[i-1]) || !isWord(v[i]) {
			continue
		}
		j := i
		for j < len(v) && isWord(v[j]) {
			j++
		}
		after := strings.TrimLeft(v[j:], " \t")
		colon := strings.HasPrefix(after, ":")
		pattern := len(after) < len(v)-j && after != "" && (after[0] == '/' || after[0] == '*') && (v[i-1] == ' ' || v[i-1] == '\t')
		if !colon && !pattern {
			continue // cheap: few words are followed so, and directiveWord parses
		}
		// The key and what follows it to the next blank, no more: the
		// rest of a long value, split again at every key, would make
		// lint quadratic in a line's length.
		end := len(v) - len(after)
		if colon {
			end++ // the key and its colon: "Disallow:/x" is no word directiveWord knows
		} else if k := strings.IndexAny(after, " \t"); k >= 0 {
			end += k
		} else {
			end = len(v)
		}
		if k := directiveWord(v[i:end]); k != "" {
			return k, i
		}
	}
	return "", -1
}

// colonMarks are the marks a key run into its value may stand for a
// colon with: "Disallow=/x", "Disallow/x", "User-agent\uff1aBot" (a
// full-width colon, and the like).
const colonMarks = "=/;*\uff1a\ufe55\ufe13\u2236\ua789"

// directiveWord returns the key that a skipped line starts with, when it
// is a directive's (Disallow) or a misspelling the parser accepts of one
// (disalow, "user agent"), or "". A word the parser reads as a key only
// by its start (Allowed) is not one: prose may start so.
func directiveWord(line string) string {
	words := strings.Fields(line)
	var keys []string
	for n := 1; n <= min(2, len(words)); n++ { // "user agent" is two words
		keys = append(keys, strings.TrimRight(strings.Join(words[:n], " "), ":"))
	}
	if len(words) > 0 {
		// A key run into its value by a mark standing for a colon
		// (Disallow=/x, Disallow/x, User-agent\uff1aBot); not a prose
		// mark (Sitemap.xml, User-agent's, "Allow, Disallow"), nor a
		// slash between keys (Allow/Disallow).
		w := words[0]
		if i := strings.IndexFunc(w, func(r rune) bool { return !('a' <= r|0x20 && r|0x20 <= 'z' || r == '-' || r == '_') }); i > 0 {
			r, n := utf8.DecodeRuneInString(w[i:])
			if strings.ContainsRune(colonMarks, r) && !(r == '/' && directiveWord(w[i+n:]) != "") {
				keys = append(keys, strings.TrimRight(w[:i], "-_"))
			}
		}
	}
	for _, key := range keys {
		known := slices.ContainsFunc([]string{"user-agent", "allow", "disallow", "sitemap", "content-usage", "content-signal", "license"},
			func(k string) bool { return strings.EqualFold(k, key) })
		for _, d := range parser.Parse([]byte(key + ": /x\n")).Diagnostics {
			known = known || d.Kind == parser.MisspeltKey
		}
		if known {
			return key
		}
	}
	return ""
}

// nearKey returns the known key that an unknown key is most likely a typo
// of, or "".
func nearKey(key string) string {
	key = strings.ToLower(key)
	for _, k := range []string{"user-agent", "disallow", "allow", "sitemap", "crawl-delay", "content-usage", "content-signal", "license"} {
		limit := 2
		if len(k) <= 5 {
			limit = 1
		}
		if editDistance(key, k) <= limit {
			return k
		}
	}
	if strings.Contains(key, "agent") {
		return "user-agent"
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, in
// characters: an invisible one (a byte-order mark left mid-file, a
// zero-width space) is one edit, whatever its bytes.
func editDistance(as, bs string) int {
	a, b := []rune(as), []rune(bs)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// records reports Crawl-delay (once), one before any group, each
// crawl-delay the Client reads and clamps, unsupported rules,
// Content-Signal records that state nothing in part or whole, and
// sitemaps that are not absolute URLs.
func (lt *linter) records() {
	f := lt.file
	all := slices.Clone(f.Extensions)
	for _, g := range f.Groups {
		all = append(all, g.Extensions...)
	}
	slices.SortFunc(all, func(a, b parser.Record) int { return a.Line - b.Line })
	read := readDelays(f)
	delays, firstDelay := 0, 0
	for _, r := range all {
		switch r.Key {
		case "crawl-delay":
			if _, err := parser.CrawlDelay(r.Value); err == nil && (len(f.Groups) == 0 || len(f.Groups[0].Agents) > 0 && r.Line < f.Groups[0].Agents[0].Line) {
				lt.add(r.Line, codeOutsideGroup, "crawl-delay before any user-agent line: no crawler reads it")
				continue
			}
			if delays++; delays == 1 {
				firstDelay = r.Line
			}
			if read[r.Line] && clamped(r.Value) {
				lt.add(r.Line, codeDelayClamped, "crawl-delay %s is over a day: the robotstxt Client and Transport read it as %g seconds, the longest they wait between requests",
					r.Value, maxCrawlDelay.Seconds())
			}
		case "content-signal":
			if _, err := readPrefs(r.Key, r.Value); err != nil {
				lt.add(r.Line, codeSignalValue, "%v: crawlers that read Content-Signal may read no preference from it", err)
			}
		case "noindex", "nofollow", "noarchive":
			lt.add(r.Line, codeUnsupported, "no major crawler reads %s in robots.txt (Google stopped in 2019): use a robots meta tag or X-Robots-Tag", r.Key)
		}
	}
	if delays > 0 {
		lt.add(firstDelay, codeCrawlDelay, "Google ignores Crawl-delay (%s in this file); Bing and Yandex read it", plural(delays, "line"))
	}
	for _, s := range f.Sitemaps {
		if !absolute(s.Value) {
			lt.add(s.Line, codeSitemapRelative, "sitemap %q is not an absolute http or https URL: search engines skip it (the robotstxt Client lists it as written)", s.Value)
		}
	}
	for _, l := range f.Licenses {
		if !absolute(l.Value) {
			lt.add(l.Line, codeLicenseRelative, "license %q is not an absolute http or https URL: crawlers skip it", l.Value)
		}
	}
}

// readDelays returns the lines of the crawl-delays the Client reads: for
// each set of groups a crawler obeys (see ruleSets), the first that
// parses, as Robots.CrawlDelay picks it. One before every group, or in a
// group no crawler obeys, is read by none.
func readDelays(f *parser.File) map[int]bool {
	first := make([]int, len(f.Groups)) // a group's first that parses; 0 for none
	for gi, g := range f.Groups {
		for _, r := range g.Extensions {
			if _, err := parser.CrawlDelay(r.Value); r.Key == "crawl-delay" && err == nil {
				first[gi] = r.Line
				break
			}
		}
	}
	sets, _ := ruleSets(f)
	read := make(map[int]bool)
	for _, s := range sets {
		for _, gi := range s { // in file order, as the Client reads them
			if first[gi] != 0 {
				read[first[gi]] = true
				break
			}
		}
	}
	return read
}

// absolute reports whether v is an absolute http or https URL, as a
// Sitemap or License record must be.
func absolute(v string) bool {
	u, err := url.Parse(v)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != ""
}

// maxCrawlDelay is the longest crawl-delay the Client reads: what
// parser.CrawlDelay clamps a longer one to.
var maxCrawlDelay, _ = parser.CrawlDelay("+Inf")

// clamped reports whether the crawl-delay value v, as parser.CrawlDelay
// reads it, is longer than maxCrawlDelay, which it gives instead.
func clamped(v string) bool {
	if d, err := parser.CrawlDelay(v); err != nil || d < maxCrawlDelay {
		return false
	}
	s, _ := strconv.ParseFloat(v, 64) // parses, or is out of range: ±Inf
	return s > maxCrawlDelay.Seconds()
}
