package query

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"rea/abi"
	"rea/analysis/native/executable"
	"rea/analysis/native/nativetest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	nativetest.Cleanup()
	os.Exit(code)
}

func runOn[T any](t *testing.T, bin, op string, p Params) *T {
	t.Helper()
	p.Input = filepath.Base(bin)
	out, err := Run(op, p, os.DirFS(filepath.Dir(bin)), nil)
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	r, ok := out.(*T)
	if !ok {
		t.Fatalf("%s answered %T", op, out)
	}
	return r
}

func errOf(t *testing.T, bin, op string, p Params) *abi.Error {
	t.Helper()
	p.Input = filepath.Base(bin)
	_, err := Run(op, p, os.DirFS(filepath.Dir(bin)), nil)
	var e *abi.Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: err = %v, want a typed error", op, err)
	}
	return e
}

func TestProcedurePagesCrossTheBoundariesAt500And1000(t *testing.T) {
	bin := nativetest.GeneratedELF(t)
	first := runOn[Procedures](t, bin, OpProcedures, Params{})
	total := first.Procedures.Total
	if total < nativetest.GeneratedFunctions+1 || first.Procedures.Limit != DefaultLimit || len(first.Procedures.Items) != DefaultLimit {
		t.Fatalf("first page: total %d limit %d items %d", total, first.Procedures.Limit, len(first.Procedures.Items))
	}
	// Walk every page of at most MaxLimit by next_offset: a page is cut
	// short only by the byte budget, and says so.
	seen := map[executable.Addr]bool{}
	var order []executable.Addr
	var prev executable.Addr
	for off := 0; ; {
		page := runOn[Procedures](t, bin, OpProcedures, Params{Offset: off, Limit: MaxLimit})
		n := len(page.Procedures.Items)
		want := min(MaxLimit, total-off)
		if n == 0 || n > want || n < want && !page.Procedures.ByteLimited {
			t.Fatalf("page at %d has %d items (byte_limited %v), want %d or a byte-limited page", off, n, page.Procedures.ByteLimited, want)
		}
		next := page.Procedures.NextOffset
		if off+n < total && (next == nil || *next != off+n) || off+n == total && next != nil {
			t.Fatalf("page at %d: next_offset %v", off, next)
		}
		for _, p := range page.Procedures.Items {
			if seen[p.Address] || p.Address <= prev && prev != 0 {
				t.Fatalf("procedure %s repeated or out of order", p.Address)
			}
			seen[p.Address], prev = true, p.Address
			order = append(order, p.Address)
		}
		if next == nil {
			break
		}
		off = *next
	}
	if len(seen) != total {
		t.Fatalf("the pages held %d of %d procedures", len(seen), total)
	}
	// A page may start anywhere, the 500 and 1000 boundaries included.
	for _, off := range []int{500, 1000} {
		if off >= total {
			continue
		}
		page := runOn[Procedures](t, bin, OpProcedures, Params{Offset: off, Limit: 1})
		if len(page.Procedures.Items) != 1 || page.Procedures.Items[0].Address != order[off] {
			t.Fatalf("the page at %d does not start with the %dth procedure", off, off+1)
		}
	}
	for i := 0; i < nativetest.GeneratedFunctions; i += 401 {
		if !seenName(t, bin, "f"+itoa(i)) {
			t.Errorf("f%d not found by name search", i)
		}
	}
	if e := errOf(t, bin, OpProcedures, Params{Limit: MaxLimit + 1}); e.Code != abi.CodeInvalidRequest || e.Details["field"] != "limit" {
		t.Fatalf("limit 501: %v", e)
	}
	if e := errOf(t, bin, OpProcedures, Params{Offset: -1}); e.Details["field"] != "offset" {
		t.Fatalf("offset -1: %v", e)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func seenName(t *testing.T, bin, name string) bool {
	r := runOn[Procedures](t, bin, OpProcedures, Params{Pattern: "^" + name + "$", Mode: "regex", CaseSensitive: true})
	return r.Procedures.Total == 1 && r.Procedures.Items[0].Name == name
}

func TestStringSearchLiteralAndRegex(t *testing.T) {
	bin := nativetest.GeneratedELF(t)
	lit := runOn[Strings](t, bin, OpStrings, Params{Pattern: "GEN-STRING-12"})
	// gen-string-12 and gen-string-120..129 and gen-string-1200..1204
	if lit.Strings.Total != 16 || lit.Strings.Limit != DefaultLimit {
		t.Fatalf("literal search found %d", lit.Strings.Total)
	}
	if cs := runOn[Strings](t, bin, OpStrings, Params{Pattern: "GEN-STRING-12", CaseSensitive: true}); cs.Strings.Total != 0 {
		t.Fatalf("case-sensitive search found %d", cs.Strings.Total)
	}
	re := runOn[Strings](t, bin, OpStrings, Params{Pattern: `^gen-string-1[0-9]{3}$`, Mode: "regex", Limit: MaxSearchLimit})
	if re.Strings.Total != 205 || len(re.Strings.Items) != MaxSearchLimit || re.Strings.NextOffset == nil {
		t.Fatalf("regex search: total %d items %d", re.Strings.Total, len(re.Strings.Items))
	}
	if e := errOf(t, bin, OpStrings, Params{Pattern: "x", Limit: MaxSearchLimit + 1}); e.Details["field"] != "limit" {
		t.Fatalf("search limit 101: %v", e)
	}
	if e := errOf(t, bin, OpStrings, Params{Pattern: "(", Mode: "regex"}); e.Details["field"] != "pattern" {
		t.Fatalf("bad regex: %v", e)
	}
	if e := errOf(t, bin, OpStrings, Params{Pattern: "x", Mode: "glob"}); e.Details["field"] != "mode" {
		t.Fatalf("bad mode: %v", e)
	}
	all := runOn[Strings](t, bin, OpStrings, Params{Limit: MaxLimit})
	if all.Strings.Total < nativetest.GeneratedFunctions {
		t.Fatalf("list_strings total %d", all.Strings.Total)
	}
}

func TestDossierOfAGeneratedFunction(t *testing.T) {
	bin := nativetest.GeneratedELF(t)
	d := runOn[Dossier](t, bin, OpFunction, Params{Procedure: "f600"})
	var callees []string
	for _, c := range d.Callees.Items {
		callees = append(callees, c.CalleeName)
	}
	if d.Callers.Total != 1 || d.Callers.Items[0].CallerName != "f599" || !contains(callees, "f601") || !contains(callees, "puts@plt") {
		t.Fatalf("callers %+v callees %v", d.Callers.Items, callees)
	}
	if d.ReferencedStrings.Total != 1 || d.ReferencedStrings.Items[0].Value != "gen-string-600" {
		t.Fatalf("referenced strings %+v", d.ReferencedStrings.Items)
	}
	if d.Pseudocode.Status != "unavailable" || d.Pseudocode.Reason == "" {
		t.Fatalf("pseudocode %+v", d.Pseudocode)
	}
	ins := runOn[Instructions](t, bin, OpInstructions, Params{Procedure: d.Procedure.Address.String(), Offset: 1, Limit: 2})
	if ins.Instructions.Total != d.Assembly.Total || len(ins.Instructions.Items) != 2 || ins.Instructions.Items[0] != d.Assembly.Items[1] {
		t.Fatalf("instruction page %+v vs dossier %+v", ins.Instructions.Items, d.Assembly.Items[:2])
	}
	if e := errOf(t, bin, OpFunction, Params{Procedure: "no_such_function"}); e.Details["reason"] != "procedure_not_found" {
		t.Fatalf("unknown procedure: %v", e)
	}
	inside := d.Procedure.Address + 1
	if e := errOf(t, bin, OpFunction, Params{Procedure: inside.String()}); e.Details["containing_procedure"] != d.Procedure.Address.String() {
		t.Fatalf("address inside: %v", e)
	}
}

func TestResolveDistinguishesOutsideFromBetween(t *testing.T) {
	bin := nativetest.ChainELF(t, "plain")
	leaf := runOn[Procedures](t, bin, OpProcedures, Params{Pattern: "^leaf$", Mode: "regex"}).Procedures.Items[0]
	in := leaf.Address + 2
	if r := runOn[Resolution](t, bin, OpResolve, Params{Address: &in}); r.Status != "in-procedure" || r.Procedure.Name != "leaf" {
		t.Fatalf("inside leaf: %+v", r)
	}
	far := executable.Addr(0x10)
	if r := runOn[Resolution](t, bin, OpResolve, Params{Address: &far}); r.Status != "outside-segment" || r.Procedure != nil {
		t.Fatalf("0x10: %+v", r)
	}
	segs := runOn[Segments](t, bin, OpSegments, Params{})
	var rodata executable.Addr
	for _, s := range segs.Sections {
		if s.Name == ".rodata" {
			rodata = s.Address
		}
	}
	if r := runOn[Resolution](t, bin, OpResolve, Params{Address: &rodata}); r.Status != "not-in-procedure" || r.Section != ".rodata" {
		t.Fatalf(".rodata: %+v", r)
	}
	if e := errOf(t, bin, OpReadBytes, Params{Address: &rodata, Length: MaxReadBytes + 1}); e.Details["field"] != "length" {
		t.Fatalf("read 4097: %v", e)
	}
	b := runOn[Bytes](t, bin, OpReadBytes, Params{Address: &rodata, Length: 4})
	if b.Length != 4 || len(b.Hex) != 8 {
		t.Fatalf("read_bytes %+v", b)
	}
	x := runOn[Xrefs](t, bin, OpXrefs, Params{Address: &leaf.Address})
	if x.References.Total != 2 || x.Name != "leaf" {
		t.Fatalf("xrefs to leaf: %+v", x)
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func TestProcedureReferencesInAndOut(t *testing.T) {
	bin := nativetest.ChainELF(t, "plain")
	out := runOn[References](t, bin, OpReferences, Params{Procedure: "middle"})
	calls := 0
	for _, r := range out.References.Items {
		if r.Kind == executable.RefCall {
			calls++
		}
	}
	if out.Direction != "out" || calls != 2 || out.Truncated {
		t.Fatalf("out of middle: %+v", out)
	}
	in := runOn[References](t, bin, OpReferences, Params{Procedure: "leaf", Direction: "in"})
	if in.References.Total != 2 || in.References.Items[0].Kind != executable.RefCall {
		t.Fatalf("into leaf: %+v", in.References)
	}
	short := runOn[References](t, bin, OpReferences, Params{Procedure: "middle", MaxInstructions: 1})
	if !short.Truncated || short.InstructionsScanned != 1 || short.References.Total >= out.References.Total {
		t.Fatalf("one instruction of middle: %+v", short)
	}
	if e := errOf(t, bin, OpReferences, Params{Procedure: "middle", MaxInstructions: 5001}); e.Details["field"] != "max_instructions" {
		t.Fatalf("max_instructions 5001: %v", e)
	}
	if e := errOf(t, bin, OpReferences, Params{Procedure: "middle", Direction: "sideways"}); e.Details["field"] != "direction" {
		t.Fatalf("bad direction: %v", e)
	}
}
