package botauth

import (
	"cmp"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/robotsgate/robotstxt/internal/ascii"
)

const (
	// The label of a request signature (the draft's examples'), also the
	// key of the Signature-Agent member it covers, and its tag.
	requestLabel = "sig1"
	requestTag   = "web-bot-auth"
	// defaultValidity need only outlive the trip to the site and the
	// clocks' difference, since a Transport signs as it sends, and should
	// not, since a copy taken on the way works until it expires.
	defaultValidity = time.Minute
	// maxValidity is the longest the draft recommends.
	maxValidity = 24 * time.Hour
	// clockLead is how long before it is made a signature says it was
	// created: sites refuse a created in their future with no tolerance
	// (Cloudflare's verifiers do), so a crawler's clock a second ahead of
	// a site's lost every signature there, and one 300 ms ahead a
	// quarter. Five seconds covers a host's drift between NTP syncs; a
	// clock further off is the host's to fix. The validity counts from
	// when the signature is made, not from created.
	clockLead = 5 * time.Second
	// nonceSize is what Cloudflare's implementation sends and insists on;
	// RFC 9421 sets no size.
	nonceSize = 64
)

// A Signer signs HTTP requests as one crawler, and serves the key
// directory that lets sites check its signatures. It is safe for
// concurrent use.
type Signer struct {
	// keys[0] signs requests; the directory lists all. Pointers, which
	// fmt prints as addresses, so that a Signer logged with %+v shows no
	// private key.
	keys       []*signingKey
	agentField string // the Signature-Agent field value
	agentValue string // agent as a Structured Field String
	agentPath  string // the path of the agent URL
	agentAuth  string // the authority of the agent URL
	validity   int64  // seconds from signing to expires
	keySet     []byte // the key directory's body
	digest     string // its Content-Digest

	// Set by NewSigner, and by tests to replay published vectors.
	now               func() time.Time // the clock
	rand              io.Reader        // where nonces come from
	directoryValidity int64            // seconds a directory response's signature lasts
}

// A signingKey is a private key and its keyid, its public key's thumbprint.
type signingKey struct {
	key ed25519.PrivateKey
	id  string
}

// An Option configures a [Signer] made by [NewSigner].
type Option func(*config)

type config struct {
	validity      time.Duration
	directoryKeys []ed25519.PrivateKey
}

// WithValidity sets how long each signature is valid from when it is
// made to its expires parameter, in whole seconds (rounded down): at
// least a second and at most 24 hours, the longest the draft recommends,
// or [NewSigner] fails. The default is a minute (see Limits in the
// package documentation). Its created parameter says five seconds
// before it was made, lest a site whose clock is behind the crawler's
// refuse it as made in the future; from created to expires stays within
// 24 hours (a validity of 24 hours lasts up to six seconds less).
func WithValidity(d time.Duration) Option {
	return func(c *config) { c.validity = d }
}

// WithDirectoryKeys adds keys to the Signer's key directory beside its
// own, which alone signs requests, to rotate keys (see the package
// documentation). Private keys, since the draft asks that the directory
// response be signed with each key it lists; it shows only their public
// halves. Each must be valid as [NewSigner]'s key is and differ from the
// others, or NewSigner fails. Each use adds to those of the uses before.
func WithDirectoryKeys(keys ...ed25519.PrivateKey) Option {
	return func(c *config) { c.directoryKeys = append(c.directoryKeys, keys...) }
}

