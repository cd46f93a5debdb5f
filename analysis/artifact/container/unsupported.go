package container

import (
	"encoding/binary"
	"io"

	"rea/abi"
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
	if isDMG(ra, size) {
		return "dmg", abi.Errorf(abi.CodeCapabilityUnavailable,
			"%q is an Apple disk image (UDIF); rea does not read disk images (the HFS+/APFS file system inside its compressed chunks needs a file-system reader rea does not have); on macOS mount it (hdiutil attach -readonly) or convert it with `7z x`, then analyse X.app", name).
			WithDetail("format", "dmg")
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

// isDMG recognises a UDIF image by its 512-byte "koly" trailer.
func isDMG(ra io.ReaderAt, size int64) bool {
	if size < 512 {
		return false
	}
	var t [12]byte
	if n, _ := ra.ReadAt(t[:], size-512); n < len(t) {
		return false
	}
	return string(t[:4]) == "koly" && binary.BigEndian.Uint32(t[4:]) == 4 && binary.BigEndian.Uint32(t[8:]) == 512
}

// SniffPackage names the package or archive format the bytes start like
// (including those rea recognises but cannot read: type-1 AppImages, dmg), or ""
// for anything else (a plain executable, an ASAR, unknown bytes). The host
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
