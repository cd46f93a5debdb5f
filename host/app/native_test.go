package app

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"rea/abi"
	"rea/analysis/native/nativetest"
	"rea/host/evidence"
	"rea/providers"
	"rea/wasm/wasmtest"
)

func nativeApp(t *testing.T) *App {
	t.Helper()
	a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(t, NativeModule), CacheDir: "off"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(context.Background()) })
	return a
}

func TestNativeServicesAnswerThroughTheSandboxWithEvidence(t *testing.T) {
	t.Setenv(providers.EnvProvider, "")
	a := nativeApp(t)
	ctx := context.Background()
	bin := nativetest.ChainELF(t, "plain")

	lay, err := a.InspectBinaryLayout(ctx, NativeRequest{InputPath: bin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if lay.Result.Format != "elf" || lay.Result.Architecture != "x86_64" || lay.Evidence.Subject.Format != "elf" || lay.Evidence.Provider.ID != LayoutProviderID {
		t.Fatalf("layout = %s/%s, evidence subject %+v provider %+v", lay.Result.Format, lay.Result.Architecture, lay.Evidence.Subject, lay.Evidence.Provider)
	}
	if _, err := evidence.Parse(lay.Evidence.Canonical()); err != nil {
		t.Fatalf("layout evidence does not re-parse: %v", err)
	}

	ov, err := a.BinaryOverview(ctx, NativeRequest{InputPath: bin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ov.Binding == nil || ov.Binding.Provider != providers.NativeLite || ov.Binding.SelectionSource != providers.SourceAuto {
		t.Fatalf("binding = %+v", ov.Binding)
	}
	if ov.Evidence.AnalysisProfile == nil || ov.Evidence.Provider.ID != providers.NativeLite {
		t.Fatalf("evidence provider %+v profile %v", ov.Evidence.Provider, ov.Evidence.AnalysisProfile)
	}
	if ov.Result.Procedures == 0 || ov.Result.Strings == 0 || ov.Result.CallEdges == 0 {
		t.Fatalf("overview = %+v", ov.Result)
	}

	// The dossier of main names its callees and the string it prints.
	fn, err := a.AnalyzeFunction(ctx, NativeRequest{InputPath: bin, Procedure: "main"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var callees []string
	for _, c := range fn.Result.Callees.Items {
		callees = append(callees, c.CalleeName)
	}
	for _, want := range []string{"middle", "copy", "printf@plt"} {
		if !contains(callees, want) {
			t.Errorf("main's callees %v lack %s", callees, want)
		}
	}
	if fn.Result.Pseudocode.Status != "unavailable" || fn.Result.Blocks.Total == 0 || fn.Result.Assembly.Total == 0 {
		t.Errorf("dossier pseudocode %+v blocks %d assembly %d", fn.Result.Pseudocode, fn.Result.Blocks.Total, fn.Result.Assembly.Total)
	}
	var strs []string
	for _, s := range fn.Result.ReferencedStrings.Items {
		strs = append(strs, s.Value)
	}
	if !contains(strs, "short") {
		t.Errorf("main's referenced strings %v lack \"short\"", strs)
	}

	// read_bytes agrees with the file bytes at address_to_file_offset.
	entry := lay.Result.Entry.String()
	off, err := a.AddressToFileOffset(ctx, NativeRequest{InputPath: bin, Address: entry}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := a.ReadBytes(ctx, NativeRequest{InputPath: bin, Address: entry, Length: 8}, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(bin)
	if want := hexOf(raw[off.Result.FileOffset : off.Result.FileOffset+8]); rb.Result.Hex != want {
		t.Errorf("read_bytes %s, file bytes at offset %d are %s", rb.Result.Hex, off.Result.FileOffset, want)
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	var s strings.Builder
	for _, c := range b {
		s.WriteByte(digits[c>>4])
		s.WriteByte(digits[c&15])
	}
	return s.String()
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func TestNativeSelectionFailsClosedWithoutFallback(t *testing.T) {
	a := nativeApp(t)
	bin := nativetest.ChainELF(t, "plain")
	t.Setenv(providers.EnvProvider, providers.Ghidra)
	_, err := a.ListProcedures(context.Background(), NativeRequest{InputPath: bin}, nil)
	var e *abi.Error
	if !errors.As(err, &e) || e.Code != abi.CodeCapabilityUnavailable || e.Details["reason"] != providers.CodeNotConfigured {
		t.Fatalf("err = %v", err)
	}
	// The request's provider_id wins over the environment.
	res, err := a.ListProcedures(context.Background(), NativeRequest{InputPath: bin, ProviderID: providers.NativeLite}, nil)
	if err != nil || res.Binding.SelectionSource != providers.SourceRequest {
		t.Fatalf("res %+v err %v", res, err)
	}
	t.Setenv(providers.EnvGhidraStartupTimeout, "soon")
	if _, err := a.ListProcedures(context.Background(), NativeRequest{InputPath: bin, ProviderID: providers.NativeLite}, nil); !errors.As(err, &e) || e.Code != providers.CodeConfigurationInvalid {
		t.Fatalf("bad startup timeout: err = %v", err)
	}
}

func TestNativeMalformedInputIsTypedInsideTheSandbox(t *testing.T) {
	a := nativeApp(t)
	good, err := os.ReadFile(nativetest.ChainELF(t, "plain"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"truncated": good[:40],
		"garbage":   []byte("this is not an executable at all, just text"),
		"cut":       good[:len(good)/3],
	} {
		p := dir + "/" + name
		os.WriteFile(p, data, 0o644)
		_, err := a.InspectBinaryLayout(context.Background(), NativeRequest{InputPath: p}, nil)
		var e *abi.Error
		if !errors.As(err, &e) || e.Code != abi.CodeArtifactOperationFailed {
			t.Errorf("%s: err = %v, want artifact_operation_failed", name, err)
		}
	}
}

// objdumpCalls lists "site callee" pairs of direct calls objdump finds.
func objdumpCalls(t *testing.T, bin string) map[string]bool {
	out, err := exec.Command("objdump", "-d", "--no-show-raw-insn", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^\s+([0-9a-f]+):\s+call\s+([0-9a-f]+) <`)
	m := map[string]bool{}
	for _, g := range re.FindAllStringSubmatch(string(out), -1) {
		m["0x"+strings.TrimLeft(g[1], "0")+" 0x"+strings.TrimLeft(g[2], "0")] = true
	}
	return m
}

func TestNativeOverviewOfCrossCompiledBinariesInTheSandbox(t *testing.T) {
	t.Setenv(providers.EnvProvider, "")
	a := nativeApp(t)
	for _, tc := range []struct{ goos, goarch, format, arch string }{
		{"windows", "amd64", "pe", "x86_64"},
		{"darwin", "arm64", "mach-o", "arm64"},
		{"linux", "arm64", "elf", "arm64"},
	} {
		bin := nativetest.GoBinary(t, tc.goos, tc.goarch)
		ov, err := a.BinaryOverview(context.Background(), NativeRequest{InputPath: bin}, nil)
		if err != nil {
			t.Fatalf("%s/%s: %v", tc.goos, tc.goarch, err)
		}
		if ov.Evidence.Subject.Format != tc.format || ov.Evidence.Subject.Architecture != tc.arch || ov.Result.Procedures < 1000 || ov.Result.CallEdges < 1000 {
			t.Errorf("%s/%s: subject %+v, %d procedures, %d call edges", tc.goos, tc.goarch, ov.Evidence.Subject, ov.Result.Procedures, ov.Result.CallEdges)
		}
		fn, err := a.AnalyzeFunction(context.Background(), NativeRequest{InputPath: bin, Procedure: "main.main"}, nil)
		if err != nil {
			t.Fatalf("%s/%s main.main: %v", tc.goos, tc.goarch, err)
		}
		var callees []string
		for _, c := range fn.Result.Callees.Items {
			callees = append(callees, c.CalleeName)
		}
		if !contains(callees, "main.greet") {
			t.Errorf("%s/%s: main.main calls %v", tc.goos, tc.goarch, callees)
		}
	}
}
