package unknowns_test

import (
	"context"
	"encoding/json"
	"fmt"

	"rea/host/evidence"
	"rea/host/unknowns"
)

// An unknown is recorded, moved on with compare-and-swap, and a stale
// update is refused; both revisions live in the ledger next to their
// mutation Evidence.
func Example() {
	ledger := evidence.NewLedger(evidence.Limits{})
	reg := unknowns.New(ledger)
	m, err := reg.Record(context.Background(), unknowns.Proposal{Question: "Which handler answers settings:save?", Domain: "ipc"})
	if err != nil {
		panic(err)
	}
	id := m.Unknown.UnknownID
	if _, err := reg.Update(context.Background(), id, 1, map[string]json.RawMessage{"status": json.RawMessage(`"investigating"`)}); err != nil {
		panic(err)
	}
	_, err = reg.Update(context.Background(), id, 1, map[string]json.RawMessage{"severity": json.RawMessage(`"low"`)})
	fmt.Println(err != nil)
	page, _ := reg.List(unknowns.Filter{})
	fmt.Println(page.Unknowns[0].Revision, page.Unknowns[0].Status)
	fmt.Println(len(ledger.Unknowns()), ledger.Len())
	// Output:
	// true
	// 2 investigating
	// 2 2
}
