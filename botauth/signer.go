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
	"net/url"
	"slices"
	"strings"
	"time"
)

const (
	// requestLabel is the label of a Signer's signature, that of the
	// draft's examples, and the key of its Signature-Agent member, which
	// the draft requires each signature to cover.
	requestLabel = "sig1"
	// requestTag is the tag the draft fixes for a request signature.
	requestTag = "web-bot-auth"
	// defaultValidity is a minute: a Transport signs each request as it
	// sends it, so a signature need outlive only the trip to the site and
	// the clocks' difference, and should not, since a copy taken on the
	// way works until it expires.
	defaultValidity = time.Minute
	// maxValidity is the longest the draft recommends ("no more than 24
	// hours after created").
	maxValidity = 24 * time.Hour
	// nonceSize is the number of random bytes in a nonce: RFC 9421 sets
	// no size, and 64 is what Cloudflare's implementation sends (and
	// insists on when given one to sign with).
	nonceSize = 64
)

// A Signer signs HTTP requests as one crawler, with one Ed25519 key, for
// Web Bot Auth, and serves the key directory that lets sites check its
// signatures (see the package documentation). It is safe for concurrent
// use.
type Signer struct {
	keys       []signingKey // keys[0] signs requests; the directory lists all
	agentField string       // the Signature-Agent field value
	agentValue string       // agent as a Structured Field String
	agentPath  string       // the path of the agent URL
	agentAuth  string       // the authority of the agent URL
	validity   int64        // seconds from created to expires
	keySet     []byte       // the key directory's body
	digest     string       // its Content-Digest

	// Set by NewSigner, and by tests to replay published vectors.
	now               func() time.Time // the clock
	rand              io.Reader        // where nonces come from
	directoryValidity int64            // seconds a directory response's signature lasts
}

// A signingKey is a private key and its keyid, its public key's
// thumbprint.
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

// WithValidity sets how long each signature is valid: the time from its
// created parameter to its expires parameter, counted in whole seconds
// (rounded down). It must be at least a second and at most 24 hours, the
// longest the draft recommends; [NewSigner] returns an error otherwise.
// The default is a minute (see Limits in the package documentation).
func WithValidity(d time.Duration) Option {
	return func(c *config) { c.validity = d }
}

// WithDirectoryKeys lists keys in the Signer's key directory beside its
// own key, which alone signs requests, to rotate keys without sites
// rejecting a signature (see the package documentation): the key the
// crawler will sign with next, or the one it signed with before. The
// directory response is signed with every key it lists, since the draft
// asks for one signature per key and lets a site ignore a key without
// one: hence private keys, of which the directory shows only the public
// halves. Each key must be valid as [NewSigner]'s is and differ from the
// Signer's and the others; NewSigner returns an error otherwise. Each use
// adds to the keys of the uses before it.
func WithDirectoryKeys(keys ...ed25519.PrivateKey) Option {
	return func(c *config) { c.directoryKeys = append(c.directoryKeys, keys...) }
}

