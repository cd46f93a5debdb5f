package container

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"rea/abi"
	"rea/analysis/artifact/inventory"
)

// Inventory lists the input called name (a slash path inside fsys, "." for
// fsys itself) and every archive a directory input holds, up to the depth
// limit. format is one of the inventory.Format* constants; "" or "auto"
// decides from the input. progress, when not nil, hears about every
// thousand entries.
func Inventory(fsys fs.FS, name, format string, lim inventory.Limits, progress func(abi.Progress)) (*inventory.Result, error) {
	return InventoryStreams(fsys, nil, name, format, lim, progress)
}

// InventoryStreams is Inventory reading compressed streams (a .deb's
// data.tar.*, an RPM payload, a tar.gz) from the decoded copies streams
// serves under inventory.StreamName names, so it reads only headers and
// can expand the archives those streams hold (an app.asar in a .deb).
// streams nil decodes them here instead.
func InventoryStreams(fsys, streams fs.FS, name, format string, lim inventory.Limits, progress func(abi.Progress)) (*inventory.Result, error) {
	return InventoryWith(fsys, name, format, lim, Options{Streams: streams}, progress)
}

// Options say where an inventory reads decoded streams from, how deep it
// goes, and what the caller checks for it.
type Options struct {
	// Streams serves the host's decoded copies of compressed streams, as
	// for InventoryStreams; nil decodes them here.
	Streams fs.FS
	// TopLevelOnly lists the input's own entries and leaves the archives
	// among them unexpanded, listed and hashed as files. It is for callers
	// that read only the top level — the JavaScript analysis analyses the
	// files of the input itself, never those inside an archive it holds —
	// which then neither pay for the archives' members nor fail on a
	// malformed one (a test fixture's corrupt zip).
	TopLevelOnly bool
	// HostChecksums: the caller verifies the checksums containers
	// declare over their file (inventory.Container.Checksum) while it
	// hashes that file, so the lister declares them instead of reading
	// the file for them (inventory.Request.HostChecksums).
	HostChecksums bool
}

// InventoryWith is InventoryStreams with Options.
func InventoryWith(fsys fs.FS, name, format string, lim inventory.Limits, opts Options, progress func(abi.Progress)) (*inventory.Result, error) {
	streams := opts.Streams
	if err := lim.Validate(); err != nil {
		return nil, err
	}
	lim = lim.WithDefaults()
	if !fs.ValidPath(name) {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "input %q is not a slash path relative to the mount", name).WithDetail("field", "input")
	}
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "cannot read input %q: %v; check that the path exists and is readable", name, err).WithDetail("field", "input")
	}
	b := newBuilder(lim, progress)
	b.streams = streams
	b.topOnly = opts.TopLevelOnly
	b.hostChecksums = opts.HostChecksums
	if format == "" || format == inventory.FormatAuto {
		if info.IsDir() {
			format = inventory.FormatDirectory
		}
	}
	if format == inventory.FormatDirectory {
		if !info.IsDir() {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "input %q is not a directory", name).WithDetail("field", "format")
		}
		b.res.Format = format
		s, err := b.openContainer(inventory.Container{Parent: -1, Entry: -1, File: name, Format: format})
		if err != nil {
			return nil, err
		}
		if err := walkDir(s, fsys, name, 0); err != nil {
			return nil, err
		}
		noteDiskImages(b.res)
		return b.finish(), nil
	}
	if !info.Mode().IsRegular() {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "input %q is neither a regular file nor a directory", name).WithDetail("field", "input")
	}
	f, ra, err := openReaderAt(fsys, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if format == "" || format == inventory.FormatAuto {
		format = sniff(ra, info.Size())
		if format == "" {
			if _, err := unsupportedFormat(ra, info.Size(), name); err != nil {
				return nil, err
			}
			if looksNative(ra) {
				return nil, abi.Errorf(abi.CodeArtifactOperationFailed,
					"input %q is a native executable, not a container; read it with binary_overview (rea analyze)", name)
			}
			return nil, abi.Errorf(abi.CodeArtifactOperationFailed,
				"input %q is not a recognised container (ASAR, zip, tar, tar.gz, deb, rpm, AppImage, squashfs, 7z, NSIS installer, HFS+ disk image (.dmg) or directory); if it is one, name its format (format; CLI --archive-format)", name)
		}
	}
	b.res.Format = format
	if _, err := listArchive(b, ra, info.Size(), name, format, -1, -1, 0); err != nil {
		return nil, err
	}
	noteDiskImages(b.res)
	return b.finish(), nil
}

func openReaderAt(fsys fs.FS, name string) (fs.File, io.ReaderAt, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot open %q: %v", name, err).WithDetail("path", name)
	}
	ra, ok := f.(io.ReaderAt)
	if !ok {
		f.Close()
		return nil, nil, abi.Errorf(abi.CodeInternal, "the mount cannot read %q at offsets; mount the input through an fs.FS whose files implement io.ReaderAt", name)
	}
	return f, ra, nil
}

