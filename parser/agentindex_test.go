package parser

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// bruteGroups is AppendGroups spelt out over the rich form: the groups
// with a line whose token equals one of tokens ignoring case, or else
// those with a "*" line.
func bruteGroups(f *File, tokens []string) (groups []int, named bool) {
	for g, gr := range f.Groups {
		for _, a := range gr.Agents {
			if slices.ContainsFunc(tokens, func(tok string) bool { return tok != "" && strings.EqualFold(a.Token, tok) }) {
				groups = append(groups, g)
				break
			}
		}
	}
	if groups != nil {
		return groups, true
	}
	for g, gr := range f.Groups {
		if slices.ContainsFunc(gr.Agents, func(a UserAgent) bool { return a.Global }) {
			groups = append(groups, g)
		}
	}
	return groups, false
}

// TestPropertyAppendGroupsAgreesWithBruteForce: the groups a crawler
// obeys are the same whether the table indexes its user-agent lines or
// not, for tokens in any case, several tokens, unknown and empty ones, and
// lines that repeat a token within a group and across groups.
func TestPropertyAppendGroupsAgreesWithBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(71, 72))
	pool := []string{"FooBot", "foobot", "BarBot/2.1", "Bar-Bot", "baz_bot", "*", "* extra", "1bot", "", "Qux x", "FOOBOT"}
	queries := []string{"FooBot", "FOOBOT", "barbot", "Bar-Bot", "BAZ_BOT", "qux", "Other", "", "1bot", "Foo"}
	indexed, plain := 0, 0
	for range 2000 {
		var b strings.Builder
		for g := range rnd.IntN(40) {
			for range 1 + rnd.IntN(3) {
				fmt.Fprintf(&b, "User-agent: %s\n", pool[rnd.IntN(len(pool))])
			}
			fmt.Fprintf(&b, "Disallow: /%d\n", g)
		}
		body := b.String()
		fresh := Compile([]byte(body)) // never indexed: AppendGroups scans
		tb := Compile([]byte(body))
		f := tb.File()
		tb.index()
		if tb.file.agentIndex != nil {
			indexed++
		} else {
			plain++
		}
		for range 8 {
			tokens := []string{queries[rnd.IntN(len(queries))]}
			if rnd.IntN(3) == 0 {
				tokens = append(tokens, queries[rnd.IntN(len(queries))])
			}
			want, wantNamed := bruteGroups(f, tokens)
			got, named := tb.AppendGroups([]int{-1}, tokens...)
			if !slices.Equal(got, append([]int{-1}, want...)) || named != wantNamed {
				t.Fatalf("AppendGroups(%q) = %v %v, want %v %v\nbody:\n%s", tokens, got[1:], named, want, wantNamed, body)
			}
			if got, named := fresh.AppendGroups(nil, tokens...); !slices.Equal(got, want) || named != wantNamed {
				t.Fatalf("AppendGroups(%q), not indexed = %v %v, want %v %v\nbody:\n%s", tokens, got, named, want, wantNamed, body)
			}
			if len(tokens) == 1 {
				if got, named := tb.GroupsOf(nil, tokens[0]); !slices.Equal(got, want) || named != wantNamed {
					t.Fatalf("GroupsOf(%q) = %v %v, want %v %v\nbody:\n%s", tokens[0], got, named, want, wantNamed, body)
				}
			}
		}
	}
	if indexed == 0 || plain == 0 {
		t.Fatalf("%d tables indexed their lines and %d did not: the test must see both", indexed, plain)
	}
}

// TestAgentIndexOnlyForManyLines: a table indexes its user-agent lines
// from indexedAgents on, when it is indexed for checks and not for a
// look-up alone, and the one Select makes has none to index.
func TestAgentIndexOnlyForManyLines(t *testing.T) {
	for _, n := range []int{1, indexedAgents - 1, indexedAgents, 2000} {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "User-agent: bot%c%c\nDisallow: /\n", 'a'+i%26, 'a'+i/26%26)
		}
		tb := Compile([]byte(b.String()))
		groups, named := tb.AppendGroups(nil, "BOTAA")
		if !named || len(groups) != 1+(n-1)/(26*26) || groups[0] != 0 {
			t.Errorf("%d lines: AppendGroups(BOTAA) = %v %v", n, groups, named)
		}
		if tb.file.indexed.Load() {
			t.Errorf("%d lines: AppendGroups indexed the table", n)
		}
		tb.index()
		if has := tb.file.agentIndex != nil; has != (n >= indexedAgents) {
			t.Errorf("%d lines: indexed %v", n, has)
		}
		if sel := tb.Select(groups); sel.file != nil && sel.file.agentIndex != nil {
			t.Errorf("%d lines: the selected table has an agent index", n)
		}
	}
}

