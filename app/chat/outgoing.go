package chat

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/svcagent/svc/domain/outbox"
)

// Outgoing is the payload of an outbox.TopicMessagingReply message: the reply (an agent message)
// of a messaging contact's conversation, for the worker to send to the contact.
// Part is the part of the reply to send (0, the first, unless the reply is longer than one of
// the app's messages: see NextPart).
type Outgoing struct {
	ConversationID string `json:"conversation_id"`
	ReplyID        string `json:"reply_id"`
	Part           int    `json:"part,omitempty"`
}

// outgoingMessage returns the outbox message that sends reply replyID of a messaging
// conversation. Its id is the reply's, so one reply is one message however often it is written.
func outgoingMessage(accountID, conversationID, replyID string, at time.Time) outbox.Message {
	payload, _ := json.Marshal(Outgoing{ConversationID: conversationID, ReplyID: replyID}) // two strings: cannot fail
	return outbox.Message{ID: "send_" + replyID, AccountID: accountID, Topic: outbox.TopicMessagingReply, Payload: payload, CreatedAt: at}
}

// NextPart returns the outbox message that sends the part after o's of the same reply, written
// once o's part was sent, so that the parts of a long reply reach the contact in order and a part
// sent is not sent again when a later one is retried. Its id names the reply and the part, so a
// part is one message however often it is written.
func NextPart(accountID string, o Outgoing, at time.Time) outbox.Message {
	next := Outgoing{ConversationID: o.ConversationID, ReplyID: o.ReplyID, Part: o.Part + 1}
	payload, _ := json.Marshal(next) // strings and a number: cannot fail
	return outbox.Message{ID: "send_" + o.ReplyID + "_part" + strconv.Itoa(next.Part), AccountID: accountID, Topic: outbox.TopicMessagingReply,
		Payload: payload, CreatedAt: at}
}

// ParseOutgoing reads the payload of an outbox.TopicMessagingReply message.
func ParseOutgoing(m outbox.Message) (Outgoing, error) {
	var o Outgoing
	if err := json.Unmarshal(m.Payload, &o); err != nil || o.ConversationID == "" || o.ReplyID == "" || o.Part < 0 {
		return Outgoing{}, fmt.Errorf("message %s: not a messaging reply: %s", m.ID, m.Payload)
	}
	return o, nil
}
