package chat_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/model"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/ports/mock"
)

// TestModelBookingDuration: the booking the model makes with create_booking carries its duration
// as booking.created shows it, "<n> min" (spec part 6), whether the model wrote "1 hour", "45
// minutes" or the number 30; a text that is no duration is kept.
func TestModelBookingDuration(t *testing.T) {
	for _, tt := range []struct{ args, want string }{
		{`{"date":"2027-01-15","time":"10:30","duration":"1 hour","type":"haircut"}`, "60 min"},
		{`{"date":"2027-01-15","time":"10:30","duration":"45 minutes"}`, "45 min"},
		{`{"date":"2027-01-15","time":"10:30","duration":30}`, "30 min"},
		{`{"date":"2027-01-15","time":"10:30","duration":"30 min"}`, "30 min"},
		{`{"date":"2027-01-15","time":"10:30"}`, ""},
		{`{"date":"2027-01-15","time":"10:30","duration":"all afternoon"}`, "all afternoon"},
	} {
		ctrl := gomock.NewController(t)
		m := mock.NewMockChatModel(ctrl)
		gomock.InOrder(
			m.EXPECT().Complete(gomock.Any(), gomock.Any()).Return(model.Response{Message: model.Message{Role: model.RoleAssistant,
				ToolCalls: []model.ToolCall{{ID: "call_1", Name: "create_booking", Arguments: tt.args}}}}, nil),
			m.EXPECT().Complete(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, req model.Request) (model.Response, error) {
				return model.Response{Message: model.Message{Role: model.RoleAssistant, Content: "Booked."}}, nil
			}),
		)
		d, err := chat.NewModelReplier(m, "").Reply(t.Context(), conversation.Turn{Profile: profile.Profile{BusinessName: "Salon"},
			Message: "book me", Channel: conversation.ChannelAPI, Now: time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)})
		if err != nil || d.Booking == nil {
			t.Fatalf("%s: booking %+v, %v", tt.args, d.Booking, err)
		}
		if d.Booking.Duration != tt.want {
			t.Errorf("%s: duration %q, want %q", tt.args, d.Booking.Duration, tt.want)
		}
	}
}

// TestModelGivenTheContext: a model upstream is given the Brain's passages of Turn.Context (the
// hits, then more of the Brain up to a budget), or the hits when there is no context.
func TestModelGivenTheContext(t *testing.T) {
	hours := knowledge.Hit{Kind: knowledge.KindFAQ, FAQ: knowledge.FAQ{ID: "hours", Question: "When are you open?", Answer: "9 to 5, Monday to Friday."}}
	parking := knowledge.Hit{Kind: knowledge.KindFAQ, FAQ: knowledge.FAQ{ID: "parking", Question: "Is there parking?", Answer: "Yes, behind the shop."}}
	if !chat.NewModelReplier(nil, "").ReadsContext() {
		t.Error("the model replier is not given the context")
	}
	turn := conversation.Turn{Profile: profile.Profile{BusinessName: "Salon"}, Message: "open saturday?", Hits: []knowledge.Hit{hours}}
	if p := chat.SystemPrompt(turn); !strings.Contains(p, "9 to 5") || strings.Contains(p, "behind the shop") {
		t.Errorf("without a context, the prompt holds other than the hits:\n%s", p)
	}
	turn.Context = []knowledge.Hit{hours, parking}
	if p := chat.SystemPrompt(turn); !strings.Contains(p, "9 to 5") || !strings.Contains(p, "[2] FAQ. Q: Is there parking?\nA: Yes, behind the shop.") {
		t.Errorf("the prompt does not hold the context:\n%s", p)
	}
}
