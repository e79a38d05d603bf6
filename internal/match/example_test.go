package match_test

import (
	"fmt"

	"github.com/robotsgate/robotstxt/internal/match"
)

func ExamplePath() {
	fmt.Println(match.Path("https://example.com/a/b;p?q=1#top"))
	fmt.Println(match.Path("https://example.com"))
	fmt.Println(match.Path("example.com?q"))
	// Output:
	// /a/b;p?q=1
	// /
	// /?q
}
