// Package target splits a URL, as the Client and the robotstxt command
// read it before every check, into the normalised authority whose
// robots.txt applies and the path that rules are matched against.
package target

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/net/http/httpguts"
	"golang.org/x/net/idna"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/match"
	"github.com/robotsgate/robotstxt/internal/quote"
)

// ErrBadURL is wrapped by every error of [Split]: a URL the Client cannot
// check. The robotstxt package exports it as its own.
var ErrBadURL = errors.New("robotstxt: bad URL")

func badURL(raw, why string) error {
	return fmt.Errorf("%w %q: %s", ErrBadURL, quote.Cut(redact(raw), quote.Max), why)
}

// redact removes the userinfo from a URL, even a malformed one, for an error.
func redact(raw string) string {
	colon := strings.IndexByte(raw, ':')
	if colon < 0 || !isScheme(raw[:colon]) {
		// No scheme: a colon may be that of "alice:secret@".
		if strings.IndexByte(raw, '@') >= 0 {
			return "(URL withheld: it may hold credentials)"
		}
		return raw
	}
	start := colon + 1
	for start < len(raw) && (raw[start] == '/' || raw[start] == '\\') {
		start++
	}
	// Drop up to the last '@', even past a '/', '?' or '#': in a URL
	// too broken to split, a password may hold them.
	if at := strings.LastIndexByte(raw[start:], '@'); at >= 0 {
		return raw[:start] + raw[start+at+1:]
	}
	return raw
}

// isScheme reports whether s is a URL scheme: a letter, then letters,
// digits, '+', '-' and '.' (RFC 3986 §3.1).
func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return s != ""
}

// Split checks raw and splits it into the normalised authority key,
// appended to buf (scheme and host lower-cased, a final dot and userinfo
// dropped, default port explicit, internationalised names in punycode,
// IPv6 literals canonical and IPv4-mapped ones unmapped), and the path,
// params and query to match (see matchPath). It rejects, with an error
// wrapping [ErrBadURL], every URL that net/url rejects, and hosts with
// characters no DNS name has, or an empty label first or last, or that
// end in a number without being an IPv4 address (see checkName), ports
// over 65535, schemes other than http and https, and a path and query
// over [MaxPath] bytes. It allocates only when host or path needs
// rewriting. A host is split as net/http dials it, which for some
// internationalised names is not the name it sends (see [SplitSent]).
func Split(raw string, buf []byte) (key []byte, path string, err error) {
	return split(raw, buf, false)
}

// SplitSent is Split for a URL that a caller's own http.Client sends as
// it is: it also rejects a host that net/http dials mapped by IDNA's
// lookup profile but writes in the Host header unmapped, by its Punycode
// profile ("ｂ.test" is dialled as b.test, asked for as xn--ni7c.test):
// the name a server picks its site by is another site's.
func SplitSent(raw string, buf []byte) (key []byte, path string, err error) {
	return split(raw, buf, true)
}

func split(raw string, buf []byte, sent bool) (key []byte, path string, err error) {
	https, rest := false, ""
	switch {
	case strings.HasPrefix(raw, "https://"):
		https, rest = true, raw[len("https://"):]
	case strings.HasPrefix(raw, "http://"):
		rest = raw[len("http://"):]
	default:
		scheme, after, ok := strings.Cut(raw, ":")
		https = ascii.EqualFold(scheme, "https")
		switch {
		case !ok:
			return nil, "", badURL(raw, "no scheme")
		case !https && !ascii.EqualFold(scheme, "http"):
			return nil, "", badURL(raw, "scheme is not http or https")
		}
		if rest, ok = strings.CutPrefix(after, "//"); !ok {
			return nil, "", badURL(raw, "no authority")
		}
	}
	if https {
		key = append(buf[:0], "https://"...)
	} else {
		key = append(buf[:0], "http://"...)
	}
	n := len(key)
	key, tail, ok := appendPlainAuthority(key, rest, https)
	if !ok {
		if key, tail, err = appendAuthority(key[:n], rest, https, sent); err != nil {
			return nil, "", badURL(raw, err.Error())
		}
	}
	path, why := matchPath(tail, key)
	if why == "" && len(path) > MaxPath {
		why = fmt.Sprintf("path and query of %d bytes, more than servers accept", len(path))
	}
	if why != "" {
		return nil, "", badURL(raw, why)
	}
	return key, path, nil
}

