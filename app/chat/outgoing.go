package chat

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/svcagent/svc/domain/outbox"
)

// Outgoing is the payload of an outbox.TopicMessagingReply message: the reply (an agent message)
// of a messaging contact's conversation, for the worker to send to the contact.
type Outgoing struct {
	ConversationID string `json:"conversation_id"`
	ReplyID        string `json:"reply_id"`
}

// outgoingMessage returns the outbox message that sends reply replyID of a messaging
// conversation. Its id is the reply's, so one reply is one message however often it is written.
func outgoingMessage(accountID, conversationID, replyID string, at time.Time) outbox.Message {
	payload, _ := json.Marshal(Outgoing{ConversationID: conversationID, ReplyID: replyID}) // two strings: cannot fail
	return outbox.Message{ID: "send_" + replyID, AccountID: accountID, Topic: outbox.TopicMessagingReply, Payload: payload, CreatedAt: at}
}

// ParseOutgoing reads the payload of an outbox.TopicMessagingReply message.
func ParseOutgoing(m outbox.Message) (Outgoing, error) {
	var o Outgoing
	if err := json.Unmarshal(m.Payload, &o); err != nil || o.ConversationID == "" || o.ReplyID == "" {
		return Outgoing{}, fmt.Errorf("message %s: not a messaging reply: %s", m.ID, m.Payload)
	}
	return o, nil
}
