package parser

import (
	"io"
	"net/http"

	"github.com/robotsgate/robotstxt/internal/body"
)

// A Body is a robots.txt body as crawlers read it, made by [Read]: the
// text to give [Parse].
type Body struct {
	// Text is the body as Read leaves it, in UTF-8.
	Text []byte
	// Charset names the encoding the body was read in: "utf-8",
	// "utf-16le", "utf-16be", "utf-32le", "utf-32be", or the charset
	// the Content-Type names, by its WHATWG name ("iso-8859-1" reads as
	// "windows-1252"; windows-1252 also when it names none, or one that
	// is not ASCII-compatible, and the body is not UTF-8; in it, as in
	// ISO-8859-15 and Windows-1254, what the parser reads of a line is
	// kept as it is when it is UTF-8: see [Read]).
	Charset string
	// Truncated reports that the body was longer than the limit.
	Truncated bool
}

// Read reads a robots.txt body from r as the robotstxt Client reads a
// response body, so that a linter sees what crawlers see. header, which
// may be nil, supplies Content-Encoding and Content-Type: gzip (its
// members in a row, bytes after them that start none ignored, as browsers
// do), x-gzip and deflate are undone (its lines are one list), and any
// other coding but identity is an error, as is a body still compressed,
// a gzip, Zstandard or zlib stream (a transport that undoes one gzip, as
// net/http's does unless the request asked for it, drops every line).
// At most limit bytes of the decoded body are kept (limit ≤ 0 keeps it
// all; the Client keeps 500 KiB unless told otherwise), and a coded body
// is read only as far as its text earns (64 KiB, and 32 bytes for each
// byte it decodes to), and never past four times a limit above 0 and 64
// KiB: one
// that runs on past that, as only padding such
// as empty gzip members makes it, is an error. Of the line
// the limit cuts, only what cannot allow more than the whole line is
// kept: a line the parser reads as it reads the whole (its comment began
// before the cut, or its text past MaxLineLength or a NUL is more than
// white space); a disallow rule, whose cut pattern covers more (as
// Google's parser reads the first 500 KiB), less a '$', a cut escape or
// a cut character at its end, made up with '*' to the length Google's
// parser weighs the cut pattern by, so that it beats every rule it would;
// and a Content-Usage rule or Content-Signal record, ended with two NUL
// bytes, which [Parse] reads as a line cut short: a refusal (see
// [UsageRule].Statement); any other is dropped, since a cut allow, user-agent or
// crawl-delay can say what the line does not. A line that ends right at
// the limit is whole (up to four bytes past it are read to tell). The
// text is then converted to UTF-8, its encoding told from the bytes kept
// and those that finish a character the limit cuts: UTF-32 is told by a
// byte-order mark, UTF-16 by one or by code units, the NULs of its first
// bytes or its line feeds as code units (0A 00 or 00 0A); but where a
// line of the body, read a byte a character, begins with a key the
// parser reads, a misspelling Google's accepts too, only if the bytes
// before that line, read as UTF-16, hold such a line too (NULs a writer
// ended its lines with, as C strings end, or the mark of a file whose
// NULs a tool stripped, are stray bytes before such rules; a UTF-16 file
// with ASCII lines appended is read as UTF-16); a body that is valid UTF-8, declared UTF-8 or
// starts with a UTF-8 byte-order mark is kept as it is; any other is
// converted from the Content-Type's charset, or Windows-1252 (also for a
// charset that is not ASCII-compatible: UTF-16 named but not found,
// ISO-2022-JP, the WHATWG replacement encoding); from Windows-1252 (no
// charset named, or Latin-1's), ISO-8859-15 or Windows-1254 a line at a
// time, a line whose part the parser reads (before a '#' or a NUL) is
// UTF-8 past ASCII keeping that part as it is (a UTF-8 file with a stray
// Latin-1 byte keeps its UTF-8 rules, as Google's parser, reading bytes,
// matches them). An error means the body
// could not be read whole: the Client takes such a robots.txt as
// unreachable.
func Read(r io.Reader, header http.Header, limit int64) (Body, error) {
	b, err := body.Read(r, header, limit)
	return Body(b), err
}
