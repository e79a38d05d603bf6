// Package release tests, from outside the repository, what tagging the
// next version publishes: that a module of a stranger's gets the root
// module and every importable nested module at that version and builds
// against them, with nothing but what the modules' go.mod files say; and
// that every module of the repository is tidy.
//
// It is a module of its own so that golang.org/x/mod, which it zips the
// modules with, is no requirement of the library's. It has no code beside
// its tests.
package release
