package robotstxt

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exported returns the names a package's source in dir exports: its
// exported top-level names and the exported methods of its exported
// types, such as "Client" and "Client.Allowed".
func exported(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]bool{}
	var decls []ast.Decl
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		decls = append(decls, f.Decls...)
	}
	var names []string
	for _, d := range decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range g.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				if s.Name.IsExported() {
					types[s.Name.Name] = true
					names = append(names, s.Name.Name)
				}
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.IsExported() {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	for _, d := range decls {
		f, ok := d.(*ast.FuncDecl)
		if !ok || !f.Name.IsExported() {
			continue
		}
		if f.Recv == nil {
			names = append(names, f.Name.Name)
			continue
		}
		recv := f.Recv.List[0].Type
		if star, ok := recv.(*ast.StarExpr); ok {
			recv = star.X
		}
		if id, ok := recv.(*ast.Ident); ok && types[id.Name] {
			names = append(names, id.Name+"."+f.Name.Name)
		}
	}
	return names
}

// publicDirs are the importable packages beside the root (internal/ and
// the examples are not importable).
var publicDirs = []string{"parser", "matcher", "meta", "redisstore", "boltstore", "storetest", "botauth", "otelrobotstxt"}

// TestPublicAPISize keeps the public API small enough to keep: at most 110
// names in the root package, and 90 in the other importable packages
// together.
func TestPublicAPISize(t *testing.T) {
	if n := len(exported(t, ".")); n > 110 {
		t.Errorf("the root package exports %d names, more than 110", n)
	}
	others := 0
	for _, dir := range publicDirs {
		if _, err := os.Stat(dir); err != nil {
			t.Fatal(err)
		}
		n := len(exported(t, dir))
		t.Logf("%s: %d", dir, n)
		others += n
	}
	if others > 90 {
		t.Errorf("the other public packages export %d names together, more than 90", others)
	}
}

// TestNoInternalAliases: no public package gives a type of an internal
// package another name, whose fields go doc would not show.
func TestNoInternalAliases(t *testing.T) {
	for _, dir := range append([]string{"."}, publicDirs...) {
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
