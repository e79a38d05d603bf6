package parser_test

import (
	"fmt"

	"github.com/robotsgate/robotstxt/parser"
)

func ExampleLines() {
	body := "User-agent: FooBot\n" +
		"disallow /private # no colon\n" +
		"dissallow: /tmp\n" +
		"just some words here\n"
	for l := range parser.Lines(body) {
		fmt.Printf("%d %-10q %-10q missing-colon=%v typo=%v comment=%v junk=%v empty=%v\n",
			l.Num, l.Key.String(), l.Value,
			l.Flags&parser.FlagMissingColon != 0, l.Flags&parser.FlagTypo != 0,
			l.Flags&parser.FlagComment != 0, l.Flags&parser.FlagNoKey != 0,
			l.Flags&parser.FlagEmpty != 0)
	}
	// Output:
	// 1 "user-agent" "FooBot"   missing-colon=false typo=false comment=false junk=false empty=false
	// 2 "disallow" "/private" missing-colon=true typo=false comment=true junk=false empty=false
	// 3 "disallow" "/tmp"     missing-colon=false typo=true comment=false junk=false empty=false
	// 4 ""         ""         missing-colon=false typo=false comment=false junk=true empty=false
	// 5 ""         ""         missing-colon=false typo=false comment=false junk=false empty=true
}

func ExampleParse() {
	// Parse reports what it skipped, tolerated or cut, for a linter.
	f := parser.Parse([]byte("Disallow: /early\n" +
		"User-agent FooBot\n" +
		"dissallow: /tmp\n" +
		"<html>\n" +
		"Crawl-delay: soon\n"))
	for _, d := range f.Diagnostics {
		fmt.Println(d)
	}
	// Output:
	// line 1: rule outside any group: "/early"
	// line 2: missing colon accepted: "User-agent"
	// line 3: misspelt key accepted: "dissallow"
	// line 4: not a key-value line
	// line 5: value does not parse: "soon"
}
