package evidence_test

import (
	"context"
	"encoding/json"
	"fmt"

	"rea/host/evidence"
)

// A producer seals an observation, the connection's ledger retains it, the
// session is bundled for transfer, and the bundle is parsed again elsewhere
// with every id re-verified.
func Example() {
	version := "0.1.0"
	record, err := evidence.New(evidence.Draft{
		Subject: &evidence.Subject{
			Name:      "app.asar",
			Digest:    evidence.Digest{SHA256: "a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0"},
			Format:    "asar",
			LocalPath: "/tmp/app.asar",
		},
		Provider:         evidence.Provider{ID: "rea.jsapp", Name: "rea JavaScript analyzer", Version: &version},
		Operation:        "analyze_javascript_application",
		Parameters:       map[string]any{"input_path": "/tmp/app.asar"},
		NormalizedResult: map[string]any{"windows": 1},
	})
	if err != nil {
		panic(err)
	}

	ledger := evidence.NewLedger(evidence.DefaultLimits())
	first, _ := ledger.Add(record)
	second, _ := ledger.Add(record)
	fmt.Println(first, second)

	// A later call names the record instead of sending it again.
	ref, _ := json.Marshal(evidence.ReferenceTo(record.EvidenceID))
	resolved, _ := ledger.Resolve(ref)
	fmt.Println(resolved.EvidenceID == record.EvidenceID)

	data, _ := json.Marshal(ledger.Snapshot())
	bundle, err := evidence.ParseBundle(context.Background(), data, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(bundle.Records), bundle.Records[0].EvidenceID == record.EvidenceID, bundle.Artifacts[0].Format)

	summary := bundle.Summarize(evidence.Filters{Operation: "analyze_javascript_application"})
	fmt.Println(len(summary.Records), summary.Records[0].Retention)
	// Output:
	// added duplicate
	// true
	// 1 true asar
	// 1 complete-record
}
