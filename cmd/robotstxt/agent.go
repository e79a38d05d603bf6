package main

import (
	"fmt"

	"github.com/robotsgate/robotstxt"
)

// defaultAgent is the crawler token used when -agent is not given: the
// product token of the Client's default User-Agent, derived as the Client
// derives it.
var defaultAgent = func() string {
	tok, err := robotstxt.ProductToken(robotstxt.DefaultUserAgent)
	if err != nil {
		panic(err) // the library's own header always names its product
	}
	return tok
}()

// agentToken checks a -agent value. A full User-Agent string, such as
// "ExampleBot/1.0" or "Mozilla/5.0 (compatible; XBot/1.0)", gives the
// product token the Client derives from it with robotstxt.ProductToken,
// as robots.txt groups are matched by token only; a value from which no
// token can be derived is an error.
func agentToken(v string, e env) (string, error) {
	tok, err := robotstxt.ProductToken(v)
	if err != nil {
		return "", fmt.Errorf("-agent %q: no product token can be derived from it; give the token itself, such as -agent ExampleBot", v)
	}
	if tok != v {
		e.errorf("note: agent %q matched as %q", v, tok)
	}
	return tok, nil
}
