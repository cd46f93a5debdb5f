package mcpserver

import (
	"context"

	"rea/abi"
	"rea/host/app"
	"rea/host/operation"
)

// nativeDepthTools are the native depth tools, each its operation spec
// over one app service.
func (s *Server) nativeDepthTools() []*Tool {
	tool := func(sp operation.Spec, run func(context.Context, *Call, app.NativeRequest) (any, error)) *Tool {
		return &Tool{Spec: spec(sp), Modules: []string{"native"}, Run: func(ctx context.Context, c *Call) (any, error) {
			var req app.NativeRequest
			if err := c.Decode(&req); err != nil {
				return nil, err
			}
			req.Notes = app.LedgerNotes(c.Session.Ledger)
			return run(ctx, c, req)
		}}
	}
	wrap := func(f func(ctx context.Context, req app.NativeRequest, progress func(abi.Progress)) (any, error)) func(context.Context, *Call, app.NativeRequest) (any, error) {
		return func(ctx context.Context, c *Call, req app.NativeRequest) (any, error) { return f(ctx, req, c.Progress) }
	}
	return []*Tool{
		tool(operation.ListTypes(), wrap(run(s, (*app.App).ListTypes))),
		tool(operation.ReadType(), wrap(run(s, (*app.App).ReadType))),
		tool(operation.FindCodeForString(), wrap(run(s, (*app.App).FindCodeForString))),
		tool(operation.FindXrefsToName(), wrap(run(s, (*app.App).FindXrefsToName))),
		tool(operation.GetCallGraph(), wrap(run(s, (*app.App).GetCallGraph))),
		tool(operation.TraceCallPath(), wrap(run(s, (*app.App).TraceCallPath))),
		tool(operation.SearchBytes(), wrap(run(s, (*app.App).SearchBytes))),
		tool(operation.SearchConstant(), wrap(run(s, (*app.App).SearchConstant))),
		tool(operation.SearchInstructions(), wrap(run(s, (*app.App).SearchInstructions))),
		{Spec: spec(operation.DiffBinaries()), Modules: []string{"native"}, Run: func(ctx context.Context, c *Call) (any, error) {
			var req app.DiffBinariesRequest
			if err := c.Decode(&req); err != nil {
				return nil, err
			}
			res, err := s.app.DiffBinaries(ctx, req, c.Progress)
			if err != nil {
				return nil, err
			}
			return res.Evidence, nil
		}},
	}
}

// run calls one native service and answers its Evidence record.
func run[T any](s *Server, svc func(*app.App, context.Context, app.NativeRequest, func(abi.Progress)) (*app.NativeResult[T], error)) func(context.Context, app.NativeRequest, func(abi.Progress)) (any, error) {
	return func(ctx context.Context, req app.NativeRequest, progress func(abi.Progress)) (any, error) {
		res, err := svc(s.app, ctx, req, progress)
		if err != nil {
			return nil, err
		}
		return res.Evidence, nil
	}
}
