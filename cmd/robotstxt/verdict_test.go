package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"os/exec"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// decodedResult is a line of the -json output of check, test and explain
// as a script reads it.
type decodedResult struct {
	URL       string            `json:"url"`
	Agent     string            `json:"agent"`
	Verdict   string            `json:"verdict"`
	Rule      *ruleResult       `json:"rule"`
	Served    string            `json:"served"`
	Usage     map[string]string `json:"usage"`
	Status    int               `json:"status"`
	Detail    string            `json:"detail"`
	Matches   []matchResult     `json:"matches"`    // explain's
	Signals   []decodedSignal   `json:"signals"`    // check's
	PageError string            `json:"page_error"` // check's
}

// decodedSignal is a signal of check's -json output as a script reads it.
type decodedSignal struct {
	Source string `json:"source"`
	Label  string `json:"label"`
	Pref   string `json:"pref"`
	Where  string `json:"where"`
	Value  string `json:"value"`
}

// words are the text output's words for the verdicts of -json.
var words = map[string]string{"allowed": "ALLOW", "disallowed": "DISALLOW", "deferred": "DEFER"}

// decodeResults reads -json output: one object a line, with the fields of
// decodedResult only, each present but status, served, matches,
// signals and page_error, and a known verdict.
func decodeResults(t *testing.T, out string) []decodedResult {
	t.Helper()
	var rs []decodedResult
	for _, l := range outputLines(out) {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal([]byte(l), &fields); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		for _, k := range []string{"url", "agent", "verdict", "rule", "usage", "detail"} {
			if _, ok := fields[k]; !ok {
				t.Errorf("no %q in %s", k, l)
			}
		}
		dec := json.NewDecoder(strings.NewReader(l))
		dec.DisallowUnknownFields()
		var r decodedResult
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		if words[r.Verdict] == "" {
			t.Errorf("verdict %q in %s", r.Verdict, l)
		}
		rs = append(rs, r)
	}
	return rs
}

func TestVerdictWordsAndJSON(t *testing.T) {
	for v, want := range map[verdict][2]string{
		verdictAllowed:    {"ALLOW", "allowed"},
		verdictDisallowed: {"DISALLOW", "disallowed"},
		verdictDeferred:   {"DEFER", "deferred"},
	} {
		js, err := v.MarshalText()
		if v.word() != want[0] || string(js) != want[1] || err != nil || words[want[1]] != want[0] {
			t.Errorf("verdict %d: %s, %s, %v; want %s", v, v.word(), js, err, want)
		}
	}
	if verdictOf(true) != verdictAllowed || verdictOf(false) != verdictDisallowed {
		t.Error("verdictOf")
	}
}

// jsonSite is served by the -json tests: a rule for every kind of
// answer, Content-Usage rules with preferences, with values that are not
// y or n and with labels outside the vocabulary.
const jsonSite = `User-agent: *
Disallow: /private/
Allow: /private/ok
Content-Usage: train-ai=n, search=y
Content-Usage: /yes/ train-ai=yes, search=n, ai=n
Content-Usage: /bad/ Train-AI=n
`

