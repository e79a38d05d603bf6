package release

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// version is the next tag: the version of the root module that the
// nested modules require, and the one the tests publish. Raise it with
// their requirements and go.work's replace.
const version = "v0.1.0"

const rootPath = "github.com/robotsgate/robotstxt"

// published are the modules a stranger imports, as directories of the
// repository, the root last (see TestStrangerGetsRelease). The
// workspace's other modules are examples, benchmarks and these tests.
var published = []string{"otelrobotstxt", "."}

// stranger is a program of someone else's module that uses every
// published module.
const stranger = `package main

import (
	"fmt"

	"github.com/robotsgate/robotstxt"
	"github.com/robotsgate/robotstxt/otelrobotstxt"
)

func main() {
	c := robotstxt.NewClient()
	defer c.Close()
	reg, err := otelrobotstxt.Observe(c, nil)
	if err != nil {
		panic(err)
	}
	defer reg.Unregister()
	r := robotstxt.Parse([]byte("User-agent: *\nDisallow: /private\n"))
	fmt.Println(r.Allowed("StrangerBot", "/private"), r.Allowed("StrangerBot", "/public"))
}
`

// TestStrangerGetsRelease publishes the working tree's published modules
// at version on a module proxy made of files, beside the third-party
// modules they need (copied from the module cache), and has a new module
// elsewhere go get them from that proxy alone, with a module cache of its
// own, then build and run a program importing them. It fails when a
// published go.mod requires a version that no proxy serves, such as the
// root at v0.0.0 with a replace for it, which the go command ignores in
// a dependency.
func TestStrangerGetsRelease(t *testing.T) {
	root := repoRoot(t)
	proxy := t.TempDir()
	cache := strings.TrimSpace(string(goCmd(t, root, nil, "env", "GOMODCACHE")))
	var paths []string
	own := map[string]bool{}
	for _, dir := range published {
		p := modulePath(t, filepath.Join(root, dir))
		paths = append(paths, p)
		own[p] = true
	}
	for _, dir := range published {
		publish(t, proxy, filepath.Join(root, dir))
		for _, m := range dependencies(t, root, dir) {
			if !own[m.Path] {
				copyFromCache(t, proxy, cache, m)
			}
		}
	}

	work := t.TempDir()
	env := []string{
		"GOPROXY=file://" + filepath.ToSlash(proxy),
		"GOMODCACHE=" + emptyModCache(t, root),
		"GOSUMDB=off", "GONOSUMDB=", "GOPRIVATE=", "GONOPROXY=",
		// Without it the module cache is read-only, and the test
		// could not remove it.
		"GOFLAGS=-modcacherw",
		// The go command indexes a module in the module cache once, by
		// its directory, taking path@version as never changing: the
		// root's packages at v0.1.0 change with every edit here.
		"GODEBUG=goindex=0",
	}
	goCmd(t, work, env, "mod", "init", "example.com/stranger")
	writeFile(t, filepath.Join(work, "main.go"), []byte(stranger))
	// One at a time, the root last: a nested module must bring the
	// root at the version its own go.mod requires, which nothing else
	// the stranger requires may stand in for.
	for _, p := range paths {
		goCmd(t, work, env, "get", p+"@"+version)
	}
	// -mod=readonly: what go get wrote must be enough to build.
	goCmd(t, work, env, "build", "-mod=readonly", "-o", "stranger", ".")
	out, err := exec.Command(filepath.Join(work, "stranger")).CombinedOutput()
	if err != nil || string(out) != "false true\n" {
		t.Fatalf("the stranger's program: %v, output %q, want \"false true\\n\"", err, out)
	}
}

// TestNestedModulesRequireRelease: every module of the workspace that
// requires the root requires it at version and replaces it nowhere; the
// workspace, not a replace, points them at the working tree.
func TestNestedModulesRequireRelease(t *testing.T) {
	root := repoRoot(t)
	for _, dir := range workspaceModules(t, root) {
		f := parseGoMod(t, filepath.Join(root, dir))
		for _, r := range f.Replace {
			if r.Old.Path == rootPath {
				t.Errorf("%s/go.mod replaces %s: the go command ignores that in a dependency; go.work covers the repository", dir, rootPath)
			}
		}
		for _, r := range f.Require {
			if r.Mod.Path == rootPath && r.Mod.Version != version {
				t.Errorf("%s/go.mod requires %s %s, want %s", dir, rootPath, r.Mod.Version, version)
			}
		}
	}
}

// TestModulesTidy: go mod tidy, which ignores go.work, changes no
// module's go.mod or go.sum. A module that requires the root has it
// replaced by the working tree for the check, since no proxy serves
// version before the tag; its go.sum lines for the root are left out of
// the comparison, as only the tag can give them.
func TestModulesTidy(t *testing.T) {
	root := repoRoot(t)
	for _, dir := range workspaceModules(t, root) {
		mod := detached(t, root, dir)
		out, err := goRun(filepath.Join(root, dir), nil, "mod", "tidy", "-diff", "-modfile="+mod)
		if err != nil {
			t.Errorf("%s is not tidy (%v):\n%s", dir, err, out)
		}
	}
}

// emptyModCache returns an empty directory for the stranger's module
// cache, removed when the test ends. It is the same directory in every
// run from root, so that the build cache, which keys a package outside
// GOROOT by its directory, still holds the third-party packages built in
// the last run: building them again takes most of a minute on two cores.
// (-trimpath would free the key of the directory, but then the standard
// library, built without it everywhere else, is built again.)
func emptyModCache(t *testing.T, root string) string {
	t.Helper()
	h := fnv.New64a()
	h.Write([]byte(root))
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("robotstxt-release-modcache-%x", h.Sum64()))
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(dir); err != nil {
			t.Error(err)
		}
	})
	return dir
}

