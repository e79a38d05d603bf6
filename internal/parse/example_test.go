package parse_test

import (
	"fmt"

	"github.com/robotsgate/robotstxt/internal/parse"
)

func ExampleLines() {
	body := "User-agent: FooBot\n" +
		"disallow /private # no colon\n" +
		"dissallow: /tmp\n" +
		"just some words here\n"
	for l := range parse.Lines(body) {
		fmt.Printf("%d %-10q %-10q missing-colon=%v typo=%v comment=%v junk=%v empty=%v\n",
			l.Num, l.Key.String(), l.Value,
			l.Flags&parse.FlagMissingColon != 0, l.Flags&parse.FlagTypo != 0,
			l.Flags&parse.FlagComment != 0, l.Flags&parse.FlagNoKey != 0,
			l.Flags&parse.FlagEmpty != 0)
	}
	// Output:
	// 1 "user-agent" "FooBot"   missing-colon=false typo=false comment=false junk=false empty=false
	// 2 "disallow" "/private" missing-colon=true typo=false comment=true junk=false empty=false
	// 3 "disallow" "/tmp"     missing-colon=false typo=true comment=false junk=false empty=false
	// 4 ""         ""         missing-colon=false typo=false comment=false junk=true empty=false
	// 5 ""         ""         missing-colon=false typo=false comment=false junk=false empty=true
}
