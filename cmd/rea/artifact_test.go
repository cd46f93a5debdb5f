package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rea/wasm/wasmtest"
)

// runArtifactCLI runs rea with the artifact commands against the real
// artifact module and returns stdout, stderr and the exit status.
func runArtifactCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	c := &cli{ctx: context.Background(), stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr}
	root := c.rootCommand()
	if cmd, _, err := root.Find([]string{"inspect-artifact"}); err != nil || cmd == root {
		root.AddCommand(c.artifactCommands()...)
	}
	full := append([]string{"--module-dir", wasmtest.ModuleDir(t, "artifact")}, args...)
	root.SetArgs(full)
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	code := exitOK
	if err := root.ExecuteContext(context.Background()); err != nil {
		c.printError(err)
		code = exitFailure
	}
	if c.app != nil {
		c.app.Close(context.Background())
	}
	return stdout.String(), stderr.String(), code
}

func fixture(t *testing.T) string {
	return filepath.Join(wasmtest.RepoRoot(t), "testdata", "artifact", "app.asar")
}

func TestInspectArtifactCommandPrintsTheGraph(t *testing.T) {
	out, errOut, code := runArtifactCLI(t, "inspect-artifact", fixture(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"asar  art_", "evidence ev_", "9 files, 8 directories, 2 links", "lib/big.bin", "unpacked", "lib/link.js -> main.js", "coverage complete"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, errOut, code = runArtifactCLI(t, "--format", "json", "inspect-artifact", "--occurrence-limit", "2", fixture(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rec struct {
		EvidenceID       string `json:"evidence_id"`
		Operation        string `json:"operation"`
		NormalizedResult struct {
			Occurrences struct {
				Total      int             `json:"total"`
				NextOffset *int            `json:"next_offset"`
				Items      json.RawMessage `json:"items"`
			} `json:"occurrences"`
		} `json:"normalized_result"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !strings.HasPrefix(rec.EvidenceID, "ev_") || rec.Operation != "inspect_artifact" || rec.NormalizedResult.Occurrences.Total != 19 ||
		rec.NormalizedResult.Occurrences.NextOffset == nil || *rec.NormalizedResult.Occurrences.NextOffset != 2 {
		t.Fatalf("record = %+v", rec)
	}
}

func TestExtractArtifactCommandSaysWhereItWrote(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "dest")
	out, errOut, code := runArtifactCLI(t, "extract-artifact", "--path", "lib/deep", "--path", "*.json", "--output", dest, fixture(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "wrote 2 files to "+dest) {
		t.Fatalf("output = %s", out)
	}
	if b, err := os.ReadFile(filepath.Join(dest, "lib", "deep", "er", "still", "index.js")); err != nil || string(b) != "module.exports = 1\n" {
		t.Fatalf("index.js = %q, %v", b, err)
	}
	// A second run into the same directory is refused.
	_, errOut, code = runArtifactCLI(t, "extract-artifact", "--output", dest, fixture(t))
	if code != exitFailure || !strings.Contains(errOut, "invalid_request") || !strings.Contains(errOut, "already exists") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestArtifactCommandsReportIntegrityFailures(t *testing.T) {
	raw, err := os.ReadFile(fixture(t))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(raw, []byte("hello from main"))
	raw[i] ^= 0x20
	p := filepath.Join(t.TempDir(), "tampered.asar")
	os.WriteFile(p, raw, 0o644)
	_, errOut, code := runArtifactCLI(t, "inspect-artifact", p)
	if code != exitFailure || !strings.Contains(errOut, "artifact_integrity_mismatch") || !strings.Contains(errOut, `"logical_path":"main.js"`) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	out, errOut, code := runArtifactCLI(t, "inspect-artifact", "--integrity-policy", "record-and-continue", p)
	if code != 0 || !strings.Contains(out, "integrity contradiction ic_") || !strings.Contains(out, "coverage partial") {
		t.Fatalf("exit %d: %s\n%s", code, out, errOut)
	}
}
