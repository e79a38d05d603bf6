package target

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/match"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct{ raw, key, path string }{
		{"http://example.com", "http://example.com:80", "/"},
		{"https://example.com", "https://example.com:443", "/"},
		{"HTTPS://Example.COM/A/b?Q=1", "https://example.com:443", "/A/b?Q=1"},
		{"http://example.com:8080/x", "http://example.com:8080", "/x"},
		{"http://example.com:080/x", "http://example.com:80", "/x"},
		{"http://example.com:/x", "http://example.com:80", "/x"},
		{"https://user:pass@example.com/x", "https://example.com:443", "/x"},
		{"http://example.com?q=1", "http://example.com:80", "/?q=1"},
		{"http://example.com#top", "http://example.com:80", "/"},
		{"http://example.com/a#b?c", "http://example.com:80", "/a"},
		{"http://example.com/a;p=1?q#f", "http://example.com:80", "/a;p=1?q"},
		{"http://[::1]/x", "http://[::1]:80", "/x"},
		{"http://[2001:DB8:0::1]:8080/", "http://[2001:db8::1]:8080", "/"},
		{"http://127.0.0.1:9/", "http://127.0.0.1:9", "/"},
		{"http://bücher.example/x", "http://xn--bcher-kva.example:80", "/x"},
		{"http://MÜNCHEN.de/", "http://xn--mnchen-3ya.de:80", "/"},
		{"http://b%C3%BCcher.example/", "http://xn--bcher-kva.example:80", "/"},
		{"http://例え.テスト/", "http://xn--r8jz45g.xn--zckzah:80", "/"},
		{"http://under_score.example/", "http://under_score.example:80", "/"},
		{"http://example.com/caf\u00e9", "http://example.com:80", "/caf%C3%A9"},
		{"http://example.com/caf%c3%a9?x=%7e", "http://example.com:80", "/caf%c3%a9?x=%7e"},
		{"http://example.com/a b", "http://example.com:80", "/a%20b"},
		{"http://example.com/%2f", "http://example.com:80", "/%2f"},
		{"http://example.com/a?q=%zz&r=%", "http://example.com:80", "/a?q=%zz&r=%"},
		{"http://example.com/a#f?q=%7E", "http://example.com:80", "/a"},
		{"http://a%40b:p%3A@example.com/", "http://example.com:80", "/"},
		{"http://example.com./x", "http://example.com:80", "/x"}, // a final dot: the same host
		{"http://Example.COM.:80/", "http://example.com:80", "/"},
		{"http://a\uff0etest\uff0e/", "http://a.test:80", "/"},
		// IPv4-mapped IPv6 literals are dialled as the IPv4 address.
		{"http://[::ffff:127.0.0.1]/x", "http://127.0.0.1:80", "/x"},
		{"http://[::FFFF:7F00:1]:8080/", "http://127.0.0.1:8080", "/"},
		{"http://[0:0:0:0:0:ffff:7f00:0001]/", "http://127.0.0.1:80", "/"},
		{"https://[0000::FFFF:10.0.0.1]/", "https://10.0.0.1:443", "/"},
		{"http://[::127.0.0.1]/", "http://[::7f00:1]:80", "/"},           // IPv4-compatible: an IPv6 address
		{"http://\uff11\uff12\uff17.0.0.1/", "http://127.0.0.1:80", "/"}, // full-width digits, mapped as net/http maps them
		{"http://1.example/", "http://1.example:80", "/"},
		{"http://example.x1/", "http://example.x1:80", "/"},
	} {
		key, path, err := Split(tc.raw, nil)
		if err != nil || string(key) != tc.key || path != tc.path {
			t.Errorf("Split(%q) = %q, %q, %v; want %q, %q", tc.raw, key, path, err, tc.key, tc.path)
		}
	}
}

