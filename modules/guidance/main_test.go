package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"rea/abi"
	"rea/guidance/index"
	"rea/host/sandbox"
	"rea/wasm/module"
	"rea/wasm/wasmtest"
)

// serve runs one request through the module's real entry point, natively.
func serve(t *testing.T, op string, params any) abi.Response {
	t.Helper()
	raw, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := json.Marshal(abi.Request{ABI: abi.Version, Operation: op, Params: raw})
	var out, errOut bytes.Buffer
	if code := abi.ServeIO(bytes.NewReader(req), &out, &errOut, (&server{}).handlers()); code != abi.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var resp abi.Response
	if err := json.Unmarshal(out.Bytes(), &resp); err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestSearchThenReadTheEmbeddedBundle(t *testing.T) {
	resp := serve(t, "search", index.SearchParams{Query: "integrity record-and-continue"})
	if !resp.OK {
		t.Fatalf("search failed: %+v", resp.Error)
	}
	var res index.SearchResult
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) == 0 {
		t.Fatalf("no match in the packaged bundle")
	}
	resp = serve(t, "read", index.ReadParams{Locator: res.Matches[0].Locator})
	var read index.ReadResult
	if !resp.OK || json.Unmarshal(resp.Result, &read) != nil || !strings.Contains(strings.ToLower(read.Content), "record-and-continue") {
		t.Fatalf("read: %+v", resp)
	}
}

func TestBundleRootMustBeACleanAbsolutePath(t *testing.T) {
	for _, root := range []string{"in", "/in/../etc", "/in/"} {
		resp := serve(t, "search", index.SearchParams{Query: "x", BundleRoot: root})
		if resp.OK || resp.Error.Code != abi.CodeInvalidRequest || resp.Error.Details["field"] != "bundle_root" {
			t.Errorf("bundle_root %q: %+v", root, resp.Error)
		}
	}
	resp := serve(t, "search", index.SearchParams{Query: "x", BundleRoot: "/does/not/exist"})
	if resp.OK || resp.Error.Code != abi.CodeBundleUnavailable {
		t.Fatalf("missing bundle_root: %+v", resp.Error)
	}
}

func TestUnknownParamsAreRejected(t *testing.T) {
	resp := serve(t, "read", map[string]any{"locator": "g1", "cached": true})
	if resp.OK || resp.Error.Code != abi.CodeInvalidRequest {
		t.Fatalf("unknown field accepted: %+v", resp)
	}
}

// TestModuleServesInTheSandbox runs the real wasip1 module in wazero: the
// embedded bundle, a bundle mounted at /in, and a stale locator after the
// mounted bundle changed.
func TestModuleServesInTheSandbox(t *testing.T) {
	cat, err := module.Load(nil, wasmtest.ModuleDir(t, "guidance"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := sandbox.NewRunner(sandbox.Options{Catalog: cat, CacheDir: filepath.Join(os.TempDir(), "rea-test-wazero-cache")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close(context.Background()) })
	limits := sandbox.Limits{MemoryBytes: 256 << 20, Deadline: 60 * time.Second, OutputBytes: 8 << 20}
	call := func(op string, params any, mounts ...sandbox.Mount) (json.RawMessage, error) {
		out, err := r.Run(context.Background(), sandbox.Call{Module: "guidance", Operation: op, Params: params, Limits: limits, Mounts: mounts})
		if err != nil {
			return nil, err
		}
		return out.Result, nil
	}

	raw, err := call("search", index.SearchParams{Query: "preload contextBridge"})
	if err != nil {
		t.Fatalf("search embedded: %v", err)
	}
	var res index.SearchResult
	if err := json.Unmarshal(raw, &res); err != nil || len(res.Matches) == 0 {
		t.Fatalf("embedded search: %s %v", raw, err)
	}

	v1 := fstest.MapFS{"doc.md": {Data: []byte("# Mounted\nalpha bravo\n")}}
	raw, err = call("search", index.SearchParams{Query: "alpha", BundleRoot: "/in"}, sandbox.Mount{GuestPath: "/in", FS: v1})
	if err != nil {
		t.Fatalf("search mounted: %v", err)
	}
	if err := json.Unmarshal(raw, &res); err != nil || len(res.Matches) != 1 || res.Matches[0].Heading != "Mounted" {
		t.Fatalf("mounted search: %s", raw)
	}
	loc := res.Matches[0].Locator
	v2 := fstest.MapFS{"doc.md": {Data: []byte("# Mounted\nalpha bravo charlie\n")}}
	_, err = call("read", index.ReadParams{Locator: loc, BundleRoot: "/in"}, sandbox.Mount{GuestPath: "/in", FS: v2})
	var typed *abi.Error
	if !errors.As(err, &typed) || typed.Code != abi.CodeUnavailable || typed.Details["reason"] != index.ReasonStaleLocator {
		t.Fatalf("stale locator through the sandbox: %v", err)
	}
}