// MaxPath bounds the path and query of a URL Split accepts: servers
// refuse longer request lines (nginx and Apache at 8 KiB), and a check
// of a longer one against a hostile file's wildcard rules, each matched
// across the path, would cost far more than any page is worth.
const MaxPath = 8 << 10

// appendPlainAuthority is appendAuthority in one pass for the common
// case, a host of hostClass 0 and perhaps a port without leading zeros;
// ok is false for anything else.
func appendPlainAuthority(key []byte, rest string, https bool) (_ []byte, tail string, ok bool) {
	i := 0
	for i+8 <= len(rest) && hostClass[rest[i]]|hostClass[rest[i+1]]|hostClass[rest[i+2]]|hostClass[rest[i+3]]|
		hostClass[rest[i+4]]|hostClass[rest[i+5]]|hostClass[rest[i+6]]|hostClass[rest[i+7]] == 0 {
		i += 8 // as plain does
	}
	for i < len(rest) && hostClass[rest[i]] == 0 {
		i++
	}
	if i == 0 || rest[i-1] == '.' || rest[0] == '.' {
		return key, "", false // for appendHost to read, or refuse
	}
	if c := rest[i-1]; (ascii.IsHex(c) || c == 'x') && checkName(rest[:i], rest[:i], false) != nil {
		return key, "", false // for appendHost to refuse
	}
	key = append(append(key, rest[:i]...), ':')
	if i == len(rest) || rest[i] == '/' || rest[i] == '?' || rest[i] == '#' {
		return append(key, defaultPort(https)...), rest[i:], true
	}
	if rest[i] != ':' {
		return key, "", false
	}
	j := i + 1
	for j < len(rest) && '0' <= rest[j] && rest[j] <= '9' {
		j++
	}
	port := rest[i+1 : j]
	if port == "" || port[0] == '0' || len(port) > 5 || len(port) == 5 && port > "65535" ||
		j < len(rest) && rest[j] != '/' && rest[j] != '?' && rest[j] != '#' {
		return key, "", false
	}
	return append(key, port...), rest[j:], true
}

// appendAuthority appends the normalised host and port of the authority
// that starts rest to key, and returns the rest of the URL after it.
func appendAuthority(key []byte, rest string, https, sent bool) (_ []byte, tail string, err error) {
	end := 0
	for end < len(rest) && rest[end] != '/' && rest[end] != '?' && rest[end] != '#' {
		end++
	}
	auth, tail := rest[:end], rest[end:]
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		if why := checkUserinfo(auth[:at]); why != "" {
			return nil, "", errors.New(why)
		}
		auth = auth[at+1:]
	}
	host, port, ok := splitHostPort(auth)
	if !ok {
		return nil, "", errors.New("malformed port")
	}
	if key, err = appendHost(key, host, sent); err != nil {
		return nil, "", err
	}
	if port == "" {
		port = defaultPort(https)
	}
	return append(append(key, ':'), port...), tail, nil
}

func defaultPort(https bool) string {
	if https {
		return "443"
	}
	return "80"
}

// checkUserinfo reports why net/url would reject u as userinfo, or "".
func checkUserinfo(u string) string {
	for i := 0; i < len(u); i++ {
		switch c := u[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-._:~!$&'()*+,;=@", c) >= 0:
		case ascii.IsEscape(u, i):
			i += 2
		default:
			return "invalid userinfo"
		}
	}
	return ""
}

