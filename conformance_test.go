package robotstxt

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt/internal/match"
	"github.com/robotsgate/robotstxt/internal/parse"
)

// conformanceDir holds the conformance vectors; see its README.md for
// where they come from and their format.
const conformanceDir = "testdata/conformance"

// longLine is the conformance suite's generator for bodies and URLs too
// large to store.
type longLine struct {
	Kind      string `json:"kind"`
	Prefix    string `json:"prefix"`
	Base      string `json:"base"`
	ValueHead string `json:"value_head"`
	FillChar  string `json:"fill_char"`
	ValueLen  int    `json:"value_len"`
	Tail      string `json:"tail"`
	Lines     []struct {
		Key       string `json:"key"`
		ValueHead string `json:"value_head"`
		FillChar  string `json:"fill_char"`
		ValueLen  int    `json:"value_len"`
		Tail      string `json:"tail"`
	} `json:"lines"`
}

func fill(head, char string, n int) string {
	return head + strings.Repeat(char, n-len(head))
}

func (g *longLine) body() string {
	var b strings.Builder
	b.WriteString(g.Prefix)
	for _, l := range g.Lines {
		b.WriteString(l.Key + fill(l.ValueHead, l.FillChar, l.ValueLen) + l.Tail)
	}
	return b.String()
}

func (g *longLine) url() string {
	return g.Base + fill(g.ValueHead, g.FillChar, g.ValueLen) + g.Tail
}

type vector struct {
	ID           string    `json:"id"`
	Robots       *string   `json:"robots"`
	RobotsBase64 string    `json:"robots_base64"`
	RobotsGen    *longLine `json:"robots_gen"`
	Agent        string    `json:"agent"`
	URL          string    `json:"url"`
	URLGen       *longLine `json:"url_gen"`
	Allowed      bool      `json:"allowed"`
	Note         string    `json:"note"`
}

func (v *vector) body(t testing.TB) []byte {
	switch {
	case v.Robots != nil:
		return []byte(*v.Robots)
	case v.RobotsGen != nil:
		return []byte(v.RobotsGen.body())
	}
	b, err := base64.StdEncoding.DecodeString(v.RobotsBase64)
	if err != nil {
		t.Fatalf("%s: %v", v.ID, err)
	}
	return b
}

func (v *vector) url() string {
	if v.URLGen != nil {
		return v.URLGen.url()
	}
	return v.URL
}

// loadVectors reads conformance.json.
func loadVectors(tb testing.TB) []vector {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(conformanceDir, "conformance.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(data, &vs); err != nil {
		tb.Fatal(err)
	}
	return vs
}

// TestConformance runs every vector of the conformance suite, each
// checked against Google's reference parser.
func TestConformance(t *testing.T) {
	vs := loadVectors(t)
	if len(vs) != 1397 {
		t.Fatalf("loaded %d vectors, want 1397", len(vs))
	}
	failed := 0
	for _, v := range vs {
		got := Parse(v.body(t)).Allowed(v.Agent, v.url())
		if got != v.Allowed {
			failed++
			t.Errorf("%s: agent %q url %.80q: allowed = %v, want %v (%s)", v.ID, v.Agent, v.url(), got, v.Allowed, v.Note)
		}
	}
	if failed > 0 {
		t.Logf("%d of %d vectors disagree", failed, len(vs))
	}
}

// helperVector is one entry of helpers.json.
type helperVector struct {
	ID          string          `json:"id"`
	Fn          string          `json:"fn"`
	Input       *string         `json:"input"`
	InputBase64 string          `json:"input_base64"`
	InputGen    *longLine       `json:"input_gen"`
	Expected    json.RawMessage `json:"expected"`
	Note        string          `json:"note"`
}

func (v *helperVector) input(t *testing.T) string {
	switch {
	case v.Input != nil:
		return *v.Input
	case v.InputGen != nil:
		return v.InputGen.body()
	}
	b, err := base64.StdEncoding.DecodeString(v.InputBase64)
	if err != nil {
		t.Fatalf("%s: %v", v.ID, err)
	}
	return string(b)
}

// parseStats is the parse_stats helper's object. Pointers tell the keys
// a vector asserts from those it leaves out.
type parseStats struct {
	Directives        *int `json:"directives"`
	Unknown           *int `json:"unknown"`
	LastDirectiveLine *int `json:"last_directive_line"`
}

// lineReport is one line of the parse_lines helper, after Google's
// RobotsParsingReporter.
type lineReport struct {
	Line           int    `json:"line"`
	Tag            string `json:"tag"`
	Typo           bool   `json:"typo"`
	Empty          bool   `json:"empty"`
	HasComment     bool   `json:"has_comment"`
	CommentOnly    bool   `json:"comment_only"`
	HasDirective   bool   `json:"has_directive"`
	AcceptableTypo bool   `json:"acceptable_typo"`
	TooLong        bool   `json:"too_long"`
	MissingColon   bool   `json:"missing_colon"`
}

type linesReport struct {
	Directives int          `json:"directives"`
	Lines      int          `json:"lines"`
	PerLine    []lineReport `json:"per_line"`
}

// isDirective reports whether Google's parser counts a key as one of its
// four directives.
func isDirective(k parse.Key) bool {
	switch k {
	case parse.KeyUserAgent, parse.KeyAllow, parse.KeyDisallow, parse.KeySitemap:
		return true
	}
	return false
}

