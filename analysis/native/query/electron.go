package query

import (
	"io"
	"io/fs"
	"rea/analysis/native/nativewire"

	"rea/abi"
	"rea/analysis/native/electronbin"
)

// OpElectronBinary reads an Electron executable's fuse wire and versions.
const OpElectronBinary = nativewire.OpElectronBinary

// ElectronBinary is inspect_electron_binary's result.
type ElectronBinary = nativewire.ElectronBinary

// electronBinary runs before the executable parser so that a layout the
// parser rejects still has its bytes scanned.
func electronBinary(fsys fs.FS, p Params) (*ElectronBinary, error) {
	f, fh, err := openFile(fsys, p)
	if fh == nil {
		return nil, err
	}
	defer fh.Close()
	st, serr := fh.Stat()
	if serr != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "cannot stat the input: %v", serr).WithDetail("field", "input")
	}
	ra, ok := fh.(io.ReaderAt)
	if !ok {
		return nil, abi.Errorf(abi.CodeInternal, "the mount cannot read the input at offsets")
	}
	out := &ElectronBinary{Target: Target{Format: "unknown", FileSize: st.Size()}}
	var parseLimit string
	if f != nil {
		out.Target = targetOf(f)
	} else if err != nil {
		if !st.Mode().IsRegular() {
			return nil, err
		}
		parseLimit = "the file did not parse as ELF, PE or Mach-O (" + err.Error() + "); its bytes were scanned anyway"
	}
	facts, err := electronbin.Scan(ra, st.Size(), electronbin.DefaultLimits)
	if err != nil {
		return nil, abi.Errorf(abi.CodeArtifactOperationFailed, "scanning the input: %v", err)
	}
	integrity, err := electronbin.PEIntegrity(ra, st.Size())
	if err != nil {
		facts.Limitations = append(facts.Limitations, "the PE headers could not be read for the ASAR integrity resource: "+err.Error())
	}
	facts.AsarIntegrity = integrity
	if parseLimit != "" {
		facts.Limitations = append(facts.Limitations, parseLimit)
	}
	out.ElectronFacts = facts
	return out, nil
}
