package bundler

import (
	"net/http"
	"testing"
)

// sniffCases are inputs of every kind the algorithm tells apart (after
// net/http's sniff_test.go): signatures, markup, text, binary and edges.
var sniffCases = []string{
	"", "\x00", "\xef\xbb\xbfhello", "\xfe\xff\x00h", "Hello, world", "<!DOCTYPE HTML><html>",
	"   <HTML>", "<?xml version=\"1.0\"?>", "<svg>", "%PDF-1.4", "%!PS-Adobe-", "GIF87a", "GIF89a",
	"\x89PNG\x0D\x0A\x1A\x0A", "\xFF\xD8\xFF", "BM", "RIFF\x00\x00\x00\x00WEBPVP", "\x00\x00\x01\x00",
	"OggS\x00", "ID3", "\x1A\x45\xDF\xA3", "RIFF\x00\x00\x00\x00WAVE", "FORM\x00\x00\x00\x00AIFF",
	"MThd\x00\x00\x00\x06", "\x00\x00\x00\x18ftypmp42", "PK\x03\x04", "Rar!\x1A\x07\x00",
	"\x1F\x8B\x08", "\x00asm\x01\x00\x00\x00", "wOFF", "wOF2", "\x00\x01\x00\x00", "OTTO", "ttcf",
	"<!-- comment -->", "<script>alert(1)</script>", "\x01\x02\x03binary", "{\"json\": true}",
}

// TestDetectContentTypeIsNetHTTPs: the copy answers what net/http answers.
func TestDetectContentTypeIsNetHTTPs(t *testing.T) {
	for _, c := range sniffCases {
		if got, want := detectContentType([]byte(c)), http.DetectContentType([]byte(c)); got != want {
			t.Errorf("detectContentType(%q) = %q, net/http says %q", c, got, want)
		}
	}
}

func FuzzDetectContentTypeIsNetHTTPs(f *testing.F) {
	for _, c := range sniffCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := detectContentType(data), http.DetectContentType(data); got != want {
			t.Errorf("detectContentType(%q) = %q, net/http says %q", data, got, want)
		}
	})
}
