package mcpserver

import (
	"os"
	"path/filepath"
	"strconv"

	"rea/abi"
)

// maxInlineReportBytes is the largest HTML page render_application_report
// returns inline: the page travels twice (text and structuredContent), so
// this keeps the response under 256 KiB (issue 21 point 6). A bigger page
// goes to a fresh temporary file the response names.
const maxInlineReportBytes = 120 << 10

// reportDelivery returns the report result with the page inline, or
// written to a new private file when it is too big to send.
func reportDelivery(out map[string]any, page []byte) (any, error) {
	if len(page) <= maxInlineReportBytes {
		return out, nil
	}
	dir, err := os.MkdirTemp("", "rea-report-")
	if err != nil {
		return nil, abi.Errorf(abi.CodeInternal, "render_application_report: no temporary directory for a %d-byte page: %v", len(page), err)
	}
	path := filepath.Join(dir, "report.html")
	if err := os.WriteFile(path, page, 0o600); err != nil {
		_ = os.RemoveAll(dir)
		return nil, abi.Errorf(abi.CodeInternal, "render_application_report: writing %s: %v", path, err)
	}
	out["html"], out["path"] = nil, path
	return &Extra{Result: out, Note: "The page is " + strconv.Itoa(len(page)) + " bytes, over the inline bound; it was written to " + path + " (open it in a browser).",
		Meta: map[string]any{"rea/output_path": path}}, nil
}
