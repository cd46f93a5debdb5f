// Package thirdparty holds the checks of rea's patched copies of
// third-party modules (third_party/wazero).
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

// forkExcluded says which upstream files the copy leaves out.
var forkExcluded = regexp.MustCompile(`(^|/)(testdata|examples|site|cmd|packaging|integration_test)/|_test\.go$|^\.|^(netlify\.toml|codecov\.yml|Makefile|CONTRIBUTING\.md)$`)

// TestWazeroForkIsUpstreamPlusItsPatches: third_party/wazero is the module
// proxy's v1.12.0 byte for byte, except the files REA_PATCHES.md lists, and
// every listed file does differ (a patch that went away is not listed).
func TestWazeroForkIsUpstreamPlusItsPatches(t *testing.T) {
	const version = "v1.12.0"
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/tetratelabs/wazero@"+version).Output()
	if err != nil {
		t.Fatalf("go mod download github.com/tetratelabs/wazero@%s (needs the Go module proxy): %v", version, err)
	}
	var dl struct{ Dir string }
	if err := json.Unmarshal(out, &dl); err != nil || dl.Dir == "" {
		t.Fatalf("go mod download answered %q: %v", out, err)
	}
	notes, err := os.ReadFile("wazero/REA_PATCHES.md")
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
		if forkExcluded.MatchString(rel) {
			return nil
		}
		upstream[rel] = true
		want, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join("wazero", rel))
		if err != nil {
			t.Errorf("upstream file %s is missing from third_party/wazero", rel)
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
			t.Errorf("%s differs from upstream %s but REA_PATCHES.md does not list it", rel, version)
		}
	}
	for rel := range patched {
		if !upstream[rel] {
			t.Errorf("REA_PATCHES.md lists %s, which upstream %s does not have", rel, version)
		} else if !contains(differs, rel) {
			t.Errorf("REA_PATCHES.md lists %s, but it equals upstream %s", rel, version)
		}
	}
	_ = filepath.WalkDir("wazero", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("wazero", p)
		rel = filepath.ToSlash(rel)
		if rel != "REA_PATCHES.md" && !upstream[rel] {
			t.Errorf("third_party/wazero/%s is not an upstream file", rel)
		}
		return nil
	})
	if len(patched) == 0 {
		t.Fatal("REA_PATCHES.md lists no patched file")
	}
}

func contains(list []string, s string) bool {
	i := sort.SearchStrings(list, s)
	return i < len(list) && list[i] == s
}
