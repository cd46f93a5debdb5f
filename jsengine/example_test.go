package jsengine_test

import (
	"context"
	"fmt"
	"testing/fstest"

	"rea/jsengine"
)

// An insecure option set through a helper in another module is still
// found, with the original position of the literal.
func ExampleAnalyze() {
	app := fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"demo","main":"main.js","devDependencies":{"electron":"^28.0.0"}}`)},
		"prefs.js":     {Data: []byte("exports.prefs = () => ({ contextIsolation: false });\n")},
		"main.js": {Data: []byte(`const { BrowserWindow } = require('electron');
const { prefs } = require('./prefs');
new BrowserWindow({ webPreferences: prefs() });
`)},
	}
	r, err := jsengine.Analyze(context.Background(), app, jsengine.Options{}, nil)
	if err != nil {
		panic(err)
	}
	for _, f := range r.Findings {
		if f.Severity == "high" {
			fmt.Printf("%s %s %s:%d:%d\n", f.Severity, f.RuleID, f.Location.File, f.Location.Line, f.Location.Column)
		}
	}
	fmt.Println("windows:", r.Summary.BrowserWindows, "coverage:", r.Coverage.Status)
	// Output:
	// high context-isolation-disabled prefs.js:1:44
	// windows: 1 coverage: complete
}
