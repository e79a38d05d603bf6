package robotstxt_test

import (
	"fmt"

	"github.com/robotsgate/robotstxt"
)

// A statement of preference from a Content-Usage header field or
// robots.txt rule: training AI models is disallowed, search allowed; the
// String "n" and the unknown label ai state no preference.
func ExampleParseUsage() {
	u := robotstxt.ParseUsage(`train-ai=n, search=y;since=2025, ai="n"`)
	fmt.Println(u.Pref("train-ai"), u.Pref("search"), u.Pref("ai"))
	fmt.Println(u)

	// A statement that is not a Dictionary states nothing.
	bad := robotstxt.ParseUsage("Train-AI=n")
	fmt.Println(bad.Pref("train-ai"), bad == robotstxt.Usage{})
	// Output:
	// n y unknown
	// train-ai=n, search=y
	// unknown true
}
