package executable

import (
	"debug/dwarf"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"rea/abi"
	"rea/analysis/native/nativewire"
)

// TypeSummary and friends are the wire's.
type (
	TypeSummary = nativewire.TypeSummary
	TypeMember  = nativewire.TypeMember
)

var typeKinds = map[dwarf.Tag]string{
	dwarf.TagStructType: "struct", dwarf.TagUnionType: "union", dwarf.TagClassType: "class",
	dwarf.TagEnumerationType: "enum", dwarf.TagTypedef: "typedef", dwarf.TagBaseType: "base",
}

// maxTypeEntries bounds the entries one type listing walks.
const maxTypeEntries = 20_000_000

// Types lists the named type definitions of the debug information, one per
// kind, name and size (C and C++ repeat a type in every compilation unit
// that includes it; dup counts the repeats folded).
func (f *File) Types() (out []TypeSummary, dup int, err error) {
	d, err := f.DWARF()
	if err != nil {
		return nil, 0, err
	}
	defer recoverInto(&err, "reading DWARF types")
	seen := map[string]bool{}
	rd := d.Reader()
	for n := 0; ; n++ {
		if n > maxTypeEntries {
			return out, dup, abi.Errorf(abi.CodeResourceConstraint, "the debug information has more than %d entries; rea lists types of smaller DWARF only", maxTypeEntries)
		}
		e, err := rd.Next()
		if err != nil {
			return nil, 0, malformed("reading DWARF types: %v", err)
		}
		if e == nil {
			break
		}
		kind, ok := typeKinds[e.Tag]
		name, _ := e.Val(dwarf.AttrName).(string)
		if !ok || name == "" {
			continue
		}
		if decl, _ := e.Val(dwarf.AttrDeclaration).(bool); decl {
			if e.Children {
				rd.SkipChildren()
			}
			continue
		}
		size, _ := e.Val(dwarf.AttrByteSize).(int64)
		members := 0
		if e.Children {
			members = countMembers(rd)
		}
		key := kind + "\x00" + name + "\x00" + strconv.FormatInt(size, 10)
		if seen[key] {
			dup++
			continue
		}
		seen[key] = true
		out = append(out, TypeSummary{ID: "0x" + strconv.FormatUint(uint64(e.Offset), 16), Name: name, Kind: kind, ByteSize: size, Members: members})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Kind < out[j].Kind
	})
	return out, dup, nil
}

// countMembers reads the children of the entry just read and counts its
// fields and enumerators, leaving the reader after them.
func countMembers(rd *dwarf.Reader) int {
	n := 0
	for {
		c, err := rd.Next()
		if err != nil || c == nil || c.Tag == 0 {
			return n
		}
		if c.Tag == dwarf.TagMember || c.Tag == dwarf.TagEnumerator {
			n++
		}
		if c.Children {
			rd.SkipChildren()
		}
	}
}

// TypeDetail is one type read in full.
type TypeDetail struct {
	Summary     TypeSummary
	Declaration string
	Underlying  string
	Members     []TypeMember
	Candidates  []TypeSummary
	Truncated   bool
}

// maxDeclaration bounds a type's declaration text.
const maxDeclaration = 8000

// ReadType reads a type by id (its DWARF offset, 0x…) or exact name; a
// name several types carry answers the largest definition and lists the
// others as candidates.
func (f *File) ReadType(ref string) (t *TypeDetail, err error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "name the type by id (0x… from list_types) or exact name").WithDetail("field", "type")
	}
	d, err := f.DWARF()
	if err != nil {
		return nil, err
	}
	all, _, err := f.Types()
	if err != nil {
		return nil, err
	}
	defer recoverInto(&err, "reading a DWARF type")
	var pick *TypeSummary
	var others []TypeSummary
	for i := range all {
		s := &all[i]
		if s.ID == strings.ToLower(ref) || s.Name == ref {
			if pick == nil || s.ByteSize > pick.ByteSize || (s.ByteSize == pick.ByteSize && s.Members > pick.Members) {
				if pick != nil {
					others = append(others, *pick)
				}
				pick = s
			} else {
				others = append(others, *s)
			}
		}
	}
	if pick == nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "no type is named or has the id %q; list_types shows what exists", ref).WithDetail("field", "type").WithDetail("reason", "type_not_found")
	}
	off, _ := strconv.ParseUint(strings.TrimPrefix(pick.ID, "0x"), 16, 64)
	typ, err := d.Type(dwarf.Offset(off))
	if err != nil {
		return nil, malformed("reading type %s: %v", pick.ID, err)
	}
	t = &TypeDetail{Summary: *pick, Candidates: others, Members: []TypeMember{}}
	switch v := typ.(type) {
	case *dwarf.StructType:
		for _, fl := range v.Field {
			if len(t.Members) >= nativewire.MaxTypeMembers {
				t.Truncated = true
				break
			}
			m := TypeMember{Name: fl.Name, ByteOffset: fl.ByteOffset, ByteSize: fl.ByteSize, BitSize: fl.BitSize}
			if fl.Type != nil {
				m.Type = fl.Type.String()
				if m.ByteSize == 0 {
					m.ByteSize = fl.Type.Size()
				}
			}
			if fl.BitSize > 0 {
				m.BitOffset = fl.DataBitOffset
				if m.BitOffset == 0 {
					m.BitOffset = fl.BitOffset
				}
			}
			t.Members = append(t.Members, m)
		}
		t.Declaration = v.Defn()
	case *dwarf.EnumType:
		for _, ev := range v.Val {
			if len(t.Members) >= nativewire.MaxTypeMembers {
				t.Truncated = true
				break
			}
			val := ev.Val
			t.Members = append(t.Members, TypeMember{Name: ev.Name, Value: &val})
		}
		t.Declaration = v.String()
	case *dwarf.TypedefType:
		if v.Type != nil {
			t.Underlying = v.Type.String()
		}
		t.Declaration = fmt.Sprintf("typedef %s %s", t.Underlying, v.Name)
	default:
		t.Declaration = typ.String()
	}
	if len(t.Declaration) > maxDeclaration {
		t.Declaration = t.Declaration[:maxDeclaration] + " …"
		t.Truncated = true
	}
	return t, nil
}
