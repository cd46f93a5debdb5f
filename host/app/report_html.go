package app

import (
	"encoding/json"
	"io"

	"rea/abi"
	"rea/host/evidence"
	"rea/host/htmlreport"
)

// RenderApplicationReport writes analyze_javascript_application Evidence as
// one self-contained HTML page (host/htmlreport): the same Evidence always
// gives the same bytes.
func (a *App) RenderApplicationReport(src evidence.Record, w io.Writer) error {
	if src.Operation != "analyze_javascript_application" {
		return abi.Errorf(abi.CodeCapabilityUnavailable,
			"render_application_report draws analyze_javascript_application Evidence; %s is %s — analyse the application first", src.EvidenceID, src.Operation).
			WithDetail("field", "application")
	}
	var an ApplicationAnalysis
	if err := json.Unmarshal(src.NormalizedResult, &an); err != nil {
		return abi.Errorf(abi.CodeInvalidRequest, "application Evidence %s does not hold an application analysis: %v", src.EvidenceID, err).WithDetail("field", "application")
	}
	return RenderAnalysisHTML(w, src.EvidenceID, &an)
}

// RenderAnalysisHTML writes one analysis as an HTML page.
func RenderAnalysisHTML(w io.Writer, evidenceID string, an *ApplicationAnalysis) error {
	r := &an.Application
	title, electron := "", ""
	if r.Package != nil {
		title = r.Package.Name
		if r.Package.Version != "" {
			title += " " + r.Package.Version
		}
		electron = r.Package.ElectronVersion
	}
	if title == "" {
		title = an.ApplicationRoot
	}
	err := htmlreport.Render(w, htmlreport.Input{
		Title: title, EvidenceID: evidenceID, Format: an.Format, ApplicationRoot: an.ApplicationRoot,
		ElectronVersion: electron, Coverage: an.Coverage, Limitations: an.Limitations,
		Contradictions: len(an.IntegrityContradictions), Result: r,
	})
	if err != nil {
		return abi.Errorf(abi.CodeInternal, "render the HTML report: %v", err)
	}
	return nil
}
