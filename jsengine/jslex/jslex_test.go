package jslex

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestScanFindsLiteralRequiresAndRelevantWords(t *testing.T) {
	src := "#!/usr/bin/env node\n'use strict';\nconst a = require('./a'), b = require( \"b\" );\n" +
		"// require('in-a-comment') window\nconst s = `x ${require('./t')} y`;\nconst r = /['\"]/g; x = a / 2 / b;\n"
	f, err := Scan(src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Relevant != "window" {
		t.Errorf("relevant %q, want the word in the comment (window)", f.Relevant)
	}
	if f.NeedsParse != "" {
		t.Errorf("needs parse: %s", f.NeedsParse)
	}
	var specs []string
	for _, r := range f.Requires {
		if !strings.HasPrefix(src[r.Offset:], "require") {
			t.Errorf("offset %d is not at require", r.Offset)
		}
		specs = append(specs, r.Spec)
	}
	if strings.Join(specs, ",") != "./a,b,./t" {
		t.Errorf("requires %v", specs)
	}
}

func TestScanSaysWhenTheParserMustDecide(t *testing.T) {
	for src, why := range map[string]string{
		"import x from 'y'":         "ESM",
		"export const a = 1":        "ESM",
		"const f = require; f('x')": "require outside",
		"x.require('y')":            "require outside",
		"require('a' + b)":          "require outside",
		"require('a\\x41')":         "require outside",
		"@dec class A {}":           "decorator",
		"const el = <div/>":         "JSX",
		"<!-- old comment\nx()":     "HTML comment",
		"await f()":                 "await",
		"return 1":                  "top-level return",
		"const = 1":                 "declaration",
		"async function f(){ for await (const x of y){} }": "await",
	} {
		f, err := Scan(src, Limits{})
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if !strings.Contains(f.NeedsParse, why) {
			t.Errorf("%q: needs parse %q, want %q", src, f.NeedsParse, why)
		}
	}
	for _, src := range []string{"a < b", "if (a < b) {}", "x = y?.z ?? 1", "class A { #p = 1; static { } }", "for (const x of y) {}"} {
		if f, err := Scan(src, Limits{}); err != nil || f.NeedsParse != "" {
			t.Errorf("%q: %v %q", src, err, f.NeedsParse)
		}
	}
}

func TestScanIsBoundedAndTypedOnHostileInput(t *testing.T) {
	huge := strings.Repeat("a", 8<<20)
	cases := map[string]string{
		"'unterminated":                     "unterminated-string",
		"x = \"line\nbreak\"":               "unterminated-string",
		"`never closed ${a}":                "unterminated-template",
		"/* open":                           "unterminated-comment",
		"x = /open\n":                       "unterminated-regex",
		"f(":                                "unbalanced",
		"}":                                 "unbalanced",
		strings.Repeat("`${", 300):          "too-deep",
		"x = '" + huge:                      "unterminated-string",
		"\xff\xfe require('\xff') \x80\x81": "",
	}
	for src, kind := range cases {
		f, err := Scan(src, Limits{})
		var le *Error
		switch {
		case kind == "" && err != nil:
			t.Errorf("%.40q: %v", src, err)
		case kind != "" && (!errors.As(err, &le) || le.Kind != kind):
			t.Errorf("%.40q: error %v, want %s", src, err, kind)
		}
		_ = f
	}
	if _, err := Scan(strings.Repeat("a;", 1000), Limits{MaxTokens: 100}); err == nil || !strings.Contains(err.Error(), "too-many-tokens") {
		t.Errorf("token bound: %v", err)
	}
	// One huge line of hyphenated words is scanned in linear time.
	if f, _ := Scan("x = '"+strings.Repeat("a-", 4<<20)+"'", Limits{}); f.Relevant != "" {
		t.Errorf("relevant %q", f.Relevant)
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{"const a = require('./a');", "`${`${x}`}`", "x = /[/]/g.test(y) / 2", "'\\", "\xff\xfe",
		"import('x')", "<a>", "require(`x`)", "a = {}/1/g", "#!x\nrequire('y')"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		facts, err := Scan(src, Limits{MaxTokens: 1 << 16})
		if err != nil {
			var le *Error
			if !errors.As(err, &le) || le.Offset < 0 || le.Offset > len(src) {
				t.Fatalf("untyped or out-of-range error %v", err)
			}
		}
		for _, r := range facts.Requires {
			if r.Offset < 0 || !strings.HasPrefix(src[r.Offset:], "require") {
				t.Fatalf("require offset %d not at require", r.Offset)
			}
			if !strings.Contains(src, r.Spec) {
				t.Fatalf("spec %q not in the source", r.Spec)
			}
		}
		if facts.Relevant != "" && utf8.ValidString(src) && !strings.Contains(strings.ToLower(src), strings.ToLower(strings.SplitN(facts.Relevant, ".", 2)[0])) {
			t.Fatalf("relevant word %q not in the source", facts.Relevant)
		}
	})
}
