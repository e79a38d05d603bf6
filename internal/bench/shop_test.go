package bench

import (
	"testing"

	robotsgate "github.com/robotsgate/robotstxt"
)

// This file uses only Parse and Robots.Allowed, which every version of
// the engine has, so that it can be copied into an older checkout's
// internal/bench and run there beside this one.

// shop is the robots.txt of a mid-sized shop: a group for the crawler
// checked (shopAgent, 16 rules), a two-agent group that shuts out
// scrapers, and "*" (10 rules), with wildcards, "$" anchors, allow
// overrides and a crawl-delay. Every group is small, as in most real
// files.
const shop = `User-agent: FooBot
Disallow: /cart
Disallow: /checkout/
Disallow: /account/
Disallow: /search?*
Disallow: /*?sessionid=
Disallow: /*&sessionid=
Disallow: /*?sort=
Disallow: /*.pdf$
Disallow: /shop/*/reviews/
Disallow: /wishlist
Disallow: /compare/
Allow: /search?q=*&page=1$
Allow: /shop/*/reviews/$
Allow: /account/login
Disallow: /*/print$
Disallow: /tmp/

User-agent: BadBot
User-agent: EvilScraper
Disallow: /

User-agent: *
Crawl-delay: 5
Disallow: /cart
Disallow: /checkout/
Disallow: /account/
Disallow: /search
Disallow: /*?*utm_
Disallow: /*.json$
Allow: /search/help$
Disallow: /api/
Allow: /api/docs/
Disallow: /admin/

Sitemap: https://shop.example.com/sitemap.xml
`

// shopAgent is the crawler BenchmarkShopCheck checks for.
const shopAgent = "FooBot"

// shopChecks are the paths BenchmarkShopCheck cycles through, with the
// answer for shopAgent: a product page that no rule matches (every rule
// is tried), one a wildcard disallow decides, an allow override, a '$'
// disallow and a plain allow.
var shopChecks = []struct {
	path  string
	allow bool
}{
	{"/shop/garden/tools/spade-1234.html?color=green", true},
	{"/shop/garden/tools/spade-1234.html?color=green&sessionid=8f3a9c", false},
	{"/search?q=spade&page=1", true},
	{"/manuals/spade-1234.pdf", false},
	{"/account/login?next=/cart", true},
}

// TestShopAnswers checks the answers BenchmarkShopCheck relies on.
func TestShopAnswers(t *testing.T) {
	r := robotsgate.Parse([]byte(shop))
	for _, c := range shopChecks {
		if got := r.Allowed(shopAgent, c.path); got != c.allow {
			t.Errorf("Allowed(%s, %s) = %v, want %v", shopAgent, c.path, got, c.allow)
		}
	}
	if r.Allowed("BadBot", "/") || r.Allowed("OtherBot", "/cart") || !r.Allowed("OtherBot", "/search/help") {
		t.Error("the other groups decide wrongly")
	}
}

// BenchmarkShopCheck is Robots.Allowed(shopAgent, path) against the shop
// file, one op one check, cycling through shopChecks: the everyday
// check of a crawler against a small file.
func BenchmarkShopCheck(b *testing.B) {
	r := robotsgate.Parse([]byte(shop))
	sinkBool = r.Allowed(shopAgent, "/") // what the first check builds
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		sinkBool = r.Allowed(shopAgent, shopChecks[i].path)
		if i++; i == len(shopChecks) {
			i = 0
		}
	}
}