// tailClass sorts bytes for matchPath: 0 need no look, 1 net/url rejects,
// 2 end or change a part, 3 are escaped, 4 are escaped in a path only,
// and 5 are escaped in a path that is escaped again. A path with a byte
// of 3 or 4 is sent decoded and escaped again.
var tailClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c < ' ' || c == 0x7f:
			t[c] = 1
		case c == '%', c == '?', c == '#':
			t[c] = 2
		case c == ' ' || c >= 0x80:
			t[c] = 3
		case strings.IndexByte(match.ResentBytes, byte(c)) >= 0:
			t[c] = 4
		case strings.IndexByte("!'()*[]", byte(c)) >= 0:
			t[c] = 5
		}
	}
	return t
}()

// matchPath returns the path, params and query of tail, the part of a URL
// after the authority, as net/http sends them and rules are matched
// against them, or why net/url would reject tail, or servers read it
// otherwise (a blank in the query, which net/http sends unescaped). It
// drops the fragment and makes an empty path "/". A path net/url keeps
// as it is stays byte for byte; one with a byte it escapes (a blank, a
// byte above 0x7f, or one of "<>\^`{|}) is sent decoded and escaped again,
// net/url's way (see match.AppendSent), as is a path the Transport checks; in
// the query, blanks are refused and bytes above 0x7f escaped. A rewritten
// path is written into buf's spare capacity: the caller keeps buf
// unchanged while it uses it.
func matchPath(tail string, buf []byte) (path, why string) {
	if tail != "" && tail[0] == '/' && plain(tail) {
		return tail, "" // the common case, read a word at a time
	}
	// The path, to the query or fragment, written to p with its bytes of
	// class 3 and 4 escaped, which is how it is sent unless it also has
	// escapes or bytes of class 5 (then match.AppendSent writes it).
	p := buf[len(buf):]
	if tail == "" || tail[0] != '/' {
		p = append(p, '/')
	}
	start := len(p)
	q, run, sent, whole := len(tail), 0, false, true
path:
	for i := 0; i < len(tail); i++ {
		switch c, k := tail[i], tailClass[tail[i]]; {
		case k == 0:
		case c == '?' || c == '#':
			q = i
			break path
		case k == 1:
			return "", "control character"
		case c == '%':
			if !ascii.IsEscape(tail, i) {
				return "", "invalid escape"
			}
			whole = false
		case k == 5:
			whole = false
		default: // k is 3 or 4
			p = ascii.AppendEscape(append(p, tail[run:i]...), c)
			run, sent = i+1, true
		}
	}
	rewrite := sent || tail == "" || tail[0] != '/' // p holds the path
	switch {
	case sent && !whole:
		p = match.AppendSent(p[:start], tail[:q])
	case rewrite:
		p = append(p, tail[run:q]...)
	}
	// The query and the fragment, dropped; runs of bytes are copied whole
	// once p is in use, from run.
	run, end, fragment := q, len(tail), false
	if !rewrite {
		run = 0
	}
	for i := q; i < len(tail); i++ {
		switch c, k := tail[i], tailClass[tail[i]]; {
		case k == 0:
		case k == 1:
			return "", "control character"
		case fragment:
			if c == '%' && !ascii.IsEscape(tail, i) {
				return "", "invalid escape"
			}
		case c == '#':
			end, fragment = i, true
		case c == ' ':
			// net/http sends a query as it is, and servers end the
			// request target at the blank: the rest is not what they read.
			return "", "a blank in the query"
		case k == 3:
			p = ascii.AppendEscape(append(p, tail[run:i]...), c)
			run, rewrite = i+1, true
		}
	}
	if !rewrite {
		return tail[:end], ""
	}
	p = append(p, tail[run:end]...)
	return unsafe.String(unsafe.SliceData(p), len(p)), ""
}