// TestJSONBinary runs the built command's check, test and explain with
// -json, against loopback servers, as a script does: one object per URL,
// whatever the exit code, with the deciding rule, the usage of the
// vocabulary's labels said y or n only, the status, and no field beyond
// those documented.
func TestJSONBinary(t *testing.T) {
	bin := buildBinary(t)
	s := newRobotsServer(t, http.StatusOK, jsonSite)
	down := newRobotsServer(t, http.StatusServiceUnavailable, "")
	missing := newRobotsServer(t, http.StatusNotFound, "")
	paths := []string{"/", "/private/x", "/private/ok", "/yes/x", "/bad/x"}
	type want struct {
		verdict string
		rule    *ruleResult
		usage   map[string]string
	}
	wants := []want{
		{"allowed", nil, map[string]string{"train-ai": "n", "search": "y"}},
		{"disallowed", &ruleResult{2, "disallow", "/private/", "Disallow: /private/"}, map[string]string{}},
		{"allowed", &ruleResult{3, "allow", "/private/ok", "Allow: /private/ok"}, map[string]string{"train-ai": "n", "search": "y"}},
		{"allowed", nil, map[string]string{"search": "n"}},
		{"allowed", nil, map[string]string{}},
	}
	var urls []string
	for _, p := range paths {
		urls = append(urls, s.URL+p)
	}
	for _, args := range [][]string{
		append([]string{"check", "-json"}, urls...),
		append([]string{"test", "-json", "-file", s.URL + "/robots.txt"}, paths...),
		append([]string{"explain", "-json"}, urls...),
		append([]string{"explain", "-json", "-file", s.URL + "/robots.txt"}, paths...),
	} {
		out, code := runBinary(t, bin, "", args...)
		if code != exitDisallowed {
			t.Errorf("%q: exit %d, want %d", args[:2], code, exitDisallowed)
		}
		rs := decodeResults(t, out)
		if len(rs) != len(paths) {
			t.Fatalf("%q: %d objects for %d URLs:\n%s", args[:2], len(rs), len(paths), out)
		}
		for i, r := range rs {
			w := wants[i]
			if r.URL != args[len(args)-len(paths)+i] || r.Agent != defaultAgent || r.Verdict != w.verdict ||
				!equalRules(r.Rule, w.rule) || !maps.Equal(r.Usage, w.usage) || r.Status != 200 || r.Detail == "" {
				t.Errorf("%q, %s: %+v; want %+v", args[:2], paths[i], r, w)
			}
			if explain := args[0] == "explain"; explain != (r.Matches != nil) ||
				explain && w.rule != nil && (len(r.Matches) == 0 || !equalRules(&r.Matches[0].ruleResult, w.rule) || r.Matches[0].Length != len(w.rule.Pattern)) {
				t.Errorf("%q, %s: matches %+v", args[:2], paths[i], r.Matches)
			}
		}
	}

	// A file has no status; an unreachable robots.txt is deferred, and a
	// missing one allows all.
	out, code := runBinary(t, bin, jsonSite, "test", "-json", "-file", "-", "/private/x")
	if rs := decodeResults(t, out); code != exitDisallowed || len(rs) != 1 || rs[0].Status != 0 || strings.Contains(out, `"status"`) {
		t.Errorf("test -file -: exit %d, %s", code, out)
	}
	for _, tc := range []struct {
		site    string
		verdict string
		status  int
		code    int
	}{
		{down.URL, "deferred", 503, exitDeferred},
		{missing.URL, "allowed", 404, exitOK},
	} {
		for _, args := range [][]string{
			{"check", "-json", tc.site + "/x"},
			{"test", "-json", "-file", tc.site + "/robots.txt", "/x"},
			{"explain", "-json", tc.site + "/x"},
		} {
			out, code := runBinary(t, bin, "", args...)
			rs := decodeResults(t, out)
			if code != tc.code || len(rs) != 1 || rs[0].Verdict != tc.verdict || rs[0].Status != tc.status || rs[0].Rule != nil || len(rs[0].Usage) != 0 {
				t.Errorf("%q: exit %d, %s; want %d, %s, status %d", args, code, out, tc.code, tc.verdict, tc.status)
			}
		}
	}
}

// runBinary runs the built command with stdin and returns its standard
// output and exit code; it fails the test on anything on standard error
// but notes.
func runBinary(t *testing.T, bin, stdin string, args ...string) (string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
	case err != nil:
		t.Fatalf("%q: %v", args, err)
	}
	if stderr.Len() > 0 {
		t.Errorf("%q: stderr %q", args, stderr.String())
	}
	return stdout.String(), cmd.ProcessState.ExitCode()
}

