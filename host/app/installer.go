package app

import (
	"context"
	"os"
	"path/filepath"
	"rea/host/regularfile"
	"sort"
	"strings"

	"rea/abi"
	"rea/analysis/artifact/magic"
	"rea/host/evidence"
)

// InstallerApplication is the Electron application found inside an
// installer or package (.deb, .zip, .tar.gz, .tar): the extraction that
// materialised it and the application root chosen among those seen.
type InstallerApplication struct {
	// OutputDir holds the extracted package; the caller removes it.
	OutputDir string `json:"output_dir"`
	// Chosen is the analysed application root as a path in the package
	// ("data.tar.xz!/opt/X/resources/app.asar"), ChosenPath where it was
	// extracted; Others are the other roots seen, in preference order.
	Chosen     string          `json:"chosen"`
	ChosenPath string          `json:"chosen_path"`
	Others     []string        `json:"others"`
	Extraction evidence.Record `json:"extraction_evidence"`
	// Binary is the Electron executable shipped beside the chosen root
	// (a path in the package, "" when none), BinaryPath where it was
	// extracted.
	Binary     string `json:"binary,omitempty"`
	BinaryPath string `json:"binary_path,omitempty"`
	// ExtractDir is the directory the package's paths are relative to.
	ExtractDir string `json:"extract_dir"`
}

// LooksLikeInstaller reports whether the file starts like a package or
// archive rea can open to find an application in (.deb, .rpm, AppImage,
// squashfs, zip, tar.gz, tar, 7z, NSIS, a .dmg holding HFS+), or one it
// recognises and explains it cannot open (an APFS or encrypted .dmg, a
// bare HFS+/APFS volume, a type 1 AppImage): the artifact module's
// refusal then says how to get in.
func LooksLikeInstaller(p string) bool {
	// Only a regular file is sniffed: opening a FIFO or device to read
	// its first bytes would block (the binary tools then refuse it).
	f, err := regularfile.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return magic.Package(f, st.Size()) != ""
}

// LocateInstallerApplication extracts the package (same inventory,
// limits and integrity checks as extract_artifact) into a fresh directory
// and picks the Electron application inside it: resources/app.asar first,
// then resources/app/, also under X.app/Contents/Resources, the shallowest
// first. It fails with not_found when none is present.
func (a *App) LocateInstallerApplication(ctx context.Context, req ArtifactRequest) (*InstallerApplication, error) {
	out, err := os.MkdirTemp("", "rea-installer-")
	if err != nil {
		return nil, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot create a directory to extract into: %v", err)
	}
	dest := filepath.Join(out, "package")
	res, err := a.ExtractArtifact(ctx, ExtractArtifactRequest{ArtifactRequest: req, OutputDir: dest}, nil)
	if err != nil {
		os.RemoveAll(out)
		return nil, err
	}
	// Output paths name nested members "<member>!/<path>", so they say
	// where in the package a root lies (data.tar.xz!/opt/X/resources/app).
	var files []string
	for _, f := range res.Extraction.Files {
		files = append(files, f.Path)
	}
	roots := applicationRoots(files)
	if len(roots) == 0 {
		os.RemoveAll(out)
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%s holds no Electron application (no resources/app.asar, resources/app/ or X.app/Contents/Resources/app*) among its %d files",
			req.InputPath, len(files)).WithDetail("field", "input_path")
	}
	chosen := roots[0]
	ia := &InstallerApplication{OutputDir: out, Chosen: chosen.logical, ChosenPath: filepath.Join(dest, filepath.FromSlash(chosen.logical)), Others: []string{}, Extraction: res.Evidence, ExtractDir: dest}
	for _, r := range roots[1:] {
		ia.Others = append(ia.Others, r.logical)
	}
	if b := electronBinary(dest, res.Extraction.Files, chosen.logical); b != "" {
		ia.Binary, ia.BinaryPath = b, filepath.Join(dest, filepath.FromSlash(b))
	}
	return ia, nil
}

type appRoot struct {
	logical string
	asar    bool
}

// applicationRoots finds the application roots among extracted logical
// paths, most preferred first: app.asar before app/, shallower first,
// then by name. Electron's own default_app.asar is not an application.
func applicationRoots(files []string) []appRoot {
	seen := map[string]appRoot{}
	for _, lp := range files {
		segs := strings.Split(lp, "/")
		for i, s := range segs {
			if i == 0 || !strings.EqualFold(segs[i-1], "resources") {
				continue
			}
			switch {
			case s == "app.asar" && i == len(segs)-1:
				root := strings.Join(segs[:i+1], "/")
				seen[root] = appRoot{logical: root, asar: true}
			case s == "app" && i < len(segs)-1:
				root := strings.Join(segs[:i+1], "/")
				if _, ok := seen[root]; !ok {
					seen[root] = appRoot{logical: root}
				}
			}
		}
	}
	out := make([]appRoot, 0, len(seen))
	for _, r := range seen {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].asar != out[j].asar {
			return out[i].asar
		}
		di, dj := strings.Count(out[i].logical, "/"), strings.Count(out[j].logical, "/")
		if di != dj {
			return di < dj
		}
		return out[i].logical < out[j].logical
	})
	return out
}
