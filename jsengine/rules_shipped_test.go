package jsengine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rea/jsengine/report"
)

// TestShippedElectronVersionDecidesTheDefaults: the insecure fixture
// declares Electron 11.5.0 and leaves sandbox unset; judged by a shipped
// Electron 33.2.1 binary, sandbox defaults on (no finding), the version is
// not outdated, and the version finding says which binary decided.
func TestShippedElectronVersionDecidesTheDefaults(t *testing.T) {
	fsys := os.DirFS(filepath.Join("..", "testdata", "electron", "insecure"))
	rules := func(opts Options) map[string]string {
		t.Helper()
		r, err := Analyze(context.Background(), fsys, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, f := range r.Findings {
			out[f.RuleID] += f.Message + "\n"
		}
		return out
	}
	declared := rules(Options{})
	if !strings.Contains(declared["electron-version-outdated"], "Electron 11.5.0 (dependencies)") || !strings.Contains(strings.Join(values(declared), ""), "sandbox is not set and in Electron 11.5.0") {
		t.Fatalf("baseline changed: %v", declared)
	}
	shipped := rules(Options{ShippedElectron: &report.ShippedElectron{Version: "33.2.1", Binary: "opt/X/x"}})
	all := strings.Join(values(shipped), "")
	if strings.Contains(all, "sandbox is not set") || shipped["electron-version-outdated"] != "" {
		t.Errorf("judged by 11.5.0 despite the shipped 33.2.1: %v", shipped)
	}
	if !strings.Contains(shipped["electron-version"], "the shipped binary opt/X/x is Electron 33.2.1") {
		t.Errorf("version finding: %q", shipped["electron-version"])
	}
	old := rules(Options{ShippedElectron: &report.ShippedElectron{Version: "9.0.0", Binary: "opt/X/x"}})
	if !strings.Contains(old["electron-version-outdated"], "Electron 9.0.0 (read from the shipped binary opt/X/x)") {
		t.Errorf("outdated shipped binary: %q", old["electron-version-outdated"])
	}
}

func values(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
