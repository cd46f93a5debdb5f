package container

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"testing"

	"rea/abi"
	"rea/analysis/artifact/asarpack"
	"rea/analysis/artifact/inventory"
)

// rawASAR frames a header JSON and data the way an ASAR writer does, so a
// test can declare anything, honest or not.
func rawASAR(header string, data []byte) []byte {
	pad := (4 - len(header)%4) % 4
	payload := 4 + len(header) + pad
	b := make([]byte, 16, 16+payload+len(data))
	binary.LittleEndian.PutUint32(b[0:], 4)
	binary.LittleEndian.PutUint32(b[4:], uint32(payload+4))
	binary.LittleEndian.PutUint32(b[8:], uint32(payload))
	binary.LittleEndian.PutUint32(b[12:], uint32(len(header)))
	b = append(b, header...)
	b = append(b, make([]byte, pad)...)
	return append(b, data...)
}

func parse(t *testing.T, b []byte, lim inventory.Limits) (*ASAR, error) {
	t.Helper()
	return ParseASAR(bytes.NewReader(b), int64(len(b)), "app.asar", lim)
}

func wantCode(t *testing.T, err error, code string) *abi.Error {
	t.Helper()
	var ae *abi.Error
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v, want *abi.Error %s", err, code)
	}
	if ae.Code != code {
		t.Fatalf("code = %s (%s), want %s", ae.Code, ae.Message, code)
	}
	return ae
}

func TestParseASARListsWhatAsarpackWrote(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), (asarpack.BlockSize+5)/16+1)[:asarpack.BlockSize+5]
	var buf bytes.Buffer
	err := asarpack.Write(&buf, []asarpack.File{
		asarpack.Bytes("main.js", []byte("console.log(1)\n")),
		asarpack.Bytes("lib/big.bin", big),
		asarpack.Bytes("lib/empty", nil),
		{Path: "bin/tool", Size: 3, Open: func() io.Reader { return strings.NewReader("abc") }, Executable: true},
		{Path: "native/addon.node", Size: 4, Open: func() io.Reader { return strings.NewReader("ELF!") }, Unpacked: true},
		{Path: "lib/link.js", Link: "main.js"},
	})
	if err != nil {
		t.Fatal(err)
	}
	a, err := parse(t, buf.Bytes(), inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]inventory.Entry{}
	var order []string
	for _, e := range a.Entries {
		byPath[e.Path] = e
		order = append(order, e.Path)
	}
	wantOrder := "bin bin/tool lib lib/big.bin lib/empty lib/link.js main.js native native/addon.node"
	if got := strings.Join(order, " "); got != wantOrder {
		t.Fatalf("order = %s\nwant    %s", got, wantOrder)
	}
	bigE := byPath["lib/big.bin"]
	sum := sha256.Sum256(big)
	if bigE.Integrity == nil || bigE.Integrity.Hash != hex.EncodeToString(sum[:]) || len(bigE.Integrity.Blocks) != 2 {
		t.Fatalf("big integrity = %+v", bigE.Integrity)
	}
	// The range must hold exactly the packed bytes.
	got := buf.Bytes()[bigE.Data.Offset:bigE.Data.End()]
	if !bytes.Equal(got, big) {
		t.Fatalf("range %+v does not hold the file bytes", bigE.Data)
	}
	if e := byPath["bin/tool"]; !e.Executable || string(buf.Bytes()[e.Data.Offset:e.Data.End()]) != "abc" {
		t.Fatalf("bin/tool = %+v", e)
	}
	if e := byPath["native/addon.node"]; !e.Unpacked || e.Data != nil || e.Size != 4 {
		t.Fatalf("unpacked entry = %+v", e)
	}
	if e := byPath["lib/link.js"]; e.Kind != inventory.KindLink || e.Link.Target != "main.js" || e.Link.Escapes || e.Link.Absolute {
		t.Fatalf("link = %+v %+v", e, e.Link)
	}
	if e := byPath["lib/empty"]; e.Size != 0 || e.Data == nil || len(e.Integrity.Blocks) != 1 {
		t.Fatalf("empty = %+v", e)
	}
	if e := byPath["lib"]; e.Kind != inventory.KindDirectory {
		t.Fatalf("lib = %+v", e)
	}
}

