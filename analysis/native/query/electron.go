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

// ElectronBinary is inspect_electron_binary's result. Target is filled
// when the file parses as ELF, PE or Mach-O; the scan runs over the raw
// bytes either way (the wire sits in a data section, and a file that is
// not an executable simply has no sentinel).
type ElectronBinary struct {
	Target Target `json:"target"`
	*electronbin.Facts
}

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
	if parseLimit != "" {
		facts.Limitations = append(facts.Limitations, parseLimit)
	}
	out.Facts = facts
	return out, nil
}
