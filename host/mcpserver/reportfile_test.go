package mcpserver

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestBigReportsGoToAFileAndSmallOnesInline(t *testing.T) {
	small := bytes.Repeat([]byte("a"), maxInlineReportBytes)
	out, err := reportDelivery(map[string]any{"html": string(small), "path": nil}, small)
	if m, ok := out.(map[string]any); err != nil || !ok || m["html"] != string(small) || m["path"] != nil {
		t.Fatalf("a page at the bound is not inline: %v %v", out, err)
	}
	big := bytes.Repeat([]byte("b"), maxInlineReportBytes+1)
	out, err = reportDelivery(map[string]any{"html": string(big), "path": nil}, big)
	ex, ok := out.(*Extra)
	if err != nil || !ok {
		t.Fatalf("a page over the bound: %v %v", out, err)
	}
	m := ex.Result.(map[string]any)
	path, _ := m["path"].(string)
	t.Cleanup(func() { _ = os.RemoveAll(filepath.Dir(path)) })
	if m["html"] != nil || path == "" || ex.Meta["rea/output_path"] != path {
		t.Fatalf("over the bound: html %v, path %q, meta %v", m["html"] != nil, path, ex.Meta)
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("the written page differs: %v", err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("report file mode %v", st.Mode().Perm())
	}
}
