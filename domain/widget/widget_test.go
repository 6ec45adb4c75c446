package widget

import (
	"reflect"
	"strings"
	"testing"

	"github.com/svcagent/svc/domain"
)

func TestAllowed(t *testing.T) {
	tests := []struct {
		name    string
		domains []string
		origin  string
		want    bool
	}{
		{"empty list: any origin", nil, "https://anything.test", true},
		{"empty list: even no origin", []string{}, "", true},
		{"exact host", []string{"shop.test"}, "https://shop.test", true},
		{"exact host, port and http ignored", []string{"shop.test"}, "http://shop.test:8080", true},
		{"exact host in another case", []string{"shop.test"}, "https://SHOP.test", true},
		{"exact host with a trailing dot", []string{"shop.test"}, "https://shop.test.", true},
		{"a subdomain of an exact entry", []string{"shop.test"}, "https://www.shop.test", false},
		{"another host", []string{"shop.test"}, "https://evil.test", false},
		{"a host that ends like the entry", []string{"shop.test"}, "https://evilshop.test", false},
		{"the entry as a subdomain of another", []string{"shop.test"}, "https://shop.test.evil.test", false},
		{"wildcard: a subdomain", []string{"*.shop.test"}, "https://www.shop.test", true},
		{"wildcard: a deeper subdomain", []string{"*.shop.test"}, "https://a.b.shop.test", true},
		{"wildcard: not the apex", []string{"*.shop.test"}, "https://shop.test", false},
		{"wildcard: a look-alike", []string{"*.shop.test"}, "https://evilshop.test", false},
		{"wildcard and apex", []string{"*.shop.test", "shop.test"}, "https://shop.test", true},
		{"loopback with a port", []string{"127.0.0.1"}, "http://127.0.0.1:41234", true},
		{"no origin", []string{"shop.test"}, "", false},
		{"opaque origin", []string{"shop.test"}, "null", false},
		{"another scheme", []string{"shop.test"}, "file://shop.test", false},
		{"not a URL", []string{"shop.test"}, "shop.test", false},
		{"userinfo trick", []string{"shop.test"}, "https://shop.test@evil.test", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Allowed(tt.domains, tt.origin); got != tt.want {
				t.Errorf("Allowed(%q, %q) = %v, want %v", tt.domains, tt.origin, got, tt.want)
			}
		})
	}
}

