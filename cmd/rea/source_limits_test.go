package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSourceToolsReadAnAppOverTenThousandEntries: an application with more
// files than the inventory's default max_entries (10,000) is refused with a
// resource_constraint naming max_entries, and read and searched once the
// caller raises it; a limit of the source module that cuts a search makes
// it partial with a limitation naming the parameter to raise.
func TestSourceToolsReadAnAppOverTenThousandEntries(t *testing.T) {
	app := t.TempDir()
	for d := 0; d < 102; d++ {
		dir := filepath.Join(app, fmt.Sprintf("d%03d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := 0; f < 100; f++ {
			body := fmt.Sprintf("module.exports = %d\n", d*100+f)
			if d == 101 && f == 99 {
				body = "const { ipcMain } = require('electron')\nipcMain.handle('needle-10199', () => 1)\n"
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.js", f)), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	big := strings.Repeat("// padding\n", 200) + "const needle = 'needle-big'\n"
	if err := os.WriteFile(filepath.Join(app, "big.js"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}

	r := reaWithModules(t, "read-javascript-source", app, "--path", "d101/f99.js", "--format", "json")
	var e typedError
	decode(t, r.stdout, &e)
	if r.code == 0 || e.Error.Code != "resource_constraint" || e.Error.Details["limit"] != "max_entries" || !strings.Contains(e.Error.Message, "raise max_entries") {
		t.Fatalf("read at the default max_entries: exit %d, %+v", r.code, e.Error)
	}

	r = reaWithModules(t, "read-javascript-source", app, "--path", "d101/f99.js", "--line", "2", "--max-entries", "20000", "--format", "json")
	if r.code != 0 {
		t.Fatalf("read with max_entries raised: exit %d: %s %s", r.code, r.stderr, r.stdout)
	}
	var page sourcePage
	decode(t, r.stdout, &page)
	res := page.NormalizedResult.Result
	if res.Path != "d101/f99.js" || res.FocusLine != 2 || len(res.Lines) < res.FocusLine-res.Offset ||
		!strings.Contains(res.Lines[res.FocusLine-1-res.Offset].Text, "needle-10199") {
		t.Fatalf("read with max_entries raised: %+v", res)
	}

	type hits struct {
		NormalizedResult struct {
			Result struct {
				FilesScanned int    `json:"files_scanned"`
				TotalHits    int    `json:"total_hits"`
				Coverage     string `json:"coverage"`
				Hits         []struct {
					Path string `json:"path"`
				} `json:"hits"`
				Skipped []struct {
					Path   string `json:"path"`
					Reason string `json:"reason"`
				} `json:"skipped"`
				Limitations []string `json:"limitations"`
			} `json:"result"`
		} `json:"normalized_result"`
		Parameters map[string]any `json:"parameters"`
	}
	// Every file of the 10,201 but big.js, which is over max_file_bytes:
	// listed as skipped, coverage partial, and the limitation names the
	// parameter to raise.
	r = reaWithModules(t, "search-application-text", app, "--query", "needle", "--max-entries", "20000", "--max-file-bytes", "1024", "--format", "json")
	if r.code != 0 {
		t.Fatalf("search with a small max_file_bytes: exit %d: %s", r.code, r.stderr)
	}
	var h hits
	decode(t, r.stdout, &h)
	got := h.NormalizedResult.Result
	if h.Parameters["max_entries"] != float64(20000) || h.Parameters["max_depth"] != float64(20) {
		t.Fatalf("the Evidence's parameters do not carry the inventory limits with their defaults: %v", h.Parameters)
	}
	if got.FilesScanned != 10200 || got.Coverage != "partial" || got.TotalHits != 1 || len(got.Hits) != 1 || got.Hits[0].Path != "d101/f99.js" || len(got.Skipped) != 1 || got.Skipped[0].Path != "big.js" ||
		len(got.Limitations) != 1 || !strings.Contains(got.Limitations[0], "raise max_file_bytes") {
		t.Fatalf("search with a small max_file_bytes: %+v", got)
	}
}
