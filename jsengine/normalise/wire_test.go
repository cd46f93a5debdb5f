package normalise

import (
	"reflect"
	"testing"
)

func TestCodecRoundTripsBytesExactly(t *testing.T) {
	req := Request{Loader: "ts", Sourcefile: "src/ä.ts", Tsconfig: `{"compilerOptions":{}}`, Source: "let a = '\xff\xfe';\x00"}
	got, err := DecodeRequest(EncodeRequest(req))
	if err != nil || got != req {
		t.Fatalf("request: %+v, %v", got, err)
	}
	for _, res := range []Result{
		{Code: "x\xff", Sources: []string{"a.ts", "\xff.ts"}, Mappings: "AAAA;AACA"},
		{Errors: []Message{{Text: "Top-level await", Located: true, File: "a.mjs", Line: 3, Column: 7}, {Text: "no location"}}},
	} {
		back, err := DecodeResult(EncodeResult(res))
		if err != nil || !reflect.DeepEqual(back, res) {
			t.Fatalf("result: %+v, %v; want %+v", back, err, res)
		}
	}
}

func TestTruncatedFramesAreErrors(t *testing.T) {
	b := EncodeResult(Result{Code: "abc", Errors: []Message{{Text: "e"}}})
	for i := 0; i < len(b); i++ {
		if _, err := DecodeResult(b[:i]); err == nil {
			t.Fatalf("prefix of %d bytes decoded", i)
		}
	}
	r := EncodeRequest(Request{Source: "abc"})
	if _, err := DecodeRequest(r[:len(r)-1]); err == nil {
		t.Fatal("truncated request decoded")
	}
}
