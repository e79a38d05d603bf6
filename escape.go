package robotstxt

// checkable returns path in a form Robots.Check reads as a path. A path
// starting with "//" would be taken for a scheme-relative URL and lose its
// first segment, so it is given a placeholder scheme and authority.
func checkable(path string) string {
	if len(path) > 1 && path[1] == '/' {
		return "http://_" + path
	}
	return path
}
