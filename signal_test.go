package robotstxt

import (
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"testing"

	"github.com/robotsgate/robotstxt/internal/tdmrep"
	"github.com/robotsgate/robotstxt/meta"
)

// TestTDMOf reads TDMRep's three techniques together, the site's
// tdmrep.json included (the file as the Transport will get it, or the
// error it got), as TDMRep ranks them: the later replaces the earlier,
// absence replaces nothing, and across protocols a reservation stands.
func TestTDMOf(t *testing.T) {
	file, err := tdmrep.Parse([]byte(`[
		{"location": "/reserved/", "tdm-reservation": 1, "tdm-policy": "https://example.com/file-policy"},
		{"location": "/open/*.jpg$", "tdm-reservation": 0},
		{"location": "/open/", "tdm-reservation": 1}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	unreachable := errors.New("tdmrep.json unreachable (status 503)")
	tests := []struct {
		name    string
		file    *tdmrep.File
		err     error
		path    string
		header  []string // tdm-reservation, tdm-policy
		meta    meta.TDM
		usage   string
		signals []string
		policy  string
	}{
		{name: "no file", path: "/reserved/x", usage: "", signals: []string{}},
		{name: "the file reserves", file: file, path: "/reserved/x",
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n entry 1"}, policy: "https://example.com/file-policy"},
		{name: "the first entry that matches decides", file: file, path: "/open/cat.jpg",
			usage: "", signals: []string{"tdmrep.json train-ai unknown entry 2"}},
		{name: "a later entry", file: file, path: "/open/cat.png",
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n entry 3"}},
		{name: "no entry matches", file: file, path: "/elsewhere", usage: "", signals: []string{}},
		{name: "a normal form the file reserves", file: file, path: "/open/x/../../reserved/a.jpg",
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n entry 1"}, policy: "https://example.com/file-policy"},
		{name: "the header replaces the file", file: file, path: "/reserved/x", header: []string{"0", ""},
			usage: "", signals: []string{"tdmrep.json train-ai n entry 1 superseded", "tdm-header train-ai unknown tdm-reservation"}},
		{name: "the header reserves what the file does not", file: file, path: "/open/a.jpg", header: []string{"1", "https://example.com/h"},
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai unknown entry 2 superseded", "tdm-header train-ai n tdm-reservation"},
			policy: "https://example.com/h"},
		{name: "the META replaces both", file: file, path: "/reserved/x", header: []string{"1", ""}, meta: meta.TDM{Reservation: "0"},
			usage: "", signals: []string{"tdmrep.json train-ai n entry 1 superseded", "tdm-header train-ai n tdm-reservation superseded",
				"tdm-meta train-ai unknown tdm-reservation"}},
		{name: "a policy stands when a later technique gives none", file: file, path: "/reserved/x", meta: meta.TDM{Reservation: "1"},
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n entry 1 superseded", "tdm-meta train-ai n tdm-reservation"},
			policy: "https://example.com/file-policy"},
		{name: "the latest policy", file: file, path: "/reserved/x", meta: meta.TDM{Reservation: "1", Policy: "https://example.com/m"},
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n entry 1 superseded", "tdm-meta train-ai n tdm-reservation"},
			policy: "https://example.com/m"},
		{name: "a policy without a reservation is not reported", path: "/x", header: []string{"", "https://example.com/h"},
			usage: "", signals: []string{}},
		{name: "unreachable: train-ai=n", err: unreachable, path: "/x",
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n unreachable"}},
		{name: "unreachable: a header of 0 does not lift it", err: unreachable, path: "/x", header: []string{"0", ""},
			usage: "train-ai=n", signals: []string{"tdmrep.json train-ai n unreachable", "tdm-header train-ai unknown tdm-reservation"}},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.header != nil {
			if tt.header[0] != "" {
				h.Set("Tdm-Reservation", tt.header[0])
			}
			if tt.header[1] != "" {
				h.Set("Tdm-Policy", tt.header[1])
			}
		}
		rd := reading{record: true, signals: []Signal{}}
		policy := rd.tdmOf(tt.file, tt.err, tt.path, h, tt.meta)
		if rd.usage.statement() != tt.usage || !reflect.DeepEqual(sigs(rd.signals), tt.signals) || policy != tt.policy {
			t.Errorf("%s: usage %q, signals %q, policy %q;\nwant %q, %q, %q", tt.name, rd.usage, sigs(rd.signals), policy, tt.usage, tt.signals, tt.policy)
		}
		if tt.err != nil && rd.signals[0].Value != tt.err.Error() {
			t.Errorf("%s: value %q", tt.name, rd.signals[0].Value)
		}
	}
}

// TestTDMHeaderValues: a header field of 1 among others reserves; values
// that are neither 0 nor 1 are protocol errors, read as absent.
func TestTDMHeaderValues(t *testing.T) {
	for _, tc := range []struct {
		values []string
		usage  string
		n      int // signals
	}{
		{[]string{"1"}, "train-ai=n", 1},
		{[]string{" 1 "}, "train-ai=n", 1},
		{[]string{"0", "1"}, "train-ai=n", 1},
		{[]string{"1", "0"}, "train-ai=n", 1},
		{[]string{"0"}, "", 1},
		{[]string{"yes"}, "", 0},
		{[]string{"true", "0"}, "", 1},
		{[]string{"2"}, "", 0},
	} {
		rd := reading{record: true}
		rd.tdmOf(nil, nil, "/", http.Header{"Tdm-Reservation": tc.values}, meta.TDM{})
		if rd.usage.statement() != tc.usage || len(rd.signals) != tc.n {
			t.Errorf("%q: usage %q, signals %q", tc.values, rd.usage, sigs(rd.signals))
		}
	}
}

func TestRobotsSignals(t *testing.T) {
	r := Parse([]byte("Content-Signal: ai-train=no, search=yes\nUser-agent: *\nDisallow: /private/\n" +
		"Content-Usage: /a/ train-ai=y\nContent-Usage: /a/ search=n, use=reference\nContent-Usage: train-ai=n\n" +
		"Content-Signal: ai-input=no, odd=maybe\n"))
	tests := []struct {
		url  string
		want []string
	}{
		{"/a/x", []string{"robots.txt train-ai y line 4", "robots.txt search n line 5",
			"content-signal train-ai n line 1", "content-signal search y line 1", "content-signal ai-input n line 7"}},
		{"/b", []string{"robots.txt train-ai n line 6",
			"content-signal train-ai n line 1", "content-signal search y line 1", "content-signal ai-input n line 7"}},
		{"/private/x", nil},
	}
	for _, tt := range tests {
		got := r.Signals("ExampleBot", tt.url)
		if tt.want == nil {
			if got != nil {
				t.Errorf("Signals(%q) = %q, want nil", tt.url, sigs(got))
			}
			continue
		}
		if !reflect.DeepEqual(sigs(got), tt.want) {
			t.Errorf("Signals(%q) = %q,\nwant %q", tt.url, sigs(got), tt.want)
		}
		// Robots.Usage is what the signals say.
		var u Usage
		for _, s := range got {
			u = u.combine(Usage{s.Label + "=" + s.Pref.String()})
		}
		for _, l := range []string{"train-ai", "search", "ai-input"} {
			if u.Pref(l) != r.Usage("ExampleBot", tt.url).Pref(l) {
				t.Errorf("%s %s: signals %v, Usage %q", tt.url, l, u.Pref(l), r.Usage("ExampleBot", tt.url))
			}
		}
	}
	if s := r.Signals("ExampleBot", "/a/x")[1]; s.Value != "search=n, use=reference" {
		t.Errorf("Value %q", s.Value)
	}
}

func TestUsageJSON(t *testing.T) {
	for in, want := range map[string]string{
		"":                                    `{}`,
		"train-ai=n":                          `{"train-ai":"n"}`,
		"search=y, train-ai=n, use=reference": `{"search":"y","train-ai":"n"}`,
		"x=maybe":                             `{}`,
	} {
		out, err := json.Marshal(parseUsage(in))
		if err != nil || string(out) != want {
			t.Errorf("Marshal(%q) = %s, %v; want %s", in, out, err, want)
		}
	}
	out, _ := json.Marshal([]Pref{PrefYes, PrefNo, PrefUnknown})
	if string(out) != `["y","n","unknown"]` {
		t.Errorf("Prefs marshal as %s", out)
	}
}
