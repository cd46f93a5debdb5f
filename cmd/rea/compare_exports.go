package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	exports "rea/analysis/compare/exports/exportswire"
	"rea/host/app"
	"rea/host/evidence"
	"rea/host/operation"
)

func (c *cli) compareJavaScriptExportShapesCommand() *cobra.Command {
	var req app.CompareExportShapesRequest
	cmd := &cobra.Command{
		Long: `Abstract one export per side — a CommonJS member of module.exports/exports,
or default for module.exports itself — into an execution-free value
lattice (folded constants, object members, array items, a function's
parameters and direct returns, union variants paired by a unique literal
discriminant) and print the differences at JSON Pointer paths.

Each side is an Evidence file (rea analyze-javascript-application APP
--format json) or an application directory, analysed first. The module is
read from the analysed directory only while its bytes match the digest the
analysis recorded; anything the lattice cannot model is unknown, never
equal.`,
		Example: `  rea compare-javascript-export-shapes ./app-1.0 ./app-2.0 --module lib/settings.js --export defaults
  rea compare-javascript-export-shapes v1.json v2.json --module src/api.js --export default --right-module dist/api.js`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if req.Right.ModulePath == "" {
				req.Right.ModulePath = req.Left.ModulePath
			}
			if req.Right.ExportName == "" {
				req.Right.ExportName = req.Left.ExportName
			}
			return runCommand(c, func(*app.App) (evidence.Record, error) {
				a, left, right, err := c.applicationSides(args)
				if err != nil {
					return evidence.Record{}, err
				}
				return a.CompareJavaScriptExportShapes(c.ctx, left, right, req, c.progressPrinter("compare"))
			}, itself, c.printExportShapes)
		},
	}
	fromSpec(cmd, operation.CompareJavaScriptExportShapes(), targets{
		"left_module_path": &req.Left.ModulePath, "left_export_name": &req.Left.ExportName,
		"right_module_path": &req.Right.ModulePath, "right_export_name": &req.Right.ExportName,
		"limits.max_depth": &req.Limits.MaxDepth, "limits.max_properties": &req.Limits.MaxProperties, "limits.max_variants": &req.Limits.MaxVariants,
	})
	return cmd
}

func (c *cli) printExportShapes(rec evidence.Record) error {
	var r exports.Result
	if err := json.Unmarshal(rec.NormalizedResult, &r); err != nil {
		return abi.Errorf(abi.CodeInternal, "export shape comparison does not decode: %v", err)
	}
	w := c.stdout
	fmt.Fprintf(w, "compare-javascript-export-shapes %s#%s → %s#%s: %s\n", r.Left.ModulePath, r.Left.ExportName, r.Right.ModulePath, r.Right.ExportName, r.Status)
	fmt.Fprintf(w, "evidence %s\n", rec.EvidenceID)
	for _, s := range []exports.SideResult{r.Left, r.Right} {
		if s.Status != "resolved" {
			fmt.Fprintf(w, "%s %s#%s: %s — %s\n", s.EvidenceID, s.ModulePath, s.ExportName, s.Status, s.Reason)
			if len(s.Candidates) > 0 {
				fmt.Fprintf(w, "  candidates: %s\n", strings.Join(s.Candidates, ", "))
			}
		}
	}
	if len(r.Changes) > 0 {
		fmt.Fprintln(w)
	}
	mark := map[string]string{exports.ChangeAdded: "+", exports.ChangeRemoved: "-", exports.ChangeChanged: "~", exports.ChangeUnknown: "?"}
	for _, ch := range r.Changes {
		ptr := ch.Pointer
		if ptr == "" {
			ptr = "(the export)"
		}
		line := fmt.Sprintf("%s %s", mark[ch.Kind], ptr)
		switch ch.Kind {
		case exports.ChangeChanged:
			line += fmt.Sprintf("  %s → %s", renderShape(ch.Left), renderShape(ch.Right))
		case exports.ChangeAdded:
			line += "  " + renderShape(ch.Right)
		case exports.ChangeRemoved:
			line += "  " + renderShape(ch.Left)
		}
		if ch.Reason != "" && ch.Kind == exports.ChangeUnknown {
			line += "  — " + ch.Reason
		}
		fmt.Fprintln(w, line)
	}
	for _, s := range r.Recommendations {
		fmt.Fprintf(w, "next: %s\n", s)
	}
	return nil
}

func renderShape(s *exports.Shape) string {
	if s == nil {
		return "—"
	}
	switch {
	case s.HasConst:
		b, _ := json.Marshal(s.Const)
		return string(b)
	case s.Kind == exports.KindFunction:
		return fmt.Sprintf("function(%d params)", s.Params)
	}
	return s.Kind
}
