package main

import (
	"fmt"
	"strings"

	urltarget "github.com/robotsgate/robotstxt/internal/target"
)

// pathSite is the site that a bare path typed for a local robots.txt is
// put on, so that it goes through the Client's own URL splitting and
// escaping. The .invalid name can never be a real host.
const pathSite = "http://robots.invalid"

// A target is a URL argument read as the Client reads URLs.
type target struct {
	arg       string // as typed
	authority string // normalised, such as "https://example.com:443"; "" for a bare path
	path      string // escaped path, params and query that rules are matched against
}

// parseTarget reads a URL argument as the Client reads URLs, with
// internal/target's Split, so it accepts exactly the URLs the Client
// accepts (absolute http and https URLs), with its errors, which wrap
// robotstxt.ErrBadURL. When bare is set, as for a local robots.txt, a path that
// starts with a single "/" is accepted too, as a path on the file's site.
func parseTarget(arg string, bare bool) (target, error) {
	if bare && strings.HasPrefix(arg, "/") && !strings.HasPrefix(arg, "//") {
		_, path, err := urltarget.Split(pathSite+arg, nil)
		if err != nil {
			return target{}, err
		}
		return target{arg: arg, path: path}, nil
	}
	auth, path, err := urltarget.Split(arg, nil)
	if err != nil {
		if bare {
			return target{}, fmt.Errorf("%w (give an http or https URL, or a path that starts with /)", err)
		}
		return target{}, err
	}
	return target{arg: arg, authority: string(auth), path: path}, nil
}

// parseTargets reads every argument with parseTarget and stops at the
// first that is not accepted.
func parseTargets(args []string, bare bool) ([]target, error) {
	out := make([]target, 0, len(args))
	for _, a := range args {
		t, err := parseTarget(a, bare)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// checkURL is what Robots.Check is given for t: an absolute URL, so that a
// path that starts with "//" keeps its first segment.
func (t target) checkURL() string {
	return pathSite + t.path
}