func TestSplitRejects(t *testing.T) {
	if _, path, err := Split("http://example.com/"+strings.Repeat("a", MaxPath-1), nil); err != nil || len(path) != MaxPath {
		t.Errorf("a path of MaxPath bytes: %d bytes, %v", len(path), err)
	}
	for _, raw := range []string{
		"", "/path", "example.com", "ftp://example.com/", "file:///etc/passwd", "http//example.com",
		"http:example.com", "http://", "http:///x", "http://:8080/", "http://user@/x",
		"http://example.com:65536/", "http://example.com:-1/", "http://example.com:1:2/",
		"http://[::1", "http://[::1]x/", "http://[fe80::1%25eth0]/", "http://[1.2.3.4]/",
		"http://exa<mple.com/", "http://example.com\x00/", "http://%zz/", "http://%00/",
		"http://ab\xff/",
		// Schemes compare as ASCII: no "s" is "ſ" (U+017F) there.
		"httpſ://example.com/", "HTTPſ://example.com/",
		// net/url rejects these, so the fetcher could not request them.
		"  http://example.com/x", "http://example.com/x\n", "http://example.com/a\tb",
		"http://example.com/%zz/", "http://example.com/100%", "http://example.com/x#%zz",
		"http://evil.example\\@good.example/x", "http://us er@example.com/", "http://u%zz@example.com/",
		"http://example.com/\x7f",
		// A blank in the query, which net/http sends unescaped and
		// servers read as the end of the request target.
		"http://example.com/index.php?title=X&action=edit ", "http://example.com/?a b",
		// Hosts that end in a number but are not an IPv4 address in
		// dotted decimal: resolvers read them each their own way.
		"http://127.1/", "http://0177.0.0.1/", "http://0x7f.0.0.1/", "http://0X7F000001/", "http://2130706433/",
		"http://127.000.000.001/", "http://127.0.0.01:8080/", "http://127.0.0.1./", "http://256.0.0.1/",
		"http://example.123/", "http://example.0x1f/", "http://example.0x/", "http://\uff11\uff12\uff17.1/",
		"http://EXAMPLE.0X1/", "http://[::ffff:127.0.0.1%25lo]/",
		// Unspecified addresses, which Linux connects to the machine
		// itself; and names net/http dials unmapped.
		"http://0.0.0.0/", "http://[::]/", "http://[::ffff:0.0.0.0]:80/", "http://a\uff3fb.test/",
		// Names net/http's IDNA lookup, over an older golang.org/x/text,
		// composes otherwise (a mark across a vowel sign; a pair past
		// U+FFFF; a Hangul syllable beside Unicode 16's Gurung Khema and
		// Kirat Rai signs, which Go 1.26's tables do not assign) or
		// refuses, and so dials as another name.
		"http://a\u09be\u0316\u0301.test/", "http://\u1099\U000110ba.test/", "http://\u1132\U00011127.test/",
		"http://\uac00\U0001611e\U0001611e.test/", "http://\uac00\U00016d67\U00016d67.test/",
		// An empty label first or last, which no DNS name has, beside
		// the final dot of a name that ends at the root.
		"http://./x", "http://../x", "http://..:80/x", "https://../x", "http://a.test../x", "http://.a.test/x",
		"http://\u3002a.test/x", "http://\uff42.test../x", "http://a.test\u3002./x",
		// A path and query longer than servers accept, as written or
		// once escaped.
		"http://example.com/" + strings.Repeat("a", MaxPath), "http://example.com/?" + strings.Repeat("a", MaxPath),
		"http://example.com/" + strings.Repeat("\u00e9", MaxPath/5),
	} {
		if key, _, err := Split(raw, nil); !errors.Is(err, ErrBadURL) {
			t.Errorf("Split(%q) = %q, %v; want ErrBadURL", raw, key, err)
		}
	}
}

// TestSplitOneKeyPerAddress: every spelling of one address that Go's
// dialer reaches gives one key, so that it is one authority to cache and
// to pace.
func TestSplitOneKeyPerAddress(t *testing.T) {
	for want, spellings := range map[string][]string{
		"http://127.0.0.1:80": {"http://127.0.0.1/", "http://127.0.0.1:80/", "http://127.0.0.1:0080/",
			"http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]:80/", "http://[::FFFF:7F00:0001]/",
			"http://[0:0:0:0:0:ffff:127.0.0.1]/", "http://u@[::ffff:127.0.0.1]:080/"},
		"https://[2001:db8::1]:443": {"https://[2001:db8::1]/", "https://[2001:DB8:0:0:0:0:0:1]:443/",
			"https://[2001:0db8::0001]/"},
	} {
		for _, raw := range spellings {
			if key, _, err := Split(raw, nil); err != nil || string(key) != want {
				t.Errorf("Split(%q) = %q, %v; want %q", raw, key, err, want)
			}
		}
	}
}

