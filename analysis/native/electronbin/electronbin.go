// Package electronbin reads the facts an Electron executable carries below
// its JavaScript: the fuse wire @electron/fuses flips in place (which
// decides whether the app can be turned into a Node.js interpreter or
// debugger) and the Electron and Chromium versions in its strings. It only
// scans bytes; it never runs the binary.
package electronbin

import (
	"bytes"
	"fmt"
	"io"
	"rea/analysis/native/nativewire"
	"sort"
)

// The scan's result types are the native module's wire vocabulary
// (nativewire), so the host decodes them without linking the scanner.
type (
	Fuse    = nativewire.ElectronFuse
	Wire    = nativewire.FuseWire
	Version = nativewire.VersionCandidate
	Finding = nativewire.FuseFinding
	Facts   = nativewire.ElectronFacts
)

// Sentinel precedes the fuse wire in every Electron ≥ 12 binary
// (@electron/fuses constants.SENTINEL). The wire is laid out as
// sentinel, version byte (numeric 1 for V1), length byte N, then N state
// bytes: '0' disabled, '1' enabled, 'r' removed.
const Sentinel = "dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX"

// WireVersionV1 is the only wire version @electron/fuses knows.
const WireVersionV1 = 1

// Fuse state bytes (@electron/fuses FuseState).
const (
	StateDisabled = '0'
	StateEnabled  = '1'
	StateRemoved  = 'r'
)

// V1Names are the V1 wire's fuses in wire order (FuseV1Options).
var V1Names = []string{
	"RunAsNode",
	"EnableCookieEncryption",
	"EnableNodeOptionsEnvironmentVariable",
	"EnableNodeCliInspectArguments",
	"EnableEmbeddedAsarIntegrityValidation",
	"OnlyLoadAppFromAsar",
	"LoadBrowserProcessSpecificV8Snapshot",
	"GrantFileProtocolExtraPrivileges",
}

// Limits bound a scan.
type Limits struct {
	// MaxWires is how many sentinels are decoded (a universal Mach-O has
	// one per slice); more are counted, not decoded.
	MaxWires int
	// MaxVersions bounds the distinct version strings kept per product.
	MaxVersions int
}

// DefaultLimits suit any real Electron build.
var DefaultLimits = Limits{MaxWires: 8, MaxVersions: 16}

const chunk = 1 << 20

// overlap keeps a match that straddles two chunks: the sentinel, two
// header bytes and up to 255 fuses, or a version string.
const overlap = len(Sentinel) + 2 + 255

// Scan reads r once in chunks and collects wires and versions.
func Scan(r io.ReaderAt, size int64, lim Limits) (*Facts, error) {
	if lim.MaxWires <= 0 {
		lim.MaxWires = DefaultLimits.MaxWires
	}
	if lim.MaxVersions <= 0 {
		lim.MaxVersions = DefaultLimits.MaxVersions
	}
	f := &Facts{FileSize: size, Wires: []Wire{}, Electron: []Version{}, Chromium: []Version{}, Findings: []Finding{}, Limitations: []string{}}
	electron := map[string]*Version{}
	chrome := map[string]*Version{}
	buf := make([]byte, chunk+overlap)
	var base int64 // file offset of buf[0]
	carry := 0     // bytes at buf[:carry] carried from the previous read
	for base+int64(carry) < size {
		n, err := r.ReadAt(buf[carry:], base+int64(carry))
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("reading at %d: %w", base+int64(carry), err)
		}
		if n == 0 {
			break
		}
		data := buf[:carry+n]
		final := base+int64(len(data)) >= size
		// Matches must start before limit, except in the last chunk, so
		// the overlap is scanned once, in the next chunk.
		limit := len(data)
		if !final && len(data) > overlap {
			limit = len(data) - overlap
		}
		scanSentinels(f, data, base, limit, lim)
		scanVersions(electron, data, base, limit, "Electron/", electronVersion, lim, f)
		scanVersions(chrome, data, base, limit, "Chrome/", chromiumVersion, lim, f)
		if final {
			break
		}
		carry = copy(buf, data[limit:])
		base += int64(limit)
	}
	f.Electron, f.ElectronVersion = ranked(electron)
	f.Chromium, f.ChromiumVersion = ranked(chrome)
	if f.SentinelCount == 0 {
		f.Limitations = append(f.Limitations, "no fuse sentinel found: this is not an Electron ≥ 12 executable (on macOS the wire is in Contents/Frameworks/Electron Framework.framework/Electron Framework)")
	}
	if f.SentinelCount > len(f.Wires) {
		f.Limitations = append(f.Limitations, fmt.Sprintf("%d fuse sentinels found; the first %d are decoded", f.SentinelCount, len(f.Wires)))
	}
	if f.ElectronVersion == "" {
		f.Limitations = append(f.Limitations, "no Electron/N.N.N string found; the Electron version is not stated")
	}
	if f.ChromiumVersion == "" {
		f.Limitations = append(f.Limitations, "no Chrome/N.N.N.N string found; the Chromium version is not stated")
	}
	f.Findings = findings(f.Wires)
	return f, nil
}

