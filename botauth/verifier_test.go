package botauth

// A verifier of HTTP Message Signatures, written for the tests from RFC
// 9421 §3.2, RFC 8941 (Structured Field Values) and the Web Bot Auth
// draft, and sharing no code with the signing side: what the package
// signs is checked as a site would check it.

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// token is a Structured Field Token; a string is a String.
type token string

// sfParam is one parameter of an item or an inner list.
type sfParam struct {
	name  string
	value any // int64, string, token, []byte or bool
}

// sfItem is an item, or an inner list when list is set.
type sfItem struct {
	value  any
	list   []sfItem
	isList bool
	params []sfParam
}

func (it sfItem) param(name string) (any, bool) {
	for i := len(it.params) - 1; i >= 0; i-- {
		if it.params[i].name == name {
			return it.params[i].value, true
		}
	}
	return nil, false
}

// sfMember is one member of a Dictionary.
type sfMember struct {
	key string
	sfItem
}

type sfDict []sfMember

// get returns the last member keyed key, as RFC 8941 §4.2.2 keeps it.
func (d sfDict) get(key string) (sfItem, bool) {
	for i := len(d) - 1; i >= 0; i-- {
		if d[i].key == key {
			return d[i].sfItem, true
		}
	}
	return sfItem{}, false
}

// sfParser parses field values as RFC 8941 §4.2 does.
type sfParser struct {
	s string
	i int
}

func (p *sfParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *sfParser) skip(chars string) {
	for p.i < len(p.s) && strings.IndexByte(chars, p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *sfParser) fail(what string) error {
	return fmt.Errorf("sf: %s at offset %d of %q", what, p.i, p.s)
}

func parseDict(s string) (sfDict, error) {
	p := &sfParser{s: s}
	p.skip(" ")
	var d sfDict
	for p.i < len(p.s) {
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		m := sfMember{key: key}
		if p.peek() == '=' {
			p.i++
			if m.sfItem, err = p.itemOrList(); err != nil {
				return nil, err
			}
		} else {
			m.value = true
			if m.params, err = p.parameters(); err != nil {
				return nil, err
			}
		}
		d = append(d, m)
		p.skip(" \t")
		if p.i == len(p.s) {
			return d, nil
		}
		if p.peek() != ',' {
			return nil, p.fail("want ','")
		}
		p.i++
		p.skip(" \t")
		if p.i == len(p.s) {
			return nil, p.fail("trailing comma")
		}
	}
	return d, nil
}

func (p *sfParser) key() (string, error) {
	c := p.peek()
	if !(c >= 'a' && c <= 'z' || c == '*') {
		return "", p.fail("want a key")
	}
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("_-.*", c) >= 0) {
			break
		}
		p.i++
	}
	return p.s[start:p.i], nil
}

func (p *sfParser) itemOrList() (sfItem, error) {
	if p.peek() != '(' {
		return p.item()
	}
	p.i++
	it := sfItem{isList: true}
	for {
		p.skip(" ")
		if p.peek() == ')' {
			p.i++
			var err error
			it.params, err = p.parameters()
			return it, err
		}
		inner, err := p.item()
		if err != nil {
			return sfItem{}, err
		}
		it.list = append(it.list, inner)
		if c := p.peek(); c != ' ' && c != ')' {
			return sfItem{}, p.fail("want ' ' or ')' in an inner list")
		}
	}
}

func (p *sfParser) item() (sfItem, error) {
	v, err := p.bare()
	if err != nil {
		return sfItem{}, err
	}
	ps, err := p.parameters()
	return sfItem{value: v, params: ps}, err
}

func (p *sfParser) parameters() ([]sfParam, error) {
	var ps []sfParam
	for p.peek() == ';' {
		p.i++
		p.skip(" ")
		name, err := p.key()
		if err != nil {
			return nil, err
		}
		var v any = true
		if p.peek() == '=' {
			p.i++
			if v, err = p.bare(); err != nil {
				return nil, err
			}
		}
		ps = append(ps, sfParam{name, v})
	}
	return ps, nil
}

