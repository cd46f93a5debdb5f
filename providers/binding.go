package providers

import (
	"slices"

	"rea/abi"
)

// Selection sources, in precedence order.
const (
	SourceRequest     = "request"
	SourceEnvironment = "environment"
	SourceAuto        = "auto-single-candidate"
)

// Target is what selection must support: the binary's format and
// architecture as the layout reported them.
type Target struct {
	SHA256       string `json:"sha256"`
	Format       string `json:"format"`
	Architecture string `json:"architecture"`
}

// Profile is the analysis profile a binding fixes: how the provider is
// configured, recorded in every Evidence record it produces.
type Profile struct {
	ProviderProfileSchemaVersion int            `json:"provider_profile_schema_version"`
	Parameters                   map[string]any `json:"parameters"`
}

// Binding is the immutable result of selection: one target, one provider
// at one concrete version, how it was chosen and under which profile. Its
// fields are unexported so nothing can swap the provider afterwards.
type Binding struct {
	target  Target
	id      string
	name    string
	version string
	source  string
	profile Profile
}

// Target, ProviderID, ProviderName, Version, SelectionSource and Profile
// read the binding.
func (b *Binding) Target() Target          { return b.target }
func (b *Binding) ProviderID() string      { return b.id }
func (b *Binding) ProviderName() string    { return b.name }
func (b *Binding) Version() string         { return b.version }
func (b *Binding) SelectionSource() string { return b.source }
func (b *Binding) Profile() Profile        { return b.profile }

// BindingView is the JSON form of a binding (analysis_provider_binding).
type BindingView struct {
	Provider        string  `json:"provider"`
	Name            string  `json:"name"`
	Version         string  `json:"version"`
	SelectionSource string  `json:"selection_source"`
	Target          Target  `json:"target"`
	AnalysisProfile Profile `json:"analysis_profile"`
}

// View renders the binding.
func (b *Binding) View() BindingView {
	return BindingView{Provider: b.id, Name: b.name, Version: b.version, SelectionSource: b.source, Target: b.target, AnalysisProfile: b.profile}
}

// Rejection says why one candidate was not bound.
type Rejection struct {
	Provider string `json:"provider"`
	Code     string `json:"code"`
	Reason   string `json:"reason"`
}

// Select binds a provider for target: the request's selector wins over
// REA_ANALYSIS_PROVIDER, which wins over auto. A concrete id must exist,
// be available and support the target, or selection fails with a typed
// error and no fallback. Auto binds the only usable candidate; with none
// it returns a nil binding and the rejections (the target stays unbound
// and deep tools report unavailable), with several an ambiguity error.
func (r *Registry) Select(requested string, target Target) (*Binding, []Rejection, error) {
	sel, source := Auto, SourceAuto
	if requested != "" {
		s, err := ParseSelector(requested, "provider_id")
		if err != nil {
			return nil, nil, err
		}
		sel, source = s, SourceRequest
	} else if r.envDefault != "" {
		s, err := ParseSelector(r.envDefault, EnvProvider)
		if err != nil {
			return nil, nil, err
		}
		sel, source = s, SourceEnvironment
	}
	if sel == Auto {
		source = SourceAuto
		var usable []Candidate
		var rejected []Rejection
		for _, c := range r.candidates {
			if rej, ok := supports(c, target); ok {
				usable = append(usable, c)
			} else {
				rejected = append(rejected, rej)
			}
		}
		switch len(usable) {
		case 0:
			return nil, rejected, nil
		case 1:
			return bind(usable[0], target, source), rejected, nil
		}
		var ids []string
		for _, c := range usable {
			ids = append(ids, c.ID)
		}
		return nil, rejected, abi.Errorf(abi.CodeCapabilityUnavailable, "auto selection is ambiguous: %v can all analyse this target; choose one with --provider or provider_id", ids).
			WithDetail("reason", "ambiguous").WithDetail("candidates", ids)
	}
	c, ok := r.Candidate(sel)
	if !ok {
		var ids []string
		for _, c := range r.candidates {
			ids = append(ids, c.ID)
		}
		return nil, nil, abi.Errorf(abi.CodeCapabilityUnavailable, "no provider is called %q; choose auto or one of %v", sel, ids).
			WithDetail("reason", "unknown_provider").WithDetail("provider", sel).WithDetail("selection_source", source)
	}
	if rej, ok := supports(c, target); !ok {
		return nil, []Rejection{rej}, abi.Errorf(abi.CodeCapabilityUnavailable, "provider %s cannot analyse this target: %s", sel, rej.Reason).
			WithDetail("reason", rej.Code).WithDetail("provider", sel).WithDetail("selection_source", source).
			WithDetail("remediation", c.Availability.Remediation)
	}
	return bind(c, target, source), nil, nil
}

func supports(c Candidate, t Target) (Rejection, bool) {
	switch {
	case !c.Availability.Usable():
		return Rejection{Provider: c.ID, Code: c.Availability.Code, Reason: c.Availability.Reason}, false
	case t.Format != "" && !slices.Contains(c.Formats, t.Format):
		return Rejection{Provider: c.ID, Code: CodeTargetFormatUnsupported, Reason: c.ID + " does not read " + t.Format + " files"}, false
	case t.Architecture != "" && !slices.Contains(c.Architectures, t.Architecture):
		return Rejection{Provider: c.ID, Code: CodeArchitectureUnsupported, Reason: c.ID + " does not disassemble " + t.Architecture}, false
	}
	return Rejection{}, true
}

func bind(c Candidate, t Target, source string) *Binding {
	b := &Binding{target: t, id: c.ID, name: c.Name, version: *c.Version, source: source}
	if c.ID == NativeLite {
		syntax := "intel"
		if t.Architecture == "arm64" {
			syntax = "gnu"
		}
		b.profile = Profile{ProviderProfileSchemaVersion: 1, Parameters: map[string]any{
			"architecture": t.Architecture, "procedure_discovery": "symbols+stubs+entry+direct-call-targets", "disassembly": "linear-sweep",
			"syntax": syntax, "min_string_length": 4, "string_encodings": []string{"ascii", "utf-16le"},
		}}
	}
	return b
}
