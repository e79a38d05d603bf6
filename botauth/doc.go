// Package botauth signs a crawler's HTTP requests so that sites can tell
// who sent them: Web Bot Auth, the profile of HTTP Message Signatures
// (RFC 9421) for automated clients that the IETF Web Bot Auth working
// group writes in draft-ietf-webbotauth-httpsig-protocol, followed here
// as of its revision -01. A site, or the CDN in front of it, that
// verifies these signatures knows the crawler by a key it holds, not by
// its IP addresses or its User-Agent, which anyone can claim; Cloudflare,
// for one, lists an agent as signed only if it signs this way.
//
// A crawler has an Ed25519 key pair and an https URL where it publishes
// the public key, its agent URL. A [Signer], made by [NewSigner] from the
// two, signs requests ([Signer.Sign]); [NewTransport] wraps a
// RoundTripper so that every request sent through it is signed; and
// [Signer.Directory] is the handler that serves the public key at the
// agent URL, where sites fetch it. Sites know the crawler by the agent
// URL and the keys served there, so keep both: load the key from where
// the crawler keeps its secrets rather than generating one per run.
//
// As the next RoundTripper of robotstxt.NewClientTransport, the signing
// transport signs the pages and redirect hops that robots.txt lets
// through and the Client's own robots.txt fetches (see the package
// example); a request robots.txt disallows is neither signed nor sent.
//
// # Limits
//
// The signature covers the site's authority and nothing else of the
// request: not its method, path or body. Whoever sees a signed request (a
// proxy, or anyone on the path of one sent over plain http, which is
// signed too) can send other requests to that site under the crawler's
// name until the signature expires. That is why signatures are short-lived
// and every request gets its own, and why a signature must reach no other
// site (see [Signer.Sign] and [NewTransport]).
//
// # Key rotation
//
// Sites cache the directory for up to a day, and a site that meets a
// keyid it does not know may reject the signature rather than fetch the
// directory again. To change keys, list the new key beside the old one
// ([WithDirectoryKeys]) at least a day before signing with it; then sign
// with the new key, listing the old one until no signature it made is
// still valid (every instance of the crawler has changed, plus the
// signatures' validity); then list the new key alone.
package botauth
