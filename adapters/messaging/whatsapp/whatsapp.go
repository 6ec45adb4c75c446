// Package whatsapp sends the agent's replies to WhatsApp contacts through the WhatsApp Cloud API
// (the Graph API's messages endpoint of the connection's phone number).
package whatsapp

import (
	"context"
	"encoding/json"
	"net/url"
	"time"

	"github.com/google/wire"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/messaging/internal/post"
	"github.com/svcagent/svc/domain/messaging"
	"github.com/svcagent/svc/ports"
)

// DefaultBaseURL is the public Graph API with its version.
const DefaultBaseURL = "https://graph.facebook.com/v21.0"

// MaxText is the longest text message WhatsApp takes, counted in UTF-16 code units (messaging.MaxText).
const MaxText = messaging.MaxText

// Set provides the Client from Options and a *zap.Logger.
var Set = wire.NewSet(New)

// Options are the Client's settings.
type Options struct {
	// BaseURL is the Graph API's address with its version (SVC_WHATSAPP_API_URL); empty:
	// DefaultBaseURL.
	BaseURL string
	// AllowPrivate lets the client reach loopback and private addresses (local tests).
	AllowPrivate bool
}

// Client sends text messages through the Cloud API.
type Client struct {
	api *post.API
	log *zap.Logger
}

var _ ports.Messenger = (*Client)(nil)

// New returns a Client.
func New(opts Options, log *zap.Logger) *Client {
	return &Client{api: post.NewAPI(messaging.WhatsApp, opts.BaseURL, DefaultBaseURL, opts.AllowPrivate, explain), log: log.Named("whatsapp")}
}

type textMessage struct {
	MessagingProduct string `json:"messaging_product"`
	RecipientType    string `json:"recipient_type"`
	To               string `json:"to"`
	Type             string `json:"type"`
	Text             struct {
		PreviewURL bool   `json:"preview_url"`
		Body       string `json:"body"`
	} `json:"text"`
}

// Send sends text to the WhatsApp user to (a wa_id) from the connection's phone number: one
// message, cut to MaxText (the service sends a longer reply in parts: messaging.Split).
func (c *Client) Send(ctx context.Context, conn messaging.Connection, s messaging.Secrets, to, text string) error {
	m := textMessage{MessagingProduct: "whatsapp", RecipientType: "individual", To: to, Type: "text"}
	m.Text.PreviewURL, m.Text.Body = true, messaging.Fit(text)
	_, err := c.api.Post(ctx, "/"+url.PathEscape(conn.PhoneNumberID)+"/messages", s.AccessToken, m)
	if err != nil {
		c.log.Warn("message not sent", zap.String("account_id", conn.AccountID), zap.Error(err))
	}
	return err
}

// explain reads a Graph API error: {"error":{"message","code",…}}.
func explain(body []byte) (string, time.Duration) {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		return post.Cut(e.Error.Message, 200), 0
	}
	return "", 0
}
