package app

import (
	"context"
	"encoding/json"
	"os"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/host/sandbox"
)

// CheckASARIntegrity compares the ElectronAsarIntegrity a macOS bundle's
// Info.plist declares with the SHA-256 of each declared archive's header,
// in the artifact module's sandbox. dir is the directory mounted (an
// extraction), contents the bundle's X.app/Contents relative to it.
func (a *App) CheckASARIntegrity(ctx context.Context, dir, contents string) (*inventory.IntegrityResult, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "cannot open %q: %v", dir, err)
	}
	defer root.Close()
	out, err := a.Runner.Run(ctx, sandbox.Call{
		Module:    ArtifactModule,
		Operation: inventory.IntegrityOperation,
		Params:    inventory.IntegrityRequest{Contents: contents},
		Mounts:    []sandbox.Mount{{GuestPath: inventory.DefaultMountPath, FS: sandbox.DirFS(root)}},
		Limits:    a.Config.Limits,
	})
	if err != nil {
		return nil, err
	}
	var res inventory.IntegrityResult
	if err := json.Unmarshal(out.Result, &res); err != nil {
		return nil, abi.Errorf(abi.CodeModuleFailed, "the artifact module answered with an unreadable integrity check: %v", err)
	}
	return &res, nil
}
