// Package robotstxt reads robots.txt files the way Google's reference
// parser does (RFC 9309 plus Google's tolerance for real-world files) and
// answers whether a crawler may fetch a URL.
//
// Parse and Robots work on a body the caller already has, with no HTTP.
// Client fetches, caches and revalidates robots.txt per authority and is
// what a crawler normally uses.
package robotstxt
