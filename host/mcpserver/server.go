// Package mcpserver is rea's MCP stdio server: tool, prompt and completion
// registration over the official go-sdk, per-connection sessions with their
// Evidence ledger, the error envelope, the response budget, progress and
// cancellation. Every tool calls the same application service (host/app) as
// its CLI command.
package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"runtime/debug"
	"sort"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/abi"
	"rea/host/app"
	"rea/host/evidence"
	"rea/host/operation"
)

// ServerName is the MCP implementation name clients see.
const ServerName = "rea"

// instructions route an agent to the right first call; kept short because
// clients put them in every prompt.
const instructions = `rea analyses software you have no source for and returns Evidence.
Electron/JavaScript app (directory or .asar): analyze_javascript_application with input_path.
Archive or installer: inspect_artifact with input_path, then extract_artifact.
Native binary: inspect_binary_layout with input_path.
Results carry their complete Evidence inline; pass {"kind":"retained-evidence","evidence_id":"ev_…"} to reuse one in a later call on this connection.
Not sure where to start: search_guidance with a question, or guided_workflows.`

// Server is one rea MCP server; each client connection gets its own
// Session (ledger, target, run id).
type Server struct {
	app   *app.App
	opts  Options
	log   *slog.Logger
	tools []*Tool
	mcp   *mcp.Server

	catalogDigest func() string // computed on first use: few sessions ask

	// definitions are the tools as registered with the go-sdk server,
	// sorted by name; defined is closed when they are all built and
	// registered when the go-sdk has them all (see registerTools).
	definitions         []*mcp.Tool
	defined, registered chan struct{}

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*Session
	// serving is Run's context: when it ends (a signal to rea mcp) every
	// tool call in flight is cancelled too, so it cleans up before the
	// server closes.
	serving context.Context
}

// New builds the server and starts registering every tool in scope
// (Registered says when that is done; requests wait as they need).
func New(a *app.App, opts Options) (*Server, error) {
	if opts.MaxResponseBytes == 0 {
		opts.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if opts.SchemaProfile == "" {
		opts.SchemaProfile = "full"
	}
	s := &Server{app: a, opts: opts, log: a.Logger(), sessions: map[*mcp.ServerSession]*Session{}}
	s.tools = s.scoped(s.allTools())
	s.catalogDigest = sync.OnceValue(func() string { return catalogDigest(s.tools) })
	s.mcp = s.sdkServer()
	s.registerTools()
	s.registerPrompts()
	return s, nil
}

// toolsPageSize is the go-sdk's page size for lists, above any catalog's
// size: every list is one page.
const toolsPageSize = 1000

// sdkServer is the go-sdk server rea's tools and prompts are registered with.
func (s *Server) sdkServer() *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: ServerName, Title: "rea — reverse engineer anything", Version: s.opts.Version},
		&mcp.ServerOptions{
			Instructions: instructions,
			Logger:       slog.New(atLeast{s.log.Handler(), slog.LevelWarn}),
			Capabilities: &mcp.ServerCapabilities{
				Tools:       &mcp.ToolCapabilities{ListChanged: false},
				Prompts:     &mcp.PromptCapabilities{ListChanged: true},
				Completions: &mcp.CompletionCapabilities{},
			},
			CompletionHandler: s.complete,
			PageSize:          toolsPageSize,
			// rea keeps per-connection state (ledger, target), which the
			// stateless 2026-07-28 protocol does not carry; negotiate the
			// session-based versions until rea supports it.
			SupportedProtocolVersions: []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"},
		})
}

// MCP returns the underlying go-sdk server (for transports and tests).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Tools returns the tools in scope, sorted by name.
func (s *Server) Tools() []*Tool { return s.tools }

// CatalogDigest identifies the advertised tool catalog.
func (s *Server) CatalogDigest() string { return s.catalogDigest() }

// Run serves one transport (stdio in `rea mcp`) until the client leaves.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	s.mu.Lock()
	s.serving = ctx
	s.mu.Unlock()
	return s.mcp.Run(ctx, t)
}

// servingContext is Run's context (never done before Run).
func (s *Server) servingContext() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.serving == nil {
		return context.Background()
	}
	return s.serving
}

// scoped keeps the tools of the selected families (all when none chosen).
func (s *Server) scoped(all []*Tool) []*Tool {
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	if len(s.opts.Families) == 0 {
		return all
	}
	keep := map[string]bool{}
	for _, f := range s.opts.Families {
		keep[f] = true
	}
	var out []*Tool
	for _, t := range all {
		if keep[t.Family] {
			out = append(out, t)
		}
	}
	return out
}

