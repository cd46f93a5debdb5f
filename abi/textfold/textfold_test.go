package textfold

import "testing"

func TestFoldComparesCompatibilityFormsAndCaseAlike(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Straße", "strasse"},
		{"ＩＰＣ", "ipc"},  // full-width
		{"ﬁle", "file"}, // ligature
		{"ΣΊΣΥΦΟΣ", "σίσυφοσ"},
	} {
		if got := Fold(c.in); got != c.want {
			t.Errorf("Fold(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := NewFolder().Fold(c.in); got != c.want {
			t.Errorf("Folder.Fold(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
