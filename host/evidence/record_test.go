package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"

	"rea/abi"
)

func TestNewFillsDefaults(t *testing.T) {
	r := mustNew(t, Draft{Provider: testProvider(), Operation: "inspect_artifact"})
	if r.SchemaVersion != 2 || r.PredicateType != "rea.analysis/v2" || r.Confidence != "observed" || r.Authority != "shipped-artifact" {
		t.Errorf("defaults not filled: %+v", r)
	}
	if string(r.Parameters) != "{}" || string(r.RawResult) != "null" || string(r.NormalizedResult) != "null" {
		t.Errorf("payload defaults: parameters %s raw %s normalized %s", r.Parameters, r.RawResult, r.NormalizedResult)
	}
	if len(r.Limitations) != 1 || r.Limitations[0] != NoSubjectLimitation {
		t.Errorf("a record without subject must carry the identity limitation, got %q", r.Limitations)
	}
	for _, key := range []string{`"analysis_profile":null`, `"subject":null`, `"environment":null`, `"locations":[]`, `"evidence_links":[]`} {
		if !bytes.Contains(r.Canonical(), []byte(key)) {
			t.Errorf("canonical form lacks %s: %s", key, r.Canonical())
		}
	}
}

func TestNewDoesNotRepeatTheNoSubjectLimitation(t *testing.T) {
	r := mustNew(t, Draft{Provider: testProvider(), Operation: "x", Limitations: []string{"other", NoSubjectLimitation}})
	if len(r.Limitations) != 2 {
		t.Errorf("limitations %q", r.Limitations)
	}
	withSubject := mustNew(t, testDraft())
	if len(withSubject.Limitations) != 0 {
		t.Errorf("a record with a subject got %q", withSubject.Limitations)
	}
}

func TestEvidenceIDMatchesAnIndependentDerivation(t *testing.T) {
	ap, err := NewAnalysisProfile(testProvider(), 3, map[string]any{"max_files": 3000, "mode": "deep"})
	if err != nil {
		t.Fatal(err)
	}
	withProfile := testDraft()
	withProfile.AnalysisProfile = &ap
	withEnv := testDraft()
	withEnv.Authority = AuthorityControlledReplay
	withEnv.Environment = &Environment{ID: "env-1", Platform: "linux", Architecture: "x86_64", Isolation: "container"}
	withEnv.Subject.Architecture = "x86_64"
	for name, d := range map[string]Draft{
		"plain":        testDraft(),
		"no subject":   {Provider: Provider{ID: "p", Name: "P"}, Operation: "op", NormalizedResult: []byte(`{"b":1.50,"a":"€"}`)},
		"with profile": withProfile,
		"environment":  withEnv,
	} {
		t.Run(name, func(t *testing.T) {
			r := mustNew(t, d)
			if want := independentID(t, r.Canonical()); r.EvidenceID != want {
				t.Errorf("id %s, independent derivation %s", r.EvidenceID, want)
			}
			// The canonical bytes this package assembles must be a fixed
			// point of the RFC 8785 library.
			again, err := jcs.Transform(r.Canonical())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, r.Canonical()) {
				t.Errorf("assembled form is not canonical:\n%s\n%s", r.Canonical(), again)
			}
		})
	}
}

func TestEvidenceIDIgnoresPathsButNotBytes(t *testing.T) {
	base := mustNew(t, testDraft())
	cases := []struct {
		name     string
		edit     func(d *Draft)
		sameID   bool
		changeOf string
	}{
		{"subject name", func(d *Draft) { d.Subject.Name = "renamed.asar" }, true, ""},
		{"local path", func(d *Draft) { d.Subject.LocalPath = "/elsewhere/app.asar" }, true, ""},
		{"digest", func(d *Draft) { d.Subject.Digest.SHA256 = digestB }, false, ""},
		{"format", func(d *Draft) { d.Subject.Format = "zip" }, false, ""},
		{"architecture", func(d *Draft) { d.Subject.Architecture = "arm64" }, false, ""},
		{"no subject", func(d *Draft) { d.Subject = nil }, false, ""},
		{"result", func(d *Draft) { d.NormalizedResult = map[string]any{"count": 2} }, false, ""},
		{"payload key order", func(d *Draft) {
			d.NormalizedResult = json.RawMessage(`{"count":1,"windows":[{"contextIsolation":false}]}`)
		}, true, ""},
		{"number spelling", func(d *Draft) {
			d.NormalizedResult = json.RawMessage(`{"windows":[{"contextIsolation":false}],"count":1.0e0}`)
		}, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := testDraft()
			c.edit(&d)
			r := mustNew(t, d)
			if (r.EvidenceID == base.EvidenceID) != c.sameID {
				t.Errorf("same id = %v, want %v", r.EvidenceID == base.EvidenceID, c.sameID)
			}
		})
	}
}

