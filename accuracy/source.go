package main

import (
	"bytes"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Materialise puts the app's pinned bytes under work/<name>/src and returns
// that directory. GitHub sources come from a bare mirror (git archive of the
// exact commit, restricted to Include); npm sources from `npm pack` of the
// exact version, whose integrity must equal the pinned one (Include and the
// labels' paths are then relative to the package folder). A directory
// already materialised for the same pin is reused.
func Materialise(a App, work, mirrors string) (string, error) {
	dir := filepath.Join(work, a.Name)
	src := filepath.Join(dir, "src")
	pin := pinString(a)
	root := src
	if a.Source.Kind == "npm" {
		root = filepath.Join(src, "package") // npm tarballs hold one package/ folder
	}
	if b, err := os.ReadFile(filepath.Join(dir, "pin")); err == nil && string(b) == pin {
		return root, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	var err error
	switch a.Source.Kind {
	case "github":
		err = fromMirror(a, src, mirrors)
	case "npm":
		err = fromNPM(a, dir, src)
	}
	if err != nil {
		return "", err
	}
	return root, os.WriteFile(filepath.Join(dir, "pin"), []byte(pin), 0o644)
}

func pinString(a App) string {
	b, _ := json.Marshal(struct {
		S Source
		I []string
	}{a.Source, a.Include})
	return string(b)
}

// MirrorDir is where the fetch tool (or a bare clone) keeps a repository.
func MirrorDir(mirrors, repo string) string {
	return filepath.Join(mirrors, strings.ReplaceAll(repo, "/", "+"), "repo")
}

func fromMirror(a App, src, mirrors string) error {
	gitDir := MirrorDir(mirrors, a.Source.Repo)
	if _, err := os.Stat(gitDir); err != nil {
		return fmt.Errorf("no mirror of %s at %s; obtain it with the fetch tool (github:%s), or: git clone --bare https://github.com/%s %s",
			a.Source.Repo, gitDir, a.Source.Repo, a.Source.Repo, gitDir)
	}
	if out, err := exec.Command("git", "--git-dir", gitDir, "cat-file", "-e", a.Source.Commit+"^{commit}").CombinedOutput(); err != nil {
		return fmt.Errorf("mirror %s lacks commit %s (%s); update it: git --git-dir %s fetch origin %s", gitDir, a.Source.Commit, strings.TrimSpace(string(out)), gitDir, a.Source.Commit)
	}
	args := []string{"--git-dir", gitDir, "archive", "--format=tar", a.Source.Commit}
	if len(a.Include) > 0 {
		args = append(args, "--")
		args = append(args, a.Include...)
	}
	archive := exec.Command("git", args...)
	var tarball, stderr bytes.Buffer
	archive.Stdout, archive.Stderr = &tarball, &stderr
	if err := archive.Run(); err != nil {
		return fmt.Errorf("git archive %s %s: %v: %s", a.Source.Repo, a.Source.Commit, err, strings.TrimSpace(stderr.String()))
	}
	untar := exec.Command("tar", "-x", "-C", src)
	untar.Stdin = &tarball
	if out, err := untar.CombinedOutput(); err != nil {
		return fmt.Errorf("tar: %v: %s", err, out)
	}
	return nil
}

func fromNPM(a App, dir, src string) error {
	spec := a.Source.Package + "@" + a.Source.Version
	cmd := exec.Command("npm", "pack", "--silent", "--json", "--pack-destination", dir, spec)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm pack %s: %v: %s", spec, err, strings.TrimSpace(stderr.String()))
	}
	var packed []struct {
		Filename string `json:"filename"`
	}
	if err := json.Unmarshal(out.Bytes(), &packed); err != nil || len(packed) != 1 {
		return fmt.Errorf("npm pack %s: unexpected output %q", spec, out.String())
	}
	tgz := filepath.Join(dir, filepath.Base(packed[0].Filename))
	b, err := os.ReadFile(tgz)
	if err != nil {
		return err
	}
	// The tarball's digest is checked here, not taken from npm's report.
	sum := sha512.Sum512(b)
	if got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:]); got != a.Source.Integrity {
		return fmt.Errorf("npm %s: tarball integrity %s, pinned %s", spec, got, a.Source.Integrity)
	}
	args := []string{"-xzf", tgz, "-C", src}
	for _, p := range a.Include {
		args = append(args, "package/"+p)
	}
	if out, err := exec.Command("tar", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("tar %s: %v: %s", tgz, err, out)
	}
	return nil
}
