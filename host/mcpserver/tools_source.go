package mcpserver

import (
	"context"
	"fmt"

	"rea/host/app"
	"rea/host/operation"
)

// sourceTools read an application's code: pages at the locations the
// analysis reports, text search, bundle unpacking and source-map sources.
func (s *Server) sourceTools() []*Tool {
	written := func(res *app.WrittenResult) any {
		return &Extra{Result: res.Evidence, Note: fmt.Sprintf("output_dir: %s (%d files)", res.OutputDir, res.Files), Meta: map[string]any{"rea/output_dir": res.OutputDir}}
	}
	return []*Tool{
		{
			Spec:    spec(operation.ReadJavaScriptSource()),
			Modules: []string{"artifact", "source"},
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req app.ReadSourceRequest
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				return s.app.ReadJavaScriptSource(ctx, req, c.Progress)
			},
		},
		{
			Spec:    spec(operation.SearchApplicationText()),
			Modules: []string{"artifact", "source"},
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req app.SearchTextRequest
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				return s.app.SearchApplicationText(ctx, req, c.Progress)
			},
		},
		{
			Spec:    spec(operation.UnpackJavaScriptBundle()),
			Modules: []string{"artifact", "source"},
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req app.UnpackBundleRequest
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				req.OutputDir = "" // rea chooses a fresh directory
				res, err := s.app.UnpackJavaScriptBundle(ctx, req, c.Progress)
				if err != nil {
					return nil, err
				}
				return written(res), nil
			},
		},
		{
			Spec:    spec(operation.ExtractSourceMapSources()),
			Modules: []string{"artifact", "source"},
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req app.ExtractSourcesRequest
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				req.OutputDir = ""
				res, err := s.app.ExtractSourceMapSources(ctx, req, c.Progress)
				if err != nil {
					return nil, err
				}
				return written(res), nil
			},
		},
	}
}