// plain reports whether s holds only the bytes from '!' to 'z' other than
// '%', '#' and the bytes that make net/url escape a path ("<>\^`): those
// of plainByte. It looks eight bytes up in a step, whose loads overlap:
// on the warm path's 63-byte path (internal/bench's checkPath) that takes
// about two thirds of the time of a word-at-a-time test of the same bytes,
// and half that of a loop of one byte a step.
func plain(s string) bool {
	for len(s) >= 8 {
		_ = s[7]
		if !plainByte[s[0]] || !plainByte[s[1]] || !plainByte[s[2]] || !plainByte[s[3]] ||
			!plainByte[s[4]] || !plainByte[s[5]] || !plainByte[s[6]] || !plainByte[s[7]] {
			return false
		}
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		if !plainByte[s[i]] {
			return false
		}
	}
	return true
}

// plainByte marks the bytes plain accepts: '!' to 'z' but '%', '#' and
// those of tailClass 4.
var plainByte = func() (t [256]bool) {
	for c := '!'; c <= 'z'; c++ {
		t[c] = c != '%' && c != '#' && tailClass[c] != 4
	}
	return t
}()

// splitHostPort splits an authority without userinfo. The port comes
// without leading zeros, "" if absent; ok is false unless it is 1-65535.
func splitHostPort(auth string) (host, port string, ok bool) {
	host = auth
	after := ""
	if strings.HasPrefix(auth, "[") {
		end := strings.IndexByte(auth, ']')
		if end < 0 {
			return "", "", false
		}
		host, after = auth[:end+1], auth[end+1:]
		if after != "" && after[0] != ':' {
			return "", "", false
		}
	} else if i := strings.LastIndexByte(auth, ':'); i >= 0 {
		host, after = auth[:i], auth[i:]
	}
	if after == "" || after == ":" {
		return host, "", true
	}
	port = strings.TrimLeft(after[1:], "0")
	if port == "" || len(port) > 5 || len(port) == 5 && port > "65535" ||
		strings.Trim(port, "0123456789") != "" {
		return "", "", false
	}
	return host, port, true
}

// appendHost appends the normalised form of host to key; sent, also
// refusing a name net/http sends otherwise than it dials (see SplitSent).
func appendHost(key []byte, host string, sent bool) ([]byte, error) {
	// A final dot names the same host (the root of the DNS): one site.
	name, dotted := strings.CutSuffix(host, ".")
	if name == "" {
		return nil, errors.New("empty host")
	}
	if name[0] == '[' {
		return appendIPv6(key, name)
	}
	i := 0
	for i < len(name) && hostClass[name[i]] == 0 {
		i++
	}
	start := len(key)
	key = append(key, name[:i]...) // the common case: all of it
	for ; i < len(name); i++ {
		switch c := name[i]; hostClass[c] {
		case 0:
			key = append(key, c)
		case 1:
			key = append(key, c+'a'-'A')
		case 2:
			n, err := idnaHost(name)
			if err != nil {
				return nil, err
			}
			if sent {
				if err := sentAs(name, n); err != nil {
					return nil, err
				}
			}
			n, d := strings.CutSuffix(n, ".")
			if d && dotted { // two final dots, one of them mapped (。)
				return nil, emptyLabel(host)
			}
			return append(key[:start], n...), checkName(n, host, dotted || d)
		default:
			return nil, fmt.Errorf("invalid character %q in host", c)
		}
	}
	return key, checkName(name, host, dotted)
}

// checkName returns an error if name, the ASCII form of host without a
// final dot (dotted if it had one), starts or ends with an empty label,
// which no DNS name has (".", "..", ".a", "a.."; "a..b" is left to the
// dialer, whose resolver refuses it without asking DNS), or ends in a
// number but is not an IPv4 address in dotted decimal, as Go's dialer
// reads one: other resolvers read "127.1", "0x7f.1" or "127.0.0.1." as
// 127.0.0.1, Go's asks DNS. An unspecified address (0.0.0.0) names no
// site: Linux connects it to the machine itself, which another key
// names.
func checkName(name, host string, dotted bool) error {
	switch {
	case name == "" || name[0] == '.' || name[len(name)-1] == '.':
		return emptyLabel(host)
	case !endsInNumber(name):
	case dotted || !isIPv4(name):
		return fmt.Errorf("host %q ends in a number but is not an IPv4 address in dotted decimal", quote.Cut(host, quote.Max))
	case name == "0.0.0.0":
		return errUnspecified
	}
	return nil
}

