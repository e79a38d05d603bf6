package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Escape sequences a hostile robots.txt or server may send: OSC 52 sets
// the clipboard, CSI sequences move the cursor and clear the screen.
const (
	osc52    = "\x1b]52;c;cm0gLXJmIH4K\x07"
	csi      = "\x1b[2J\x1b[31m"
	csi8bit  = "\u009b31m"           // the one-byte CSI, as UTF-8
	override = "\u202etxt.exe\u202c" // right-to-left override
)

// hostileRobots has escape sequences in a comment, user-agent lines,
// rules, a sitemap, an extension and unknown keys.
const hostileRobots = "# owner " + osc52 + "\n" +
	"User-agent: Evil" + osc52 + "Bot\n" +
	"User-agent: *\n" +
	"User-agent: " + csi + "\n" +
	"Disallow: /private" + csi + "\n" +
	"Disallow: /private" + csi + "\n" +
	"Disallow: /private" + csi8bit + "\n" +
	"Allow: /private" + csi8bit + "\n" +
	"Disallow: /bidi" + override + "\n" +
	"Crawl-delay: 1" + osc52 + "\n" +
	"Noindex: /x" + csi + "\n" +
	"Unknwn" + osc52 + ": x\n" +
	"Disallow /skipped" + osc52 + "\n" +
	"Sitemap: https://example.com/s" + osc52 + ".xml\n" +
	"Sitemap: /rel" + csi + "\n" +
	"\x7f\x00\x08\r\n"

// rawServer answers every connection with response, whatever it asks,
// for a server that sends what net/http would not.
func rawServer(t *testing.T, response string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			r := bufio.NewReader(c)
			for { // the request's header
				line, err := r.ReadString('\n')
				if err != nil || line == "\r\n" {
					break
				}
			}
			c.Write([]byte(response))
			c.Close()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
	})
	return "http://" + l.Addr().String()
}

