package apijson

import (
	"errors"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/conversion"
)

// TestConversionsQuery: GET /v1/conversions pages as every list does (limit 1 to 100, default
// 20; cursor, the next_cursor of the page before) and filters by kind; a value it cannot read is
// 400 naming it, never ignored.
func TestConversionsQuery(t *testing.T) {
	cur := encodeCursor(conversation.Cursor{CreatedAt: mustTime(t, "2026-11-05T10:00:00Z"), ID: "cv_x"})
	tests := []struct {
		query     map[string]string
		wantLimit int
		wantKind  string
		wantAfter bool
		param     string // "" when accepted
	}{
		{query: map[string]string{}, wantLimit: conversion.DefaultLimit},
		{query: map[string]string{"limit": "1"}, wantLimit: 1},
		{query: map[string]string{"limit": "100"}, wantLimit: 100},
		{query: map[string]string{"limit": "101"}, param: "limit"},
		{query: map[string]string{"limit": "0"}, param: "limit"},
		{query: map[string]string{"limit": "ten"}, param: "limit"},
		{query: map[string]string{"limit": "+5"}, param: "limit"}, // written plainly, or refused
		{query: map[string]string{"limit": "05"}, param: "limit"},
		{query: map[string]string{"limit": " 5"}, param: "limit"},
		{query: map[string]string{"limit": "5 "}, param: "limit"},
		{query: map[string]string{"limit": "5.0"}, param: "limit"},
		{query: map[string]string{"limit": "-0"}, param: "limit"},
		{query: map[string]string{"limit": ""}, param: "limit"},
		{query: map[string]string{"limit": "99"}, wantLimit: 99},
		{query: map[string]string{"limit": "10"}, wantLimit: 10},
		{query: map[string]string{"kind": "sale"}, wantLimit: conversion.DefaultLimit, wantKind: "sale"},
		{query: map[string]string{"kind": "refund"}, param: "kind"},
		{query: map[string]string{"cursor": cur, "limit": "5"}, wantLimit: 5, wantAfter: true},
		{query: map[string]string{"cursor": "not-a-cursor"}, param: "cursor"},
		{query: map[string]string{"from": "2026-11-01"}, param: "from"},
	}
	for _, tc := range tests {
		get := Params(func(n string) (string, bool) { v, ok := tc.query[n]; return v, ok })
		q, err := ConversionsQuery(get)
		var de *domain.Error
		switch {
		case tc.param != "":
			if !errors.As(err, &de) || de.Field != tc.param {
				t.Errorf("%v: %v, want refused naming %s", tc.query, err, tc.param)
			}
		case err != nil:
			t.Errorf("%v: %v, want accepted", tc.query, err)
		case q.Limit != tc.wantLimit || q.Kind != tc.wantKind || (q.After != nil) != tc.wantAfter:
			t.Errorf("%v: %+v, want limit %d kind %q cursor %v", tc.query, q, tc.wantLimit, tc.wantKind, tc.wantAfter)
		}
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return at
}
