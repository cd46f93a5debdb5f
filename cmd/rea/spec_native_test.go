package main

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"rea/analysis/native/nativetest"
	"rea/analysis/native/nativewire"
	"rea/analysis/native/query"
	"rea/host/app"
)

// nativeServiceDefaults run the native module's library (query.Run, what
// the native module runs in the sandbox) on a real binary with the
// parameters under test, and read the paging it applied back from the
// result's pages.
func nativeServiceDefaults(t *testing.T, a *app.App) map[string]func(map[string]any) (map[string]any, error) {
	bin := nativetest.GoBinary(t, "linux", "amd64")
	dir := t.TempDir()
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hello"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	fsys := os.DirFS(dir)
	entry := func() string {
		res, err := query.Run(nativewire.OpLayout, nativewire.Params{}, fsys, nil)
		if err != nil || res.(*nativewire.Layout).Entry == nil {
			t.Fatalf("layout of the test binary: %v", err)
		}
		return res.(*nativewire.Layout).Entry.String()
	}()
	run := func(op string, base map[string]any, p map[string]any) (map[string]any, error) {
		in := map[string]any{}
		for k, v := range base {
			in[k] = v
		}
		for k, v := range p {
			in[k] = v
		}
		var req app.NativeRequest
		if err := remarshal(in, &req); err != nil {
			return nil, err
		}
		params := nativewire.Params{Architecture: req.Architecture, Procedure: req.Procedure, Length: req.Length, Pattern: req.Pattern,
			Mode: req.Mode, CaseSensitive: req.CaseSensitive, Offset: req.Offset, Limit: req.Limit, AssemblyOffset: req.Assembly.Offset,
			AssemblyLimit: req.Assembly.Limit, Direction: req.Direction, MaxInstructions: req.MaxInstructions}
		if req.Address != "" {
			a, err := nativewire.ParseAddr(req.Address)
			if err != nil {
				return nil, err
			}
			params.Address = &a
		}
		res, err := query.Run(op, params, fsys, nil)
		if err != nil {
			return nil, err
		}
		raw, _ := json.Marshal(res)
		var out map[string]any
		return out, json.Unmarshal(raw, &out)
	}
	// paged reads the offset and limit of one page of the result.
	paged := func(op, page string, base map[string]any) func(map[string]any) (map[string]any, error) {
		return func(p map[string]any) (map[string]any, error) {
			out, err := run(op, base, p)
			if err != nil {
				return nil, err
			}
			pg, _ := out[page].(map[string]any)
			return map[string]any{"offset": pg["offset"], "limit": pg["limit"]}, nil
		}
	}
	proc := map[string]any{"procedure": "main.main"}
	m := map[string]func(map[string]any) (map[string]any, error){
		"inspect_binary_layout":      paged(nativewire.OpLayout, "symbols", nil),
		"binary_overview":            paged(nativewire.OpOverview, "segments", nil),
		"list_procedures":            paged(nativewire.OpProcedures, "procedures", nil),
		"search_procedures":          paged(nativewire.OpProcedures, "procedures", map[string]any{"pattern": "main"}),
		"list_strings":               paged(nativewire.OpStrings, "strings", nil),
		"search_strings":             paged(nativewire.OpStrings, "strings", map[string]any{"pattern": "go"}),
		"list_names":                 paged(nativewire.OpNames, "names", nil),
		"read_function_instructions": paged(nativewire.OpInstructions, "instructions", proc),
		// procedure_assembly fills its own default in the app before the
		// module runs: ask the app.
		"procedure_assembly": func(p map[string]any) (map[string]any, error) {
			in := map[string]any{"input_path": filepath.Join(dir, "hello"), "procedure": "main.main"}
			maps.Copy(in, p)
			var req app.NativeRequest
			if err := remarshal(in, &req); err != nil {
				return nil, err
			}
			res, err := a.ProcedureAssembly(context.Background(), req, nil)
			if err != nil {
				return nil, err
			}
			return map[string]any{"offset": res.Result.Instructions.Offset, "limit": res.Result.Instructions.Limit}, nil
		},
		"procedure_callers": paged(nativewire.OpCallers, "calls", proc),
		"procedure_callees": paged(nativewire.OpCallees, "calls", proc),
		"xrefs":             paged(nativewire.OpXrefs, "references", map[string]any{"address": entry}),
		"procedure_references": func(p map[string]any) (map[string]any, error) {
			out, err := run(nativewire.OpReferences, proc, p)
			if err != nil {
				return nil, err
			}
			pg, _ := out["references"].(map[string]any)
			// The scan bound is not in the result: its default is the
			// library's.
			return map[string]any{"offset": pg["offset"], "limit": pg["limit"], "direction": out["direction"],
				"max_instructions": nativewire.DefaultMaxInstructions}, nil
		},
		"analyze_function": func(p map[string]any) (map[string]any, error) {
			out, err := run(nativewire.OpFunction, proc, p)
			if err != nil {
				return nil, err
			}
			asm, _ := out["assembly"].(map[string]any)
			blocks, _ := out["basic_blocks"].(map[string]any)
			return map[string]any{"assembly": map[string]any{"offset": asm["offset"], "limit": asm["limit"]}, "offset": blocks["offset"], "limit": blocks["limit"]}, nil
		},
		// The module reads 16 bytes without a length, and so does the app
		// (which records it).
		"read_bytes": func(p map[string]any) (map[string]any, error) {
			out, err := run(nativewire.OpReadBytes, map[string]any{"address": entry}, p)
			if err != nil {
				return nil, err
			}
			if _, given := p["length"]; !given && out["length"] != float64(app.DefaultReadLength) {
				t.Errorf("read_bytes: the module reads %v bytes by default, the app records %d", out["length"], app.DefaultReadLength)
			}
			return map[string]any{"length": out["length"]}, nil
		},
	}
	return m
}
