package matcher_test

import (
	"fmt"

	"github.com/robotsgate/robotstxt/matcher"
)

func ExampleMatch() {
	fmt.Println(matcher.Match("/*.php$", "/folder/index.php"))
	fmt.Println(matcher.Match("/*.php$", "/index.php?x=1"))
	fmt.Println(matcher.Match("/fish", "/Fish.html"))
	fmt.Println(matcher.Match("", "/"))
	// Output:
	// true
	// false
	// false
	// false
}

func ExampleEscape() {
	fmt.Println(matcher.Escape("/foo/bar/ツ"))
	fmt.Println(matcher.Escape("/%7efred"))
	// Output:
	// /foo/bar/%E3%83%84
	// /%7Efred
}

func ExamplePath() {
	fmt.Println(matcher.Path("https://example.com/a/b;p?q=1#top"))
	fmt.Println(matcher.Path("https://example.com"))
	fmt.Println(matcher.Path("example.com?q"))
	// Output:
	// /a/b;p?q=1
	// /
	// /?q
}