func TestParseASARRefusesHostileHeaders(t *testing.T) {
	const hash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	deep := strings.Repeat(`{"files":{"d":`, 25) + `{"size":0,"offset":"0"}` + strings.Repeat(`}}`, 25)
	cases := []struct {
		name   string
		header string
		data   string
		code   string
	}{
		{"offset past EOF", `{"files":{"a":{"size":4,"offset":"10"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"size past EOF", `{"files":{"a":{"size":5,"offset":"0"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"huge offset", `{"files":{"a":{"size":1,"offset":"999999999999999999"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"overlapping entries", `{"files":{"a":{"size":3,"offset":"0"},"b":{"size":2,"offset":"2"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"negative size", `{"files":{"a":{"size":-1,"offset":"0"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"fractional size", `{"files":{"a":{"size":1.5,"offset":"0"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"string size", `{"files":{"a":{"size":"2","offset":"0"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"numeric offset", `{"files":{"a":{"size":2,"offset":0}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"signed offset", `{"files":{"a":{"size":2,"offset":"-1"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"hex offset", `{"files":{"a":{"size":2,"offset":"0x1"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"missing offset", `{"files":{"a":{"size":2}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"dotdot name", `{"files":{"..":{"files":{"etc":{"size":1,"offset":"0"}}}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"slash in name", `{"files":{"../../x":{"size":1,"offset":"0"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"backslash in name", `{"files":{"..\\x":{"size":1,"offset":"0"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"empty name", `{"files":{"":{"size":1,"offset":"0"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"duplicate member", `{"files":{"a":{"size":1,"offset":"0"},"a":{"size":1,"offset":"1"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"case collision", `{"files":{"A":{"size":1,"offset":"0"},"a":{"size":1,"offset":"1"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"NFC collision", `{"files":{"caf\u00e9":{"size":1,"offset":"0"},"cafe\u0301":{"size":1,"offset":"1"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"file and directory", `{"files":{"a":{"files":{},"size":1,"offset":"0"}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"link and file", `{"files":{"a":{"link":"b","size":1}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"no kind", `{"files":{"a":{}}}`, "abcd", abi.CodeArtifactOperationFailed},
		{"root without files", `{"size":1}`, "abcd", abi.CodeArtifactOperationFailed},
		{"trailing garbage", `{"files":{}} {}`, "", abi.CodeArtifactOperationFailed},
		{"not json", `{"files":{"a":`, "", abi.CodeArtifactOperationFailed},
		{"short hash", `{"files":{"a":{"size":0,"offset":"0","integrity":{"algorithm":"SHA256","hash":"abc","blockSize":4194304,"blocks":[]}}}}`, "", abi.CodeArtifactOperationFailed},
		{"wrong block count", `{"files":{"a":{"size":0,"offset":"0","integrity":{"algorithm":"SHA256","hash":"` + hash + `","blockSize":4194304,"blocks":[]}}}}`, "", abi.CodeArtifactOperationFailed},
		{"zero block size", `{"files":{"a":{"size":0,"offset":"0","integrity":{"algorithm":"SHA256","hash":"` + hash + `","blockSize":0,"blocks":["` + hash + `"]}}}}`, "", abi.CodeArtifactOperationFailed},
		{"deeply nested directories", deep, "", abi.CodeResourceConstraint},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse(t, rawASAR(tc.header, []byte(tc.data)), inventory.Limits{})
			wantCode(t, err, tc.code)
		})
	}
}

func TestParseASARRefusesBrokenFraming(t *testing.T) {
	good := rawASAR(`{"files":{"a":{"size":4,"offset":"0"}}}`, []byte("abcd"))
	headerTooBig := bytes.Clone(good)
	binary.LittleEndian.PutUint32(headerTooBig[4:], uint32(len(good)))
	jsonTooLong := bytes.Clone(good)
	binary.LittleEndian.PutUint32(jsonTooLong[12:], binary.LittleEndian.Uint32(good[8:]))
	notASAR := bytes.Clone(good)
	binary.LittleEndian.PutUint32(notASAR[0:], 5)
	cases := []struct {
		name string
		b    []byte
	}{
		{"header size larger than the file", headerTooBig},
		{"JSON longer than its pickle", jsonTooLong},
		{"wrong size pickle", notASAR},
		{"truncated data", good[:len(good)-1]},
		{"truncated header", good[:20]},
		{"shorter than the prefix", good[:10]},
		{"invalid UTF-8 in header", rawASAR("{\"files\":{\"\xff\":{\"size\":0,\"offset\":\"0\"}}}", nil)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse(t, tc.b, inventory.Limits{})
			wantCode(t, err, abi.CodeArtifactOperationFailed)
		})
	}
}

func TestParseASARNamesTheLimitItExceeds(t *testing.T) {
	header := `{"files":{"a":{"size":3,"offset":"0"},"b":{"size":3,"offset":"3"},"c":{"files":{}}}}`
	b := rawASAR(header, []byte("abcdef"))
	cases := []struct {
		lim   inventory.Limits
		limit string
	}{
		{inventory.Limits{MaxEntries: 2}, "max_entries"},
		{inventory.Limits{MaxEntryBytes: 2}, "max_entry_bytes"},
		{inventory.Limits{MaxTotalBytes: 5}, "max_total_bytes"},
		{inventory.Limits{MaxPathBytes: 0, MaxHeaderBytes: 10}, "max_header_bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.limit, func(t *testing.T) {
			_, err := parse(t, b, tc.lim)
			ae := wantCode(t, err, abi.CodeResourceConstraint)
			if ae.Details["limit"] != tc.limit {
				t.Fatalf("limit = %v, want %s", ae.Details["limit"], tc.limit)
			}
		})
	}
	if _, err := parse(t, b, inventory.Limits{MaxEntries: 3, MaxTotalBytes: 6, MaxEntryBytes: 3}); err != nil {
		t.Fatalf("at the limits exactly: %v", err)
	}
}

func TestParseASARFlagsLinksThatLeaveTheArchive(t *testing.T) {
	b := rawASAR(`{"files":{"passwd":{"link":"/etc/passwd"},"up":{"link":"../../etc/passwd"},"d":{"files":{"in":{"link":"d/x"}}},"win":{"link":"C:\\Windows"}}}`, nil)
	a, err := parse(t, b, inventory.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]inventory.Link{}
	for _, e := range a.Entries {
		if e.Link != nil {
			got[e.Path] = *e.Link
		}
	}
	want := map[string]inventory.Link{
		"passwd": {Target: "/etc/passwd", Absolute: true},
		"up":     {Target: "../../etc/passwd", Escapes: true},
		"d/in":   {Target: "d/x"},
		"win":    {Target: `C:\Windows`, Absolute: true},
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("link %s = %+v, want %+v", p, got[p], w)
		}
	}
}

func TestParseASARRecordsIntegrityOfOtherAlgorithms(t *testing.T) {
	for _, alg := range []string{"MD5", "sha256"} {
		b := rawASAR(`{"files":{"a":{"size":1,"offset":"0","integrity":{"algorithm":"`+alg+`","hash":"x","blockSize":1,"blocks":[]}}}}`, []byte("a"))
		a, err := parse(t, b, inventory.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if in := a.Entries[0].Integrity; in == nil || in.Algorithm != alg || in.Known() || len(in.Blocks) != 0 {
			t.Fatalf("%s: integrity = %+v, want it recorded as unknown", alg, in)
		}
	}
}

// FuzzParseASARHeader feeds arbitrary header JSON and data to the parser:
// it must never panic, and every range it accepts must lie inside the file
// and not overlap another.
func FuzzParseASARHeader(f *testing.F) {
	f.Add(`{"files":{"a":{"size":4,"offset":"0"}}}`, []byte("abcd"))
	f.Add(`{"files":{"a":{"files":{"b":{"size":1,"offset":"1","executable":true}}},"l":{"link":"a/b"}}}`, []byte("xy"))
	f.Add(`{"files":{"u":{"size":9,"unpacked":true}}}`, []byte(""))
	f.Add(`{"files":{"..":{"size":0,"offset":"0"}}}`, []byte(""))
	f.Fuzz(func(t *testing.T, header string, data []byte) {
		b := rawASAR(header, data)
		a, err := ParseASAR(bytes.NewReader(b), int64(len(b)), "f.asar", inventory.Limits{MaxEntries: 100, MaxDepth: 8})
		if err != nil {
			var ae *abi.Error
			if !errors.As(err, &ae) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		var spans []span
		for _, e := range a.Entries {
			if e.Data == nil {
				continue
			}
			if e.Data.Offset < a.DataBase || e.Data.End() > int64(len(b)) || e.Data.Length != e.Size {
				t.Fatalf("range %+v outside data [%d,%d)", e.Data, a.DataBase, len(b))
			}
			if e.Size > 0 {
				spans = append(spans, span{e.Data.Offset, e.Data.End(), e.Path})
			}
		}
		if err := checkOverlaps(spans); err != nil {
			t.Fatalf("accepted overlapping ranges: %v", err)
		}
	})
}
