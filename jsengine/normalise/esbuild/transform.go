// Package esbuild runs a normalise.Request through esbuild's Transform with
// the options jsengine has always used. It is linked into the normaliser
// module and into native builds of jsengine, never into the jsapp module.
package esbuild

import (
	"encoding/json"
	"fmt"

	"github.com/evanw/esbuild/pkg/api"

	"rea/jsengine/normalise"
)

// sourceMap is what the analysis needs of esbuild's source map (its
// sourcesContent is excluded in the options).
type sourceMap struct {
	Version  int      `json:"version"`
	Sources  []string `json:"sources"`
	Mappings string   `json:"mappings"`
}

// supported overrides what ES2017 is taken to support.
var supported = map[string]bool{
	"dynamic-import":                false,
	"class-private-field":           true,
	"class-private-method":          true,
	"class-private-accessor":        true,
	"class-private-static-field":    true,
	"class-private-static-method":   true,
	"class-private-static-accessor": true,
	"class-field":                   true,
	"class-static-field":            true,
	"optional-chain":                true,
	"nullish-coalescing":            true,
}

var loaders = map[string]api.Loader{"js": api.LoaderJS, "jsx": api.LoaderJSX, "ts": api.LoaderTS, "tsx": api.LoaderTSX}

// Transform converts to CommonJS at ES2017 with dynamic import lowered to
// require (goja's parser reads neither ESM nor import()), with an external
// source map that maps back to the original positions. Private class
// members stay as written: goja reads them, and lowered to WeakMap helpers
// (__privateGet(this, _x)) they would hide this.#x from the analysis and
// from the expressions it reports.
func Transform(req normalise.Request) normalise.Result {
	loader, ok := loaders[req.Loader]
	if !ok {
		return normalise.Result{Errors: []normalise.Message{{Text: "unknown loader " + req.Loader}}}
	}
	res := api.Transform(req.Source, api.TransformOptions{
		Loader:         loader,
		Format:         api.FormatCommonJS,
		Target:         api.ES2017,
		Supported:      supported,
		Sourcemap:      api.SourceMapExternal,
		SourcesContent: api.SourcesContentExclude,
		Sourcefile:     req.Sourcefile,
		TsconfigRaw:    req.Tsconfig,
		LogLevel:       api.LogLevelSilent,
	})
	out := normalise.Result{Code: string(res.Code)}
	if len(res.Errors) == 0 {
		var m sourceMap
		if err := json.Unmarshal(res.Map, &m); err != nil || m.Version != 3 {
			return normalise.Result{Errors: []normalise.Message{{Text: fmt.Sprintf("esbuild's source map: version %d, %v", m.Version, err)}}}
		}
		out.Sources, out.Mappings = m.Sources, m.Mappings
	}
	for _, m := range res.Errors {
		msg := normalise.Message{Text: m.Text}
		if m.Location != nil {
			msg.Located, msg.File, msg.Line, msg.Column = true, m.Location.File, m.Location.Line, m.Location.Column
		}
		out.Errors = append(out.Errors, msg)
	}
	return out
}
