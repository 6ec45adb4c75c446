package store

// SetPGWriters sets pgWriters (the exchanges written at once on Postgres) until the returned
// function restores it: a bound above the callers turns the grouping off.
func SetPGWriters(n int) (restore func()) {
	old := pgWriters
	pgWriters = n
	return func() { pgWriters = old }
}
