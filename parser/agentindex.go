package parser

import (
	"cmp"
	"hash/maphash"
	"math/bits"
	"slices"
	"unsafe"
)

// A table with many user-agent lines indexes them by product token, so
// that finding the groups that name a crawler costs a hash and a look at
// the tokens that share its bucket, however many groups the file has
// (files that shut out hundreds of bots, one group each, are common), and
// the groups of each token are listed once, so that a check need not
// gather them. Tables with few lines have no index: a look-up compares
// the crawler's token with each line, which costs less than hashing it.
// The index is built with the rules' (see Table.index), and only for
// tables that [Parser.Compile] makes: those [Table.Select] makes have no
// user-agent lines.

// indexedAgents is the number of user-agent lines from which a table
// indexes them. Below it, comparing a token with every line costs about
// as much as hashing it, and files with a line or two, most of them, keep
// no index at all (BenchmarkAgentLookup under callgrind, tokens of the
// lines' length: with 3 lines a look-up takes 747–811 instructions
// compared and 601–633 hashed, with 5 lines 1,233–1,428 and 509–601, with
// 17 lines 4,173–5,130 and 606–648).
const indexedAgents = 4

// agentIndex lists the distinct product tokens of a table's user-agent
// lines in buckets by a hash of the token in lower case, and the groups
// each names.
type agentIndex struct {
	seed maphash.Seed
	// heads holds where each bucket's tokens start in names, and where
	// the last ends; there are a power of two buckets, at least one a
	// token.
	heads []uint32
	// names holds the distinct tokens, bucket by bucket, and one more
	// whose start is that of the groups with a "*" line.
	names []agentName
	// groups holds the groups of each token in file order, one token
	// after another, and then the groups with a "*" line.
	groups []int
}

// agentName is a distinct token of an agentIndex: a user-agent line that
// holds it, and where its groups start in agentIndex.groups; they end
// where the next token's start.
type agentName struct {
	agent, start uint32
}

// newAgentIndex indexes the user-agent lines of t, or returns nil when
// they are fewer than indexedAgents.
func newAgentIndex(t *Table) *agentIndex {
	if len(t.file.agents) < indexedAgents {
		return nil
	}
	return buildAgentIndex(t)
}

// buildAgentIndex indexes the user-agent lines of t.
func buildAgentIndex(t *Table) *agentIndex {
	f := t.file
	ix := &agentIndex{seed: maphash.MakeSeed()}
	// Each line with a token, by the token in lower case and then in file
	// order; the first of each run of one token stands for it.
	type line struct {
		hash  uint64
		agent uint32
		group int
	}
	var lines []line
	var global []int
	for g := range f.groups {
		s, e := t.span(g)
		star := false
		for i := s.agents; i < e.agents; i++ {
			a := &f.agents[i]
			star = star || a.global
			if a.tok > 0 {
				lines = append(lines, line{ix.hash(t.str(a.off, int(a.tok))), i, g})
			}
		}
		if star {
			global = append(global, g)
		}
	}
	token := func(l line) string { a := &f.agents[l.agent]; return t.str(a.off, int(a.tok)) }
	slices.SortStableFunc(lines, func(a, b line) int {
		if c := cmp.Compare(a.hash, b.hash); c != 0 {
			return c
		}
		return compareFold(token(a), token(b))
	})
	distinct := 0
	for i := range lines {
		if i == 0 || compareFold(token(lines[i-1]), token(lines[i])) != 0 {
			distinct++
		}
	}
	nb := 1 << bits.Len(uint(max(distinct, 1)-1))
	ix.heads = make([]uint32, nb+1)
	ix.names = make([]agentName, 0, distinct+1)
	ix.groups = make([]int, 0, len(lines)+len(global))
	// Sorted by hash, the tokens come bucket by bucket only when the
	// bucket is taken from the top bits of the hash.
	shift := 64 - bits.Len(uint(nb-1))
	for i := range lines {
		l := &lines[i]
		if i == 0 || compareFold(token(lines[i-1]), token(*l)) != 0 {
			ix.names = append(ix.names, agentName{agent: l.agent, start: uint32(len(ix.groups))})
			ix.heads[bucket(l.hash, shift)+1]++
		}
		if n := len(ix.groups); n == int(ix.names[len(ix.names)-1].start) || ix.groups[n-1] != l.group {
			ix.groups = append(ix.groups, l.group)
		}
	}
	for k := range nb {
		ix.heads[k+1] += ix.heads[k]
	}
	ix.names = append(ix.names, agentName{start: uint32(len(ix.groups))})
	ix.groups = append(ix.groups, global...)
	return ix
}

// bucket returns the bucket of a hash among 1<<(64-shift).
func bucket(h uint64, shift int) int {
	if shift == 64 {
		return 0
	}
	return int(h >> shift)
}

// hash returns the hash of token in lower case.
func (ix *agentIndex) hash(token string) uint64 {
	var buf [64]byte
	if len(token) <= len(buf) {
		return maphash.Bytes(ix.seed, lowerInto(buf[:0], token))
	}
	var h maphash.Hash
	h.SetSeed(ix.seed)
	for token != "" {
		n := min(len(token), len(buf))
		h.Write(lowerInto(buf[:0], token[:n]))
		token = token[n:]
	}
	return h.Sum64()
}

// compareFold compares a and b as strings.Compare does their ASCII lower
// case.
func compareFold(a, b string) int {
	for i := range min(len(a), len(b)) {
		if c := cmp.Compare(lowerByte(a[i]), lowerByte(b[i])); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// lowerInto appends s with its ASCII letters in lower case to dst.
func lowerInto(dst []byte, s string) []byte {
	for i := range len(s) {
		dst = append(dst, lowerByte(s[i]))
	}
	return dst
}

// named returns the groups whose user-agent lines name token, a token
// that is not empty, in file order; nil when none does.
func (ix *agentIndex) named(t *Table, token string) []int {
	shift := 64 - bits.Len(uint(len(ix.heads)-2))
	k := bucket(ix.hash(token), shift)
	for i := ix.heads[k]; i < ix.heads[k+1]; i++ {
		if t.agentNames(&t.file.agents[ix.names[i].agent], token) {
			return ix.groups[ix.names[i].start:ix.names[i+1].start:ix.names[i+1].start]
		}
	}
	return nil
}

// global returns the groups with a "*" line, in file order.
func (ix *agentIndex) global() []int {
	start := ix.names[len(ix.names)-1].start
	return ix.groups[start:len(ix.groups):len(ix.groups)]
}

// size returns the bytes ix retains.
func (ix *agentIndex) size() int {
	if ix == nil {
		return 0
	}
	return int(unsafe.Sizeof(*ix)) + cap(ix.heads)*int(unsafe.Sizeof(uint32(0))) +
		cap(ix.names)*int(unsafe.Sizeof(agentName{})) + cap(ix.groups)*int(unsafe.Sizeof(0))
}
