package bench

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// realistic is a robots.txt of the kind a mid-sized shop or publisher
// serves: three groups (a named crawler, a second named group and "*"),
// wildcards, "$" anchors, allow overrides, a crawl-delay and sitemaps.
const realistic = `# robots.txt for www.example.com
# Questions: webmaster@example.com

User-agent: ExampleBot
Crawl-delay: 2
Disallow: /search?q=*
Disallow: /*.pdf$
Disallow: /*/private/
Disallow: /cart/
Disallow: /checkout/
Disallow: /shop/*sessionid=
Disallow: /shop/*&sort=
Allow: /shop/*/private/press-kit.html
Allow: /search?q=robots
Allow: /docs/*.pdf$
Disallow: /account

User-agent: Googlebot-Image
User-agent: AdsBot-ModeGoogle
Disallow: /images/private/
Disallow: /*.gif$
Allow: /images/

User-agent: *
Crawl-delay: 10
Disallow: /admin/
Disallow: /cgi-bin/
Disallow: /search
Disallow: /*?*utm_
Disallow: /*.json$
Disallow: /tmp/
Disallow: /shop/*/compare
Allow: /shop/
Allow: /admin/public/
Allow: /search/about$
Disallow: /*/print$
Disallow: /api/
Allow: /api/v2/docs/index.html

Sitemap: https://www.example.com/sitemap.xml
Sitemap: https://www.example.com/sitemap-products.xml.gz
`

// checkAgent and checkPath are the crawler and URL of BenchmarkCheck. The
// path reaches the ExampleBot group's "/shop/*sessionid=" disallow after
// the matcher has had to look at every rule of the group (several of them
// wildcards that scan the path), which is a realistic, not a best, case.
const (
	checkAgent = "ExampleBot"
	checkPath  = "/shop/garden/tools/spade-1234.html?color=green&sessionid=8f3a9c"
	checkURL   = "https://www.example.com" + checkPath
)

// The corpus benchmarks read the full corpus of real bodies from the
// directory ROBOTSTXT_CORPUS names, when it names one, and otherwise the
// sample kept in the repository's testdata (relative to this package).
const corpusSampleDir = "../../testdata/corpus/files"

// corpusFile is one body of the corpus.
type corpusFile struct {
	name string
	body []byte
}

// loadCorpus reads every file of the corpus, sorted by name, and their
// total size, and logs which corpus it read: their numbers differ, so
// results are only comparable between runs that read the same one.
func loadCorpus(b *testing.B) ([]corpusFile, int64) {
	b.Helper()
	dir := filepath.Join(os.Getenv("ROBOTSTXT_CORPUS"), "files")
	ents, err := os.ReadDir(dir)
	if os.Getenv("ROBOTSTXT_CORPUS") != "" && err != nil {
		b.Fatalf("ROBOTSTXT_CORPUS: %v", err) // not the sample in its place, unseen
	}
	if os.Getenv("ROBOTSTXT_CORPUS") == "" {
		dir = corpusSampleDir
		if ents, err = os.ReadDir(dir); err != nil {
			b.Fatalf("corpus sample: %v", err)
		}
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		b.Fatalf("%s holds no files", dir)
	}
	files := make([]corpusFile, 0, len(names))
	var total int64
	for _, n := range names {
		body, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, corpusFile{name: n, body: body})
		total += int64(len(body))
	}
	b.Logf("corpus %s: %d files, %d bytes", dir, len(files), total)
	return files, total
}

// hostileSize is the approximate size of the generated hostile file.
const hostileSize = 300 << 10

