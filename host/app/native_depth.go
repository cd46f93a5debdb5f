package app

import (
	"context"

	"rea/abi"
	"rea/analysis/native/nativewire"
)

// Native depth services: debug-information types and navigation. Each is
// one module operation over the binary, sealed as Evidence like every
// native tool.

// DepthFields are the NativeRequest fields only the depth tools read, in
// their MCP parameter names.
type DepthFields struct {
	Query    string   `json:"query,omitempty"`
	Name     string   `json:"name,omitempty"`
	Type     string   `json:"type,omitempty"`
	Start    string   `json:"start,omitempty"`
	Goal     string   `json:"goal,omitempty"`
	Depth    int      `json:"depth,omitempty"`
	MaxDepth int      `json:"max_depth,omitempty"`
	MaxNodes int      `json:"max_nodes,omitempty"`
	Value    string   `json:"value,omitempty"`
	Sequence []string `json:"sequence,omitempty"`
}

// depthParams carries the depth fields into the module's parameters.
func depthParams(req NativeRequest, p *nativewire.Params) {
	d := req.DepthFields
	if d.Query != "" {
		p.Pattern = d.Query
	}
	p.Name, p.TypeName, p.To, p.Value, p.Sequence, p.MaxNodes = d.Name, d.Type, d.Goal, d.Value, d.Sequence, d.MaxNodes
	if d.Start != "" {
		p.Procedure = d.Start
	}
	p.Depth = d.Depth
	if d.MaxDepth != 0 {
		p.Depth = d.MaxDepth
	}
}

// checkDepth refuses a request the module would refuse, before the binary
// is opened, so a bad bound costs nothing.
func checkDepth(op string, req NativeRequest) error {
	p, err := queryParams(req)
	if err != nil {
		return err
	}
	if err := p.NormaliseDepth(op); err != nil {
		if ae, ok := err.(*abi.Error); ok && ae.Details["field"] == "depth" && op == nativewire.OpCallPath {
			ae.Details["field"] = "max_depth"
		}
		return err
	}
	return nil
}

// DepthOperation is the module operation of each depth tool.
var DepthOperation = map[string]string{
	"list_types": nativewire.OpTypes, "read_type": nativewire.OpType, "find_code_for_string": nativewire.OpCodeForString,
	"find_xrefs_to_name": nativewire.OpXrefsToName, "get_call_graph": nativewire.OpCallGraph, "trace_call_path": nativewire.OpCallPath,
	"search_bytes": nativewire.OpSearchBytes, "search_constant": nativewire.OpSearchConstant, "search_instructions": nativewire.OpSearchSequence,
}

// NormaliseDepthRequest is the module's parameters for a depth tool's
// request with its defaults filled, or the refusal the tool would answer.
func NormaliseDepthRequest(tool string, req NativeRequest) (nativewire.Params, error) {
	if tool == "get_call_graph" {
		req.Procedure, req.Address = req.Address, ""
	}
	p, err := queryParams(req)
	if err != nil {
		return p, err
	}
	return p, p.NormaliseDepth(DepthOperation[tool])
}

func depthTool[T any](a *App, ctx context.Context, tool, op string, req NativeRequest, target func(*T) nativewire.Target, progress func(abi.Progress)) (*NativeResult[T], error) {
	if err := checkDepth(op, req); err != nil {
		return nil, err
	}
	return nativeTool(a, ctx, tool, op, req, target, progress)
}

func required(v, field, tool string) error {
	if v == "" {
		return abi.Errorf(abi.CodeInvalidRequest, "%s needs %s", tool, field).WithDetail("field", field)
	}
	return nil
}

// ListTypes pages the DWARF named types (pattern optional).
func (a *App) ListTypes(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Types], error) {
	return depthTool(a, ctx, "list_types", nativewire.OpTypes, req, func(r *nativewire.Types) nativewire.Target { return r.Target }, progress)
}

// ReadType reads one DWARF type with its layout.
func (a *App) ReadType(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.TypeDetail], error) {
	if err := required(req.Type, "type", "read_type"); err != nil {
		return nil, err
	}
	return depthTool(a, ctx, "read_type", nativewire.OpType, req, func(r *nativewire.TypeDetail) nativewire.Target { return r.Target }, progress)
}

// FindCodeForString maps strings matching query to the code using them.
func (a *App) FindCodeForString(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.CodeForString], error) {
	if err := required(req.Query, "query", "find_code_for_string"); err != nil {
		return nil, err
	}
	return depthTool(a, ctx, "find_code_for_string", nativewire.OpCodeForString, req, func(r *nativewire.CodeForString) nativewire.Target { return r.Target }, progress)
}

// FindXrefsToName resolves an exact name and pages references to it.
func (a *App) FindXrefsToName(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.XrefsToName], error) {
	if err := required(req.Name, "name", "find_xrefs_to_name"); err != nil {
		return nil, err
	}
	return depthTool(a, ctx, "find_xrefs_to_name", nativewire.OpXrefsToName, req, func(r *nativewire.XrefsToName) nativewire.Target { return r.Target }, progress)
}

// GetCallGraph walks callees or callers of the procedure at address.
func (a *App) GetCallGraph(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.CallGraph], error) {
	if err := required(req.Address, "address", "get_call_graph"); err != nil {
		return nil, err
	}
	// address names a procedure (entry or unique name), not a raw address.
	req.Procedure, req.Address = req.Address, ""
	return depthTool(a, ctx, "get_call_graph", nativewire.OpCallGraph, req, func(r *nativewire.CallGraph) nativewire.Target { return r.Target }, progress)
}

// TraceCallPath finds the shortest direct-call chains from start to goal.
func (a *App) TraceCallPath(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.CallPath], error) {
	if err := required(req.Start, "start", "trace_call_path"); err != nil {
		return nil, err
	}
	if err := required(req.Goal, "goal", "trace_call_path"); err != nil {
		return nil, err
	}
	return depthTool(a, ctx, "trace_call_path", nativewire.OpCallPath, req, func(r *nativewire.CallPath) nativewire.Target { return r.Target }, progress)
}

// SearchBytes finds a hex pattern with ?? wildcards.
func (a *App) SearchBytes(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Search], error) {
	if _, _, err := nativewire.ParseBytePattern(req.Pattern); err != nil {
		return nil, err
	}
	return depthTool(a, ctx, "search_bytes", nativewire.OpSearchBytes, req, func(r *nativewire.Search) nativewire.Target { return r.Target }, progress)
}

// SearchConstant finds instructions with a constant operand.
func (a *App) SearchConstant(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Search], error) {
	if err := required(req.Value, "value", "search_constant"); err != nil {
		return nil, err
	}
	return depthTool(a, ctx, "search_constant", nativewire.OpSearchConstant, req, func(r *nativewire.Search) nativewire.Target { return r.Target }, progress)
}

// SearchInstructions finds a sequence of consecutive instructions.
func (a *App) SearchInstructions(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.Search], error) {
	if len(req.Sequence) == 0 {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "search_instructions needs a sequence").WithDetail("field", "sequence")
	}
	return depthTool(a, ctx, "search_instructions", nativewire.OpSearchSequence, req, func(r *nativewire.Search) nativewire.Target { return r.Target }, progress)
}
