package stream

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"rea/analysis/artifact/inventory"
)

// deflated is raw DEFLATE of b (Go's compress/flate, as makensis's zlib
// writes raw DEFLATE) placed at offset 100 of a file, and the range
// naming it.
func deflated(t *testing.T, b []byte) ([]byte, inventory.Range) {
	t.Helper()
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, 9)
	w.Write(b)
	w.Close()
	file := append(make([]byte, 100), buf.Bytes()...)
	file = append(file, "trailer"...)
	return file, inventory.Range{File: "x", Compression: inventory.CompressionDeflateStream, StreamOffset: 100, StreamLength: int64(buf.Len())}
}

// stageOf stages from a file holding data, under lim.
func stageOf(t *testing.T, data []byte, lim inventory.Limits) *Stage {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return &Stage{Dir: t.TempDir(), Limits: lim, OpenInput: func(name string) (*os.File, error) { return os.Open(filepath.Join(dir, name)) }}
}

func payload(n int) []byte {
	r := rand.New(rand.NewPCG(3, 4))
	b := make([]byte, n)
	for i := range b {
		if i%3 == 0 {
			b[i] = byte(r.Uint32())
		} else {
			b[i] = 'a' + byte(i%7)
		}
	}
	return b
}

// TestStageServesASizeWithoutACopy: under StreamSizePrefix the stage
// answers the decoded size, keeps no copy, and sums the whole stream;
// asking for the stream itself afterwards decodes it again into a copy
// of the same bytes.
func TestStageServesASizeWithoutACopy(t *testing.T) {
	want := payload(3<<20 + 17)
	data, r := deflated(t, want)
	st := stageOf(t, data, inventory.Limits{})
	f, err := st.Open(inventory.StreamSizeName(r))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(f)
	f.Close()
	if n, err := strconv.ParseInt(string(text), 10, 64); err != nil || n != int64(len(want)) {
		t.Fatalf("size %q, want %d", text, len(want))
	}
	if _, ok := st.Decoded(r); ok {
		t.Fatal("a copy was kept for a size")
	}
	whole := r
	whole.Offset, whole.Length = 0, int64(len(want))
	d, ok := st.Sum(whole)
	if !ok || d.SHA256 != sha256.Sum256(want) || d.Size != int64(len(want)) || !bytes.Equal(d.Head[:d.HeadN], want[:4]) {
		t.Fatalf("sum %v %+v", ok, d)
	}
	part := whole
	part.Length--
	if _, ok := st.Sum(part); ok {
		t.Fatal("a span that was not summed has a sum")
	}
	f, err = st.Open(inventory.StreamNameOf(r))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(f)
	f.Close()
	if !bytes.Equal(got, want) {
		t.Fatal("the copy made after the size differs from the stream")
	}
	if _, ok := st.Sum(whole); !ok {
		t.Fatal("the copy dropped the sum")
	}
}

// TestStageSizeIsHeldToTheBudget: a stream past its budget is cut one
// byte past it, and has no sum (it did not decode whole).
func TestStageSizeIsHeldToTheBudget(t *testing.T) {
	data, r := deflated(t, make([]byte, 8<<20))
	st := stageOf(t, data, inventory.Limits{MaxCompressionRatio: 10})
	f, err := st.Open(inventory.StreamSizeName(r))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(f)
	f.Close()
	budget, _ := BudgetOf(inventory.Limits{MaxCompressionRatio: 10}, r.StreamLength)
	if n, _ := strconv.ParseInt(string(text), 10, 64); n != budget+1 {
		t.Fatalf("size %s, want the budget %d plus one", text, budget)
	}
	whole := r
	whole.Offset, whole.Length = 0, budget+1
	if _, ok := st.Sum(whole); ok {
		t.Fatal("a stream cut by its budget has a sum")
	}
}

