package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCodeTable checks that every code has a complete entry: a stable
// name of its own, a severity and a description.
func TestCodeTable(t *testing.T) {
	names := make(map[string]code)
	valid := regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	for c := range numCodes {
		e := codeTable[c]
		if !valid.MatchString(e.name) {
			t.Errorf("code %d: name %q is not a lower-case, dash-separated word", c, e.name)
		}
		if prev, ok := names[e.name]; ok {
			t.Errorf("codes %d and %d are both named %q", prev, c, e.name)
		}
		names[e.name] = c
		if e.severity != sevError && e.severity != sevWarning && e.severity != sevInfo {
			t.Errorf("%s: severity %d", e.name, e.severity)
		}
		if e.about == "" {
			t.Errorf("%s: no description", e.name)
		}
	}
}

// TestKeyExamples checks that the key the help gives as the example of
// unknown-key, and of misspelt-key, gets that code.
func TestKeyExamples(t *testing.T) {
	for _, c := range []code{codeUnknownKey, codeMisspeltKey} {
		_, key, ok := strings.Cut(codeTable[c].about, "such as ")
		got := codesAt(lintText(t, "User-agent: *\nDisallow: /x\n"+key+": 1\n"), c)
		if !ok || !slices.Equal(got, []string{"3:" + c.String()}) {
			t.Errorf("%s: the help's example %q gives %q", c, key, got)
		}
	}
}

// TestCodeWithoutEntryPanics checks that a code outside the table, or
// with an empty entry, has no severity: looking it up panics rather than
// default to one.
func TestCodeWithoutEntryPanics(t *testing.T) {
	saved := codeTable[codeTooMany]
	defer func() { codeTable[codeTooMany] = saved }()
	codeTable[codeTooMany] = codeEntry{}
	for _, c := range []code{-1, numCodes, numCodes + 1, codeTooMany} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("code %d: severity looked up without a panic", c)
				}
			}()
			c.severity()
		}()
	}
}

// TestLintHelpListsEveryCode checks that "help lint" lists every code,
// with its description, under the heading of its severity.
func TestLintHelpListsEveryCode(t *testing.T) {
	help := runCmd(t, "", "help", "lint").stdout
	sections := map[severity]string{}
	for _, sev := range []severity{sevError, sevWarning, sevInfo} {
		name := sev.String()
		heading := "\n" + strings.ToUpper(name[:1]) + name[1:] + "s:\n"
		_, rest, ok := strings.Cut(help, heading)
		if !ok {
			t.Fatalf("help lint has no %q heading:\n%s", heading, help)
		}
		sections[sev], _, _ = strings.Cut(rest, ":\n") // up to the next heading
	}
	for c := range numCodes {
		line := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(c.String()) + ` +` + regexp.QuoteMeta(codeTable[c].about) + `$`)
		if !line.MatchString(sections[c.severity()]) {
			t.Errorf("help lint does not list %s with its description under %ss", c, c.severity())
		}
	}
}

// TestEveryCodeIsReported checks, in the package's source, that every
// code constant is named outside lintcode.go, where findings are made: a
// code no finding can carry is dead.
func TestEveryCodeIsReported(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var declared []string // the code constants
	used := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if name == "lintcode.go" {
			declared = codeConstants(f)
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				used[id.Name] = true
			}
			return true
		})
	}
	if len(declared) != int(numCodes) {
		t.Fatalf("found %d code constants in lintcode.go, want %d", len(declared), numCodes)
	}
	for _, name := range declared {
		if !used[name] {
			t.Errorf("%s is in codeTable, but no finding names it", name)
		}
	}
}

// codeConstants returns the names of the constants of type code declared
// in f, but numCodes.
func codeConstants(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		// In a block, a constant without a type repeats the one above.
		var typ ast.Expr
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if vs.Type != nil || vs.Values != nil {
				typ = vs.Type
			}
			if id, ok := typ.(*ast.Ident); ok && id.Name == "code" {
				for _, n := range vs.Names {
					if n.Name != "numCodes" {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return names
}
