package app

import (
	"path"
	"path/filepath"
	"sort"
	"strings"

	"rea/host/regularfile"
)

// electronBinary picks the Electron executable shipped beside an
// application root among the extracted files: a native executable in the
// folder that holds resources/ (opt/X/x, X.exe), or, for a macOS bundle,
// Contents/Frameworks/Electron Framework.framework's library (where the
// version strings live), the largest first — Electron's executable dwarfs
// chrome-sandbox and the crash handler. "" when none is there.
func electronBinary(dest string, files []ExtractedFile, root string) string {
	resources := path.Dir(root) // …/resources
	if !strings.EqualFold(path.Base(resources), "resources") {
		return ""
	}
	appDir := path.Dir(resources)
	type cand struct {
		p    string
		size int64
	}
	var cands []cand
	for _, f := range files {
		dir := path.Dir(f.Path)
		inFramework := strings.HasPrefix(f.Path, appDir+"/Frameworks/Electron Framework.framework/") && path.Base(f.Path) == "Electron Framework"
		if dir != appDir && !inFramework {
			continue
		}
		if !looksExecutable(filepath.Join(dest, filepath.FromSlash(f.Path))) {
			continue
		}
		cands = append(cands, cand{f.Path, f.Size})
	}
	if len(cands) == 0 {
		return ""
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].size != cands[j].size {
			return cands[i].size > cands[j].size
		}
		return cands[i].p < cands[j].p
	})
	return cands[0].p
}

// looksExecutable reports whether a file starts like an ELF, PE or Mach-O.
func looksExecutable(p string) bool {
	f, err := regularfile.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	var m [4]byte
	if n, _ := f.Read(m[:]); n < 4 {
		return false
	}
	switch string(m[:]) {
	case "\x7fELF", "\xcf\xfa\xed\xfe", "\xce\xfa\xed\xfe", "\xca\xfe\xba\xbe", "\xfe\xed\xfa\xcf":
		return true
	}
	return m[0] == 'M' && m[1] == 'Z'
}
