package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/messaging"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/domain/profile"
)

// post sends a messaging-channel message the way the WhatsApp webhook does.
func post(e *env, key, msg string) (chat.Reply, error) {
	return e.agent.Post(e.t.Context(), chat.Request{Account: e.acct, Channel: conversation.ChannelMessaging,
		ConversationID: "whatsapp:1555", CustomerName: "Ana", Message: msg, InboxKey: "whatsapp:" + key})
}

// waitMessages waits until the conversation holds n messages and returns them.
func waitMessages(e *env, convID string, n int) []conversation.Message {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		msgs, err := e.convs.Messages(e.t.Context(), e.acct.ID, convID, 0)
		if err == nil && len(msgs) >= n {
			return msgs
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("conversation %s: %d messages (%v), want %d", convID, len(msgs), err, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestMessagingReplyGoesToTheOutbox(t *testing.T) {
	e := newEnv(t, false, chat.Options{})
	e.configure("Padaria Lu", profile.AllOn)
	r, err := post(e, "wamid.1", "hello")
	if err != nil || r.Status != chat.StatusPending || r.ConversationID != "whatsapp:1555" || r.ReplyID == "" {
		t.Fatalf("Post = %+v, %v; want pending at once", r, err)
	}
	msgs := waitMessages(e, "whatsapp:1555", 2)
	if msgs[1].ID != r.ReplyID || msgs[1].Role != conversation.RoleAgent {
		t.Fatalf("messages %+v", msgs)
	}
	conv, err := e.convs.Get(t.Context(), e.acct.ID, "whatsapp:1555")
	if err != nil || conv.Channel != conversation.ChannelMessaging || conv.ContactID != "whatsapp:1555" || conv.CustomerName != "Ana" {
		t.Fatalf("conversation %+v, %v", conv, err)
	}
	send, err := e.outbox.Get(t.Context(), "send_"+r.ReplyID)
	if err != nil || send.Topic != outbox.TopicMessagingReply || send.AccountID != e.acct.ID {
		t.Fatalf("the reply's sending %+v, %v", send, err)
	}
	if o, err := chat.ParseOutgoing(send); err != nil || o.ConversationID != "whatsapp:1555" || o.ReplyID != r.ReplyID {
		t.Fatalf("payload %s: %+v, %v", send.Payload, o, err)
	}
	ev := e.events("message.replied")
	if len(ev) != 1 || ev[0]["channel"] != "messaging" || ev[0]["contact_id"] != "whatsapp:1555" || ev[0]["reply"] != msgs[1].Content {
		t.Fatalf("events %v", ev)
	}
	if e.spent() != 1 {
		t.Fatalf("spent %d, want 1", e.spent())
	}

	// The same message again: not accepted, nothing stored, nothing charged.
	if _, err := post(e, "wamid.1", "hello"); !errors.Is(err, chat.ErrDuplicate) {
		t.Fatalf("the same message again: %v, want ErrDuplicate", err)
	}
	if msgs, _ := e.convs.Messages(t.Context(), e.acct.ID, "whatsapp:1555", 0); len(msgs) != 2 || e.spent() != 1 {
		t.Fatalf("after a duplicate: %d messages, spent %d", len(msgs), e.spent())
	}

	// An API call may not write to the contact's conversation.
	_, err = e.agent.Send(t.Context(), chat.Request{Account: e.acct, Channel: conversation.ChannelAPI, ConversationID: "whatsapp:1555", Message: "hi"})
	if de, ok := domain.AsError(err); !ok || de.Code != domain.CodeInvalidRequest || de.Field != "conversation_id" {
		t.Fatalf("API message to a messaging conversation: %v", err)
	}
}

// TestMessagingFileAlone: a picture or voice note sent without words (its note) is answered as
// every message is, through the same agent: the reply asks for it in words, in the language the
// customer wrote in before, is charged as one interaction (spec 1: each AI reply counts), goes to
// the outbox and is announced by message.replied.
func TestMessagingFileAlone(t *testing.T) {
	e := newEnv(t, false, chat.Options{})
	e.configure("Padaria Lu", profile.AllOn)
	r, err := post(e, "wamid.f1", conversation.AttachmentNote("image"))
	if err != nil || r.Status != chat.StatusPending {
		t.Fatalf("Post = %+v, %v; want pending at once", r, err)
	}
	msgs := waitMessages(e, "whatsapp:1555", 2)
	if want := conversation.AttachmentAsk("en", "Padaria Lu"); msgs[1].Role != conversation.RoleAgent || msgs[1].Content != want {
		t.Fatalf("reply %q, want %q", msgs[1].Content, want)
	}
	if _, err := e.outbox.Get(t.Context(), "send_"+r.ReplyID); err != nil {
		t.Fatalf("the reply's sending: %v", err)
	}
	if ev := e.events("message.replied"); len(ev) != 1 || ev[0]["channel"] != "messaging" || ev[0]["reply"] != msgs[1].Content {
		t.Fatalf("events %v", ev)
	}
	if e.spent() != 1 {
		t.Fatalf("spent %d, want 1", e.spent())
	}
	// after words in Portuguese, a voice note is answered in Portuguese
	if _, err := post(e, "wamid.f2", "Bom dia, vocês abrem no sábado?"); err != nil {
		t.Fatal(err)
	}
	waitMessages(e, "whatsapp:1555", 4)
	if _, err := post(e, "wamid.f3", conversation.AttachmentNote("audio")); err != nil {
		t.Fatal(err)
	}
	msgs = waitMessages(e, "whatsapp:1555", 6)
	if want := conversation.AttachmentAsk("pt-BR", "Padaria Lu"); msgs[5].Content != want {
		t.Fatalf("reply %q, want %q", msgs[5].Content, want)
	}
	if e.spent() != 3 {
		t.Fatalf("spent %d, want 3", e.spent())
	}
}

// TestAPIMessageToAWebConversation checks that a message through the API (POST /v1/chat, a
// client session) never joins a visitor's website conversation, as a visitor never joins the
// API's: it would be stored as the visitor's words and its reply's message.replied would name
// the web channel, not the API it came through (spec part 6).
func TestAPIMessageToAWebConversation(t *testing.T) { paths(t, testAPIMessageToAWebConversation) }

func testAPIMessageToAWebConversation(t *testing.T, opts chat.Options) {
	e := newEnv(t, false, opts)
	e.configure("Padaria Lu", profile.AllOn)
	const visitor = "6f1c1a52-3c6b-4d0e-9d43-3f3f0c0b7a11"
	if _, err := e.agent.Send(t.Context(), chat.Request{Account: e.acct, Channel: conversation.ChannelWeb, ConversationID: visitor, Message: "hello"}); err != nil {
		t.Fatal(err)
	}
	_, err := e.agent.Send(t.Context(), chat.Request{Account: e.acct, Channel: conversation.ChannelAPI, ConversationID: visitor, Message: "hi"})
	if de, ok := domain.AsError(err); !ok || de.Code != domain.CodeInvalidRequest || de.Field != "conversation_id" {
		t.Fatalf("API message to a web conversation: %v, want invalid_request naming conversation_id", err)
	}
	if msgs, _ := e.convs.Messages(t.Context(), e.acct.ID, visitor, 0); len(msgs) != 2 || e.spent() != 1 {
		t.Fatalf("after the refused message: %d messages, spent %d; want the visitor's 2 and 1", len(msgs), e.spent())
	}
	if ev := e.events("message.replied"); len(ev) != 1 || ev[0]["channel"] != "web" {
		t.Fatalf("events %v, want the visitor's reply only", ev)
	}
}

func TestMessagingChannelOff(t *testing.T) {
	e := newEnv(t, false, chat.Options{})
	e.configure("Padaria Lu", profile.Channels{API: true, Web: true})
	if _, err := post(e, "wamid.9", "hello"); domain.ErrorCode(err) != domain.CodeAgentUnavailable {
		t.Fatalf("Post with the messaging channel off: %v", err)
	}
	if _, err := e.convs.Get(t.Context(), e.acct.ID, "whatsapp:1555"); !domain.IsNotFound(err) || e.spent() != 0 {
		t.Fatalf("with the channel off: conversation %v, spent %d; want nothing", err, e.spent())
	}
	// The refused message was not recorded: once the channel is on, a redelivery is answered.
	e.configure("Padaria Lu", profile.AllOn)
	if _, err := post(e, "wamid.9", "hello"); err != nil {
		t.Fatalf("Post with the channel on: %v", err)
	}
	waitMessages(e, "whatsapp:1555", 2)
	if raw, _ := json.Marshal(e.events("message.replied")); len(raw) < 10 {
		t.Fatalf("no message.replied: %s", raw)
	}
}

// postKept sends a messaging-channel message whose key is kept for keep, as the webhooks do.
func postKept(e *env, key, msg string, keep time.Duration) (chat.Reply, error) {
	return e.agent.Post(e.t.Context(), chat.Request{Account: e.acct, Channel: conversation.ChannelMessaging,
		ConversationID: "telegram:42", Message: msg, InboxKey: "telegram:111:" + key, InboxKeep: keep})
}

// TestMessagingKeyForgottenAfterItsKeep checks that a message's key keeps a second delivery out
// for the keep the request gives, and no longer: a Telegram bot that numbers its updates afresh
// after a week without any may send an update_id recorded long before, a new message.
func TestMessagingKeyForgottenAfterItsKeep(t *testing.T) {
	e := newEnv(t, false, chat.Options{})
	e.configure("Padaria Lu", profile.AllOn)
	keep := 48 * time.Hour
	if _, err := postKept(e, "7", "hello", keep); err != nil {
		t.Fatal(err)
	}
	waitMessages(e, "telegram:42", 2)
	e.clock.Add(keep - time.Minute)
	if _, err := postKept(e, "7", "hello", keep); !errors.Is(err, chat.ErrDuplicate) {
		t.Fatalf("the same update within the keep: %v, want ErrDuplicate", err)
	}
	e.clock.Add(2 * time.Minute)
	if _, err := postKept(e, "7", "is it open today?", keep); err != nil {
		t.Fatalf("an update of the same id after the keep: %v, want it accepted", err)
	}
	msgs := waitMessages(e, "telegram:42", 4)
	if msgs[2].Content != "is it open today?" {
		t.Fatalf("messages %+v", msgs)
	}
	// Recorded anew: the keep starts again.
	if _, err := postKept(e, "7", "is it open today?", keep); !errors.Is(err, chat.ErrDuplicate) {
		t.Fatalf("the new message again: %v, want ErrDuplicate", err)
	}
}

// TestSweepInbox checks that the sweep deletes the keys recorded longer ago than
// messaging.InboxRetention, and only those, and that RunSweep sweeps them.
func TestSweepInbox(t *testing.T) {
	e := newEnv(t, false, chat.Options{})
	e.configure("Padaria Lu", profile.AllOn)
	if _, err := post(e, "wamid.old", "hello"); err != nil {
		t.Fatal(err)
	}
	waitMessages(e, "whatsapp:1555", 2)
	e.clock.Add(messaging.InboxRetention - time.Hour)
	if _, err := post(e, "wamid.new", "hello again"); err != nil {
		t.Fatal(err)
	}
	waitMessages(e, "whatsapp:1555", 4)
	if n, err := e.agent.SweepInbox(t.Context()); err != nil || n != 0 {
		t.Fatalf("SweepInbox within the retention = %d, %v; want 0", n, err)
	}
	e.clock.Add(2 * time.Hour)

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.agent.RunSweep(ctx, time.Hour, func(cause string, err error) {
			if err != nil {
				t.Errorf("RunSweep: %s: %v", cause, err)
			}
		})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := post(e, "wamid.old", "hello")
		if err == nil {
			break
		}
		if !errors.Is(err, chat.ErrDuplicate) || time.Now().After(deadline) {
			t.Fatalf("the swept key again: %v, want it accepted once RunSweep swept it", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	// The key within the retention was kept, and goes once it is past it (the swept key,
	// recorded again since, stays).
	if n, err := e.agent.SweepInbox(t.Context()); err != nil || n != 0 {
		t.Fatalf("SweepInbox again = %d, %v; want 0", n, err)
	}
	e.clock.Add(messaging.InboxRetention - 30*time.Minute)
	if n, err := e.agent.SweepInbox(t.Context()); err != nil || n != 1 {
		t.Fatalf("SweepInbox past the retention of the second key = %d, %v; want 1", n, err)
	}
}
