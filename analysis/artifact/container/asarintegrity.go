package container

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"rea/abi"
	"rea/analysis/artifact/inventory"
)

// The asar_integrity operation's wire types live in the inventory package,
// which the host links; these names keep the reader's code short.
const IntegrityOperation = inventory.IntegrityOperation

type (
	IntegrityRequest = inventory.IntegrityRequest
	IntegrityResult  = inventory.IntegrityResult
	IntegrityCheck   = inventory.IntegrityCheck
)

// maxPlistBytes bounds the Info.plist read (real ones are a few KiB).
const maxPlistBytes = 4 << 20

// CheckASARIntegrity reads Contents/Info.plist's ElectronAsarIntegrity
// (electron-builder and Electron Forge write {"Resources/app.asar":
// {algorithm: SHA256, hash: hex}}) and compares each hash with the
// SHA-256 of that archive's JSON header string, which is what Electron
// checks at startup when the EnableEmbeddedAsarIntegrityValidation fuse is
// on.
func CheckASARIntegrity(fsys fs.FS, contents string, lim inventory.Limits) (*IntegrityResult, error) {
	lim = lim.WithDefaults()
	if !fs.ValidPath(contents) {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "contents %q is not a slash path relative to the mount", contents).WithDetail("field", "contents")
	}
	res := &IntegrityResult{Checks: []IntegrityCheck{}, Limits: lim, Notes: []string{}}
	plist := path.Join(contents, "Info.plist")
	f, err := fsys.Open(plist)
	if err != nil {
		res.Notes = append(res.Notes, "no Info.plist, so no ElectronAsarIntegrity is declared")
		return res, nil
	}
	raw, err := io.ReadAll(io.LimitReader(f, maxPlistBytes+1))
	f.Close()
	if err != nil {
		return nil, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot read %s: %v", plist, err)
	}
	if len(raw) > maxPlistBytes {
		return nil, limitError("max_header_bytes", maxPlistBytes, int64(len(raw)), "Info.plist is larger than rea reads")
	}
	if bytes.HasPrefix(raw, []byte("bplist")) {
		res.Notes = append(res.Notes, "Info.plist is a binary property list, which rea does not read; the declared ASAR integrity is unknown")
		return res, nil
	}
	decl, found, err := plistIntegrity(raw)
	if err != nil {
		return nil, malformedf("Info.plist is not a readable XML property list: %v", err)
	}
	if !found {
		res.Notes = append(res.Notes, "Info.plist declares no ElectronAsarIntegrity: Electron has no hash to check the archives against")
		return res, nil
	}
	res.Declared = true
	names := make([]string, 0, len(decl))
	for k := range decl {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		d := decl[name]
		res.Checks = append(res.Checks, checkDeclared(fsys, contents, name, d, lim))
	}
	return res, nil
}

// CheckDeclaredASARIntegrity compares the header hashes an executable
// embeds (a Windows INTEGRITY resource, read by the native module) with
// the archives they name, relative to the mount.
func CheckDeclaredASARIntegrity(fsys fs.FS, declared []inventory.DeclaredArchive, lim inventory.Limits) (*IntegrityResult, error) {
	lim = lim.WithDefaults()
	if len(declared) > 1024 {
		return nil, limitError("max_entries", 1024, int64(len(declared)), "the executable declares the integrity of more archives than rea checks")
	}
	res := &IntegrityResult{Declared: true, Checks: []IntegrityCheck{}, Limits: lim, Notes: []string{}}
	for _, d := range declared {
		res.Checks = append(res.Checks, checkDeclared(fsys, ".", d.Archive, declaredHash{algorithm: d.Algorithm, hash: d.Hash}, lim))
	}
	return res, nil
}