func TestNormalizeDomains(t *testing.T) {
	tests := []struct {
		name  string
		in    []string
		want  []string
		field string // the field of the 400; "" when accepted
	}{
		{"empty", []string{}, []string{}, ""},
		{"plain", []string{"shop.test"}, []string{"shop.test"}, ""},
		{"upper case, scheme, path, port, trailing dot", []string{" HTTPS://Shop.Test.:8443/path?q#f "}, []string{"shop.test"}, ""},
		{"wildcard", []string{"*.Shop.test"}, []string{"*.shop.test"}, ""},
		{"wildcard with a scheme", []string{"https://*.shop.test/"}, []string{"*.shop.test"}, ""},
		{"duplicates dropped, order kept", []string{"b.test", "a.test", "B.test"}, []string{"b.test", "a.test"}, ""},
		{"localhost", []string{"localhost:3000"}, []string{"localhost"}, ""},
		{"punycode", []string{"xn--bcher-kva.test"}, []string{"xn--bcher-kva.test"}, ""},
		{"blank", []string{"shop.test", " "}, nil, "domains[1]"},
		{"a space inside", []string{"shop .test"}, nil, "domains[0]"},
		{"unicode", []string{"bücher.test"}, nil, "domains[0]"},
		{"wildcard in the middle", []string{"a.*.test"}, nil, "domains[0]"},
		{"bare wildcard", []string{"*"}, nil, "domains[0]"},
		{"wildcard of a single label", []string{"*.test"}, nil, "domains[0]"},
		{"empty label", []string{"shop..test"}, nil, "domains[0]"},
		{"hyphen at the edge", []string{"-shop.test"}, nil, "domains[0]"},
		{"label too long", []string{strings.Repeat("a", 64) + ".test"}, nil, "domains[0]"},
		{"too many", make([]string, MaxDomains+1), nil, "domains"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NormalizeDomains(tt.in)
			if tt.field != "" {
				if e, ok := domain.AsError(err); !ok || e.Code != domain.CodeInvalidRequest || e.Field != tt.field {
					t.Fatalf("error %v, want invalid_request naming %s", err, tt.field)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("NormalizeDomains(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestStyleApply(t *testing.T) {
	str := func(s string) *string { return &s }
	no := false
	tests := []struct {
		name  string
		patch StylePatch
		want  Style
		field string
	}{
		{"nothing", StylePatch{}, DefaultStyle, ""},
		{"everything", StylePatch{Position: str("left"), Theme: str("dark"), Accent: str("#FA0"), Drag: &no},
			Style{Position: Left, Theme: Dark, Accent: "#ffaa00", Drag: false}, ""},
		{"long accent", StylePatch{Accent: str("#12AbEf")}, Style{Position: Right, Theme: Light, Accent: "#12abef", Drag: true}, ""},
		{"empty position", StylePatch{Position: str("")}, Style{}, "position"},
		{"bad position", StylePatch{Position: str("top")}, Style{}, "position"},
		{"bad theme", StylePatch{Theme: str("blue")}, Style{}, "theme"},
		{"accent without #", StylePatch{Accent: str("ffaa00")}, Style{}, "accent"},
		{"accent not hex", StylePatch{Accent: str("#ggg")}, Style{}, "accent"},
		{"accent as CSS", StylePatch{Accent: str("red;x")}, Style{}, "accent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DefaultStyle.Apply(tt.patch)
			if tt.field != "" {
				if e, ok := domain.AsError(err); !ok || e.Field != tt.field {
					t.Fatalf("error %v, want invalid_request naming %s", err, tt.field)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Apply = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestParseLang(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""}, {"en", "en"}, {"PT", "pt"}, {"pt-br", "pt-BR"}, {"pt_BR", "pt-BR"}, {"es", "es"}, {"fr", "!"}, {"en-US", "!"},
	}
	for _, tt := range tests {
		got, err := ParseLang(tt.in)
		if tt.want == "!" {
			if domain.ErrorCode(err) != domain.CodeInvalidRequest {
				t.Errorf("ParseLang(%q) = %q, %v; want invalid_request", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseLang(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestValidateVisitor(t *testing.T) {
	tests := []struct {
		id string
		ok bool
	}{
		{"0b7c6a3e-2f4d-4c1a-9e8b-7d6c5b4a3f21", true},
		{"0B7C6A3E-2F4D-4C1A-9E8B-7D6C5B4A3F21", false},
		{"0b7c6a3e2f4d4c1a9e8b7d6c5b4a3f21", false},
		{"0b7c6a3e-2f4d-4c1a-9e8b-7d6c5b4a3f2", false},
		{"0b7c6a3e-2f4d-4c1a-9e8b-7d6c5b4a3f2g", false},
		{"", false},
		{"../../../etc/passwd-xxxxxxxxxxxxxxxxx", false},
	}
	for _, tt := range tests {
		err := ValidateVisitor("visitor_id", tt.id)
		if (err == nil) != tt.ok {
			t.Errorf("ValidateVisitor(%q) = %v, want ok %v", tt.id, err, tt.ok)
		}
		if err != nil {
			if e, _ := domain.AsError(err); e == nil || e.Field != "visitor_id" {
				t.Errorf("ValidateVisitor(%q) = %v, want invalid_request naming visitor_id", tt.id, err)
			}
		}
	}
	if got := ContactID("0b7c6a3e-2f4d-4c1a-9e8b-7d6c5b4a3f21"); got != "web:0b7c6a3e-2f4d-4c1a-9e8b-7d6c5b4a3f21" {
		t.Errorf("ContactID = %q", got)
	}
}

func TestParseFramework(t *testing.T) {
	if f, err := ParseFramework(""); err != nil || f != HTML {
		t.Errorf("ParseFramework(\"\") = %q, %v; want html", f, err)
	}
	for _, f := range Frameworks {
		if got, err := ParseFramework(string(f)); err != nil || got != f {
			t.Errorf("ParseFramework(%q) = %q, %v", f, got, err)
		}
	}
	for _, bad := range []string{"HTML", "next", "jquery"} {
		if _, err := ParseFramework(bad); domain.ErrorCode(err) != domain.CodeInvalidRequest {
			t.Errorf("ParseFramework(%q) = %v, want invalid_request", bad, err)
		}
	}
}
