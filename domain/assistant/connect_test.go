package assistant

import (
	"reflect"
	"testing"
	"time"

	"github.com/svcagent/svc/domain/conversation"
)

func TestMessages(t *testing.T) {
	at := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	turns := []Turn{
		{ConversationID: "asc_x", Seq: 1, Role: RoleAssistant, Content: "hello", CreatedAt: at}, // none asked before it
		{ConversationID: "asc_x", Seq: 2, Role: RoleOwner, Content: "add a note", CreatedAt: at},
		{ConversationID: "asc_x", Seq: 3, Role: RoleAssistant, Content: "Saved.", Status: StatusCompleted, CreatedAt: at},
		{ConversationID: "asc_x", Seq: 4, Role: RoleOwner, Content: "approve apr_1", CreatedAt: at.Add(time.Second)},
		{ConversationID: "asc_x", Seq: 5, Role: RoleAssistant, Content: "Sent.", CreatedAt: at.Add(time.Second)},
	}
	want := []conversation.Message{
		{ID: "asc_x.1", ConversationID: "asc_x", Role: "assistant", Content: "hello", CreatedAt: at},
		{ID: "asc_x.2", ConversationID: "asc_x", Role: "owner", Content: "add a note", CreatedAt: at},
		{ID: "asc_x.3", ConversationID: "asc_x", Role: "assistant", Content: "Saved.", ReplyTo: "asc_x.2", CreatedAt: at},
		{ID: "asc_x.4", ConversationID: "asc_x", Role: "owner", Content: "approve apr_1", CreatedAt: at.Add(time.Second)},
		{ID: "asc_x.5", ConversationID: "asc_x", Role: "assistant", Content: "Sent.", ReplyTo: "asc_x.4", CreatedAt: at.Add(time.Second)},
	}
	if got := Messages(turns); !reflect.DeepEqual(got, want) {
		t.Errorf("Messages:\n got  %+v\n want %+v", got, want)
	}
	if got := Messages(nil); got == nil || len(got) != 0 {
		t.Errorf("Messages(nil) = %#v, want empty", got)
	}
}
