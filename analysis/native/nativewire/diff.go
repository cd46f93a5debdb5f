package nativewire

import "rea/abi"

// OpDiff matches every function of two builds of a binary (the input at
// the mount and the one at OtherMount).
const OpDiff = "diff"

// OtherMount is where the diff's second binary is mounted.
const OtherMount = "/other"

// Diff statuses of one function.
const (
	DiffUnchanged = "unchanged"
	DiffChanged   = "changed"
	DiffAdded     = "added"
	DiffRemoved   = "removed"
	// DiffAmbiguous: several candidates on the other side share the
	// function's fingerprint, so no match is claimed.
	DiffAmbiguous = "ambiguous"
)

// DiffFunction is one function's side of a diff.
type DiffFunction struct {
	Address      Addr   `json:"address"`
	Name         string `json:"name"`
	Demangled    string `json:"demangled,omitempty"`
	Instructions int    `json:"instructions"`
	Blocks       int    `json:"blocks"`
	Hash         string `json:"hash"`
}

// DiffChange is one function's result: the pair (or one side), how it was
// matched and how similar the sides are.
type DiffChange struct {
	Status string        `json:"status"`
	Left   *DiffFunction `json:"left,omitempty"`
	Right  *DiffFunction `json:"right,omitempty"`
	// MatchedBy: name, hash (normalised instructions), fingerprint
	// (CFG shape, strings, callees); empty when unmatched.
	MatchedBy string `json:"matched_by,omitempty"`
	// Similarity is 0..1 over instructions, CFG shape, strings and callees.
	Similarity float64 `json:"similarity"`
	// Candidates counts the other side's functions sharing an ambiguous
	// function's fingerprint.
	Candidates int `json:"candidates,omitempty"`
}

// DiffSummary counts every status.
type DiffSummary struct {
	LeftFunctions  int `json:"left_functions"`
	RightFunctions int `json:"right_functions"`
	Unchanged      int `json:"unchanged"`
	Changed        int `json:"changed"`
	Added          int `json:"added"`
	Removed        int `json:"removed"`
	Ambiguous      int `json:"ambiguous"`
	ByName         int `json:"matched_by_name"`
	ByHash         int `json:"matched_by_hash"`
	ByFingerprint  int `json:"matched_by_fingerprint"`
}

// BinaryDiff is diff_binaries' result: the summary, and the changed,
// added, removed and ambiguous functions paged (most different first);
// unchanged pairs are counted, not listed.
type BinaryDiff struct {
	Left  Target `json:"left"`
	Right Target `json:"right"`
	// RightSHA256 is the second binary's digest (the Evidence subject is
	// the first); the host fills it.
	RightSHA256 string `json:"right_sha256,omitempty"`
	// Comparison is the compare_functions Evidence of the first changed
	// pairs' dossiers, when the host was asked for it.
	Comparison  *string              `json:"compare_functions_evidence_id,omitempty"`
	Summary     DiffSummary          `json:"summary"`
	Changes     abi.Page[DiffChange] `json:"changes"`
	Limitations []string             `json:"limitations"`
}