// NewSigner returns a Signer that signs with key for the crawler whose
// key directory is served at agent, the Signature-Agent URL. key must be
// a whole Ed25519 private key, as [ed25519.GenerateKey] returns it, whose
// public half is its seed's. agent must be an absolute https URL with a
// host written unescaped (an IP address as URL parsers write it, and not
// an IPv4 address in IPv6), a port, if any, with no leading zero and at
// most 65535, no user information or fragment, no dot segment or
// backslash in its path (a verifier's URL parser would ask for another
// authority or path), in
// visible ASCII: either an
// origin (https://crawler.example), sent as an origin is serialised
// (lower case, no default port, no final "/"), whose
// directory sites fetch at the well-known URI, as revision -01 of the
// draft has a Signature-Agent name it; or the URL of the directory
// itself, which sites fetch as a JSON Web Key Set, as earlier revisions
// and verifiers that keep only the URL's origin (Cloudflare's reference
// verifier) read it. The examples give the well-known URI, which those
// find; a verifier that holds to revision -01 reads only an origin.
// [Signer.Directory] serves the directory at the well-known URI and at
// the agent URL's path.
func NewSigner(key ed25519.PrivateKey, agent string, opts ...Option) (*Signer, error) {
	agent, path, auth, err := checkAgent(agent)
	if err != nil {
		return nil, err
	}
	cfg := config{validity: defaultValidity}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.validity < time.Second || cfg.validity > maxValidity {
		return nil, fmt.Errorf("botauth: validity %v out of range [1s, %v]", cfg.validity, maxValidity)
	}
	s := &Signer{
		agentValue:        sfString(agent),
		agentPath:         path,
		agentAuth:         auth,
		validity:          int64(cfg.validity / time.Second),
		now:               time.Now,
		rand:              rand.Reader,
		directoryValidity: int64(directoryValidity / time.Second),
	}
	for _, k := range append([]ed25519.PrivateKey{key}, cfg.directoryKeys...) {
		if len(k) != ed25519.PrivateKeySize {
			return nil, fmt.Errorf("botauth: Ed25519 private key of %d bytes, want %d", len(k), ed25519.PrivateKeySize)
		}
		if !ed25519.NewKeyFromSeed(k.Seed()).Equal(k) {
			return nil, errors.New("botauth: Ed25519 private key whose public half is not its seed's")
		}
		id := thumbprint(k.Public().(ed25519.PublicKey))
		if slices.ContainsFunc(s.keys, func(sk *signingKey) bool { return sk.id == id }) {
			return nil, fmt.Errorf("botauth: key %s given twice", id)
		}
		// Copied: the caller's slice may change.
		s.keys = append(s.keys, &signingKey{append(ed25519.PrivateKey(nil), k...), id})
	}
	s.agentField = requestLabel + "=" + s.agentValue
	s.keySet = keySet(s.keys)
	s.digest = contentDigest(s.keySet)
	return s, nil
}

func (s *Signer) mustBeMade() {
	if s.keys == nil {
		panic("botauth: Signer not made by NewSigner")
	}
}

// sign signs cs with k under label for validity seconds from now, with
// the parameters created (clockLead before now, in whole seconds rounded
// down), expires (rounded up: a second's validity made late in a second
// lasts a second), keyid, then nonce if given, then tag.
func (s *Signer) sign(k *signingKey, label string, cs []component, validity int64, tag string, nonce ...param) (input, signature string) {
	now := s.now()
	created := now.Add(-clockLead).Unix()
	expires := now.Add(time.Second-1).Unix() + validity
	ps := append([]param{intParam("created", created), intParam("expires", expires), stringParam("keyid", k.id)}, nonce...)
	return sign(k.key, label, cs, append(ps, stringParam("tag", tag)))
}

// checkAgent checks agent for NewSigner and returns the value to send,
// the path of its directory and its authority.
func checkAgent(agent string) (value, path, auth string, err error) {
	if !visibleASCII(agent) {
		return "", "", "", fmt.Errorf("botauth: agent URL %q is not visible ASCII", agent)
	}
	u, err := url.Parse(agent)
	if err != nil {
		return "", "", "", fmt.Errorf("botauth: agent URL: %w", err)
	}
	origin := u.Path == "" || u.Path == "/"
	switch {
	case u.Scheme != "https":
		return "", "", "", fmt.Errorf("botauth: agent URL %q is not https", agent)
	case u.Hostname() == "":
		return "", "", "", fmt.Errorf("botauth: agent URL %q has no host", agent)
	case u.User != nil:
		return "", "", "", fmt.Errorf("botauth: agent URL %q has user information", agent)
	case strings.Contains(agent, "#"):
		return "", "", "", fmt.Errorf("botauth: agent URL %q has a fragment", agent)
	case !ascii.IsASCII(u.Host), strings.Contains(u.Host, "%"), strings.HasPrefix(u.Port(), "0"), len(u.Port()) == 5 && u.Port() > "65535", len(u.Port()) > 5:
		// Escaped (url.Parse decodes it), a host is decoded and mapped
		// by a verifier's URL parser, and such a port read as a number
		// (or refused): it asks for another authority than Directory
		// binds.
		return "", "", "", fmt.Errorf("botauth: agent URL %q has an escaped host, or a port with a leading zero or past 65535", agent)
	case !canonicalIP(u.Hostname()):
		return "", "", "", fmt.Errorf("botauth: agent URL %q has an IP address not written as a URL parser serialises it", agent)
	case origin && strings.Contains(agent, "?"):
		return "", "", "", fmt.Errorf("botauth: agent URL %q is neither an origin nor a directory's URL", agent)
	case unresolved(u.EscapedPath()), strings.ContainsRune(strings.SplitN(agent, "?", 2)[0], '\\'):
		// A verifier's URL parser (WHATWG's, curl's) resolves the
		// segment, or reads the backslash as a slash, and asks for
		// another path than Directory serves.
		return "", "", "", fmt.Errorf("botauth: agent URL %q has a dot segment or a backslash", agent)
	}
	auth, err = authority(u.Host, u.Scheme)
	if origin {
		// As an origin is serialised (RFC 6454 §6.2), which revision
		// -01 asks of the member: a verifier reads no other spelling
		// (https://Crawler.Example:443/).
		return "https://" + auth, directoryPath, auth, err
	}
	return agent, u.Path, auth, err
}

