package events

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/event"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports/mock"
)

var now = time.Date(2026, 11, 21, 12, 0, 0, 123456789, time.UTC)

func clockAt(ctrl *gomock.Controller, t time.Time) *mock.MockClock {
	c := mock.NewMockClock(ctrl)
	c.EXPECT().Now().Return(t).AnyTimes()
	return c
}

func TestPublish(t *testing.T) {
	ctrl := gomock.NewController(t)
	ob := mock.NewMockOutbox(ctrl)
	var written outbox.Message
	ob.EXPECT().Add(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, m outbox.Message) error {
		written = m
		return nil
	})
	p := NewPublisher(ob, clockAt(ctrl, now))
	e, err := p.Publish(context.Background(), "acct_1", event.LimitReached, map[string]any{"plan": "starter"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(e.ID, "evt_") || written.ID != e.ID || written.Topic != outbox.TopicEvent || written.AccountID != "acct_1" {
		t.Fatalf("event %+v message %+v", e, written)
	}
	var env map[string]any
	if err := json.Unmarshal(written.Payload, &env); err != nil {
		t.Fatal(err)
	}
	if env["id"] != e.ID || env["type"] != "limit.reached" || env["created_at"] != "2026-11-21T12:00:00.123Z" ||
		env["data"].(map[string]any)["plan"] != "starter" {
		t.Fatalf("envelope %v", env)
	}
}

func TestPublishRejectsUnknownType(t *testing.T) {
	ctrl := gomock.NewController(t)
	p := NewPublisher(mock.NewMockOutbox(ctrl), clockAt(ctrl, now))
	if _, err := p.Publish(context.Background(), "acct_1", "order.shipped", nil); err == nil {
		t.Fatal("unknown type published")
	}
}

func TestEncodeEmptyData(t *testing.T) {
	b, err := Encode(event.Event{ID: "evt_1", Type: event.WebhookTest, CreatedAt: now})
	if err != nil || !strings.Contains(string(b), `"data":{}`) {
		t.Fatalf("%s %v", b, err)
	}
}

func TestProcessor(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name     string
		topic    string
		handler  error
		done     error
		wantDone bool
		wantErr  bool
	}{
		{name: "ping is built in", topic: outbox.TopicPing, wantDone: true},
		{name: "handled topic", topic: "work", wantDone: true},
		{name: "handler fails: not confirmed", topic: "work", handler: boom, wantErr: true},
		{name: "unknown topic", topic: "nobody", wantErr: true},
		{name: "confirm fails", topic: "work", done: boom, wantDone: true, wantErr: true},
		{name: "already gone from the outbox", topic: "work", done: domain.NotFound("message"), wantDone: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctrl := gomock.NewController(t)
			ob := mock.NewMockOutbox(ctrl)
			if tt.wantDone {
				ob.EXPECT().Done(gomock.Any(), "m1", now).Return(tt.done)
			}
			calls := 0
			p := NewProcessor(Handlers{"work": func(context.Context, outbox.Message) error { calls++; return tt.handler }}, ob, clockAt(ctrl, now), NewNudges())
			err := p.Handle(context.Background(), outbox.Message{ID: "m1", Topic: tt.topic})
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v, want error %v", err, tt.wantErr)
			}
			if tt.topic == "work" && calls != 1 {
				t.Fatalf("handler ran %d times", calls)
			}
		})
	}
}

func TestRelayPass(t *testing.T) {
	ctrl := gomock.NewController(t)
	ob := mock.NewMockOutbox(ctrl)
	q := mock.NewMockQueue(ctrl)
	msgs := []outbox.Message{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	q.EXPECT().Room(gomock.Any()).Return(math.MaxInt, nil)
	ob.EXPECT().Claim(gomock.Any(), now, outbox.Lease, 100).Return(msgs, nil)
	q.EXPECT().Enqueue(gomock.Any(), msgs[0]).Return(nil)
	q.EXPECT().Enqueue(gomock.Any(), msgs[1]).Return(errors.New("redis down"))
	q.EXPECT().Enqueue(gomock.Any(), msgs[2]).Return(nil)
	n, err := NewRelay(ob, q, clockAt(ctrl, now), NewNudges()).Pass(context.Background())
	if n != 2 || err == nil || !strings.Contains(err.Error(), "enqueue b") {
		t.Fatalf("n %d err %v", n, err)
	}
}

// TestRelayPassQueueRoom checks that a pass claims no more than the queue has room for, and
// nothing when it is full: a claimed message the queue refused would wait for the lease.
func TestRelayPassQueueRoom(t *testing.T) {
	for _, tt := range []struct {
		name  string
		room  int
		claim int // 0: no claim
	}{
		{"room for a few", 3, 3},
		{"room for more than a batch", 1000, 100},
		{"full", 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctrl := gomock.NewController(t)
			ob := mock.NewMockOutbox(ctrl)
			q := mock.NewMockQueue(ctrl)
			q.EXPECT().Room(gomock.Any()).Return(tt.room, nil)
			if tt.claim > 0 {
				ob.EXPECT().Claim(gomock.Any(), now, outbox.Lease, tt.claim).Return(nil, nil)
			}
			if n, err := NewRelay(ob, q, clockAt(ctrl, now), NewNudges()).Pass(context.Background()); n != 0 || err != nil {
				t.Fatalf("n %d err %v", n, err)
			}
		})
	}
}

