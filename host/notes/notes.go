// Package notes keeps an analyst's annotations of a native binary — names,
// comments, inline comments and bookmarks at addresses — as Evidence.
//
// The package keeps no state of its own: every change is one
// rea.analyst-note-mutation/v1 Evidence record in the session ledger
// (who, what, when, the value it replaced and the record that set that
// value), so exporting the ledger carries the notes, importing a bundle
// restores them, and the current notes of a binary are a fold over its
// records. Each (kind, address) has one chain of mutations, each naming
// its predecessor; a chain that forks (two sessions' bundles imported
// into one) or names a predecessor that is not retained is a conflict: it
// is reported with its records and applied nowhere, never silently
// resolved.
//
// Notes are analyst-supplied: their records have authority
// analyst-inference and confidence inferred, and results that show them
// carry them in a separate analyst_annotations section, never in the
// fields read from the binary.
package notes

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"rea/abi"
	"rea/analysis/native/nativewire"
	"rea/host/evidence"
)

// PredicateType marks a note mutation record.
const PredicateType = "rea.analyst-note-mutation/v1"

// Version is the notes_version of a mutation's normalized result.
const Version = 1

// Kinds of note.
const (
	KindName          = "name"
	KindComment       = "comment"
	KindInlineComment = "inline_comment"
	KindBookmark      = "bookmark"
)

// Kinds lists every kind.
func Kinds() []string { return []string{KindName, KindComment, KindInlineComment, KindBookmark} }

// Limits on one note.
const (
	MaxNameChars    = 1024
	MaxCommentChars = 16384
	// MaxBatch bounds set_addresses_names.
	MaxBatch = 500
)

// Provider is the Evidence provider of note mutation records.
func Provider() evidence.Provider {
	v := "1"
	return evidence.Provider{ID: "rea.analyst-notes", Name: "rea analyst notes", Version: &v}
}

// Target is the binary a note is about.
type Target struct {
	SHA256       string
	Name         string
	Format       string
	Architecture string
	LocalPath    string
}

// Mutation is a note mutation record's normalized result.
type Mutation struct {
	NotesVersion int     `json:"notes_version"`
	TargetSHA256 string  `json:"target_sha256"`
	Kind         string  `json:"kind"`
	Address      string  `json:"address"`
	Value        *string `json:"value"`
	PriorValue   *string `json:"prior_value"`
	// PriorEvidenceID is the mutation that set PriorValue (null for the
	// first note of its kind at the address).
	PriorEvidenceID *string `json:"prior_evidence_id"`
	// Sequence is the mutation's place among the target's notes (1, 2, …)
	// when it was written.
	Sequence   int    `json:"sequence"`
	Actor      string `json:"actor"`
	RecordedAt string `json:"recorded_at"`
}

// Note is one current note.
type Note struct {
	Kind       string `json:"kind"`
	Address    string `json:"address"`
	Value      string `json:"value"`
	EvidenceID string `json:"evidence_id"`
	Actor      string `json:"actor"`
	RecordedAt string `json:"recorded_at"`
	Sequence   int    `json:"sequence"`
}

// Conflict is a (kind, address) whose mutations do not form one chain.
type Conflict struct {
	Kind        string   `json:"kind"`
	Address     string   `json:"address"`
	Reason      string   `json:"reason"`
	EvidenceIDs []string `json:"evidence_ids"`
}

type key struct {
	kind string
	addr nativewire.Addr
}

// View is the current notes of one binary.
type View struct {
	Target    string
	notes     map[key]Note
	heads     map[key]string
	Conflicts []Conflict
	// Mutations counts the target's note records.
	Mutations int
}

type entry struct {
	id string
	m  Mutation
}