func (p *sfParser) bare() (any, error) {
	switch c := p.peek(); {
	case c == '-' || c >= '0' && c <= '9':
		start := p.i
		p.i++
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		if p.peek() == '.' {
			return nil, p.fail("decimals are not used here")
		}
		n, err := strconv.ParseInt(p.s[start:p.i], 10, 64)
		if err != nil || p.i-start > 15+strings.Count(p.s[start:p.i], "-") {
			return nil, p.fail("bad integer")
		}
		return n, nil
	case c == '"':
		p.i++
		var b strings.Builder
		for p.i < len(p.s) {
			c := p.s[p.i]
			p.i++
			switch {
			case c == '\\':
				if p.i == len(p.s) || p.s[p.i] != '"' && p.s[p.i] != '\\' {
					return nil, p.fail("bad escape")
				}
				b.WriteByte(p.s[p.i])
				p.i++
			case c == '"':
				return b.String(), nil
			case c < 0x20 || c > 0x7e:
				return nil, p.fail("bad string character")
			default:
				b.WriteByte(c)
			}
		}
		return nil, p.fail("unterminated string")
	case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '*':
		start := p.i
		for p.i < len(p.s) {
			c := p.s[p.i]
			if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),;<=>?@[\]{}`, c) >= 0 {
				break
			}
			p.i++
		}
		return token(p.s[start:p.i]), nil
	case c == ':':
		end := strings.IndexByte(p.s[p.i+1:], ':')
		if end < 0 {
			return nil, p.fail("unterminated byte sequence")
		}
		b, err := base64.StdEncoding.DecodeString(p.s[p.i+1 : p.i+1+end])
		if err != nil {
			return nil, p.fail("bad byte sequence")
		}
		p.i += end + 2
		return b, nil
	case c == '?':
		if p.i+1 < len(p.s) && (p.s[p.i+1] == '0' || p.s[p.i+1] == '1') {
			p.i += 2
			return p.s[p.i-1] == '1', nil
		}
		return nil, p.fail("bad boolean")
	}
	return nil, p.fail("want an item")
}

// serialize writes an item or inner list back, as RFC 8941 §4.1 does.
func (it sfItem) serialize() string {
	var b strings.Builder
	if it.isList {
		b.WriteByte('(')
		for i, inner := range it.list {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(inner.serialize())
		}
		b.WriteByte(')')
	} else {
		b.WriteString(serializeBare(it.value))
	}
	for _, p := range it.params {
		b.WriteString(";" + p.name)
		if v, ok := p.value.(bool); !ok || !v {
			b.WriteString("=" + serializeBare(p.value))
		}
	}
	return b.String()
}

func serializeBare(v any) string {
	switch v := v.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case string:
		return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
	case token:
		return string(v)
	case []byte:
		return ":" + base64.StdEncoding.EncodeToString(v) + ":"
	case bool:
		if v {
			return "?1"
		}
		return "?0"
	}
	panic(fmt.Sprintf("serializeBare(%T)", v))
}

// message is what a verifier knows of a signed message: its fields, the
// authority it was sent to and, for a response, that of its request.
type message struct {
	header       http.Header
	authority    string
	reqAuthority string
}

// verifiedSig is a signature that verified, with its parameters.
type verifiedSig struct {
	label  string
	input  sfItem // the Signature-Input member
	keyid  string
	expiry time.Time
}

// normalAuthority is the @authority of a message sent to host by scheme,
// as a verifier reads it (RFC 9421 §2.2.3, RFC 9110 §4.2.3): lower case,
// no default port.
func normalAuthority(host, scheme string) string {
	host = strings.ToLower(host)
	if h, port, err := net.SplitHostPort(host); err == nil {
		if port == "" || scheme == "https" && port == "443" || scheme == "http" && port == "80" {
			if strings.Contains(h, ":") {
				return "[" + h + "]"
			}
			return h
		}
	}
	return host
}

// componentValue is the value of one covered component (RFC 9421 §2.1,
// §2.2) in msg.
func componentValue(msg message, c sfItem) (string, error) {
	name, ok := c.value.(string)
	if !ok {
		return "", fmt.Errorf("component identifier %v is not a String", c.value)
	}
	if strings.HasPrefix(name, "@") {
		if name != "@authority" {
			return "", fmt.Errorf("derived component %s not supported", name)
		}
		if _, req := c.param("req"); req {
			if msg.reqAuthority == "" {
				return "", errors.New(`"@authority";req on a request`)
			}
			return msg.reqAuthority, nil
		}
		return msg.authority, nil
	}
	values := msg.header.Values(name)
	if len(values) == 0 {
		return "", fmt.Errorf("covered field %s is absent", name)
	}
	if key, ok := c.param("key"); ok {
		k, ok := key.(string)
		if !ok {
			return "", errors.New("key parameter is not a String")
		}
		d, err := parseDict(strings.Join(values, ", "))
		if err != nil {
			return "", fmt.Errorf("field %s: %w", name, err)
		}
		m, ok := d.get(k)
		if !ok {
			return "", fmt.Errorf("field %s has no member %q", name, k)
		}
		return m.serialize(), nil
	}
	for i, v := range values {
		values[i] = strings.Trim(v, " \t")
	}
	return strings.Join(values, ", "), nil
}

// verifyOne checks the signature labelled label in msg with the key
// keyFor gives for its keyid, at now, as RFC 9421 §3.2 does.
func verifyOne(msg message, label string, now time.Time, keyFor func(keyid string) (ed25519.PublicKey, error)) (verifiedSig, error) {
	inputs, err := parseDict(strings.Join(msg.header.Values("Signature-Input"), ", "))
	if err != nil {
		return verifiedSig{}, fmt.Errorf("Signature-Input: %w", err)
	}
	sigs, err := parseDict(strings.Join(msg.header.Values("Signature"), ", "))
	if err != nil {
		return verifiedSig{}, fmt.Errorf("Signature: %w", err)
	}
	input, ok := inputs.get(label)
	if !ok || !input.isList {
		return verifiedSig{}, fmt.Errorf("no Signature-Input %s", label)
	}
	sigItem, ok := sigs.get(label)
	sig, isBytes := sigItem.value.([]byte)
	if !ok || !isBytes {
		return verifiedSig{}, fmt.Errorf("no Signature %s", label)
	}
	created, ok1 := input.param("created")
	expires, ok2 := input.param("expires")
	keyid, ok3 := input.param("keyid")
	c, okc := created.(int64)
	e, oke := expires.(int64)
	k, okk := keyid.(string)
	if !ok1 || !ok2 || !ok3 || !okc || !oke || !okk {
		return verifiedSig{}, errors.New("created, expires or keyid missing")
	}
	if now.Unix() < c {
		return verifiedSig{}, errors.New("created in the future")
	}
	if now.Unix() > e {
		return verifiedSig{}, errors.New("signature expired")
	}
	var base strings.Builder
	for _, comp := range input.list {
		v, err := componentValue(msg, comp)
		if err != nil {
			return verifiedSig{}, err
		}
		base.WriteString(comp.serialize() + ": " + v + "\n")
	}
	base.WriteString(`"@signature-params": ` + input.serialize())
	pub, err := keyFor(k)
	if err != nil {
		return verifiedSig{}, err
	}
	if !ed25519.Verify(pub, []byte(base.String()), sig) {
		return verifiedSig{}, errors.New("signature does not verify")
	}
	return verifiedSig{label: label, input: input, keyid: k, expiry: time.Unix(e, 0)}, nil
}

// labelsTagged returns the labels of the Signature-Input members of h
// whose tag is tag.
func labelsTagged(h http.Header, tag string) ([]string, error) {
	inputs, err := parseDict(strings.Join(h.Values("Signature-Input"), ", "))
	if err != nil {
		return nil, err
	}
	var labels []string
	for _, m := range inputs {
		if t, _ := m.param("tag"); t == tag {
			labels = append(labels, m.key)
		}
	}
	return labels, nil
}

// covers reports whether the inner list of a Signature-Input member
// covers the component name with exactly the parameters given.
func covers(input sfItem, name string, params ...sfParam) bool {
	for _, c := range input.list {
		if c.value == name && slices.EqualFunc(c.params, params, func(a, b sfParam) bool {
			return a.name == b.name && a.value == b.value
		}) {
			return true
		}
	}
	return false
}

// jwkThumbprint computes an Ed25519 key's RFC 7638 thumbprint with
// encoding/json, which writes a map's keys sorted and without spaces:
// the canonical form RFC 7638 §3.3 asks for.
func jwkThumbprint(x string) string {
	b, _ := json.Marshal(map[string]string{"kty": "OKP", "crv": "Ed25519", "x": x})
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// verifyDirectory checks a key directory as the draft's appendix on the
// domain binding asks, and returns its Ed25519 keys by thumbprint. The
// response must be a JWK Set of the directory media type whose
// Content-Digest matches its body, with a valid
// "http-message-signatures-directory" signature by each of its keys (one
// or several, as while a key is rotated) over the authority it was
// fetched from and the digest.
func verifyDirectory(h http.Header, body []byte, reqAuthority string, now time.Time) (map[string]ed25519.PublicKey, error) {
	if ct := h.Get("Content-Type"); ct != "application/http-message-signatures-directory+json" {
		return nil, fmt.Errorf("directory Content-Type %q", ct)
	}
	digests, err := parseDict(h.Get("Content-Digest"))
	if err != nil {
		return nil, fmt.Errorf("Content-Digest: %w", err)
	}
	d, _ := digests.get("sha-256")
	sum := sha256.Sum256(body)
	if got, ok := d.value.([]byte); !ok || string(got) != string(sum[:]) {
		return nil, errors.New("Content-Digest does not match the body")
	}
	var set struct {
		Keys []map[string]any `json:"keys"`
	}
	if err := json.Unmarshal(body, &set); err != nil {
		return nil, fmt.Errorf("directory: %w", err)
	}
	keys := make(map[string]ed25519.PublicKey)
	for _, k := range set.Keys {
		x, _ := k["x"].(string)
		pub, err := base64.RawURLEncoding.DecodeString(x)
		if k["kty"] != "OKP" || k["crv"] != "Ed25519" || err != nil || len(pub) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("directory key %v is not an Ed25519 JWK", k)
		}
		tp := jwkThumbprint(x)
		if kid, ok := k["kid"]; ok && kid != tp {
			return nil, fmt.Errorf("directory kid %v is not the key's thumbprint %s", kid, tp)
		}
		if _, dup := keys[tp]; dup {
			return nil, fmt.Errorf("directory lists key %s twice", tp)
		}
		keys[tp] = pub
	}
	labels, err := labelsTagged(h, "http-message-signatures-directory")
	if err != nil {
		return nil, err
	}
	msg := message{header: h, reqAuthority: reqAuthority}
	proven := make(map[string]bool)
	for _, l := range labels {
		v, err := verifyOne(msg, l, now, func(keyid string) (ed25519.PublicKey, error) {
			if pub, ok := keys[keyid]; ok {
				return pub, nil
			}
			return nil, fmt.Errorf("directory signed by key %s it does not list", keyid)
		})
		if err != nil {
			return nil, fmt.Errorf("directory signature %s: %w", l, err)
		}
		if !covers(v.input, "@authority", sfParam{"req", true}) || !covers(v.input, "content-digest") {
			return nil, fmt.Errorf("directory signature %s does not cover the authority and the digest", l)
		}
		proven[v.keyid] = true
	}
	for tp := range keys {
		if !proven[tp] {
			return nil, fmt.Errorf("directory key %s has no signature", tp)
		}
	}
	return keys, nil
}

// site verifies Web Bot Auth requests as a web site would: it fetches
// the key directory at the agent URL a signature covers, through client,
// checks it, and keeps its keys by URL until the test ends.
type site struct {
	client *http.Client
	now    func() time.Time

	mu   sync.Mutex
	keys map[string]map[string]ed25519.PublicKey // by agent URL, then keyid
}

// verifyRequest checks every Web Bot Auth signature r carries (there
// must be one) as the draft asks: each covers @authority and its own
// Signature-Agent member, an https URL, and verifies with a key of the
// directory at that URL. It returns the agent URLs.
func (s *site) verifyRequest(r *http.Request, scheme string) ([]string, error) {
	labels, err := labelsTagged(r.Header, "web-bot-auth")
	if err != nil {
		return nil, err
	}
	if len(labels) == 0 {
		return nil, errors.New("no web-bot-auth signature")
	}
	agents, err := parseDict(strings.Join(r.Header.Values("Signature-Agent"), ", "))
	if err != nil {
		return nil, fmt.Errorf("Signature-Agent: %w", err)
	}
	msg := message{header: r.Header, authority: normalAuthority(r.Host, scheme)}
	var urls []string
	for _, l := range labels {
		m, ok := agents.get(l)
		agent, isString := m.value.(string)
		if !ok || !isString || m.isList || len(m.params) > 0 {
			return nil, fmt.Errorf("no Signature-Agent member %s holding a bare String", l)
		}
		if u, err := url.Parse(agent); err != nil || u.Scheme != "https" {
			return nil, fmt.Errorf("Signature-Agent %q is not an https URL", agent)
		}
		v, err := verifyOne(msg, l, s.now(), func(keyid string) (ed25519.PublicKey, error) {
			return s.key(agent, keyid)
		})
		if err != nil {
			return nil, fmt.Errorf("signature %s: %w", l, err)
		}
		if !covers(v.input, "@authority") || !covers(v.input, "signature-agent", sfParam{"key", l}) {
			return nil, fmt.Errorf("signature %s does not cover @authority and its Signature-Agent member", l)
		}
		urls = append(urls, agent)
	}
	return urls, nil
}

// key returns the key keyid of the directory at agent, fetching the
// directory the first time.
func (s *site) key(agent, keyid string) (ed25519.PublicKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys, ok := s.keys[agent]
	if !ok {
		var err error
		if keys, err = s.fetch(agent); err != nil {
			return nil, err
		}
		if s.keys == nil {
			s.keys = make(map[string]map[string]ed25519.PublicKey)
		}
		s.keys[agent] = keys
	}
	pub, ok := keys[keyid]
	if !ok {
		return nil, fmt.Errorf("directory %s has no key %s", agent, keyid)
	}
	return pub, nil
}

func (s *site) fetch(agent string) (map[string]ed25519.PublicKey, error) {
	req, err := http.NewRequest(http.MethodGet, agent, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/http-message-signatures-directory+json")
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("directory %s: %s", agent, resp.Status)
	}
	return verifyDirectory(resp.Header, body, normalAuthority(req.URL.Host, "https"), s.now())
}