// allTools is the complete inventory, one constructor per family; a tool
// declared by an operation spec is filled from it.
func (s *Server) allTools() []*Tool {
	var out []*Tool
	out = append(out, s.sessionTools()...)
	out = append(out, s.evidenceTools()...)
	out = append(out, s.artifactTools()...)
	out = append(out, s.applicationTools()...)
	out = append(out, s.sourceTools()...)
	out = append(out, s.runtimeTools()...)
	out = append(out, s.reportTools()...)
	out = append(out, s.compareTools()...)
	out = append(out, s.processTools()...)
	out = append(out, s.nativeTools()...)
	out = append(out, s.nativeContextTools()...)
	out = append(out, s.electronBinaryTools()...)
	out = append(out, s.guidanceTools()...)
	out = append(out, s.unknownTools()...)
	out = append(out, s.noteTools()...)
	out = append(out, s.reconstructTools()...)
	for _, t := range out {
		fromSpec(t)
	}
	return out
}

// advertise renders the MCP tool definition.
func (s *Server) advertise(t *Tool) *mcp.Tool {
	adv := s.advertiseInput(t)
	if t.Output == nil {
		adv.OutputSchema = evidenceOutputSchema()
	}
	return adv
}

// advertiseInput is advertise with the output schema left to the caller
// when the tool returns Evidence (every such tool shares one).
func (s *Server) advertiseInput(t *Tool) *mcp.Tool {
	input := t.Input
	if len(t.Examples) > 0 {
		input = cloneSchema(input)
		ex := make([]any, len(t.Examples))
		for i, e := range t.Examples {
			ex[i] = e
		}
		input["examples"] = ex
	}
	switch s.opts.SchemaProfile {
	case "full":
		input = shareRepeated(input)
	case "compact":
		input = compact(input)
	case "strict":
		input = strictWithDefaults(t.Input, t.Spec) // no examples: not a strict keyword
	}
	adv := &mcp.Tool{
		Name:        t.Name,
		Title:       t.Title,
		Description: t.Description,
		InputSchema: input,
		Annotations: annotations(t.Effects, t.Title),
	}
	if t.Output != nil {
		adv.OutputSchema = t.Output
	}
	return adv
}

// catalogDigest hashes what clients see of every tool.
func catalogDigest(tools []*Tool) string {
	type entry struct {
		Name, Title, Family, Description string
		Effects                          Effects
		Input, Output                    Schema
	}
	var all []entry
	for _, t := range tools {
		all = append(all, entry{t.Name, t.Title, t.Family, t.Description, t.Effects, t.Input, t.Output})
	}
	b, _ := json.Marshal(all)
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// session returns the state of one client connection.
func (s *Server) session(ss *mcp.ServerSession) *Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sess, ok := s.sessions[ss]; ok {
		return sess
	}
	sess := newSession(ss)
	s.sessions[ss] = sess
	return sess
}

// handler wraps a tool: validation, progress, cancellation, the ledger, the
// response budget and the error envelope are the same for every tool.
func (s *Server) handler(t *Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		sess := s.session(req.Session)
		args, deps, err := canonicalArguments(t, req.Params.Arguments)
		if err != nil {
			return toolError(err, s.opts.MaxResponseBytes), nil
		}
		if s.opts.SchemaProfile == "strict" {
			var err error
			if args, err = fromStrict(t.Input, args); err != nil {
				return toolError(withOperation(err, t.Name), s.opts.MaxResponseBytes), nil
			}
		}
		if err := validateArguments(t.Name, t.Input, args); err != nil {
			return toolError(err, s.opts.MaxResponseBytes), nil
		}
		prog := newProgress(ctx, req)
		stopBeat := prog.heartbeat()
		defer stopBeat()
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(s.servingContext(), cancel)()
		self, end := sess.begin(cancel)
		defer end()
		point := &commitPoint{ctx: ctx}
		out, err := t.Run(evidence.WithCommit(ctx, point.commit), &Call{Arguments: args, Session: sess, Progress: prog.module, self: self})
		if err == nil && point.cancelled() {
			err = abi.Errorf(abi.CodeCancelled, "%s was cancelled; nothing was recorded", t.Name)
		}
		if err != nil {
			stopBeat()
			prog.finish("failed")
			return toolError(err, s.opts.MaxResponseBytes), nil
		}
		res, err := s.success(sess, t, withDeprecations(out, deps))
		stopBeat()
		if err != nil {
			prog.finish("failed")
			return toolError(err, s.opts.MaxResponseBytes), nil
		}
		prog.finish("completed")
		return res, nil
	}
}

// Extra is a tool result that carries, beside its structured result, facts
// that must not enter Evidence identity (such as where files were written).
type Extra struct {
	Result any
	Note   string
	Meta   map[string]any
	// Deprecations are the old parameter names the call used
	// (deprecations.go): _meta "rea/deprecations" and a text note.
	Deprecations []operation.Deprecation
}

