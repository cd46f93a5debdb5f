package container

import (
	"encoding/binary"
	"fmt"
	"io"
	"path"
	"strings"

	"rea/abi"
	"rea/analysis/artifact/inventory"
)

// Formats rea recognises but cannot list, each with why and what to do
// instead: a typed capability_unavailable rather than "not a container".
const (
	sevenZipMagic = "7z\xbc\xaf\x27\x1c"
	// nsisSignature is NSIS's first header: flags, then 0xDEADBEEF and
	// "NullsoftInst", at a 512-byte boundary after the installer stub.
	nsisSignature = "\xef\xbe\xad\xdeNullsoftInst"
	// nsisScanBytes bounds the search for the NSIS header (the stub is
	// tens of KiB; signed installers put the certificate at the end).
	nsisScanBytes = 16 << 20
)

// unsupportedFormat names a recognised but unreadable format and the error
// that explains it, or "" when the input is none of them.
func unsupportedFormat(ra io.ReaderAt, size int64, name string) (string, error) {
	var head [512]byte
	n, _ := ra.ReadAt(head[:], 0)
	h := head[:n]
	switch {
	case len(h) >= 11 && string(h[:4]) == "\x7fELF" && string(h[8:11]) == "AI\x01":
		return "appimage", abi.Errorf(abi.CodeCapabilityUnavailable,
			"%q is a type 1 AppImage (an ISO 9660 image); rea reads type 2 AppImages (squashfs); extract it with `%s --appimage-extract` on a disposable machine, or 7z x", name, name).
			WithDetail("format", "appimage")
	}
	if f, err := diskImage(ra, size, name); f != "" {
		return f, err
	}
	return "", nil
}

// nsisOffset finds the NSIS first header at a 512-byte boundary, or -1.
func nsisOffset(ra io.ReaderAt, size int64) int64 {
	buf := make([]byte, 64<<10)
	for base := int64(0); base < min(size, nsisScanBytes); base += int64(len(buf)) {
		n, _ := ra.ReadAt(buf, base)
		for i := 0; i+4+len(nsisSignature) <= n; i += 512 {
			if string(buf[i+4:i+4+len(nsisSignature)]) == nsisSignature {
				return base + int64(i)
			}
		}
		if n < len(buf) {
			break
		}
	}
	return -1
}

// Disk images rea recognises and refuses: encrypted images and bare
// volumes. A UDIF image is read (udif.go, hfsplus.go) unless its volume
// is APFS; its trailer and property list are bounded here.
const (
	// udifTrailerSize is the "koly" trailer ending every UDIF image.
	udifTrailerSize = 512
	// udifMaxPlistBytes bounds the XML property list read to name the
	// image's partitions (hdiutil writes a few KiB per partition).
	udifMaxPlistBytes = 16 << 20
	// encryptedDMGMagic starts an encrypted disk image (hdiutil
	// -encryption; version 2 of Apple's encrypted image header).
	encryptedDMGMagic = "encrcdsa"
)

// diskImage names an Apple disk image rea does not read — an encrypted
// one, or a bare HFS+/APFS volume (what dmg2img or `7z x -tdmg` writes) —
// and the capability_unavailable error that says what it is and how to
// get at the application inside; "" when the input is none of them.
func diskImage(ra io.ReaderAt, size int64, name string) (string, error) {
	next := fmt.Sprintf("to analyse the application inside, extract it with 7-Zip, which reads UDIF, HFS+ and APFS (Debian: apt-get install p7zip-full; `7z x %s -oDIR`), or mount it read-only on macOS (hdiutil attach -readonly -nobrowse %s), then run `rea analyze DIR/<volume>/X.app/Contents/Resources/app.asar` (or app/) and `rea inspect-electron-binary` on X.app/Contents/Frameworks/Electron Framework.framework/Electron Framework",
		shellQuote(name), shellQuote(name))
	switch {
	case isEncryptedDMG(ra):
		return "dmg", abi.Errorf(abi.CodeCapabilityUnavailable,
			"%q is an encrypted Apple disk image (%q header); rea cannot decrypt a disk image; on macOS convert it with its passphrase (hdiutil convert -format UDZO -o plain.dmg %s), then %s", name, encryptedDMGMagic, shellQuote(name), next).
			WithDetail("format", "dmg").WithDetail("encrypted", true)
	}
	if fs := bareVolume(ra); fs != "" {
		return fs, abi.Errorf(abi.CodeCapabilityUnavailable,
			"%q is a bare %s volume (a disk image's file system, as dmg2img or `7z x -tdmg` writes it); rea reads HFS+ inside a UDIF disk image (.dmg), not a bare volume; %s", name, volumeNames[fs], next).
			WithDetail("format", fs)
	}
	return "", nil
}

