package nativewire

// OpElectronBinary's result: an Electron executable's fuse wires,
// versions and the findings they give.

// ElectronFuse is one decoded fuse.
type ElectronFuse struct {
	Index int    `json:"index"`
	Name  string `json:"name"`
	// State is enabled, disabled, removed or unknown (with Raw the byte).
	State string `json:"state"`
	Raw   string `json:"raw"`
}

// FuseWire is one fuse wire found after a sentinel.
type FuseWire struct {
	Offset  int64          `json:"offset"`
	Version int            `json:"version"`
	Length  int            `json:"length"`
	Fuses   []ElectronFuse `json:"fuses"`
	// Truncated says the file ended inside the wire.
	Truncated bool `json:"truncated,omitempty"`
}

// VersionCandidate is one product version string with where it was first seen.
type VersionCandidate struct {
	Value       string `json:"value"`
	Occurrences int    `json:"occurrences"`
	FirstOffset int64  `json:"first_offset"`
}

// FuseFinding is one insecure fuse with what it lets an attacker do.
type FuseFinding struct {
	RuleID      string `json:"rule_id"`
	Severity    string `json:"severity"`
	Confidence  string `json:"confidence"`
	Fuse        string `json:"fuse"`
	State       string `json:"state"`
	Message     string `json:"message"`
	Consequence string `json:"consequence"`
	Remediation string `json:"remediation"`
	Offset      int64  `json:"offset"`
}

// ElectronFacts is a scan's result.
type ElectronFacts struct {
	FileSize int64 `json:"file_size"`
	// SentinelCount counts every sentinel; Wires decodes at most MaxWires.
	SentinelCount int                `json:"sentinel_count"`
	Wires         []FuseWire         `json:"wires"`
	Electron      []VersionCandidate `json:"electron_versions"`
	Chromium      []VersionCandidate `json:"chromium_versions"`
	// ElectronVersion/ChromiumVersion are the most frequent candidates.
	ElectronVersion string        `json:"electron_version,omitempty"`
	ChromiumVersion string        `json:"chromium_version,omitempty"`
	Findings        []FuseFinding `json:"findings"`
	Limitations     []string      `json:"limitations"`
	// AsarIntegrity is the ASAR header integrity a Windows executable
	// embeds as a resource (type INTEGRITY, name ELECTRONASAR); nil when
	// the file is not a PE or has no such resource.
	AsarIntegrity *EmbeddedIntegrity `json:"asar_integrity,omitempty"`
}

// EmbeddedIntegrity is the integrity resource of a Windows Electron
// executable: a JSON list of {file, alg, value}, file relative to the
// executable's directory with backslashes, value the SHA-256 of the
// archive's JSON header string.
type EmbeddedIntegrity struct {
	Source string `json:"source"`
	// Offset and Size place the resource's bytes in the file.
	Offset  int64                   `json:"offset"`
	Size    int64                   `json:"size"`
	Entries []DeclaredASARIntegrity `json:"entries"`
	// Skipped counts list elements Electron would skip (not an object, no
	// file, an algorithm other than SHA256, no value).
	Skipped int `json:"skipped,omitempty"`
	// Error says why the resource could not be read as Electron reads it.
	Error string `json:"error,omitempty"`
	// Checks compare each entry with the archive beside the executable
	// (filled by the host, which has the artifact module hash headers).
	Checks []ASARIntegrityCheck `json:"checks,omitempty"`
}

// DeclaredASARIntegrity is one element of the integrity resource.
type DeclaredASARIntegrity struct {
	File  string `json:"file"`
	Alg   string `json:"alg"`
	Value string `json:"value"`
}

// ASARIntegrityCheck is one declared archive against its header: status
// match, mismatch, missing, unreadable, unsupported or unfindable (a path
// Electron's lookup cannot find).
type ASARIntegrityCheck struct {
	File     string `json:"file"`
	Archive  string `json:"archive"`
	Declared string `json:"declared_hash"`
	Observed string `json:"observed_hash,omitempty"`
	Status   string `json:"status"`
	Detail   string `json:"detail,omitempty"`
}

// ElectronBinary is inspect_electron_binary's result. Target is filled
// when the file parses as ELF, PE or Mach-O; the scan runs over the raw
// bytes either way.
type ElectronBinary struct {
	Target Target `json:"target"`
	*ElectronFacts
}
