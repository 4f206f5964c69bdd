package validate

import "testing"

func TestPointerString(t *testing.T) {
	for _, c := range []struct {
		p    pointer
		want string
	}{
		{pointer{}, ""},
		{at("/reconciliation"), "/reconciliation"},
		{at("/final/citations").index(12).field("supports").index(0), "/final/citations/12/supports/0"},
		{at("/a").field("b/c").field("c~d").index(3), "/a/b~1c/c~0d/3"},
		// Past the tokens a pointer keeps unjoined, the joined prefix carries on.
		{at("/a").field("b").index(1).field("c").index(2).field("d").index(3), "/a/b/1/c/2/d/3"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("pointer %q, want %q", got, c.want)
		}
	}
	base := at("/final/claims")
	_ = base.index(3)
	if got := base.String(); got != "/final/claims" {
		t.Errorf("extending a pointer changed it: %q", got)
	}
}
