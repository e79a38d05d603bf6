package parse

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
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
// obeys are those the rich form names, before and after the table is
// indexed for checks, for tokens in any case, several tokens, unknown and
// empty ones, and lines that repeat a token within a group and across
// groups.
func TestPropertyAppendGroupsAgreesWithBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(71, 72))
	pool := []string{"FooBot", "foobot", "BarBot/2.1", "Bar-Bot", "baz_bot", "*", "* extra", "1bot", "", "Qux x", "FOOBOT"}
	queries := []string{"FooBot", "FOOBOT", "barbot", "Bar-Bot", "BAZ_BOT", "qux", "Other", "", "1bot", "Foo"}
	for range 2000 {
		var b strings.Builder
		for g := range rnd.IntN(40) {
			for range 1 + rnd.IntN(3) {
				fmt.Fprintf(&b, "User-agent: %s\n", pool[rnd.IntN(len(pool))])
			}
			fmt.Fprintf(&b, "Disallow: /%d\n", g)
		}
		body := b.String()
		fresh := Compile([]byte(body)) // never indexed for checks
		tb := Compile([]byte(body))
		f := tb.File()
		tb.index()
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
				if got, named := tb.GroupsOf(tokens[0]); !slices.Equal(got, want) || named != wantNamed {
					t.Fatalf("GroupsOf(%q) = %v %v, want %v %v\nbody:\n%s", tokens[0], got, named, want, wantNamed, body)
				}
			}
		}
	}
}

// TestAppendGroupsDoesNotAllocate: looking a crawler up, in a table of
// few groups and one of many, allocates nothing when dst has room, once
// the first look-up has indexed the lines, for tokens short and long; nor
// does GroupsOf.
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
			if a := testing.AllocsPerRun(100, func() { tb.GroupsOf(tok) }); a != 0 {
				t.Errorf("%d groups, %.20q: GroupsOf allocates %v times", n, tok, a)
			}
		}
		if g, named := tb.AppendGroups(buf[:0], strings.ToUpper(long)); !named || len(g) != 1 || g[0] != n {
			t.Errorf("%d groups: the long token gives %v %v", n, g, named)
		}
	}
}

// FuzzAppendGroupsAgreesWithBruteForce: for any body and tokens, the
// groups a crawler obeys are those the rich form names.
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
		if got, named := tb.GroupsOf(tok1); !slices.Equal(got, want) || named != wantNamed {
			t.Fatalf("GroupsOf(%q) = %v %v, want %v %v", tok1, got, named, want, wantNamed)
		}
	})
}

// TestSelectFor: SelectFor keeps the rules and records of the groups
// AppendGroups finds, and the Content-Usage rules of their runs UsageRuns
// finds, for drawn files and tokens (several, mixed case,
// empty, named nowhere) and over the corpus sample.
func TestSelectFor(t *testing.T) {
	rnd := rand.New(rand.NewPCG(85, 86))
	var bodies []string
	for range 200 {
		var b strings.Builder
		for i := range 1 + rnd.IntN(8) {
			for range 1 + rnd.IntN(3) {
				b.WriteString("User-agent: " + []string{"*", "FooBot", "foobot/2.1", "BarBot", "* extra", "", "Baz-Bot", "9bot"}[rnd.IntN(8)] + "\n")
			}
			fmt.Fprintf(&b, "Disallow: /x%d\nCrawl-delay: %d\n", i, i)
			if rnd.IntN(2) == 0 {
				fmt.Fprintf(&b, "Content-Usage: /u%d train-ai=n\n", i)
			}
			if rnd.IntN(3) == 0 {
				fmt.Fprintf(&b, "Content-Signal: search=yes\n")
			}
		}
		bodies = append(bodies, b.String())
	}
	dir := filepath.Join("..", "..", "testdata", "corpus", "files")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		body, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, string(body))
	}
	for _, body := range bodies {
		tb := Compile([]byte(body))
		for _, tokens := range [][]string{nil, {""}, {"FooBot"}, {"FOOBOT", "barbot"}, {"Baz-Bot", ""}, {"Googlebot"}, {"ZzyzxBot"}, {"bot"}} {
			groups, named := tb.AppendGroups(nil, tokens...)
			runs := tb.UsageRuns(nil, named, tokens...)
			want := tb.Select(groups, runs)
			got, gotRuns := tb.SelectFor(tokens...)
			if !slices.Equal(gotRuns, runs) && len(gotRuns)+len(runs) > 0 ||
				!slices.Equal(got.Rules([]int{0}), want.Rules([]int{0})) || !slices.Equal(got.Extensions([]int{0}), want.Extensions([]int{0})) ||
				!slices.Equal(got.DecideUsage(nil, []int{0}, "/u1"), want.DecideUsage(nil, []int{0}, "/u1")) {
				t.Fatalf("SelectFor(%q) differs from Select(%v, %v)\nbody:\n%.1000s", tokens, groups, runs, body)
			}
		}
	}
}
