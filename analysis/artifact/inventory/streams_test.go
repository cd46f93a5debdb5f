package inventory

import (
	"reflect"
	"strings"
	"testing"
)

// TestStreamNameCarriesItsSources: a stream read from another's decoded
// bytes (Range.Source) names its source chain, and the host parses the
// whole chain back; a chain past MaxSourceDepth is refused.
func TestStreamNameCarriesItsSources(t *testing.T) {
	solid := Range{File: "setup.exe", Compression: CompressionNSISLzmaStream, StreamOffset: 540, StreamLength: 9000}
	member := Range{File: "setup.exe", Compression: CompressionDeflateStream, StreamOffset: 120, StreamLength: 77}.WithSource(solid)
	r, ok := ParseStreamRange(StreamNameOf(member))
	if !ok || !reflect.DeepEqual(r, Range{File: member.File, Compression: member.Compression, StreamOffset: 120, StreamLength: 77, Source: &solid}) {
		t.Fatalf("parsed %+v %v from %q", r, ok, StreamNameOf(member))
	}
	if StreamNameOf(member) == StreamNameOf(Range{File: "setup.exe", Compression: CompressionDeflateStream, StreamOffset: 120, StreamLength: 77}) {
		t.Error("a stream in a decoded copy is named like the one in the file")
	}
	deep := solid
	for range MaxSourceDepth + 1 {
		deep = Range{File: "setup.exe", Compression: CompressionDeflateStream, StreamOffset: 1, StreamLength: 1}.WithSource(deep)
	}
	if deep.Sources() != -1 {
		t.Errorf("Sources of a %d-deep chain = %d", MaxSourceDepth+1, deep.Sources())
	}
	if _, ok := ParseStreamRange(StreamNameOf(deep)); ok {
		t.Error("a chain past MaxSourceDepth was parsed")
	}
	for _, bad := range []string{"deflate-stream.1.2.78~", "deflate-stream.1.2.78~!!", "deflate-stream.1.2.78~" + strings.Repeat("A", 8)} {
		if _, ok := ParseStreamRange(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

// FuzzParseStreamRange: the host parses the names the module asks its
// stage for; any name parses or is refused without panic, within the
// depth bound, and a parsed range names itself the same way again.
func FuzzParseStreamRange(f *testing.F) {
	solid := Range{File: "setup.exe", Compression: CompressionNSISLzmaStream, StreamOffset: 540, StreamLength: 9000}
	f.Add(StreamNameOf(solid))
	f.Add(StreamNameOf(Range{File: "a", Compression: CompressionDeflateStream, StreamOffset: 3, StreamLength: 9}.WithSource(solid)))
	f.Add(StreamNameOf(Range{File: "a", Compression: CompressionSevenZipFolder, Folder: &Folder{}}.WithSource(solid)))
	// A squashfs file's blocks as a stream, read from a deflated member.
	f.Add(StreamNameOf(Range{File: "a", Compression: CompressionBlocksStream, StreamLength: 4173, Blocks: []Block{{Offset: 96, Length: 900, Size: 4096, Codec: CodecZstd},
		{Offset: 3000, Length: 60, Size: 77, Skip: 20, Whole: 4096, Codec: CodecZstd}, {Size: 4096}}}.WithSource(Range{File: "a", Compression: CompressionDeflateStream, StreamOffset: 9, StreamLength: 5000})))
	f.Fuzz(func(t *testing.T, name string) {
		r, ok := ParseStreamRange(name)
		if !ok {
			return
		}
		if r.Sources() < 0 {
			t.Fatalf("parsed a chain past MaxSourceDepth from %q", name)
		}
		again, ok := ParseStreamRange(StreamNameOf(r))
		if !ok || !reflect.DeepEqual(again, r) {
			t.Fatalf("%q parses to %+v, which names itself as %q (%+v, %v)", name, r, StreamNameOf(r), again, ok)
		}
	})
}
