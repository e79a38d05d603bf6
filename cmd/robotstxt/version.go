package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// runVersion is "robotstxt version": the module version from the build
// information ("(devel)" for a build from a checkout) and the Go version.
func runVersion(cmd *command, args []string, e env) int {
	args, code, done := parseArgs(newFlags(cmd), args, e)
	if done {
		return code
	}
	if len(args) > 0 {
		e.errorf("version takes no arguments")
		return exitUsage
	}
	fmt.Fprintf(e.stdout, "robotstxt %s %s\n", moduleVersion(), runtime.Version())
	return exitOK
}

// moduleVersion returns the version of the main module, or "(devel)" when
// the build carries none.
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
