// Package nativetest builds the native fixtures the tests of the native
// module, the app services and the CLI share: C programs compiled with gcc
// and Go programs cross-compiled to PE, Mach-O and arm64 ELF, each built
// once per test binary from testdata/native, never downloaded.
package nativetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"rea/wasm/wasmtest"
)

// Fixtures are built by the tests from testdata/native, never downloaded.
// Each is built once per test binary.
var fixtures struct {
	sync.Mutex
	dir   string
	built map[string]error
}

func fixtureDir(t testing.TB) string {
	fixtures.Lock()
	defer fixtures.Unlock()
	if fixtures.dir == "" {
		d, err := os.MkdirTemp("", "rea-native-fixtures-")
		if err != nil {
			t.Fatal(err)
		}
		fixtures.dir, fixtures.built = d, map[string]error{}
	}
	return fixtures.dir
}

// BuildOnce builds a named fixture at most once per test binary.
func BuildOnce(t testing.TB, name string, build func(out string) error) string {
	t.Helper()
	dir := fixtureDir(t)
	out := filepath.Join(dir, name)
	fixtures.Lock()
	err, done := fixtures.built[name]
	fixtures.Unlock()
	if !done {
		err = build(out)
		fixtures.Lock()
		fixtures.built[name] = err
		fixtures.Unlock()
	}
	if err != nil {
		t.Fatalf("building fixture %s: %v", name, err)
	}
	return out
}

// Run runs a build tool and reports its output on failure.
func Run(dir string, env []string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, b)
	}
	return nil
}

// Testdata is the path of a file in testdata/native.
func Testdata(t testing.TB, name string) string {
	return filepath.Join(wasmtest.RepoRoot(t), "testdata", "native", name)
}

// Compiler flags whose effects the mitigation tests assert; the hardened
// build is also the debug build (-g), which strip turns into "stripped".
var (
	HardenedFlags = []string{"-g", "-O2", "-fstack-protector-strong", "-D_FORTIFY_SOURCE=2", "-fPIE", "-pie", "-Wl,-z,relro,-z,now", "-fcf-protection=full"}
	PlainFlags    = []string{"-O2", "-fno-stack-protector", "-U_FORTIFY_SOURCE", "-fno-pie", "-no-pie", "-Wl,-z,norelro", "-fcf-protection=none"}
)

// ChainELF is chain.c compiled with gcc; variant is hardened, plain,
// plain-v2 (the changed second version), ibt (hardened with .plt.sec stubs)
// or stripped (hardened, then strip).
func ChainELF(t testing.TB, variant string) string {
	return BuildOnce(t, "chain-"+variant, func(out string) error {
		flags := HardenedFlags
		switch variant {
		case "plain":
			flags = PlainFlags
		case "plain-v2": // version 2 of the program: see REA_V2 in chain.c
			flags = append(append([]string{}, PlainFlags...), "-DREA_V2")
		case "ibt": // IBT-style PLT: calls go through .plt.sec
			flags = append(append([]string{}, HardenedFlags...), "-Wl,-z,ibtplt")
		}
		args := append(append([]string{}, flags...), "-o", out, Testdata(t, "chain.c"))
		if err := Run("", nil, "gcc", args...); err != nil {
			return err
		}
		if variant == "stripped" {
			return Run("", nil, "strip", out)
		}
		return nil
	})
}

// GeneratedFunctions is how many functions generated.c holds besides main.
const GeneratedFunctions = 1205

// GeneratedELF is a program of GeneratedFunctions functions, each with
// its own string, for paging boundaries at 500 and 1,000.
func GeneratedELF(t testing.TB) string {
	return BuildOnce(t, "generated", func(out string) error {
		var b strings.Builder
		b.WriteString("#include <stdio.h>\n")
		for i := GeneratedFunctions - 1; i >= 0; i-- {
			next := "return x;"
			if i < GeneratedFunctions-1 {
				next = fmt.Sprintf("return f%d(x + 1);", i+1)
			}
			fmt.Fprintf(&b, "__attribute__((noinline)) int f%d(int x) { puts(\"gen-string-%d\"); %s }\n", i, i, next)
		}
		b.WriteString("int main(int argc, char **argv) { return f0(argc) & 1; }\n")
		src := out + ".c"
		if err := os.WriteFile(src, []byte(b.String()), 0o644); err != nil {
			return err
		}
		return Run("", nil, "gcc", "-O1", "-fno-inline", "-o", out, src)
	})
}

// GoBinary cross-compiles hello.go; no cross toolchain is needed.
func GoBinary(t testing.TB, goos, goarch string) string {
	return BuildOnce(t, "hello-"+goos+"-"+goarch, func(out string) error {
		return Run(filepath.Dir(Testdata(t, "hello.go")), []string{"GOOS=" + goos, "GOARCH=" + goarch, "CGO_ENABLED=0", "GOFLAGS=-trimpath"},
			"go", "build", "-o", out, "hello.go")
	})
}

// Cleanup removes the fixtures; call it from TestMain after m.Run.
func Cleanup() {
	fixtures.Lock()
	defer fixtures.Unlock()
	if fixtures.dir != "" {
		os.RemoveAll(fixtures.dir)
		fixtures.dir = ""
	}
}
