package inventory

import (
	"bytes"
	"encoding/base64"
	"reflect"
	"strings"
	"testing"
)

// squashEntries is an image's file of two data blocks and a fragment
// tail (entry 1) whose archive holds a member read from its blocks.
func squashEntries() []Entry {
	blocks := []Block{{Offset: 96, Length: 900, Size: 4096, Codec: CodecZstd}, {Offset: 996, Length: 4096, Size: 4096},
		{Offset: 0, Length: 0, Size: 4096}, {Offset: 9000, Length: 300, Size: 77, Skip: 20, Whole: 4096, Codec: CodecZstd}}
	holder := Range{File: "x", Offset: 0, Length: 12000, Compression: CompressionBlocks, Blocks: blocks}
	member := Range{File: "x", Offset: 10, Length: 5, Compression: CompressionDeflate}.WithSource(AsBlocksStream(holder, 1, 3*4096+77))
	return []Entry{
		{Path: "d", Kind: KindDirectory, Nested: -1},
		{Path: "d/app.zip", Kind: KindFile, Size: 3*4096 + 77, Data: &holder, Nested: 2},
		{Container: 2, Path: "main.js", Kind: KindFile, Size: 9, Data: &member, Nested: -1},
	}
}

// TestBlocksSourcesCompactAndResolve: on the wire a member's blocks
// stream names its holder instead of repeating its blocks; the host
// puts them back, and the stream's name carries them for the stage.
func TestBlocksSourcesCompactAndResolve(t *testing.T) {
	res := &Result{Entries: squashEntries()}
	full := *res.Entries[2].Data.Source
	res.CompactSources()
	if src := res.Entries[2].Data.Source; src.Blocks != nil || src.BlocksOf == nil || *src.BlocksOf != 1 {
		t.Fatalf("compacted source %+v", src)
	}
	if err := res.ResolveSources(); err != nil {
		t.Fatal(err)
	}
	if got := *res.Entries[2].Data.Source; !reflect.DeepEqual(got, full) {
		t.Fatalf("resolved %+v, want %+v", got, full)
	}
	parsed, ok := ParseStreamRange(StreamNameOf(full))
	if !ok || !reflect.DeepEqual(parsed.Blocks, full.Blocks) || parsed.StreamLength != full.StreamLength {
		t.Fatalf("parsed %+v %v from %q", parsed, ok, StreamNameOf(full))
	}
	// A blocks stream whose holder sits in a decoded stream itself (an
	// AppImage deflated in a zip) reads through the holder's chain.
	res = &Result{Entries: squashEntries()}
	outer := Range{File: "x", Compression: CompressionDeflateStream, StreamOffset: 40, StreamLength: 12000}
	for i := 1; i < 3; i++ {
		d := res.Entries[i].Data.WithSource(outer)
		res.Entries[i].Data = &d
	}
	full = *res.Entries[2].Data.Source
	res.CompactSources()
	if err := res.ResolveSources(); err != nil || !reflect.DeepEqual(*res.Entries[2].Data.Source, full) {
		t.Fatalf("through a deflate stream: %v %+v", err, res.Entries[2].Data.Source)
	}
}

// TestResolveSourcesRefusesBadHolders: the module's answer is not
// trusted; a blocks stream naming anything but an earlier blocks file of
// its size in the same file is refused, and so is one used as an entry's
// own range.
func TestResolveSourcesRefusesBadHolders(t *testing.T) {
	at := func(i int) *int { return &i }
	for name, bad := range map[string]func(es []Entry){
		"holder after":       func(es []Entry) { es[2].Data.Source.BlocksOf = at(2) },
		"holder negative":    func(es []Entry) { es[2].Data.Source.BlocksOf = at(-1) },
		"holder a directory": func(es []Entry) { es[2].Data.Source.BlocksOf = at(0) },
		"no holder":          func(es []Entry) { es[2].Data.Source.BlocksOf = nil },
		"other size":         func(es []Entry) { es[2].Data.Source.StreamLength++ },
		"other file":         func(es []Entry) { es[2].Data.Source.File = "y"; es[2].Data.File = "y" },
		"blocks kept":        func(es []Entry) { es[2].Data.Source.Blocks = es[1].Data.Blocks },
		"holder not blocks":  func(es []Entry) { es[1].Data.Compression = CompressionNone },
		"own range":          func(es []Entry) { es[2].Data = es[2].Data.Source },
		"holder on a deflate": func(es []Entry) {
			d := *es[2].Data
			d.BlocksOf = at(1)
			es[2].Data = &d
		},
	} {
		t.Run(name, func(t *testing.T) {
			res := &Result{Entries: squashEntries()}
			res.CompactSources()
			bad(res.Entries)
			if err := res.ResolveSources(); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}

// TestBlocksNameRefusesWhatItDidNotWrite: names with no blocks, negative
// fields, codec indexes past the table or trailing bytes do not parse.
func TestBlocksNameRefusesWhatItDidNotWrite(t *testing.T) {
	good := StreamNameOf(Range{File: "x", Compression: CompressionBlocksStream, StreamLength: 4096, Blocks: []Block{{Offset: 96, Length: 900, Size: 4096, Codec: CodecXz}}})
	if _, ok := ParseStreamRange(good); !ok {
		t.Fatalf("%q does not parse", good)
	}
	head := good[:strings.LastIndex(good, ".")+1]
	oneBlock := appendBlocks(nil, []Block{{Offset: 96, Length: 900, Size: 4096, Codec: CodecXz}})
	if _, ok := ParseStreamRange(head + base64.RawURLEncoding.EncodeToString(oneBlock)); !ok {
		t.Fatal("the encoding does not parse")
	}
	for _, bad := range []string{
		strings.TrimSuffix(head, "."),                     // no blocks part
		head + blocksName(nil),                            // no blocks
		head + blocksName([]Block{{Offset: -5, Size: 1}}), // before the file
		head + blocksName([]Block{{Length: -1, Size: 1}}),
		head + blocksName([]Block{{Size: -1}}),
		head + base64.RawURLEncoding.EncodeToString(append(bytes.Clone(oneBlock[:len(oneBlock)-1]), 1)), // codec 1 of a one-codec table
		head + blocksName([]Block{{Size: 1}}) + "AA",
		head + "!!",
	} {
		if r, ok := ParseStreamRange(bad); ok {
			t.Errorf("%q parsed: %+v", bad, r)
		}
	}
}
