package wasmtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestModuleBuildFlagsAreTheMakefiles keeps on-demand builds identical to
// `make modules`, so a test measures the module users run.
func TestModuleBuildFlagsAreTheMakefiles(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join(RepoRoot(t), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^(\w+)\s*:=\s*(.*)$`).FindAllStringSubmatch(string(mk), -1) {
		vars[m[1]] = m[2]
	}
	got := vars["MODULE_GOFLAGS"]
	got = strings.ReplaceAll(got, "$(GOFLAGS_REPRO)", vars["GOFLAGS_REPRO"])
	if want := strings.Join(ModuleBuildFlags(), " "); strings.Join(strings.Fields(got), " ") != want {
		t.Fatalf("Makefile MODULE_GOFLAGS = %q; ModuleBuildFlags() = %q", got, want)
	}
}