// listArchive lists one archive file as a new container and returns its
// index.
func listArchive(b *builder, ra io.ReaderAt, size int64, file, format string, parent, entry, depth int) (int, error) {
	return listArchiveAs(b, ra, size, file, file, format, parent, entry, depth)
}

// listArchiveAs is listArchive naming the container name in its errors
// (a member's path when file is the outer file holding it).
func listArchiveAs(b *builder, ra io.ReaderAt, size int64, file, name, format string, parent, entry, depth int) (int, error) {
	s, err := b.openContainer(inventory.Container{Parent: parent, Entry: entry, File: file, Format: format, Depth: depth})
	if err != nil {
		return 0, err
	}
	switch format {
	case inventory.FormatASAR:
		err = listASAR(s, ra, size, file)
	case inventory.FormatZip:
		err = listZip(s, ra, size, file)
	case inventory.FormatTar:
		err = listTar(s, ra, size, file)
	case inventory.FormatTarGz:
		err = listTarGz(s, ra, size, file)
	case inventory.FormatDeb:
		err = listDeb(s, ra, size, file)
	case inventory.FormatRPM:
		err = listRPM(s, ra, size, file)
	case inventory.FormatAppImage:
		err = listAppImage(s, ra, size, file)
	case inventory.FormatSquashfs:
		err = listSquashfs(s, ra, size, 0, file)
	case inventory.FormatSevenZip:
		err = listSevenZip(s, ra, 0, size, file)
	case inventory.FormatNSIS:
		err = listNSIS(s, ra, size, file)
	case inventory.FormatDMG:
		err = listDMG(s, ra, size, file)
	default:
		return 0, abi.Errorf(abi.CodeInvalidRequest, "unknown container format %q; use asar, zip, tar, tar.gz, deb, rpm, appimage, squashfs, 7z, nsis, dmg, directory or auto", format).WithDetail("field", "format")
	}
	if err != nil {
		return 0, inContainer(err, name, depth)
	}
	return s.index, nil
}

// inContainer adds which nested container an error comes from.
func inContainer(err error, file string, depth int) error {
	var ae *abi.Error
	if depth == 0 || !errors.As(err, &ae) {
		return err
	}
	out := *ae
	out.Message = fmt.Sprintf("in nested container %q: %s", file, ae.Message)
	out = *out.WithDetail("container", file)
	return &out
}

// sniff names the format from magic bytes, or "" when none matches.
func sniff(ra io.ReaderAt, size int64) string {
	var head [512]byte
	n, _ := ra.ReadAt(head[:], 0)
	h := head[:n]
	switch {
	case isDMG(ra, size): // a UDIF image is known by its trailer
		return inventory.FormatDMG
	case n >= 16 && binary.LittleEndian.Uint32(h) == 4 && int64(binary.LittleEndian.Uint32(h[4:]))+8 <= size:
		return inventory.FormatASAR
	case bytes.HasPrefix(h, []byte("PK\x03\x04")) || bytes.HasPrefix(h, []byte("PK\x05\x06")):
		return inventory.FormatZip
	case sniffDeb(h):
		return inventory.FormatDeb
	case sniffRPM(h):
		return inventory.FormatRPM
	case sniffAppImage(h):
		return inventory.FormatAppImage
	case sniffSquashfs(h):
		return inventory.FormatSquashfs
	case bytes.HasPrefix(h, []byte{0x1f, 0x8b}):
		return inventory.FormatTarGz
	case n >= 262 && string(h[257:262]) == "ustar":
		return inventory.FormatTar
	case sniffSevenZip(h):
		return inventory.FormatSevenZip
	case bytes.HasPrefix(h, []byte("MZ")) && nsisOffset(ra, size) >= 0:
		return inventory.FormatNSIS
	}
	return ""
}

// looksNative reports whether the input starts like an ELF, PE or Mach-O
// executable, which the native tools read instead.
func looksNative(ra io.ReaderAt) bool {
	var m [4]byte
	if n, _ := ra.ReadAt(m[:], 0); n < 4 {
		return false
	}
	switch {
	case string(m[:]) == "\x7fELF", m[0] == 'M' && m[1] == 'Z':
		return true
	}
	switch binary.BigEndian.Uint32(m[:]) {
	case 0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe, 0xbebafeca:
		return true
	}
	return false
}

// nestedFormat decides whether a file found in a directory input is an
// archive to expand: by name first, then by magic bytes (for a tar.gz,
// the first tar header too: a gzip file named .tar.gz that does not hold
// a tar stays a file).
func nestedFormat(name string, ra io.ReaderAt, size int64) string {
	want := formatByName(name)
	if want != "" && sniff(ra, size) == want && (want != inventory.FormatTarGz || gzipHoldsTar(ra, size)) {
		return want
	}
	return ""
}

