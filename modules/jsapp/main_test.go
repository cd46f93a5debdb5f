package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"rea/abi"
	"rea/host/sandbox"
	"rea/jsengine"
	"rea/wasm/wasmtest"
)

// buildModule compiles this package for wasip1, the way `make modules` does.
func buildModule(t *testing.T) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "jsapp.wasm")
	cmd := exec.Command("go", append(append([]string{"build"}, wasmtest.ModuleBuildFlags()...), "-o", out, ".")...)
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build jsapp.wasm: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runModule runs one request against the module with dir mounted at /in.
func runModule(t *testing.T, wasm []byte, dir string, req abi.Request) (abi.Response, string) {
	t.Helper()
	ctx := context.Background()
	rc := wazero.NewRuntimeConfig().WithMemoryLimitPages(16384).WithMemoryCapacityFromMax(true)
	if dir, err := os.UserCacheDir(); err == nil {
		// Compiling the 15 MB module takes ~10 s; reuse it across runs.
		if cache, err := wazero.NewCompilationCacheWithDir(filepath.Join(dir, "rea", "test-wazero")); err == nil {
			rc = rc.WithCompilationCache(cache)
		}
	}
	rt := wazero.NewRuntimeWithConfig(ctx, rc)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	if err := sandbox.InstantiateHostModule(ctx, rt); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	compiled, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("compile %v", time.Since(start))
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	in, _ := json.Marshal(req)
	var stdout, stderr bytes.Buffer
	cfg := wazero.NewModuleConfig().WithArgs("jsapp").WithStdin(bytes.NewReader(in)).WithStdout(&stdout).WithStderr(&stderr).
		WithFSConfig(wazero.NewFSConfig().WithFSMount(root.FS(), "/in"))
	start = time.Now()
	mod, err := rt.InstantiateModule(ctx, compiled, cfg)
	t.Logf("run %v", time.Since(start))
	if mod != nil {
		mod.Close(ctx)
	}
	if err != nil && !isExitZero(err) {
		t.Fatalf("module failed: %v\nstderr: %s", err, stderr.String())
	}
	var resp abi.Response
	if err := json.Unmarshal(stdout.Bytes(), &resp); err != nil {
		t.Fatalf("decode response %q: %v", stdout.String(), err)
	}
	return resp, stderr.String()
}

func isExitZero(err error) bool {
	type exitCoder interface{ ExitCode() uint32 }
	if e, ok := err.(exitCoder); ok {
		return e.ExitCode() == 0
	}
	return false
}

func TestModuleMatchesTheNativeLibraryUnderWazero(t *testing.T) {
	wasm := buildModule(t)
	dir, _ := filepath.Abs("../../testdata/electron/insecure")
	native, err := jsengine.Analyze(context.Background(), os.DirFS(dir), jsengine.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(native)
	// The same bytes with default GC settings and with the GC tuned to a
	// 1 GiB sandbox limit.
	for _, p := range []Params{{}, {MemoryLimitBytes: 1 << 30}} {
		params, _ := json.Marshal(p)
		resp, stderr := runModule(t, wasm, dir, abi.Request{ABI: abi.Version, Operation: "analyze", Params: params})
		if !resp.OK {
			t.Fatalf("error response: %+v", resp.Error)
		}
		if !bytes.Equal(bytes.TrimSpace(resp.Result), want) {
			t.Fatalf("wasm result differs from native:\nwasm:   %.400s\nnative: %.400s", resp.Result, want)
		}
		if !bytes.Contains([]byte(stderr), []byte(`"phase":"parse"`)) {
			t.Errorf("no parse progress on stderr: %q", stderr)
		}
	}
}

func TestModuleRejectsARootOutsideTheMount(t *testing.T) {
	for _, root := range []string{"/etc", "/in/../etc", "in", "/in/./x"} {
		if _, err := mountedRoot(root); err == nil {
			t.Errorf("root %q accepted", root)
		}
	}
	for _, root := range []string{"", "/in", "/in/app"} {
		if _, err := mountedRoot(root); err != nil {
			t.Errorf("root %q rejected: %v", root, err)
		}
	}
}

func TestModuleAnswersUnknownParamsWithInvalidRequest(t *testing.T) {
	_, err := analyze(json.RawMessage(`{"root":"/in","limit":{}}`), nil)
	var ae *abi.Error
	if !errors.As(err, &ae) || ae.Code != abi.CodeInvalidRequest {
		t.Fatalf("err = %v", err)
	}
}

// TestMergeRefusesFactsThatAreNotShardFacts: the merge decodes the facts
// strictly with its params, so null entries and unknown fields are an
// invalid request that names the facts, not a crash or a silent default.
func TestMergeRefusesFactsThatAreNotShardFacts(t *testing.T) {
	for _, params := range []string{
		`{"root":"/in","facts":[null]}`,
		`{"root":"/in","facts":[{"shard":{"index":0,"count":1},"bogus":1}]}`,
		`{"root":"/in","facts":[{"modules":"not a list"}]}`,
	} {
		_, err := merge(json.RawMessage(params), nil)
		var ae *abi.Error
		if !errors.As(err, &ae) || ae.Code != abi.CodeInvalidRequest || !strings.Contains(ae.Message, "facts") && !strings.Contains(ae.Message, "bogus") && !strings.Contains(ae.Message, "modules") {
			t.Errorf("merge(%s) = %v; want invalid_request about the facts", params, err)
		}
	}
}
