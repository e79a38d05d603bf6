package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	robotsgate "github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/internal/parse"
)

// These benchmarks measure how finding a crawler's groups scales with the
// number of groups: files that shut out hundreds of bots, one group each,
// are common, and a crawler checks them all the same.

// manyGroups is the shop file after extra one-line groups, each naming a
// bot and disallowing everything, as the lists of "bad bots" that sites
// copy do: the same rules for shopAgent, among groups+3 groups.
func manyGroups(groups int) []byte {
	var b strings.Builder
	for i := range groups {
		fmt.Fprintf(&b, "User-agent: Scraper%c%c%c\nDisallow: /\n", 'A'+i%26, 'a'+i/26%26, 'a'+i/676%26)
	}
	b.WriteString(shop)
	return []byte(b.String())
}

// warmAgent is a crawler checked first, so that a Robots remembers its
// groups and not those of the crawler measured: the measured look-ups are
// those of a crawler the Robots did not see first.
const warmAgent = "WarmBot"

// BenchmarkManyGroups checks shopAgent's paths against the shop file with
// 1,997 extra groups (2,000 in all), beside the same checks against the
// shop file alone (3 groups), the baseline: Robots.Allowed and
// Robots.Check. x-baseline is the ratio (target: 2 at most).
func BenchmarkManyGroups(b *testing.B) {
	small := robotsgate.Parse([]byte(shop))
	largeBody := manyGroups(1997)
	large := robotsgate.Parse(largeBody)
	if n := len(parse.Parse(largeBody).Groups); n != 2000 {
		b.Fatalf("the large file has %d groups", n)
	}
	for _, r := range []*robotsgate.Robots{small, large} {
		sinkBool = r.Allowed(warmAgent, "/")
		for _, c := range shopChecks {
			if r.Allowed(shopAgent, c.path) != c.allow || r.Check(shopAgent, c.path).Allowed != c.allow {
				b.Fatalf("%s: wrong answer", c.path)
			}
		}
	}
	path := func(i int) string { return shopChecks[i%len(shopChecks)].path }
	b.Run("Allowed", func(b *testing.B) {
		b.ReportAllocs()
		pair(b, 100, func(i int) { sinkBool = small.Allowed(shopAgent, path(i)) },
			func(i int) { sinkBool = large.Allowed(shopAgent, path(i)) })
	})
	b.Run("Check", func(b *testing.B) {
		b.ReportAllocs()
		pair(b, 100, func(i int) { sinkBool = small.Check(shopAgent, path(i)).Allowed },
			func(i int) { sinkBool = large.Check(shopAgent, path(i)).Allowed })
	})
}

// agentQuery is one check of the held-out mix: a crawler and a URL.
type agentQuery struct{ agent, url string }

// unknownAgents are crawlers that no corpus file names.
var unknownAgents = []string{"ZzyzxCrawler", "Qwertybot"}

// mixOf draws the held-out query mix of a file: up to six of the tokens
// its own user-agent lines name, spread over the file, and the unknown
// agents, each with the paths queriesOf draws from the rules that agent
// obeys (at most 8 of them, at random). The draw depends only on the file
// and a fixed seed; the engine is not tuned on it.
func mixOf(name string, body []byte, r *robotsgate.Robots) []agentQuery {
	var tokens []string
	for _, g := range parse.Parse(body).Groups {
		for _, a := range g.Agents {
			if a.Token != "" && !slices.Contains(tokens, a.Token) {
				tokens = append(tokens, a.Token)
			}
		}
	}
	var seed uint64
	for _, c := range name {
		seed = seed*31 + uint64(c)
	}
	rnd := rand.New(rand.NewPCG(seed, 20261124))
	var agents []string
	for i := range min(len(tokens), 6) {
		agents = append(agents, tokens[i*len(tokens)/min(len(tokens), 6)])
	}
	agents = append(agents, unknownAgents...)
	var mix []agentQuery
	for _, a := range agents {
		qs := queriesFor(r, a)
		rnd.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
		for _, q := range qs[:min(len(qs), 8)] {
			mix = append(mix, agentQuery{a, q})
		}
	}
	rnd.Shuffle(len(mix), func(i, j int) { mix[i], mix[j] = mix[j], mix[i] })
	return mix
}

// BenchmarkCorpusAgentMix is BenchmarkCorpusCheck over the held-out mix
// of each file (mixOf), in which most checks are for a crawler other than
// the one the Robots saw first: the median and maximum over the files of
// the mean check, and their ratio (target: 20 at most). One op is one pass
// over the corpus; run it with -benchtime=1x.
func BenchmarkCorpusAgentMix(b *testing.B) {
	files, rs := parseCorpus(b)
	mixes := make([][]agentQuery, len(files))
	for i, r := range rs {
		mixes[i] = mixOf(files[i].name, files[i].body, r)
		sinkBool = r.Allowed(warmAgent, "/")
	}
	var perFile []float64
	for b.Loop() {
		perFile = timePerFile(len(files), func(i int) int {
			for _, q := range mixes[i] {
				sinkBool = rs[i].Allowed(q.agent, q.url)
			}
			return len(mixes[i])
		})
	}
	reportSpread(b, perFile, func(i int) string {
		return fmt.Sprintf("%s, %d groups", files[i].name, len(parse.Parse(files[i].body).Groups))
	})
}
