package main

import (
	"bytes"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// Materialise puts the app's pinned bytes under work/<name>/src and returns
// that directory. GitHub sources come from a bare mirror (git archive of the
// exact commit, restricted to Include, written blob by blob); npm sources from `npm pack` of the
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
	// ls-tree + cat-file rather than git archive: a mirror may lack large
	// blobs (fonts, media), and git archive reports that on stderr while
	// still exiting 0. Here a missing blob of a file the analysis reads is
	// an error; a missing asset is skipped and logged.
	out, err := exec.Command("git", "--git-dir", gitDir, "ls-tree", "-r", "-z", "--full-tree", a.Source.Commit).Output()
	if err != nil {
		return fmt.Errorf("git ls-tree %s %s: %w", a.Source.Repo, a.Source.Commit, err)
	}
	type entry struct{ sha, path string }
	var entries []entry
	for _, rec := range strings.Split(string(out), "\x00") {
		meta, p, ok := strings.Cut(rec, "\t")
		if !ok {
			continue
		}
		f := strings.Fields(meta) // mode type sha
		if len(f) != 3 || f[1] != "blob" || f[0] == "120000" || !Included(a.Include, p) {
			continue
		}
		entries = append(entries, entry{f[2], p})
	}
	if len(entries) == 0 {
		return fmt.Errorf("%s %s: include %v selects no files", a.Source.Repo, a.Source.Commit, a.Include)
	}
	var req strings.Builder
	for _, e := range entries {
		req.WriteString(e.sha + "\n")
	}
	cat := exec.Command("git", "--git-dir", gitDir, "cat-file", "--batch")
	cat.Stdin = strings.NewReader(req.String())
	var blobs bytes.Buffer
	cat.Stdout = &blobs
	if err := cat.Run(); err != nil {
		return fmt.Errorf("git cat-file %s: %w", a.Source.Repo, err)
	}
	rest := blobs.Bytes()
	for _, e := range entries {
		header, after, ok := bytes.Cut(rest, []byte("\n"))
		if !ok {
			return fmt.Errorf("git cat-file %s: short output at %s", a.Source.Repo, e.path)
		}
		f := strings.Fields(string(header))
		if len(f) == 2 && f[1] == "missing" {
			if analysedExt(e.path) {
				return fmt.Errorf("mirror %s lacks the blob of %s (%s); fetch the repository again", gitDir, e.path, e.sha)
			}
			slog.Warn("mirror lacks an asset; skipped", "app", a.Name, "path", e.path)
			rest = after
			continue
		}
		var size int
		if len(f) != 3 || f[0] != e.sha {
			return fmt.Errorf("git cat-file %s: unexpected header %q for %s", a.Source.Repo, header, e.path)
		}
		if _, err := fmt.Sscan(f[2], &size); err != nil || size > len(after) {
			return fmt.Errorf("git cat-file %s: bad size in %q", a.Source.Repo, header)
		}
		dst := filepath.Join(src, filepath.FromSlash(e.path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, after[:size], 0o644); err != nil {
			return err
		}
		rest = after[size:]
		if len(rest) > 0 && rest[0] == '\n' {
			rest = rest[1:]
		}
	}
	return nil
}

// Included reports whether a repository path is kept: every path when the
// list is empty, else a listed file, anything under a listed folder, or a
// match of a listed pattern (path.Match, * within one segment).
func Included(include []string, p string) bool {
	if len(include) == 0 {
		return true
	}
	for _, inc := range include {
		inc = strings.TrimSuffix(inc, "/")
		if p == inc || strings.HasPrefix(p, inc+"/") {
			return true
		}
		if ok, _ := path.Match(inc, p); ok {
			return true
		}
	}
	return false
}

// analysedExt reports whether rea reads files with this name (code,
// manifests, HTML, source maps): their absence would change the result.
func analysedExt(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".vue", ".svelte", ".json", ".html", ".htm", ".map", ".asar":
		return true
	}
	return false
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