// NewSigner returns a Signer that signs with key for the crawler whose
// key directory is served at agent, the Signature-Agent URL, or an error
// if either is not as follows. key must be a whole Ed25519 private key
// (seed and public key, as [ed25519.GenerateKey] and
// [ed25519.NewKeyFromSeed] return it), whose public half is the seed's.
// agent must be an absolute https URL with a host and a path, and no user
// information or fragment, written in visible ASCII (escape the rest):
// sites fetch it, as is, as a JSON Web Key Set, so it names the directory
// itself, not just its host. The usual choice, as in the examples, is the
// well-known URI: it binds the key to the crawler's domain, and verifiers
// that keep only the URL's origin, as earlier drafts and Cloudflare's
// reference verifier do, look there too.
func NewSigner(key ed25519.PrivateKey, agent string, opts ...Option) (*Signer, error) {
	path, auth, err := checkAgent(agent)
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
		if slices.ContainsFunc(s.keys, func(sk signingKey) bool { return sk.id == id }) {
			return nil, fmt.Errorf("botauth: key %s given twice", id)
		}
		// Copied: the caller's slice may change.
		s.keys = append(s.keys, signingKey{append(ed25519.PrivateKey(nil), k...), id})
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
// the parameters created, expires, keyid, then nonce if given, then tag.
func (s *Signer) sign(k signingKey, label string, cs []component, validity int64, tag string, nonce ...param) (input, signature string) {
	created := s.now().Unix()
	ps := append([]param{intParam("created", created), intParam("expires", created+validity), stringParam("keyid", k.id)}, nonce...)
	return sign(k.key, label, cs, append(ps, stringParam("tag", tag)))
}

// checkAgent checks agent as NewSigner documents, and returns its path
// and authority.
func checkAgent(agent string) (path, auth string, err error) {
	if !visibleASCII(agent) {
		return "", "", fmt.Errorf("botauth: agent URL %q is not visible ASCII", agent)
	}
	u, err := url.Parse(agent)
	if err != nil {
		return "", "", fmt.Errorf("botauth: agent URL: %w", err)
	}
	switch {
	case u.Scheme != "https":
		return "", "", fmt.Errorf("botauth: agent URL %q is not https", agent)
	case u.Hostname() == "":
		return "", "", fmt.Errorf("botauth: agent URL %q has no host", agent)
	case u.User != nil:
		return "", "", fmt.Errorf("botauth: agent URL %q has user information", agent)
	case strings.Contains(agent, "#"):
		return "", "", fmt.Errorf("botauth: agent URL %q has a fragment", agent)
	case u.Path == "" || u.Path == "/":
		return "", "", fmt.Errorf("botauth: agent URL %q names no directory: sites fetch it as the key set itself (try %s)", agent, "https://"+u.Host+directoryPath)
	}
	auth, err = authority(u.Host, u.Scheme)
	return u.Path, auth, err
}

// KeyID returns the key identifier the Signer sends in the keyid
// parameter and as the key's kid in its directory: the JWK SHA-256
// Thumbprint (RFC 7638, RFC 8037) of its public key, in unpadded
// base64url, as the draft requires.
func (s *Signer) KeyID() string { return s.keys[0].id }

// Sign signs req as RFC 9421 and the Web Bot Auth draft ask. It sets
// Signature-Agent to a Dictionary whose member, keyed by the signature's
// label "sig1", is the agent URL as a String (the form the draft requires
// of signers), and Signature-Input and Signature to a signature over the
// request's authority and that member. Its parameters are created,
// expires (a minute later unless [WithValidity] says otherwise), keyid
// ([Signer.KeyID]), a nonce of 64 random bytes in base64 and the tag
// "web-bot-auth"; there is no alg parameter, since the key a verifier
// finds by keyid says it is Ed25519.
//
// The authority is the @authority of RFC 9421 §2.2.3, taken from
// req.Host if set and req.URL.Host otherwise, lower-cased, without an
// empty port or the default port of req.URL's scheme. Sign returns an
// error, and changes nothing, if there is no host or it is not visible
// ASCII (a host must be given in its A-label form, which net/http would
// send in place of the name given).
//
// Sign replaces any Signature-Agent, Signature-Input and Signature fields
// req has, in its header or trailer and whatever their spelling, so that
// a request signed again carries one signature, and changes no other
// field. It modifies req: a RoundTripper signs a copy, as [NewTransport]'s
// does.
//
// Sign a request just before it is sent, and do not let an http.Client
// follow its redirects: net/http copies the fields onto each hop, handing
// the signature to whatever site the redirect names. Either give the
// Client a CheckRedirect that returns http.ErrUseLastResponse and sign
// each hop yourself, or, simpler, send through [NewTransport]. A Host
// that names another authority than req.URL does gets the signature for
// the Host's authority, sent to the server req.URL names: set it only to
// reach the same site.
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
	input, signature := s.sign(s.keys[0], requestLabel, []component{{authorityID, auth}, {agentID, s.agentValue}},
		s.validity, requestTag, stringParam("nonce", base64.StdEncoding.EncodeToString(nonce)))
	if req.Header == nil {
		req.Header = make(http.Header)
	}
	for _, h := range []http.Header{req.Header, req.Trailer} {
		for k := range h {
			if strings.EqualFold(k, "Signature-Agent") || strings.EqualFold(k, "Signature-Input") || strings.EqualFold(k, "Signature") {
				delete(h, k) // net/http sends a key as it is spelled
			}
		}
	}
	req.Header.Set("Signature-Agent", s.agentField)
	req.Header.Set("Signature-Input", input)
	req.Header.Set("Signature", signature)
	return nil
}
