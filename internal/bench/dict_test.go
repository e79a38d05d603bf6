package bench

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"cmp"
	"slices"
	"strings"
)

// The Zstandard dictionary the Client compresses cached bodies with
// (body.dict in the repository root) is built by TestBodyDict from the
// corpus sample in the repository (testdata/corpus/files), so that anyone
// can rebuild it byte for byte:
//
//	go test -run '^TestBodyDict$' -update-dict .
//
// Building is deterministic: the same files, options and library version
// give the same bytes, which TestBodyDict checks on every run.
var updateDict = flag.Bool("update-dict", false, "rewrite ../../body.dict from the corpus sample")

const (
	// dictPath is the dictionary the root package embeds.
	dictPath = "../../body.dict"
	// bodyDictID is the dictionary's Zstandard id, which every frame the
	// Client writes names; it must match the root package's bodyDictID.
	// Ids below 32768 are reserved, so a private dictionary takes one above.
	bodyDictID = 0x72620001
	// dictSize is the dictionary's size: 32 KiB keeps what helps most
	// bodies (the common keys, paths and comments of CMSs and shops),
	// while a larger one costs every encoder more to load for little gain
	// on bodies whose median is half a kilobyte.
	dictSize = 32 << 10
	// dictSampleBytes is how much of each file trains the dictionary:
	// only the start of a body matters to what a dictionary holds.
	dictSampleBytes = 32 << 10
)

// dictSamples returns the start of every file of the corpus sample, in
// name order.
func dictSamples(tb testing.TB) [][]byte {
	ents, err := os.ReadDir(corpusSampleDir)
	if err != nil {
		tb.Fatal(err)
	}
	var samples [][]byte
	for _, e := range ents { // sorted by name
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(corpusSampleDir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		samples = append(samples, b[:min(len(b), dictSampleBytes)])
	}
	return samples
}

// buildBodyDict builds the dictionary's content from the corpus sample:
// the lines that most files share, the ones that save the most last,
// where a match costs the fewest bits. A line's worth is the bytes it
// would save, its length times the files beyond the first that hold it;
// lines in fewer than minDictFiles files are left out, since they teach
// a dictionary one site rather than robots.txt files.
func buildBodyDict(tb testing.TB) []byte {
	type line struct {
		text  string
		files int
	}
	seen := map[string]*line{}
	var lines []*line
	for _, s := range dictSamples(tb) {
		inFile := map[string]bool{}
		for l := range strings.Lines(string(s)) {
			if len(l) < 4 || inFile[l] {
				continue
			}
			inFile[l] = true
			if seen[l] == nil {
				seen[l] = &line{text: l}
				lines = append(lines, seen[l])
			}
			seen[l].files++
		}
	}
	worth := func(l *line) int { return (l.files - 1) * len(l.text) }
	slices.SortStableFunc(lines, func(a, b *line) int {
		if c := cmp.Compare(worth(b), worth(a)); c != 0 {
			return c
		}
		return strings.Compare(a.text, b.text)
	})
	var keep []string
	size := 0
	for _, l := range lines {
		if l.files < minDictFiles || size+len(l.text) > dictSize {
			continue
		}
		keep = append(keep, l.text)
		size += len(l.text)
	}
	slices.Reverse(keep)
	return []byte(strings.Join(keep, ""))
}

// minDictFiles is the fewest files of the sample a line of the
// dictionary must appear in.
const minDictFiles = 3

// dictContent returns the dictionary's content.
func dictContent(_ testing.TB, d []byte) []byte { return d }

// TestBodyDict rebuilds the dictionary and checks that it is the one
// committed, or writes it with -update-dict.
func TestBodyDict(t *testing.T) {
	d := buildBodyDict(t)
	if again := buildBodyDict(t); !bytes.Equal(d, again) {
		t.Fatal("two builds of the dictionary differ: the build is not reproducible")
	}
	if *updateDict {
		if err := os.WriteFile(dictPath, d, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d bytes", dictPath, len(d))
		return
	}
	committed, err := os.ReadFile(dictPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, d) {
		t.Fatalf("%s is not what the corpus sample builds (%d bytes, built %d): run with -update-dict", dictPath, len(committed), len(d))
	}
}