func TestAnalysisProfilePresenceEntersIdentity(t *testing.T) {
	ap, err := NewAnalysisProfile(testProvider(), 1, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	d := testDraft()
	d.AnalysisProfile = &ap
	if mustNew(t, d).EvidenceID == mustNew(t, testDraft()).EvidenceID {
		t.Error("a profile object and a null profile produced the same id")
	}
}

func TestAnalysisProfileDigestIsTheHashOfTheProfileWithoutDigest(t *testing.T) {
	ap, err := NewAnalysisProfile(testProvider(), 2, map[string]any{"z": 1, "a": []any{true}})
	if err != nil {
		t.Fatal(err)
	}
	want := independentDigest(t, map[string]any{
		"schema_version": 1, "provider": map[string]any{"id": "rea.jsapp", "name": "rea JavaScript analyzer", "version": "0.1.0"},
		"provider_profile_schema_version": 2, "parameters": map[string]any{"a": []any{true}, "z": 1},
	})
	if ap.Digest != want {
		t.Errorf("digest %s, want %s", ap.Digest, want)
	}
}

func independentDigest(t *testing.T, v any) string {
	t.Helper()
	b, _ := json.Marshal(v)
	c, err := jcs.Transform(b)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:])
}

func TestAnalysisProfileBounds(t *testing.T) {
	deep := any("leaf")
	for i := 0; i < 16; i++ {
		deep = []any{deep}
	}
	many := make([]any, 4096)
	for i := range many {
		many[i] = i
	}
	cases := []struct {
		name     string
		provider Provider
		version  int
		params   any
		field    string
	}{
		{"provider without version", Provider{ID: "rea.jsapp", Name: "n"}, 1, map[string]any{}, "analysis_profile.provider.version"},
		{"empty provider version", Provider{ID: "rea.jsapp", Name: "n", Version: strp("")}, 1, map[string]any{}, "analysis_profile.provider.version"},
		{"schema version zero", testProvider(), 0, map[string]any{}, "analysis_profile.provider_profile_schema_version"},
		{"parameters not an object", testProvider(), 1, []any{1}, "analysis_profile.parameters"},
		{"too deep", testProvider(), 1, map[string]any{"d": deep}, "analysis_profile.parameters.d[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"},
		{"too many values", testProvider(), 1, map[string]any{"m": many}, "analysis_profile.parameters.m[4094]"},
		{"long string", testProvider(), 1, map[string]any{"s": strings.Repeat("x", 16<<10+1)}, "analysis_profile.parameters.s"},
		{"too large", testProvider(), 1, map[string]any{"a": strings.Repeat("x", 16<<10), "b": strings.Repeat("x", 16<<10), "c": strings.Repeat("x", 16<<10), "d": strings.Repeat("x", 16<<10)}, "analysis_profile.parameters"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewAnalysisProfile(c.provider, c.version, c.params)
			if err == nil {
				t.Fatal("accepted")
			}
			if got := issuePath(t, err); got != c.field {
				t.Errorf("field %q, want %q (%v)", got, c.field, err)
			}
		})
	}
	// The limits themselves are accepted.
	atLimit := any("leaf")
	for i := 0; i < 15; i++ {
		atLimit = []any{atLimit}
	}
	if _, err := NewAnalysisProfile(testProvider(), 1, map[string]any{"d": atLimit, "s": strings.Repeat("x", 16<<10)}); err != nil {
		t.Errorf("profile at the limits refused: %v", err)
	}
}

