package jssource

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/evanw/esbuild/pkg/api"

	"rea/analysis/jssource/sourcewire"
	"rea/jsengine/jstest"
)

// minify is the generated webpack 5 bundle minified by esbuild (names
// kept, whitespace removed): one long line, as shipped apps have them.
func minify(t testing.TB, src string) string {
	t.Helper()
	r := api.Transform(src, api.TransformOptions{MinifyWhitespace: true, LogLevel: api.LogLevelSilent})
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	return string(r.Code)
}

func TestReadPrettyPrintsTheCodeAroundAPositionInAMinifiedBundle(t *testing.T) {
	src := minify(t, jstest.Bundle(64<<10))
	fsys := fstest.MapFS{"dist/main.js": {Data: []byte(src)}}
	at := strings.Index(src, `"feature7:run"`)
	if at < 0 {
		t.Fatal("generator changed: no feature7:run")
	}
	tx := newText("dist/main.js", src)
	p := tx.pos(at)
	res, err := Read(fsys, sourcewire.ReadRequest{Path: "dist/main.js", Line: p.Line, Column: p.Column})
	if err != nil {
		t.Fatal(err)
	}
	if res.View != "pretty" || !res.Minified || res.Module == nil || res.Module.Key != "./src/mod7.js" {
		t.Fatalf("view %s minified %v module %+v unit %+v limitations %v", res.View, res.Minified, res.Module, res.Unit, res.Limitations)
	}
	focus := res.Lines[res.FocusLine-1-res.Offset]
	if !strings.Contains(focus.Text, "feature7:run") || focus.Shipped == nil || focus.Shipped.Offset > at {
		t.Fatalf("focus line %+v", focus)
	}
	if len(res.Lines) < 5 {
		t.Fatalf("only %d lines", len(res.Lines))
	}
	for _, l := range res.Lines {
		first := strings.TrimSpace(l.Text)[:1]
		if first == "}" || first == ")" || first == "]" {
			continue // esbuild maps a closing line to the code before it
		}
		if l.Shipped != nil && !strings.HasPrefix(src[l.Shipped.Offset:], strings.TrimSpace(l.Text)[:1]) {
			t.Errorf("line %d %q maps to shipped %q", l.Number, l.Text, src[l.Shipped.Offset:min(len(src), l.Shipped.Offset+20)])
		}
	}
	t.Logf("%d lines, focus %d, unit %+v", res.TotalLines, res.FocusLine, res.Unit)
	for _, l := range res.Lines[:min(12, len(res.Lines))] {
		t.Logf("%4d %s", l.Number, l.Text)
	}
}
