package crawl

import (
	"net"
	"net/url"
	"path"
	"strings"
)

// normalize returns a copy of u fit for fetching and comparing: lower-case scheme and host, no
// default port, no fragment, no credentials, "/" for an empty path.
func normalize(u *url.URL) *url.URL {
	v := *u
	v.Scheme = strings.ToLower(v.Scheme)
	v.User = nil
	v.Fragment, v.RawFragment = "", ""
	host, port := strings.ToLower(v.Hostname()), v.Port()
	if port == defaultPort(v.Scheme) {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	v.Host = host
	if v.Path == "" && v.RawPath == "" {
		v.Path = "/"
	}
	return &v
}

func defaultPort(scheme string) string {
	switch scheme {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

// siteHost names u's site: the host without "www.", with the port when it is not the default.
func siteHost(u *url.URL) string {
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	if port := u.Port(); port != "" && port != defaultPort(strings.ToLower(u.Scheme)) {
		return net.JoinHostPort(host, port)
	}
	return host
}

// key identifies a page for de-duplication: site, path and query, whatever the scheme or "www.".
func key(u *url.URL) string {
	k := siteHost(u) + u.EscapedPath()
	if u.RawQuery != "" {
		k += "?" + u.RawQuery
	}
	return k
}

// scope is what one crawl may read: the start URL's site, under the start path's directory.
type scope struct {
	site   string
	prefix string
}

// newScope reads the start path as a directory: "/docs/" and "/docs" both scope the crawl to
// /docs/…, while a file such as "/docs/index.html" scopes it to its directory.
func newScope(start *url.URL) scope {
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
	return scope{site: siteHost(start), prefix: p}
}

// sameSite reports whether u is an http(s) URL of the crawl's site.
func (s scope) sameSite(u *url.URL) bool {
	return (u.Scheme == "http" || u.Scheme == "https") && siteHost(u) == s.site
}

// inPath reports whether u is under the start directory (the directory itself included, with
// or without its trailing slash).
func (s scope) inPath(u *url.URL) bool {
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	return strings.HasPrefix(p, s.prefix) || p == strings.TrimSuffix(s.prefix, "/")
}

// binaryExts are file types that are never HTML pages.
var binaryExts = map[string]bool{
	".7z": true, ".avi": true, ".bin": true, ".bmp": true, ".bz2": true, ".css": true,
	".csv": true, ".dmg": true, ".doc": true, ".docx": true, ".eot": true, ".epub": true,
	".exe": true, ".flac": true, ".gif": true, ".gz": true, ".ico": true, ".iso": true,
	".jpeg": true, ".jpg": true, ".js": true, ".json": true, ".m4a": true, ".mjs": true,
	".mkv": true, ".mov": true, ".mp3": true, ".mp4": true, ".mpeg": true, ".odp": true,
	".ods": true, ".odt": true, ".ogg": true, ".otf": true, ".pdf": true, ".png": true,
	".ppt": true, ".pptx": true, ".rar": true, ".rss": true, ".svg": true, ".tar": true,
	".tgz": true, ".tif": true, ".tiff": true, ".ttf": true, ".txt": true, ".wasm": true,
	".wav": true, ".webm": true, ".webp": true, ".woff": true, ".woff2": true, ".xls": true,
	".xlsx": true, ".xml": true, ".xz": true, ".zip": true,
}

// binaryExt returns the extension of u's path when it names a file type that is not HTML.
func binaryExt(u *url.URL) string {
	ext := strings.ToLower(path.Ext(u.Path))
	if binaryExts[ext] {
		return ext
	}
	return ""
}
