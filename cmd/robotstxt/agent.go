package main

import (
	"fmt"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/parser"
)

// defaultAgent is the crawler token used when -agent is not given: the
// product token of the client's default User-Agent.
var defaultAgent = parser.Token(robotstxt.DefaultUserAgent)

// agentToken checks a -agent value. A full User-Agent string such as
// "ExampleBot/1.0" is cut to its product token, as robots.txt groups are
// matched by token only; a value with no token is an error.
func agentToken(v string, e env) (string, error) {
	tok := parser.Token(v)
	if tok == "" {
		return "", fmt.Errorf("agent %q has no product token (letters, '-' and '_')", v)
	}
	if tok != v {
		e.errorf("note: agent %q matched as %q", v, tok)
	}
	return tok, nil
}