// checkDeclared hashes the header of archive name under dir and compares
// it with what d declares.
func checkDeclared(fsys fs.FS, dir, name string, d declaredHash, lim inventory.Limits) IntegrityCheck {
	c := IntegrityCheck{Archive: name, Algorithm: d.algorithm, Declared: strings.ToLower(d.hash)}
	p := path.Join(dir, name)
	switch {
	case !strings.EqualFold(d.algorithm, "SHA256"):
		c.Status, c.Detail = "unsupported", fmt.Sprintf("algorithm %q is not SHA256, which is all Electron checks", d.algorithm)
	case !fs.ValidPath(p) || strings.Contains(name, ".."):
		c.Status, c.Detail = "unreadable", "the declared archive path leaves the bundle"
	default:
		c.Observed, c.Status, c.Detail = headerHash(fsys, p, lim)
		if c.Status == "" {
			c.Status = "match"
			if c.Observed != c.Declared {
				c.Status = "mismatch"
				c.Detail = "the archive's header does not hash to the declared value: Electron with integrity validation on refuses to start, and without it loads a modified archive"
			}
		}
	}
	return c
}

// headerHash hashes an ASAR's JSON header string; status is set when the
// archive cannot be hashed.
func headerHash(fsys fs.FS, p string, lim inventory.Limits) (hash, status, detail string) {
	f, ra, err := openReaderAt(fsys, p)
	if err != nil {
		return "", "missing", "the declared archive is not in the bundle"
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", "missing", err.Error()
	}
	header, _, err := readASARHeader(ra, info.Size(), lim.MaxHeaderBytes)
	if err != nil {
		var ae *abi.Error
		if errors.As(err, &ae) {
			return "", "unreadable", ae.Message
		}
		return "", "unreadable", err.Error()
	}
	sum := sha256.Sum256(header)
	return hex.EncodeToString(sum[:]), "", ""
}

type declaredHash struct{ algorithm, hash string }

// plistIntegrity finds the ElectronAsarIntegrity dictionary of an XML
// property list: <key>ElectronAsarIntegrity</key><dict><key>Resources/
// app.asar</key><dict><key>algorithm</key><string>SHA256</string>
// <key>hash</key><string>…</string></dict></dict>.
func plistIntegrity(raw []byte) (map[string]declaredHash, bool, error) {
	dec := xml.NewDecoder(bytes.NewReader(raw))
	dec.Strict = true
	// Entities and DTDs are not expanded by encoding/xml; the DOCTYPE of a
	// plist is skipped as a directive.
	var stack []string
	var lastKey string
	depthOf := -1 // depth of the integrity dict
	out := map[string]declaredHash{}
	found := false
	var archive string
	var field string
	var text strings.Builder
	for tokens := 0; ; tokens++ {
		if tokens > 1_000_000 {
			return nil, false, fmt.Errorf("more than a million XML tokens")
		}
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, false, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) > 64 {
				return nil, false, fmt.Errorf("elements nested deeper than 64")
			}
			stack = append(stack, t.Name.Local)
			text.Reset()
			if t.Name.Local == "dict" && depthOf < 0 && lastKey == "ElectronAsarIntegrity" && len(stack) == 3 {
				depthOf = len(stack)
				found = true
			}
		case xml.CharData:
			if text.Len() < 1<<16 {
				text.Write(t)
			}
		case xml.EndElement:
			name := t.Name.Local
			value := strings.TrimSpace(text.String())
			d := len(stack)
			switch {
			case name == "key" && d == depthOf+1 && depthOf > 0:
				archive = value
			case name == "key" && d == depthOf+2 && depthOf > 0:
				field = value
			case name == "string" && d == depthOf+2 && depthOf > 0 && archive != "":
				h := out[archive]
				switch field {
				case "algorithm":
					h.algorithm = value
				case "hash":
					h.hash = value
				}
				out[archive] = h
			case name == "key":
				lastKey = value
			}
			if name == "dict" && d == depthOf {
				depthOf = -1
			}
			if name != "key" && d <= 3 {
				lastKey = ""
			}
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			text.Reset()
		}
	}
	return out, found, nil
}