func TestIDNAHost(t *testing.T) {
	for in, want := range map[string]string{
		"bücher.de":       "xn--bcher-kva.de",
		"Bücher.DE":       "xn--bcher-kva.de",
		"MÜNCHEN.example": "xn--mnchen-3ya.example",
		"例え.jp":           "xn--r8jz45g.jp",
		"b%C3%BCcher.de":  "xn--bcher-kva.de",
		"bücher\u3002de":  "xn--bcher-kva.de",
	} {
		if got, err := idnaHost(in); err != nil || got != want {
			t.Errorf("idnaHost(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	// A name too long for DNS, whose punycode would cost the square of
	// a label's length, is refused before it is converted.
	var long strings.Builder
	for r := rune(0x10000); long.Len() <= MaxUnicodeHost; r++ {
		long.WriteRune(r)
	}
	// net/http dials a name its IDNA lookup refuses as written.
	for _, bad := range []string{"%zz.de", "b\xffcher.de", "under_score.ü.de", "a\uff3fb.test", "\u05d0.1a.test",
		strings.Repeat("ü.", MaxUnicodeHost/3) + "de", long.String()} {
		if got, err := idnaHost(bad); err == nil {
			t.Errorf("idnaHost(%q) = %q, want an error", bad, got)
		}
	}
}

// TestSplitSent: SplitSent splits as Split a host net/http sends as it
// dials (ASCII, or a name IDNA's lookup leaves as written, escaped or
// not), and refuses one it dials mapped but sends in the Host header
// unmapped (case, width, a soft hyphen, an ideographic full stop).
func TestSplitSent(t *testing.T) {
	for _, raw := range []string{"http://example.com/x", "http://bücher.example/x", "http://Bücher.example/x",
		"http://b%C3%BCcher.example/", "http://例え.テスト/", "http://bücher.example./x", "http://127.0.0.1/"} {
		want, _, _ := Split(raw, nil)
		if key, _, err := SplitSent(raw, nil); err != nil || string(key) != string(want) {
			t.Errorf("SplitSent(%q) = %q, %v; want %q", raw, key, err, want)
		}
	}
	for _, raw := range []string{"http://MÜNCHEN.de/", "http://a\uff0etest\uff0e/", "http://\uff11\uff12\uff17.0.0.1/",
		"http://\uff42.test/", "http://a.test\u00ad/", "http://bücher\u3002de/", "http://B%C3%9CCHER.test/"} {
		if _, _, err := Split(raw, nil); err != nil {
			t.Errorf("Split(%q): %v; want it split as dialled", raw, err)
		}
		if key, _, err := SplitSent(raw, nil); !errors.Is(err, ErrBadURL) {
			t.Errorf("SplitSent(%q) = %q, %v; want ErrBadURL", raw, key, err)
		}
	}
}

func TestSplitNoAlloc(t *testing.T) {
	n := testing.AllocsPerRun(100, func() {
		_, _, _ = Split("https://www.example.com/search/results?q=robots#frag", make([]byte, 0, 64))
	})
	if n != 0 {
		t.Errorf("splitTarget of a plain URL allocates %v times", n)
	}
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{"http://example.com/a?b#c", "https://[::1]:8443/x", "http://bücher.de/é",
		"HTTP://u:p@EXAMPLE.com:0080", "http://%41.example/", "http://b%C3%BCcher.de/", "http://[", "http://a:b:c/",
		"http://evil.example\\@good.example/x", "http://a@b@c/", "http://x/%zz", "http://x/?%zz#%41", "http://example.com./",
		"http://[::ffff:7f00:1]/", "http://127.1/", "http://0x7f.1/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		key, path, err := Split(raw, nil)
		if err != nil {
			if !errors.Is(err, ErrBadURL) {
				t.Fatalf("error %v does not wrap ErrBadURL", err)
			}
			return
		}
		// Every URL the Client checks is one the fetcher can request,
		// and its host is the one net/url sees.
		u, perr := url.Parse(raw)
		if perr != nil {
			t.Fatalf("splitTarget accepts %q, net/url rejects it: %v", raw, perr)
		}
		// The key drops a final dot: "example.com." is example.com.
		h := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
		if h != "" && ascii.IsASCII(h) && !strings.ContainsAny(h, "%:") &&
			!strings.Contains(string(key), "//"+h+":") {
			t.Fatalf("Split(%q) key %q, net/url host %q", raw, key, u.Hostname())
		}
		k := string(key)
		// A host Go's dialer reads as an address has that address's key,
		// IPv4-mapped ones unmapped; one that ends in a number is one.
		if ip := net.ParseIP(u.Hostname()); ip != nil {
			a, _ := netip.AddrFromSlice(ip)
			want := a.Unmap().String()
			if a.Unmap().Is6() {
				want = "[" + want + "]"
			}
			if !strings.Contains(k, "//"+want+":") {
				t.Fatalf("Split(%q) key %q, dialled as %s", raw, key, want)
			}
		} else if h := k[strings.Index(k, "//")+2 : strings.LastIndexByte(k, ':')]; endsInNumber(h) {
			t.Fatalf("Split(%q) key %q: a host that ends in a number, not an address", raw, key)
		}
		if !strings.HasPrefix(k, "http://") && !strings.HasPrefix(k, "https://") || !strings.Contains(k[8:], ":") {
			t.Fatalf("key %q", k)
		}
		if path == "" || path[0] != '/' {
			t.Fatalf("path %q", path)
		}
		for i := 0; i < len(path); i++ {
			if c := path[i]; c <= ' ' || c >= 0x7f || c == '#' {
				t.Fatalf("path %q has byte %#x", path, c)
			}
		}
	})
}

// sentPath is the reference for matchPath: the path and query net/http
// sends for a URL whose part after the authority is tail (net/url's
// RequestURI), bytes above 0x7f in the query escaped; ok is false when
// net/url rejects it.
func sentPath(tail string) (_ string, ok bool) {
	u, err := url.Parse("http://h" + tail)
	if err != nil {
		return "", false
	}
	var b []byte
	for _, c := range []byte(u.RequestURI()) {
		if c >= 0x80 {
			b = ascii.AppendEscape(b, c)
		} else {
			b = append(b, c)
		}
	}
	return string(b), true
}

// TestMatchPath: the path is checked as net/http sends it. A path net/url
// keeps as it is stays byte for byte; one with a blank, a byte above 0x7f
// or one of "<>\^`{|} is sent decoded and escaped again, and a rule
// written for what is sent (eBay's "Disallow: /itm/*/%7B%7B") must see it.
func TestMatchPath(t *testing.T) {
	for in, want := range map[string]string{
		"":                   "/",
		"/":                  "/",
		"/a/b?c=d":           "/a/b?c=d",
		"/a b":               "/a%20b",
		"/café":              "/caf%C3%A9",
		"/%7efred":           "/%7efred",
		"/x#frag":            "/x",
		"?q=1":               "/?q=1",
		"/100%25":            "/100%25",
		"/%2f/x?%zz":         "/%2f/x?%zz",
		"/caf%c3%a9 x":       "/caf%C3%A9%20x",
		"/itm/123/{{title}}": "/itm/123/%7B%7Btitle%7D%7D",
		"/x{/%70rivate":      "/x%7B/private",
		"/a%2Fb|c?q={x}&r=é": "/a/b%7Cc?q={x}&r=%C3%A9",
		"/a!*'()[]~^":        "/a%21%2A%27%28%29%5B%5D~%5E",
		"/a!*'()[]~":         "/a!*'()[]~",
		"/é%3f%25#x{":        "/%C3%A9%3F%25",
		"/plain/path?q={x}`": "/plain/path?q={x}`",
	} {
		var buf [8]byte
		if got, why := matchPath(in, buf[:0]); got != want || why != "" {
			t.Errorf("matchPath(%q) = %q, %q; want %q", in, got, why, want)
		}
		if ref, _ := sentPath(in); ref != want {
			t.Errorf("net/url sends %q as %q, the table says %q", in, ref, want)
		}
	}
}

// FuzzMatchPath checks the one-pass path extraction against net/url, for
// every tail that Split passes on (empty, or starting with '/', '?' or
// '#'): it refuses what net/url refuses, a blank in the query, and a
// control character in the fragment, which net/url lets by.
func FuzzMatchPath(f *testing.F) {
	for _, s := range []string{"", "/", "/a b", "?q=é", "/café/x?q=%zz#f é", "/%41", "/a#b c", "/\x7f", "/{%2F}", "/^ab%7e|", "/abcdefgh<ijk"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tail string) {
		if tail != "" && strings.IndexByte("/?#", tail[0]) < 0 {
			return
		}
		var buf [64]byte
		path, why := matchPath(tail, buf[:0])
		want, ok := sentPath(tail)
		switch {
		case why == "" && !ok:
			t.Fatalf("matchPath(%q) = %q; net/url rejects it", tail, path)
		case why != "" && ok && why != "a blank in the query" && why != "control character":
			t.Fatalf("matchPath(%q) refuses it (%s); net/url sends %q", tail, why, want)
		case why == "" && path != want:
			t.Fatalf("matchPath(%q) = %q, net/url sends %q", tail, path, want)
		}
	})
}

// TestPlain puts every byte at every place of paths that end inside and
// past plain's eight-byte steps, and checks plain accepts exactly those
// of '!' to 'z' that net/url sends as they are, but '%' and '#'.
func TestPlain(t *testing.T) {
	const base = "/shop/garden/x?q=1"
	for c := range 256 {
		want := '!' <= c && c <= 'z' && c != '%' && c != '#' && !strings.ContainsRune(match.ResentBytes, rune(c))
		for n := 1; n <= len(base); n++ {
			for i := range n {
				s := base[:i] + string([]byte{byte(c)}) + base[i+1:n]
				if got := plain(s); got != want {
					t.Fatalf("plain(%q) = %v, want %v", s, got, want)
				}
			}
		}
	}
}

// FuzzPlainAuthority checks that the one-pass reading of a plain
// authority agrees with the general one wherever it answers.
func FuzzPlainAuthority(f *testing.F) {
	for _, s := range []string{"example.com/x", "example.com:8080?q", "a:0/", "a:65535", "a:65536", "a:08/", "-.x_/#", ":80/", "A.com/", "a@b/", "a:1x/"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, rest string, https bool) {
		fast, ftail, ok := appendPlainAuthority([]byte("s://"), rest, https)
		if !ok {
			return
		}
		slow, stail, err := appendAuthority([]byte("s://"), rest, https, true)
		if err != nil || string(fast) != string(slow) || ftail != stail {
			t.Fatalf("%q: fast %q %q, general %q %q %v", rest, fast, ftail, slow, stail, err)
		}
	})
}