// TestAppendGroupsDoesNotAllocate: looking a crawler up, in a table that
// indexes its lines and one that does not, allocates nothing when dst has
// room, for tokens short and long; nor does GroupsOf.
func TestAppendGroupsDoesNotAllocate(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage build")
	}
	long := strings.Repeat("LongBot", 30)
	for _, n := range []int{2, 200} {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "User-agent: bot%c%c\nDisallow: /%d\n", 'a'+i%26, 'a'+i/26, i)
		}
		b.WriteString("User-agent: " + long + "\nDisallow: /\n")
		tb := Compile([]byte(b.String()))
		var buf [8]int
		for _, tok := range []string{"BOTBA", strings.ToLower(long), "other"} {
			if a := testing.AllocsPerRun(100, func() { tb.AppendGroups(buf[:0], tok) }); a != 0 {
				t.Errorf("%d groups, %.20q: AppendGroups allocates %v times", n, tok, a)
			}
			if a := testing.AllocsPerRun(100, func() { tb.GroupsOf(buf[:0], tok) }); a != 0 {
				t.Errorf("%d groups, %.20q: GroupsOf allocates %v times", n, tok, a)
			}
		}
		if g, named := tb.AppendGroups(buf[:0], strings.ToUpper(long)); !named || len(g) != 1 || g[0] != n {
			t.Errorf("%d groups: the long token gives %v %v", n, g, named)
		}
	}
}

// BenchmarkAgentLookup finds the groups of a crawler in tables of n
// one-line groups, by comparing its token with every line (scan) and
// through the index (indexed), for a token some line names and one none
// does: what indexedAgents is chosen by.
func BenchmarkAgentLookup(b *testing.B) {
	for _, n := range []int{2, 4, 8, 16, 32} {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "User-agent: SomeBot%c\nDisallow: /%d\n", 'a'+i, i)
		}
		sb.WriteString("User-agent: *\nDisallow: /\n")
		tb := Compile([]byte(sb.String()))
		tb.index()
		ix := buildAgentIndex(tb)
		for _, tok := range []string{fmt.Sprintf("SOMEBOT%c", 'a'+n/2), "OtherBot"} {
			var buf [8]int
			tb.file.agentIndex = nil
			b.Run(fmt.Sprintf("scan/%d/%s", n, tok), func(b *testing.B) {
				for b.Loop() {
					tb.AppendGroups(buf[:0], tok)
				}
			})
			tb.file.agentIndex = ix
			b.Run(fmt.Sprintf("indexed/%d/%s", n, tok), func(b *testing.B) {
				for b.Loop() {
					tb.AppendGroups(buf[:0], tok)
				}
			})
		}
	}
}

// FuzzAppendGroupsAgreesWithBruteForce: for any body and tokens, the
// groups a crawler obeys are those the rich form names, whether the table
// indexes its user-agent lines or not.
func FuzzAppendGroupsAgreesWithBruteForce(f *testing.F) {
	f.Add("User-agent: a\nUser-agent: B\nUser-agent: *\nUser-agent: a b\nDisallow: /\nUser-agent: A\n", "a", "b")
	f.Add("User-agent: x\nDisallow: /x\nUser-agent: y\nUser-agent: *\nAllow: /\n", "Y", "")
	f.Fuzz(func(t *testing.T, body, tok1, tok2 string) {
		tb := Compile([]byte(body))
		f := tb.File()
		for _, tokens := range [][]string{{tok1}, {tok1, tok2}} {
			want, wantNamed := bruteGroups(f, tokens)
			got, named := tb.AppendGroups(nil, tokens...)
			if !slices.Equal(got, want) || named != wantNamed {
				t.Fatalf("AppendGroups(%q) = %v %v, want %v %v", tokens, got, named, want, wantNamed)
			}
		}
		want, wantNamed := bruteGroups(f, []string{tok1})
		if got, named := tb.GroupsOf(nil, tok1); !slices.Equal(got, want) || named != wantNamed {
			t.Fatalf("GroupsOf(%q) = %v %v, want %v %v", tok1, got, named, want, wantNamed)
		}
	})
}
