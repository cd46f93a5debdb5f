package app

import (
	"context"

	"rea/abi"
	"rea/analysis/native/nativewire"
	"rea/providers"
)

// Native services, one per tool. Each returns the tool's Evidence record
// and the typed result it holds; MCP and the CLI call the same methods.

// InspectBinaryLayout reports format, architecture, entry, sections,
// segments, a page of symbols (offset/limit), imports, exports, needed
// libraries, interpreter, relocations and static mitigations. It needs no
// deep provider.
func (a *App) InspectBinaryLayout(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Layout], error) {
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
	var out nativewire.Layout
	res, err := a.runNative(ctx, in, nativewire.OpLayout, params, &out, progress)
	if err != nil {
		return nil, err
	}
	if out.Image == nil {
		return nil, abi.Errorf(abi.CodeInternal, "the native module returned no layout")
	}
	t := nativewire.Target{Format: out.Format, Architecture: out.Architecture}
	rec, err := nativeEvidence("inspect_binary_layout", req, in, t, nil, res, out)
	if err != nil {
		return nil, err
	}
	return &NativeResult[nativewire.Layout]{Evidence: rec, Result: &out}, nil
}

// BinaryOverview counts procedures, strings, names, edges and references
// exhaustively and samples segments (limit default 10, ≤ 50).
func (a *App) BinaryOverview(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Overview], error) {
	return nativeTool(a, ctx, "binary_overview", nativewire.OpOverview, req, func(r *nativewire.Overview) nativewire.Target { return r.Target }, progress)
}

// ListProcedures pages procedures (limit default 100, ≤ 500).
func (a *App) ListProcedures(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Procedures], error) {
	req.Pattern, req.Mode = "", ""
	return nativeTool(a, ctx, "list_procedures", nativewire.OpProcedures, req, func(r *nativewire.Procedures) nativewire.Target { return r.Target }, progress)
}

// SearchProcedures pages procedures whose name matches pattern (literal
// by default, or mode regex; limit ≤ 100).
func (a *App) SearchProcedures(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Procedures], error) {
	if req.Pattern == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "search_procedures needs a pattern").WithDetail("field", "pattern")
	}
	return nativeTool(a, ctx, "search_procedures", nativewire.OpProcedures, req, func(r *nativewire.Procedures) nativewire.Target { return r.Target }, progress)
}

// ListStrings pages strings; with address, the string holding it.
func (a *App) ListStrings(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Strings], error) {
	req.Pattern, req.Mode = "", ""
	return nativeTool(a, ctx, "list_strings", nativewire.OpStrings, req, func(r *nativewire.Strings) nativewire.Target { return r.Target }, progress)
}

// SearchStrings pages strings whose value matches pattern.
func (a *App) SearchStrings(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Strings], error) {
	if req.Pattern == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "search_strings needs a pattern").WithDetail("field", "pattern")
	}
	return nativeTool(a, ctx, "search_strings", nativewire.OpStrings, req, func(r *nativewire.Strings) nativewire.Target { return r.Target }, progress)
}

// ListNames pages symbol and procedure names; with address, those at it.
func (a *App) ListNames(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Names], error) {
	return nativeTool(a, ctx, "list_names", nativewire.OpNames, req, func(r *nativewire.Names) nativewire.Target { return r.Target }, progress)
}

// ListSegments lists segments and sections with permissions.
func (a *App) ListSegments(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Segments], error) {
	return nativeTool(a, ctx, "list_segments", nativewire.OpSegments, req, func(r *nativewire.Segments) nativewire.Target { return r.Target }, progress)
}

// ReadFunctionInstructions pages one procedure's instructions (offset ≤
// 100,000; limit default 64, ≤ 500).
func (a *App) ReadFunctionInstructions(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Instructions], error) {
	return nativeTool(a, ctx, "read_function_instructions", nativewire.OpInstructions, req, func(r *nativewire.Instructions) nativewire.Target { return r.Target }, progress)
}

// ProcedureAssembly is read_function_instructions under the
// procedure_assembly name (one page; the CLI joins the text).
func (a *App) ProcedureAssembly(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Instructions], error) {
	if req.Limit == 0 {
		req.Limit = nativewire.MaxLimit
	}
	return nativeTool(a, ctx, "procedure_assembly", nativewire.OpInstructions, req, func(r *nativewire.Instructions) nativewire.Target { return r.Target }, progress)
}

// ProcedureCallers pages the direct call sites into a procedure.
func (a *App) ProcedureCallers(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Calls], error) {
	return nativeTool(a, ctx, "procedure_callers", nativewire.OpCallers, req, func(r *nativewire.Calls) nativewire.Target { return r.Target }, progress)
}

// ProcedureCallees pages the direct calls out of a procedure.
func (a *App) ProcedureCallees(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Calls], error) {
	return nativeTool(a, ctx, "procedure_callees", nativewire.OpCallees, req, func(r *nativewire.Calls) nativewire.Target { return r.Target }, progress)
}

// Xrefs pages references to an explicit address.
func (a *App) Xrefs(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Xrefs], error) {
	return nativeTool(a, ctx, "xrefs", nativewire.OpXrefs, req, func(r *nativewire.Xrefs) nativewire.Target { return r.Target }, progress)
}

// ResolveContainingProcedure maps an address to its procedure and says
// whether it is outside every section or inside one but in no procedure.
func (a *App) ResolveContainingProcedure(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Resolution], error) {
	return nativeTool(a, ctx, "resolve_containing_procedure", nativewire.OpResolve, req, func(r *nativewire.Resolution) nativewire.Target { return r.Target }, progress)
}

// AddressToFileOffset maps a virtual address to its original file offset;
// an unmapped address fails explicitly.
func (a *App) AddressToFileOffset(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.FileOffset], error) {
	return nativeTool(a, ctx, "address_to_file_offset", nativewire.OpFileOffset, req, func(r *nativewire.FileOffset) nativewire.Target { return r.Target }, progress)
}

// DefaultReadLength is read_bytes' length when none is given, as in the
// native module.
const DefaultReadLength = 16

// ReadBytes returns exactly length (≤ 4096) bytes at an address as hex.
func (a *App) ReadBytes(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Bytes], error) {
	if req.Length == 0 {
		// Filled here too, so that an omitted length and an explicit
		// default record the same parameters (and Evidence id).
		req.Length = DefaultReadLength
	}
	return nativeTool(a, ctx, "read_bytes", nativewire.OpReadBytes, req, func(r *nativewire.Bytes) nativewire.Target { return r.Target }, progress)
}

// AnalyzeFunction is the single-function dossier: assembly page, basic
// blocks, callers, callees, references, referenced strings and names, with
// exact totals, and pseudocode reported unavailable with the reason.
func (a *App) AnalyzeFunction(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Dossier], error) {
	return nativeTool(a, ctx, "analyze_function", nativewire.OpFunction, req, func(r *nativewire.Dossier) nativewire.Target { return r.Target }, progress)
}

// ProcedureReferences pages the raw reference edges out of a procedure
// (direction out, scanning at most max_instructions) or into its entry.
func (a *App) ProcedureReferences(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.References], error) {
	return nativeTool(a, ctx, "procedure_references", nativewire.OpReferences, req, func(r *nativewire.References) nativewire.Target { return r.Target }, progress)
}
