package index

import (
	"encoding/hex"
	"slices"
	"strings"

	"rea/abi"
)

// Read returns the complete section a locator names: heading, body and every
// subsection. A locator issued for another bundle is stale; one that names no
// section of this bundle is unknown. Both are abi.CodeUnavailable errors and
// never return content: the index keeps no copy of any other bundle.
func (ix *Index) Read(p ReadParams) (*ReadResult, error) {
	i, err := ix.resolve(p.Locator)
	if err != nil {
		return nil, err
	}
	s := &ix.sections[i]
	res := &ReadResult{
		BundleDigest: ix.BundleDigest(), Locator: ix.locator(i),
		Path: ix.docs[s.doc].path, Heading: clipHeading(s.heading), HeadingPath: clipPath(ix.headingPath(i)), Level: s.level,
		Content: ix.docs[s.doc].src[s.start:s.end], ContentLength: s.units, LengthUnit: LengthUnit,
		Subsections: []SectionRef{},
	}
	for _, c := range s.children {
		ch := &ix.sections[c]
		res.Subsections = append(res.Subsections, SectionRef{Locator: ix.locator(c), Heading: clipHeading(ch.heading), ContentLength: ch.units})
	}
	return res, nil
}

func (ix *Index) resolve(locator string) (int, error) {
	parts := strings.Split(locator, ".")
	if len(parts) != 3 || parts[0] != locatorPrefix || !isHex(parts[1], 32) || !isHex(parts[2], 32) {
		return 0, abi.Errorf(abi.CodeInvalidRequest,
			"locator %q is not a guidance locator; pass a locator returned by search_guidance", clip(locator)).
			WithDetail("field", "locator")
	}
	if want := formatLocator(ix.digest, [32]byte{})[:len(locatorPrefix)+1+32]; parts[0]+"."+parts[1] != want {
		return 0, abi.Errorf(abi.CodeUnavailable,
			"guidance locator %s was issued for a different guidance bundle than the installed one; search again with search_guidance for a current locator", locator).
			WithDetail("reason", ReasonStaleLocator).WithDetail("locator", locator).
			WithDetail("bundle_digest", ix.BundleDigest())
	}
	want, _ := hex.DecodeString(parts[2]) // checked by isHex
	i := slices.IndexFunc(ix.sections, func(s section) bool { return string(s.hash[:16]) == string(want) })
	if i < 0 {
		return 0, abi.Errorf(abi.CodeUnavailable,
			"guidance locator %s names no section of the installed guidance bundle; search again with search_guidance", locator).
			WithDetail("reason", ReasonUnknownSection).WithDetail("locator", locator).
			WithDetail("bundle_digest", ix.BundleDigest())
	}
	return i, nil
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// clip keeps error messages bounded when a caller passes a huge string.
func clip(s string) string {
	if len(s) <= 80 {
		return s
	}
	r := []rune(s)
	if len(r) > 80 {
		r = r[:80]
	}
	return string(r) + "…"
}
