package main

import (
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		r := runCmd(t, "", args...)
		// Test binaries carry no module version: "(devel)".
		if r.code != exitOK || !strings.HasPrefix(r.stdout, "robotstxt (devel) go") {
			t.Errorf("%v: exit %d, stdout %q", args, r.code, r.stdout)
		}
	}
	if r := runCmd(t, "", "version", "x"); r.code != exitUsage {
		t.Errorf("version x: exit %d, want %d", r.code, exitUsage)
	}
}
