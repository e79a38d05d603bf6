package robotstxt

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedDir returns ../shared beside the repository, or skips the test
// when it is absent.
func sharedDir(t testing.TB, sub string) string {
	t.Helper()
	dir := filepath.Join("..", "shared", sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("%s not present: %v", dir, err)
	}
	return dir
}

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

func loadVectors(t *testing.T) []vector {
	data, err := os.ReadFile(filepath.Join(sharedDir(t, "conformance"), "conformance.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestConformance runs every vector of the shared conformance suite,
// each checked against Google's reference parser.
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
