package robotstxt

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
)

// TestClientProductTokenErrors: a Client without a usable product token
// decides nothing and fetches nothing, rather than obey another crawler's
// group.
func TestClientProductTokenErrors(t *testing.T) {
	checkLeaks(t)
	s := newSite(t, serve(200, "User-agent: *\nDisallow: /x\n"))
	ctx := context.Background()
	for name, c := range map[string]*Client{
		"no token in the User-Agent": newTestClient(t, WithUserAgent("123bot/1.0")),
		"browser User-Agent":         newTestClient(t, WithUserAgent("Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0")),
		"tokens not tokens":          newTestClient(t, WithProductTokens("XBot/1.0")),
		"one bad token of two":       newTestClient(t, WithProductTokens("XBot", "")),
		"no tokens":                  newTestClient(t, WithUserAgent("XBot/1.0"), WithProductTokens()),
	} {
		if ok, err := c.Allowed(ctx, s.URL+"/y"); ok || !errors.Is(err, ErrProductToken) {
			t.Errorf("%s: Allowed = %v, %v; want ErrProductToken", name, ok, err)
		}
		if d, err := c.Check(ctx, s.URL+"/y"); d.Allowed || d.Outcome != Outcome(0) || !errors.Is(err, ErrProductToken) {
			t.Errorf("%s: Check = %+v, %v; want ErrProductToken", name, d, err)
		}
		if c.tokenErr == nil {
			t.Errorf("%s: the Client's tokens %q are taken as usable", name, c.tokens)
		}
	}
	if n := s.hits.Load(); n != 0 {
		t.Errorf("server asked %d times by Clients without a token, want 0", n)
	}
	crawler := newTestClient(t, WithUserAgent("Mozilla/5.0 (compatible; XBot/1.0; +https://example.com/bot)"))
	if toks := crawler.tokens; len(toks) != 1 || toks[0] != "XBot" {
		t.Errorf("ProductTokens() = %q, want [XBot]", toks)
	}
}

// TestClientSeveralProductTokens: a crawler known by several tokens obeys
// the groups that name any of them, merged, as Google's reference parser
// does; the "*" group only applies when none is named.
func TestClientSeveralProductTokens(t *testing.T) {
	checkLeaks(t)
	const body = "User-agent: Googlebot\nDisallow: /a\n\n" +
		"User-agent: Googlebot-Image\nDisallow: /b\n\n" +
		"User-agent: *\nDisallow: /c\n"
	s := newSite(t, serve(200, body))
	ctx := context.Background()
	c := newTestClient(t, WithProductTokens("Googlebot-Image", "Googlebot"))
	if toks := c.tokens; len(toks) != 2 || toks[0] != "Googlebot-Image" || toks[1] != "Googlebot" {
		t.Errorf("ProductTokens() = %q, want [Googlebot-Image Googlebot]", toks)
	}
	for _, tc := range []struct {
		path string
		want bool
		line int
	}{
		{"/a", false, 2}, {"/b", false, 5}, {"/c", true, 0}, {"/d", true, 0},
	} {
		d, err := c.Check(ctx, s.URL+tc.path)
		if err != nil || d.Allowed != tc.want || d.Rule.Line != tc.line {
			t.Errorf("Check(%q) = %+v, %v; want allowed %v by line %d", tc.path, d, err, tc.want, tc.line)
		}
	}
	// A token that no group names adds nothing; the "*" group applies
	// only when no token is named.
	other := newTestClient(t, WithProductTokens("XBot", "YBot"))
	for path, want := range map[string]bool{"/a": true, "/b": true, "/c": false} {
		if ok, err := other.Allowed(ctx, s.URL+path); ok != want || err != nil {
			t.Errorf("XBot, YBot: Allowed(%q) = %v, %v; want %v", path, ok, err, want)
		}
	}
}

// TestTransportJudgesEveryUserAgentSpelling: net/http writes every key of
// a request's header, whatever its case, so a "user-agent" key would go
// out beside the User-Agent the Transport checked. Over HTTP/1.1 (as the
// bytes arrive) and HTTP/2, a request goes out with one User-Agent that
// names the Client's token, or is refused with ErrAgentMismatch.
func TestTransportJudgesEveryUserAgentSpelling(t *testing.T) {
	checkLeaks(t)
	const other = "OtherBot/2.0"
	for _, tc := range []struct {
		name   string
		header http.Header
		sent   string // the User-Agent the server must see, "" for a refusal
	}{
		{"none", http.Header{}, testUA},
		{"the Client's", http.Header{"User-Agent": {testUA}}, testUA},
		{"lower case, another crawler", http.Header{"user-agent": {other}}, ""},
		{"upper case beside the Client's", http.Header{"User-Agent": {testUA}, "USER-AGENT": {other}}, ""},
		{"mixed case beside the Client's", http.Header{"User-Agent": {testUA}, "uSeR-aGeNt": {other}}, ""},
		{"another crawler second", http.Header{"User-Agent": {testUA, other}}, ""},
		{"the Client's twice", http.Header{"User-Agent": {testUA}, "user-agent": {testUA}}, ""},
		{"the Client's twice in one key", http.Header{"User-Agent": {testUA, testUA}}, ""},
		{"blank around the key", http.Header{"User-Agent": {testUA}, " user-agent\t": {other}}, ""},
		{"lower case, the Client's", http.Header{"user-agent": {testUA}}, testUA},
		{"mixed case, the Client's token", http.Header{"uSER-agENT": {"ExampleBot/2.0"}}, "ExampleBot/2.0"},
		{"lower case without values", http.Header{"user-agent": {}}, testUA},
	} {
		w, h2 := newWire(t), newH2Site(t)
		for _, proto := range []string{"HTTP/1.1", "HTTP/2.0"} {
			next, target := http.RoundTripper(&http.Transport{}), w.url()
			if proto == "HTTP/2.0" {
				next, target = h2.Client().Transport, h2.URL
			}
			c, tr := NewClientTransport(next, []Option{WithUserAgent(testUA)})
			req, _ := http.NewRequest(http.MethodGet, target+"/page", nil)
			req.Header = tc.header.Clone()
			resp, err := (&http.Client{Transport: tr}).Do(req)
			if err == nil {
				resp.Body.Close()
			}
			_ = c.Close()
			next.(*http.Transport).CloseIdleConnections()
			var agents []string
			if proto == "HTTP/1.1" {
				agents = fieldValues(w.last(), "User-Agent")
			} else {
				got, a, _, requested := h2.seen()
				if requested && got != proto {
					t.Fatalf("%s: the server spoke %s", tc.name, got)
				}
				agents = a
			}
			switch {
			case tc.sent == "" && !errors.Is(err, ErrAgentMismatch):
				t.Errorf("%s over %s: %v, server saw User-Agent %q; want ErrAgentMismatch", tc.name, proto, err, agents)
			case tc.sent == "" && agents != nil:
				t.Errorf("%s over %s: refused, yet the server saw User-Agent %q", tc.name, proto, agents)
			case tc.sent != "" && (err != nil || !slices.Equal(agents, []string{tc.sent})):
				t.Errorf("%s over %s: %v; the server saw User-Agent %q, want only %q", tc.name, proto, err, agents, tc.sent)
			}
			if !slices.Equal(req.Header["User-Agent"], tc.header["User-Agent"]) {
				t.Errorf("%s over %s: the caller's request was changed", tc.name, proto)
			}
		}
	}
}
