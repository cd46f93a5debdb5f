// Package magic names a package or archive format from its magic numbers
// alone. The host uses it to route `rea analyze FILE` to the installer path
// before any module runs; it reads a few fixed offsets and a bounded
// signature scan, and parses no structure (the artifact module does that).
package magic

import (
	"bytes"
	"encoding/binary"
	"io"
)

// Package format names, as the artifact inventory spells them.
const (
	Deb      = "deb"
	RPM      = "rpm"
	AppImage = "appimage"
	Squashfs = "squashfs"
	Zip      = "zip"
	TarGz    = "tar.gz"
	Tar      = "tar"
	SevenZip = "7z"
	NSIS     = "nsis"
	DMG      = "dmg"
	// HFSPlus and APFS are bare disk-image volumes (what dmg2img writes).
	HFSPlus = "hfs+"
	APFS    = "apfs"
)

// nsisScanBytes bounds the search for NSIS's first header, which sits at a
// 512-byte boundary after the installer stub.
const nsisScanBytes = 16 << 20

// Package names the package or archive format the bytes start like
// (including those rea recognises but cannot read), or "" for anything
// else: a plain executable, an ASAR, unknown bytes.
func Package(ra io.ReaderAt, size int64) string {
	var head [512]byte
	n, _ := ra.ReadAt(head[:], 0)
	h := head[:n]
	switch {
	case bytes.HasPrefix(h, []byte("!<arch>\ndebian-binary")):
		return Deb
	case len(h) >= 100 && string(h[:4]) == "\xed\xab\xee\xdb" && string(h[96:99]) == "\x8e\xad\xe8":
		return RPM
	case len(h) >= 11 && string(h[:4]) == "\x7fELF" && (string(h[8:11]) == "AI\x02" || string(h[8:11]) == "AI\x01"):
		return AppImage
	case len(h) >= 30 && string(h[:4]) == "hsqs" && binary.LittleEndian.Uint16(h[28:]) == 4:
		return Squashfs
	case bytes.HasPrefix(h, []byte("PK\x03\x04")), bytes.HasPrefix(h, []byte("PK\x05\x06")):
		return Zip
	case bytes.HasPrefix(h, []byte{0x1f, 0x8b}):
		return TarGz
	case n >= 262 && string(h[257:262]) == "ustar":
		return Tar
	case bytes.HasPrefix(h, []byte("7z\xbc\xaf\x27\x1c")):
		return SevenZip
	case bytes.HasPrefix(h, []byte("MZ")) && nsisHeader(ra, size):
		return NSIS
	case dmgTrailer(ra, size), bytes.HasPrefix(h, []byte("encrcdsa")):
		return DMG
	}
	if native(h) { // an executable's bytes at 32 and 1024 are code, not a volume header
		return ""
	}
	var v [1028]byte
	if n, _ := ra.ReadAt(v[:], 0); n == len(v) && (string(v[1024:]) == "H+\x00\x04" || string(v[1024:]) == "HX\x00\x05") {
		return HFSPlus
	}
	if n >= 36 && string(h[32:36]) == "NXSB" {
		return APFS
	}
	return ""
}

// native reports whether h starts like an ELF, PE or Mach-O executable.
func native(h []byte) bool {
	if len(h) < 4 {
		return false
	}
	switch {
	case string(h[:4]) == "\x7fELF", h[0] == 'M' && h[1] == 'Z':
		return true
	}
	switch binary.BigEndian.Uint32(h) {
	case 0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe, 0xbebafeca:
		return true
	}
	return false
}

// nsisHeader looks for NSIS's first header (0xDEADBEEF "NullsoftInst"
// after a flags word) at 512-byte boundaries in the first nsisScanBytes.
func nsisHeader(ra io.ReaderAt, size int64) bool {
	sig := []byte("\xef\xbe\xad\xdeNullsoftInst")
	buf := make([]byte, 64<<10)
	for base := int64(0); base < min(size, nsisScanBytes); base += int64(len(buf)) {
		n, _ := ra.ReadAt(buf, base)
		for i := 0; i+4+len(sig) <= n; i += 512 {
			if bytes.Equal(buf[i+4:i+4+len(sig)], sig) {
				return true
			}
		}
		if n < len(buf) {
			break
		}
	}
	return false
}

// dmgTrailer recognises a UDIF disk image by its 512-byte "koly" trailer
// (an encrypted image starts with "encrcdsa" instead).
func dmgTrailer(ra io.ReaderAt, size int64) bool {
	if size < 512 {
		return false
	}
	var t [12]byte
	if n, _ := ra.ReadAt(t[:], size-512); n < len(t) {
		return false
	}
	return string(t[:4]) == "koly" && binary.BigEndian.Uint32(t[4:]) == 4 && binary.BigEndian.Uint32(t[8:]) == 512
}
