package sturdylog

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

// panicky panics in the methods named in its set, and writes the other
// records to next.
type panicky struct {
	in   map[string]bool
	next slog.Handler
}

func (p panicky) Enabled(ctx context.Context, l slog.Level) bool {
	if p.in["Enabled"] {
		panic("Enabled")
	}
	return p.next.Enabled(ctx, l)
}

func (p panicky) Handle(ctx context.Context, r slog.Record) error {
	if p.in["Handle"] || p.in[r.Message] {
		panic("Handle")
	}
	return p.next.Handle(ctx, r)
}

func (p panicky) WithAttrs(as []slog.Attr) slog.Handler {
	if p.in["WithAttrs"] {
		panic("WithAttrs")
	}
	return panicky{p.in, p.next.WithAttrs(as)}
}

func (p panicky) WithGroup(name string) slog.Handler {
	if p.in["WithGroup"] {
		panic("WithGroup")
	}
	return panicky{p.in, p.next.WithGroup(name)}
}

// TestNew: a panic in any method of the handler drops what it was for;
// the records around it are written, with the attributes given before.
func TestNew(t *testing.T) {
	for _, method := range []string{"Enabled", "Handle", "WithAttrs", "WithGroup"} {
		t.Run(method, func(t *testing.T) {
			var out bytes.Buffer
			l := New(slog.New(panicky{map[string]bool{method: true}, slog.NewTextHandler(&out, nil)}))
			l.With("k", "v").WithGroup("g").Info("one", "a", 1)
			got := out.String()
			switch method {
			case "Enabled", "Handle":
				if got != "" {
					t.Errorf("wrote %q, want nothing", got)
				}
			case "WithAttrs":
				if !strings.Contains(got, "msg=one g.a=1") || strings.Contains(got, "k=v") {
					t.Errorf("wrote %q, want the record without k=v", got)
				}
			case "WithGroup":
				if !strings.Contains(got, "msg=one k=v a=1") {
					t.Errorf("wrote %q, want the record without its group", got)
				}
			}
		})
	}
	var out bytes.Buffer
	l := New(slog.New(panicky{map[string]bool{"two": true}, slog.NewTextHandler(&out, nil)}))
	l.Info("one")
	l.Info("two")
	l.Info("three")
	if got := out.String(); !strings.Contains(got, "msg=one") || strings.Contains(got, "msg=two") || !strings.Contains(got, "msg=three") {
		t.Errorf("wrote %q, want one and three", got)
	}
	New(nil).Info("discarded") // no panic: a logger that discards
	// A panic value that fmt cannot print is not printed.
	New(slog.New(unprintable{})).Info("dropped")
}

// unprintable is a handler that panics with a value fmt cannot print:
// its String panics with such a value again.
type unprintable struct{ slog.Handler }

func (unprintable) String() string                            { panic(unprintable{}) }
func (unprintable) Enabled(context.Context, slog.Level) bool  { return true }
func (unprintable) Handle(context.Context, slog.Record) error { panic(unprintable{}) }
