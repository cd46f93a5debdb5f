package app

import (
	"context"

	"rea/abi"
	"rea/analysis/native/nativewire"
	"rea/providers"
)

// InspectElectronBinary reads an Electron executable's fuse wire and its
// Electron and Chromium versions in the native module's sandbox, with a
// finding for each fuse that lets the app be driven as Node.js, debugged
// or fed code from outside its ASAR. Like inspect_binary_layout it needs
// no deep provider.
func (a *App) InspectElectronBinary(ctx context.Context, req NativeRequest, progress func(abi.Progress)) (*NativeResult[nativewire.ElectronBinary], error) {
	if err := providers.ValidateEnvironment(nil); err != nil {
		return nil, err
	}
	in, err := openNative(req.InputPath)
	if err != nil {
		return nil, err
	}
	defer in.f.Close()
	var out nativewire.ElectronBinary
	res, err := a.runNative(ctx, in, nativewire.OpElectronBinary, nativewire.Params{}, &out, progress)
	if err != nil {
		return nil, err
	}
	if out.ElectronFacts == nil {
		return nil, abi.Errorf(abi.CodeInternal, "the native module returned no Electron binary facts")
	}
	if err := a.checkEmbeddedIntegrity(ctx, in.abs, out.ElectronFacts); err != nil {
		return nil, err
	}
	rec, err := nativeEvidence("inspect_electron_binary", NativeRequest{InputPath: req.InputPath}, in, out.Target, nil, res, out)
	if err != nil {
		return nil, err
	}
	return &NativeResult[nativewire.ElectronBinary]{Evidence: rec, Result: &out}, nil
}
