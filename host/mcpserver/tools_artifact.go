package mcpserver

import (
	"context"

	"rea/host/app"
	"rea/host/operation"
)

// inventoryLimitProps bound what a container may declare, as the artifact
// operations declare them; analyze_javascript_application shares them.
func inventoryLimitProps() map[string]Schema {
	props, _ := paramSchemas(operation.InventoryLimits())
	return props
}

func (s *Server) artifactTools() []*Tool {
	return []*Tool{
		{
			Spec:    spec(operation.InspectArtifact()),
			Modules: []string{"artifact"},
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req app.InspectArtifactRequest
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				res, err := s.app.InspectArtifact(ctx, req, c.Progress)
				if err != nil {
					return nil, err
				}
				return res.Evidence, nil
			},
		},
		{
			Spec:    spec(operation.ExtractArtifact()),
			Modules: []string{"artifact"},
			Run: func(ctx context.Context, c *Call) (any, error) {
				var req app.ExtractArtifactRequest
				if err := c.Decode(&req); err != nil {
					return nil, err
				}
				page, err := decodeWrittenPage(c)
				if err != nil {
					return nil, err
				}
				req.OutputDir = "" // rea chooses a fresh directory
				res, err := s.app.ExtractArtifact(ctx, req, c.Progress)
				if err != nil {
					return nil, err
				}
				return writtenAnswer(ctx, c, page, req.InputPath, res.Evidence, res.OutputDir, "output_dir: "+res.OutputDir)
			},
		},
	}
}