// equalRules reports whether a and b are both nil or the same rule.
func equalRules(a, b *ruleResult) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// TestJSONHelp checks that the help of every command with -json shows
// its objects with the fields the command writes, no more and no fewer:
// the keys of the example in the help, nested ones included, are those
// of the JSON the command's type encodes.
func TestJSONHelp(t *testing.T) {
	rule := &ruleResult{Line: 1}
	for _, tc := range []struct {
		cmd    string
		sample any
	}{
		{"check", urlResult{Rule: rule, Status: 200}},
		{"test", urlResult{Rule: rule, Status: 200}},
		{"explain", urlResult{Rule: rule, Status: 200}},
		{"lint", report{Diagnostics: []finding{{Severity: sevError, Code: codeTooMany}}}},
	} {
		c := lookup(tc.cmd)
		help := runCmd(t, "", "help", tc.cmd).stdout
		if c.json == "" || !strings.Contains(help, "\n"+c.json+"\n") || !strings.Contains(c.usage, "[-json]") {
			t.Errorf("help %s does not show what -json prints", tc.cmd)
			continue
		}
		// The example is the indented lines after the first.
		var example strings.Builder
		for _, l := range strings.Split(c.json, "\n")[1:] {
			if !strings.HasPrefix(l, " ") {
				break
			}
			example.WriteString(l)
		}
		var shown any
		if err := json.Unmarshal([]byte(example.String()), &shown); err != nil {
			t.Errorf("help %s: the example %s is not JSON: %v", tc.cmd, example.String(), err)
			continue
		}
		js, err := json.Marshal(tc.sample)
		if err != nil {
			t.Fatal(err)
		}
		var written any
		json.Unmarshal(js, &written)
		if got, want := jsonKeys("", shown), jsonKeys("", written); !slices.Equal(got, want) {
			t.Errorf("help %s: the example has the keys %q; -json writes %q", tc.cmd, got, want)
		}
	}
	if !strings.Contains(lookup("explain").json, `"matches"`) || !strings.Contains(lookup("explain").json, `"length"`) {
		t.Error("explain's help does not say what matches holds")
	}
	for _, l := range labels {
		if !strings.Contains(urlJSONHelp, l) {
			t.Errorf("the -json help does not name the label %s", l)
		}
	}
}

// TestJSONHelpNamesEveryField checks that the -json help of each command
// names every field its objects can hold, those omitted when empty too,
// nested ones included.
func TestJSONHelpNamesEveryField(t *testing.T) {
	for _, tc := range []struct {
		cmd    string
		sample any
	}{
		{"check", checkResult{}},
		{"test", urlResult{}},
		{"explain", explanation{}},
		{"lint", report{}},
	} {
		for _, name := range jsonNames(reflect.TypeOf(tc.sample)) {
			if !regexp.MustCompile(`(^|[^a-z_])` + name + `([^a-z_]|$)`).MatchString(lookup(tc.cmd).json) {
				t.Errorf("%s -json can write %q, which its help does not name", tc.cmd, name)
			}
		}
	}
}

// jsonNames returns the names that encoding/json gives the fields of the
// type t, of the structs within them too.
func jsonNames(t reflect.Type) []string {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice:
		return jsonNames(t.Elem())
	case reflect.Struct:
	default:
		return nil
	}
	var names []string
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		if f.IsExported() && !f.Anonymous && name != "-" {
			names = append(names, name)
			names = append(names, jsonNames(f.Type)...)
		}
	}
	return names
}

// jsonKeys returns the keys of the objects in v, a decoded JSON value,
// as paths ("rule.line"), sorted; an array's elements are read as one.
// An object under "usage" is a map of labels: its keys are not fields.
func jsonKeys(prefix string, v any) []string {
	var keys []string
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			keys = append(keys, prefix+k)
			if k != "usage" {
				keys = append(keys, jsonKeys(prefix+k+".", e)...)
			}
		}
	case []any:
		for _, e := range v {
			keys = append(keys, jsonKeys(prefix, e)...)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}
