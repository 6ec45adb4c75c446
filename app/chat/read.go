package chat

import (
	"context"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/conversation"
)

// Thread is a conversation with its messages.
type Thread struct {
	Conversation conversation.Conversation
	Messages     []conversation.Message
}

// Conversation returns one of the account's conversations with all its messages.
func (a *Agent) Conversation(ctx context.Context, accountID, conversationID string) (Thread, error) {
	if err := conversation.ValidateID("conversation_id", conversationID); err != nil {
		return Thread{}, domain.NotFound("conversation")
	}
	c, err := a.conversations.Get(ctx, accountID, conversationID)
	if err != nil {
		return Thread{}, err
	}
	msgs, err := a.conversations.Messages(ctx, accountID, conversationID, 0)
	if err != nil {
		return Thread{}, err
	}
	return Thread{Conversation: c, Messages: msgs}, nil
}

// AnyConversation returns one of the account's conversations with all its messages, as
// Conversation does, or, when the account has no customer conversation with that id, its kept
// assistant conversation (spec 4.7 rule 8): channel assistant, the owner's turns and the
// assistant's replies as its messages. Only the account's own readers use it (the API and its
// MCP tools); a customer's (the widget, a client session) and the inbox read Conversation.
func (a *Agent) AnyConversation(ctx context.Context, accountID, conversationID string) (Thread, error) {
	t, err := a.Conversation(ctx, accountID, conversationID)
	if domain.ErrorCode(err) != domain.CodeNotFound || conversation.ValidateID("conversation_id", conversationID) != nil {
		return t, err
	}
	c, cerr := a.assistant.Conversation(ctx, accountID, conversationID)
	if domain.ErrorCode(cerr) == domain.CodeNotFound {
		return Thread{}, err
	}
	if cerr != nil {
		return Thread{}, cerr
	}
	turns, err := a.assistant.Turns(ctx, accountID, conversationID, 0)
	if err != nil {
		return Thread{}, err
	}
	return Thread{Conversation: c, Messages: assistant.Messages(turns)}, nil
}

// Conversations pages through the account's conversations on a channel, newest first; with
// q.Assistant the owner's kept assistant conversations among them.
func (a *Agent) Conversations(ctx context.Context, accountID string, q conversation.ListQuery) (conversation.Page, error) {
	switch {
	case q.Limit == 0:
		q.Limit = conversation.DefaultLimit
	case q.Limit < 1 || q.Limit > conversation.MaxListLimit:
		return conversation.Page{}, domain.Invalid("limit", "limit must be between 1 and %d", conversation.MaxListLimit)
	}
	return a.conversations.List(ctx, accountID, q)
}
