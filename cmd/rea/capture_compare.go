package main

import (
	"bytes"
	"encoding/json"
	"os"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/host/evidence"
	"rea/host/operation"
)

// readEvidenceRecords reads Evidence records printed by a rea command with
// --format json: a file holding one record or a JSON array of them. Every
// record is re-validated (a tampered id is refused) and failures name the
// argument (field) and the file.
func readEvidenceRecords(path, field string) ([]evidence.Record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%s: cannot read %q: %v", field, path, err).WithDetail("field", field)
	}
	if len(b) > 64<<20 {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%s: %s is larger than 64 MiB", field, path).WithDetail("field", field)
	}
	var raws []json.RawMessage
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		if err := json.Unmarshal(t, &raws); err != nil {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "%s (%s): not a JSON array of Evidence records: %v", field, path, err).WithDetail("field", field)
		}
	} else {
		raws = []json.RawMessage{b}
	}
	out := make([]evidence.Record, 0, len(raws))
	for _, raw := range raws {
		rec, err := evidence.Parse(raw)
		if err != nil {
			if ae, ok := err.(*abi.Error); ok {
				ae.Message = field + " (" + path + "): " + ae.Message
				return nil, ae.WithDetail("field", field)
			}
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// readEvidenceFile reads exactly one Evidence record (see readEvidenceRecords).
func readEvidenceFile(path, field string) (evidence.Record, error) {
	recs, err := readEvidenceRecords(path, field)
	if err != nil {
		return evidence.Record{}, err
	}
	if len(recs) != 1 {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "%s: %s holds %d records; pass one", field, path, len(recs)).WithDetail("field", field)
	}
	return recs[0], nil
}

func (c *cli) compareProcessCapturesCommand() *cobra.Command {
	return fromSpec(&cobra.Command{
		Long: `Compare two captures made under the same comparison contract along the terminal,
interaction, exit, filesystem and process dimensions, and locate the first
divergence in journal order. Both files are Evidence records as printed by
'rea capture-process … --format json'. Prints the comparison as derived Evidence.`,
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
	}, operation.CompareProcessCaptures(), nil)
}
