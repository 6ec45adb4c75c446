// Package messaging holds the messaging-app channel's use cases: connecting an account's WhatsApp
// or Telegram, checking the apps' webhook requests, handing a contact's message to the agent (the
// one of every channel, app/chat) and sending the agent's reply back to the contact from the
// worker.
package messaging

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/actiontoken"
	"github.com/svcagent/svc/domain/channel"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/messaging"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports"
)

// Agent is the customer agent: it accepts a contact's message and answers it in the background.
type Agent interface {
	Post(ctx context.Context, req chat.Request) (chat.Reply, error)
}

// Messengers are the senders of each app.
type Messengers map[messaging.App]ports.Messenger

// Deps are the Service's collaborators.
type Deps struct {
	Accounts      ports.Accounts
	Connections   ports.Connections
	Conversations ports.Conversations
	Knowledge     ports.Knowledge
	Vault         ports.Vault
	Messengers    Messengers
	Agent         Agent
	// Outbox takes the message that sends the next part of a reply longer than one message.
	Outbox ports.Outbox
	Clock  ports.Clock
}

// Service is the messaging-app channel at work: the apps' webhook requests and the replies sent.
type Service struct {
	d Deps
}

// New returns a Service.
func New(d Deps) *Service {
	return &Service{d: d}
}

// ConnectorDeps are the Connector's collaborators.
type ConnectorDeps struct {
	Accounts    ports.Accounts
	Connections ports.Connections
	Vault       ports.Vault
	Bots        ports.BotWebhooks
	Clock       ports.Clock
}

// Options are the Connector's settings.
type Options struct {
	// PublicURL is the service's address, which the webhook URLs start with.
	PublicURL string
}

// Connector connects an account's messaging apps (svcctl channel connect).
type Connector struct {
	d    ConnectorDeps
	opts Options
}

// NewConnector returns a Connector.
func NewConnector(d ConnectorDeps, opts Options) *Connector {
	opts.PublicURL = strings.TrimRight(opts.PublicURL, "/")
	return &Connector{d: d, opts: opts}
}

// WebhookPath is the path of an app's webhook for a connection's hook.
func WebhookPath(app messaging.App, hook string) string {
	return "/v1/messaging/" + string(app) + "/" + hook
}

// Connected is a connection made: the app and the URL of its webhook.
type Connected struct {
	App        messaging.App
	WebhookURL string
}

// sealedSecrets is the sealed form of messaging.Secrets.
type sealedSecrets struct {
	AccessToken string `json:"access_token,omitempty"`
	AppSecret   string `json:"app_secret,omitempty"`
	VerifyToken string `json:"verify_token,omitempty"`
	BotToken    string `json:"bot_token,omitempty"`
	HookSecret  string `json:"hook_secret,omitempty"`
}

func seal(v ports.Vault, sec messaging.Secrets) ([]byte, error) {
	b, err := json.Marshal(sealedSecrets(sec))
	if err != nil {
		return nil, err
	}
	return v.Seal(string(b))
}

func open(v ports.Vault, c messaging.Connection) (messaging.Secrets, error) {
	plain, err := v.Open(c.Sealed)
	if err != nil {
		return messaging.Secrets{}, fmt.Errorf("open the secrets of %s connection of %s: %w", c.App, c.AccountID, err)
	}
	var sec sealedSecrets
	if err := json.Unmarshal([]byte(plain), &sec); err != nil {
		return messaging.Secrets{}, fmt.Errorf("read the secrets of %s connection of %s: %w", c.App, c.AccountID, err)
	}
	return messaging.Secrets(sec), nil
}

// Connect connects app to the account, replacing a connection it had: its secrets are sealed, its
// webhook gets a new unguessable URL, and a Telegram bot is told that URL (setWebhook) with a new
// secret token. WhatsApp needs phoneNumberID and the AccessToken, AppSecret and VerifyToken of
// sec; Telegram its BotToken.
func (s *Connector) Connect(ctx context.Context, accountID string, app messaging.App, phoneNumberID string, sec messaging.Secrets) (Connected, error) {
	sec.HookSecret = ""
	if err := messaging.Connect(app, phoneNumberID, sec); err != nil {
		return Connected{}, err
	}
	if _, err := s.d.Accounts.Get(ctx, accountID); err != nil {
		return Connected{}, err
	}
	now := s.d.Clock.Now().UTC()
	c := messaging.Connection{AccountID: accountID, App: app, Hook: ident.Secret(messaging.HookPrefix), PhoneNumberID: phoneNumberID,
		CreatedAt: now, UpdatedAt: now}
	url := s.opts.PublicURL + WebhookPath(app, c.Hook)
	if app == messaging.Telegram {
		sec.HookSecret = ident.Secret("")
		if err := s.d.Bots.SetWebhook(ctx, sec.BotToken, url, sec.HookSecret); err != nil {
			return Connected{}, err
		}
	}
	sealed, err := seal(s.d.Vault, sec)
	if err != nil {
		return Connected{}, fmt.Errorf("seal %s secrets: %w", app, err)
	}
	c.Sealed = sealed
	if err := s.d.Connections.Save(ctx, c); err != nil {
		return Connected{}, err
	}
	return Connected{App: app, WebhookURL: url}, nil
}

