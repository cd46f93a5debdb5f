package mcpserver

import (
	"context"
	"fmt"

	"rea/abi"
	"rea/host/app"
	"rea/host/evidence"
	"rea/host/operation"
)

// sourceTools read an application's code: pages at the locations the
// analysis reports, text search, bundle unpacking and source-map sources.
func (s *Server) sourceTools() []*Tool {
	written := func(ctx context.Context, c *Call, page writtenPage, inputPath string, res *app.WrittenResult) (any, error) {
		return writtenAnswer(ctx, c, page, inputPath, res.Evidence, res.OutputDir, fmt.Sprintf("output_dir: %s (%d files)", res.OutputDir, res.Files))
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
				page, err := decodeWrittenPage(c)
				if err != nil {
					return nil, err
				}
				req.OutputDir = "" // rea chooses a fresh directory
				res, err := s.app.UnpackJavaScriptBundle(ctx, req, c.Progress)
				if err != nil {
					return nil, err
				}
				return written(ctx, c, page, req.InputPath, res)
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
				page, err := decodeWrittenPage(c)
				if err != nil {
					return nil, err
				}
				req.OutputDir = ""
				res, err := s.app.ExtractSourceMapSources(ctx, req, c.Progress)
				if err != nil {
					return nil, err
				}
				return written(ctx, c, page, req.InputPath, res)
			},
		},
	}
}

// writtenPage is what a writing tool answers: detail and the summary's
// page size.
type writtenPage struct {
	Detail string `json:"detail"`
	Limit  int    `json:"limit"`
}

// decodeWrittenPage reads and checks detail and limit before the tool
// writes anything.
func decodeWrittenPage(c *Call) (writtenPage, error) {
	var p writtenPage
	if err := c.Decode(&p); err != nil {
		return p, err
	}
	var err error
	p.Detail, p.Limit, err = app.CheckWrittenPage(p.Detail, p.Limit)
	return p, err
}

// writtenAnswer is a writing tool's answer: the complete Evidence with
// detail complete; by default the complete Evidence retained in the
// session and its summary (counts, output directory, first page, next
// calls) returned, linked by parent_evidence_id. The output directory is
// in _meta and the text note either way.
func writtenAnswer(ctx context.Context, c *Call, page writtenPage, inputPath string, rec evidence.Record, outputDir, note string) (any, error) {
	meta := map[string]any{"rea/output_dir": outputDir}
	if page.Detail == app.DetailComplete {
		return &Extra{Result: rec, Note: note, Meta: meta}, nil
	}
	if ctx.Err() != nil {
		return nil, abi.Errorf(abi.CodeCancelled, "cancelled; nothing was recorded (the files are in %s)", outputDir)
	}
	if c.Session == nil || c.Session.Ledger == nil {
		return nil, abi.Errorf(abi.CodeCapabilityUnavailable, "the summary needs session retention, which this server lacks; ask for detail: \"complete\"").WithDetail("field", "detail")
	}
	if _, err := c.Session.Ledger.Add(rec); err != nil {
		return nil, err
	}
	view, err := app.WrittenSummary(rec, outputDir, inputPath, page.Limit)
	if err != nil {
		return nil, err
	}
	return &Extra{Result: view, Note: note, Meta: meta}, nil
}
