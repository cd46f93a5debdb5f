package container

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"rea/abi"
	"rea/analysis/artifact/asarpack"
	"rea/analysis/artifact/inventory"
)

// The header scanner accepts exactly the headers the encoding/json Decoder
// parser accepted and lists the same entries; what both refuse is refused
// with the same error code (messages may word a syntax error differently).
func FuzzASARHeaderScannerAgreesWithTheDecoder(f *testing.F) {
	sum := strings.Repeat("ab", 32)
	for _, h := range []string{
		`{"files":{"a":{"size":4,"offset":"0"}}}`,
		` { "files" : { "a" : { "size" : 4 , "offset" : "0" , "executable" : true } } } `,
		`{"files":{"a":{"files":{"b":{"size":1,"offset":"1","executable":true}}},"l":{"link":"a/b"}}}`,
		`{"files":{"u":{"size":9,"unpacked":true}}}`,
		`{"files":{"\u0061\n":{"size":1,"offset":"0"},"\ud83d\ude00":{"size":0,"offset":"0"}}}`,
		`{"files":{"a":{"size":4,"offset":"0","x":{"y":[1,2.5e-3,{"z":null}],"w":"\""}}}}`,
		`{"files":{"a":{"size":4,"offset":"0","integrity":{"algorithm":"SHA256","hash":"` + sum + `","blockSize":4194304,"blocks":["` + sum + `"]}}}}`,
		`{"files":{"a":{"size":4,"offset":"0","integrity":{"Algorithm":"SHA256","hash":"` + sum + `","blockSize":"4194304","blocks":["` + sum + `"]}}}}`,
		`{"files":{"a":{"size":4,"offset":"0","integrity":{"algorithm":"MD5","hash":1}}}}`,
		`{"files":{"a":{"size":4,"offset":"0","integrity":null}}}`,
		`{"files":{"a":{"size":4,"offset":"0",}}}`,
		`{"files":{"a":{"size":4 "offset":"0"}}}`,
		`{"files":{"a":{"size":4,"size":4}}}`,
		`{"files":{"a":{"size":"4","offset":"0"}}}`,
		`{"files":{"a":{"size":-0,"offset":"0"}}}`,
		`{"files":{"a":{"size":1e2,"offset":"0"}}}`,
		`{"files":{"a":{"size":4,"offset":0}}}`,
		`{"files":{"a":{"size":4,"offset":"0","unpacked":null}}}`,
		`{"files":{"a":{"link":5}}}`,
		`{"files":{"a":[]}}`,
		`{"files":{}} x`,
		`{"files":{}}]`,
		`{"files":{"a":{"size":4,"offset":"0","x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}}}`,
		`{"files":{"a":{"size":4,"offset":"0","x":"\x01"}}}`,
		`{"files":{"a":{"size":4,"offset":"0","x":"\q"}}}`,
		`{"files":{"a":{"size":4,"offset":"0","x":tru}}}`,
	} {
		f.Add(h, []byte("abcdefgh"))
	}
	f.Fuzz(func(t *testing.T, header string, data []byte) {
		b := rawASAR(header, data)
		lim := inventory.Limits{MaxEntries: 100, MaxDepth: 8}
		got, gerr := ParseASAR(bytes.NewReader(b), int64(len(b)), "f.asar", lim)
		want, werr := oracleParse(bytes.NewReader(b), int64(len(b)), "f.asar", lim)
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("header %q: scanner error %v, decoder error %v", header, gerr, werr)
		}
		if gerr != nil {
			var ge, we *abi.Error
			if !errors.As(gerr, &ge) || !errors.As(werr, &we) || ge.Code != we.Code {
				t.Fatalf("header %q: scanner error %v, decoder error %v", header, gerr, werr)
			}
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("header %q:\nscanner %+v\ndecoder %+v", header, got, want)
		}
	})
}

// BenchmarkParseASARHeader10000Entries is the per-entry cost of reading
// an archive of 10,000 small files' header natively (the wasm module runs
// the same code about ten times slower), against the Decoder parser.
func BenchmarkParseASARHeader10000Entries(b *testing.B) {
	var files []asarpack.File
	for i := range 10000 {
		files = append(files, asarpack.Bytes(fmt.Sprintf("d%02d/f%05d.bin", i%50, i), bytes.Repeat([]byte{byte(i)}, 100+i%7)))
	}
	var buf bytes.Buffer
	if err := asarpack.Write(&buf, files); err != nil {
		b.Fatal(err)
	}
	r := bytes.NewReader(buf.Bytes())
	lim := inventory.Limits{MaxEntries: 20000}
	for _, c := range []struct {
		name  string
		parse func() (*ASAR, error)
	}{
		{"scanner", func() (*ASAR, error) { return ParseASAR(r, int64(buf.Len()), "a.asar", lim) }},
		{"decoder", func() (*ASAR, error) { return oracleParse(r, int64(buf.Len()), "a.asar", lim) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := c.parse(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/10000, "us/entry")
		})
	}
}
