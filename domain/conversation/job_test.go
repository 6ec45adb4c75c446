package conversation

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

// TestJobTransitions applies every event to a job in every state: the job it leads to, or the
// error that refuses it (the job then unchanged).
func TestJobTransitions(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	now := t0.Add(time.Minute)
	const lease = 90 * time.Second
	base := NewJob("job_1", "acct_a", "conv_1", "msg_1", "msg_2", ChannelAPI, t0, time.Minute)
	with := func(f func(j *Job)) Job { j := base; f(&j); return j }
	states := map[string]Job{
		"leased":             with(func(j *Job) { j.LeaseUntil = now.Add(time.Second) }),
		"leased to the edge": with(func(j *Job) { j.LeaseUntil = now }), // a lease runs out once now is past it
		"unleased":           with(func(j *Job) { j.LeaseUntil = now.Add(-time.Nanosecond) }),
		"done":               with(func(j *Job) { j.Status, j.LeaseUntil = JobDone, t0 }),
		"failed":             with(func(j *Job) { j.Status, j.ReplyID, j.Error, j.LeaseUntil = JobFailed, "", "model_unavailable", t0 }),
	}
	events := map[string]func(Job) (Job, error){
		"take over":           func(j Job) (Job, error) { return j.TakeOver(now, lease) },
		"complete":            func(j Job) (Job, error) { return j.Complete("msg_2", now) },
		"complete with no id": func(j Job) (Job, error) { return j.Complete("", now) },
		"fail":                func(j Job) (Job, error) { return j.Fail("model_unavailable", now) },
	}
	takenOver := func(state string) Job {
		j := states[state]
		j.LeaseUntil, j.Attempts, j.UpdatedAt = now.Add(lease), 1, now
		return j
	}
	done := func(state string) Job {
		j := states[state]
		j.Status, j.ReplyID, j.UpdatedAt = JobDone, "msg_2", now
		return j
	}
	failed := func(state string) Job {
		j := states[state]
		j.Status, j.ReplyID, j.Error, j.UpdatedAt = JobFailed, "", "model_unavailable", now
		return j
	}
	type want struct {
		job Job   // when allowed
		err error // when refused
	}
	tests := map[[2]string]want{
		{"leased", "take over"}:                       {err: ErrJobLeased},
		{"leased", "complete"}:                        {job: done("leased")},
		{"leased", "complete with no id"}:             {err: ErrNoReply},
		{"leased", "fail"}:                            {job: failed("leased")},
		{"leased to the edge", "take over"}:           {err: ErrJobLeased},
		{"leased to the edge", "complete"}:            {job: done("leased to the edge")},
		{"leased to the edge", "complete with no id"}: {err: ErrNoReply},
		{"leased to the edge", "fail"}:                {job: failed("leased to the edge")},
		{"unleased", "take over"}:                     {job: takenOver("unleased")},
		{"unleased", "complete"}:                      {job: done("unleased")},
		{"unleased", "complete with no id"}:           {err: ErrNoReply},
		{"unleased", "fail"}:                          {job: failed("unleased")},
		{"done", "take over"}:                         {err: ErrJobFinished},
		{"done", "complete"}:                          {err: ErrJobFinished},
		{"done", "complete with no id"}:               {err: ErrJobFinished},
		{"done", "fail"}:                              {err: ErrJobFinished},
		{"failed", "take over"}:                       {err: ErrJobFinished},
		{"failed", "complete"}:                        {err: ErrJobFinished},
		{"failed", "complete with no id"}:             {err: ErrJobFinished},
		{"failed", "fail"}:                            {err: ErrJobFinished},
	}
	if len(tests) != len(states)*len(events) {
		t.Fatalf("%d cases for %d states and %d events: every pair needs one", len(tests), len(states), len(events))
	}
	for state, j := range states {
		for event, apply := range events {
			w, ok := tests[[2]string{state, event}]
			if !ok {
				t.Errorf("%s, %s: no case", state, event)
				continue
			}
			got, err := apply(j)
			if w.err != nil {
				if !errors.Is(err, w.err) || !reflect.DeepEqual(got, j) {
					t.Errorf("%s, %s: %+v, %v; want refused with %v and the job unchanged", state, event, got, err, w.err)
				}
				continue
			}
			if err != nil || !reflect.DeepEqual(got, w.job) {
				t.Errorf("%s, %s:\n got %+v, %v\nwant %+v", state, event, got, err, w.job)
			}
		}
	}
}

func TestNewJobAndRetries(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	j := NewJob("job_1", "acct_a", "conv_1", "msg_1", "msg_2", ChannelWeb, t0, time.Minute)
	want := Job{ID: "job_1", AccountID: "acct_a", ConversationID: "conv_1", MessageID: "msg_1", ReplyID: "msg_2", Channel: ChannelWeb,
		Status: JobPending, LeaseUntil: t0.Add(time.Minute), CreatedAt: t0, UpdatedAt: t0}
	if !reflect.DeepEqual(j, want) || !j.Leased(t0) || j.Leased(t0.Add(time.Minute+1)) {
		t.Fatalf("NewJob = %+v, want %+v leased for a minute", j, want)
	}
	tests := []struct {
		status   JobStatus
		attempts int
		want     bool
	}{
		{JobPending, 0, true},
		{JobPending, 2, true},
		{JobPending, 3, false},
		{JobPending, 4, false},
		{JobDone, 0, false},
		{JobFailed, 0, false},
	}
	for _, tt := range tests {
		j.Status, j.Attempts = tt.status, tt.attempts
		if got := j.Retries(3); got != tt.want {
			t.Errorf("%s job taken over %d times: Retries(3) = %v, want %v", tt.status, tt.attempts, got, tt.want)
		}
	}
}
