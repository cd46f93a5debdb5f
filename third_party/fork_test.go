// Package thirdparty holds the checks of rea's patched copies of
// third-party modules (third_party/wazero, third_party/xz,
// third_party/esbuild).
package thirdparty

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// fork is one patched copy of a module: which upstream version it is,
// where its notes list the patched files, and which upstream files it
// leaves out.
type fork struct {
	module, version string
	dir             string // under third_party
	notes           string // the notes file, in dir
	excluded        *regexp.Regexp
	kept            *regexp.Regexp // when set, upstream files outside it are left out too
	mayAdd          bool           // the notes may list files upstream does not have (rea's own)
}

var (
	wazeroFork = fork{
		module: "github.com/tetratelabs/wazero", version: "v1.12.0", dir: "wazero", notes: "REA_PATCHES.md",
		excluded: regexp.MustCompile(`(^|/)(testdata|examples|site|cmd|packaging|integration_test)/|_test\.go$|^\.|^(netlify\.toml|codecov\.yml|Makefile|CONTRIBUTING\.md)$`),
	}
	// The xz copy keeps upstream's tests and test data: TestXZForkPassesItsTests
	// runs them over the patched files.
	xzFork = fork{
		module: "github.com/therootcompany/xz", version: "v1.0.1", dir: "xz", notes: "PATCHES.md",
		excluded: regexp.MustCompile(`^$`), mayAdd: true,
	}
	// The esbuild copy keeps only what a Go program builds against: the
	// internal packages and pkg/api, without their tests.
	esbuildFork = fork{
		module: "github.com/evanw/esbuild", version: "v0.28.2", dir: "esbuild", notes: "REA_PATCHES.md",
		excluded: regexp.MustCompile(`_test\.go$|(^|/)testdata/|^internal/(bundler_tests|test)/|^internal/resolver/testExpectations\.json$`),
		kept:     regexp.MustCompile(`^(internal/|pkg/api/|go\.mod$|go\.sum$|LICENSE\.md$)`),
		mayAdd:   true, // internal/bundler/sniff.go
	}
)

// TestWazeroForkIsUpstreamPlusItsPatches: third_party/wazero is the module
// proxy's v1.12.0 byte for byte, except the files REA_PATCHES.md lists, and
// every listed file does differ (a patch that went away is not listed).
func TestWazeroForkIsUpstreamPlusItsPatches(t *testing.T) { checkFork(t, wazeroFork) }

// TestXZForkIsUpstreamPlusItsPatches: third_party/xz is the module proxy's
// therootcompany/xz v1.0.1 byte for byte, except the files PATCHES.md lists
// (patched, or rea's own).
func TestXZForkIsUpstreamPlusItsPatches(t *testing.T) { checkFork(t, xzFork) }

// TestEsbuildForkIsUpstreamPlusItsPatches: third_party/esbuild is the
// module proxy's evanw/esbuild v0.28.2 (internal and pkg/api) byte for
// byte, except the files REA_PATCHES.md lists.
func TestEsbuildForkIsUpstreamPlusItsPatches(t *testing.T) { checkFork(t, esbuildFork) }

// TestEsbuildForkPassesItsTests runs rea_sniff_test.go (the copied
// detectContentType against net/http's, with a short fuzz run):
// third_party/esbuild is a module of its own, which `go test ./...` does
// not enter.
func TestEsbuildForkPassesItsTests(t *testing.T) {
	cmd := exec.Command("go", "test", "-count=1", "-run", "DetectContentType", "-fuzz", "FuzzDetectContentTypeIsNetHTTPs", "-fuzztime", "20000x", "./internal/bundler")
	cmd.Dir = "esbuild"
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test in third_party/esbuild: %v\n%s", err, out)
	}
}

// TestXZForkPassesItsTests runs the copy's tests (upstream's over the
// patched files, and rea_patches_test.go, which compares each patched
// function with upstream's): third_party/xz is a module of its own, which
// `go test ./...` does not enter.
func TestXZForkPassesItsTests(t *testing.T) {
	cmd := exec.Command("go", "test", "-count=1", ".")
	cmd.Dir = "xz"
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test in third_party/xz: %v\n%s", err, out)
	}
}

func checkFork(t *testing.T, f fork) {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", f.module+"@"+f.version).Output()
	if err != nil {
		t.Fatalf("go mod download %s@%s (needs the Go module proxy): %v", f.module, f.version, err)
	}
	var dl struct{ Dir string }
	if err := json.Unmarshal(out, &dl); err != nil || dl.Dir == "" {
		t.Fatalf("go mod download answered %q: %v", out, err)
	}
	notes, err := os.ReadFile(filepath.Join(f.dir, f.notes))
	if err != nil {
		t.Fatal(err)
	}
	patched := map[string]bool{}
	for _, line := range strings.Split(string(notes), "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| file ") {
			continue
		}
		cell := strings.TrimSpace(strings.SplitN(strings.TrimPrefix(line, "| "), "|", 2)[0])
		dir := ""
		for _, name := range strings.Split(cell, ", ") {
			name = strings.Trim(name, "`")
			if i := strings.LastIndex(name, "/"); i >= 0 {
				dir = name[:i+1]
			} else {
				name = dir + name
			}
			patched[name] = true
		}
	}
	upstream := map[string]bool{}
	var differs []string
	err = filepath.WalkDir(dl.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dl.Dir, p)
		rel = filepath.ToSlash(rel)
		if f.excluded.MatchString(rel) || (f.kept != nil && !f.kept.MatchString(rel)) {
			return nil
		}
		upstream[rel] = true
		want, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(f.dir, rel))
		if err != nil {
			t.Errorf("upstream file %s is missing from third_party/%s", rel, f.dir)
			return nil
		}
		if !bytes.Equal(got, want) {
			differs = append(differs, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(differs)
	for _, rel := range differs {
		if !patched[rel] {
			t.Errorf("%s differs from upstream %s but %s does not list it", rel, f.version, f.notes)
		}
	}
	for rel := range patched {
		switch {
		case !upstream[rel] && !f.mayAdd:
			t.Errorf("%s lists %s, which upstream %s does not have", f.notes, rel, f.version)
		case !upstream[rel]:
			if _, err := os.Stat(filepath.Join(f.dir, rel)); err != nil {
				t.Errorf("%s lists rea's file %s, which third_party/%s does not have", f.notes, rel, f.dir)
			}
		case !contains(differs, rel):
			t.Errorf("%s lists %s, but it equals upstream %s", f.notes, rel, f.version)
		}
	}
	_ = filepath.WalkDir(f.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(f.dir, p)
		rel = filepath.ToSlash(rel)
		if rel != f.notes && !upstream[rel] && !patched[rel] {
			t.Errorf("third_party/%s/%s is not an upstream file", f.dir, rel)
		}
		return nil
	})
	if len(patched) == 0 {
		t.Fatalf("%s lists no patched file", f.notes)
	}
}