func scanSentinels(f *Facts, data []byte, base int64, limit int, lim Limits) {
	for i := 0; i < limit; {
		j := bytes.Index(data[i:], []byte(Sentinel))
		if j < 0 || i+j >= limit {
			return
		}
		at := i + j
		f.SentinelCount++
		if len(f.Wires) < lim.MaxWires {
			f.Wires = append(f.Wires, decodeWire(data[at+len(Sentinel):], base+int64(at)))
		}
		i = at + len(Sentinel)
	}
}

// decodeWire reads the header and states after one sentinel.
func decodeWire(b []byte, off int64) Wire {
	w := Wire{Offset: off, Fuses: []Fuse{}}
	if len(b) < 2 {
		w.Truncated = true
		return w
	}
	w.Version, w.Length = int(b[0]), int(b[1])
	states := b[2:]
	if len(states) < w.Length {
		w.Truncated = true
	} else {
		states = states[:w.Length]
	}
	for i, s := range states {
		fz := Fuse{Index: i, Name: fmt.Sprintf("fuse_%d", i), Raw: fmt.Sprintf("0x%02x", s), State: stateName(s)}
		if w.Version == WireVersionV1 && i < len(V1Names) {
			fz.Name = V1Names[i]
		}
		w.Fuses = append(w.Fuses, fz)
	}
	return w
}

func stateName(b byte) string {
	switch b {
	case StateDisabled:
		return "disabled"
	case StateEnabled:
		return "enabled"
	case StateRemoved:
		return "removed"
	}
	return "unknown"
}

// electronVersion matches N.N.N with an optional -prerelease.
func electronVersion(b []byte) int {
	n := dotted(b, 3)
	if n == 0 {
		return 0
	}
	if n < len(b) && b[n] == '-' {
		k := n + 1
		for k < len(b) && k-n < 32 && (isAlnum(b[k]) || b[k] == '.') {
			k++
		}
		if k > n+1 {
			n = k
		}
	}
	return n
}

// chromiumVersion matches N.N.N.N.
func chromiumVersion(b []byte) int { return dotted(b, 4) }

// dotted matches exactly parts dot-separated decimal numbers (each ≤ 6
// digits) not followed by another digit or dot-digit.
func dotted(b []byte, parts int) int {
	i := 0
	for p := 0; p < parts; p++ {
		if p > 0 {
			if i >= len(b) || b[i] != '.' {
				return 0
			}
			i++
		}
		start := i
		for i < len(b) && i-start < 7 && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == start || i-start > 6 {
			return 0
		}
	}
	if i < len(b) && (b[i] >= '0' && b[i] <= '9') {
		return 0
	}
	if i+1 < len(b) && b[i] == '.' && b[i+1] >= '0' && b[i+1] <= '9' {
		return 0
	}
	return i
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func scanVersions(seen map[string]*Version, data []byte, base int64, limit int, prefix string, match func([]byte) int, lim Limits, f *Facts) {
	p := []byte(prefix)
	for i := 0; i < limit; {
		j := bytes.Index(data[i:], p)
		if j < 0 || i+j >= limit {
			return
		}
		at := i + j
		rest := data[at+len(p):]
		if len(rest) > 64 {
			rest = rest[:64]
		}
		if n := match(rest); n > 0 {
			v := string(rest[:n])
			if e, ok := seen[v]; ok {
				e.Occurrences++
			} else if len(seen) < lim.MaxVersions {
				seen[v] = &Version{Value: v, Occurrences: 1, FirstOffset: base + int64(at)}
			}
		}
		i = at + len(p)
	}
}

// ranked orders candidates by occurrences, then first offset.
func ranked(m map[string]*Version) ([]Version, string) {
	out := make([]Version, 0, len(m))
	for _, v := range m {
		out = append(out, *v)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Occurrences != out[j].Occurrences {
			return out[i].Occurrences > out[j].Occurrences
		}
		return out[i].FirstOffset < out[j].FirstOffset
	})
	if len(out) == 0 {
		return out, ""
	}
	return out, out[0].Value
}

