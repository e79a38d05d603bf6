// Package botauth signs a crawler's HTTP requests so that sites can tell
// who sent them: Web Bot Auth, the profile of HTTP Message Signatures
// (RFC 9421) for automated clients that the IETF Web Bot Auth working
// group writes in draft-ietf-webbotauth-httpsig-protocol, followed here
// as of its revision -01. A site, or the CDN in front of it, that
// verifies these signatures knows the crawler by a key it holds, not by
// its IP addresses or its User-Agent, which anyone can claim; Cloudflare,
// for one, lists an agent as signed only if it signs this way.
//
// # The parts
//
// A crawler has an Ed25519 key pair and an https URL where it publishes
// the public key, its agent URL. A [Signer], made by [NewSigner] from the
// two, signs requests ([Signer.Sign]); [NewTransport] wraps a
// RoundTripper so that every request sent through it is signed; and
// [Signer.Directory] is the handler that serves the public key at the
// agent URL, where sites fetch it:
//
//	signer, err := botauth.NewSigner(key, "https://crawler.example/.well-known/http-message-signatures-directory")
//	...
//	// On crawler.example, the crawler's web site:
//	http.Handle("/.well-known/http-message-signatures-directory", signer.Directory())
//	// In the crawler:
//	hc := &http.Client{Transport: botauth.NewTransport(nil, signer)}
//
// The agent URL and the keys served there are how sites know the
// crawler, so keep both: load the key from where the crawler keeps its
// secrets rather than generating one per run.
//
// # With robotstxt
//
// Given as the next RoundTripper of robotstxt.NewClientTransport (or
// robotstxt.NewTransport), the signing transport signs what the robots.txt
// Transport lets through, pages and redirect hops, and the Client's own
// robots.txt fetches, which go out through the same next:
//
//	rc, rt := robotstxt.NewClientTransport(
//		botauth.NewTransport(robotstxt.PublicOnly(nil), signer),
//		[]robotstxt.Option{robotstxt.WithUserAgent("ExampleBot/1.0 (+https://crawler.example/bot)")},
//	)
//	defer rc.Close()
//	hc := &http.Client{Transport: rt}
//
// A request robots.txt disallows is refused before it reaches the signer,
// so it is neither signed nor sent.
//
// # What a signed request carries
//
// [Signer.Sign] sets three header fields (shown here wrapped):
//
//	Signature-Agent: sig1="https://crawler.example/.well-known/http-message-signatures-directory"
//	Signature-Input: sig1=("@authority" "signature-agent";key="sig1");created=1735689600;
//		expires=1735689660;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";
//		nonce="...";tag="web-bot-auth"
//	Signature: sig1=:...:
//
// Signature-Agent is a Dictionary whose member, keyed by the signature's
// label, is the agent URL as a String: the form the draft requires
// signers to send. It replaced a bare String (Signature-Agent:
// "https://...") in draft-meunier-web-bot-auth-architecture-04, the
// draft's predecessor; verifiers may still accept that form, and signers
// must not send it. The
// signature covers the request's authority and that member; its keyid is
// the key's JWK thumbprint ([Signer.KeyID]); it has a fresh random nonce,
// the tag "web-bot-auth", and no alg parameter, which the draft does not
// ask for. It is valid for a minute unless [WithValidity] says otherwise.
//
// # Limits
//
// The signature covers the site's authority and nothing else of the
// request: not its method, path or body. Whoever sees a signed request (a
// proxy, or anyone on the path of one sent over plain http, which is
// signed too) can send other requests to that site under the crawler's
// name until the signature expires. That is why signatures are short-lived
// and every request gets its own.
//
// A Signer has one key, and its directory lists that key alone. The draft
// rotates keys by listing the new key beside the old one for a while;
// this package does not serve such a directory. A site that meets a keyid
// it does not know may fetch the directory again, but one that does not
// will reject the new key's signatures until its copy of the directory
// expires, a day at most.
package botauth
