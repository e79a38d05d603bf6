package main

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt"
)

// agentRobots gives a browser-like User-Agent's first product, Mozilla,
// another group than its crawler, XBot.
const agentRobots = `User-agent: Mozilla
Disallow: /

User-agent: XBot
Disallow: /private/
`

// TestAgentTokenAsClient checks that a -agent value is read as the
// Client reads its User-Agent: "Mozilla/5.0 (compatible; XBot/1.0)" is
// XBot, in every command, and each decides as a Client sending that
// header does.
func TestAgentTokenAsClient(t *testing.T) {
	const ua = "Mozilla/5.0 (compatible; XBot/1.0)"
	s := newRobotsServer(t, http.StatusOK, agentRobots)
	c := robotstxt.NewClient(robotstxt.WithUserAgent(ua))
	defer c.Close()
	if tok, _ := productToken(ua); tok != "XBot" {
		t.Fatalf("the Client derives %q from %q", tok, ua)
	}
	for _, p := range []string{"/public", "/private/x"} {
		d, err := c.Check(context.Background(), s.URL+p)
		if err != nil {
			t.Fatal(err)
		}
		want := verdictOf(d.Allowed).word()
		for name, args := range map[string][]string{
			"test":      {"test", "-file", s.URL + "/robots.txt", "-agent", ua, p},
			"explain":   {"explain", "-file", s.URL + "/robots.txt", "-agent", ua, p},
			"check":     {"check", "-agent", ua, s.URL + p},
			"check -ua": {"check", "-ua", ua, s.URL + p},
		} {
			r := runCmd(t, "", args...)
			out := r.stdout
			if name == "explain" {
				_, out, _ = strings.Cut(out, "decision  ")
			}
			if !strings.HasPrefix(out, want+" ") && !strings.HasPrefix(out, want+":") {
				t.Errorf("%s %s: the Client says %s, the command:\n%s", name, p, want, r.stdout)
			}
		}
	}
	r := runCmd(t, "", "test", "-file", s.URL+"/robots.txt", "-agent", ua, "/public")
	if !strings.Contains(r.stderr, `agent "`+ua+`" matched as "XBot"`) {
		t.Errorf("no note of the derived token: stderr %q", r.stderr)
	}
}

// TestAgentWithoutToken checks that a -agent value from which the Client
// derives no token (see robotstxt.WithUserAgent) is a usage error that names
// the flag, in every command that takes -agent.
func TestAgentWithoutToken(t *testing.T) {
	for _, v := range []string{"123bot/1.0", "/2.0", "Mozilla/5.0 (X11) Gecko/20100101", ""} {
		if tok, ok := productToken(v); ok {
			t.Fatalf("the Client derives %q from %q", tok, v)
		}
		for _, args := range [][]string{
			{"test", "-file", "testdata/robots.txt", "-agent", v, "/x"},
			{"explain", "-file", "testdata/robots.txt", "-agent", v, "/x"},
			{"check", "-agent", v, "http://127.0.0.1:1/"},
		} {
			if v == "" && args[0] == "check" {
				continue // an empty -agent is no -agent: the token of -ua
			}
			r := runCmd(t, "", args...)
			want := "no product token can be derived"
			if r.code != exitUsage || r.stdout != "" || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "-agent") {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d and %q", args, r.code, r.stdout, r.stderr, exitUsage, want)
			}
		}
	}
}

// TestAgentTokenAsGiven: -agent Mozilla is the product token Mozilla, as
// a user-agent line names it and WithProductTokens takes it, though no
// User-Agent header gives it.
func TestAgentTokenAsGiven(t *testing.T) {
	const file = "User-agent: Mozilla/4.0 (compatible; MSIE 4.0; Windows NT)\nDisallow: /\n"
	r := robotstxt.Parse([]byte(file))
	if r.Allowed("Mozilla", "/x") {
		t.Fatal("setup: the parser allows Mozilla")
	}
	routedSite(t, map[string]struct {
		header map[string]string
		body   string
	}{"mz.routed/robots.txt": {body: file}})
	c, _ := libraryClient(t, robotstxt.WithProductTokens("Mozilla"))
	d, err := c.Check(context.Background(), "http://mz.routed/x")
	if err != nil || d.Allowed {
		t.Fatalf("setup: Client WithProductTokens(Mozilla): allowed %v, %v", d.Allowed, err)
	}
	for _, args := range [][]string{
		{"test", "-agent", "Mozilla", "-file", "-", "/x"},
		{"explain", "-agent", "Mozilla", "-file", "-", "/x"},
		{"check", "-agent", "Mozilla", "http://mz.routed/x"},
	} {
		res := runCmd(t, file, args...)
		if res.code != exitDisallowed {
			t.Errorf("%s: exit %d, stderr %q; want %d (disallowed), as the Client with product token Mozilla answers",
				strings.Join(args, " "), res.code, strings.TrimSpace(res.stderr), exitDisallowed)
		}
	}
}