// TestStageWalkSumsWhatItSkips: a walk reads front to back; each span
// it seeks over is summed; it cannot seek back; a seek past the end
// stops at the end and sums nothing; it ends one byte past the budget.
func TestStageWalkSumsWhatItSkips(t *testing.T) {
	want := payload(5<<20 + 3)
	data, r := deflated(t, want)
	st := stageOf(t, data, inventory.Limits{})
	f, err := st.Open(inventory.StreamWalkName(r))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sk := f.(io.Seeker)
	head := make([]byte, 10)
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, want[:10]) {
		t.Fatalf("read %v %q", err, head)
	}
	spans := [][2]int64{{10, 2 << 20}, {2<<20 + 10, 0}, {2<<20 + 10, 1}, {2<<20 + 11, 3<<20 - 100}}
	for _, sp := range spans {
		if pos, err := sk.Seek(sp[1], io.SeekCurrent); err != nil || pos != sp[0]+sp[1] {
			t.Fatalf("seek %v: %d %v", sp, pos, err)
		}
	}
	if _, err := sk.Seek(-1, io.SeekCurrent); err == nil {
		t.Fatal("a walk sought back")
	}
	tail := make([]byte, 50)
	if _, err := io.ReadFull(f, tail); err != nil || !bytes.Equal(tail, want[5<<20-89:5<<20-39]) {
		t.Fatalf("read after the skips: %v", err)
	}
	end := int64(len(want))
	if pos, err := sk.Seek(1000, io.SeekCurrent); err != nil || pos != end {
		t.Fatalf("seek past the end: %d %v, want %d", pos, err, end)
	}
	for _, sp := range spans {
		q := r
		q.Offset, q.Length = sp[0], sp[1]
		d, ok := st.Sum(q)
		if sp[1] == 0 {
			continue // nothing skipped, nothing to sum
		}
		if !ok || d.SHA256 != sha256.Sum256(want[sp[0]:sp[0]+sp[1]]) {
			t.Fatalf("span %v: %v", sp, ok)
		}
	}
	q := r
	q.Offset, q.Length = 5<<20-39, 1000
	if _, ok := st.Sum(q); ok {
		t.Fatal("a seek past the end was summed")
	}
	if _, ok := st.Decoded(r); ok {
		t.Fatal("a walk left a copy")
	}

	// Budget: a walk of a bomb ends one byte past the budget.
	lim := inventory.Limits{MaxCompressionRatio: 10}
	data, r = deflated(t, make([]byte, 8<<20))
	st = stageOf(t, data, lim)
	f2, err := st.Open(inventory.StreamWalkName(r))
	if err != nil {
		t.Fatal(err)
	}
	defer f2.Close()
	n, _ := io.Copy(io.Discard, f2)
	if budget, _ := BudgetOf(lim, r.StreamLength); n != budget+1 {
		t.Fatalf("walked %d bytes of a bomb, want the budget %d plus one", n, budget)
	}
}

// TestStageWalkOfACorruptStreamSaysWhy: a stream that does not decode
// fails the walk's read, and Err says what the decoder said.
func TestStageWalkOfACorruptStreamSaysWhy(t *testing.T) {
	data, r := deflated(t, payload(1<<20))
	for i := 110; i < 140; i++ {
		data[i] = 0xff
	}
	st := stageOf(t, data, inventory.Limits{})
	f, err := st.Open(inventory.StreamWalkName(r))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := io.Copy(io.Discard, f); err == nil {
		t.Fatal("a corrupt stream walked to its end")
	}
	if st.Err() == nil {
		t.Fatal("the stage does not say why")
	}
}

