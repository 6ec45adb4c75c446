package crawl

import (
	"net/url"
	"path"
	"strings"

	"github.com/svcagent/svc/domain/knowledge"
)

// normalize returns a copy of u fit for fetching and comparing: lower-case scheme and host, no
// default port, no fragment, no credentials, "/" for an empty path.
func normalize(u *url.URL) *url.URL {
	v := *u
	v.Scheme = strings.ToLower(v.Scheme)
	v.User = nil
	v.Fragment, v.RawFragment = "", ""
	host, port := strings.ToLower(v.Hostname()), v.Port()
	if port == knowledge.DefaultPort(v.Scheme) {
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

// key identifies a page for de-duplication: site, path and query, whatever the scheme or "www.".
func key(u *url.URL) string {
	k := knowledge.SiteHost(u) + u.EscapedPath()
	if u.RawQuery != "" {
		k += "?" + u.RawQuery
	}
	return k
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