// hostileSites returns the sites of the terminal tests: robots.txt files
// with escape sequences, as UTF-8, as UTF-8 with raw C1 bytes, as
// Windows-1252 whose undefined bytes decode to C1 controls, and a
// redirect and a 503 whose status lines and headers hold escapes.
func hostileSites(t *testing.T) map[string]string {
	t.Helper()
	serve := func(contentType, body string) string {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", contentType)
			w.Write([]byte(body))
		}))
		t.Cleanup(s.Close)
		return s.URL
	}
	return map[string]string{
		"utf-8":        serve("text/plain", hostileRobots),
		"raw C1 bytes": serve("text/plain; charset=utf-8", hostileRobots+"Disallow: /c1\x9b2J\x9d52;c;x\x9c\n"),
		"windows-1252": serve("text/plain", hostileRobots+"Disallow: /caf\xe9\x9d52;c;x\x07\n"),
		// net/http refuses header values with C0 controls, but not
		// C1 bytes, nor controls in the reason phrase.
		"redirect": rawServer(t, "HTTP/1.1 301 Moved "+osc52+"\r\n"+
			"Location: /robots\x9b2J"+override+".txt\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
		"503": rawServer(t, "HTTP/1.1 503 Down "+osc52+csi+"\r\n"+
			"Retry-After: \x9b2J\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
	}
}

// terminalUnsafe describes the first byte or character of out that a
// terminal may act on, or returns "": C0 controls but line feed and tab,
// DEL, C1 controls, invalid UTF-8, and bidi controls.
func terminalUnsafe(out string) string {
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRuneInString(out[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return fmt.Sprintf("invalid UTF-8 %#x at byte %d", out[i], i)
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, 0x80 <= r && r <= 0x9f:
			return fmt.Sprintf("control %U at byte %d", r, i)
		case r == 0x061c, r == 0x200e, r == 0x200f, 0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
			return fmt.Sprintf("bidi control %U at byte %d", r, i)
		}
		i += n
	}
	return ""
}

// TestTerminalSafe runs every command on hostile robots.txt files and
// servers and checks that nothing they sent reaches the terminal as a
// control: file lines, sitemaps, user-agent values, header values, status
// lines and error texts are escaped.
func TestTerminalSafe(t *testing.T) {
	for name, site := range hostileSites(t) {
		robots := site + "/robots.txt"
		for _, args := range [][]string{
			{"check", "-v", site + "/private/x"},
			{"check", "-v", "-agent", "Evil", site + "/"},
			{"test", "-file", robots, "/private%C2%9B31m", "/bidi%E2%80%AEtxt.exe%E2%80%AC"},
			{"explain", "-file", robots, "/private%C2%9B31m"},
			{"explain", "-file", robots, "/bidi%E2%80%AEtxt.exe%E2%80%AC"},
			{"explain", "-agent", "Evil", site + "/private/x"},
			{"lint", robots},
			{"lint", "-json", robots},
		} {
			var stdout, stderr bytes.Buffer
			run(args, &stdout, &stderr)
			for stream, out := range map[string]string{"stdout": stdout.String(), "stderr": stderr.String()} {
				if bad := terminalUnsafe(out); bad != "" {
					t.Errorf("%s: %q: %s has %s:\n%s", name, args, stream, bad, out)
				}
			}
		}
	}
}

// TestTerminalSafeJSON checks that lint -json escapes what a terminal
// acts on as JSON escapes, so that its output is safe to print and still
// decodes to the lines as written.
func TestTerminalSafeJSON(t *testing.T) {
	site := hostileSites(t)["utf-8"]
	var stdout, stderr bytes.Buffer
	run([]string{"lint", "-json", site + "/robots.txt"}, &stdout, &stderr)
	if bad := terminalUnsafe(stdout.String()); bad != "" {
		t.Errorf("stdout has %s:\n%s", bad, stdout.String())
	}
	var rep report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	texts := map[string]bool{}
	for _, d := range rep.Diagnostics {
		texts[d.Text] = true
	}
	for _, want := range []string{"Disallow: /private" + csi, "Disallow: /private" + csi8bit, "Unknwn" + osc52 + ": x"} {
		if !texts[want] {
			t.Errorf("no finding has the text %q as written; texts: %v", want, texts)
		}
	}
}

// hostile holds what a terminal may act on, as an argument, a file name
// or text may carry it: OSC and CSI sequences, BEL, C1 controls as UTF-8
// (CSI, OSC, ST, NEL), a raw C1 byte (invalid UTF-8), DEL, a carriage
// return, bidi overrides and isolates, a line separator and a line feed
// before "PWNED", which must never start a line. It has no '/' or NUL, so
// that it can be part of a file name.
const hostile = "\x1b]0;PWNED\x07\x1b[2J\u009b31m\u009d0;x\u009c\u0085\x9b\x7f\r\u202e\u2067\u2028\nPWNED"

// TestTerminalSafeBinary runs the built command, as a user or a script
// does ("xargs robotstxt check < urls.txt"), with hostile arguments,
// hostile files, a hostile file name, hostile standard input and hostile
// servers, and checks that nothing it writes to stdout or stderr is a
// control a terminal acts on, or starts a line with what an argument or
// a server made up.
func TestTerminalSafeBinary(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "robots"+hostile+".txt")
	body := hostileRobots + "Content-Usage: /u train-ai=yes\x1b[2J\n" + "Disallow: /c1\x9b2J\x9d52;c;x\x9c\n" + hostile + "\n"
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	sites := hostileSites(t)
	// A status line and header values end at CR and LF.
	inLine := strings.NewReplacer("\r", "", "\n", "").Replace(hostile)
	headers := rawServer(t, "HTTP/1.1 200 OK "+inLine+"\r\n"+
		"Content-Type: text/plain; charset=\""+inLine+"\"\r\n"+
		"Content-Length: "+strconv.Itoa(len(body))+"\r\nConnection: close\r\n\r\n"+body)
	refused := "http://" + closedPort(t)

	runs := [][]string{
		// issue 27 point 9: the flag package's error quoted the flag
		{"test", "-file", os.DevNull, "-\x1b]0;PWNED\x07"},
		{"test", "-file", os.DevNull, "-" + hostile},
		{"check", "--" + hostile + "=1", refused + "/"},
		{"lint", "-" + hostile, file},
		{"explain", "-=" + hostile, "/x"},
		{"check", "-v=" + hostile, refused + "/"},
		{"check", "-timeout", hostile, refused + "/"},
		{"lint", "-level", hostile, file},
		{"test", "-file", file, "-expect", hostile, "/x"},
		{"test", "-file", file, "-agent", hostile, "/x"},
		{"test", "-file", file, "-agent", "Bot" + hostile, "/x"},
		{"check", "-ua", hostile, refused + "/"},
		{"check", "-timeout", "2s", "-ua", "Bot/1.0 " + hostile, refused + "/"},
		{hostile},
		{"help", hostile},
		{"help", "test", hostile},
		{"version", hostile},
		// URLs and paths
		{"check", "-timeout", "2s", "-v", refused + "/" + hostile},
		{"check", "http://exa" + hostile + "mple.com/"},
		{"check", "http://\u202eexample.com/", "http://a\x9bb/"},
		{"test", "-file", file, "/" + hostile, hostile},
		{"test", "-file", "http://" + hostile + "/robots.txt", "/x"},
		{"explain", "-file", file, "/private" + hostile},
		{"explain", "-timeout", "2s", refused + "/" + hostile},
		// files, their names and standard input
		{"lint", file},
		{"lint", "-json", file},
		{"lint", filepath.Join(dir, "missing"+hostile)},
		{"test", "-file", file, "/private/x", "/u", "/bidi"},
		{"test", "-file", filepath.Join(dir, "missing"+hostile), "/x"},
		{"explain", "-file", file, "/u"},
		{"lint", "-"},
		{"test", "-file", "-", "/x", "/u"},
		{"explain", "-file", "-", "/u"},
		{"check", "-json", refused + "/" + hostile},
		{"test", "-json", "-file", file, "/u", "/" + hostile},
		{"explain", "-json", "-file", file, "/u", "/" + hostile},
	}
	// servers: bodies, status lines, headers, redirects
	for _, site := range append(slices.Collect(maps.Values(sites)), headers) {
		runs = append(runs,
			[]string{"check", "-v", "-timeout", "5s", site + "/private/x", site + "/u", site + "/" + hostile},
			[]string{"check", "-json", "-timeout", "5s", site + "/u", site + "/" + hostile},
			[]string{"test", "-timeout", "5s", "-file", site + "/robots.txt", "/u", "/" + hostile},
			[]string{"test", "-json", "-timeout", "5s", "-file", site + "/robots.txt", "/u"},
			[]string{"explain", "-timeout", "5s", site + "/u"},
			[]string{"explain", "-json", "-timeout", "5s", site + "/u"},
			[]string{"lint", "-timeout", "5s", site + "/robots.txt"},
			[]string{"lint", "-json", "-timeout", "5s", site + "/robots.txt"},
		)
	}
	for _, args := range runs {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Stdin = strings.NewReader(body)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		cancel()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("%q: %v", args, err)
		}
		if stdout.Len()+stderr.Len() == 0 {
			t.Errorf("%q: no output", args)
		}
		for stream, out := range map[string]string{"stdout": stdout.String(), "stderr": stderr.String()} {
			if bad := terminalUnsafe(out); bad != "" {
				t.Errorf("%q: %s has %s: %q", args, stream, bad, out)
			} else if strings.Contains("\n"+out, "\nPWNED") {
				t.Errorf("%q: %s has a line made up by the input: %q", args, stream, out)
			}
		}
	}
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"Disallow: /café":                "Disallow: /café",
		"a\x1b]52;c;eA==\x07b":           `a\x1b]52;c;eA==\x07b`,
		"tab\there\r\n":                  `tab\x09here\x0d\x0a`,
		"\x00\x7f":                       `\x00\x7f`,
		"c1 \u0085 \u009b \u009f end":    `c1 \u0085 \u009b \u009f end`,
		"bad \x9b\xff utf-8":             `bad \x9b\xff utf-8`,
		"bidi \u202etxt.exe\u202c":       `bidi \u202etxt.exe\u202c`,
		"\u2066\u2069\u200e\u200f\u061c": `\u2066\u2069\u200e\u200f\u061c`,
		"line\u2028sep\u2029":            `line\u2028sep\u2029`,
		`back\slash`:                     `back\slash`,
		"\u00a0nbsp \u00e9 \U0001F600":   "\u00a0nbsp \u00e9 \U0001F600",
		"":                               "",
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzPrintable checks that printable leaves nothing a terminal acts on,
// that it keeps text with nothing to escape as it is, and that its
// escapes say which bytes they stand for.
func FuzzPrintable(f *testing.F) {
	f.Add("a\x1b]52;c;eA==\x07b")
	f.Add("\u202e\x9b\xc2")
	f.Add("plain")
	f.Fuzz(func(t *testing.T, s string) {
		p := printable(s)
		if bad := terminalUnsafe(p); bad != "" || strings.ContainsAny(p, "\n\t") {
			t.Fatalf("printable(%q) = %q has %s", s, p, bad)
		}
		if terminalUnsafe(s) == "" && !strings.ContainsAny(s, "\n\t\u2028\u2029") && p != s {
			t.Fatalf("printable(%q) = %q, want it unchanged", s, p)
		}
		if !strings.Contains(s, `\`) {
			// Without backslashes in s, the escapes are the only ones.
			if u, err := strconv.Unquote(`"` + strings.ReplaceAll(p, `"`, `\"`) + `"`); err != nil || u != s {
				t.Fatalf("printable(%q) = %q unquotes to %q, %v", s, p, u, err)
			}
		}
	})
}

// FuzzPrintableJSON checks that printableJSON leaves nothing a terminal
// acts on in JSON text, which still decodes to the same value.
func FuzzPrintableJSON(f *testing.F) {
	f.Add("a\x1b]52;c;eA==\x07b\u0085\u202e\x7f")
	f.Add("\x9b\xff")
	f.Fuzz(func(t *testing.T, s string) {
		js, err := json.Marshal(map[string]string{"text": s, s: "key"})
		if err != nil {
			t.Fatal(err)
		}
		p := printableJSON(js)
		if bad := terminalUnsafe(string(p)); bad != "" {
			t.Fatalf("printableJSON(%s) = %s has %s", js, p, bad)
		}
		var a, b map[string]string
		if err := json.Unmarshal(js, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(p, &b); err != nil || !maps.Equal(a, b) {
			t.Fatalf("printableJSON(%s) = %s decodes to %q, %v; want %q", js, p, b, err, a)
		}
	})
}
