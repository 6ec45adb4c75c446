package httpapi

import "net/http"

// AnswerHead serves a HEAD request as h serves the GET of the same address, without its body
// (RFC 9110 9.3.2: the same header fields as a GET), so that monitors and `curl -I` see what a GET
// would get rather than 404. The request h sees is a copy whose method is GET; net/http still
// knows the request as HEAD and drops whatever body is written.
func AnswerHead(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodHead {
			h.ServeHTTP(w, r)
			return
		}
		get := r.Clone(r.Context())
		get.Method = http.MethodGet
		h.ServeHTTP(w, get)
	})
}
