//go:build unix

package capture

import (
	"slices"
	"testing"

	"rea/abi"
)

func dimension(c *Comparison, name string) Dimension {
	for _, d := range c.Dimensions {
		if d.Name == name {
			return d
		}
	}
	return Dimension{}
}

func TestTwoRunsOfTheSameScriptAreEquivalent(t *testing.T) {
	s := Scenario{Executable: helper(t), Args: []string{"ready-then-wait"}, Events: []Event{
		{OnOutput: &OutputTrig{Literal: "ready", Occurrence: 2}, Action: ActionInput, Data: "hello\n"},
		{OnOutput: &OutputTrig{Literal: "echo:hello"}, Action: ActionEOF},
	}}
	a, b := runOK(t, s), runOK(t, s)
	c, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if c.Verdict != "equivalent" || c.FirstDivergence != nil || len(c.Dimensions) != 5 {
		t.Fatalf("comparison %+v first %+v", c, c.FirstDivergence)
	}
	if a.RunID == b.RunID || c.ContractSHA256 != a.Manifest.ComparisonContractSHA256 {
		t.Fatalf("run ids %s %s contract %s", a.RunID, b.RunID, c.ContractSHA256)
	}
}

func TestDifferentProgramsUnderOneScriptDivergeAtTheFirstDifferingStep(t *testing.T) {
	events := []Event{{OnOutput: &OutputTrig{Literal: "name?"}, Action: ActionInput, Data: "ada\n"}}
	left := runOK(t, Scenario{Executable: "/bin/sh", Args: []string{"-c", `printf 'name? '; read n; echo "hi $n"`}, Events: events})
	right := runOK(t, Scenario{Executable: "/bin/sh", Args: []string{"-c", `printf 'name? '; read n; echo "bye $n"; exit 3`}, Events: events})
	c, err := Compare(left, right)
	if err != nil {
		t.Fatal(err)
	}
	if c.Verdict != "divergent" {
		t.Fatalf("verdict %s", c.Verdict)
	}
	// The process dimension is left out: it compares sampled process
	// tables, and a short-lived shell may finish before any scan on one
	// side and not the other.
	for name, want := range map[string]string{"interaction": "equal", "terminal": "different", "exit": "different"} {
		if got := dimension(c, name).Verdict; got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	// The interaction (match, input) agrees; the exit is the first step
	// that differs in journal order.
	d := c.FirstDivergence
	if d == nil || d.Dimension != "exit" || d.LeftStep != "exit code 0" || d.RightStep != "exit code 3" || d.LeftSeq == nil || d.RightSeq == nil {
		t.Fatalf("first divergence %+v", d)
	}
	if left.EventJournal[*d.LeftSeq-1].Kind != "exit" || right.EventJournal[*d.RightSeq-1].Kind != "exit" {
		t.Fatalf("divergence seqs %d/%d do not point at the exits", *d.LeftSeq, *d.RightSeq)
	}
}

func TestFilesystemDivergenceIsNamedRelativeToTheRoot(t *testing.T) {
	l, r := t.TempDir(), t.TempDir()
	left := runOK(t, Scenario{Executable: helper(t), Args: []string{"write-files", l, "2"}, FilesystemRoots: []string{l}})
	right := runOK(t, Scenario{Executable: helper(t), Args: []string{"write-files", r, "3"}, FilesystemRoots: []string{r}})
	c, err := Compare(left, right)
	if err != nil {
		t.Fatal(err)
	}
	fs := dimension(c, "filesystem")
	want := []string{"created <root:0>/f000.txt", "created <root:0>/f001.txt", "created <root:0>/f002.txt"}
	if fs.Verdict != "different" || !slices.Equal(fs.Right.([]string), want) {
		t.Fatalf("filesystem %+v", fs)
	}
	// Output differs first ("wrote 2 files" vs "wrote 3 files").
	if c.FirstDivergence == nil || c.FirstDivergence.Dimension != "terminal" {
		t.Fatalf("first divergence %+v", c.FirstDivergence)
	}
}

func TestCapturesUnderDifferentContractsAreNotCompared(t *testing.T) {
	a := runOK(t, Scenario{Executable: "/bin/true"})
	b := runOK(t, Scenario{Executable: "/bin/true", PTY: true})
	_, err := Compare(a, b)
	typed(t, err, abi.CodeInvalidRequest)
}
