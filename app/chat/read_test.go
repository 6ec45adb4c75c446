package chat_test

import (
	"errors"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/ports/mock"
)

func readAgent(t *testing.T) (*chat.Agent, *mock.MockConversations, *mock.MockAssistantHistory) {
	ctrl := gomock.NewController(t)
	convs, history := mock.NewMockConversations(ctrl), mock.NewMockAssistantHistory(ctrl)
	return chat.NewAgent(chat.Deps{Conversations: convs, Assistant: history}, chat.Options{}), convs, history
}

// TestAnyConversationOfTheAssistant: an id the account has no customer conversation for is read
// from the assistant's kept conversations: channel assistant, the owner's turns and the
// assistant's replies in order, each reply answering the owner's turn before it.
func TestAnyConversationOfTheAssistant(t *testing.T) {
	agent, convs, history := readAgent(t)
	at := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	c := conversation.Conversation{AccountID: "acct_a", ID: "asc_1", Channel: conversation.ChannelAssistant, CreatedAt: at, UpdatedAt: at.Add(time.Minute)}
	turns := []assistant.Turn{
		{ConversationID: "asc_1", Seq: 1, Role: assistant.RoleOwner, Content: "add a task", CreatedAt: at},
		{ConversationID: "asc_1", Seq: 2, Role: assistant.RoleAssistant, Content: "Which task?", Status: assistant.StatusNeedsInput, CreatedAt: at},
		{ConversationID: "asc_1", Seq: 3, Role: assistant.RoleOwner, Content: "call Ana", CreatedAt: at.Add(time.Minute)},
		{ConversationID: "asc_1", Seq: 4, Role: assistant.RoleAssistant, Content: "Done.", Status: assistant.StatusCompleted, CreatedAt: at.Add(time.Minute)},
	}
	gomock.InOrder(
		convs.EXPECT().Get(gomock.Any(), "acct_a", "asc_1").Return(conversation.Conversation{}, domain.NotFound("conversation")),
		history.EXPECT().Conversation(gomock.Any(), "acct_a", "asc_1").Return(c, nil),
		history.EXPECT().Turns(gomock.Any(), "acct_a", "asc_1", 0).Return(turns, nil),
	)
	got, err := agent.AnyConversation(t.Context(), "acct_a", "asc_1")
	if err != nil {
		t.Fatal(err)
	}
	want := chat.Thread{Conversation: c, Messages: []conversation.Message{
		{ID: "asc_1.1", ConversationID: "asc_1", Role: "owner", Content: "add a task", CreatedAt: at},
		{ID: "asc_1.2", ConversationID: "asc_1", Role: "assistant", Content: "Which task?", ReplyTo: "asc_1.1", CreatedAt: at},
		{ID: "asc_1.3", ConversationID: "asc_1", Role: "owner", Content: "call Ana", CreatedAt: at.Add(time.Minute)},
		{ID: "asc_1.4", ConversationID: "asc_1", Role: "assistant", Content: "Done.", ReplyTo: "asc_1.3", CreatedAt: at.Add(time.Minute)},
	}}
	equalThread(t, got, want)
}

// TestAnyConversationOfACustomer: a customer conversation is read as Conversation reads it; the
// assistant's are not looked at.
func TestAnyConversationOfACustomer(t *testing.T) {
	agent, convs, _ := readAgent(t)
	c := conversation.Conversation{AccountID: "acct_a", ID: "order-1", Channel: conversation.ChannelAPI}
	msgs := []conversation.Message{{ID: "msg_1", ConversationID: "order-1", Role: conversation.RoleCustomer, Content: "hi"}}
	convs.EXPECT().Get(gomock.Any(), "acct_a", "order-1").Return(c, nil)
	convs.EXPECT().Messages(gomock.Any(), "acct_a", "order-1", 0).Return(msgs, nil)
	got, err := agent.AnyConversation(t.Context(), "acct_a", "order-1")
	if err != nil {
		t.Fatal(err)
	}
	equalThread(t, got, chat.Thread{Conversation: c, Messages: msgs})
}

