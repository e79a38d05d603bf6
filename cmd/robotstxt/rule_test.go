package main

import "testing"

// TestJudge checks the exit code and note of every verdict with and
// without an expectation: a deferral meets none.
func TestJudge(t *testing.T) {
	none, allow, disallow := expectation{}, expectation{set: true, allow: true}, expectation{set: true}
	for _, tc := range []struct {
		x    expectation
		v    verdict
		code int
		note string
	}{
		{none, verdictAllowed, exitOK, ""},
		{none, verdictDisallowed, exitDisallowed, ""},
		{none, verdictDeferred, exitDeferred, ""},
		{allow, verdictAllowed, exitOK, ""},
		{allow, verdictDisallowed, exitDisallowed, "; expected allow"},
		{allow, verdictDeferred, exitDisallowed, "; expected allow"},
		{disallow, verdictAllowed, exitDisallowed, "; expected disallow"},
		{disallow, verdictDisallowed, exitOK, ""},
		{disallow, verdictDeferred, exitDisallowed, "; expected disallow"},
	} {
		if code, note := tc.x.judge(tc.v); code != tc.code || note != tc.note {
			t.Errorf("%+v judges %s: %d %q, want %d %q", tc.x, tc.v.word(), code, note, tc.code, tc.note)
		}
	}
}