func TestNewRejectsAProfileOfAnotherProvider(t *testing.T) {
	ap, err := NewAnalysisProfile(Provider{ID: "other", Name: "Other", Version: strp("1")}, 1, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	d := testDraft()
	d.AnalysisProfile = &ap
	_, err = New(d)
	if got := issuePath(t, err); got != "analysis_profile.provider" {
		t.Errorf("field %q", got)
	}
}

func TestNewRejectsInvalidDrafts(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(d *Draft)
		field string
	}{
		{"no operation", func(d *Draft) { d.Operation = "" }, "operation"},
		{"no provider id", func(d *Draft) { d.Provider.ID = "" }, "provider.id"},
		{"bad digest", func(d *Draft) { d.Subject.Digest.SHA256 = strings.ToUpper(digestA) }, "subject.digest.sha256"},
		{"bad format", func(d *Draft) { d.Subject.Format = "exe" }, "subject.format"},
		{"bad architecture", func(d *Draft) { d.Subject.Architecture = "mips" }, "subject.architecture"},
		{"empty name", func(d *Draft) { d.Subject.Name = "" }, "subject.name"},
		{"bad confidence", func(d *Draft) { d.Confidence = "certain" }, "confidence"},
		{"bad authority", func(d *Draft) { d.Authority = "rumour" }, "authority"},
		{"bad isolation", func(d *Draft) {
			d.Environment = &Environment{ID: "e", Platform: "linux", Architecture: "x86_64", Isolation: "jail"}
		}, "environment.isolation"},
		{"bad link", func(d *Draft) { d.EvidenceLinks = []string{"ev_123"} }, "evidence_links[0]"},
		{"bad location kind", func(d *Draft) { d.Locations = []Location{{Kind: "line"}} }, "locations[0].kind"},
		{"empty address", func(d *Draft) { d.Locations = []Location{AddressLocation("")} }, "locations[0].address"},
		{"offset beyond 2^53", func(d *Draft) { d.Locations = []Location{FileOffsetLocation(1 << 53)} }, "locations[0].offset"},
		{"parameters not an object", func(d *Draft) { d.Parameters = []int{1} }, "parameters"},
		{"payload not JSON", func(d *Draft) { d.NormalizedResult = json.RawMessage(`{"a":`) }, "normalized_result"},
		{"invalid UTF-8 limitation", func(d *Draft) { d.Limitations = []string{"\xff"} }, "limitations[0]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := testDraft()
			c.edit(&d)
			_, err := New(d)
			if err == nil {
				t.Fatal("accepted")
			}
			if got := issuePath(t, err); got != c.field {
				t.Errorf("field %q, want %q (%v)", got, c.field, err)
			}
		})
	}
}

func TestParseRoundTripsSealedRecords(t *testing.T) {
	ap, _ := NewAnalysisProfile(testProvider(), 1, map[string]any{"k": "v"})
	d := testDraft()
	d.AnalysisProfile = &ap
	d.Environment = &Environment{ID: "e", Platform: "linux", Architecture: "arm64", Isolation: "none"}
	d.Locations = []Location{AddressLocation("0x10"), AddressRangeLocation("0x10", "0x20"), ArtifactPathLocation("a/b.js"), FileOffsetLocation(7), FileOffsetRangeLocation(1, 2)}
	d.EvidenceLinks = []string{"ev_" + digestB}
	d.RawResult = map[string]any{"tool": "report"}
	r := mustNew(t, d)
	// Whitespace and key order must not matter to Parse.
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, r.Canonical(), "", "  "); err != nil {
		t.Fatal(err)
	}
	got, err := Parse(pretty.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got.EvidenceID != r.EvidenceID || !bytes.Equal(got.Canonical(), r.Canonical()) {
		t.Errorf("round trip changed the record:\n%s\n%s", got.Canonical(), r.Canonical())
	}
	if len(got.Locations) != 5 || got.Locations[4].EndOffset != 2 || got.Locations[1].End != "0x20" {
		t.Errorf("locations %+v", got.Locations)
	}
	if got.AnalysisProfile == nil || got.AnalysisProfile.Digest != ap.Digest {
		t.Errorf("profile %+v", got.AnalysisProfile)
	}
	resealed, err := Seal(got)
	if err != nil {
		t.Fatal(err)
	}
	if resealed.EvidenceID != r.EvidenceID {
		t.Error("Seal of a parsed record changed its id")
	}
	marshalled, err := json.Marshal(map[string]any{"evidence": got})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(marshalled, r.Canonical()) {
		t.Error("json.Marshal of a record does not embed its canonical form")
	}
}

