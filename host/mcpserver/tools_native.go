package mcpserver

import (
	"context"
	"encoding/json"

	"rea/abi"
	"rea/host/app"
	"rea/host/operation"
)

// nativeTool serves one native operation spec over its app service.
func nativeTool[T any](s *Server, sp operation.Spec, run func(*app.App, context.Context, app.NativeRequest, func(abi.Progress)) (*app.NativeResult[T], error)) *Tool {
	return &Tool{
		Spec: spec(sp), Modules: []string{"native"},
		Run: func(ctx context.Context, c *Call) (any, error) {
			var req app.NativeRequest
			if err := c.Decode(&req); err != nil {
				return nil, err
			}
			req.Notes = app.LedgerNotes(c.Session.Ledger)
			res, err := run(s.app, ctx, req, c.Progress)
			if err != nil {
				return nil, err
			}
			return res.Evidence, nil
		},
	}
}

func (s *Server) nativeTools() []*Tool {
	return append([]*Tool{
		withSummaryDetail(nativeTool(s, operation.InspectBinaryLayout(), (*app.App).InspectBinaryLayout), "inspect_binary_layout"),
		nativeTool(s, operation.BinaryOverview(), (*app.App).BinaryOverview),
		nativeTool(s, operation.ListProcedures(), (*app.App).ListProcedures),
		nativeTool(s, operation.SearchProcedures(), (*app.App).SearchProcedures),
		nativeTool(s, operation.ListStrings(), (*app.App).ListStrings),
		nativeTool(s, operation.SearchStrings(), (*app.App).SearchStrings),
		nativeTool(s, operation.ListNames(), (*app.App).ListNames),
		nativeTool(s, operation.ListSegments(), (*app.App).ListSegments),
		nativeTool(s, operation.ReadFunctionInstructions(), (*app.App).ReadFunctionInstructions),
		nativeTool(s, operation.ProcedureAssembly(), (*app.App).ProcedureAssembly),
		nativeTool(s, operation.ProcedureCallers(), (*app.App).ProcedureCallers),
		nativeTool(s, operation.ProcedureCallees(), (*app.App).ProcedureCallees),
		nativeTool(s, operation.Xrefs(), (*app.App).Xrefs),
		nativeTool(s, operation.ResolveContainingProcedure(), (*app.App).ResolveContainingProcedure),
		nativeTool(s, operation.AddressToFileOffset(), (*app.App).AddressToFileOffset),
		nativeTool(s, operation.ReadBytes(), (*app.App).ReadBytes),
		nativeTool(s, operation.ProcedureReferences(), (*app.App).ProcedureReferences),
		nativeTool(s, operation.AnalyzeFunction(), (*app.App).AnalyzeFunction),
		s.compareFunctionsTool(),
	}, s.nativeDepthTools()...)
}

// compareFunctionsTool compares two sets of analyze_function Evidence.
func (s *Server) compareFunctionsTool() *Tool {
	return &Tool{
		Spec: spec(operation.CompareFunctions()),
		Run: func(ctx context.Context, c *Call) (any, error) {
			var in struct {
				Left   []json.RawMessage `json:"left"`
				Right  []json.RawMessage `json:"right"`
				Offset int               `json:"offset"`
				Limit  int               `json:"limit"`
			}
			if err := c.Decode(&in); err != nil {
				return nil, err
			}
			left, err := c.ResolveAll(in.Left, "left")
			if err != nil {
				return nil, err
			}
			right, err := c.ResolveAll(in.Right, "right")
			if err != nil {
				return nil, err
			}
			req := app.CompareFunctionsRequest{Left: left, Right: right, Offset: in.Offset, Limit: in.Limit}
			if ctx.Err() != nil {
				return nil, abi.Errorf(abi.CodeCancelled, "cancelled before the comparison; nothing was recorded")
			}
			res, err := s.app.CompareFunctions(req)
			if err != nil {
				return nil, err
			}
			return res.Evidence, nil
		},
	}
}
