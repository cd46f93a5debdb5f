package module

import (
	"bytes"
	"errors"
	"regexp"
	"runtime/debug"
)

// BuildInfo reads the Go build information a wasm module carries in its
// data segment (debug/buildinfo does not read wasm): the package, build
// settings and the exact version of every dependency inside — esbuild and
// goja run in modules, not in the host binary, so `rea version` reports
// their versions from here.
//
// The linker frames the module text with two fixed 16-byte sentinels
// (cmd/go/internal/modload's infoStart/infoEnd); the Go version is the
// runtime's buildVersion string.
func BuildInfo(wasm []byte) (*debug.BuildInfo, error) {
	const (
		infoStart = "0w\xaf\x0c\x92t\x08\x02A\xe1\xc1\x07\xe6\xd6\x18\xe6"
		infoEnd   = "\xf92C1\x86\x18 r\x00\x82B\x10A\x16\xd8\xf2"
	)
	i := bytes.Index(wasm, []byte(infoStart))
	if i < 0 {
		return nil, errors.New("no Go build information in module")
	}
	rest := wasm[i+len(infoStart):]
	j := bytes.Index(rest, []byte(infoEnd))
	if j < 0 {
		return nil, errors.New("truncated Go build information in module")
	}
	bi, err := debug.ParseBuildInfo(string(rest[:j]))
	if err != nil {
		return nil, err
	}
	if v := regexp.MustCompile(`go1\.[0-9]+(\.[0-9]+)?`).Find(wasm); v != nil {
		bi.GoVersion = string(v)
	}
	return bi, nil
}
