package robotstxt

import (
	"net/http"

	"github.com/robotsgate/robotstxt/meta"
)

// Directives reads the X-Robots-Tag headers of resp, a response the
// Transport returned, for the Client's product tokens: whether the page may be
// indexed, its links followed, and the like (see [meta.FromHeader]). A nil
// resp gives the zero Directives, which allow everything. For the robots
// META tags in the page itself use [meta.FromHTML].
func (t *Transport) Directives(resp *http.Response) meta.Directives {
	t.mustBeMade()
	if resp == nil {
		return meta.Directives{}
	}
	return meta.FromHeader(resp.Header, t.c.tokens...)
}
