package mcpserver

import (
	"context"

	"rea/host/app"
	"rea/host/operation"
)

// reconstructTools check a reconstruction against what was observed, claim
// by claim, and never turn missing Evidence into equivalence.
func (s *Server) reconstructTools() []*Tool {
	return []*Tool{
		{
			Spec: spec(operation.BuildReconstructionObligationLedger()),
			Run: func(ctx context.Context, c *Call) (any, error) {
				// The module's request still spells page{offset, limit} and
				// bare ids (the seed's obligation format).
				raw, err := operation.LowerJSON(operation.BuildReconstructionObligationLedger().Aliases, c.Arguments)
				if err != nil {
					return nil, err
				}
				var in app.ObligationLedgerRequest
				if err := (&Call{Arguments: raw}).Decode(&in); err != nil {
					return nil, err
				}
				return s.app.BuildObligationLedger(ctx, in, c.Session.Ledger, c.Progress)
			},
		},
		{
			Spec: spec(operation.VerifyReconstruction()),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in app.VerifyReconstructionRequest
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				return s.app.VerifyReconstruction(ctx, in, c.Session.Ledger, c.Progress)
			},
		},
		{
			Spec: spec(operation.EvaluateReconstructionCoverage()),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in app.EvaluateCoverageRequest
				if err := c.lowered(operation.EvaluateReconstructionCoverage()).Decode(&in); err != nil {
					return nil, err
				}
				rec, err := s.app.EvaluateReconstructionCoverage(ctx, in, c.Progress)
				return rec, raised(operation.EvaluateReconstructionCoverage(), err)
			},
		},
	}
}
