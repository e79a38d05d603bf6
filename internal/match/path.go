package match

import "strings"

// Path is [github.com/robotsgate/robotstxt/matcher.Path]. It allocates
// only when the result must gain its leading "/".
func Path(url string) string {
	p := url
	if len(url) == 0 || url[0] != '/' || len(url) > 1 && url[1] == '/' {
		p = pathOf(url)
	} else if h := strings.IndexByte(url, '#'); h >= 0 {
		p = url[:h] // a path already: only a fragment can follow
	}
	if z := strings.IndexByte(p, 0); z >= 0 {
		return p[:z] // Google's parser reads the path as a C string
	}
	return p
}

// pathOf is Path for a URL that is not a path, but for the cut at a NUL
// byte.
func pathOf(url string) string {
	rest := strings.TrimPrefix(url, "//")
	early := indexPathStart(rest)
	proto := strings.Index(rest, "://")
	authEnd := 0
	if proto >= 0 && (early < 0 || proto < early) {
		authEnd = proto + 3
	}
	i := indexPathStart(rest[authEnd:])
	if i < 0 {
		return "/"
	}
	i += authEnd
	if h := strings.IndexByte(rest, '#'); h >= 0 {
		if h < i {
			return "/"
		}
		rest = rest[:h]
	}
	p := rest[i:]
	if p[0] != '/' {
		return "/" + p
	}
	return p
}

// indexPathStart returns the index of the first '/', '?' or ';' in s, or
// -1; strings.IndexAny's set-up costs more than these short scans.
func indexPathStart(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '/' || c == '?' || c == ';' {
			return i
		}
	}
	return -1
}
