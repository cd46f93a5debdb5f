package app

import (
	"context"

	"rea/abi"
	"rea/analysis/native/query"
	"rea/providers"
)

// Native services, one per tool. Each returns the tool's Evidence record
// and the typed result it holds; MCP and the CLI call the same methods.

// InspectBinaryLayout reports format, architecture, entry, sections,
// segments, a page of symbols (offset/limit), imports, exports, needed
// libraries, interpreter, relocations and static mitigations. It needs no
// deep provider.
func (a *App) InspectBinaryLayout(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Layout], error) {
	if err := providers.ValidateEnvironment(nil); err != nil {
		return nil, err
	}
	params, err := queryParams(req)
	if err != nil {
		return nil, err
	}
	in, err := openNative(req.InputPath)
	if err != nil {
		return nil, err
	}
	defer in.f.Close()
	var out query.Layout
	res, err := a.runNative(ctx, in, query.OpLayout, params, &out, progress)
	if err != nil {
		return nil, err
	}
	if out.File == nil {
		return nil, abi.Errorf(abi.CodeInternal, "the native module returned no layout")
	}
	t := query.Target{Format: out.Format, Architecture: out.Architecture}
	rec, err := nativeEvidence("inspect_binary_layout", req, in, t, nil, res, out)
	if err != nil {
		return nil, err
	}
	return &NativeResult[query.Layout]{Evidence: rec, Result: &out}, nil
}

// BinaryOverview counts procedures, strings, names, edges and references
// exhaustively and samples segments (limit default 10, ≤ 50).
func (a *App) BinaryOverview(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Overview], error) {
	return nativeTool(a, ctx, "binary_overview", query.OpOverview, req, func(r *query.Overview) query.Target { return r.Target }, progress)
}

// ListProcedures pages procedures (limit default 100, ≤ 500).
func (a *App) ListProcedures(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Procedures], error) {
	req.Pattern, req.Mode = "", ""
	return nativeTool(a, ctx, "list_procedures", query.OpProcedures, req, func(r *query.Procedures) query.Target { return r.Target }, progress)
}

// SearchProcedures pages procedures whose name matches pattern (literal
// by default, or mode regex; limit ≤ 100).
func (a *App) SearchProcedures(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Procedures], error) {
	if req.Pattern == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "search_procedures needs a pattern").WithDetail("field", "pattern")
	}
	return nativeTool(a, ctx, "search_procedures", query.OpProcedures, req, func(r *query.Procedures) query.Target { return r.Target }, progress)
}

// ListStrings pages strings; with address, the string holding it.
func (a *App) ListStrings(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Strings], error) {
	req.Pattern, req.Mode = "", ""
	return nativeTool(a, ctx, "list_strings", query.OpStrings, req, func(r *query.Strings) query.Target { return r.Target }, progress)
}

// SearchStrings pages strings whose value matches pattern.
func (a *App) SearchStrings(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Strings], error) {
	if req.Pattern == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "search_strings needs a pattern").WithDetail("field", "pattern")
	}
	return nativeTool(a, ctx, "search_strings", query.OpStrings, req, func(r *query.Strings) query.Target { return r.Target }, progress)
}

// ListNames pages symbol and procedure names; with address, those at it.
func (a *App) ListNames(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Names], error) {
	return nativeTool(a, ctx, "list_names", query.OpNames, req, func(r *query.Names) query.Target { return r.Target }, progress)
}

// ListSegments lists segments and sections with permissions.
func (a *App) ListSegments(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Segments], error) {
	return nativeTool(a, ctx, "list_segments", query.OpSegments, req, func(r *query.Segments) query.Target { return r.Target }, progress)
}

// ReadFunctionInstructions pages one procedure's instructions (offset ≤
// 100,000; limit default 64, ≤ 500).
func (a *App) ReadFunctionInstructions(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Instructions], error) {
	return nativeTool(a, ctx, "read_function_instructions", query.OpInstructions, req, func(r *query.Instructions) query.Target { return r.Target }, progress)
}

// ProcedureAssembly is read_function_instructions under the
// procedure_assembly name (one page; the CLI joins the text).
func (a *App) ProcedureAssembly(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Instructions], error) {
	if req.Limit == 0 {
		req.Limit = query.MaxLimit
	}
	return nativeTool(a, ctx, "procedure_assembly", query.OpInstructions, req, func(r *query.Instructions) query.Target { return r.Target }, progress)
}

// ProcedureCallers pages the direct call sites into a procedure.
func (a *App) ProcedureCallers(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Calls], error) {
	return nativeTool(a, ctx, "procedure_callers", query.OpCallers, req, func(r *query.Calls) query.Target { return r.Target }, progress)
}

// ProcedureCallees pages the direct calls out of a procedure.
func (a *App) ProcedureCallees(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Calls], error) {
	return nativeTool(a, ctx, "procedure_callees", query.OpCallees, req, func(r *query.Calls) query.Target { return r.Target }, progress)
}

// Xrefs pages references to an explicit address.
func (a *App) Xrefs(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Xrefs], error) {
	return nativeTool(a, ctx, "xrefs", query.OpXrefs, req, func(r *query.Xrefs) query.Target { return r.Target }, progress)
}

// ResolveContainingProcedure maps an address to its procedure and says
// whether it is outside every section or inside one but in no procedure.
func (a *App) ResolveContainingProcedure(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Resolution], error) {
	return nativeTool(a, ctx, "resolve_containing_procedure", query.OpResolve, req, func(r *query.Resolution) query.Target { return r.Target }, progress)
}

// AddressToFileOffset maps a virtual address to its original file offset;
// an unmapped address fails explicitly.
func (a *App) AddressToFileOffset(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.FileOffset], error) {
	return nativeTool(a, ctx, "address_to_file_offset", query.OpFileOffset, req, func(r *query.FileOffset) query.Target { return r.Target }, progress)
}

// ReadBytes returns exactly length (≤ 4096) bytes at an address as hex.
func (a *App) ReadBytes(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Bytes], error) {
	return nativeTool(a, ctx, "read_bytes", query.OpReadBytes, req, func(r *query.Bytes) query.Target { return r.Target }, progress)
}

// AnalyzeFunction is the single-function dossier: assembly page, basic
// blocks, callers, callees, references, referenced strings and names, with
// exact totals, and pseudocode reported unavailable with the reason.
func (a *App) AnalyzeFunction(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.Dossier], error) {
	return nativeTool(a, ctx, "analyze_function", query.OpFunction, req, func(r *query.Dossier) query.Target { return r.Target }, progress)
}

// ProcedureReferences pages the raw reference edges out of a procedure
// (direction out, scanning at most max_instructions) or into its entry.
func (a *App) ProcedureReferences(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[query.References], error) {
	return nativeTool(a, ctx, "procedure_references", query.OpReferences, req, func(r *query.References) query.Target { return r.Target }, progress)
}
