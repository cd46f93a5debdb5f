package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"

	"rea/abi"
	"rea/host/app"
	"rea/host/evidence"
)

// writtenOutput is a writing command's --detail and --limit: complete
// (the CLI's default) prints the whole Evidence record; summary its
// summary view, as the MCP tools answer by default.
type writtenOutput struct {
	detail string
	limit  int
}

// check refuses a bad --detail or --limit before anything is written.
func (w *writtenOutput) check() error {
	d, l, err := app.CheckWrittenPage(w.detail, w.limit)
	w.detail, w.limit = d, l
	return err
}

// summarise is the summary record with --detail summary, nil otherwise.
func (w writtenOutput) summarise(rec evidence.Record, outputDir, inputPath string) (*evidence.Record, error) {
	if w.detail != app.DetailSummary {
		return nil, nil
	}
	view, err := app.WrittenSummary(rec, outputDir, inputPath, w.limit)
	return &view, err
}

// printWrittenSummary prints a summary view: the totals, where the files
// are, the first page and how to read on.
func printWrittenSummary(w io.Writer, view evidence.Record) error {
	var s struct {
		Operation    string         `json:"operation"`
		Totals       map[string]any `json:"totals"`
		OutputDir    string         `json:"output_dir"`
		ManifestPath string         `json:"manifest_path"`
		Collection   string         `json:"collection"`
		Page         struct {
			Total      int               `json:"total"`
			Offset     int               `json:"offset"`
			NextOffset *int              `json:"next_offset"`
			Items      []json.RawMessage `json:"items"`
		} `json:"page"`
		Limitations      []string `json:"limitations"`
		LimitationsTotal int      `json:"limitations_total"`
	}
	if err := json.Unmarshal(view.NormalizedResult, &s); err != nil {
		return abi.Errorf(abi.CodeInternal, "summary does not decode: %v", err)
	}
	fmt.Fprintf(w, "%s: %d %s\n", s.Operation, s.Page.Total, s.Collection)
	for _, k := range slices.Sorted(maps.Keys(s.Totals)) {
		b, _ := json.Marshal(s.Totals[k])
		fmt.Fprintf(w, "  %-24s %s\n", k, b)
	}
	for _, raw := range s.Page.Items {
		var it map[string]any
		_ = json.Unmarshal(raw, &it)
		name := ""
		for _, k := range []string{"key", "path", "source", "logical_path"} {
			if v, ok := it[k].(string); ok && name == "" {
				name = v
			}
		}
		file, _ := it["file"].(string)
		fmt.Fprintf(w, "  %-40s %s\n", name, file)
	}
	if s.Page.NextOffset != nil {
		where := "the complete Evidence (--detail complete --format json)"
		if s.ManifestPath != "" {
			where = s.ManifestPath
		}
		fmt.Fprintf(w, "… %d more %s from offset %d: all of them in %s\n", s.Page.Total-*s.Page.NextOffset, s.Collection, *s.Page.NextOffset, where)
	}
	for _, l := range s.Limitations {
		fmt.Fprintf(w, "note: %s\n", l)
	}
	if n := s.LimitationsTotal - len(s.Limitations); n > 0 {
		fmt.Fprintf(w, "note: %d more limitations in the complete Evidence\n", n)
	}
	fmt.Fprintf(w, "wrote to %s\nevidence %s (summary of %s)\n", s.OutputDir, view.EvidenceID, view.EvidenceLinks[0])
	return nil
}
