package apijson

import (
	"slices"
	"strconv"
	"strings"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversion"
)

// The page of GET /v1/conversions, apart from ConversionsPeriod, which the console's period form
// shares (and translates): the console lists a period whole.

// ConversionsQuery reads the query of GET /v1/conversions from get: the period (from, to: both or
// neither, the current period), kind, and the page: limit (1 to 100, default 20) and cursor (the
// next_cursor of the page before).
func ConversionsQuery(get Params) (conversion.Query, error) {
	q := conversion.Query{Limit: conversion.DefaultLimit}
	var err error
	if q.From, q.To, err = ConversionsPeriod(get); err != nil {
		return q, err
	}
	if kind, ok := get("kind"); ok {
		if !slices.Contains(conversion.Kinds, kind) {
			return q, domain.Invalid("kind", "kind must be one of %s", strings.Join(conversion.Kinds, ", "))
		}
		q.Kind = kind
	}
	if raw, ok := get("limit"); ok {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > conversion.MaxLimit {
			return q, domain.Invalid("limit", "limit must be an integer between 1 and %d", conversion.MaxLimit)
		}
		q.Limit = n
	}
	if raw, _ := get("cursor"); raw != "" {
		cur, ok := DecodeCursor(raw)
		if !ok {
			return q, domain.Invalid("cursor", "cursor is not one this API returned")
		}
		q.After = &cur
	}
	return q, nil
}
