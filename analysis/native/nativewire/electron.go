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
}

// ElectronBinary is inspect_electron_binary's result. Target is filled
// when the file parses as ELF, PE or Mach-O; the scan runs over the raw
// bytes either way.
type ElectronBinary struct {
	Target Target `json:"target"`
	*ElectronFacts
}
