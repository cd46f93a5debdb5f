package magic_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"rea/analysis/artifact/container"
	"rea/analysis/artifact/magic"
)

// at returns size bytes with parts written at their offsets.
func at(size int, parts ...any) []byte {
	b := make([]byte, size)
	for i := 0; i < len(parts); i += 2 {
		copy(b[parts[i].(int):], parts[i+1].(string))
	}
	return b
}

func squashfs() []byte {
	b := at(4096, 0, "hsqs")
	binary.LittleEndian.PutUint16(b[28:], 4)
	return b
}

func dmg() []byte {
	b := at(8192)
	copy(b[len(b)-512:], "koly")
	binary.BigEndian.PutUint32(b[len(b)-508:], 4)
	binary.BigEndian.PutUint32(b[len(b)-504:], 512)
	return b
}

// Each format's magic numbers route to its name, and the host's answer is
// the artifact module's own (container.SniffPackage), so the two cannot
// drift apart.
func TestPackageNamesEachFormatLikeTheContainerReader(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"deb", at(1024, 0, "!<arch>\ndebian-binary   "), magic.Deb},
		{"rpm", at(1024, 0, "\xed\xab\xee\xdb", 96, "\x8e\xad\xe8\x01"), magic.RPM},
		{"appimage type 2", at(1024, 0, "\x7fELF\x02\x01\x01\x00AI\x02"), magic.AppImage},
		{"appimage type 1", at(1024, 0, "\x7fELF\x02\x01\x01\x00AI\x01"), magic.AppImage},
		{"squashfs", squashfs(), magic.Squashfs},
		{"zip", at(1024, 0, "PK\x03\x04"), magic.Zip},
		{"empty zip", at(22, 0, "PK\x05\x06"), magic.Zip},
		{"gzip", at(1024, 0, "\x1f\x8b\x08"), magic.TarGz},
		{"tar", at(1024, 0, "app/", 257, "ustar"), magic.Tar},
		{"7z", at(1024, 0, "7z\xbc\xaf\x27\x1c"), magic.SevenZip},
		{"nsis", at(4096, 0, "MZ", 1024+4, "\xef\xbe\xad\xdeNullsoftInst"), magic.NSIS},
		{"nsis header off a 512-byte boundary", at(4096, 0, "MZ", 1000+4, "\xef\xbe\xad\xdeNullsoftInst"), ""},
		{"dmg", dmg(), magic.DMG},
		{"encrypted dmg", at(4096, 0, "encrcdsa\x00\x00\x00\x02"), magic.DMG},
		{"bare hfs+", at(4096, 1024, "H+\x00\x04"), magic.HFSPlus},
		{"bare hfsx", at(4096, 1024, "HX\x00\x05"), magic.HFSPlus},
		{"hfs+ of another version", at(4096, 1024, "H+\x00\x05"), ""},
		{"volume header cut short", at(1027, 1024, "H+\x00"), ""},
		{"bare apfs", at(4096, 32, "NXSB"), magic.APFS},
		{"ELF with a volume signature in its code", at(4096, 0, "\x7fELF\x02\x01\x01", 32, "NXSB", 1024, "H+\x00\x04"), ""},
		{"Mach-O with a volume signature in its code", at(4096, 0, "\xcf\xfa\xed\xfe", 1024, "H+\x00\x04"), ""},
		{"plain ELF", at(1024, 0, "\x7fELF\x02\x01\x01"), ""},
		{"plain PE", at(1024, 0, "MZ"), ""},
		{"asar", at(1024, 0, "\x04\x00\x00\x00\x10\x00\x00\x00"), ""},
		{"empty", nil, ""},
		{"text", []byte("hello world"), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := bytes.NewReader(c.data)
			got := magic.Package(r, int64(len(c.data)))
			if got != c.want {
				t.Errorf("Package = %q, want %q", got, c.want)
			}
			if reader := container.SniffPackage(r, int64(len(c.data))); reader != got {
				t.Errorf("the host routes %q but the container reader sniffs %q", got, reader)
			}
		})
	}
}
