package main

import (
	"os"

	"github.com/spf13/cobra"

	"rea/host/evidence"
	"rea/modules/abi"
)

// readEvidenceFile reads and validates one Evidence record printed by a
// rea command with --format json.
func readEvidenceFile(path, field string) (evidence.Record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "%s: %v", field, err).WithDetail("field", field)
	}
	if len(b) > 64<<20 {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "%s: %s is larger than 64 MiB", field, path).WithDetail("field", field)
	}
	return evidence.Parse(b)
}

func (c *cli) compareProcessCapturesCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "compare-process-captures LEFT.json RIGHT.json",
		Short: "Compare two process captures (Evidence from capture-process) and locate the first divergence",
		Long: `Compare two captures made under the same comparison contract along the terminal,
interaction, exit, filesystem and process dimensions, and locate the first
divergence in journal order. Both files are Evidence records as printed by
'rea capture-process … --format json'. Prints the comparison as derived Evidence.`,
		Args: cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			left, err := readEvidenceFile(args[0], "left")
			if err != nil {
				return err
			}
			right, err := readEvidenceFile(args[1], "right")
			if err != nil {
				return err
			}
			a, err := c.application()
			if err != nil {
				return err
			}
			res, err := a.CompareProcessCaptures(c.ctx, left, right)
			if err != nil {
				return err
			}
			return c.printJSON(res.Evidence)
		},
	}
}
