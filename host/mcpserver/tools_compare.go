package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"

	"rea/abi"
	exports "rea/analysis/compare/exports/exportswire"
	"rea/analysis/compare/graph"
	"rea/host/app"
	"rea/host/evidence"
	"rea/host/operation"
)

// compareTools are the pure application workflows over retained or inline
// application Evidence: feature tracing and version comparison.
func (s *Server) compareTools() []*Tool {
	return []*Tool{
		{
			Spec: spec(operation.TraceApplicationFeature()),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Application json.RawMessage   `json:"application"`
					Seed        *graph.Seed       `json:"seed"`
					Seeds       []graph.Seed      `json:"seeds"`
					Direction   string            `json:"direction"`
					Limits      graph.TraceLimits `json:"limits"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				seeds := in.Seeds
				if in.Seed != nil {
					seeds = append([]graph.Seed{*in.Seed}, seeds...)
				}
				if len(seeds) == 0 {
					return nil, abi.Errorf(abi.CodeInvalidRequest, "give a seed {kind, value} (or seeds) to start the trace from").WithDetail("field", "seed")
				}
				src, err := c.Resolve(in.Application, "application")
				if err != nil {
					return nil, err
				}
				return s.app.TraceApplicationFeature(ctx, src, app.TraceFeatureRequest{Seeds: seeds, Direction: in.Direction, Limits: in.Limits}, c.Progress)
			},
		},
		{
			Spec: spec(operation.CompareApplicationVersions()),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Left             json.RawMessage     `json:"left"`
					Right            json.RawMessage     `json:"right"`
					Limits           graph.CompareLimits `json:"limits"`
					IncludeUnchanged bool                `json:"include_unchanged"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				left, right, err := c.Sides(in.Left, in.Right)
				if err != nil {
					return nil, err
				}
				return s.app.CompareApplicationVersions(ctx, left, right, app.CompareVersionsRequest{Limits: in.Limits, IncludeUnchanged: in.IncludeUnchanged}, c.Progress)
			},
		},
		{
			Spec: spec(operation.CompareArtifacts()),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Left             json.RawMessage `json:"left"`
					Right            json.RawMessage `json:"right"`
					Offset           int             `json:"offset"`
					Limit            int             `json:"limit"`
					IncludeUnchanged bool            `json:"include_unchanged"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				resolve := func(raw json.RawMessage, field string) ([]evidence.Record, error) {
					var list []json.RawMessage
					if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
						if err := json.Unmarshal(t, &list); err != nil {
							return nil, withField(abi.Errorf(abi.CodeInvalidRequest, "%s: %v", field, err), field)
						}
					} else {
						list = []json.RawMessage{raw}
					}
					return c.ResolveAll(list, field)
				}
				left, err := resolve(in.Left, "left")
				if err != nil {
					return nil, err
				}
				right, err := resolve(in.Right, "right")
				if err != nil {
					return nil, err
				}
				return s.app.CompareArtifacts(ctx, left, right, app.CompareArtifactsRequest{Offset: in.Offset, Limit: in.Limit, IncludeUnchanged: in.IncludeUnchanged}, c.Progress)
			},
		},
		{
			Spec: spec(operation.ImportReferenceSource()),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req app.ImportReferenceSourceRequest
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				if req.Format == "auto" {
					req.Format = ""
				}
				return s.app.ImportReferenceSource(ctx, req, c.Progress)
			},
		},
		{
			Spec: spec(operation.CompareSourceToBundle()),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Reference     json.RawMessage `json:"reference"`
					Application   json.RawMessage `json:"application"`
					MaxCandidates int             `json:"max_candidates"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				ref, err := c.Resolve(in.Reference, "reference")
				if err != nil {
					return nil, err
				}
				application, err := c.Resolve(in.Application, "application")
				if err != nil {
					return nil, err
				}
				return s.app.CompareSourceToBundle(ctx, ref, application, app.CompareSourceRequest{MaxCandidates: in.MaxCandidates}, c.Progress)
			},
		},
		{
			Spec: spec(operation.CompareJavaScriptExportShapes()),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Left            json.RawMessage `json:"left"`
					Right           json.RawMessage `json:"right"`
					LeftModulePath  string          `json:"left_module_path"`
					LeftExportName  string          `json:"left_export_name"`
					RightModulePath string          `json:"right_module_path"`
					RightExportName string          `json:"right_export_name"`
					Limits          exports.Limits  `json:"limits"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				if in.RightModulePath == "" {
					in.RightModulePath = in.LeftModulePath
				}
				if in.RightExportName == "" {
					in.RightExportName = in.LeftExportName
				}
				left, right, err := c.Sides(in.Left, in.Right)
				if err != nil {
					return nil, err
				}
				return s.app.CompareJavaScriptExportShapes(ctx, left, right, app.CompareExportShapesRequest{
					Left:   app.ExportSelector{ModulePath: in.LeftModulePath, ExportName: in.LeftExportName},
					Right:  app.ExportSelector{ModulePath: in.RightModulePath, ExportName: in.RightExportName},
					Limits: in.Limits,
				}, c.Progress)
			},
		},
	}
}