// refused is the answer to a webhook request that cannot be trusted: an unknown hook, a bad
// signature or secret. It says no more, so that a prober learns nothing of which it was.
func refused() error {
	return domain.Errorf(domain.CodeUnauthorized, "the webhook request could not be verified")
}

// connection returns the connection of app at hook, with its secrets.
func (s *Service) connection(ctx context.Context, app messaging.App, hook string) (messaging.Connection, messaging.Secrets, error) {
	if !messaging.ValidHook(hook) {
		return messaging.Connection{}, messaging.Secrets{}, refused()
	}
	c, err := s.d.Connections.ByHook(ctx, app, hook)
	if domain.IsNotFound(err) {
		return messaging.Connection{}, messaging.Secrets{}, refused()
	}
	if err != nil {
		return messaging.Connection{}, messaging.Secrets{}, err
	}
	sec, err := open(s.d.Vault, c)
	if err != nil {
		return messaging.Connection{}, messaging.Secrets{}, err
	}
	return c, sec, nil
}

// Handshake answers WhatsApp's webhook verification: mode must be "subscribe" and token the
// connection's verify token; unauthorized otherwise.
func (s *Service) Handshake(ctx context.Context, hook, mode, token string) error {
	_, sec, err := s.connection(ctx, messaging.WhatsApp, hook)
	if err != nil {
		return err
	}
	if mode != "subscribe" || !messaging.SameSecret(sec.VerifyToken, token) {
		return refused()
	}
	return nil
}

// Authenticate checks an app's webhook request to hook: for WhatsApp proof is the
// X-Hub-Signature-256 header, the HMAC of body under the app secret; for Telegram the
// X-Telegram-Bot-Api-Secret-Token header, the secret token given to setWebhook. It returns the
// connection as the inbox its messages are received in (Receive), with what of its secrets they
// need; unauthorized when the request cannot be trusted.
func (s *Service) Authenticate(ctx context.Context, app messaging.App, hook string, body []byte, proof string) (messaging.Inbox, error) {
	c, sec, err := s.connection(ctx, app, hook)
	if err != nil {
		return messaging.Inbox{}, err
	}
	ok := false
	switch app {
	case messaging.WhatsApp:
		ok = messaging.VerifySignature(sec.AppSecret, body, proof)
	case messaging.Telegram:
		ok = messaging.SameSecret(sec.HookSecret, proof)
	}
	if !ok {
		return messaging.Inbox{}, refused()
	}
	return messaging.NewInbox(c, sec), nil
}

// Plan returns the plan of the connection's account, whose per-plan rate limits count the
// account's messages as they count its REST requests; "" (the spec's counts) when the account
// cannot be read, which Receive then reports.
func (s *Service) Plan(ctx context.Context, c messaging.Connection) string {
	acct, err := s.d.Accounts.Get(ctx, c.AccountID)
	if err != nil {
		return ""
	}
	return acct.Plan
}

// Outcomes of a received message.
const (
	Accepted  = "accepted"  // the agent is answering it
	Duplicate = "duplicate" // delivered before: answered once
	Ignored   = "ignored"   // acknowledged without an answer (Received.Reason says why)
)

// Received is what became of a message.
type Received struct {
	Outcome string
	Reason  string // why it was ignored: "not_text" or the refusal's error code
}

