package container

import (
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"

	"rea/abi"
	"rea/analysis/artifact/inventory"
)

// FuzzInventoryArchive feeds arbitrary bytes, as every format, to the
// inventory: it must never panic, every failure must be typed, and every
// range it accepts must lie inside the file.
func FuzzInventoryArchive(f *testing.F) {
	f.Add([]byte("PK\x05\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"), uint8(0))
	f.Add([]byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"), uint8(3))
	f.Add(rawASAR(`{"files":{"a":{"size":1,"offset":"0"}}}`, []byte("x")), uint8(1))
	members := []member{{name: "d/", mode: fs.ModeDir | 0o755}, {name: "d/a.txt", body: "hello hello hello", deflate: true},
		{name: "l", body: "d/a.txt", mode: fs.ModeSymlink | 0o777}}
	f.Add(makeZip(f, members...), uint8(2))
	f.Add(makeTar(f, false, members...), uint8(3))
	f.Add(makeTar(f, true, members...), uint8(4))
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		formats := []string{"", inventory.FormatASAR, inventory.FormatZip, inventory.FormatTar, inventory.FormatTarGz}
		format := formats[int(which)%len(formats)]
		fsys := fstest.MapFS{"x": {Data: data, Mode: fs.FileMode(0o644)}}
		res, err := Inventory(fsys, "x", format, inventory.Limits{MaxEntries: 200, MaxTotalBytes: 1 << 20, MaxDepth: 8}, nil)
		if err != nil {
			var ae *abi.Error
			if !errors.As(err, &ae) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		for _, e := range res.Entries {
			if e.Data == nil || e.Data.Compression == inventory.CompressionGzipStream {
				continue
			}
			if e.Data.Offset < 0 || e.Data.Length < 0 || e.Data.End() > int64(len(data)) {
				t.Fatalf("range %+v outside a %d-byte file", e.Data, len(data))
			}
		}
	})
}
