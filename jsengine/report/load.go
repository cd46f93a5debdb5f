package report

import "encoding/json"

// MarshalJSON writes remote as null when the load's target is computed at
// run time: whether such a page is remote is unknown, and false would claim
// it is local.
func (l Load) MarshalJSON() ([]byte, error) {
	type plain Load
	out := struct {
		plain
		Remote *bool `json:"remote"`
	}{plain: plain(l)}
	if l.State != "dynamic" {
		r := l.Remote
		out.Remote = &r
	}
	return json.Marshal(out)
}