// canonicalIP reports whether host, a URL's hostname, is no IP address
// a WHATWG URL parser reads (its last label numeric: 127.1, 0x7f.0.0.1,
// 2130706433; an IPv6 literal) or is one written as it serialises it.
func canonicalIP(host string) bool {
	labels := strings.Split(strings.TrimSuffix(host, "."), ".")
	last := labels[len(labels)-1]
	numeric := last != "" && (strings.Trim(last, "0123456789") == "" || strings.HasPrefix(strings.ToLower(last), "0x"))
	if !numeric && !strings.Contains(host, ":") {
		return true
	}
	a, err := netip.ParseAddr(host)
	// An IPv4 address in IPv6 netip writes dotted, a URL parser in hex.
	return err == nil && a.Zone() == "" && !a.Is4In6() && a.String() == strings.ToLower(host)
}

// unresolved reports whether the escaped path p holds a segment a URL
// parser resolves away: "." or "..", a dot perhaps written %2E.
func unresolved(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		switch strings.ReplaceAll(strings.ToLower(seg), "%2e", ".") {
		case ".", "..":
			return true
		}
	}
	return false
}

// KeyID returns the keyid the Signer sends and its directory's kid: the
// JWK SHA-256 Thumbprint (RFC 7638, RFC 8037) of its public key, in
// unpadded base64url, as the draft requires.
func (s *Signer) KeyID() string { return s.keys[0].id }

// Sign signs req for Web Bot Auth: it sets Signature-Agent to a
// Dictionary whose member sig1 (the signature's label) is the agent URL as
// a String, and Signature-Input and Signature to a signature over the
// request's authority and that member, with the parameters created,
// expires ([WithValidity]), keyid ([Signer.KeyID]), a nonce of 64 random
// bytes in base64 and the tag "web-bot-auth" (no alg: the key says it is
// Ed25519). It replaces those three fields in req's header and trailer,
// however spelt, and changes no other: it modifies req, so a
// RoundTripper signs a copy, as [NewTransport]'s does.
//
// The authority (RFC 9421 §2.2.3) is req.Host, or else req.URL.Host,
// lower-cased, without an empty port or that of req.URL's scheme; an
// internationalised name as net/http sends it, in punycode. Sign fails,
// changing nothing, if there is none or it has no such form, or for an
// IPv6 literal with a zone, which net/http sends without it over
// HTTP/1.1 and with it over HTTP/2: no one authority to sign. A Host
// naming another authority than req.URL gets a signature for the
// Host's, sent to req.URL's server: set it only to reach the same site.
//
// Sign just before sending, and do not let an http.Client follow
// redirects, which copies the fields onto each hop: send through
// [NewTransport], or return http.ErrUseLastResponse from CheckRedirect
// and sign each hop yourself.
func (s *Signer) Sign(req *http.Request) error {
	s.mustBeMade()
	host, scheme := req.Host, ""
	if req.URL != nil {
		host, scheme = cmp.Or(host, req.URL.Host), req.URL.Scheme
	}
	auth, err := authority(host, scheme)
	if err != nil {
		return err
	}
	nonce := make([]byte, nonceSize)
	if _, err := io.ReadFull(s.rand, nonce); err != nil {
		return fmt.Errorf("botauth: reading a nonce: %w", err)
	}
	// From created to expires within the draft's longest, expires
	// rounded up.
	validity := min(s.validity, int64((maxValidity-clockLead-time.Second)/time.Second))
	input, signature := s.sign(s.keys[0], requestLabel, []component{{authorityID, auth}, {agentID, s.agentValue}},
		validity, requestTag, stringParam("nonce", base64.StdEncoding.EncodeToString(nonce)))
	if req.Header == nil {
		req.Header = make(http.Header)
	}
	for _, h := range []http.Header{req.Header, req.Trailer} {
		for k := range h {
			if isSignatureField(k) {
				delete(h, k) // net/http sends a key as it is spelled
			}
		}
	}
	req.Header.Set("Signature-Agent", s.agentField)
	req.Header.Set("Signature-Input", input)
	req.Header.Set("Signature", signature)
	return nil
}

// isSignatureField reports whether k names a field Sign writes, in any
// spelling.
func isSignatureField(k string) bool {
	return ascii.EqualFold(k, "Signature-Agent") || ascii.EqualFold(k, "Signature-Input") || ascii.EqualFold(k, "Signature")
}

// signatureFields reports whether h holds a field Sign writes.
func signatureFields(h http.Header) bool {
	for k := range h {
		if isSignatureField(k) {
			return true
		}
	}
	return false
}
