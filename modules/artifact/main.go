// Command artifact is the artifact wasm module: it lists the structure of an
// untrusted container (ASAR, zip, tar, tar.gz or directory) mounted
// read-only at /in and validates every byte range it reports. Hashing is the
// host's job; this module never returns file bytes.
package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"

	"rea/abi"
	"rea/analysis/artifact/container"
	"rea/analysis/artifact/inventory"
)

func main() {
	abi.Serve(map[string]abi.Handler{inventory.Operation: inventoryHandler, inventory.IntegrityOperation: integrityHandler})
}

// integrityHandler checks a bundle's declared ASAR integrity against its
// archives' headers (Info.plist and the headers are parsed here, not in
// the host).
func integrityHandler(params json.RawMessage, _ *abi.Reporter) (any, error) {
	var req inventory.IntegrityRequest
	if err := abi.DecodeParams(params, &req); err != nil {
		return nil, err
	}
	mount := req.MountPath
	if mount == "" {
		mount = inventory.DefaultMountPath
	}
	if len(req.Declared) > 0 {
		return container.CheckDeclaredASARIntegrity(os.DirFS(mount), req.Declared, inventory.Limits{})
	}
	return container.CheckASARIntegrity(os.DirFS(mount), req.Contents, inventory.Limits{})
}

func inventoryHandler(params json.RawMessage, progress *abi.Reporter) (any, error) {
	var req inventory.Request
	if err := abi.DecodeParams(params, &req); err != nil {
		return nil, err
	}
	mount := req.MountPath
	if mount == "" {
		mount = inventory.DefaultMountPath
	}
	if !path.IsAbs(mount) {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "mount_path %q must be absolute", mount).WithDetail("field", "mount_path")
	}
	input := req.Input
	if input == "" {
		input = "."
	}
	var streams fs.FS
	if req.StreamMount != "" {
		if !path.IsAbs(req.StreamMount) {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "stream_mount %q must be absolute", req.StreamMount).WithDetail("field", "stream_mount")
		}
		streams = os.DirFS(req.StreamMount)
	}
	return container.InventoryWith(os.DirFS(mount), input, req.Format, req.Limits,
		container.Options{Streams: streams, TopLevelOnly: req.TopLevelOnly, HostChecksums: req.HostChecksums}, progress.Report)
}
