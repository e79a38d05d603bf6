package main

import (
	"fmt"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

// defaultUserAgent is the User-Agent header the commands send with
// robots.txt requests, unless check's -ua says otherwise: the Client's
// default, which a test holds it to.
const defaultUserAgent = "robotstxt/1.0 (+https://github.com/robotsgate/robotstxt)"

// defaultAgent is the crawler token used when -agent is not given: the
// product token of the Client's default User-Agent, derived as the Client
// derives it.
var defaultAgent = func() string {
	tok, ok := productToken(defaultUserAgent)
	if !ok {
		panic("robotstxt: the default User-Agent names no product") // the library's own header always names its product
	}
	return tok
}()

// productToken returns the product token a Client sending ua as its
// User-Agent header matches user-agent lines with, as its receipts name
// it (see robotstxt.WithUserAgent); false when it derives none.
func productToken(ua string) (string, bool) {
	c, rt := robotstxt.NewClientTransport(nil, []robotstxt.Option{robotstxt.WithUserAgent(ua)})
	defer c.Close()
	tok := rt.Receipt(nil, nil).Agent
	return tok, tok != ""
}

// agentToken checks a -agent value. A product token, as a user-agent
// line names one (Mozilla too, which no User-Agent header gives), is the
// token; a full User-Agent string, such as "ExampleBot/1.0" or
// "Mozilla/5.0 (compatible; XBot/1.0)", gives the product token the
// Client derives from it, as robots.txt groups are matched by token
// only; a value from which no token can be derived is an error.
func agentToken(v string, e env) (string, error) {
	if f := parser.Parse([]byte("User-agent: " + v + "\n")); v != "" && len(f.Groups) == 1 && f.Groups[0].Agents[0].Token == v {
		return v, nil // read whole as a user-agent line's token
	}
	tok, ok := productToken(v)
	if !ok {
		return "", fmt.Errorf("-agent %q: no product token can be derived from it; give the token itself, such as -agent ExampleBot", v)
	}
	if tok != v {
		e.errorf("note: agent %q matched as %q", v, tok)
	}
	return tok, nil
}

// uaToken returns the product token that the Client derives from the
// User-Agent header ua, and matches user-agent lines with when check is
// given no -agent; an error, which says to give -agent, when it derives
// none.
func uaToken(ua string) (string, error) {
	tok, ok := productToken(ua)
	if !ok {
		return "", fmt.Errorf("user agent %q has no product token; give -agent", ua)
	}
	return tok, nil
}
