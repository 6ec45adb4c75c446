package knowledge_test

import (
	"net/url"
	"testing"

	"github.com/svcagent/svc/domain/knowledge"
)

func TestScope(t *testing.T) {
	tests := []struct {
		start string
		want  knowledge.Scope
		holds map[string]bool
	}{
		{"https://www.Lu.example/docs", knowledge.Scope{Site: "lu.example", Dir: "/docs/"}, map[string]bool{
			"https://lu.example/docs": true, "http://www.lu.example/docs/": true, "https://LU.example/docs/a/b?x=1": true,
			"https://lu.example/docsmore": false, "https://lu.example/blog/x": false, "https://shop.lu.example/docs/a": false,
			"https://lu.example:8443/docs/a": false, "ftp://lu.example/docs/a": false, "::not a url": false,
		}},
		{"https://lu.example/docs/index.html", knowledge.Scope{Site: "lu.example", Dir: "/docs/"}, map[string]bool{
			"https://lu.example/docs/other": true, "https://lu.example/": false,
		}},
		{"https://lu.example", knowledge.Scope{Site: "lu.example", Dir: "/"}, map[string]bool{
			"https://lu.example/": true, "https://lu.example": true, "https://lu.example/any/page": true,
		}},
		{"http://lu.example:8080/", knowledge.Scope{Site: "lu.example:8080", Dir: "/"}, map[string]bool{
			"http://lu.example:8080/a": true, "http://lu.example/a": false,
		}},
		{"https://lu.example:443/caf%C3%A9/", knowledge.Scope{Site: "lu.example", Dir: "/caf%C3%A9/"}, map[string]bool{
			"https://lu.example/caf%C3%A9/menu": true, "https://lu.example/café/menu": true, "https://lu.example/cafe/menu": false,
		}},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.start)
		if err != nil {
			t.Fatal(err)
		}
		sc := knowledge.ScopeOf(u)
		if sc != tt.want {
			t.Errorf("ScopeOf(%s) = %+v, want %+v", tt.start, sc, tt.want)
		}
		for raw, want := range tt.holds {
			if got := sc.Holds(raw); got != want {
				t.Errorf("ScopeOf(%s).Holds(%s) = %v, want %v", tt.start, raw, got, want)
			}
		}
	}
}