// TestAnyConversationNotFound: an id that is neither a customer's nor a kept assistant
// conversation of the account is not_found; a failure to read is no not_found.
func TestAnyConversationNotFound(t *testing.T) {
	agent, convs, history := readAgent(t)
	convs.EXPECT().Get(gomock.Any(), "acct_b", "asc_1").Return(conversation.Conversation{}, domain.NotFound("conversation"))
	history.EXPECT().Conversation(gomock.Any(), "acct_b", "asc_1").Return(conversation.Conversation{}, domain.NotFound("conversation"))
	if _, err := agent.AnyConversation(t.Context(), "acct_b", "asc_1"); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("another account's assistant conversation: %v, want not_found", err)
	}
	broken := errors.New("database gone")
	convs.EXPECT().Get(gomock.Any(), "acct_a", "asc_2").Return(conversation.Conversation{}, domain.NotFound("conversation"))
	history.EXPECT().Conversation(gomock.Any(), "acct_a", "asc_2").Return(conversation.Conversation{}, broken)
	if _, err := agent.AnyConversation(t.Context(), "acct_a", "asc_2"); !errors.Is(err, broken) {
		t.Errorf("a failed read: %v, want %v", err, broken)
	}
	// an id no conversation can have is not looked up at all
	if _, err := agent.AnyConversation(t.Context(), "acct_a", "no/such"); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("a malformed id: %v, want not_found", err)
	}
}

// TestConversationIsTheCustomersOnly: Conversation (the inbox, the widget, client sessions)
// never reads the assistant's conversations.
func TestConversationIsTheCustomersOnly(t *testing.T) {
	agent, convs, _ := readAgent(t) // the history mock expects no call
	convs.EXPECT().Get(gomock.Any(), "acct_a", "asc_1").Return(conversation.Conversation{}, domain.NotFound("conversation"))
	if _, err := agent.Conversation(t.Context(), "acct_a", "asc_1"); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("Conversation of an assistant conversation: %v, want not_found", err)
	}
}

// TestConversationsPassesTheAssistantOption: the list use case hands the store the query as
// asked, its Assistant option included, with the default limit filled in.
func TestConversationsPassesTheAssistantOption(t *testing.T) {
	agent, convs, _ := readAgent(t)
	page := conversation.Page{Conversations: []conversation.Conversation{{ID: "asc_1", Channel: conversation.ChannelAssistant}}}
	convs.EXPECT().List(gomock.Any(), "acct_a", conversation.ListQuery{Limit: conversation.DefaultLimit, Assistant: true}).Return(page, nil)
	got, err := agent.Conversations(t.Context(), "acct_a", conversation.ListQuery{Assistant: true})
	if err != nil || len(got.Conversations) != 1 {
		t.Fatalf("Conversations = %+v, %v", got, err)
	}
	convs.EXPECT().List(gomock.Any(), "acct_a", conversation.ListQuery{Limit: 5}).Return(conversation.Page{}, nil)
	if _, err := agent.Conversations(t.Context(), "acct_a", conversation.ListQuery{Limit: 5}); err != nil {
		t.Fatal(err)
	}
}

func equalThread(t *testing.T, got, want chat.Thread) {
	t.Helper()
	if got.Conversation.ID != want.Conversation.ID || got.Conversation.Channel != want.Conversation.Channel ||
		!got.Conversation.UpdatedAt.Equal(want.Conversation.UpdatedAt) || len(got.Messages) != len(want.Messages) {
		t.Fatalf("thread %+v, want %+v", got, want)
	}
	for i := range want.Messages {
		g, w := got.Messages[i], want.Messages[i]
		if g.ID != w.ID || g.Role != w.Role || g.Content != w.Content || g.ReplyTo != w.ReplyTo || !g.CreatedAt.Equal(w.CreatedAt) || len(g.Actions) != 0 {
			t.Errorf("message %d = %+v, want %+v", i, g, w)
		}
	}
}
