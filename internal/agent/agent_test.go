package agent

import (
	"errors"
	"testing"

	"github.com/robotsgate/robotstxt/internal/parse"
)

func TestProductToken(t *testing.T) {
	for _, tc := range []struct {
		ua, want string // want "" for an error
	}{
		// Googlebot desktop, old and current, and smartphone.
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/120.0.6099.129 Safari/537.36", "Googlebot"},
		{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.129 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		{"Googlebot-Image/1.0", "Googlebot-Image"},
		{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36", "bingbot"},
		{"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "YandexBot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)", "ClaudeBot"},
		{"Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)", "Bytespider"},
		{"Mozilla/5.0 (compatible; XBot/1.0; +https://example.com/bot)", "XBot"},
		// GPTBot's "compatible;" stands outside any comment.
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot", "GPTBot"},
		{"Mozilla/5.0 (X11) Gecko/20100101 XBot/2", "XBot"},
		{"ExampleBot/1.0 (+https://x)", "ExampleBot"},
		{"ExampleBot", "ExampleBot"},
		{"curl/8.4.0", "curl"},
		{"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "facebookexternalhit"},
		{"DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)", "DuckDuckBot"},
		{"Twitterbot/1.0", "Twitterbot"},
		{"robotstxt/1.0 (+https://github.com/robotsgate/robotstxt)", "robotstxt"},
		{DefaultUserAgent, "robotstxt"},
		// A browser's product or a platform after "compatible;" is not
		// the crawler's (LinkedIn's, Mail.RU's: none can be told).
		{"LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)", "LinkedInBot"},
		{"ExampleBot/1.0 (compatible; Mozilla/5.0; +https://example.com/bot)", "ExampleBot"},
		{"Mozilla/5.0 (compatible; Linux x86_64; Mail.RU_Bot/2.0; +https://help.mail.ru/webmaster/indexing/robots)", ""},
		{"Mozilla/5.0 (compatible; Windows NT 6.1; XBot/1.0)", ""},
		// Browsers, and products no user-agent line can name.
		{"Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko", ""},
		{"Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0)", ""},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1", ""},
		{"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36", ""},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 YaBrowser/24.1.0.0 Safari/537.36", ""},
		{"Opera/9.80 (Windows NT 6.1) Presto/2.12.388 Version/12.16", ""},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", ""},
		{"Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0", ""},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1", ""},
		{"Mozilla/5.0", ""},
		{"Mozilla/5.0 (compatible; 123bot/1.0)", ""},
		{"123bot/1.0", ""},
		{"bot2000/1.0", ""},
		{"", ""},
		{"   ", ""},
		{"(just a comment)", ""},
		// Bytes that lower-casing would resize before "compatible;".
		{"\xff\xff\xff\xff\xff\xff\xff\xff(compatible; XBot)", "XBot"},
		{"Mozilla/5.0 (İİİİİİİİİİİİ; COMPATIBLE; XBot/1.0)", "XBot"},
		// The crawler's own product first, whatever it is compatible with.
		{"LinkedInBot/1.0 (compatible; Apache-HttpClient +http://www.linkedin.com)", "LinkedInBot"},
		{"OtherBot/2.0 (compatible; ExampleBot/1.0; +https://other.example/bot)", "OtherBot"},
		// The crawler's own product no token: not a later product's.
		{"MJ12bot/v1.4.8 Googlebot/2.1 (+http://mj12bot.com/)", ""},
		{"MJ12bot/v1.4.8 (compatible; Googlebot/2.1; +http://mj12bot.com/)", ""},
		{"Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/) Googlebot/2.1", ""},
		{"123bot/1.0 curl/8.4.0", ""},
		// A name in another script, or with other token characters.
		{"ÜberBot/1.0 (compatible; Googlebot/2.1; +https://uber.example/bot)", ""},
		{"Crawlé/1.0 (compatible; Googlebot/2.1)", ""},
		{"ÜberBot/1.0 curl/8.4.0", ""},
		{"Crawler+/1.0 (compatible; Googlebot/2.1)", ""},
		{"बॉट/1.0 (compatible; Googlebot/2.1)", ""},          // marks
		{"Crawle\u0301/1.0 (compatible; Googlebot/2.1)", ""}, // decomposed
		{"Bot\u0661/1.0 curl/8.4.0", ""},                     // an Arabic-Indic digit
		{"'Mozilla/5.0 (compatible; XBot/1.0)'", "XBot"},     // pasted with its quotes
		{"O'ReillyBot/1.0 (compatible; Googlebot/2.1)", ""},
		{"Mozilla/5.0 (compatible; D'Artagnan/1.0) curl/8.4.0", ""},
		{"İİİİİİİİİİİİ Mozilla/5.0 (COMPATIBLE; XBot/1.0)", ""},
		{"Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot) Zeno/6ab3b2f warc/v0.8.47", ""},
		{"Mozilla/5.0 (compatible) AI2Bot (+https://www.allenai.org/crawler) ExampleBot/1.0", ""},
	} {
		got, err := ProductToken(tc.ua)
		switch {
		case tc.want == "" && (!errors.Is(err, ErrProductToken) || got != ""):
			t.Errorf("ProductToken(%q) = %q, %v; want ErrProductToken", tc.ua, got, err)
		case tc.want != "" && (got != tc.want || err != nil):
			t.Errorf("ProductToken(%q) = %q, %v; want %q", tc.ua, got, err, tc.want)
		}
	}
}

// TestFirstProduct: the product a User-Agent begins with, which a site
// reads as the crawler's, whether or not a user-agent line can name it.
func TestFirstProduct(t *testing.T) {
	for ua, want := range map[string]string{
		"Googlebot/2.1 (compatible; XBot/1.0)":   "Googlebot",
		"MJ12bot/v1.4.8 (compatible; XBot/1.0)":  "MJ12bot",
		"360Spider (compatible; XBot/1.0)":       "360Spider",
		"Mail.RU_Bot/2.0 (compatible; XBot/1.0)": "Mail.RU_Bot",
		"Googlebot\t(compatible; XBot/1.0)":      "Googlebot",
		"Googlebot(compatible; XBot/1.0)":        "Googlebot",
		" XBot; +https://example.com":            "XBot",
		"Mozilla/5.0 (compatible; XBot/1.0)":     "",
		"compatible; XBot/1.0":                   "",
		"(compatible; XBot/1.0)":                 "",
		"":                                       "",
	} {
		if got := FirstProduct(ua); got != want {
			t.Errorf("FirstProduct(%q) = %q, want %q", ua, got, want)
		}
	}
}

// FuzzProductToken: any User-Agent header, a request's included, gives a
// valid token or ErrProductToken, never a panic; a token it gives is one
// a user-agent line can name.
func FuzzProductToken(f *testing.F) {
	f.Add("Mozilla/5.0 (compatible; XBot/1.0; +https://example.com/bot)")
	f.Add("\xff(compatible; X)")
	f.Add("İ (CompatiblE; Y/1)")
	f.Fuzz(func(t *testing.T, ua string) {
		tok, err := ProductToken(ua)
		if (err == nil) != parse.ValidToken(tok) || err != nil && !errors.Is(err, ErrProductToken) {
			t.Fatalf("ProductToken(%q) = %q, %v", ua, tok, err)
		}
	})
}