func contains(list []string, s string) bool {
	i := sort.SearchStrings(list, s)
	return i < len(list) && list[i] == s
}

// transformProgram prints, for every file it is given, what rea's
// normaliser (jsengine/normalise/esbuild.Transform) makes of it under two
// tsconfigs: errors, code and source map.
const transformProgram = `package main

import (
	"fmt"
	"os"
	"path/filepath"

	"rea/jsengine/normalise"
	"rea/jsengine/normalise/esbuild"
)

func main() {
	loaders := map[string]string{".ts": "ts", ".mts": "ts", ".cts": "ts", ".tsx": "tsx", ".jsx": "jsx", ".mjs": "js"}
	for _, p := range os.Args[1:] {
		src, err := os.ReadFile(p)
		if err != nil {
			panic(err)
		}
		for _, tsconfig := range []string{"", ` + "`" + `{"compilerOptions":{"experimentalDecorators":true,"emitDecoratorMetadata":true}}` + "`" + `} {
			r := esbuild.Transform(normalise.Request{Loader: loaders[filepath.Ext(p)], Source: string(src), Sourcefile: p, Tsconfig: tsconfig})
			fmt.Printf("== %s %q\n%v\n%s\n%q %s\n", p, tsconfig, r.Errors, r.Code, r.Sources, r.Mappings)
		}
	}
}
`

// TestEsbuildForkTransformsAsUpstream builds rea's normaliser entry point
// twice, against the module proxy's esbuild v0.28.2 and against
// third_party/esbuild, and requires the same bytes from both on every
// TypeScript, TSX, JSX and ES module source in the repository and on
// testdata/esbuild-corpus (which exercises the runtime helpers the
// patches touch: decorators, class fields, lowered syntax, re-exports),
// each under a plain and a decorator tsconfig.
func TestEsbuildForkTransformsAsUpstream(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel == "build" || rel == ".git" || rel == "third_party/esbuild" || rel == "third_party/wazero" || strings.HasSuffix(rel, "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".ts", ".mts", ".cts", ".tsx", ".jsx", ".mjs":
			if !strings.HasSuffix(p, ".d.ts") {
				files = append(files, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 40 {
		t.Fatalf("only %d sources to transform under %s", len(files), root)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(esbuildDir string) []byte {
		t.Helper()
		dir := t.TempDir()
		mod := "module forkcheck\n\ngo 1.26.8\n\nrequire (\n\trea v0.0.0\n\tgithub.com/evanw/esbuild v0.28.2\n)\n\n" +
			"replace rea => " + root + "\n" +
			"replace github.com/tetratelabs/wazero => " + filepath.Join(root, "third_party/wazero") + "\n" +
			"replace github.com/therootcompany/xz => " + filepath.Join(root, "third_party/xz") + "\n"
		if esbuildDir != "" {
			mod += "replace github.com/evanw/esbuild => " + esbuildDir + "\n"
		}
		for name, data := range map[string][]byte{"go.mod": []byte(mod), "go.sum": sum, "main.go": []byte(transformProgram)} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		bin := filepath.Join(dir, "transform")
		build := exec.Command("go", "build", "-mod=mod", "-o", bin, ".")
		build.Dir = dir
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build against esbuild %q (needs the Go module proxy or a warm module cache): %v\n%s", esbuildDir, err, out)
		}
		out, err := exec.Command(bin, files...).Output()
		if err != nil {
			t.Fatalf("transform: %v", err)
		}
		return out
	}
	upstream, patched := run(""), run(filepath.Join(root, "third_party/esbuild"))
	if !bytes.Equal(upstream, patched) {
		u, p := strings.Split(string(upstream), "\n"), strings.Split(string(patched), "\n")
		for i := 0; i < len(u) && i < len(p); i++ {
			if u[i] != p[i] {
				t.Fatalf("the patched esbuild transforms differently from upstream at output line %d:\nupstream: %.300s\npatched:  %.300s", i+1, u[i], p[i])
			}
		}
		t.Fatalf("the patched esbuild's output is %d lines, upstream's %d", len(p), len(u))
	}
	if !bytes.Contains(patched, []byte("__decorateClass")) || !bytes.Contains(patched, []byte("__publicField")) {
		t.Fatal("the corpus no longer exercises esbuild's runtime helpers (__decorateClass, __publicField)")
	}
}
