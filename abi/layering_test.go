package abi_test

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// pkg is what the layering checks read of `go list -json`.
type pkg struct {
	ImportPath string
	Deps       []string
}

// listPackages runs `go list -json ./...` at the module root: every
// package of rea with its transitive (non-test) dependencies.
func listPackages(t *testing.T, patterns ...string) []pkg {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json"}, patterns...)...)
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list needs the go command on PATH (install Go 1.26): %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		t.Fatal("go list found no packages")
	}
	return pkgs
}

func standard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".") && first != "rea"
}

func under(path string, roots ...string) bool {
	for _, r := range roots {
		if path == r || strings.HasPrefix(path, r+"/") {
			return true
		}
	}
	return false
}

// TestLayering keeps the trust boundary visible in the imports
// (docs/rationale.md, "How the code is laid out"): abi is the ground floor;
// the libraries that run inside modules never reach up into the host; the
// modules link no host code.
func TestLayering(t *testing.T) {
	for _, p := range listPackages(t, "./...") {
		for _, d := range p.Deps {
			switch {
			case under(p.ImportPath, "rea/abi"):
				// The wire vocabulary: the standard library, itself, and
				// the two libraries its canonical digest and word folding
				// are defined by.
				if !standard(d) && !under(d, "rea/abi", "github.com/gowebpki/jcs", "golang.org/x/text") {
					t.Errorf("%s imports %s: abi may import only the standard library, jcs and x/text", p.ImportPath, d)
				}
			case under(p.ImportPath, "rea/analysis", "rea/jsengine", "rea/guidance", "rea/modules"):
				if under(d, "rea/host", "rea/cmd", "rea/providers") {
					t.Errorf("%s imports %s: the libraries and modules that run in the sandbox never import the host", p.ImportPath, d)
				}
			}
		}
	}
}

// hostMayLink are the packages of the module-side trees the host links,
// each for its request/result vocabulary or for logic over JSON it already
// holds. A package that parses untrusted bytes (JavaScript, executables,
// archives, source maps) never belongs here: it runs in a module.
var hostMayLink = map[string]string{
	"rea/analysis/artifact/inventory":          "the artifact module's request and result types",
	"rea/analysis/compare/exports/exportswire": "compare_exports' request, result and shapes",
	"rea/analysis/native/nativewire":           "the native module's operations, parameters and results",
	"rea/analysis/jssource/sourcewire":         "the source module's requests and results",
	"rea/jsengine/report":                      "the jsapp module's result types",
	"rea/jsengine/report/sarif":                "renders those result types as SARIF (no parsing)",
	"rea/analysis/artifact/magic":              "magic numbers only, to route `rea analyze FILE` to the installer path; parses no structure",
	"rea/analysis/artifact/stream":             "the decompressors (gzip, xz, zstd) the host's hashing and extraction read container members through, bounded by the inventory's ratio limit; no container format is parsed in the host",
	"rea/analysis/artifact/stream/nsisbzip2":   "a decompressor like the stream package's: compress/bzip2 forked for NSIS's bzip2 framing (no header, one-byte markers, no CRCs), read by hashing and extraction of NSIS members; no container format is parsed in the host",
	"rea/analysis/compare/artifacts":           "compare_artifacts' request and result (the comparison itself reads inventory JSON)",
	"rea/analysis/compare/graph":               "compare and trace request/result types and limits (over Evidence JSON)",
	"rea/analysis/compare/source":              "compare_source's request and result types",
	"rea/analysis/reconstruct/coverage":        "reconstruction coverage request/result",
	"rea/analysis/reconstruct/obligations":     "obligation ledger request/result and limits",
	"rea/analysis/reconstruct/verify":          "verification request/result and limits",
	"rea/guidance":                             "the embedded guidance bundle's files, installed as a skill by setup (the project's own text)",
	"rea/guidance/index":                       "guidance search and read request/result types",
	"rea/guidance/markdown":                    "splits the project's own embedded guidance bundle into sections",
}

// TestHostLinksNoParser fails when rea's binary links a JavaScript parser,
// a disassembler, esbuild, or a module-side package not listed in
// hostMayLink: the host takes requests and results through the wire
// vocabulary only, and the parsers run inside the sandbox.
func TestHostLinksNoParser(t *testing.T) {
	var deps []string
	for _, p := range listPackages(t, "-deps", "./cmd/rea") {
		deps = append(deps, p.ImportPath)
	}
	if len(deps) < 50 {
		t.Fatalf("go list -deps ./cmd/rea listed only %d packages", len(deps))
	}
	for _, d := range deps {
		switch {
		case under(d, "github.com/dop251/goja", "golang.org/x/arch", "github.com/evanw/esbuild"):
			t.Errorf("rea links %s: parsers and disassemblers run in modules, never in the host", d)
		case under(d, "rea/analysis", "rea/jsengine", "rea/guidance"):
			if _, ok := hostMayLink[d]; !ok {
				t.Errorf("rea links %s; the host may link only the modules' wire packages (hostMayLink), never a parser", d)
			}
		}
	}
}