// TestAheadStopsEarlyAndAtItsLimit: an Ahead reads at most its limit
// and says the cut with a *LimitError, never io.EOF (a stream that ends
// within the limit ends with io.EOF); Close stops it before the end
// without leaking its goroutine's read.
func TestAheadStopsEarlyAndAtItsLimit(t *testing.T) {
	want := payload(3<<20 + 5)
	for _, c := range []struct {
		name  string
		limit int64
		cut   bool
	}{
		{"cut inside a chunk", 1<<20 + 7, true},
		{"cut at a chunk's end", 2 << 20, true},
		{"cut at the stream's last byte", int64(len(want)), true},
		{"ends a byte before the limit", int64(len(want)) + 1, false},
		{"no limit", -1, false},
	} {
		a := NewAhead(bytes.NewReader(want), 2, c.limit)
		got, err := io.ReadAll(a)
		a.Close()
		n := int64(len(want))
		if c.cut {
			n = c.limit
		}
		var le *LimitError
		if !bytes.Equal(got, want[:n]) || errors.As(err, &le) != c.cut || c.cut && le.Limit != c.limit || !c.cut && err != nil {
			t.Errorf("%s: %d bytes, %v", c.name, len(got), err)
		}
	}
	// Next says the cut too, after the last chunk.
	a := NewAhead(bytes.NewReader(want), 2, 10)
	if b, err := a.Next(); err != nil || len(b) != 10 {
		t.Fatalf("first chunk: %d bytes, %v", len(b), err)
	}
	if _, err := a.Next(); !errors.As(err, new(*LimitError)) {
		t.Fatalf("after the limit: %v, want a *LimitError", err)
	}
	a.Close()
	a = NewAhead(bytes.NewReader(want), 2, -1)
	if b, err := a.Next(); err != nil || !bytes.Equal(b, want[:AheadChunk]) {
		t.Fatalf("first chunk: %v", err)
	}
	a.Close()
	a = NewAhead(iotestErr{}, 2, -1)
	if _, err := io.ReadAll(a); !errors.Is(err, errBoom) {
		t.Fatalf("error: %v", err)
	}
	a.Close()
	// A decoder's io.ErrUnexpectedEOF (a truncated stream) stays an
	// error; it is not the short last read of a stream that ended.
	a = NewAhead(io.MultiReader(bytes.NewReader(want[:100]), iotestCut{}), 2, -1)
	if got, err := io.ReadAll(a); err != io.ErrUnexpectedEOF || len(got) != 100 {
		t.Fatalf("truncated: %d bytes, %v", len(got), err)
	}
	a.Close()
}

// TestStageRefusesATruncatedStream: a stream cut short does not stage,
// for its size or for its bytes, and Err says why.
func TestStageRefusesATruncatedStream(t *testing.T) {
	data, r := deflated(t, payload(2<<20))
	r.StreamLength /= 2
	for _, name := range []string{inventory.StreamSizeName(r), inventory.StreamNameOf(r), inventory.StreamWalkName(r)} {
		st := stageOf(t, data, inventory.Limits{})
		f, err := st.Open(name)
		if err == nil {
			_, err = io.Copy(io.Discard, f)
			f.Close()
		}
		if err == nil || st.Err() == nil {
			t.Errorf("%s: %v, stage %v", name[:5], err, st.Err())
		}
	}
}

type iotestCut struct{}

func (iotestCut) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

var errBoom = errors.New("boom")

type iotestErr struct{}

func (iotestErr) Read([]byte) (int, error) { return 0, errBoom }

// TestPooledInflaterIsGivenBackOnce: closing a DEFLATE stream twice gives
// its pooled decoder back once, and a read after the close fails instead
// of reading the decoder's next user's stream.
func TestPooledInflaterIsGivenBackOnce(t *testing.T) {
	want := payload(300 << 10)
	data, r := deflated(t, want)
	a, err := Open(bytes.NewReader(data), int64(len(data)), r)
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	a.Close()
	if _, err := a.Read(make([]byte, 10)); err == nil {
		t.Fatal("a closed stream read")
	}
	b, _ := Open(bytes.NewReader(data), int64(len(data)), r)
	c, _ := Open(bytes.NewReader(data), int64(len(data)), r)
	gb, _ := io.ReadAll(b)
	gc, _ := io.ReadAll(c)
	b.Close()
	c.Close()
	if !bytes.Equal(gb, want) || !bytes.Equal(gc, want) {
		t.Fatal("two streams opened after a double close share a decoder")
	}
}
