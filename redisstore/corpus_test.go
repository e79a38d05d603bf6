package redisstore

import (
	"os"
	"path/filepath"
	"testing"
)

// medianCorpusFile returns the name and body of files/2300.txt of the
// corpus sample in the repository's testdata (paperadventures.de, 484
// bytes, kind robots): of the full corpus's 3,224 real bodies, it is the
// one of median size.
func medianCorpusFile(tb testing.TB) (name string, body []byte) {
	tb.Helper()
	const file = "files/2300.txt"
	body, err := os.ReadFile(filepath.Join(repoRoot(tb), "testdata", "corpus", file))
	if err != nil {
		tb.Fatalf("reading the median corpus file: %v", err)
	}
	return file, body
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