// publish lays out the module in dir on the proxy at version: its zip,
// made by golang.org/x/mod/zip as the go command makes one, its go.mod,
// its .info and its version list.
func publish(t *testing.T, proxy, dir string) {
	t.Helper()
	m := module.Version{Path: modulePath(t, dir), Version: version}
	at := versionDir(t, proxy, m.Path)
	var z bytes.Buffer
	if err := zip.CreateFromDir(&z, m, dir); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(at, version+".zip"), z.Bytes())
	goMod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(at, version+".mod"), goMod)
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, time.Now().UTC().Truncate(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(at, version+".info"), info)
	writeFile(t, filepath.Join(at, "list"), []byte(version+"\n"))
}

// dependencies returns every module version in the module graph of the
// workspace module in dir (as go mod graph prints it, outside the
// workspace), after downloading what building and testing it needs into
// the module cache; a module cache warmed by the modules' own tests
// already holds all of it.
func dependencies(t *testing.T, root, dir string) []module.Version {
	t.Helper()
	mod := detached(t, root, dir)
	at := filepath.Join(root, dir)
	goCmd(t, at, nil, "mod", "download", "-modfile="+mod)
	var deps []module.Version
	seen := map[module.Version]bool{}
	sc := bufio.NewScanner(bytes.NewReader(goCmd(t, at, nil, "mod", "graph", "-modfile="+mod)))
	for sc.Scan() {
		for _, node := range strings.Fields(sc.Text()) {
			path, vers, ok := strings.Cut(node, "@")
			// The main module has no version; go and toolchain
			// are no modules of a proxy.
			if !ok || path == "go" || path == "toolchain" {
				continue
			}
			m := module.Version{Path: path, Version: vers}
			if !seen[m] {
				seen[m] = true
				deps = append(deps, m)
			}
		}
	}
	return deps
}

// copyFromCache copies m's files from the module cache's download
// directory, which is laid out as a proxy is, onto the proxy: those the
// cache has. A module whose packages no build used has only its go.mod
// there, and a version that the pruned module graph names but never
// reads has nothing.
func copyFromCache(t *testing.T, proxy, cache string, m module.Version) {
	t.Helper()
	from := versionDir(t, filepath.Join(cache, "cache", "download"), m.Path)
	to := versionDir(t, proxy, m.Path)
	v, err := module.EscapeVersion(m.Version)
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".mod", ".info", ".zip"} {
		b, err := os.ReadFile(filepath.Join(from, v+ext))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(to, v+ext), b)
	}
}

// detached writes a copy of the go.mod and go.sum of the workspace
// module in dir that the go command can use outside the workspace (with
// -modfile and GOWORK=off), and returns the copy of go.mod. A module that
// requires the root gets it replaced by the working tree, as the
// workspace does; the root's lines leave the copy of go.sum, since after
// the tag they hold the tag's checksums, not the working tree's.
func detached(t *testing.T, root, dir string) string {
	t.Helper()
	f := parseGoMod(t, filepath.Join(root, dir))
	for _, r := range f.Require {
		if r.Mod.Path == rootPath {
			if err := f.AddReplace(rootPath, r.Mod.Version, root, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	goMod, err := f.Format()
	if err != nil {
		t.Fatal(err)
	}
	to := t.TempDir()
	writeFile(t, filepath.Join(to, "go.mod"), goMod)
	sum, err := os.ReadFile(filepath.Join(root, dir, "go.sum"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	var kept bytes.Buffer
	for line := range strings.Lines(string(sum)) {
		if !strings.HasPrefix(line, rootPath+" ") {
			kept.WriteString(line)
		}
	}
	writeFile(t, filepath.Join(to, "go.sum"), kept.Bytes())
	return filepath.Join(to, "go.mod")
}

// workspaceModules returns the directories that go.work uses, relative
// to root.
func workspaceModules(t *testing.T, root string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "go.work"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := modfile.ParseWork("go.work", b, nil)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, u := range w.Use {
		dirs = append(dirs, filepath.FromSlash(u.Path))
	}
	return dirs
}

// repoRoot returns the repository's root directory, two above this one.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if p := modulePath(t, root); p != rootPath {
		t.Fatalf("%s holds module %s, want %s", root, p, rootPath)
	}
	return root
}

func parseGoMod(t *testing.T, dir string) *modfile.File {
	t.Helper()
	name := filepath.Join(dir, "go.mod")
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse(name, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func modulePath(t *testing.T, dir string) string {
	t.Helper()
	return parseGoMod(t, dir).Module.Mod.Path
}

// versionDir returns the @v directory of module path under a proxy's
// root, escaped as proxies and the module cache escape paths.
func versionDir(t *testing.T, base, path string) string {
	t.Helper()
	p, err := module.EscapePath(path)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(base, filepath.FromSlash(p), "@v")
}

func writeFile(t *testing.T, name string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// goCmd runs goRun and fails the test when the go command fails.
func goCmd(t *testing.T, dir string, env []string, args ...string) []byte {
	t.Helper()
	out, err := goRun(dir, env, args...)
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return out
}

// goRun runs the go command in dir, outside any workspace, with env added
// to the environment, and returns its standard output, or all its output
// on failure. It is the toolchain running the test (go test puts its
// GOROOT/bin first on PATH), never one a go.mod would switch to.
func goRun(dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local"), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return append(out, stderr.Bytes()...), err
	}
	return out, nil
}