// Receive hands a contact's message, received in the inbox Authenticate returned, to the agent,
// on the contact's one conversation of the messaging channel, recorded under its app id
// (messaging.Inbox.Key, for the app's InboxKeep) so that a second delivery is not answered again.
// Messages the agent does not answer (statuses, files without a caption, a channel switched off, no
// interactions left, an inactive account) are acknowledged as Ignored: the app must not deliver
// them again. Only a failure of the service is an error (the app delivers the message again,
// and the record makes sure it is answered once).
func (s *Service) Receive(ctx context.Context, c messaging.Inbox, in messaging.Inbound) (Received, error) {
	if !in.Answerable() {
		return Received{Outcome: Ignored, Reason: "not_text"}, nil
	}
	acct, err := s.d.Accounts.Get(ctx, c.AccountID)
	if err == nil {
		err = acct.Usable()
	}
	if err == nil {
		_, err = s.d.Agent.Post(ctx, chat.Request{Account: acct, Channel: conversation.ChannelMessaging,
			ConversationID: messaging.ContactID(c.App, in.From), CustomerName: displayName(in.Name), Message: in.Text,
			InboxKey: c.Key(in.ID), InboxKeep: c.App.InboxKeep()})
	}
	switch {
	case err == nil:
		return Received{Outcome: Accepted}, nil
	case errors.Is(err, chat.ErrDuplicate):
		return Received{Outcome: Duplicate}, nil
	}
	switch code := domain.ErrorCode(err); code {
	case domain.CodeAgentUnavailable, domain.CodeAgentNotConfigured, domain.CodeInteractionLimitReached,
		domain.CodeAccountInactive, domain.CodeInvalidRequest, domain.CodeNotFound:
		return Received{Outcome: Ignored, Reason: string(code)}, nil
	}
	return Received{}, err
}

// displayName returns a contact's display name cut to what a conversation keeps.
func displayName(name string) string {
	name = strings.TrimSpace(name)
	if !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return ""
	}
	if utf8.RuneCountInString(name) > conversation.MaxCustomerName {
		name = string([]rune(name)[:conversation.MaxCustomerName])
	}
	return name
}

// Deliver sends the agent's reply of an outbox.TopicMessagingReply message to the contact, its
// actions written as links (spec 4.9 rule 5). A refusal the app may take back (no answer, 429,
// 5xx) is an error, for the queue to retry (after the wait the app asked for, when it did);
// another refusal, or a connection removed since, drops the reply. The message's id is the
// reply's, so a reply is sent by one message, confirmed once sent. A reply longer than one of
// the app's messages is sent in parts (messaging.Split), one outbox message each: each part's,
// once sent, writes the next part's (chat.NextPart), so that the parts arrive in order and a
// retry sends again only the part that failed. A refusal that drops a part drops the rest.
func (s *Service) Deliver(ctx context.Context, m outbox.Message) error {
	o, err := chat.ParseOutgoing(m)
	if err != nil {
		return err
	}
	conv, err := s.d.Conversations.Get(ctx, m.AccountID, o.ConversationID)
	if err != nil {
		return err
	}
	app, address, ok := messaging.ParseContact(conv.ContactID)
	if !ok {
		return fmt.Errorf("message %s: conversation %s has no messaging contact", m.ID, conv.ID)
	}
	msgs, err := s.d.Conversations.UpTo(ctx, m.AccountID, o.ConversationID, o.ReplyID, 1)
	if err != nil {
		return fmt.Errorf("message %s: reply %s: %w", m.ID, o.ReplyID, err)
	}
	c, err := s.d.Connections.Get(ctx, m.AccountID, app)
	if domain.IsNotFound(err) {
		return nil // the app was disconnected since: nowhere to send
	}
	if err != nil {
		return err
	}
	sec, err := open(s.d.Vault, c)
	if err != nil {
		return err
	}
	state, err := s.d.Knowledge.State(ctx, m.AccountID)
	if err != nil {
		return err
	}
	messenger, ok := s.d.Messengers[app]
	if !ok {
		return fmt.Errorf("message %s: no messenger for %s", m.ID, app)
	}
	reply := msgs[len(msgs)-1]
	text := actiontoken.Render(reply.Content, reply.Actions, channel.Messaging, actiontoken.Site{BaseURL: state.SiteURL})
	parts := messaging.Split(text)
	if o.Part >= len(parts) {
		return nil // nothing (more) to send
	}
	err = messenger.Send(ctx, c, sec, address, parts[o.Part])
	var refusal *messaging.SendError
	switch {
	case err == nil && o.Part+1 < len(parts):
		return s.d.Outbox.Ensure(ctx, chat.NextPart(m.AccountID, o, s.d.Clock.Now().UTC()))
	case err == nil:
		return nil
	case !errors.As(err, &refusal):
		return err
	case !refusal.Retryable():
		return nil // the app will not take it (the adapter logged why)
	case refusal.RetryAfter > 0:
		return &ports.RetryLater{Delay: min(refusal.RetryAfter, time.Minute), Err: err}
	}
	return err
}
