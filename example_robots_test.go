package robotstxt_test

import (
	"fmt"

	"github.com/robotsgate/robotstxt"
)

const exampleBody = `# robots.txt for www.example.com
User-agent: *
Disallow: /private/
Allow: /private/press/
Crawl-delay: 2

User-agent: FooBot
Disallow: /*.pdf$
Crawl-delay: 0.5

Sitemap: https://www.example.com/sitemap.xml
`

func ExampleParse() {
	r := robotstxt.Parse([]byte(exampleBody))
	for _, agent := range []string{"OtherBot", "FooBot"} {
		delay, _ := r.CrawlDelay(agent)
		fmt.Printf("%s: %d rules, crawl-delay %v\n", agent, len(r.Rules(agent)), delay)
	}
	fmt.Println("sitemaps:", r.Sitemaps())
	// Output:
	// OtherBot: 2 rules, crawl-delay 2s
	// FooBot: 1 rules, crawl-delay 500ms
	// sitemaps: [https://www.example.com/sitemap.xml]
}

func ExampleRobots_Allowed() {
	r := robotstxt.Parse([]byte(exampleBody))
	fmt.Println(r.Allowed("OtherBot", "https://www.example.com/private/plans.html"))
	fmt.Println(r.Allowed("OtherBot", "https://www.example.com/private/press/today.html"))
	// FooBot has its own group, so the "*" rules do not apply to it.
	fmt.Println(r.Allowed("FooBot", "https://www.example.com/private/plans.html"))
	fmt.Println(r.Allowed("FooBot", "https://www.example.com/report.pdf"))
	// Output:
	// false
	// true
	// true
	// false
}

func ExampleRobots_Check() {
	r := robotstxt.Parse([]byte(exampleBody))
	for _, url := range []string{"/private/press/today.html", "/private/plans.html", "/index.html"} {
		v := r.Check("OtherBot", url)
		if v.Rule.Line == 0 {
			fmt.Printf("%s: allowed=%v, no rule matches\n", url, v.Allowed)
			continue
		}
		fmt.Printf("%s: allowed=%v by %q on line %d\n", url, v.Allowed, v.Rule.Pattern, v.Rule.Line)
	}
	// Output:
	// /private/press/today.html: allowed=true by "/private/press/" on line 4
	// /private/plans.html: allowed=false by "/private/" on line 3
	// /index.html: allowed=true, no rule matches
}

func ExampleRobots_CrawlDelay() {
	r := robotstxt.Parse([]byte(exampleBody))
	d, ok := r.CrawlDelay("FooBot")
	fmt.Println(d, ok)
	d, ok = r.CrawlDelay("OtherBot")
	fmt.Println(d, ok)
	// Output:
	// 500ms true
	// 2s true
}

func ExampleRobots_Sitemaps() {
	r := robotstxt.Parse([]byte(exampleBody))
	fmt.Println(r.Sitemaps())
	// Output:
	// [https://www.example.com/sitemap.xml]
}

func ExampleParseMode() {
	body := []byte("User-agent: *\nDisallow: /\nDisallow: /~fred/\n")
	google := robotstxt.Parse(body)
	rfc := robotstxt.ParseMode(body, robotstxt.ModeRFC9309)
	// RFC 9309 always allows /robots.txt itself.
	fmt.Println(google.Allowed("FooBot", "/robots.txt"), rfc.Allowed("FooBot", "/robots.txt"))
	// It decodes escaped unreserved characters before comparing, so
	// /%7Efred/ is /~fred/: the longer rule decides.
	fmt.Println(google.Check("FooBot", "/%7Efred/").Rule.Pattern, rfc.Check("FooBot", "/%7Efred/").Rule.Pattern)
	// Output:
	// false true
	// / /~fred/
}