func TestParseRejectsTamperedRecords(t *testing.T) {
	r := mustNew(t, testDraft())
	tampered := mutate(t, r.Canonical(), func(m map[string]any) {
		m["normalized_result"] = map[string]any{"count": 0}
	})
	_, err := Parse(tampered)
	e := asABI(t, err)
	if e.Code != abi.CodeEvidenceIntegrity {
		t.Fatalf("code %s: %v", e.Code, e)
	}
	if e.Details["declared_evidence_id"] != r.EvidenceID {
		t.Errorf("declared id %v", e.Details["declared_evidence_id"])
	}
	computed, _ := e.Details["computed_evidence_id"].(string)
	if !IsEvidenceID(computed) || computed == r.EvidenceID {
		t.Errorf("computed id %q", computed)
	}
	if computed != independentID(t, mustCanonical(t, tampered)) {
		t.Error("computed id in the error is not the content's id")
	}
}

func mustCanonical(t *testing.T, doc []byte) []byte {
	c, err := jcs.Transform(doc)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestParseRejectsMalformedRecordsNamingTheField(t *testing.T) {
	ap, _ := NewAnalysisProfile(testProvider(), 1, map[string]any{"k": "v"})
	d := testDraft()
	d.AnalysisProfile = &ap
	base := mustNew(t, d).Canonical()
	cases := []struct {
		name  string
		edit  func(m map[string]any)
		field string
	}{
		{"unknown field", func(m map[string]any) { m["extra"] = 1 }, "extra"},
		{"missing analysis_profile", func(m map[string]any) { delete(m, "analysis_profile") }, "analysis_profile"},
		{"missing subject", func(m map[string]any) { delete(m, "subject") }, "subject"},
		{"unknown subject field", func(m map[string]any) { m["subject"].(map[string]any)["size"] = 3 }, "subject.size"},
		{"subject format", func(m map[string]any) { m["subject"].(map[string]any)["format"] = "exe" }, "subject.format"},
		{"empty architecture", func(m map[string]any) { m["subject"].(map[string]any)["architecture"] = "" }, "subject.architecture"},
		{"provider version number", func(m map[string]any) { m["provider"].(map[string]any)["version"] = 1 }, "provider.version"},
		{"confidence", func(m map[string]any) { m["confidence"] = "sure" }, "confidence"},
		{"authority", func(m map[string]any) { m["authority"] = "me" }, "authority"},
		{"parameters array", func(m map[string]any) { m["parameters"] = []any{} }, "parameters"},
		{"limitations not strings", func(m map[string]any) { m["limitations"] = []any{1} }, "limitations[0]"},
		{"location extra field", func(m map[string]any) {
			m["locations"] = []any{map[string]any{"kind": "address", "address": "0x1", "end": "0x2"}}
		}, "locations[0].end"},
		{"location without kind", func(m map[string]any) { m["locations"] = []any{map[string]any{"path": "a"}} }, "locations[0].kind"},
		{"negative offset", func(m map[string]any) { m["locations"] = []any{map[string]any{"kind": "file-offset", "offset": -1}} }, "locations[0].offset"},
		{"fractional offset", func(m map[string]any) {
			m["locations"] = []any{map[string]any{"kind": "file-offset", "offset": 1.5}}
		}, "locations[0].offset"},
		{"profile unknown field", func(m map[string]any) { m["analysis_profile"].(map[string]any)["x"] = 1 }, "analysis_profile.x"},
		{"profile missing digest", func(m map[string]any) { delete(m["analysis_profile"].(map[string]any), "digest") }, "analysis_profile.digest"},
		{"environment isolation", func(m map[string]any) {
			m["environment"] = map[string]any{"id": "e", "platform": "p", "architecture": "a", "isolation": "vm"}
		}, "environment.isolation"},
		{"schema version 3", func(m map[string]any) { m["schema_version"] = 3 }, "schema_version"},
		{"schema version string", func(m map[string]any) { m["schema_version"] = "2" }, "schema_version"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := resealed(t, mutate(t, base, c.edit))
			_, err := Parse(doc)
			if err == nil {
				t.Fatalf("accepted %s", doc)
			}
			if got := issuePath(t, err); got != c.field {
				t.Errorf("field %q, want %q (%v)", got, c.field, err)
			}
		})
	}
}

