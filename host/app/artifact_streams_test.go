package app

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// TestStreamsOfEmptyMembersAreNotTakenAsSummed: a stream whose members
// are all empty is finished from the stage's sums only when the stage
// summed it (a non-solid NSIS item staged for its size is summed whole,
// empty or not); one it never decoded takes the decoding path, which
// opens the stream and refuses a corrupt one, rather than reading as
// summed because no member needed a sum.
func TestStreamsOfEmptyMembersAreNotTakenAsSummed(t *testing.T) {
	dir := t.TempDir()
	deflate := func(b []byte) []byte {
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, 9)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Close()
	badGzip := bytes.Clone(gz.Bytes())
	badGzip[0] ^= 0xff // no gzip header: the stream does not open
	empty, body := deflate(nil), deflate([]byte("an NSIS item's bytes"))
	for name, b := range map[string][]byte{"empty": empty, "body": body, "bad.gz": badGzip} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rangeOf := func(file string, comp string, n int) inventory.Range {
		return inventory.Range{File: file, Compression: comp, StreamLength: int64(n)}
	}
	emptyR := rangeOf("empty", inventory.CompressionDeflateStream, len(empty))
	bodyR := rangeOf("body", inventory.CompressionDeflateStream, len(body))
	badR := rangeOf("bad.gz", inventory.CompressionGzipStream, len(badGzip))
	newStage := func(sized ...inventory.Range) *stream.Stage {
		st := &stream.Stage{Dir: t.TempDir(), OpenInput: func(name string) (*os.File, error) { return os.Open(filepath.Join(dir, name)) }}
		for _, r := range sized { // what the module does for an item it does not read
			f, err := st.Open(inventory.StreamSizeName(r))
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, f)
			f.Close()
		}
		return st
	}
	cases := []struct {
		name   string
		stage  *stream.Stage
		r      inventory.Range
		jobs   []*digestJob
		summed bool
	}{
		{"no members", newStage(), emptyR, nil, false},
		{"an empty member the stage never summed", newStage(), emptyR, []*digestJob{{}}, false},
		{"two empty members the stage never summed", newStage(), emptyR, []*digestJob{{}, {entry: 1}}, false},
		{"an empty member the stage summed", newStage(emptyR), emptyR, []*digestJob{{}}, true},
		{"a member the stage summed", newStage(bodyR), bodyR, []*digestJob{{length: 20}}, true},
		{"a member the stage did not sum", newStage(), bodyR, []*digestJob{{length: 20}}, false},
	}
	for _, c := range cases {
		s := &artifactScan{stage: c.stage}
		if got := s.summed(c.r, c.jobs); got != c.summed {
			t.Errorf("%s: summed %v, want %v", c.name, got, c.summed)
		}
	}
	// Through hashStream: a corrupt stream of one empty member, which the
	// stage never saw, is refused, not observed as an empty file.
	fh, err := os.Open(filepath.Join(dir, "bad.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	res := &inventory.Result{Entries: []inventory.Entry{{Path: "empty.txt", Kind: inventory.KindFile, Data: &badR}}}
	s := &artifactScan{res: res, obs: make([]entryObservation, 1), stage: newStage()}
	fj := &fileJobs{file: "bad.gz"}
	fj.addStream(res.Entries[0], &digestJob{})
	err = s.hashStream(context.Background(), fh, int64(len(badGzip)), fj, fj.streamOrder[0])
	wantError(t, err, abi.CodeArtifactOperationFailed)
	if s.obs[0].status != "" {
		t.Fatalf("the member was observed: %+v", s.obs[0])
	}
}