// formatByName names the archive format a directory input expands for a
// file name, or "" for names that are not expanded. A tar.gz is named by
// its full suffix: a plain .gz (a .deb's changelog.gz) is not a tar.
func formatByName(name string) string {
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".tar.gz") || strings.HasSuffix(lower, ".tgz") {
		return inventory.FormatTarGz
	}
	switch path.Ext(lower) {
	case ".tar":
		return inventory.FormatTar
	case ".asar":
		return inventory.FormatASAR
	case ".deb":
		return inventory.FormatDeb
	case ".rpm":
		return inventory.FormatRPM
	case ".appimage":
		return inventory.FormatAppImage
	case ".squashfs", ".sqfs", ".snap":
		return inventory.FormatSquashfs
	case ".7z":
		return inventory.FormatSevenZip
	case ".zip", ".jar", ".apk", ".ipa", ".xpi", ".crx", ".nupkg", ".vsix", ".whl", ".aar", ".appx", ".msix":
		return inventory.FormatZip
	}
	return ""
}

// walkDir lists a directory through fsys. Links are recorded with their
// targets, never followed; archives are expanded as nested containers.
func walkDir(s *scope, fsys fs.FS, root string, depth int) error {
	return fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return abi.Errorf(abi.CodeArtifactOperationFailed, "cannot read %q in the input directory: %v", p, err).WithDetail("path", p)
		}
		if p == root {
			return nil
		}
		rel := p
		if root != "." {
			rel = strings.TrimPrefix(p, root+"/")
		}
		norm, err := s.normalize(rel)
		if err != nil {
			return err
		}
		t := d.Type()
		switch {
		case d.IsDir():
			_, err = s.add(inventory.Entry{Path: norm, Kind: inventory.KindDirectory})
			return err
		case t&fs.ModeSymlink != 0:
			link := &inventory.Link{Unread: true}
			// A WASI mount may not offer readlink; the host then reads the
			// target itself.
			if target, err := fs.ReadLink(fsys, p); err == nil {
				link = inventory.NewLink(target, path.Dir(norm))
			}
			_, err = s.add(inventory.Entry{Path: norm, Kind: inventory.KindLink, Link: link})
			return err
		case !t.IsRegular():
			return abi.Errorf(abi.CodeArtifactOperationFailed,
				"%q is a %s, not a regular file, directory or link; remove it from the input or inventory a copy without it", p, specialKind(t)).
				WithDetail("path", norm)
		}
		info, err := d.Info()
		if err != nil {
			return abi.Errorf(abi.CodeArtifactOperationFailed, "cannot stat %q: %v", p, err).WithDetail("path", norm)
		}
		size := info.Size()
		idx, err := s.add(inventory.Entry{Path: norm, Kind: inventory.KindFile, Size: size,
			Executable: info.Mode()&0o111 != 0, Data: &inventory.Range{File: p, Offset: 0, Length: size}})
		if err != nil {
			return err
		}
		return expandNested(s, fsys, p, size, idx, depth)
	})
}

// specialKind names a file type that is neither a file, a directory nor a
// link, in words (fs.FileMode's String spells a device "Dc---------").
func specialKind(t fs.FileMode) string {
	switch {
	case t&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case t&fs.ModeSocket != 0:
		return "Unix socket"
	case t&fs.ModeCharDevice != 0:
		return "character device"
	case t&fs.ModeDevice != 0:
		return "block device"
	case t&fs.ModeIrregular != 0:
		return "file of unknown type"
	}
	return "special file"
}

// expandNested lists an archive found in a directory as a child container.
func expandNested(s *scope, fsys fs.FS, p string, size int64, idx, depth int) error {
	if s.b.topOnly {
		return nil
	}
	if formatByName(p) == "" {
		return nil
	}
	f, ra, err := openReaderAt(fsys, p)
	if err != nil {
		return err
	}
	defer f.Close()
	format := nestedFormat(p, ra, size)
	if format == "" {
		return nil
	}
	child, err := listArchive(s.b, ra, size, p, format, s.index, idx, depth+1)
	if err != nil {
		return err
	}
	s.b.res.Entries[idx].Nested = child
	return nil
}

// archiveName turns a name as archives write it ("./a/b/", "a/b") into a
// candidate path: one leading "./" and one trailing "/" are conventional and
// dropped; everything else is left for the normaliser to judge.
func archiveName(name string) (string, bool) {
	dir := strings.HasSuffix(name, "/")
	name = strings.TrimSuffix(name, "/")
	for strings.HasPrefix(name, "./") {
		name = name[2:]
	}
	if name == "." {
		name = ""
	}
	return name, dir
}
