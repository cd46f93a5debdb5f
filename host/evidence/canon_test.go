package evidence

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/gowebpki/jcs"
)

func TestCanonicalJSONMatchesPublishedVectors(t *testing.T) {
	inputs, err := filepath.Glob("testdata/jcs/input/*.json")
	if err != nil || len(inputs) < 5 {
		t.Fatalf("vectors missing: %v %v", inputs, err)
	}
	for _, in := range inputs {
		name := filepath.Base(in)
		t.Run(name, func(t *testing.T) {
			input, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata/jcs/output", name))
			if err != nil {
				t.Fatal(err)
			}
			got, err := canonicalJSON(input)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got  %q\nwant %q", got, want)
			}
		})
	}
}

// RFC 8785 Appendix B: IEEE-754 bit patterns and their ECMAScript text.
func TestCanonicalJSONSerialisesNumbersAsRFC8785AppendixB(t *testing.T) {
	cases := []struct{ bits, want string }{
		{"0000000000000000", "0"},
		{"8000000000000000", "0"}, // minus zero
		{"0000000000000001", "5e-324"},
		{"8000000000000001", "-5e-324"},
		{"7fefffffffffffff", "1.7976931348623157e+308"},
		{"ffefffffffffffff", "-1.7976931348623157e+308"},
		{"4340000000000000", "9007199254740992"},
		{"c340000000000000", "-9007199254740992"},
		{"4430000000000000", "295147905179352830000"},
		{"44b52d02c7e14af5", "9.999999999999997e+22"},
		{"44b52d02c7e14af6", "1e+23"},
		{"44b52d02c7e14af7", "1.0000000000000001e+23"},
		{"444b1ae4d6e2ef4e", "999999999999999700000"},
		{"444b1ae4d6e2ef4f", "999999999999999900000"},
		{"444b1ae4d6e2ef50", "1e+21"},
		{"3eb0c6f7a0b5ed8c", "9.999999999999997e-7"},
		{"3eb0c6f7a0b5ed8d", "0.000001"},
		{"41b3de4355555553", "333333333.3333332"},
		{"41b3de4355555554", "333333333.33333325"},
		{"41b3de4355555555", "333333333.3333333"},
		{"41b3de4355555556", "333333333.3333334"},
		{"41b3de4355555557", "333333333.33333343"},
		{"becbf647612f3696", "-0.0000033333333333333333"},
		{"43143ff3c1cb0959", "1424953923781206.2"}, // round half to even
	}
	for _, c := range cases {
		t.Run(c.bits, func(t *testing.T) {
			bits, err := strconv.ParseUint(c.bits, 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			// 17 significant digits always round-trip the double exactly.
			in := strconv.FormatFloat(math.Float64frombits(bits), 'e', 16, 64)
			got, err := canonicalJSON([]byte("[" + in + "]"))
			if err != nil {
				t.Fatal(err)
			}
			if want := "[" + c.want + "]"; string(got) != want {
				t.Errorf("%s (%s): got %s, want %s", c.bits, in, got, want)
			}
		})
	}
}

func TestCanonicalJSONMatchesRFC8785SampleObjects(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{
			"section 3.2.2 sample",
			`{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
			  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
			  "literals": [null, true, false]}`,
			`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
		},
		{
			"section 3.2.3 sorting sample",
			`{"\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh",
			  "1": "One", "\ud83d\ude00": "Emoji: Grinning Face", "\u0080": "Control",
			  "\u00f6": "Latin Small Letter O With Diaeresis"}`,
			"{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"ö\":\"Latin Small Letter O With Diaeresis\"," +
				"\"€\":\"Euro Sign\",\"\U0001F600\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := canonicalJSON([]byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestCanonicalJSONRejectsWhatIJSONForbids(t *testing.T) {
	for name, in := range map[string]string{
		"duplicate key":  `{"a":1,"a":2}`,
		"lone surrogate": `["\ud800"]`,
		"invalid utf-8":  "[\"\xff\"]",
		"trailing data":  `{} {}`,
		"empty":          ``,
		"not json":       `{a:1}`,
	} {
		t.Run(name, func(t *testing.T) {
			if got, err := canonicalJSON([]byte(in)); err == nil {
				t.Errorf("accepted %q as %q", in, got)
			}
		})
	}
}

// appendString is this package's own RFC 8785 string writer; the library's
// output for the same string is the reference.
func TestAppendStringAgreesWithTheRFC8785Library(t *testing.T) {
	for _, s := range []string{
		"", "plain", "quote\"backslash\\", "\x00\x01\x07\x08\t\n\x0b\x0c\r\x1f", "\x7f\u0080\u2028\u2029",
		"</script>", "€ ö דּ 😂", "slash/", "mixed \"\\\n€",
	} {
		encoded, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		want, err := jcs.Transform(encoded)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}

func TestCompareUTF16OrdersLikeTheRFC8785Library(t *testing.T) {
	keys := []string{"\r", "1", "\u0080", "ö", "€", "😀", "\ufb33", "\uffff", "𐀀", "a", "A", "", "ab", "aa"}
	obj := map[string]int{}
	for i, k := range keys {
		obj[k] = i
	}
	encoded, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	canonical, err := jcs.Transform(encoded)
	if err != nil {
		t.Fatal(err)
	}
	// Read the library's key order back.
	dec := json.NewDecoder(bytes.NewReader(canonical))
	var libraryOrder []string
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		tok, _ := dec.Token()
		libraryOrder = append(libraryOrder, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	ours := append([]string{}, keys...)
	sort.Slice(ours, func(i, j int) bool { return lessUTF16(ours[i], ours[j]) })
	for i := range ours {
		if ours[i] != libraryOrder[i] {
			t.Fatalf("order differs at %d: ours %q, library %q", i, ours, libraryOrder)
		}
	}
}

func TestUnsafeIntegerFindsIntegersThatRFC8785WouldRound(t *testing.T) {
	cases := []struct {
		doc  string
		want string
	}{
		{`{"a":9007199254740991}`, ""},
		{`{"a":-9007199254740991}`, ""},
		{`{"a":9007199254740992}`, "9007199254740992"},
		{`[1,2,{"addr":18446744069414584321}]`, "18446744069414584321"},
		{`{"a":-9007199254740993}`, "-9007199254740993"},
		{`{"a":1e300,"b":12345678901234567.5}`, ""}, // not integers: the double is what was written
		{`{"s":"18446744069414584321","t":"\"99999999999999999999"}`, ""},
		{`{"k\"":"x","n":99999999999999999999}`, "99999999999999999999"},
		{`{"a":0000000000000000001}`, ""}, // leading zeros are not significant (and not JSON)
	}
	for _, c := range cases {
		got, bad := unsafeInteger([]byte(c.doc))
		if got != c.want || bad != (c.want != "") {
			t.Errorf("%s: got %q %v, want %q", c.doc, got, bad, c.want)
		}
	}
}
