// Package telegram talks to the Telegram Bot API: it sends the agent's replies (sendMessage) and
// registers a bot's webhook (setWebhook).
package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/wire"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/messaging/internal/post"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/messaging"
	"github.com/svcagent/svc/ports"
)

// DefaultBaseURL is the public Bot API.
const DefaultBaseURL = "https://api.telegram.org"

// MaxText is the longest message Telegram takes, in UTF-16 code units.
const MaxText = messaging.MaxText

// Set provides the Client from Options and a *zap.Logger.
var Set = wire.NewSet(New)

// Options are the Client's settings.
type Options struct {
	// BaseURL is the Bot API's address (SVC_TELEGRAM_API_URL); empty: DefaultBaseURL.
	BaseURL string
	// AllowPrivate lets the client reach loopback and private addresses (local tests).
	AllowPrivate bool
}

// Client calls the Bot API.
type Client struct {
	api *post.API
	log *zap.Logger
}

var (
	_ ports.Messenger   = (*Client)(nil)
	_ ports.BotWebhooks = (*Client)(nil)
)

// New returns a Client.
func New(opts Options, log *zap.Logger) *Client {
	return &Client{api: post.NewAPI(messaging.Telegram, opts.BaseURL, DefaultBaseURL, opts.AllowPrivate, explain), log: log.Named("telegram")}
}

func (c *Client) call(ctx context.Context, token, method string, body any) error {
	_, err := c.api.Post(ctx, "/bot"+token+"/"+method, "", body)
	return err
}

// Send sends text to the chat to: one message, cut to MaxText UTF-16 code units (the service
// sends a longer reply in parts: messaging.Split).
func (c *Client) Send(ctx context.Context, conn messaging.Connection, s messaging.Secrets, to, text string) error {
	err := c.call(ctx, s.BotToken, "sendMessage", map[string]any{"chat_id": json.Number(to), "text": messaging.Fit(text)})
	if err != nil {
		c.log.Warn("message not sent", zap.String("account_id", conn.AccountID), zap.Error(err))
	}
	return err
}

// SetWebhook points the bot's updates at url, each carrying secretToken. A refusal (a wrong bot
// token: 401, 404) is invalid_request naming bot_token; a Bot API that cannot be reached or
// fails is a *messaging.SendError.
func (c *Client) SetWebhook(ctx context.Context, botToken, url, secretToken string) error {
	err := c.call(ctx, botToken, "setWebhook", map[string]any{"url": url, "secret_token": secretToken,
		"allowed_updates": []string{"message"}})
	var refusal *messaging.SendError
	if errors.As(err, &refusal) && refusal.Status != 0 && !refusal.Retryable() {
		return domain.Invalid("bot_token", "Telegram refused the webhook: %s", refusal.Reason)
	}
	if errors.As(err, &refusal) && refusal.Status == 0 {
		// No answer: no message was refused; say what was tried (the token stays out of it).
		return fmt.Errorf("telegram setWebhook: the Bot API (SVC_TELEGRAM_API_URL) could not be reached, try again: %s", refusal.Reason)
	}
	return err
}

// explain reads a Bot API error: {"ok":false,"error_code","description","parameters":{"retry_after"}}.
func explain(body []byte) (string, time.Duration) {
	var e struct {
		Description string `json:"description"`
		Parameters  struct {
			RetryAfter int `json:"retry_after"`
		} `json:"parameters"`
	}
	if json.Unmarshal(body, &e) != nil {
		return "", 0
	}
	return post.Cut(e.Description, 200), time.Duration(e.Parameters.RetryAfter) * time.Second
}
