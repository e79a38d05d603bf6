package main

import "testing"

func TestBodyKind(t *testing.T) {
	for _, tc := range []struct {
		body     string
		hasRules bool
		want     string
	}{
		{"<!DOCTYPE html><html><body>x</body></html>", false, "an HTML page"},
		{"\n\n  <HTML>\n<HEAD>", false, "an HTML page"},
		{"\ufeff<html>", false, "an HTML page"},
		{`<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>`, false, "an XML document"},
		{`{"error": "not found"}`, false, "a JSON document"},
		{"Sorry\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", false, "a binary file"},
		{"User-agent: *\nDisallow: /\x00\x00\x00\x00\x00\x00\x00\x00", true, ""},
		{"User-agent: *\nDisallow: /\n", true, ""},
		{"<script>x()</script>\nUser-agent: *\nDisallow: /\n", true, ""},
		{"{not json", false, ""},
		{"", false, ""},
	} {
		if got := bodyKind([]byte(tc.body), tc.hasRules); got != tc.want {
			t.Errorf("bodyKind(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
}