// Load folds the ledger's note records about one binary into its current
// notes. A record with this package's predicate that does not parse is a
// conflict at its address (reason malformed), not an error: the bundle it
// came in was valid Evidence.
func Load(l *evidence.Ledger, sha256 string) *View {
	v := &View{Target: sha256, notes: map[key]Note{}, heads: map[key]string{}}
	if l == nil {
		return v
	}
	groups := map[key][]entry{}
	for _, r := range l.Records() {
		if r.PredicateType != PredicateType || r.Subject == nil || r.Subject.Digest.SHA256 != sha256 {
			continue
		}
		v.Mutations++
		var m Mutation
		err := json.Unmarshal(r.NormalizedResult, &m)
		addr, aerr := nativewire.ParseAddr(m.Address)
		if err != nil || aerr != nil || m.NotesVersion != Version || m.TargetSHA256 != sha256 || !validKind(m.Kind) || r.Provider.ID != Provider().ID {
			v.Conflicts = append(v.Conflicts, Conflict{Kind: m.Kind, Address: m.Address, Reason: "malformed", EvidenceIDs: []string{r.EvidenceID}})
			continue
		}
		k := key{m.Kind, addr}
		groups[k] = append(groups[k], entry{r.EvidenceID, m})
	}
	for k, es := range groups {
		head, reason := chainHead(es)
		if reason != "" {
			ids := make([]string, len(es))
			for i, e := range es {
				ids[i] = e.id
			}
			sort.Strings(ids)
			v.Conflicts = append(v.Conflicts, Conflict{Kind: k.kind, Address: k.addr.String(), Reason: reason, EvidenceIDs: ids})
			continue
		}
		v.heads[k] = head.id
		if head.m.Value != nil {
			v.notes[k] = Note{Kind: k.kind, Address: k.addr.String(), Value: *head.m.Value, EvidenceID: head.id, Actor: head.m.Actor,
				RecordedAt: head.m.RecordedAt, Sequence: head.m.Sequence}
		}
	}
	sort.Slice(v.Conflicts, func(i, j int) bool {
		a, b := v.Conflicts[i], v.Conflicts[j]
		if a.Address != b.Address {
			return a.Address < b.Address
		}
		return a.Kind < b.Kind
	})
	return v
}

// chainHead checks that the mutations form one chain from a first note
// (no predecessor) and returns its last; otherwise the reason it does not.
func chainHead(es []entry) (entry, string) {
	byID := map[string]entry{}
	next := map[string]int{} // predecessor id ("" for a first note) → successors
	for _, e := range es {
		byID[e.id] = e
		p := ""
		if e.m.PriorEvidenceID != nil {
			p = *e.m.PriorEvidenceID
		}
		next[p]++
	}
	if next[""] != 1 {
		return entry{}, "forked: more than one mutation starts this note's history"
	}
	var heads []entry
	for _, e := range es {
		if e.m.PriorEvidenceID != nil {
			prior, ok := byID[*e.m.PriorEvidenceID]
			if !ok {
				return entry{}, "broken: a mutation names a prior mutation that is not retained"
			}
			if !sameValue(prior.m.Value, e.m.PriorValue) {
				return entry{}, "broken: a mutation's prior_value differs from the value its prior mutation set"
			}
			if next[*e.m.PriorEvidenceID] > 1 {
				return entry{}, "forked: two mutations replace the same value"
			}
		} else if e.m.PriorValue != nil {
			return entry{}, "broken: the first mutation names a prior value"
		}
		if next[e.id] == 0 {
			heads = append(heads, e)
		}
	}
	if len(heads) != 1 {
		return entry{}, "broken: the history has a cycle"
	}
	return heads[0], ""
}

