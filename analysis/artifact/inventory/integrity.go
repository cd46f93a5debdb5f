package inventory

// IntegrityOperation is the artifact module operation that checks the ASAR
// integrity an Electron app declares against its archives' headers.
const IntegrityOperation = "asar_integrity"

// IntegrityRequest names a macOS bundle's Contents directory (holding
// Info.plist and Resources/) under the mount.
type IntegrityRequest struct {
	MountPath string `json:"mount_path,omitempty"`
	// Contents is the slash path of X.app/Contents relative to the mount.
	Contents string `json:"contents"`
	// Declared, when set, lists the archives and header hashes a Windows
	// executable embeds (its INTEGRITY resource), Archive relative to the
	// mount (the executable's directory); no Info.plist is read then.
	Declared []DeclaredArchive `json:"declared,omitempty"`
}

// DeclaredArchive is one archive whose header hash an executable declares.
type DeclaredArchive struct {
	Archive   string `json:"archive"`
	Algorithm string `json:"algorithm"`
	Hash      string `json:"hash"`
}

// IntegrityResult is what Info.plist declares and what the headers hash to.
type IntegrityResult struct {
	// Declared says Info.plist has an ElectronAsarIntegrity dictionary.
	Declared bool             `json:"declared"`
	Checks   []IntegrityCheck `json:"checks"`
	Limits   Limits           `json:"limits"`
	Notes    []string         `json:"notes"`
}

// IntegrityCheck is one archive: status match, mismatch, missing (the
// declared archive is absent), unreadable (not an ASAR) or unsupported
// (an algorithm other than SHA256).
type IntegrityCheck struct {
	Archive   string `json:"archive"`
	Algorithm string `json:"algorithm"`
	Declared  string `json:"declared_hash"`
	Observed  string `json:"observed_hash,omitempty"`
	Status    string `json:"status"`
	Detail    string `json:"detail,omitempty"`
}