func TestRelayRunNudge(t *testing.T) {
	ctrl := gomock.NewController(t)
	ob := mock.NewMockOutbox(ctrl)
	q := mock.NewMockQueue(ctrl)
	q.EXPECT().Room(gomock.Any()).Return(math.MaxInt, nil).AnyTimes()
	passes := make(chan struct{}, 10)
	ob.EXPECT().Claim(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(context.Context, time.Time, time.Duration, int) ([]outbox.Message, error) {
			passes <- struct{}{}
			return nil, nil
		}).MinTimes(2)
	r := NewRelay(ob, q, clockAt(ctrl, now), NewNudges())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(ctx, time.Hour, func(err error) {
			if err != nil {
				t.Error(err)
			}
		})
	}()
	<-passes // the first pass runs at once
	r.Nudge()
	select {
	case <-passes: // the nudge made a second pass long before the hour-long tick
	case <-time.After(5 * time.Second):
		t.Fatal("nudge did not trigger a pass")
	}
	cancel()
	<-done
}

// TestProcessorNudgesAfterWrites checks that work which wrote to a watched outbox nudges the
// relay once it is done, even when it failed after writing, and that other work does not.
func TestProcessorNudgesAfterWrites(t *testing.T) {
	msg := outbox.Message{ID: "msg_1", Topic: "work"}
	tests := []struct {
		name      string
		writes    bool
		fails     bool
		wantNudge bool
	}{
		{"writes", true, false, true},
		{"writes, then fails", true, true, true},
		{"writes nothing", false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctrl := gomock.NewController(t)
			ob := mock.NewMockOutbox(ctrl)
			ob.EXPECT().Ensure(gomock.Any(), gomock.Any()).Return(nil).AnyTimes()
			ob.EXPECT().Done(gomock.Any(), "msg_1", gomock.Any()).Return(nil).AnyTimes()
			watched := NewWatched(ob)
			nudges := NewNudges()
			p := NewProcessor(Handlers{"work": func(ctx context.Context, _ outbox.Message) error {
				if tt.writes {
					if err := watched.Ensure(ctx, outbox.Message{ID: "dlv_1"}); err != nil {
						return err
					}
				}
				if tt.fails {
					return errors.New("receiver down")
				}
				return nil
			}}, watched, clockAt(ctrl, now), nudges)
			_ = p.Handle(context.Background(), msg)
			select {
			case <-nudges:
				if !tt.wantNudge {
					t.Fatal("nudged after work that wrote nothing")
				}
			default:
				if tt.wantNudge {
					t.Fatal("no nudge after work that wrote to the outbox")
				}
			}
		})
	}
}

// TestWatch checks that a watch sees the writes made under its context, and only those.
func TestWatch(t *testing.T) {
	ctrl := gomock.NewController(t)
	ob := mock.NewMockOutbox(ctrl)
	ob.EXPECT().Add(gomock.Any(), gomock.Any()).Return(nil).Times(2)
	ob.EXPECT().Add(gomock.Any(), gomock.Any()).Return(errors.New("disk full"))
	watched := NewWatched(ob)
	ctx, wrote := Watch(context.Background())
	other, otherWrote := Watch(context.Background())
	if wrote() || otherWrote() {
		t.Fatal("wrote before any write")
	}
	if err := watched.Add(context.Background(), outbox.Message{ID: "unwatched"}); err != nil {
		t.Fatal(err)
	}
	if err := watched.Add(ctx, outbox.Message{ID: "m1"}); err != nil || !wrote() || otherWrote() {
		t.Fatalf("after a write: %v, wrote %t, the other %t", err, wrote(), otherWrote())
	}
	if err := watched.Add(other, outbox.Message{ID: "m2"}); err == nil || otherWrote() {
		t.Fatalf("a failed write: %v, noticed %t", err, otherWrote())
	}
}
