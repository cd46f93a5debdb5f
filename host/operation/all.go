package operation

// All is every operation declared by a spec. Operations not yet declared
// here keep their hand-written MCP schema and cobra flags; the agreement
// test in cmd/rea names them.
func All() []Spec {
	var out []Spec
	out = append(out, Compare()...)
	out = append(out, Artifact()...)
	out = append(out, AnalyzeJavaScriptApplication(), RenderApplicationReport(), InspectAnalysisView(), CaptureProcessScenario())
	out = append(out, Unknowns()...)
	out = append(out, Session()...)
	out = append(out, Native()...)
	out = append(out, Guidance()...)
	out = append(out, Runtime()...)
	out = append(out, Reconstruct()...)
	out = append(out, NativeContext()...)
	out = append(out, NativeDepth()...)
	out = append(out, Notes()...)
	out = append(out, Source()...)
	return out
}
