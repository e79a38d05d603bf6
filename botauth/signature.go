package botauth

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A component is one component a signature covers (RFC 9421 §2): its
// identifier, serialized as it appears in Signature-Input and in the
// signature base (a quoted name and its parameters, such as
// `"signature-agent";key="sig1"`), and its value in the signature base.
type component struct {
	id    string
	value string
}

// A param is one signature parameter (RFC 9421 §2.3), its value
// serialized as a Structured Field bare item: an Integer or a String.
type param struct {
	name  string
	value string
}

func intParam(name string, v int64) param { return param{name, strconv.FormatInt(v, 10)} }
func stringParam(name, v string) param    { return param{name, sfString(v)} }

// The identifiers of the components this package signs. A request
// signature covers the authority and the Signature-Agent member keyed to
// its label; a directory response signature covers the authority of the
// request it answers (the req flag, RFC 9421 §2.4) and the digest of its
// body.
const (
	authorityID     = `"@authority"`
	agentID         = `"signature-agent";key="` + requestLabel + `"`
	authorityReqID  = `"@authority";req`
	contentDigestID = `"content-digest"`
)

// sign signs the components and parameters with key under label, as RFC
// 9421 §3.1 does, and returns the members to send: label's member of
// Signature-Input (the covered components and the parameters) and of
// Signature (the signature as a Byte Sequence). The parameters appear in
// the order given; a verifier rebuilds the base from Signature-Input, so
// the order is the signer's choice, and fixing it makes the output
// reproducible.
func sign(key ed25519.PrivateKey, label string, cs []component, ps []param) (input, signature string) {
	params := signatureParams(cs, ps)
	sig := ed25519.Sign(key, signatureBase(cs, params))
	return label + "=" + params, label + "=:" + base64.StdEncoding.EncodeToString(sig) + ":"
}

// signatureParams serializes the covered components and the parameters as
// the value of the @signature-params component (RFC 9421 §2.3): an Inner
// List of the component identifiers, with the parameters as its own.
func signatureParams(cs []component, ps []param) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.id)
	}
	b.WriteByte(')')
	for _, p := range ps {
		b.WriteString(";" + p.name + "=" + p.value)
	}
	return b.String()
}

// signatureBase is the signature base of RFC 9421 §2.5: a line
// `id: value` for each component, then the @signature-params line, with
// no newline after it.
func signatureBase(cs []component, params string) []byte {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.id + ": " + c.value + "\n")
	}
	b.WriteString(`"@signature-params": ` + params)
	return []byte(b.String())
}

// sfString serializes s as a Structured Field String (RFC 9651 §4.1.6).
// The caller has checked that s is printable ASCII, the only characters
// a String can hold.
func sfString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}

// visibleASCII reports whether s is all visible ASCII: no space, no
// control character, nothing at or above 0x7f. Such a value can be a
// Structured Field String and cannot break a line of the signature base.
func visibleASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// authority is the value of the @authority component (RFC 9421
// §2.2.3) of a request sent to host by scheme, normalized as RFC 9110
// §4.2.3 and §7.2 ask: lower-cased, without an empty port or the
// scheme's default one.
func authority(host, scheme string) (string, error) {
	if host == "" {
		return "", errors.New("botauth: request has no host")
	}
	if !visibleASCII(host) {
		// net/http sends a host that is not ASCII in its A-label form,
		// which this package, with the standard library only, cannot
		// derive; a signature over another spelling would not verify.
		return "", fmt.Errorf("botauth: host %q is not visible ASCII: give its A-label (punycode) form", host)
	}
	host = strings.TrimSuffix(strings.ToLower(host), ":")
	switch strings.ToLower(scheme) {
	case "https":
		host = strings.TrimSuffix(host, ":443")
	case "http":
		host = strings.TrimSuffix(host, ":80")
	}
	return host, nil
}
