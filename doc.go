// Package robotstxt reads robots.txt files the way Google's reference
// parser does (RFC 9309 plus Google's tolerance for real-world files) and
// answers whether a crawler may fetch a URL.
//
// Parse and Robots work on a body the caller already has, with no HTTP.
// Client fetches, caches and revalidates robots.txt per authority and is
// what a crawler normally uses. Transport puts a Client in front of any
// net/http crawler (colly included): every request and redirect hop
// checked, each authority's crawl-delay kept.
package robotstxt
