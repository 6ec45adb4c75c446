package knowledge

import (
	"net"
	"net/url"
	"strings"
)

// Scope is what one crawl reads and, once it has read it, replaces in the Brain: a site's pages
// under one directory of its paths. Crawling /docs and then /blog keeps both; crawling /docs
// again replaces /docs' pages; crawling the site's root replaces them all.
type Scope struct {
	Site string // SiteHost of the start URL
	Dir  string // the start path read as a directory, escaped: "/docs/"
}

// ScopeOf reads the start path as a directory: "/docs/" and "/docs" both scope a crawl to
// /docs/…, while a file such as "/docs/index.html" scopes it to its directory.
func ScopeOf(start *url.URL) Scope {
	p := start.EscapedPath()
	switch last := p[strings.LastIndex(p, "/")+1:]; {
	case p == "":
		p = "/"
	case strings.HasSuffix(p, "/"):
	case strings.Contains(last, "."):
		p = p[:strings.LastIndex(p, "/")+1]
	default:
		p += "/"
	}
	return Scope{Site: SiteHost(start), Dir: p}
}

// SameSite reports whether u is an http(s) URL of the scope's site.
func (s Scope) SameSite(u *url.URL) bool {
	scheme := strings.ToLower(u.Scheme)
	return (scheme == "http" || scheme == "https") && SiteHost(u) == s.Site
}

// InPath reports whether u is under the scope's directory (the directory itself included, with
// or without its trailing slash).
func (s Scope) InPath(u *url.URL) bool {
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	return strings.HasPrefix(p, s.Dir) || p == strings.TrimSuffix(s.Dir, "/")
}

// Holds reports whether the address raw is of the scope's site and under its directory.
func (s Scope) Holds(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && s.SameSite(u) && s.InPath(u)
}

// SiteHost names u's site: the host, lower case, without "www.", with the port when it is not
// the scheme's default.
func SiteHost(u *url.URL) string {
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	if port := u.Port(); port != "" && port != DefaultPort(strings.ToLower(u.Scheme)) {
		return net.JoinHostPort(host, port)
	}
	return host
}

// DefaultPort is the port a web scheme implies ("" for another scheme).
func DefaultPort(scheme string) string {
	switch scheme {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}