// hostile returns a robots.txt of about hostileSize bytes whose rules are
// '*'-heavy patterns of varying shape, some ending in '$', and a 2 KB path
// that nearly matches all of them: every rule has to be followed deep into
// the path before it fails.
//
// The path is "/" followed by runs of 'a' separated by single 'b's, ending
// in "ac". The patterns are built from the same alphabet and end in
// something the path does not have at the right place ("c$" after a 'b',
// a final 'd', "bbb", a long run of 'a's longer than any in the path, ...).
func hostile() (body []byte, path string) {
	rng := rand.New(rand.NewPCG(2, 3))

	var p strings.Builder
	p.WriteByte('/')
	for p.Len() < 2046 {
		p.WriteString(strings.Repeat("a", 5+rng.IntN(40)))
		p.WriteByte('b')
	}
	p.WriteString("ac")
	path = p.String()[:2048-2] + "ac"

	var sb strings.Builder
	sb.WriteString("# hostile: '*'-heavy rules against a 2 KB path\nUser-agent: *\n")
	for i := 0; sb.Len() < hostileSize; i++ {
		var r strings.Builder
		if i%5 == 4 {
			r.WriteString("Allow: /")
		} else {
			r.WriteString("Disallow: /")
		}
		n := 10 + rng.IntN(190) // number of '*' in the pattern
		switch i % 6 {
		case 0: // /*a*a*a…*d : single-byte segments, last one absent
			for range n {
				r.WriteString("*a")
			}
			r.WriteString("*d")
		case 1: // /*a*a*a…*b*bc$ : anchored end that fails at the very end
			for range n {
				r.WriteString("*a")
			}
			r.WriteString("*b*bc$")
		case 2: // /*aaaa…ab* : multi-byte segments, each almost found
			for range n / 4 {
				r.WriteByte('*')
				r.WriteString(strings.Repeat("a", 1+rng.IntN(6)))
				r.WriteByte('b')
			}
			r.WriteString("*" + strings.Repeat("a", 60) + "b")
		case 3: // /*ab*ab*…*bbb : segments found, final one never
			for range n {
				r.WriteString("*ab")
			}
			r.WriteString("*bbb")
		case 4: // allow /*a*…*a$ : ends on 'a' where the path ends on 'c'
			for range n {
				r.WriteString("*a")
			}
			r.WriteString("$")
		case 5: // /a*a*a… then a literal tail that is nearly there
			for range n {
				r.WriteString("a*")
			}
			r.WriteString("aab*acc*")
		}
		r.WriteByte('\n')
		sb.WriteString(r.String())
	}
	return []byte(sb.String()), path
}

// hostileLimits returns the worst robots.txt found for a check at the
// limits a Client checks within, a file of the 500 KiB the parser reads
// and a path of the 8 KiB a URL's path and query may hold (past it,
// ErrBadURL): SECURITY.md's "a fraction of a second at worst". The path is
// random letters and digits; each rule, "/*X*Y$", holds a 3-byte X found
// only near the path's end and a 3-byte Y found earlier, so every rule's
// grams are in the path, the search for X scans nearly all of it, and the
// rule fails only at its '$'.
func hostileLimits() (body []byte, path string) {
	const alpha = "abcdefghijklmnopqrstuvwxyz0123456789"
	rng := rand.New(rand.NewPCG(11, 13))
	p := make([]byte, 8<<10)
	p[0] = '/'
	for i := 1; i < len(p); i++ {
		p[i] = alpha[rng.IntN(len(alpha))]
	}
	path = string(p)
	var sb strings.Builder
	sb.WriteString("# hostile: the worst found at a Client's limits\nUser-agent: *\n")
	for sb.Len() < 500<<10-32 {
		x := len(path) - 100 + rng.IntN(90)
		y := 1 + rng.IntN(len(path)-4)
		fmt.Fprintf(&sb, "Disallow: /*%s*%s$\n", path[x:x+3], path[y:y+3])
	}
	return []byte(sb.String()), path
}

// percentile returns the q-quantile (0 ≤ q ≤ 1) of sorted samples.
func percentile(sorted []int64, q float64) int64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted)-1) + 0.5)
	return sorted[i]
}

// hostileScan returns a robots.txt of about hostileSize bytes built to
// cost the most per rule for a matcher that searches each '*' segment with
// a substring search, and its 2 KB path. The path is "/", a run of 'a's and
// the tail "bcdefghijklmnop"; each rule is "/*", a run of 8–60 'a's, one
// of the tail letters c…p (which never follows an 'a' in the path), and a
// random '*'-separated tail. The first segment is therefore never found
// and every rule scans the whole path. The rules are all distinct and use
// only bytes that the path holds, so neither removing duplicate rules nor
// a byte-set filter would avoid the scans.
func hostileScan() (body []byte, path string) {
	const tail = "bcdefghijklmnop"
	path = "/" + strings.Repeat("a", 2048-1-len(tail)) + tail
	rng := rand.New(rand.NewPCG(5, 7))
	var sb strings.Builder
	sb.WriteString("# hostile: every rule scans the whole 2 KB path\nUser-agent: *\n")
	for i := 0; sb.Len() < hostileSize; i++ {
		if i%5 == 4 {
			sb.WriteString("Allow: /*")
		} else {
			sb.WriteString("Disallow: /*")
		}
		sb.WriteString(strings.Repeat("a", 8+rng.IntN(53)))
		sb.WriteByte(tail[1+rng.IntN(len(tail)-1)])
		for range 1 + rng.IntN(4) {
			sb.WriteByte('*')
			sb.WriteByte(tail[rng.IntN(len(tail))])
			sb.WriteByte('a' + byte(rng.IntN(16)))
		}
		if i%3 == 0 {
			sb.WriteByte('$')
		}
		sb.WriteByte('\n')
	}
	return []byte(sb.String()), path
}