// success retains Evidence in the ledger and checks the response budget
// before the document-sized text is built.
func (s *Server) success(sess *Session, t *Tool, out any) (*mcp.CallToolResult, error) {
	var extra *Extra
	if e, ok := out.(*Extra); ok {
		extra, out = e, e.Result
	}
	var body []byte
	var ref *evidence.Reference
	switch v := out.(type) {
	case evidence.Record:
		if _, err := sess.Ledger.Add(v); err != nil {
			return nil, err
		}
		body = v.Canonical()
		r := evidence.ReferenceTo(v.EvidenceID)
		ref = &r
	case json.RawMessage:
		body = v
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, abi.Errorf(abi.CodeInternal, "%s: result does not encode: %v", t.Name, err)
		}
		body = b
	}
	res := &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(body)}},
		StructuredContent: json.RawMessage(body),
	}
	// The seed's bare-id arrays that stand beside their references for
	// one release are deprecations of the result, in the same list as the
	// call's old parameter names.
	if deps := operation.ResultDeprecations(body); len(deps) > 0 {
		if extra == nil {
			extra = &Extra{}
		}
		extra.Deprecations = append(append([]operation.Deprecation{}, extra.Deprecations...), deps...)
	}
	if extra != nil {
		if extra.Note != "" {
			res.Content = append(res.Content, &mcp.TextContent{Text: extra.Note})
		}
		if extra.Meta != nil {
			res.Meta = extra.Meta
		}
		addDeprecations(res, extra.Deprecations)
	}
	// Count exactly what goes on the wire: the text, the structured
	// content and the JSON-RPC envelope around them (with the longest id
	// the transport accepts), not the text alone.
	size := responseSize(res)
	if size > s.opts.MaxResponseBytes {
		e := abi.Errorf(abi.CodeResourceConstraint,
			"%s produced a response of %d bytes (text, structured content and envelope), more than the %d-byte response budget", t.Name, size, s.opts.MaxResponseBytes).
			WithDetail("resource", "transport").
			WithDetail("limit", s.opts.MaxResponseBytes)
		limits := map[string]any{"max_response_bytes": s.opts.MaxResponseBytes, "result_bytes": size}
		if ref != nil {
			limits["evidence_reference"] = ref
			e.Message += "; the complete Evidence is retained in this session: call inspect_analysis_view with details.reported_limits.evidence_reference for a summary or a page, or export_evidence_bundle to write it to a file"
		} else {
			e.Message += "; narrow the request (filters, detail: \"summary\", paging) or use export_evidence_bundle"
		}
		e.WithDetail("reported_limits", limits)
		return nil, e
	}
	return res, nil
}

// responseSize is how many bytes the JSON-RPC response carrying res takes
// on the wire: {"jsonrpc":"2.0","id":ID,"result":RES} and its newline, ID
// at its longest (the transport refuses longer ids).
func responseSize(res *mcp.CallToolResult) int64 {
	b, err := json.Marshal(res)
	if err != nil {
		return math.MaxInt64
	}
	return int64(len(b)) + int64(len(`{"jsonrpc":"2.0","id":,"result":}`)+1) + maxIDBytes
}

func cloneSchema(s Schema) Schema {
	out := make(Schema, len(s))
	for k, v := range s {
		out[k] = v
	}
	return out
}

// sdkVersion reads the go-sdk version linked into this binary.
func sdkVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == "github.com/modelcontextprotocol/go-sdk" {
				return d.Version
			}
		}
	}
	return "unknown"
}

// asError returns err as a typed error.
func asError(err error) *abi.Error {
	var typed *abi.Error
	if errors.As(err, &typed) {
		return typed
	}
	if errors.Is(err, context.Canceled) {
		return abi.Errorf(abi.CodeCancelled, "the request was cancelled")
	}
	return abi.Errorf(abi.CodeInternal, "%v", err)
}

// atLeast passes records of at least min to h: the SDK's own lifecycle
// messages are not worth an agent's stderr at info level.
type atLeast struct {
	h   slog.Handler
	min slog.Level
}

func (a atLeast) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= a.min && a.h.Enabled(ctx, l)
}
func (a atLeast) Handle(ctx context.Context, r slog.Record) error { return a.h.Handle(ctx, r) }
func (a atLeast) WithAttrs(attrs []slog.Attr) slog.Handler {
	return atLeast{a.h.WithAttrs(attrs), a.min}
}
func (a atLeast) WithGroup(name string) slog.Handler { return atLeast{a.h.WithGroup(name), a.min} }
