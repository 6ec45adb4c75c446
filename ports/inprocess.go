package ports

// InProcess is implemented by an adapter that may answer within this process rather than over a
// network (the in-memory rate limiter, the embedded SQLite store): InProcess reports whether
// this one does. A use case then makes the call inline where it would otherwise overlap it with
// other work in a goroutine, as the hand-off between goroutines (a wake-up of another thread,
// then one back) costs more than such a call.
type InProcess interface {
	InProcess() bool
}

// IsInProcess reports whether v is an adapter that answers in this process (InProcess).
func IsInProcess(v any) bool {
	p, ok := v.(InProcess)
	return ok && p.InProcess()
}