// emptyLabel is the error of a host that starts or ends with an empty
// label (see checkName).
func emptyLabel(host string) error {
	return fmt.Errorf("host %q starts or ends with an empty label", quote.Cut(host, quote.Max))
}

var errUnspecified = errors.New("unspecified address (0.0.0.0 or ::) names no host")

// endsInNumber reports whether the last label of name is a number:
// decimal digits, or hexadecimal ones after "0x", as the WHATWG URL
// Standard reads a host.
func endsInNumber(name string) bool {
	i, digits := len(name), true
	for i > 0 && ascii.IsHex(name[i-1]) {
		digits = digits && name[i-1] <= '9'
		i--
	}
	switch {
	case i == 0 || name[i-1] == '.':
		return digits && i < len(name)
	case i >= 2 && name[i-1]|0x20 == 'x' && name[i-2] == '0':
		return i == 2 || name[i-3] == '.'
	}
	return false
}

func isIPv4(name string) bool {
	a, err := netip.ParseAddr(name)
	return err == nil && a.Is4()
}

// hostClass sorts bytes for appendHost: 0 kept, 1 upper-case letters, 2
// those of an internationalised name (non-ASCII and '%'), 3 the others.
var hostClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '.', c == '_':
		case c >= 'A' && c <= 'Z':
			t[c] = 1
		case c >= 0x80 || c == '%':
			t[c] = 2
		default:
			t[c] = 3
		}
	}
	return t
}()

// appendIPv6 appends the IPv6 literal host, in brackets, in its
// canonical form, or an IPv4-mapped one as the IPv4 address it is dialled
// as: [::ffff:7f00:1] is 127.0.0.1.
func appendIPv6(key []byte, host string) ([]byte, error) {
	addr, err := netip.ParseAddr(host[1 : len(host)-1])
	switch {
	case err != nil || !addr.Is6() || addr.Zone() != "":
		return nil, fmt.Errorf("invalid IPv6 literal %q", quote.Cut(host, quote.Max))
	case addr.Unmap().IsUnspecified():
		return nil, errUnspecified
	case addr.Is4In6():
		return addr.Unmap().AppendTo(key), nil
	}
	return append(addr.AppendTo(append(key, '[')), ']'), nil
}

// idnaHost turns a host with escapes or non-ASCII characters into its
// punycode form by the IDNA lookup profile (UTS #46 mapping, so
// "Bücher.DE" and "bücher.de" are one authority).
func idnaHost(host string) (string, error) {
	if strings.IndexByte(host, '%') >= 0 {
		// As net/url does, accept escapes only of non-ASCII bytes.
		for i := 0; i < len(host); i++ {
			if host[i] == '%' && (i+2 >= len(host) || !ascii.IsHex(host[i+2]) || !strings.ContainsRune("89abcdefABCDEF", rune(host[i+1]))) {
				return "", fmt.Errorf("invalid escape in host")
			}
		}
		dec, err := url.PathUnescape(host)
		if err != nil {
			return "", fmt.Errorf("invalid escape in host: %w", err)
		}
		host = dec
	}
	if !utf8.ValidString(host) {
		return "", errors.New("host is not valid UTF-8")
	}
	if len(host) > MaxUnicodeHost {
		return "", errors.New("host too long")
	}
	name, err := idnaProfile.ToASCII(host)
	if err != nil {
		return "", fmt.Errorf("invalid internationalised host: %w", err)
	}
	if name == "" {
		return "", errors.New("empty host")
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; hostClass[c] != 0 {
			return "", fmt.Errorf("invalid character %q in host", c)
		}
	}
	if d := netHTTPDials(host); !ascii.EqualFold(strings.TrimSuffix(d, "."), strings.TrimSuffix(name, ".")) {
		return "", fmt.Errorf("net/http dials it as %q", quote.Cut(d, quote.Max))
	}
	return name, nil
}

