package mcpserver

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/host/app"
	"rea/host/capture"
	"rea/host/evidence"
)

type connected struct {
	srv     *Server
	client  *mcp.ClientSession
	session *Session
	changed chan struct{}
}

// connect runs a real Server over the SDK's in-memory transport.
func connect(t *testing.T, opts Options) *connected {
	t.Helper()
	a, err := app.New(app.Config{ResultCacheDir: "off"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close(context.Background()) })
	srv, err := New(a, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &connected{srv: srv, changed: make(chan struct{}, 16)}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) { c.changed <- struct{}{} },
	})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	c.client, c.session = cs, srv.session(ss)
	return c
}

func (c *connected) complete(t *testing.T, prompt, argument, value string) (*mcp.CompleteResult, error) {
	t.Helper()
	return c.client.Complete(context.Background(), &mcp.CompleteParams{
		Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: prompt}, Argument: mcp.CompleteParamsArgument{Name: argument, Value: value}})
}

func (c *connected) values(t *testing.T, prompt, argument, value string) []string {
	t.Helper()
	res, err := c.complete(t, prompt, argument, value)
	if err != nil {
		t.Fatalf("complete %s.%s: %v", prompt, argument, err)
	}
	return res.Completion.Values
}

func retain(t *testing.T, sess *Session, d evidence.Draft) string {
	t.Helper()
	v := "1"
	d.Provider = evidence.Provider{ID: "test", Name: "test", Version: &v}
	rec, err := evidence.New(d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Ledger.Add(rec); err != nil {
		t.Fatal(err)
	}
	return rec.EvidenceID
}

func TestUpdatingARegisteredPromptEmitsListChanged(t *testing.T) {
	c := connect(t, Options{})
	res, err := c.client.ListPrompts(context.Background(), nil)
	if err != nil || len(res.Prompts) != 6 {
		t.Fatalf("prompts/list: %v %v", res, err)
	}
	if caps := c.client.InitializeResult().Capabilities; caps.Prompts == nil || !caps.Prompts.ListChanged || caps.Completions == nil {
		t.Fatalf("capabilities: %+v", caps)
	}
	c.srv.RefreshPrompts()
	select {
	case <-c.changed:
	case <-time.After(5 * time.Second):
		t.Fatal("no notifications/prompts/list_changed after updating the prompts")
	}
}

func TestCompletionSourcesAreLiveProjectionsOfTheSession(t *testing.T) {
	c := connect(t, Options{})
	for _, arg := range [][2]string{{"audit_residual_unknowns", "evidence_id"}, {"trace_crash", "capture_evidence_id"},
		{"compare_application_versions", "left_manifest_id"}, {"compare_application_versions", "focus_occurrence_id"}, {"audit_residual_unknowns", "unknown_id"}} {
		if got := c.values(t, arg[0], arg[1], ""); len(got) != 0 {
			t.Fatalf("%s.%s offers %v in an empty session", arg[0], arg[1], got)
		}
	}
	subject := &evidence.Subject{Name: "app.asar", Digest: evidence.Digest{SHA256: strings.Repeat("ab", 32)}, Format: "asar"}
	inventory := retain(t, c.session, evidence.Draft{Subject: subject, Operation: "inspect_artifact",
		NormalizedResult: map[string]any{"manifest_id": "man_1", "occurrences": map[string]any{"items": []any{
			map[string]any{"occurrence_id": "occ_b"}, map[string]any{"occurrence_id": "occ_a"}}}}})
	malformed := retain(t, c.session, evidence.Draft{Subject: subject, Operation: "inspect_artifact",
		NormalizedResult: map[string]any{"manifest_id": "man_bad", "occurrences": "not a page"}})
	captureID := retain(t, c.session, evidence.Draft{Subject: subject, Operation: capture.Operation, PredicateType: capture.PredicateType,
		NormalizedResult: map[string]any{"exit": map[string]any{"code": 0}}})
	notCapture := retain(t, c.session, evidence.Draft{Subject: subject, Operation: capture.Operation, NormalizedResult: map[string]any{}})

	all := []string{inventory, malformed, captureID, notCapture}
	sort.Strings(all)
	if got := c.values(t, "audit_residual_unknowns", "evidence_id", ""); !reflect.DeepEqual(got, all) {
		t.Errorf("evidence: %v, want %v", got, all)
	}
	if got := c.values(t, "verify_reconstruction", "comparison_evidence_id", "EV_"); !reflect.DeepEqual(got, all) {
		t.Errorf("evidence with an upper-case prefix: %v", got)
	}
	if got := c.values(t, "trace_crash", "capture_evidence_id", ""); !reflect.DeepEqual(got, []string{captureID}) {
		t.Errorf("capture: %v, want only %s", got, captureID)
	}
	if got := c.values(t, "compare_application_versions", "right_manifest_id", "man"); !reflect.DeepEqual(got, []string{"man_1"}) {
		t.Errorf("manifest: %v (a malformed inventory must not be offered)", got)
	}
	if got := c.values(t, "compare_application_versions", "focus_occurrence_id", "occ_"); !reflect.DeepEqual(got, []string{"occ_a", "occ_b"}) {
		t.Errorf("occurrence: %v", got)
	}
	if got := c.values(t, "investigate_feature", "provider_id", ""); !slices.Contains(got, "auto") || !slices.Contains(got, "native-lite") || !slices.IsSorted(got) {
		t.Errorf("provider: %v", got)
	}
	for _, free := range [][2]string{{"investigate_feature", "feature"}, {"investigate_feature", "document"}, {"trace_crash", "procedure"}} {
		if got := c.values(t, free[0], free[1], ""); len(got) != 0 {
			t.Errorf("%s.%s offers %v without a source", free[0], free[1], got)
		}
	}
	// Closing clears the ledger, so its identifiers are no longer suggested.
	c.session.close()
	if got := c.values(t, "audit_residual_unknowns", "evidence_id", ""); len(got) != 0 {
		t.Fatalf("after close: %v", got)
	}
}

func TestCompletionOfAnUnknownPromptOrArgumentIsInvalidParamsWithTheField(t *testing.T) {
	c := connect(t, Options{})
	for _, tc := range []struct {
		prompt, argument, field string
	}{{"no_such_prompt", "x", "ref.name"}, {"investigate_feature", "bogus", "argument.name"}} {
		_, err := c.complete(t, tc.prompt, tc.argument, "")
		var wire *jsonrpc.Error
		if !errors.As(err, &wire) || wire.Code != jsonrpc.CodeInvalidParams || !strings.Contains(string(wire.Data), `"path":[`+quotedPath(tc.field)+`]`) {
			t.Errorf("%s.%s: %v", tc.prompt, tc.argument, err)
		}
	}
}

func quotedPath(dotted string) string {
	out := ""
	start := 0
	for i := 0; i <= len(dotted); i++ {
		if i == len(dotted) || dotted[i] == '.' {
			if out != "" {
				out += ","
			}
			out += quote(dotted[start:i])
			start = i + 1
		}
	}
	return out
}

func TestFamilyScopeAdvertisesOnlyWorkflowsWhoseEveryToolIsSelected(t *testing.T) {
	c := connect(t, Options{Families: []string{"session"}})
	res, err := c.client.ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range res.Prompts {
		names = append(names, p.Name)
	}
	if !reflect.DeepEqual(names, []string{"audit_residual_unknowns"}) {
		t.Fatalf("prompts in the session scope: %v", names)
	}
	_, err = c.client.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "investigate_feature", Arguments: map[string]string{"feature": "x"}})
	var wire *jsonrpc.Error
	if !errors.As(err, &wire) || wire.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("prompts/get of an omitted workflow: %v", err)
	}
	if _, err := c.complete(t, "investigate_feature", "provider_id", ""); !errors.As(err, &wire) || wire.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("completion of an omitted workflow: %v", err)
	}
}