func sameValue(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func validKind(k string) bool {
	for _, x := range Kinds() {
		if k == x {
			return true
		}
	}
	return false
}

// At is the current note of one kind at an address.
func (v *View) At(kind string, addr nativewire.Addr) (Note, bool) {
	n, ok := v.notes[key{kind, addr}]
	return n, ok
}

// conflictAt says whether (kind, addr) is in conflict.
func (v *View) conflictAt(kind string, addr nativewire.Addr) *Conflict {
	for i, c := range v.Conflicts {
		if c.Kind == kind && c.Address == addr.String() {
			return &v.Conflicts[i]
		}
	}
	return nil
}

// Named finds the address an analyst name names, when exactly one does.
func (v *View) Named(name string) (nativewire.Addr, bool) {
	var found []nativewire.Addr
	for k, n := range v.notes {
		if k.kind == KindName && n.Value == name {
			found = append(found, k.addr)
		}
	}
	if len(found) != 1 {
		return 0, false
	}
	return found[0], true
}

// Len counts the current notes.
func (v *View) Len() int { return len(v.notes) }

// All lists the current notes of one kind ("" for every kind) by address.
func (v *View) All(kind string) []Note {
	var out []Note
	for k, n := range v.notes {
		if kind == "" || k.kind == kind {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, _ := nativewire.ParseAddr(out[i].Address)
		b, _ := nativewire.ParseAddr(out[j].Address)
		if a != b {
			return a < b
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}

// Change is one requested note change: Value nil removes the note.
type Change struct {
	Kind    string
	Address string
	Value   *string
}

// Result is what a write reports: each mutation recorded and the note
// read back after it.
type Result struct {
	Action     string    `json:"action"`
	Mutations  []Written `json:"mutations"`
	EvidenceID string    `json:"mutation_evidence_id,omitempty"`
}

// Written is one recorded mutation and its readback.
type Written struct {
	Kind       string  `json:"kind"`
	Address    string  `json:"address"`
	Value      *string `json:"value"`
	PriorValue *string `json:"prior_value"`
	EvidenceID string  `json:"mutation_evidence_id"`
	// Readback is the note read from the ledger after the write, and
	// ReadbackMatch whether it equals what was written.
	Readback      *string `json:"readback"`
	ReadbackMatch bool    `json:"readback_match"`
}

// writeMu serialises note writes, so each mutation names the head it
// replaced.
var writeMu sync.Mutex

// Validate checks a change before anything is written.
func Validate(c Change, field string) (nativewire.Addr, error) {
	if !validKind(c.Kind) {
		return 0, abi.Errorf(abi.CodeInvalidRequest, "kind %q is not one of %s", c.Kind, strings.Join(Kinds(), ", ")).WithDetail("field", "kind")
	}
	addr, err := nativewire.ParseAddr(c.Address)
	if err != nil || c.Address == "" {
		return 0, abi.Errorf(abi.CodeInvalidRequest, "%q is not an address; write it as hex (0x401000) or decimal", c.Address).
			WithDetail("field", field).WithDetail("reason", "invalid_address")
	}
	if c.Value == nil {
		return addr, nil
	}
	s := *c.Value
	max, what := MaxCommentChars, "a comment"
	if c.Kind == KindName || c.Kind == KindBookmark {
		max, what = MaxNameChars, "a name"
	}
	valueField := "comment"
	if c.Kind == KindName || c.Kind == KindBookmark {
		valueField = "name"
	}
	if !utf8.ValidString(s) {
		return 0, abi.Errorf(abi.CodeInvalidRequest, "%s must be UTF-8", what).WithDetail("field", valueField)
	}
	if n := utf8.RuneCountInString(s); n > max {
		return 0, abi.Errorf(abi.CodeInvalidRequest, "%s is %d characters; at most %d are kept", what, n, max).WithDetail("field", valueField).WithDetail("maximum", max)
	}
	for _, r := range s {
		if r < 0x20 && !(r == '\n' || r == '\t') || r == 0x7f || (r == '\n' || r == '\t') && valueField == "name" {
			return 0, abi.Errorf(abi.CodeInvalidRequest, "%s must not hold control characters (found U+%04X)", what, r).WithDetail("field", valueField)
		}
	}
	if valueField == "name" && strings.TrimSpace(s) != s {
		return 0, abi.Errorf(abi.CodeInvalidRequest, "a name must not start or end with white space").WithDetail("field", valueField)
	}
	return addr, nil
}

// Write records the changes as mutation records in the ledger, one per
// change, in order, and reads each note back. A (kind, address) in
// conflict is refused (revision_conflict) before anything is written.
func Write(l *evidence.Ledger, t Target, operation, actor string, now time.Time, changes []Change) (*Result, error) {
	writeMu.Lock()
	defer writeMu.Unlock()
	v := Load(l, t.SHA256)
	addrs := make([]nativewire.Addr, len(changes))
	for i, c := range changes {
		a, err := Validate(c, "address")
		if err != nil {
			return nil, err
		}
		if cf := v.conflictAt(c.Kind, a); cf != nil {
			return nil, abi.Errorf(abi.CodeRevisionConflict, "the %s at %s has conflicting histories (%s); nothing was written", c.Kind, a, cf.Reason).
				WithDetail("field", "address").WithDetail("evidence_ids", cf.EvidenceIDs)
		}
		addrs[i] = a
	}
	if n := l.Limits().MaxRecords; n > 0 && l.Len()+len(changes) > n {
		return nil, abi.Errorf(abi.CodeResourceConstraint, "the session ledger holds %d of %d records; %d note changes do not fit", l.Len(), n, len(changes)).
			WithDetail("resource", "evidence_records")
	}
	out := &Result{Action: "recorded"}
	seq := v.Mutations
	for i, c := range changes {
		k := key{c.Kind, addrs[i]}
		m := Mutation{NotesVersion: Version, TargetSHA256: t.SHA256, Kind: c.Kind, Address: addrs[i].String(), Value: c.Value,
			Actor: actor, RecordedAt: now.UTC().Format(time.RFC3339Nano)}
		var links []string
		if id, ok := v.heads[k]; ok {
			idc := id
			m.PriorEvidenceID = &idc
			links = []string{id}
			if n, ok := v.notes[k]; ok {
				pv := n.Value
				m.PriorValue = &pv
			}
		}
		seq++
		m.Sequence = seq
		rec, err := evidence.New(evidence.Draft{
			Subject:          &evidence.Subject{Name: t.Name, Digest: evidence.Digest{SHA256: t.SHA256}, Format: t.Format, Architecture: t.Architecture, LocalPath: t.LocalPath},
			Provider:         Provider(),
			PredicateType:    PredicateType,
			Operation:        operation,
			Parameters:       map[string]any{"kind": c.Kind, "address": addrs[i].String(), "value": c.Value},
			NormalizedResult: m,
			Confidence:       evidence.ConfidenceInferred,
			Authority:        evidence.AuthorityAnalystInference,
			Limitations:      []string{"analyst-supplied: this note was written by " + actor + ", not read from the binary"},
			Locations:        []evidence.Location{evidence.AddressLocation(addrs[i].String())},
			EvidenceLinks:    links,
		})
		if err != nil {
			return nil, err
		}
		if _, err := l.Add(rec); err != nil {
			return nil, err
		}
		// The next change of the same note replaces this one.
		v.heads[k] = rec.EvidenceID
		if c.Value != nil {
			v.notes[k] = Note{Kind: c.Kind, Address: m.Address, Value: *c.Value, EvidenceID: rec.EvidenceID, Actor: actor, RecordedAt: m.RecordedAt, Sequence: seq}
		} else {
			delete(v.notes, k)
		}
		out.Mutations = append(out.Mutations, Written{Kind: c.Kind, Address: m.Address, Value: c.Value, PriorValue: m.PriorValue, EvidenceID: rec.EvidenceID})
	}
	// Read back from the ledger, as a later call would.
	back := Load(l, t.SHA256)
	for i := range out.Mutations {
		w := &out.Mutations[i]
		a, _ := nativewire.ParseAddr(w.Address)
		if n, ok := back.At(w.Kind, a); ok {
			s := n.Value
			w.Readback = &s
		}
		w.ReadbackMatch = sameValue(w.Readback, w.Value)
		// A later change in the same batch replaces an earlier one's note.
		for _, later := range out.Mutations[i+1:] {
			if later.Kind == w.Kind && later.Address == w.Address {
				w.ReadbackMatch = sameValue(w.Readback, later.Value)
			}
		}
	}
	if len(out.Mutations) == 1 {
		out.EvidenceID = out.Mutations[0].EvidenceID
	}
	return out, nil
}

// Annotations are the notes at the addresses a result names, shown beside
// it: analyst-supplied, never merged into the binary's own facts.
type Annotations struct {
	Authority string         `json:"authority"`
	Source    string         `json:"source"`
	Items     []AddressNotes `json:"items"`
	Conflicts []Conflict     `json:"conflicts,omitempty"`
	Omitted   int            `json:"omitted,omitempty"`
}

// AddressNotes are the notes at one address.
type AddressNotes struct {
	Address       string `json:"address"`
	Name          *Note  `json:"name,omitempty"`
	Comment       *Note  `json:"comment,omitempty"`
	InlineComment *Note  `json:"inline_comment,omitempty"`
	Bookmark      *Note  `json:"bookmark,omitempty"`
}

// MaxAnnotated bounds the addresses one result annotates.
const MaxAnnotated = 1000

// AnnotationSource describes where annotations come from.
const AnnotationSource = "analyst notes (set_address_name, set_comment, set_inline_comment, set_bookmark), recorded as Evidence in this session; not read from the binary"

// Annotate collects the notes at every address a result names (any
// string field holding an address), in address order; nil when none
// applies. The evidence ids of the notes shown are returned for the
// result's evidence_links.
func (v *View) Annotate(result any) (*Annotations, []string) {
	if v == nil || (len(v.notes) == 0 && len(v.Conflicts) == 0) {
		return nil, nil
	}
	addrs := map[nativewire.Addr]bool{}
	var walk func(x any)
	walk = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			for _, e := range t {
				walk(e)
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		case string:
			if strings.HasPrefix(t, "0x") && len(t) <= 18 {
				if a, err := nativewire.ParseAddr(t); err == nil {
					addrs[a] = true
				}
			}
		}
	}
	walk(result)
	var list []nativewire.Addr
	for a := range addrs {
		if v.any(a) {
			list = append(list, a)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i] < list[j] })
	out := &Annotations{Authority: string(evidence.AuthorityAnalystInference), Source: AnnotationSource, Items: []AddressNotes{}}
	var links []string
	for i, a := range list {
		if i >= MaxAnnotated {
			out.Omitted = len(list) - MaxAnnotated
			break
		}
		an := AddressNotes{Address: a.String()}
		for _, kind := range Kinds() {
			n, ok := v.notes[key{kind, a}]
			if !ok {
				continue
			}
			links = append(links, n.EvidenceID)
			switch kind {
			case KindName:
				an.Name = &n
			case KindComment:
				an.Comment = &n
			case KindInlineComment:
				an.InlineComment = &n
			case KindBookmark:
				an.Bookmark = &n
			}
		}
		out.Items = append(out.Items, an)
	}
	for _, c := range v.Conflicts {
		if a, err := nativewire.ParseAddr(c.Address); err == nil && addrs[a] {
			out.Conflicts = append(out.Conflicts, c)
		}
	}
	if len(out.Items) == 0 && len(out.Conflicts) == 0 {
		return nil, nil
	}
	sort.Strings(links)
	return out, links
}

func (v *View) any(a nativewire.Addr) bool {
	for _, k := range Kinds() {
		if _, ok := v.notes[key{k, a}]; ok {
			return true
		}
	}
	return false
}

// Actor names who wrote a note: an MCP client by its initialize identity,
// the CLI by the user running it.
func Actor(kind, name, version string) string {
	s := kind
	if name != "" {
		s += ":" + name
		if version != "" {
			s += "/" + version
		}
	}
	return s
}

// String renders a note for text output.
func (n Note) String() string { return fmt.Sprintf("%s %s %q", n.Address, n.Kind, n.Value) }
