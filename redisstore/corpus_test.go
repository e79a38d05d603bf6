package redisstore

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// medianCorpusFile returns the name and body of the corpus file of median
// size (a kind=robots one when several have that size). The corpus lives
// in ../shared/corpus relative to the repository root; without it the
// benchmark is skipped.
func medianCorpusFile(tb testing.TB) (name string, body []byte) {
	tb.Helper()
	dir := filepath.Join(repoRoot(tb), "..", "shared", "corpus")
	f, err := os.Open(filepath.Join(dir, "index.tsv"))
	if err != nil {
		tb.Skipf("corpus not available: %v", err)
	}
	defer f.Close()
	type row struct {
		file, kind string
		size       int
	}
	var rows []row
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		size, err := strconv.Atoi(cols[1])
		if len(cols) < 9 || err != nil {
			continue // the header
		}
		rows = append(rows, row{cols[0], cols[8], size})
	}
	if len(rows) == 0 {
		tb.Skip("corpus index is empty")
	}
	slices.SortStableFunc(rows, func(a, b row) int { return a.size - b.size })
	median := rows[(len(rows)-1)/2].size
	pick := rows[(len(rows)-1)/2]
	for _, r := range rows {
		if r.size == median && r.kind == "robots" {
			pick = r
			break
		}
	}
	body, err = os.ReadFile(filepath.Join(dir, pick.file))
	if err != nil {
		tb.Fatalf("reading the median corpus file: %v", err)
	}
	return pick.file, body
}

// repoRoot returns the directory holding go.mod, above the working
// directory.
func repoRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}
