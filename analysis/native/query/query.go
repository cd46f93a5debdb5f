// Package query is the native module's dispatcher: one operation per
// provider tool, each answering one page. Its request and response
// vocabulary is nativewire's, which the host imports instead of this
// package; the module main only decodes and calls Run.
package query

import (
	"io"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"rea/abi"
	"rea/analysis/native/executable"
	"rea/analysis/native/nativewire"
)

func targetOf(f *executable.File) Target {
	return Target{Format: f.Format, Architecture: f.Architecture, Architectures: f.Architectures, Type: f.Type, Entry: f.Entry, FileSize: f.FileSize}
}

// Run opens the input under fsys and answers one operation.
func Run(op string, p Params, fsys fs.FS, progress *abi.Reporter) (any, error) {
	if op == OpElectronBinary {
		return electronBinary(fsys, p)
	}
	f, closeInput, err := open(fsys, p)
	if err != nil {
		return nil, err
	}
	defer closeInput()
	switch op {
	case OpLayout:
		return layout(f, p)
	case OpSegments:
		return &Segments{Target: targetOf(f), Segments: f.Segments, Sections: f.Sections}, nil
	case OpFileOffset:
		return fileOffset(f, p)
	case OpReadBytes:
		return readBytes(f, p)
	}
	if r, ok, err := runDepthFile(op, f, p); ok {
		return r, err
	}
	opt := executable.AnalyzeOptions{MinString: p.MinString}
	switch op {
	case OpStrings, OpFunction:
		opt.Strings = true
	case OpOverview:
		opt.CountOnly = true
	}
	switch op {
	case nativewire.OpCodeForString:
		opt.Strings, opt.References = true, true
	case nativewire.OpXrefsToName:
		opt.References = true
	}
	switch op {
	case OpXrefs, OpFunction:
		opt.References = true
	case OpReferences:
		opt.References = p.Direction == "in"
	}
	if progress != nil {
		opt.Progress = func(done, total int64) {
			progress.Report(abi.Progress{Phase: "sweep", Done: done, Total: total, Message: "disassembling code sections"})
		}
	}
	a, err := executable.Analyze(f, opt)
	if err != nil {
		return nil, err
	}
	if isDepthOp(op) {
		return runDepth(op, a, p, opt.Progress)
	}
	switch op {
	case OpOverview:
		return overview(a, p)
	case OpProcedures:
		return procedures(a, p)
	case OpStrings:
		return stringsPage(a, p)
	case OpNames:
		return names(a, p)
	case OpFunction:
		return function(a, p)
	case OpInstructions:
		return instructions(a, p)
	case OpCallers, OpCallees:
		return calls(a, p, op == OpCallers)
	case OpXrefs:
		return xrefs(a, p)
	case OpResolve:
		return resolve(a, p)
	case OpReferences:
		return procedureReferences(a, p)
	}
	return nil, abi.Errorf(abi.CodeInvalidRequest, "unknown operation %q; use one of %v", op, Operations()).WithDetail("field", "operation")
}

// open finds the input in the mount and reads its layout.
func open(fsys fs.FS, p Params) (*executable.File, func(), error) {
	f, fh, err := openFile(fsys, p)
	if err != nil {
		if fh != nil {
			fh.Close()
		}
		return nil, nil, err
	}
	return f, func() { fh.Close() }, nil
}

func openFile(fsys fs.FS, p Params) (*executable.File, fs.File, error) {
	name := p.Input
	if name == "" {
		entries, err := fs.ReadDir(fsys, ".")
		if err != nil || len(entries) != 1 || !entries[0].Type().IsRegular() {
			return nil, nil, abi.Errorf(abi.CodeInvalidRequest, "name the binary with input: the mount does not hold exactly one regular file").WithDetail("field", "input")
		}
		name = entries[0].Name()
	}
	if !fs.ValidPath(name) || path.Clean(name) != name {
		return nil, nil, abi.Errorf(abi.CodeInvalidRequest, "input %q must be a clean relative path inside the mount", name).WithDetail("field", "input")
	}
	fh, err := fsys.Open(name)
	if err != nil {
		return nil, nil, abi.Errorf(abi.CodeInvalidRequest, "cannot open %q: %v", name, err).WithDetail("field", "input")
	}
	st, err := fh.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, fh, abi.Errorf(abi.CodeInvalidRequest, "%q is not a regular file", name).WithDetail("field", "input")
	}
	ra, ok := fh.(io.ReaderAt)
	if !ok {
		return nil, fh, abi.Errorf(abi.CodeInternal, "the mount cannot read %q at offsets", name)
	}
	f, err := executable.Open(ra, st.Size(), executable.Options{Architecture: p.Architecture, Limits: p.Limits})
	return f, fh, err
}

// matcher builds the literal or bounded-regex predicate of a search.
func matcher(p Params) (func(string) bool, error) {
	if p.Pattern == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "pattern must not be empty").WithDetail("field", "pattern")
	}
	if len(p.Pattern) > MaxPatternBytes {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "pattern is %d bytes; at most %d are accepted", len(p.Pattern), MaxPatternBytes).WithDetail("field", "pattern")
	}
	switch p.Mode {
	case "", "literal":
		if p.CaseSensitive {
			return func(s string) bool { return strings.Contains(s, p.Pattern) }, nil
		}
		low := strings.ToLower(p.Pattern)
		return func(s string) bool { return strings.Contains(strings.ToLower(s), low) }, nil
	case "regex":
		expr := p.Pattern
		if !p.CaseSensitive {
			expr = "(?i)" + expr
		}
		// Go's regexp is linear-time (RE2), so a pattern cannot backtrack
		// without bound; its size is capped above.
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "pattern is not a valid regular expression: %v", err).WithDetail("field", "pattern")
		}
		return re.MatchString, nil
	}
	return nil, abi.Errorf(abi.CodeInvalidRequest, "mode must be literal or regex, got %q", p.Mode).WithDetail("field", "mode")
}
