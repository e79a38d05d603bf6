// Package botauth signs a crawler's HTTP requests for Web Bot Auth, the
// profile of HTTP Message Signatures (RFC 9421) for automated clients in
// draft-ietf-webbotauth-httpsig-protocol, as of its revision -01. A site,
// or the CDN in front of it, that verifies these signatures knows the
// crawler by a key it holds, not by its IP addresses or its User-Agent,
// which anyone can claim; Cloudflare lists an agent as signed only if it
// signs this way.
//
// A crawler has an Ed25519 key pair and an https URL where it publishes
// the public key, its agent URL. A [Signer], made by [NewSigner] from the
// two, signs requests, and serves the public key at the agent URL, or
// at the well-known URI of an agent URL that is an origin
// ([Signer.Directory]). Sites know the crawler by both, so load the key
// from where the crawler keeps its secrets rather than generating one per
// run. As the next RoundTripper of robotstxt.NewClientTransport,
// [NewTransport] signs the pages and redirect hops that robots.txt lets
// through and the Client's own robots.txt fetches.
//
// # Limits
//
// The signature covers the site's authority and nothing else of the
// request. Whoever sees a signed request (a proxy, or anyone on the path
// of one sent over plain http) can send other requests to that site under
// the crawler's name until the signature expires: hence short-lived
// signatures, one per request, that must reach no other site (see
// [Signer.Sign]).
//
// # Key rotation
//
// Sites cache the directory for up to a day, and may reject a keyid they
// do not know rather than fetch it again. To change keys, list the new
// key beside the old one ([WithDirectoryKeys]) at least a day before
// signing with it; then sign with the new key, listing the old one until
// no signature it made is still valid; then list the new key alone.
package botauth
