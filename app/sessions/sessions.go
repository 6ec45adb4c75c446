// Package sessions holds client sessions: short-lived tokens, bound to one conversation, that an
// app uses to chat without the secret API key.
package sessions

import (
	"context"
	"crypto/subtle"
	"fmt"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/session"
	"github.com/svcagent/svc/ports"
)

// Sessions creates and checks client sessions.
type Sessions struct {
	tx            ports.Tx
	store         ports.Sessions
	conversations ports.Conversations
	clock         ports.Clock
}

// New returns a Sessions.
func New(tx ports.Tx, s ports.Sessions, c ports.Conversations, clock ports.Clock) *Sessions {
	return &Sessions{tx: tx, store: s, conversations: c, clock: clock}
}

// Input is what creating a session takes. TTLGiven false means the default lifetime.
type Input struct {
	ConversationID string
	CustomerName   string
	TTLMinutes     int
	TTLGiven       bool
}

// Created is a new session with its token, shown only this once.
type Created struct {
	Session session.Session
	Token   string
}

// Create makes a session for one API conversation of the account (opened now when new; another
// channel's is refused, 400 naming conversation_id), on behalf of the API key keyID: revoking that key revokes the session.
func (s *Sessions) Create(ctx context.Context, acct account.Account, keyID string, in Input) (Created, error) {
	ttl, err := session.TTL(in.TTLMinutes, in.TTLGiven)
	if err != nil {
		return Created{}, err
	}
	if in.ConversationID == "" {
		in.ConversationID = ident.New("conv")
	} else if err := conversation.ValidateCustomerID("conversation_id", in.ConversationID); err != nil {
		return Created{}, err
	}
	if err := conversation.ValidateCustomerName(in.CustomerName); err != nil {
		return Created{}, err
	}
	now := s.clock.Now().UTC()
	token := ident.Secret(session.TokenPrefix)
	sess := session.Session{ID: ident.New("cs"), AccountID: acct.ID, KeyID: keyID, ConversationID: in.ConversationID, CustomerName: in.CustomerName,
		Hash: account.HashSecret(token), ExpiresAt: now.Add(ttl), CreatedAt: now}
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		c, err := s.conversations.Open(ctx, conversation.Conversation{AccountID: acct.ID, ID: in.ConversationID,
			Channel: conversation.ChannelAPI, CustomerName: in.CustomerName,
			ContactID: conversation.ContactID(conversation.ChannelAPI, in.ConversationID), CreatedAt: now, UpdatedAt: now})
		if err != nil {
			return err
		}
		if c.Channel != conversation.ChannelAPI {
			// The session chats on the API channel: it never joins a website visitor's or a
			// messaging contact's conversation (chat.Agent refuses its messages there).
			return domain.Invalid("conversation_id", "conversation %s belongs to another channel", in.ConversationID)
		}
		return s.store.Create(ctx, sess)
	})
	if err != nil {
		return Created{}, fmt.Errorf("create client session: %w", err)
	}
	return Created{Session: sess, Token: token}, nil
}

// Principal is who a client request acts for.
type Principal struct {
	Account account.Account
	Session session.Session
}

func unauthorized() *domain.Error {
	return domain.Errorf(domain.CodeUnauthorized, "the client token is missing, wrong, expired or revoked; send it as Authorization: Bearer svc_cs_…")
}

// Authenticate checks a client token, in one read of the store: 401 when missing, unknown,
// expired, or revoked with the API key that created it, 403 when its account is not active.
func (s *Sessions) Authenticate(ctx context.Context, token string) (Principal, error) {
	if !session.LooksLikeToken(token) {
		return Principal{}, domain.Unread(unauthorized())
	}
	hash := account.HashSecret(token)
	cred, err := s.store.Credential(ctx, hash)
	if domain.IsNotFound(err) {
		return Principal{}, unauthorized()
	}
	if err != nil {
		return Principal{}, fmt.Errorf("authenticate client: %w", err)
	}
	sess, acct := cred.Session, cred.Account
	if subtle.ConstantTimeCompare([]byte(sess.Hash), []byte(hash)) != 1 || sess.Expired(s.clock.Now()) || cred.KeyRevoked {
		return Principal{}, unauthorized()
	}
	if err := acct.Usable(); err != nil {
		return Principal{}, err
	}
	return Principal{Account: acct, Session: sess}, nil
}
