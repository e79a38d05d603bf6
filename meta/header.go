package meta

import (
	"net/http"
	"slices"
	"strings"
)

// FromHeader reads the X-Robots-Tag headers of a response. A value may
// name a crawler first ("googlebot: noindex"), in which case it applies
// only to the crawler known by that product token, one of tokens; other
// values apply to every crawler. Several values add up, the most
// restrictive reading winning.
func FromHeader(h http.Header, tokens ...string) Directives {
	var d Directives
	for _, v := range h.Values("X-Robots-Tag") {
		if who, rest, ok := strings.Cut(v, ":"); ok && isAgentName(who) {
			if !namesAny(strings.TrimSpace(who), tokens) {
				continue
			}
			v = rest
		}
		d.add(v)
	}
	return d
}

// isAgentName reports whether s, the text before a colon, names a crawler
// rather than starting a directive that has a value of its own.
func isAgentName(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || strings.ContainsAny(s, " ,") {
		return false
	}
	switch s {
	case "unavailable_after", "max-snippet", "max-image-preview", "max-video-preview":
		return false
	}
	return true
}

func namesAny(who string, tokens []string) bool {
	return slices.ContainsFunc(tokens, func(t string) bool { return strings.EqualFold(who, t) })
}