// sentAs returns an error unless net/http writes the Host header of a URL
// whose host is name (perhaps escaped, as written) as the site it dials,
// dialled: it writes it by IDNA's Punycode profile, which maps nothing.
func sentAs(name, dialled string) error {
	dec, err := url.PathUnescape(name) // as net/url reads a host: idnaHost took its escapes
	if err != nil {
		return err
	}
	h, err := httpguts.PunycodeHostPort(dec)
	if err != nil || !ascii.EqualFold(strings.TrimSuffix(h, "."), strings.TrimSuffix(dialled, ".")) {
		return fmt.Errorf("net/http sends it as Host %q, another site than %q", quote.Cut(h, quote.Max), dialled)
	}
	return nil
}

// netHTTPDials returns the host net/http dials for a URL whose host is
// name (UTF-8, unescaped). Its own copy of the IDNA lookup normalises
// with an older golang.org/x/text than ours, which composes some names
// otherwise (a mark across a vowel sign, a pair past U+FFFF, a Hangul
// syllable beside a sign of a script Unicode 16 added), and a name it
// refuses it dials as written: asked, a Transport that dials nothing
// tells. It costs about 8 µs, for names that are not ASCII only.
func netHTTPDials(name string) string {
	var dialled string
	ctx := context.WithValue(context.Background(), probeKey{}, &dialled)
	req := (&http.Request{Method: http.MethodGet, URL: &url.URL{Scheme: "http", Host: name, Path: "/"}, Header: http.Header{}}).WithContext(ctx)
	_, _ = probe.RoundTrip(req) // its dial has returned: dialled is set
	host, _, _ := net.SplitHostPort(dialled)
	return host
}

// probe is netHTTPDials' Transport: its dial notes the address asked for
// and fails, so that nothing is sent.
var probe = &http.Transport{
	DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
		*ctx.Value(probeKey{}).(*string) = addr
		return nil, errProbed
	},
	// With keep-alives, it keeps a waiting list for each host asked,
	// which only a connection gone idle ends: one for every name.
	DisableKeepAlives: true,
}

// probeKey carries where netHTTPDials notes the address dialled.
type probeKey struct{}

var errProbed = errors.New("robotstxt: probed, not dialled")

// MaxUnicodeHost bounds the bytes of a host name converted to punycode,
// whose cost grows with the square of a label's length (a 64 KB label
// takes seconds): a longer name holds more than 253 code points, each
// written as one byte of punycode at least, past the 253 bytes of a DNS
// name. (The mapping drops a few, such as the soft hyphen: a name padded
// with them is refused all the same, failing closed.)
const MaxUnicodeHost = 4 * 253

// idnaProfile reads host names as net/http dials them: a name it
// refuses, which net/http dials as written but asks for in punycode, is
// no one site.
var idnaProfile = idna.Lookup

// ExtraHost returns the key of a field of req's header that a server may
// read as its Host beside the Host net/http sends (req.Host, or its URL's
// host): net/http writes a key spelt otherwise than "Host" ("host",
// "HOST") as a second Host line, and drops "Host", which a check of the
// header may read all the same; so either, unless "Host" names that host
// alone. It returns "" when there is none.
func ExtraHost(req *http.Request) string {
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	for k, vv := range req.Header {
		if IsField(k, "Host") && (k != "Host" || slices.ContainsFunc(vv, func(v string) bool { return v != host })) {
			return k
		}
	}
	return ""
}

// Authority returns the normalised authority of host under scheme (see
// Split), or "" if it has none.
func Authority(scheme, host string) string {
	k, _, err := Split(scheme+"://"+host+"/", nil)
	if err != nil {
		return ""
	}
	return string(k)
}

// IsField reports whether the header key k is a spelling of the field
// name: the same but for case and surrounding blanks, which net/http
// writes as they are or refuses.
func IsField(k, name string) bool {
	return len(k) >= len(name) && ascii.EqualFold(strings.Trim(k, " \t"), name)
}