// rule says which state of a fuse is insecure and what it permits.
type rule struct {
	id, severity, insecure, message, consequence, remediation string
}

var rules = map[string]rule{
	"RunAsNode": {"electron-fuse-run-as-node", "high", "enabled",
		"the RunAsNode fuse is enabled",
		"ELECTRON_RUN_AS_NODE=1 turns this app into a Node.js interpreter: anyone who can start it with that variable runs arbitrary JavaScript with the app's identity, code signature, entitlements and TCC/keychain grants, bypassing the app's own code.",
		"flip RunAsNode off with @electron/fuses (FusesPlugin in Electron Forge, electronFuses in electron-builder) unless the app really spawns itself as Node"},
	"EnableNodeOptionsEnvironmentVariable": {"electron-fuse-node-options", "high", "enabled",
		"the EnableNodeOptionsEnvironmentVariable fuse is enabled",
		"the NODE_OPTIONS environment variable is honoured: NODE_OPTIONS=--require=/path/evil.js injects code into the main process at start-up under the app's identity.",
		"flip EnableNodeOptionsEnvironmentVariable off with @electron/fuses"},
	"EnableNodeCliInspectArguments": {"electron-fuse-inspect-arguments", "high", "enabled",
		"the EnableNodeCliInspectArguments fuse is enabled",
		"--inspect, --inspect-brk and SIGUSR1 are honoured: anyone who can launch the app can attach a debugger to the main process and run arbitrary code in it, with full Node.js access.",
		"flip EnableNodeCliInspectArguments off with @electron/fuses"},
	"EnableEmbeddedAsarIntegrityValidation": {"electron-fuse-asar-integrity-off", "medium", "disabled",
		"the EnableEmbeddedAsarIntegrityValidation fuse is disabled",
		"app.asar is loaded without checking it against the hash embedded in the executable: whoever can write the installation directory can replace the app's code without breaking the code signature of the executable.",
		"enable EnableEmbeddedAsarIntegrityValidation (with OnlyLoadAppFromAsar) and let the packager embed the ASAR integrity hash"},
	"OnlyLoadAppFromAsar": {"electron-fuse-app-outside-asar", "medium", "disabled",
		"the OnlyLoadAppFromAsar fuse is disabled",
		"Electron also looks for the app in resources/app/ and resources/default_app.asar: a folder dropped next to app.asar is loaded instead, so ASAR integrity validation can be side-stepped.",
		"enable OnlyLoadAppFromAsar with @electron/fuses"},
}

// findings reports each insecure fuse once, from the first wire that
// holds it (a universal binary's slices normally agree).
func findings(wires []Wire) []Finding {
	out := []Finding{}
	seen := map[string]bool{}
	for _, w := range wires {
		if w.Version != WireVersionV1 {
			continue
		}
		for _, fz := range w.Fuses {
			r, ok := rules[fz.Name]
			if !ok || fz.State != r.insecure || seen[fz.Name] {
				continue
			}
			seen[fz.Name] = true
			out = append(out, Finding{RuleID: r.id, Severity: r.severity, Confidence: "observed", Fuse: fz.Name, State: fz.State,
				Message: r.message, Consequence: r.consequence, Remediation: r.remediation, Offset: w.Offset + int64(len(Sentinel)) + 2 + int64(fz.Index)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out
}