// volumeNames spells the bare volume formats for messages.
var volumeNames = map[string]string{"hfs+": "HFS+", "apfs": "APFS"}

// isDMG recognises a UDIF image by its 512-byte "koly" trailer.
func isDMG(ra io.ReaderAt, size int64) bool {
	if size < udifTrailerSize {
		return false
	}
	var t [12]byte
	if n, _ := ra.ReadAt(t[:], size-udifTrailerSize); n < len(t) {
		return false
	}
	return string(t[:4]) == "koly" && binary.BigEndian.Uint32(t[4:]) == 4 && binary.BigEndian.Uint32(t[8:]) == udifTrailerSize
}

// isEncryptedDMG recognises hdiutil's encrypted image header.
func isEncryptedDMG(ra io.ReaderAt) bool {
	var m [8]byte
	n, _ := ra.ReadAt(m[:], 0)
	return n == len(m) && string(m[:]) == encryptedDMGMagic
}

// bareVolume recognises an HFS+/HFSX volume header (at 1024) or an APFS
// container superblock (magic at 32) at the start of the input — never in
// a file that starts like an executable, whose bytes there are code.
func bareVolume(ra io.ReaderAt) string {
	if looksNative(ra) {
		return ""
	}
	var h [1028]byte
	n, _ := ra.ReadAt(h[:], 0)
	switch {
	case n >= 1028 && isHFSPlusSignature(string(h[1024:1028])):
		return "hfs+"
	case n >= 36 && string(h[32:36]) == "NXSB":
		return "apfs"
	}
	return ""
}

// shellQuote quotes a name for a command line a user may paste.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// SniffPackage names the package or archive format the bytes start like
// ("dmg" for a UDIF image, whatever its volume; also those rea recognises
// but cannot read: type-1 AppImages, encrypted disk images and bare
// HFS+/APFS volumes), or "" for anything else (a plain executable, an ASAR, unknown bytes). The host
// uses it to route `rea analyze FILE`; it reads magic numbers only.
func SniffPackage(ra io.ReaderAt, size int64) string {
	switch f := sniff(ra, size); f {
	case "", "asar":
	default:
		return f
	}
	f, _ := unsupportedFormat(ra, size, "")
	return f
}

// noteDiskImages adds a limitation naming the Apple disk images (.dmg)
// the inventory lists as plain files inside a directory or another
// container: rea opens a disk image given as the input only (it sees a
// nested entry's first bytes, and UDIF's magic is in its last 512), so
// the application such a .dmg holds is in nobody's inventory and the
// coverage is partial, not complete.
func noteDiskImages(res *inventory.Result) {
	var first string
	n := 0
	for i, e := range res.Entries {
		if e.Kind == inventory.KindFile && strings.EqualFold(path.Ext(e.Path), ".dmg") {
			if n++; n == 1 {
				first = logicalPath(res, i)
			}
		}
	}
	if n > 0 {
		res.Limitations = append(res.Limitations, fmt.Sprintf(
			"%d Apple disk image(s) (.dmg) were listed and hashed but not opened (first: %s): rea reads a disk image given as the input, not one held in a directory or another container, so the files inside them are in no inventory; extract the image (extract_artifact) and inspect it", n, first))
	}
}

// logicalPath names entry i through the containers that hold it
// ("app.zip!/dist/X.dmg").
func logicalPath(res *inventory.Result, i int) string {
	p := res.Entries[i].Path
	for c, hops := res.Entries[i].Container, 0; c > 0 && c < len(res.Containers) && hops <= len(res.Containers); hops++ {
		e := res.Containers[c].Entry
		if e < 0 || e >= len(res.Entries) {
			break
		}
		p = res.Entries[e].Path + "!/" + p
		c = res.Entries[e].Container
	}
	return p
}
