package parse

import "github.com/robotsgate/robotstxt/internal/ascii"

// Key says what the key of a line names.
type Key uint8

// The keys the parser tells apart. Any other key is KeyOther, an
// extension record.
const (
	KeyNone      Key = iota // the line has no key
	KeyUserAgent            // user-agent, and the accepted misspellings
	KeyAllow
	KeyDisallow
	KeySitemap
	KeyOther
	KeyContentUsage // the Content-Usage rule (see [UsageRule])
	KeyLicense      // the License record of RSL 1.0, file-wide like a sitemap
)

var keyNames = [...]string{"", "user-agent", "allow", "disallow", "sitemap", "other", "content-usage", "license"}

// String returns the standard spelling of the key, such as "user-agent".
func (k Key) String() string {
	if int(k) < len(keyNames) {
		return keyNames[k]
	}
	return "Key(?)"
}

// classify names a key as Google's parser does: ignoring case, by prefix
// ("Disallowed" is disallow), accepting some frequent typos; the keys
// Google's parser does not know, whole.
func classify(key string) (k Key, typo bool) {
	switch key[0] | 0x20 { // lower-cases ASCII letters; key is never empty
	case 'u':
		switch {
		case hasPrefixFold(key, "user-agent"):
			return KeyUserAgent, false
		case hasPrefixFold(key, "useragent"), hasPrefixFold(key, "user agent"):
			return KeyUserAgent, true
		}
	case 'a':
		if hasPrefixFold(key, "allow") {
			return KeyAllow, false
		}
	case 'd':
		switch {
		case hasPrefixFold(key, "disallow"):
			return KeyDisallow, false
		case hasPrefixFold(key, "dissallow"), hasPrefixFold(key, "dissalow"),
			hasPrefixFold(key, "disalow"), hasPrefixFold(key, "diasllow"),
			hasPrefixFold(key, "disallaw"):
			return KeyDisallow, true
		}
	case 's':
		switch {
		case hasPrefixFold(key, "sitemap"):
			return KeySitemap, false
		case hasPrefixFold(key, "site-map"):
			return KeySitemap, true
		}
	case 'c':
		if len(key) == len("content-usage") && hasPrefixFold(key, "content-usage") {
			return KeyContentUsage, false
		}
	case 'l':
		if len(key) == len("license") && hasPrefixFold(key, "license") {
			return KeyLicense, false
		}
	}
	return KeyOther, false
}

// hasPrefixFold reports whether s begins with the lower-case ASCII prefix,
// ignoring ASCII case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if ascii.Lower(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

// knownExtensions are the non-standard records that crawlers commonly
// honour, and Cloudflare's content-signal; any other key is reported as
// unknown, and kept.
var knownExtensions = [...]string{
	"crawl-delay", "request-rate", "visit-time", "host", "clean-param",
	"noindex", "nofollow", "noarchive", "content-signal",
}

// extensionKey returns the number in knownKeys of a known extension.
func extensionKey(raw string) (int, bool) {
	for i, k := range knownExtensions {
		if len(raw) == len(k) && hasPrefixFold(raw, k) {
			return 1 + i, true
		}
	}
	return 0, false
}

// The numbers in knownKeys of "crawl-delay" and "content-signal".
const (
	crawlDelayKey    = 1
	contentSignalKey = 9
)
