package setup

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"rea/guidance"
)

// skillName is the directory the guidance bundle is installed as.
const skillName = guidance.SkillName

// skillMarker is the file setup writes into an installed skill: which rea
// installed it and the digest of what it wrote. A copy whose files still
// match the marker is rea's to replace; one that does not was edited by
// someone and is left alone.
const skillMarker = ".rea-skill.json"

// SkillMarker is the content of skillMarker.
type SkillMarker struct {
	InstalledBy string `json:"installed_by"`
	ReaVersion  string `json:"rea_version"`
	Digest      string `json:"bundle_digest"`
}

// SkillReport is the state of the installed guidance skill.
type SkillReport struct {
	Path   string `json:"path"`
	Status Status `json:"status"`
	// Digest is the digest of the installed files (without the marker);
	// Want is the digest of this binary's bundle.
	Digest string `json:"digest,omitempty"`
	Want   string `json:"want"`
	// InstalledBy is the rea version that installed the copy, if known.
	InstalledBy string `json:"installed_by_version,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

// bundleFiles reads every file of fsys by slash path.
func bundleFiles(fsys fs.FS) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || p == skillMarker {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", p)
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files[p] = b
		return nil
	})
	return files, err
}

// filesDigest identifies a set of files by path and content.
func filesDigest(files map[string][]byte) string {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		sum := sha256.Sum256(files[p])
		fmt.Fprintf(h, "%s\x00%x\n", p, sum)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// BundleDigest is the digest of the guidance bundle this binary installs.
func BundleDigest() string {
	files, err := bundleFiles(guidance.Bundle())
	if err != nil {
		panic(fmt.Sprintf("setup: embedded guidance bundle unreadable: %v", err)) // a build defect
	}
	return filesDigest(files)
}

func inspectSkill(dir string) SkillReport {
	r := SkillReport{Path: dir, Want: BundleDigest()}
	info, err := os.Lstat(dir)
	if os.IsNotExist(err) {
		r.Status, r.Reason = StatusMissing, "not installed"
		return r
	}
	if err != nil || !info.IsDir() {
		r.Status, r.Reason = StatusInvalid, fmt.Sprintf("%s is not a directory; rea setup leaves it untouched", dir)
		return r
	}
	files, err := bundleFiles(os.DirFS(dir))
	if err != nil {
		r.Status, r.Reason = StatusInvalid, fmt.Sprintf("unreadable (%v); rea setup leaves it untouched", err)
		return r
	}
	r.Digest = filesDigest(files)
	var marker SkillMarker
	mb, merr := os.ReadFile(filepath.Join(dir, skillMarker))
	if merr == nil && json.Unmarshal(mb, &marker) == nil {
		r.InstalledBy = marker.ReaVersion
	}
	switch {
	case r.Digest == r.Want:
		r.Status = StatusAligned
	case marker.Digest == "":
		r.Status, r.Reason = StatusInvalid, "a skill of this name that rea did not install; rea setup leaves it untouched — move it away to install rea's"
	case marker.Digest != r.Digest:
		r.Status, r.Reason = StatusInvalid, "edited since rea installed it; rea setup leaves it untouched — remove the directory to reinstall"
	default:
		r.Status, r.Reason = StatusStale, fmt.Sprintf("installed by rea %s from an older bundle", marker.ReaVersion)
	}
	return r
}

// installSkill writes the bundle into dir, replacing a stale copy that rea
// installed. The new copy is assembled beside dir and renamed into place,
// so a reader never sees half a skill.
func installSkill(dir, version string) error {
	files, err := bundleFiles(guidance.Bundle())
	if err != nil {
		return err
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", parent, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+skillName+".rea-new-")
	if err != nil {
		return fmt.Errorf("preparing the skill beside %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp)
	for p, b := range files {
		target := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, b, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", target, err)
		}
	}
	marker, _ := json.MarshalIndent(SkillMarker{InstalledBy: "rea setup", ReaVersion: version, Digest: filesDigest(files)}, "", "  ")
	if err := os.WriteFile(filepath.Join(tmp, skillMarker), append(marker, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	var old string
	if _, err := os.Lstat(dir); err == nil {
		old = filepath.Join(parent, strings.Replace(filepath.Base(tmp), ".rea-new-", ".rea-old-", 1))
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("moving the old skill aside: %w", err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			_ = os.Rename(old, dir)
		}
		return fmt.Errorf("installing the skill at %s: %w", dir, err)
	}
	if old != "" {
		if err := os.RemoveAll(old); err != nil {
			return fmt.Errorf("removing the replaced skill %s: %w", old, err)
		}
	}
	if got := inspectSkill(dir); got.Status != StatusAligned {
		return errors.New("the installed skill does not match the bundle on read-back: " + got.Reason)
	}
	return nil
}
