package robotstxt

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/robotsgate/robotstxt/internal/longtest"
)

// The corpus of real robots.txt bodies: a sample kept in the repository
// (see its README.md), and the full corpus, an optional extra read from
// the directory ROBOTSTXT_CORPUS names, when it names one.
const corpusSample = "testdata/corpus"

// corpusFull is the directory of the full corpus, or "".
var corpusFull = os.Getenv("ROBOTSTXT_CORPUS")

// corpusRow is one row of a corpus index.tsv.
type corpusRow struct {
	file   string // files/NNNN.txt
	bytes  int
	sha256 string
	kind   string
	flags  []string // empty for "-"
	seed   bool     // in the fuzz-seed subset
}

// corpusHeader is the start of index.tsv's header line.
const corpusHeader = "file\tbytes\tsha256\tsource\tlicence\tcommit\tcommit_date\tcapture\tkind\tflags"

// readCorpusIndex reads dir/index.tsv.
func readCorpusIndex(tb testing.TB, dir string) []corpusRow {
	tb.Helper()
	f, err := os.Open(filepath.Join(dir, "index.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), corpusHeader) {
		tb.Fatalf("%s/index.tsv: header %.80q, want one starting %q", dir, sc.Text(), corpusHeader)
	}
	var rows []corpusRow
	for sc.Scan() {
		col := strings.Split(sc.Text(), "\t")
		if len(col) != 17 {
			tb.Fatalf("%s/index.tsv: %d columns in %.80q, want 17", dir, len(col), sc.Text())
		}
		n, err := strconv.Atoi(col[1])
		if err != nil {
			tb.Fatalf("%s/index.tsv: %s: bytes: %v", dir, col[0], err)
		}
		r := corpusRow{file: col[0], bytes: n, sha256: col[2], kind: col[8], seed: col[16] == "1"}
		if col[9] != "-" {
			r.flags = strings.Split(col[9], ",")
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return rows
}

// TestCorpus parses every real-world body of the corpus sample, and of
// the full corpus when it is present, and checks a few decisions on each.
func TestCorpus(t *testing.T) {
	longtest.Gate(t)
	t.Run("sample", func(t *testing.T) {
		rows := readCorpusIndex(t, corpusSample)
		checkCorpusCoverage(t, rows)
		checkCorpus(t, corpusSample, rows, 200, 500)
	})
	if corpusFull == "" {
		// The full corpus is an optional extra; the sample above
		// stands for it.
		t.Log("ROBOTSTXT_CORPUS not set: checked the sample only")
		return
	}
	t.Run("full", func(t *testing.T) {
		rows := readCorpusIndex(t, corpusFull)
		if len(rows) != 3224 {
			t.Fatalf("index lists %d files, want 3224", len(rows))
		}
		checkCorpus(t, corpusFull, rows, 2000, 500)
	})
}

// checkCorpusCoverage fails when the sample has lost a kind, a flag or a
// cited file.
func checkCorpusCoverage(t *testing.T, rows []corpusRow) {
	t.Helper()
	// Every kind and flag of the full corpus, and the files that tests and
	// notes cite by number.
	kinds := []string{"robots", "html", "text", "comments-only", "xml", "json", "binary", "empty"}
	flags := []string{
		"bom", "utf16-bom", "crlf", "cr", "mixed-eol", "no-final-eol", "non-ascii", "not-utf8",
		"nul", "double-encoded", "long-line", "large", "over-500KiB", "typo", "indented",
		"path-no-slash", "html-fragment", "has-directives", "fixture-header",
	}
	cited := []string{
		"0003", "0017", "0020", "0039", "0043", "0046", "0072", "0085", "0093", "0153",
		"0232", "0393", "0448", "0449", "0498", "0605", "0681", "0701", "0705", "0749",
		"0757", "0987", "1017", "1087", "1223", "1226", "1234", "1296", "1341", "1406",
		"1438", "2032", "2300", "2391", "2401", "3025", "3026", "3152", "3212", "3218",
		"3219", "3220",
	}
	seenKind, seenFlag, files := map[string]int{}, map[string]int{}, map[string]bool{}
	for _, r := range rows {
		seenKind[r.kind]++
		for _, f := range r.flags {
			seenFlag[f]++
		}
		files[r.file] = true
	}
	for _, k := range kinds {
		if seenKind[k] == 0 {
			t.Errorf("no file of kind %s in the sample", k)
		}
	}
	for _, f := range flags {
		if seenFlag[f] == 0 {
			t.Errorf("no file with flag %s in the sample", f)
		}
	}
	for k := range seenKind {
		if !slices.Contains(kinds, k) {
			t.Errorf("kind %s is not one of %v", k, kinds)
		}
	}
	for f := range seenFlag {
		if !slices.Contains(flags, f) {
			t.Errorf("flag %s is not one of %v", f, flags)
		}
	}
	for _, n := range cited {
		if !files["files/"+n+".txt"] {
			t.Errorf("files/%s.txt is cited but not in the sample", n)
		}
	}
}

// checkCorpus checks that dir/files holds exactly the files of rows, each
// with the size and sha256 the index gives (so nothing, git included, has
// rewritten a line end or a BOM), then parses each body once and checks:
// no panic, diagnostics on real lines in order, deciding rules that agree
// with the decision, and the line-end independence of the decisions. A
// parser that read nothing would pass those trivially, so at least
// minRules files must have rules for Googlebot and the files must list at
// least minSitemaps sitemaps.
func checkCorpus(t *testing.T, dir string, rows []corpusRow, minRules, minSitemaps int) {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, "files"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, r := range rows {
		listed[r.file] = true
	}
	if len(ents) != len(rows) {
		t.Errorf("%s: %d files, %d index rows", dir, len(ents), len(rows))
	}
	for _, e := range ents {
		if !listed["files/"+e.Name()] {
			t.Errorf("%s: files/%s is not in the index", dir, e.Name())
		}
	}
	agents := []string{"Googlebot", "GPTBot", "bingbot", ""}
	urls := []string{"/", "https://example.com/admin/", "/search?q=x", "/index.html", "/wp-admin/admin-ajax.php"}
	var withRules, disallowed, sitemaps int
	for _, row := range rows {
		name := row.file
		body, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(body)
		if len(body) != row.bytes || hex.EncodeToString(sum[:]) != row.sha256 {
			t.Errorf("%s: %d bytes, sha256 %x; the index says %d bytes, %s", name, len(body), sum, row.bytes, row.sha256)
		}
		r := Parse(body)
		lines := fileOf(r).Lines
		last := 0
		for _, d := range lint(body, ModeGoogle) {
			if d.Line < 1 || d.Line > lines || d.Line < last {
				t.Errorf("%s: diagnostic %v out of 1..%d or out of order", name, d, lines)
				break
			}
			last = d.Line
		}
		if len(r.Rules("Googlebot")) > 0 {
			withRules++
		}
		sitemaps += len(r.Sitemaps())
		crlf := Parse(lineEndings(body, "\r\n"))
		for _, agent := range agents {
			for _, u := range urls {
				v := r.Check(agent, u)
				if !v.Allowed {
					disallowed++
				}
				if !matched(v) && !v.Allowed || matched(v) && (v.Rule.Allow != v.Allowed || v.Rule.Line < 1 || v.Rule.Line > lines) {
					t.Errorf("%s: Check(%q, %q) = %+v (lines %d)", name, agent, u, v, lines)
				}
				if v2 := crlf.Check(agent, u); !sameVerdict(v, v2) {
					t.Errorf("%s: Check(%q, %q) = %+v, with CRLF line ends %+v", name, agent, u, v, v2)
				}
			}
		}
	}
	if withRules < minRules || disallowed == 0 || sitemaps < minSitemaps {
		t.Errorf("only %d files with rules for Googlebot (want %d), %d disallowed checks, %d sitemaps (want %d)",
			withRules, minRules, disallowed, sitemaps, minSitemaps)
	}
	t.Logf("%d files, %d with rules for Googlebot, %d disallowed checks, %d sitemaps", len(rows), withRules, disallowed, sitemaps)
}