// Tools the workflows suggest must exist or be planned; a planned tool that
// has landed must leave the table so its real family is the one used.
func TestEveryWorkflowToolIsInTheCatalogOrPlanned(t *testing.T) {
	c := connect(t, Options{})
	catalog := map[string]bool{}
	for _, tool := range c.srv.allTools() {
		catalog[tool.Name] = true
	}
	planned := plannedToolFamilies()
	for name := range planned {
		if catalog[name] {
			t.Errorf("%s is in the catalog now: remove it from plannedToolFamilies", name)
		}
	}
	known := map[string]bool{}
	for _, f := range Families() {
		known[f] = true
	}
	for name, f := range planned {
		if !known[f] {
			t.Errorf("%s is planned for family %q, which is not a family", name, f)
		}
	}
	for _, w := range app.Workflows() {
		for _, tool := range w.Tools {
			if _, ok := planned[tool]; !ok && !catalog[tool] {
				t.Errorf("workflow %s suggests %s, which is neither in the catalog nor planned", w.ID, tool)
			}
		}
	}
}

func TestProcedureCompletionNeedsTheCompleteInventoryAndOffersOnlyUniqueNames(t *testing.T) {
	c := connect(t, Options{})
	target := strings.Repeat("cd", 32)
	page := func(sha string, offset int, items ...map[string]any) evidence.Draft {
		return evidence.Draft{Subject: &evidence.Subject{Name: "bin", Digest: evidence.Digest{SHA256: sha}, Format: "elf", Architecture: "x86_64"},
			Operation: "list_procedures", Parameters: map[string]any{"offset": offset},
			NormalizedResult: map[string]any{"procedures": map[string]any{"total": 3, "offset": offset, "items": items}}}
	}
	retain(t, c.session, page(target, 0, map[string]any{"address": "0x10", "name": "main"},
		map[string]any{"address": "0x20", "name": "helper", "aliases": []any{"dup"}}))
	if got := c.values(t, "trace_crash", "procedure", ""); len(got) != 0 {
		t.Fatalf("no target open: %v", got)
	}
	c.session.open(&Target{Path: "/bin/x", SHA256: target, Kind: "executable", Format: "elf"})
	if got := c.values(t, "trace_crash", "procedure", ""); len(got) != 0 {
		t.Fatalf("an incomplete inventory offers %v", got)
	}
	// Another target's page does not complete this inventory.
	retain(t, c.session, page(strings.Repeat("ef", 32), 2, map[string]any{"address": "0x30", "name": "other"}))
	if got := c.values(t, "trace_crash", "procedure", ""); len(got) != 0 {
		t.Fatalf("another target's page counted: %v", got)
	}
	// The last page shares "dup" with an alias at 0x20: ambiguous, not offered.
	retain(t, c.session, page(target, 2, map[string]any{"address": "0x30", "name": "dup"}))
	if got := c.values(t, "investigate_feature", "procedure", ""); !reflect.DeepEqual(got, []string{"0x10", "0x20", "0x30", "helper", "main"}) {
		t.Fatalf("complete inventory: %v", got)
	}
	if got := c.values(t, "investigate_feature", "procedure", "0x"); len(got) != 3 {
		t.Fatalf("address prefix: %v", got)
	}
	// Switching the target changes the suggestions on the next request.
	c.session.open(&Target{Path: "/bin/y", SHA256: strings.Repeat("ef", 32), Kind: "executable", Format: "elf"})
	if got := c.values(t, "investigate_feature", "procedure", ""); len(got) != 0 {
		t.Fatalf("after switching to a target with an incomplete inventory: %v", got)
	}
}

func TestPromptInventoryDigestFollowsTheFamilyScope(t *testing.T) {
	all, again := connect(t, Options{}), connect(t, Options{})
	session := connect(t, Options{Families: []string{"session"}})
	if all.srv.PromptInventoryDigest() != again.srv.PromptInventoryDigest() {
		t.Fatal("the same scope gives different digests")
	}
	if all.srv.PromptInventoryDigest() == session.srv.PromptInventoryDigest() {
		t.Fatal("a narrower scope keeps the full inventory's digest")
	}
}
