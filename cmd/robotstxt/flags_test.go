package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

func TestParseArgsInterspersed(t *testing.T) {
	for _, tc := range []struct {
		args []string
		file string
		v    bool
		pos  []string
	}{
		{[]string{"-file", "f", "/x"}, "f", false, []string{"/x"}},
		{[]string{"/x", "-file", "f"}, "f", false, []string{"/x"}},
		{[]string{"/x", "-v", "/y", "-file=f", "/z"}, "f", true, []string{"/x", "/y", "/z"}},
		{[]string{"-", "-file", "f"}, "f", false, []string{"-"}},
		{[]string{"/x", "--", "-file", "g"}, "", false, []string{"/x", "-file", "g"}},
		{nil, "", false, nil},
	} {
		fs := newFlags(&command{name: "t"})
		file := fs.String("file", "", "")
		v := fs.Bool("v", false, "")
		var out, errOut bytes.Buffer
		pos, code, done := parseArgs(fs, tc.args, env{stdout: &out, stderr: &errOut})
		if done || code != exitOK {
			t.Errorf("%q: done %v, code %d, stderr %q", tc.args, done, code, errOut.String())
			continue
		}
		if *file != tc.file || *v != tc.v || !slices.Equal(pos, tc.pos) {
			t.Errorf("%q: file %q, v %v, args %q; want %q, %v, %q", tc.args, *file, *v, pos, tc.file, tc.v, tc.pos)
		}
	}
}

func TestParseArgsHelpAndErrors(t *testing.T) {
	fs := newFlags(&command{name: "t", usage: "SYN", long: "ABOUT"})
	fs.String("file", "", "")
	var out, errOut bytes.Buffer
	e := env{stdout: &out, stderr: &errOut}
	if _, code, done := parseArgs(fs, []string{"/x", "-h"}, e); !done || code != exitOK || !bytes.Contains(out.Bytes(), []byte("ABOUT")) {
		t.Errorf("-h after an argument: done %v, code %d, stdout %q", done, code, out.String())
	}
	if _, code, done := parseArgs(fs, []string{"/x", "-nope"}, e); !done || code != exitUsage || errOut.Len() == 0 {
		t.Errorf("bad flag after an argument: done %v, code %d, stderr %q", done, code, errOut.String())
	}
	// The error quotes the flag as typed: once, made printable, then
	// the usage.
	errOut.Reset()
	_, code, _ := parseArgs(fs, []string{"-\x1b]0;x\x07\nline"}, e)
	want := "robotstxt: t: flag provided but not defined: -\\x1b]0;x\\x07\\x0aline\nUsage: robotstxt t SYN\n\nABOUT\n"
	if got := errOut.String(); code != exitUsage || !strings.HasPrefix(got, want) || strings.Count(got, "ABOUT") != 1 {
		t.Errorf("a flag with controls: exit %d, stderr %q; want %d and a start of %q", code, got, exitUsage, want)
	}
}

// TestTimeoutFlag checks that every command that fetches documents its
// -timeout default and rejects a timeout that is not a positive duration
// before it fetches anything.
func TestTimeoutFlag(t *testing.T) {
	s := newRobotsServer(t, 200, liveRobots)
	for cmd, args := range map[string][]string{
		"check":   {s.URL + "/x"},
		"test":    {"-file", s.URL + "/robots.txt", "/x"},
		"explain": {s.URL + "/x"},
		"lint":    {s.URL + "/robots.txt"},
	} {
		r := runCmd(t, "", "help", cmd)
		if !strings.Contains(r.stdout, "-timeout duration") || !strings.Contains(r.stdout, "(default "+defaultTimeout.String()+")") {
			t.Errorf("help %s does not document -timeout and its default:\n%s", cmd, r.stdout)
		}
		for _, v := range []string{"0", "0s", "-1s", "soon"} {
			r := runCmd(t, "", append([]string{cmd, "-timeout", v}, args...)...)
			if r.code != exitUsage || r.stdout != "" || !strings.Contains(r.stderr, "invalid value") {
				t.Errorf("%s -timeout %s: exit %d, stdout %q, stderr %q", cmd, v, r.code, r.stdout, r.stderr)
			}
		}
	}
	if n := s.fetches.Load(); n != 0 {
		t.Errorf("robots.txt fetched %d times with a bad -timeout", n)
	}
}

// TestTimeoutNearMaxDuration: -timeout accepts every positive duration,
// the largest too, and one within a second of it does not make every
// fetch fail at once, its grace wrapping the deadline round to the past.
func TestTimeoutNearMaxDuration(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /private\n"))
	}))
	defer srv.Close()
	const huge = "2562047h47m16s" // accepted by time.ParseDuration and the flag
	for _, args := range [][]string{
		{"lint", "-timeout", huge, srv.URL + "/robots.txt"},
		{"test", "-timeout", huge, "-file", srv.URL + "/robots.txt", "/x"},
		{"explain", "-timeout", huge, srv.URL + "/x"},
		{"check", "-timeout", huge, srv.URL + "/private"},
	} {
		want := exitOK
		if args[0] == "check" {
			want = exitDisallowed
		}
		if r := runCmd(t, "", args...); r.code != want {
			t.Errorf("%s -timeout %s: exit %d, want %d\n%s%s", args[0], huge, r.code, want, r.stdout, r.stderr)
		}
	}
}
