package jsengine

import (
	"context"
	"encoding/json"
	"os"
	"testing"
)

func TestDumpFixture(t *testing.T) {
	dir := os.Getenv("DUMP")
	if dir == "" {
		return
	}
	r, err := Analyze(context.Background(), os.DirFS(dir), Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(r, "", "  ")
	os.WriteFile("/tmp/jsdump/out.json", b, 0o644)
}
