package conversation

import (
	"errors"
	"time"
)

// JobStatus is the stored state of a reply job.
type JobStatus string

// The statuses of a reply job. A pending job is leased while its LeaseUntil has not passed.
const (
	JobPending JobStatus = "pending"
	JobDone    JobStatus = "done"
	JobFailed  JobStatus = "failed"
)

// Job is the pending reply to one customer message. Its life:
//
//	NewJob ──▶ pending, leased by the process that accepted the message
//	             │ the lease runs out (LeaseUntil < now)
//	             ▼
//	           pending, unleased ──TakeOver──▶ pending, leased by the taker (Attempts + 1)
//	pending (leased or not) ──Complete──▶ done    (the reply is stored as ReplyID)
//	pending (leased or not) ──Fail──────▶ failed  (Error says why; no reply)
//
// Done and failed are final. Finishing does not need the lease: the first of the processes
// working on a job to finish it wins, so a reply is stored once. The store applies each
// transition as a conditional change of the stored job (ports.ReplyJobs), under the same
// conditions as the methods here.
type Job struct {
	ID             string
	AccountID      string
	ConversationID string
	MessageID      string // the customer message
	Channel        Channel
	Status         JobStatus
	LeaseUntil     time.Time
	Attempts       int    // how many times the job was taken over
	ReplyID        string // the agent message's id, reserved when the job is made
	Error          string // why it failed
	// RequestKey names the request that sent the customer message when it came with an
	// Idempotency-Key (idempotency.Record.Ref), "" otherwise: a retry of that request after its
	// reply failed finds the message by it rather than store it again.
	RequestKey string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Errors of the transitions a job refuses.
var (
	// ErrJobFinished: the job is done or failed already (another process finished it).
	ErrJobFinished = errors.New("the reply job is finished already")
	// ErrJobLeased: a process holds the job's lease; it cannot be taken over yet.
	ErrJobLeased = errors.New("the reply job's lease has not run out")
	// ErrNoReply: a job completes with the id of the reply stored for it.
	ErrNoReply = errors.New("a reply job completes with its reply's id")
)

// NewJob returns the pending job of the reply to a customer message, leased until now+lease by
// the process that accepted the message.
func NewJob(id, accountID, conversationID, messageID, replyID string, ch Channel, now time.Time, lease time.Duration) Job {
	return Job{ID: id, AccountID: accountID, ConversationID: conversationID, MessageID: messageID, ReplyID: replyID,
		Channel: ch, Status: JobPending, LeaseUntil: now.Add(lease), CreatedAt: now, UpdatedAt: now}
}

// Finished reports whether the job is done or failed.
func (j Job) Finished() bool { return j.Status == JobDone || j.Status == JobFailed }

// Leased reports whether a process holds the job's lease at now: it is pending and its lease has
// not run out (LeaseUntil is not before now).
func (j Job) Leased(now time.Time) bool { return j.Status == JobPending && !j.LeaseUntil.Before(now) }

// TakeOver returns the job leased by another process from now to now+lease, one attempt more:
// ErrJobFinished when it is finished, ErrJobLeased while its lease runs.
func (j Job) TakeOver(now time.Time, lease time.Duration) (Job, error) {
	if j.Finished() {
		return j, ErrJobFinished
	}
	if j.Leased(now) {
		return j, ErrJobLeased
	}
	j.LeaseUntil, j.Attempts, j.UpdatedAt = now.Add(lease), j.Attempts+1, now
	return j, nil
}

// Complete returns the job done, its reply stored as replyID: ErrJobFinished when it is finished
// already, ErrNoReply without a reply id.
func (j Job) Complete(replyID string, now time.Time) (Job, error) {
	if j.Finished() {
		return j, ErrJobFinished
	}
	if replyID == "" {
		return j, ErrNoReply
	}
	j.Status, j.ReplyID, j.Error, j.UpdatedAt = JobDone, replyID, "", now
	return j, nil
}

// Fail returns the job failed for reason (an error code): ErrJobFinished when it is finished
// already. A failed job has no reply, so its reserved reply id is dropped.
func (j Job) Fail(reason string, now time.Time) (Job, error) {
	if j.Finished() {
		return j, ErrJobFinished
	}
	j.Status, j.ReplyID, j.Error, j.UpdatedAt = JobFailed, "", reason, now
	return j, nil
}

// Retries reports whether a failure of the job may be left for a later take-over rather than
// fail it: it has been taken over fewer than maxAttempts times.
func (j Job) Retries(maxAttempts int) bool { return !j.Finished() && j.Attempts < maxAttempts }
