// Package crawltest sets up, for the tests of a shared [robotstxt.Store],
// the world a fleet of crawlers lives in, from real parts on this
// machine:
//
//   - many web sites served by one loopback HTTP server ([Web]), whose
//     client dials that server whatever host a URL names, so that no
//     name ever reaches a resolver;
//   - site names ([Host], [Hosts]) and, for each, URLs whose right
//     answers depend on that site's own robots.txt ([Probes]), so that an
//     answer taken from another site's rules is caught;
//   - crawler processes: the test binary run again as a helper
//     ([StartChild]), talked to over stdin and stdout with every wait
//     bounded, and killed when the test ends.
//
// Only tests import it.
package crawltest