func TestParseRejectsAMalformedEvidenceID(t *testing.T) {
	doc := mutate(t, mustNew(t, testDraft()).Canonical(), func(m map[string]any) { m["evidence_id"] = "ev_XYZ" })
	_, err := Parse(doc)
	if got := issuePath(t, err); got != "evidence_id" {
		t.Errorf("field %q (%v)", got, err)
	}
}

func TestParseRejectsEvidenceV1WithAnActionableMessage(t *testing.T) {
	v1 := mutate(t, mustNew(t, testDraft()).Canonical(), func(m map[string]any) {
		m["schema_version"] = 1
		delete(m, "analysis_profile") // v1 records predate the field
	})
	_, err := Parse(v1)
	if got := issuePath(t, err); got != "schema_version" {
		t.Fatalf("field %q (%v)", got, err)
	}
	if msg := asABI(t, err).Message; !strings.Contains(msg, "v1") || !strings.Contains(msg, "re-run") {
		t.Errorf("message does not say what to do: %s", msg)
	}
}

func TestParseRejectsAlteredProfileDigest(t *testing.T) {
	ap, _ := NewAnalysisProfile(testProvider(), 1, map[string]any{"k": "v"})
	d := testDraft()
	d.AnalysisProfile = &ap
	doc := resealed(t, mutate(t, mustNew(t, d).Canonical(), func(m map[string]any) {
		m["analysis_profile"].(map[string]any)["parameters"] = map[string]any{"k": "w"}
	}))
	_, err := Parse(doc)
	e := asABI(t, err)
	if e.Code != abi.CodeEvidenceIntegrity || e.Details["declared_digest"] != ap.Digest {
		t.Errorf("got %v %v", e.Code, e.Details)
	}
}

func TestParseRejectsNonJSONAndDuplicateKeys(t *testing.T) {
	r := mustNew(t, testDraft())
	dup := append([]byte(`{"operation":"x",`), r.Canonical()[1:]...)
	for name, in := range map[string][]byte{"empty": nil, "array": []byte(`[]`), "duplicate key": dup, "truncated": r.Canonical()[:50]} {
		t.Run(name, func(t *testing.T) {
			if _, err := Parse(in); err == nil {
				t.Error("accepted")
			} else if asABI(t, err).Code != abi.CodeInvalidRequest {
				t.Errorf("code %s", asABI(t, err).Code)
			}
		})
	}
}

func TestRecordUnmarshalJSONParsesStrictly(t *testing.T) {
	r := mustNew(t, testDraft())
	var holder struct {
		Evidence Record `json:"evidence"`
	}
	doc := []byte(`{"evidence":` + string(r.Canonical()) + `}`)
	if err := json.Unmarshal(doc, &holder); err != nil {
		t.Fatal(err)
	}
	if holder.Evidence.EvidenceID != r.EvidenceID || !bytes.Equal(holder.Evidence.Canonical(), r.Canonical()) {
		t.Error("decoded record differs")
	}
	tampered := bytes.Replace(doc, []byte(`"count":1`), []byte(`"count":2`), 1)
	if err := json.Unmarshal(tampered, &holder); asABI(t, err).Code != abi.CodeEvidenceIntegrity {
		t.Errorf("tampered record decoded: %v", err)
	}
}

func TestUnsealedRecordsMarshalOnlyWhenValid(t *testing.T) {
	r := mustNew(t, testDraft())
	edited := r
	edited.canonical = nil
	out, err := json.Marshal(edited)
	if err != nil || !bytes.Equal(out, r.Canonical()) {
		t.Errorf("unsealed copy of a valid record: %v\n%s", err, out)
	}
	edited.Confidence = "sure"
	if _, err := json.Marshal(edited); err == nil {
		t.Error("an invalid unsealed record marshalled")
	}
}

func TestNewRefusesIntegersThatWouldBeRounded(t *testing.T) {
	d := testDraft()
	d.NormalizedResult = map[string]any{"entry": uint64(0xfffffff007004001)}
	_, err := New(d)
	if got := issuePath(t, err); got != "normalized_result" {
		t.Fatalf("field %q (%v)", got, err)
	}
	if !strings.Contains(asABI(t, err).Message, "string") {
		t.Errorf("message does not say how to fix it: %s", asABI(t, err).Message)
	}
	d.NormalizedResult = map[string]any{"entry": "0xfffffff007004001"}
	mustNew(t, d)
}
