package capture

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"rea/abi"
)

// ComparisonContract is what two captures must share to be compared: the
// interaction script and how it was observed. It leaves out what a
// comparison exists to vary — the executable, its arguments, environment
// and working directory.
type ComparisonContract struct {
	SchemaVersion       int       `json:"schema_version"`
	Events              []Event   `json:"events"`
	PTY                 bool      `json:"pty"`
	Terminal            *Terminal `json:"terminal"`
	Limits              Limits    `json:"limits"`
	SettleMs            int64     `json:"settle_ms"`
	RootCount           int       `json:"filesystem_root_count"`
	NormalizationSHA256 string    `json:"normalization_sha256"`
}

// contractOf builds the contract of a validated plan (sensitive input
// redacted, so the digest commits to no secret).
func contractOf(p *plan, normalization string) ComparisonContract {
	events := Redact(p.s).Events
	if events == nil {
		events = []Event{}
	}
	var term *Terminal
	if p.s.PTY {
		term = &Terminal{Cols: p.cols, Rows: p.rows}
	}
	return ComparisonContract{SchemaVersion: 1, Events: events, PTY: p.s.PTY, Terminal: term, Limits: p.limits,
		SettleMs: p.settleMs, RootCount: len(p.roots), NormalizationSHA256: normalization}
}

// Comparison dimensions, in the order their verdicts are reported.
var comparisonDimensions = []string{"interaction", "terminal", "exit", "filesystem", "process"}

// Comparison is the result of Compare.
type Comparison struct {
	SchemaVersion int `json:"schema_version"`
	// ContractSHA256 is the contract both captures share.
	ContractSHA256 string `json:"comparison_contract_sha256"`
	LeftRunID      string `json:"left_run_id"`
	RightRunID     string `json:"right_run_id"`
	// Verdict is equivalent when every dimension is equal, else divergent.
	Verdict    string      `json:"verdict"`
	Dimensions []Dimension `json:"dimensions"`
	// FirstDivergence is the earliest difference in journal order, or null.
	FirstDivergence *Divergence `json:"first_divergence"`
}

// Dimension is one compared aspect.
type Dimension struct {
	Name string `json:"name"`
	// Verdict is equal or different.
	Verdict string `json:"verdict"`
	Left    any    `json:"left"`
	Right   any    `json:"right"`
}

// Divergence locates the first difference by journal position (never by
// timing: elapsed times differ between any two runs).
type Divergence struct {
	Dimension string `json:"dimension"`
	// Step is the 0-based index in the timing-free observation sequence.
	Step      int    `json:"step"`
	LeftSeq   *int   `json:"left_seq"`
	RightSeq  *int   `json:"right_seq"`
	LeftStep  string `json:"left"`
	RightStep string `json:"right"`
}

// step is one timing-free observation from a journal.
type step struct {
	seq  int
	dim  string
	text string
}

// steps projects a journal onto what two runs of the same script should
// repeat: interactions in order, limits, the exit. Output chunk sizes,
// pids, cleanup signals and elapsed times are left out.
func steps(r *Result) []step {
	var out []step
	for _, e := range r.EventJournal {
		d := e.Details
		var dim, text string
		switch e.Kind {
		case "output_match":
			dim, text = "interaction", fmt.Sprintf("output_match %q #%v", d["literal"], d["occurrence"])
		case "input":
			dim, text = "interaction", fmt.Sprintf("input %q", d["data"])
		case "eof", "checkpoint":
			dim, text = "interaction", fmt.Sprintf("%s %v", e.Kind, d["name"])
		case "resize":
			dim, text = "interaction", fmt.Sprintf("resize %vx%v %v", d["cols"], d["rows"], d["result"])
		case "signal":
			dim, text = "interaction", fmt.Sprintf("signal %v %v", d["signal"], d["result"])
		case "limit":
			dim, text = "exit", fmt.Sprintf("limit %v", d["reason"])
		case "exit":
			dim = "exit"
			if s, ok := d["signal"]; ok {
				text = fmt.Sprintf("exit signal %v", s)
			} else {
				text = fmt.Sprintf("exit code %v", d["exit_code"])
			}
		default:
			continue
		}
		out = append(out, step{seq: e.Seq, dim: dim, text: text})
	}
	return out
}

// fsChanges names changes relative to the root's index, so runs under
// different directories compare.
func fsChanges(r *Result) []string {
	if r.FilesystemChanges == nil {
		return nil
	}
	var roots []string
	if len(r.Checkpoints) > 0 {
		for _, rs := range r.Checkpoints[0].Roots {
			roots = append(roots, rs.Root)
		}
	}
	rel := func(p string) string {
		best, idx := "", -1
		for i, root := range roots {
			if (p == root || strings.HasPrefix(p, root+"/")) && len(root) > len(best) {
				best, idx = root, i
			}
		}
		if idx < 0 {
			return p
		}
		return fmt.Sprintf("<root:%d>%s", idx, strings.TrimPrefix(p, best))
	}
	var out []string
	for kind, ps := range map[string][]string{"created": r.FilesystemChanges.Created, "modified": r.FilesystemChanges.Modified,
		"deleted": r.FilesystemChanges.Deleted} {
		for _, p := range ps {
			out = append(out, kind+" "+rel(p))
		}
	}
	sort.Strings(out)
	return out
}

