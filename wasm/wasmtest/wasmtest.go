// Package wasmtest builds real modules and the real rea binary for tests.
// Nothing is mocked and nothing is skipped: when `make test` has already
// built them (REA_TEST_MODULE_DIR, REA_BIN) they are reused, otherwise they
// are built on demand with the same commands the Makefile uses.
package wasmtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"rea/abi"
	"rea/wasm/module"
)

// ModuleBuildFlags are the go build flags of `make modules` (MODULE_GOFLAGS
// in the Makefile): reproducible, with the profile-guided inliner turned up
// for modules that carry a default.pgo.
func ModuleBuildFlags() []string {
	return []string{"-trimpath", "-buildvcs=false", "-gcflags=all=-d=pgoinlinebudget=4000,pgoinlinecdfthreshold=99.9"}
}

// Main runs a test package's tests, then removes what wasmtest built for
// them (about 150 MB of modules per package when REA_TEST_MODULE_DIR is
// unset) and runs the package's own cleanups. Packages that build through
// wasmtest call it from TestMain.
func Main(m *testing.M, cleanups ...func()) {
	code := m.Run()
	state.mu.Lock()
	if state.dir != "" {
		os.RemoveAll(state.dir)
		state.dir, state.done = "", nil
	}
	state.mu.Unlock()
	for _, c := range cleanups {
		c()
	}
	os.Exit(code)
}

// RepoRoot returns the repository root (the directory holding go.mod).
func RepoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("wasmtest: cannot locate source file")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// builds caches on-demand builds per test process.
type builds struct {
	mu   sync.Mutex
	dir  string
	done map[string]error
}

var state builds // per-process build cache; tests only

// ensureDir creates the per-process build directory; callers hold mu.
func (b *builds) ensureDir(t testing.TB) string {
	t.Helper()
	if b.dir == "" {
		d, err := os.MkdirTemp("", "rea-wasmtest-")
		if err != nil {
			t.Fatal(err)
		}
		b.dir, b.done = d, map[string]error{}
	}
	return b.dir
}

// BuildGuest compiles the Go package at pkg (relative to the repository
// root, e.g. "./host/sandbox/testdata/guests/probe") for wasip1 and returns
// the path of the unmetered module named name.wasm in a per-process dir.
func BuildGuest(t testing.TB, pkg, name string) string {
	t.Helper()
	state.mu.Lock()
	defer state.mu.Unlock()
	out := filepath.Join(state.ensureDir(t), "raw", name+".wasm")
	key := pkg + "|" + name
	if err, ok := state.done[key]; ok {
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	cmd := exec.Command("go", append(append([]string{"build"}, ModuleBuildFlags()...), "-o", out, pkg)...)
	cmd.Dir = RepoRoot(t)
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	b, err := cmd.CombinedOutput()
	if err != nil {
		err = fmt.Errorf("wasmtest: building %s for wasip1: %v\n%s", pkg, err, b)
	}
	state.done[key] = err
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// MeteredGuest builds pkg and writes it metered and ABI-stamped as
// dir/name.wasm, the way `make modules` does.
func MeteredGuest(t testing.TB, pkg, name, dir string) string {
	t.Helper()
	raw, err := os.ReadFile(BuildGuest(t, pkg, name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := module.Prepare(raw, abi.Version, true)
	if err != nil {
		t.Fatalf("wasmtest: preparing %s: %v", name, err)
	}
	out := filepath.Join(dir, name+".wasm")
	if err := os.WriteFile(out, p.Bytes, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// ModuleDir returns a directory holding the real rea modules named (all of
// modules/* when names is empty): REA_TEST_MODULE_DIR when `make test` set
// it, otherwise modules built now.
func ModuleDir(t testing.TB, names ...string) string {
	t.Helper()
	if d := os.Getenv("REA_TEST_MODULE_DIR"); d != "" {
		return d
	}
	root := RepoRoot(t)
	if len(names) == 0 {
		entries, _ := filepath.Glob(filepath.Join(root, "modules", "*", "main.go"))
		for _, e := range entries {
			names = append(names, filepath.Base(filepath.Dir(e)))
		}
	}
	state.mu.Lock()
	out := filepath.Join(state.ensureDir(t), "modules")
	state.mu.Unlock()
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(out, n+".wasm")); err == nil {
			continue
		}
		MeteredGuest(t, "./modules/"+n, n, out)
	}
	return out
}

// ReaBinary returns the path of a rea binary: REA_BIN when `make test` set
// it, otherwise one built now (its modules then come from ModuleDir, which
// callers pass with --module-dir or REA_MODULE_DIR).
func ReaBinary(t testing.TB) string {
	t.Helper()
	if b := os.Getenv("REA_BIN"); b != "" {
		return b
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	out := filepath.Join(state.ensureDir(t), "bin", "rea")
	if err, ok := state.done["rea-binary"]; ok {
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-o", out, "./cmd/rea")
	cmd.Dir = RepoRoot(t)
	b, err := cmd.CombinedOutput()
	if err != nil {
		err = fmt.Errorf("wasmtest: building rea: %v\n%s", err, strings.TrimSpace(string(b)))
	}
	state.done["rea-binary"] = err
	if err != nil {
		t.Fatal(err)
	}
	return out
}
