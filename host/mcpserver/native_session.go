package mcpserver

import (
	"context"

	"rea/abi"
	"rea/host/app"
	"rea/providers"
)

// nativeState is what open_binary established for a native target: the
// document, the immutable provider binding (never replaced after a
// failure; only a new open_binary or close_binary changes it) and the
// cursor.
type nativeState struct {
	document   *app.NativeDocument
	docError   *abi.Error
	binding    *providers.BindingView
	rejections []providers.Rejection
	cursor     *app.NativeCursor
}

// setNative records the native state of the target just opened; a
// concurrent open of another target wins (its run id differs).
func (s *Session) setNative(runID string, n *nativeState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.runID == runID {
		s.native = n
	}
}

// nativeState returns the open native target's state, or nil.
func (s *Session) nativeState() *nativeState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.native
}

// openNativeTarget reads the document and binds a provider for a native
// executable before it becomes the session's target. A selection error
// (unknown, unavailable or unsupported provider, ambiguous auto) fails the
// open with its typed details; a file the native module cannot read opens
// without a document and says why.
func (s *Server) openNativeTarget(ctx context.Context, c *Call, path, providerID string) (*nativeState, error) {
	o, err := s.app.OpenNativeDocument(ctx, path, providerID, "", c.Progress)
	if err != nil {
		return nil, err
	}
	n := &nativeState{document: o.Document, docError: o.DocumentError, binding: o.Binding, rejections: o.Rejections}
	if o.Document != nil && o.Document.Entry != nil {
		n.cursor = &app.NativeCursor{Address: *o.Document.Entry, Basis: app.CursorBasisEntry}
	}
	return n, nil
}

// openReport is what open_binary adds for the native state.
func (n *nativeState) openReport() map[string]any {
	if n == nil {
		return map[string]any{"analysis_provider_binding": nil}
	}
	out := map[string]any{"analysis_provider_binding": bindingOrNil(n.binding), "document": n.document}
	if n.binding == nil {
		out["provider_rejections"] = n.rejections
	}
	if n.docError != nil {
		out["document_error"] = n.docError
	}
	return out
}

func bindingOrNil(b *providers.BindingView) any {
	if b == nil {
		return nil
	}
	return b
}

// clientFeatureNames are the negotiated client features a tool may need.
func clientFeatureNames() []string {
	return []string{"elicitation_form", "elicitation_url", "roots", "sampling"}
}

// clientFeatures reports which features the client negotiated at
// initialize.
func (c *Call) clientFeatures() map[string]bool {
	out := map[string]bool{}
	for _, f := range clientFeatureNames() {
		out[f] = false
	}
	if c.Session == nil || c.Session.conn == nil {
		return out
	}
	p := c.Session.conn.InitializeParams()
	if p == nil || p.Capabilities == nil {
		return out
	}
	caps := p.Capabilities
	if caps.Elicitation != nil {
		out["elicitation_form"] = caps.Elicitation.Form != nil || caps.Elicitation.URL == nil // a bare elicitation capability means form
		out["elicitation_url"] = caps.Elicitation.URL != nil
	}
	out["roots"] = caps.RootsV2 != nil || caps.Roots.ListChanged
	out["sampling"] = caps.Sampling != nil
	return out
}

// clientRequirements is a tool entry's client_requirements: the features
// it needs and may use (none of rea's tools asks the client for anything
// today: no elicitation, sampling or roots), and those of them the client
// did not negotiate.
func clientRequirements(t *Tool, negotiated map[string]bool) (map[string]any, []string) {
	required := append([]string{}, t.ClientRequired...)
	optional := append([]string{}, t.ClientOptional...)
	missingRequired := []string{}
	missing := []string{}
	for _, f := range required {
		if !negotiated[f] {
			missingRequired = append(missingRequired, f)
			missing = append(missing, f)
		}
	}
	for _, f := range optional {
		if !negotiated[f] {
			missing = append(missing, f)
		}
	}
	return map[string]any{"required": required, "optional": optional, "missing": missing}, missingRequired
}

// addSessionReport adds binary_session's client features, each tool's
// client requirements and the provider binding to its report.
func (s *Server) addSessionReport(c *Call, report map[string]any, tools []map[string]any) {
	negotiated := c.clientFeatures()
	report["client_features"] = negotiated
	byName := map[string]*Tool{}
	for _, t := range s.tools {
		byName[t.Name] = t
	}
	for _, entry := range tools {
		t := byName[entry["name"].(string)]
		if t == nil {
			continue
		}
		req, missing := clientRequirements(t, negotiated)
		entry["client_requirements"] = req
		if len(missing) > 0 && entry["available"] == true {
			entry["available"] = false
			entry["reason"] = "client_feature_missing: the client did not negotiate " + missing[0]
			entry["remediation"] = "Use a client that declares the " + missing[0] + " capability at initialize."
		}
	}
	n := c.Session.nativeState()
	for _, entry := range tools {
		needs, ok := documentTools()[entry["name"].(string)]
		if !ok || entry["available"] != true {
			continue
		}
		switch {
		case n == nil || n.document == nil:
			entry["available"] = false
			entry["reason"] = "no_document: no native binary is open in this session"
			entry["remediation"] = "Call open_binary with input_path set to an ELF, PE or Mach-O binary."
		case needs && n.binding == nil:
			entry["available"] = false
			entry["reason"] = "provider_unbound: no analysis provider is bound to " + n.document.Name
			entry["remediation"] = "Open the binary again with open_binary and provider_id native-lite."
		}
	}
	report["analysis_provider_binding"] = nil
	if n != nil {
		report["analysis_provider_binding"] = bindingOrNil(n.binding)
		report["document"] = n.document
		if n.binding == nil {
			report["provider_rejections"] = n.rejections
		}
	}
}

// documentCandidates are the names list_documents reports: the open
// native document, read from the session without starting analysis.
func documentCandidates(sess *Session) []string {
	if n := sess.nativeState(); n != nil && n.document != nil {
		return []string{n.document.Name}
	}
	return nil
}

// documentTools are the context tools that need an open native document,
// each with whether it also needs the bound provider.
func documentTools() map[string]bool {
	return map[string]bool{"current_document": false, "current_address": false, "current_procedure": true,
		"get_navigation_context": true, "inspect_address_context": true}
}
