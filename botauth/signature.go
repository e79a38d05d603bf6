package botauth

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/http/httpguts"
	"golang.org/x/net/idna"

	"github.com/robotsgate/robotstxt/internal/ascii"
	"github.com/robotsgate/robotstxt/internal/target"
)

// A component is one a signature covers (RFC 9421 §2).
type component struct {
	id    string // serialized, such as `"signature-agent";key="sig1"`
	value string
}

// A param is one signature parameter (RFC 9421 §2.3).
type param struct {
	name  string
	value string // a serialized Integer or String
}

func intParam(name string, v int64) param { return param{name, strconv.FormatInt(v, 10)} }
func stringParam(name, v string) param    { return param{name, sfString(v)} }

// The identifiers of the components this package signs: a request's
// authority and Signature-Agent member; a directory response's request's
// authority (RFC 9421 §2.4) and digest.
const (
	authorityID     = `"@authority"`
	agentID         = `"signature-agent";key="` + requestLabel + `"`
	authorityReqID  = `"@authority";req`
	contentDigestID = `"content-digest"`
)

// sign signs as RFC 9421 §3.1 does, and returns label's members of
// Signature-Input and Signature, with the parameters in the order given.
func sign(key ed25519.PrivateKey, label string, cs []component, ps []param) (input, signature string) {
	params := signatureParams(cs, ps)
	sig := ed25519.Sign(key, signatureBase(cs, params))
	return label + "=" + params, label + "=:" + base64.StdEncoding.EncodeToString(sig) + ":"
}

// signatureParams is the value of @signature-params (RFC 9421 §2.3).
func signatureParams(cs []component, ps []param) string {
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.id
	}
	var b strings.Builder
	b.WriteString("(" + strings.Join(ids, " ") + ")")
	for _, p := range ps {
		b.WriteString(";" + p.name + "=" + p.value)
	}
	return b.String()
}

// signatureBase is the signature base of RFC 9421 §2.5.
func signatureBase(cs []component, params string) []byte {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.id + ": " + c.value + "\n")
	}
	b.WriteString(`"@signature-params": ` + params)
	return []byte(b.String())
}

var sfEscaper = strings.NewReplacer(`"`, `\"`, `\`, `\\`)

// sfString serializes s, which the caller has checked is printable
// ASCII, as a Structured Field String (RFC 9651 §4.1.6).
func sfString(s string) string { return `"` + sfEscaper.Replace(s) + `"` }

// visibleASCII reports whether s is all visible ASCII, which a String
// can hold and which cannot break a line of the signature base.
func visibleASCII(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r <= ' ' || r >= 0x7f }) < 0
}

// authority is the @authority (RFC 9421 §2.2.3) of a request to host by
// scheme, normalized as RFC 9110 §4.2.3 and §7.2 ask.
func authority(host, scheme string) (string, error) {
	if host == "" {
		return "", errors.New("botauth: request has no host")
	}
	if !visibleASCII(host) {
		// net/http sends the name in punycode, unmapped (as
		// httpguts.PunycodeHostPort writes it): sign that.
		name, port := host, ""
		if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
			name, port = host[:i], host[i:]
		}
		if len(name) > target.MaxUnicodeHost {
			return "", fmt.Errorf("botauth: host of %d bytes has no A-label form net/http would send", len(host))
		}
		p, err := idna.Punycode.ToASCII(name)
		if err != nil || !utf8.ValidString(name) || !visibleASCII(p+port) {
			return "", fmt.Errorf("botauth: host %q has no A-label form net/http would send", host)
		}
		host = p + port
	}
	if !httpguts.ValidHostHeader(host) {
		// net/http would send none, or refuse the request.
		return "", fmt.Errorf("botauth: host %q is no Host net/http sends", host)
	}
	if i, j := strings.IndexByte(host, '%'), strings.IndexByte(host, ']'); host[0] == '[' && 0 < i && i < j {
		// net/http leaves an IPv6 zone out of an HTTP/1.1 Host but keeps
		// it in HTTP/2's :authority: whichever is signed, a server
		// reading the other would find the signature does not verify.
		return "", fmt.Errorf("botauth: host %q has an IPv6 zone, which HTTP/1.1 sends without and HTTP/2 with: no one authority to sign", host)
	}
	host = strings.TrimSuffix(ascii.LowerString(host), ":")
	host = strings.TrimSuffix(host, defaultPorts[ascii.LowerString(scheme)])
	if host == "" || host[0] == ':' {
		// ":443" names a port and no host: a signature over it would be
		// bound to no site.
		return "", errors.New("botauth: request has no host")
	}
	return host, nil
}

// defaultPorts are the ports an authority leaves out, by scheme.
var defaultPorts = map[string]string{"https": ":443", "http": ":80"}
