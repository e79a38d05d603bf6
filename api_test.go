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

// TestPublicAPISize keeps the public API small enough to keep: at most 108
// names in the root package (100, then the receipts of usage signals and
// the option that fetches tdmrep.json), and 60 in the other importable
// packages together (internal/ and the examples are not importable).
func TestPublicAPISize(t *testing.T) {
	if n := len(exported(t, ".")); n > 108 {
		t.Errorf("the root package exports %d names, more than 108", n)
	}
	others := 0
	for _, dir := range []string{"parser", "matcher", "meta", "redisstore", "boltstore", "storetest", "botauth", "otelrobotstxt"} {
		if _, err := os.Stat(dir); err != nil {
			t.Fatal(err)
		}
		n := len(exported(t, dir))
		t.Logf("%s: %d", dir, n)
		others += n
	}
	if others > 60 {
		t.Errorf("the other public packages export %d names together, more than 60", others)
	}
}
