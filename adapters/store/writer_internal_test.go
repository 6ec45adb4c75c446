package store

import "testing"

func TestWrites(t *testing.T) {
	for _, tt := range []struct {
		query string
		want  bool
	}{
		{"SELECT 1", false},
		{"  select * from keys", false},
		{"(SELECT 1) UNION (SELECT 2)", false},
		{"PRAGMA journal_mode", false},
		{"EXPLAIN QUERY PLAN SELECT 1", false},
		{"INSERT INTO t VALUES (1)", true},
		{"update t set a = 1", true},
		{"DELETE FROM t", true},
		{"WITH c AS (UPDATE t SET n = n + 1 RETURNING n) SELECT n FROM c", true},
		{"CREATE TABLE t (a)", true},
		{"", true},
		{"BEGIN", true},
	} {
		if got := writes(tt.query); got != tt.want {
			t.Errorf("writes(%q) = %t, want %t", tt.query, got, tt.want)
		}
	}
}