// statsOf derives parse_stats from parse.Lines: directives are the lines
// with one of the four keys (wherever they stand, typos and missing colons
// included), unknown the other key-value lines, and the last directive
// line is the last line of either kind.
func statsOf(body string) (directives, unknown, last int) {
	for l := range parse.Lines(body) {
		switch {
		case isDirective(l.Key):
			directives++
		case l.Key == parse.KeyOther, l.Key == parse.KeyContentUsage: // a key Google's parser does not know
			unknown++
		default:
			continue
		}
		last = l.Num
	}
	return directives, unknown, last
}

// reportOf derives parse_lines from parse.Lines, and from the
// diagnostics of parse.Parse to tell an unknown key from a known but
// unused one (crawl-delay, noarchive, …): only the former is reported as
// UnknownKey.
func reportOf(body string) linesReport {
	unknownKey := map[int]bool{}
	for _, d := range parse.Parse([]byte(body)).Diagnostics {
		if d.Kind == parse.UnknownKey {
			unknownKey[d.Line] = true
		}
	}
	var r linesReport
	for l := range parse.Lines(body) {
		lr := lineReport{
			Line:           l.Num,
			Tag:            "unknown",
			Typo:           l.Flags&parse.FlagTypo != 0,
			AcceptableTypo: l.Flags&parse.FlagTypo != 0,
			Empty:          l.Flags&parse.FlagEmpty != 0,
			HasComment:     l.Flags&parse.FlagComment != 0,
			CommentOnly:    l.Flags&parse.FlagCommentOnly != 0,
			HasDirective:   l.Key != parse.KeyNone,
			TooLong:        l.Flags&parse.FlagTooLong != 0,
			MissingColon:   l.Flags&parse.FlagMissingColon != 0,
		}
		switch {
		case isDirective(l.Key):
			lr.Tag = l.Key.String()
			r.Directives++
		case l.Key == parse.KeyOther && !unknownKey[l.Num]:
			lr.Tag = "unused"
		}
		r.PerLine = append(r.PerLine, lr)
		r.Lines = l.Num
	}
	return r
}

// TestHelperVectors runs the 61 helper vectors of the conformance suite
// against the functions of this library that do each job.
func TestHelperVectors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(conformanceDir, "helpers.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []helperVector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) != 61 {
		t.Fatalf("loaded %d helper vectors, want 61", len(vs))
	}
	count := map[string]int{}
	for _, v := range vs {
		count[v.Fn]++
		in := v.input(t)
		fail := func(got, want any) {
			t.Helper()
			t.Errorf("%s (%s): input %.80q: got %v, want %v (%s)", v.ID, v.Fn, in, got, want, v.Note)
		}
		switch v.Fn {
		case "path_params_query":
			var want string
			mustUnmarshal(t, v, &want)
			if got := match.Path(in); got != want {
				fail(got, want)
			}
		case "escape_pattern":
			var want string
			mustUnmarshal(t, v, &want)
			if got := match.Escape(in); got != want {
				fail(got, want)
			}
		case "is_valid_user_agent":
			var want bool
			mustUnmarshal(t, v, &want)
			if got := parse.ValidToken(in); got != want {
				fail(got, want)
			}
		case "extract_user_agent":
			var want string
			mustUnmarshal(t, v, &want)
			if got := parse.AgentToken(in); got != want {
				fail(got, want)
			}
		case "parse_stats":
			var want parseStats
			mustUnmarshal(t, v, &want)
			if want.Directives == nil && want.Unknown == nil && want.LastDirectiveLine == nil {
				t.Errorf("%s: asserts nothing", v.ID)
			}
			d, u, last := statsOf(in)
			if want.Directives != nil && d != *want.Directives {
				fail("directives "+itoa(d), "directives "+itoa(*want.Directives))
			}
			if want.Unknown != nil && u != *want.Unknown {
				fail("unknown "+itoa(u), "unknown "+itoa(*want.Unknown))
			}
			if want.LastDirectiveLine != nil && last != *want.LastDirectiveLine {
				fail("last line "+itoa(last), "last line "+itoa(*want.LastDirectiveLine))
			}
		case "sitemaps":
			var want []string
			mustUnmarshal(t, v, &want)
			if got := Parse([]byte(in)).Sitemaps(); !slices.Equal(got, want) {
				fail(got, want)
			}
		case "parse_lines":
			var want linesReport
			mustUnmarshal(t, v, &want)
			got := reportOf(in)
			if got.Directives != want.Directives || got.Lines != want.Lines {
				fail(itoa(got.Directives)+" directives, "+itoa(got.Lines)+" lines",
					itoa(want.Directives)+" directives, "+itoa(want.Lines)+" lines")
			}
			if len(got.PerLine) != len(want.PerLine) {
				fail(len(got.PerLine), len(want.PerLine))
				continue
			}
			for i := range want.PerLine {
				if !reflect.DeepEqual(got.PerLine[i], want.PerLine[i]) {
					fail(got.PerLine[i], want.PerLine[i])
				}
			}
		default:
			t.Errorf("%s: unknown helper %q", v.ID, v.Fn)
		}
	}
	want := map[string]int{
		"path_params_query": 19, "escape_pattern": 4, "is_valid_user_agent": 11,
		"extract_user_agent": 11, "parse_stats": 10, "sitemaps": 2, "parse_lines": 4,
	}
	if !reflect.DeepEqual(count, want) {
		t.Errorf("helper counts %v, want %v", count, want)
	}
}

func mustUnmarshal(t *testing.T, v helperVector, dst any) {
	t.Helper()
	if err := json.Unmarshal(v.Expected, dst); err != nil {
		t.Fatalf("%s: expected: %v", v.ID, err)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
