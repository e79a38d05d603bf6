package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt"
)

// TestJudge checks the exit code and note of every verdict with and
// without an expectation: a deferral meets none.
func TestJudge(t *testing.T) {
	none, allow, disallow := expectation{}, expectation{set: true, allow: true}, expectation{set: true}
	for _, tc := range []struct {
		x    expectation
		v    verdict
		code int
		note string
	}{
		{none, verdictAllowed, exitOK, ""},
		{none, verdictDisallowed, exitDisallowed, ""},
		{none, verdictDeferred, exitDeferred, ""},
		{allow, verdictAllowed, exitOK, ""},
		{allow, verdictDisallowed, exitDisallowed, "; expected allow"},
		{allow, verdictDeferred, exitDisallowed, "; expected allow"},
		{disallow, verdictAllowed, exitDisallowed, "; expected disallow"},
		{disallow, verdictDisallowed, exitOK, ""},
		{disallow, verdictDeferred, exitDisallowed, "; expected disallow"},
	} {
		if code, note := tc.x.judge(tc.v); code != tc.code || note != tc.note {
			t.Errorf("%+v judges %s: %d %q, want %d %q", tc.x, tc.v.word(), code, note, tc.code, tc.note)
		}
	}
}

// hostileWildcards is a robots.txt of wildcard rules that the Client's
// index cannot pass over (as in the library's
// TestServedCheckBoundsTheFormsWork), and escapedLongPath an 8,000-byte
// path spelled otherwise than a server serves it ("//", a dot segment,
// escapes): checking its normal forms costs past the Client's
// maxCheckWork, so the Client disallows it with the zero Rule (see
// robotstxt.Decision.Rule).
func hostileWildcards() string {
	const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZcdefghijklmnopqrstuvwxyz0123456789-_.~"
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() < 500<<10-64; i++ {
		tag := string([]byte{alpha[i%64], alpha[i/64%64], alpha[i/4096%64]})
		b.WriteString("Disallow: /*aaaaaaaaaaaaaaab*" + tag + "\n")
	}
	return b.String()
}

func escapedLongPath() string {
	tail := "/a//../b%2f%22c/."
	head := "/aaab" + strings.Repeat("a", 7000) + "qwertyuiopasdfghjklzxcvbnm"
	return head + strings.Repeat("x", 8000-len(head)-len(tail)) + tail
}

// TestUncheckedDisallowExplained: when the Client disallows a URL with no
// deciding rule (the bound on checking a path's normal forms passed),
// test, check and explain say so: they said no rule matched, and
// explain "DISALLOW: no rule matches, and what no rule disallows is
// allowed" (cli17).
func TestUncheckedDisallowExplained(t *testing.T) {
	body := hostileWildcards()
	path := escapedLongPath()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte(body))
			return
		}
		w.Write([]byte("page"))
	}))
	defer srv.Close()
	file := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}

	// The Client's answer.
	c := robotstxt.NewClient(robotstxt.WithProductTokens(defaultAgent))
	defer c.Close()
	d, err := c.Check(context.Background(), srv.URL+path)
	if err != nil || d.Allowed || d.Rule.Line != 0 || d.Outcome != robotstxt.OutcomeRules {
		t.Fatalf("precondition: Client.Check: allowed %v, rule %+v, outcome %v, err %v; want disallowed with the zero Rule", d.Allowed, d.Rule, d.Outcome, err)
	}

	noRule := func(s string) bool {
		return strings.Contains(s, "no rule matched") || strings.Contains(s, "no rule matches") ||
			strings.Contains(s, "what no rule disallows is allowed")
	}
	short := func(s string) string { return strings.ReplaceAll(s, strings.Repeat("a", 40), "a…") }

	// explain, text: its decision line.
	r := runCmd(t, "", "explain", "-file", file, path)
	if r.code != exitDisallowed {
		t.Errorf("explain: exit %d, want 1", r.code)
	}
	for _, l := range outputLines(r.stdout) {
		if strings.HasPrefix(l, "decision") && noRule(l) {
			t.Errorf("explain -file FILE PATH: %q: a DISALLOW explained by no rule matching, and \"what no rule disallows is allowed\"; the Client disallowed it because checking the forms a server may serve the path as passed its bound", l)
		}
	}
	// explain, test and check -json: detail.
	for _, args := range [][]string{
		{"explain", "-json", "-file", file, path},
		{"test", "-json", "-file", file, path},
		{"test", "-json", "-file", srv.URL + "/robots.txt", srv.URL + path},
		{"explain", "-json", srv.URL + path},
		{"check", "-json", srv.URL + path},
	} {
		r := runCmd(t, "", args...)
		var res struct {
			Verdict string `json:"verdict"`
			Detail  string `json:"detail"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("%s: %v; stdout %q stderr %q", args[0], err, short(r.stdout[:min(len(r.stdout), 300)]), r.stderr)
		}
		if res.Verdict != "disallowed" || r.code != exitDisallowed {
			t.Errorf("%s: verdict %s exit %d, want disallowed, 1 as the Client", strings.Join(args[:2], " "), res.Verdict, r.code)
		}
		if noRule(res.Detail) {
			t.Errorf("%s %s: verdict disallowed, detail %q: says no rule matched, which allows a URL; the Client disallowed it past the bound on checking the path's forms", args[0], args[1], res.Detail)
		}
	}
}