// BenchmarkSplit splits URLs of each kind of host.
func BenchmarkSplit(b *testing.B) {
	buf := make([]byte, 0, 128)
	for _, bc := range []struct{ name, raw string }{
		{"name", "https://www.example.com/search/results?q=robots"},
		{"port", "http://shop.example.co.uk:8080/cart"},
		{"ipv4", "http://192.0.2.10:8080/x"},
		{"ipv6", "http://[2001:db8::1]/x"},
		{"idn", "http://bücher.example/x"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				_, _, _ = Split(bc.raw, buf)
			}
		})
	}
}

func TestEndsInNumber(t *testing.T) {
	for name, want := range map[string]bool{
		"1": true, "127.0.0.1": true, "a.123": true, "0x": true, "a.0X1f": true, "0x7f000001": true, "a.0x": true,
		"": false, "a": false, "example.com": false, "example.de": false, "abc": false, "1.example": false,
		"a.x1": false, "a.0x0x1": false, "a.00x1": false, "a.1x": false, "a.0xg": false, "a.1f": false, "x0x1": false,
	} {
		if got := endsInNumber(name); got != want {
			t.Errorf("endsInNumber(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestSplitRetainsNoIDNHost: netHTTPDials' probe Transport kept, with
// keep-alives on, a waiting list for every host it was asked (ended only
// by a connection gone idle, which never comes): every distinct
// internationalised host Split saw stayed in memory.
func TestSplitRetainsNoIDNHost(t *testing.T) {
	const n = 20000
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	for i := range n {
		if _, _, err := Split(fmt.Sprintf("http://bücher-%d.test/page", i), nil); err != nil {
			t.Fatal(err)
		}
	}
	after := heap()
	grown := int64(after) - int64(before)
	t.Logf("%s: heap grew %d bytes over %d distinct IDN hosts (%d B/host), all results discarded", runtime.Version(), grown, n, grown/n)
	if grown > 2<<20 {
		t.Errorf("Split of %d distinct IDN hosts (results discarded) left %d bytes live (%d B per host): "+
			"the probe Transport's idleConnWait keeps one entry per host forever; want memory that does not grow with hosts seen",
			n, grown, grown/n)
	}
}