// processNames is the sorted multiset of owned process names.
func processNames(r *Result) []string {
	out := make([]string, 0, len(r.Processes))
	for _, p := range r.Processes {
		out = append(out, p.Comm)
	}
	sort.Strings(out)
	return out
}

func exitOf(r *Result) string {
	switch {
	case r.ExitCode != nil:
		return fmt.Sprintf("%s, exit code %d", r.Termination.Reason, *r.ExitCode)
	case r.Signal != nil:
		return fmt.Sprintf("%s, signal %s", r.Termination.Reason, *r.Signal)
	}
	return r.Termination.Reason + ", no exit observed"
}

// Compare compares two captures made under the same comparison contract.
// Captures under different contracts are refused (invalid_request): their
// differences would say more about the scripts than the programs.
func Compare(left, right *Result) (*Comparison, error) {
	if left == nil || right == nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "compare needs two captures")
	}
	lc, rc := left.Manifest.ComparisonContractSHA256, right.Manifest.ComparisonContractSHA256
	if lc == "" || lc != rc {
		return nil, abi.Errorf(abi.CodeInvalidRequest,
			"the captures were made under different comparison contracts (%s vs %s); rerun both with the same events, pty, terminal, limits, settle_ms, number of filesystem_roots and normalisation", short(lc), short(rc)).
			WithDetail("left_comparison_contract_sha256", lc).WithDetail("right_comparison_contract_sha256", rc)
	}
	c := &Comparison{SchemaVersion: 1, ContractSHA256: lc, LeftRunID: left.RunID, RightRunID: right.RunID}
	ls, rs := steps(left), steps(right)
	var lsText, rsText []string
	for _, s := range ls {
		if s.dim == "interaction" {
			lsText = append(lsText, s.text)
		}
	}
	for _, s := range rs {
		if s.dim == "interaction" {
			rsText = append(rsText, s.text)
		}
	}
	values := map[string][2]any{
		"interaction": {lsText, rsText},
		"terminal":    {left.Output.Normalized, right.Output.Normalized},
		"exit":        {exitOf(left), exitOf(right)},
		"filesystem":  {fsChanges(left), fsChanges(right)},
		"process":     {processNames(left), processNames(right)},
	}
	equal := func(a, b any) bool { return fmt.Sprintf("%q", a) == fmt.Sprintf("%q", b) }
	c.Verdict = "equivalent"
	for _, name := range comparisonDimensions {
		v := values[name]
		d := Dimension{Name: name, Verdict: "equal", Left: v[0], Right: v[1]}
		if name == "terminal" {
			// The texts can be large: report lengths and where they part.
			l, r := left.Output.Normalized, right.Output.Normalized
			d.Left, d.Right = map[string]any{"bytes": len(l), "sha256": left.Output.SHA256}, map[string]any{"bytes": len(r), "sha256": right.Output.SHA256}
		}
		if !equal(v[0], v[1]) {
			d.Verdict, c.Verdict = "different", "divergent"
		}
		c.Dimensions = append(c.Dimensions, d)
	}
	c.FirstDivergence = firstDivergence(ls, rs, left, right, values)
	return c, nil
}

// firstDivergence walks both timing-free sequences in journal order; when
// they agree, a difference in the terminal, filesystem or process
// dimension is reported after the last step.
func firstDivergence(ls, rs []step, left, right *Result, values map[string][2]any) *Divergence {
	n := min(len(ls), len(rs))
	for i := range n {
		if ls[i].text != rs[i].text {
			return &Divergence{Dimension: ls[i].dim, Step: i, LeftSeq: &ls[i].seq, RightSeq: &rs[i].seq, LeftStep: ls[i].text, RightStep: rs[i].text}
		}
	}
	if len(ls) != len(rs) {
		d := &Divergence{Step: n, LeftStep: "(end)", RightStep: "(end)"}
		if n < len(ls) {
			d.Dimension, d.LeftSeq, d.LeftStep = ls[n].dim, &ls[n].seq, ls[n].text
		}
		if n < len(rs) {
			d.Dimension, d.RightSeq, d.RightStep = rs[n].dim, &rs[n].seq, rs[n].text
		}
		return d
	}
	if l, r := left.Output.Normalized, right.Output.Normalized; l != r {
		i := 0
		for i < len(l) && i < len(r) && l[i] == r[i] {
			i++
		}
		return &Divergence{Dimension: "terminal", Step: n, LeftStep: excerpt(l, i), RightStep: excerpt(r, i)}
	}
	for _, name := range []string{"filesystem", "process"} {
		v := values[name]
		a, _ := v[0].([]string)
		b, _ := v[1].([]string)
		if !slices.Equal(a, b) {
			return &Divergence{Dimension: name, Step: n, LeftStep: strings.Join(a, "; "), RightStep: strings.Join(b, "; ")}
		}
	}
	return nil
}

// excerpt shows up to 64 bytes of s from the byte offset where two texts
// part, prefixed with the offset.
func excerpt(s string, at int) string {
	end := min(len(s), at+64)
	return fmt.Sprintf("at byte %d: %q", at, s[min(at, len(s)):end])
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	if s == "" {
		return "none"
	}
	return s
}
