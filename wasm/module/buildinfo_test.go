package module_test

import (
	"os"
	"testing"

	"rea/wasm/module"
	"rea/wasm/wasmtest"
)

func TestBuildInfoReadsDependencyVersionsFromAWasmModule(t *testing.T) {
	raw, err := os.ReadFile(wasmtest.BuildGuest(t, "./host/sandbox/testdata/guests/probe", "probe"))
	if err != nil {
		t.Fatal(err)
	}
	bi, err := module.BuildInfo(raw)
	if err != nil {
		t.Fatal(err)
	}
	if bi.Path != "rea/host/sandbox/testdata/guests/probe" || bi.Main.Path != "rea" {
		t.Fatalf("wrong package/module: %q %q", bi.Path, bi.Main.Path)
	}
	if len(bi.GoVersion) < 4 || bi.GoVersion[:2] != "go" {
		t.Fatalf("go version = %q", bi.GoVersion)
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if settings["GOOS"] != "wasip1" || settings["-trimpath"] != "true" {
		t.Fatalf("settings = %v", settings)
	}
	if _, err := module.BuildInfo([]byte("\x00asm\x01\x00\x00\x00")); err == nil {
		t.Fatal("a module without build info must be an error")
	}
}
