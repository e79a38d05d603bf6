package robotstxt

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateAPI = flag.Bool("update-api", false, "rewrite api/robotstxt.txt from the source")

// apiFile lists the exported API of every public package of the
// repository, one feature a line, as the Go project's api/*.txt do.
const apiFile = "api/robotstxt.txt"

// TestAPI holds the exported API to apiFile: an exported identifier,
// field, method or signature that appears, changes or disappears fails
// it until the listing is updated (-update-api), so that every change of
// the API is reviewed as a diff of that file. It also keeps the API's
// size: at most 110 names in the root package and 90 in the other public
// packages together, a type's methods counted and its fields not.
func TestAPI(t *testing.T) {
	var lines []string
	names := map[string]int{}
	for _, dir := range publicPackages(t) {
		pkg, n := apiOf(t, dir)
		lines = append(lines, pkg...)
		names[dir] = n
	}
	slices.Sort(lines)
	got := []byte(strings.Join(lines, "\n") + "\n")
	if *updateAPI {
		if err := os.WriteFile(apiFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(apiFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the exported API differs from %s:\n%s\nreview the change, then run this test with -update-api",
			apiFile, lineDiff(string(want), string(got)))
	}
	others := 0
	for dir, n := range names {
		t.Logf("%s: %d names", dir, n)
		if dir != "." {
			others += n
		}
	}
	if names["."] > 110 {
		t.Errorf("the root package exports %d names, more than 110", names["."])
	}
	if others > 90 {
		t.Errorf("the other public packages export %d names together, more than 90", others)
	}
}

// publicPackages returns the directories of the packages a user can
// import: every directory with Go source but internal, cmd, examples and
// testdata trees, nested modules (such as otelrobotstxt) included.
func publicPackages(t *testing.T) []string {
	var dirs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(name, ".") || slices.Contains([]string{"internal", "cmd", "examples", "testdata"}, name)) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			if dir := filepath.Dir(path); !slices.Contains(dirs, dir) {
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// apiOf returns the features the package in dir exports, as lines of
// apiFile, and how many names it exports.
func apiOf(t *testing.T, dir string) (lines []string, names int) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var decls []ast.Decl
	types := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					types[s.(*ast.TypeSpec).Name.Name] = true
				}
			}
		}
		decls = append(decls, f.Decls...)
	}
	pkg := "pkg github.com/robotsgate/robotstxt"
	if dir != "." {
		pkg += "/" + filepath.ToSlash(dir)
	}
	src := func(n ast.Node) string {
		var b strings.Builder
		_ = printer.Fprint(&b, fset, n)
		return strings.Join(strings.Fields(b.String()), " ")
	}
	add := func(s string) { lines = append(lines, pkg+", "+s) }
	for _, d := range decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			sig := src(unnamed(d.Type))
			if d.Recv == nil {
				add("func " + d.Name.Name + strings.TrimPrefix(sig, "func"))
				names++
				continue
			}
			recv := d.Recv.List[0].Type
			base := recv
			if star, ok := base.(*ast.StarExpr); ok {
				base = star.X
			}
			if id, ok := base.(*ast.Ident); ok && id.IsExported() && types[id.Name] {
				add("method (" + src(recv) + ") " + d.Name.Name + strings.TrimPrefix(sig, "func"))
				names++
			}
		case *ast.GenDecl:
			var typ ast.Expr // of a const group's specs, for iota
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						names++
						lines = append(lines, typeLines(pkg, s, src)...)
					}
				case *ast.ValueSpec:
					if s.Type != nil || len(s.Values) > 0 {
						typ = s.Type
					}
					for _, n := range s.Names {
						if !n.IsExported() {
							continue
						}
						names++
						kind := "var "
						if d.Tok == token.CONST {
							kind = "const "
						}
						if typ != nil {
							add(kind + n.Name + " " + src(typ))
						} else {
							add(kind + n.Name)
						}
					}
				}
			}
		}
	}
	return lines, names
}

// typeLines returns the lines of apiFile for the exported type s: its
// kind, and each exported field of a struct or method of an interface.
func typeLines(pkg string, s *ast.TypeSpec, src func(ast.Node) string) []string {
	head := pkg + ", type " + s.Name.Name
	if s.Assign.IsValid() {
		return []string{head + " = " + src(s.Type)}
	}
	switch t := s.Type.(type) {
	case *ast.StructType:
		lines := []string{head + " struct"}
		for _, f := range t.Fields.List {
			if len(f.Names) == 0 { // embedded
				lines = append(lines, head+" struct, embedded "+src(f.Type))
			}
			for _, n := range f.Names {
				if n.IsExported() {
					lines = append(lines, head+" struct, "+n.Name+" "+src(f.Type))
				}
			}
		}
		return lines
	case *ast.InterfaceType:
		lines := []string{head + " interface"}
		for _, m := range t.Methods.List {
			for _, n := range m.Names {
				lines = append(lines, head+" interface, "+n.Name+strings.TrimPrefix(src(unnamed(m.Type.(*ast.FuncType))), "func"))
			}
			if len(m.Names) == 0 {
				lines = append(lines, head+" interface, embedded "+src(m.Type))
			}
		}
		return lines
	}
	return []string{head + " " + src(s.Type)}
}

// unnamed returns a copy of the function type ft without parameter and
// result names, which are not part of the API.
func unnamed(ft *ast.FuncType) *ast.FuncType {
	strip := func(l *ast.FieldList) *ast.FieldList {
		if l == nil {
			return nil
		}
		out := &ast.FieldList{}
		for _, f := range l.List {
			for range max(len(f.Names), 1) {
				out.List = append(out.List, &ast.Field{Type: f.Type})
			}
		}
		return out
	}
	return &ast.FuncType{Params: strip(ft.Params), Results: strip(ft.Results)}
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for _, l := range w {
		if !slices.Contains(g, l) {
			fmt.Fprintf(&b, "-%s\n", l)
		}
	}
	for _, l := range g {
		if !slices.Contains(w, l) {
			fmt.Fprintf(&b, "+%s\n", l)
		}
	}
	return b.String()
}

// TestNoInternalAliases: no public package gives a type of an internal
// package another name, whose fields go doc would not show.
func TestNoInternalAliases(t *testing.T) {
	for _, dir := range publicPackages(t) {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			internal := map[string]bool{} // the names of imported internal packages
			for _, imp := range f.Imports {
				if path := strings.Trim(imp.Path.Value, `"`); strings.Contains(path, "/internal/") {
					n := path[strings.LastIndexByte(path, '/')+1:]
					if imp.Name != nil {
						n = imp.Name.Name
					}
					internal[n] = true
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				s, ok := n.(*ast.TypeSpec)
				if !ok || !s.Assign.IsValid() || !s.Name.IsExported() {
					return true
				}
				if sel, ok := s.Type.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && internal[x.Name] {
						t.Errorf("%s: %s is an alias of the internal %s.%s", name, s.Name.Name, x.Name, sel.Sel.Name)
					}
				}
				return true
			})
		}
	}
}
