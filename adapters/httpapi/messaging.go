package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/apijson"
	appmessaging "github.com/svcagent/svc/app/messaging"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/messaging"
	"github.com/svcagent/svc/domain/ratelimit"
)

// The messaging apps' webhooks (the messaging-app channel). Each connection has its own
// unguessable URL (/v1/messaging/<app>/<hook>); its requests are trusted only with the app's
// proof: WhatsApp's X-Hub-Signature-256 (HMAC-SHA256 of the raw body under the app secret),
// Telegram's X-Telegram-Bot-Api-Secret-Token. A request without it is 401 and stores nothing.
// Each text message (or a reply button or list row tapped, read as its title) goes to the agent
// of every channel; the answer to the app is at once, and the reply reaches the contact from the
// worker.

// Header names of the apps' proofs.
const (
	headerWhatsAppSignature = "X-Hub-Signature-256"
	headerTelegramSecret    = "X-Telegram-Bot-Api-Secret-Token"
)

// maxChallenge caps the WhatsApp handshake's challenge echoed back.
const maxChallenge = 200

// whatsappHandshake answers WhatsApp's webhook verification: hub.mode=subscribe and the
// connection's verify token get hub.challenge back, as text.
func (s *Server) whatsappHandshake(c *gin.Context) {
	challenge := c.Query("hub.challenge")
	if challenge == "" || len(challenge) > maxChallenge {
		s.fail(c, domain.Invalid("hub.challenge", "hub.challenge must be 1 to %d characters", maxChallenge))
		return
	}
	if err := s.uc.Messaging.Handshake(c.Request.Context(), c.Param("hook"), c.Query("hub.mode"), c.Query("hub.verify_token")); err != nil {
		s.refuse(c, err)
		return
	}
	c.Header("X-Content-Type-Options", "nosniff")
	c.Data(http.StatusOK, "text/plain; charset=utf-8", []byte(challenge))
}

// whatsappNotification is the part of a WhatsApp Cloud API notification the service reads.
type whatsappNotification struct {
	Object string `json:"object"`
	Entry  []struct {
		Changes []struct {
			Field string `json:"field"`
			Value struct {
				Metadata struct {
					PhoneNumberID string `json:"phone_number_id"`
				} `json:"metadata"`
				Contacts []struct {
					WaID    string `json:"wa_id"`
					Profile struct {
						Name string `json:"name"`
					} `json:"profile"`
				} `json:"contacts"`
				Messages []struct {
					ID   string `json:"id"`
					From string `json:"from"`
					Type string `json:"type"`
					Text struct {
						Body string `json:"body"`
					} `json:"text"`
					Interactive struct {
						Type        string         `json:"type"`
						ButtonReply whatsappChoice `json:"button_reply"`
						ListReply   whatsappChoice `json:"list_reply"`
					} `json:"interactive"`
					Button struct {
						Text string `json:"text"`
					} `json:"button"`
					Image    whatsappMedia `json:"image"`
					Video    whatsappMedia `json:"video"`
					Document whatsappMedia `json:"document"`
				} `json:"messages"`
			} `json:"value"`
		} `json:"changes"`
	} `json:"entry"`
}

// whatsappChoice is a reply button or a list row a contact chose (interactive button_reply,
// list_reply): the business's id of it, its title and, for a row, its description.
type whatsappChoice struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// whatsappMedia is the part of a picture, video or document a contact sent that the service reads:
// the caption typed with it, which the agent answers as the contact's text (it cannot see the
// file). Without a caption (and a voice note or audio file has none) the file is answered as one
// sent alone: the agent asks for it in words (conversation.AttachmentNote); a sticker is not.
type whatsappMedia struct {
	Caption string `json:"caption"`
}

// inbound returns the messages of a notification sent to the connection's phone number: statuses
// and the changes of other fields carry none.
func (n whatsappNotification) inbound(phoneNumberID string) []messaging.Inbound {
	var out []messaging.Inbound
	for _, e := range n.Entry {
		for _, ch := range e.Changes {
			v := ch.Value
			if ch.Field != "messages" || v.Metadata.PhoneNumberID != phoneNumberID {
				continue
			}
			names := map[string]string{}
			for _, ct := range v.Contacts {
				names[ct.WaID] = ct.Profile.Name
			}
			for _, m := range v.Messages {
				in := messaging.Inbound{ID: m.ID, From: m.From, Name: names[m.From], Kind: messaging.KindOther}
				text := ""
				switch m.Type {
				case "text":
					text = m.Text.Body
				case "interactive": // a reply button or a list row tapped: read as its words
					switch m.Interactive.Type {
					case "button_reply":
						text = messaging.Choice(m.Interactive.ButtonReply.Title, "")
					case "list_reply":
						text = messaging.Choice(m.Interactive.ListReply.Title, m.Interactive.ListReply.Description)
					}
				case "button": // a template's quick-reply button
					text = messaging.Choice(m.Button.Text, "")
				case "image": // a file: the words typed with it
					text = messaging.Caption(m.Image.Caption)
				case "video":
					text = messaging.Caption(m.Video.Caption)
				case "document":
					text = messaging.Caption(m.Document.Caption)
				}
				if m.Type == "text" || text != "" {
					in.Kind, in.Text = messaging.KindText, text
				}
				in = in.Cleaned()
				if in.Kind == messaging.KindOther && fileKinds[m.Type] != "" {
					in.Kind, in.Text = messaging.KindFile, conversation.AttachmentNote(fileKinds[m.Type])
				}
				out = append(out, in)
			}
		}
	}
	return out
}

// fileKinds names the kind of a file a contact may send alone, by the app's word for it (a
// WhatsApp message's type, a Telegram message's field): the agent answers it (KindFile).
var fileKinds = map[string]string{"image": "image", "photo": "image", "video": "video", "video_note": "video",
	"document": "document", "audio": "audio", "voice": "audio"}

// telegramUpdate is the part of a Telegram update the service reads.
type telegramUpdate struct {
	UpdateID int64 `json:"update_id"`
	Message  *struct {
		Chat struct {
			ID int64 `json:"id"`
		} `json:"chat"`
		From *struct {
			FirstName string `json:"first_name"`
			LastName  string `json:"last_name"`
		} `json:"from"`
		Text *string `json:"text"`
		// Caption is the text typed with a photo, video, document or audio file: the agent
		// answers it as the contact's text (it cannot see the file).
		Caption string `json:"caption"`
		// The files a contact may send (present or not: the service cannot see them).
		Photo     json.RawMessage `json:"photo"`
		Video     json.RawMessage `json:"video"`
		VideoNote json.RawMessage `json:"video_note"`
		Document  json.RawMessage `json:"document"`
		Audio     json.RawMessage `json:"audio"`
		Voice     json.RawMessage `json:"voice"`
	} `json:"message"`
}

// file returns the kind of the file m carries, in fileKinds' words, or "".
func (u telegramUpdate) file() string {
	m := u.Message
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"photo", m.Photo}, {"video", m.Video}, {"video_note", m.VideoNote}, {"document", m.Document}, {"audio", m.Audio}, {"voice", m.Voice}} {
		if present(f.raw) {
			return fileKinds[f.name]
		}
	}
	return ""
}

// inbound returns the update's message: none for updates of other kinds (edits, channel posts).
func (u telegramUpdate) inbound() []messaging.Inbound {
	m := u.Message
	if m == nil {
		return nil
	}
	in := messaging.Inbound{ID: strconv.FormatInt(u.UpdateID, 10), From: strconv.FormatInt(m.Chat.ID, 10), Kind: messaging.KindOther}
	if m.From != nil {
		in.Name = m.From.FirstName
		if m.From.LastName != "" {
			in.Name += " " + m.From.LastName
		}
	}
	switch caption := messaging.Caption(m.Caption); {
	case m.Text != nil:
		in.Kind, in.Text = messaging.KindText, *m.Text
	case caption != "":
		in.Kind, in.Text = messaging.KindText, caption
	}
	in = in.Cleaned()
	if kind := u.file(); in.Kind == messaging.KindOther && kind != "" {
		in.Kind, in.Text = messaging.KindFile, conversation.AttachmentNote(kind)
	}
	return []messaging.Inbound{in}
}

// receiptJSON is the answer to an app's webhook request: what became of its messages.
type receiptJSON struct {
	Object     string `json:"object"`
	Accepted   int    `json:"accepted"`
	Duplicates int    `json:"duplicates"`
	Ignored    int    `json:"ignored"`
}

func (s *Server) whatsappWebhook(c *gin.Context) {
	s.messagingWebhook(c, messaging.WhatsApp, headerWhatsAppSignature, func(body []byte, conn messaging.Connection) ([]messaging.Inbound, error) {
		var n whatsappNotification
		if err := apijson.UnmarshalForeign(body, &n); err != nil {
			return nil, err
		}
		return n.inbound(conn.PhoneNumberID), nil
	})
}

func (s *Server) telegramWebhook(c *gin.Context) {
	s.messagingWebhook(c, messaging.Telegram, headerTelegramSecret, func(body []byte, _ messaging.Connection) ([]messaging.Inbound, error) {
		var u telegramUpdate
		if err := apijson.UnmarshalForeign(body, &u); err != nil {
			return nil, err
		}
		return u.inbound(), nil
	})
}

// messagingWebhook authenticates an app's webhook request by the proof in header before it reads
// the body as JSON, then hands each message to the agent, each counted against the account's
// chat limit (a 429 makes the app deliver the request again later; what was accepted of it is
// not answered twice).
func (s *Server) messagingWebhook(c *gin.Context, app messaging.App, header string,
	parse func(body []byte, conn messaging.Connection) ([]messaging.Inbound, error)) {
	body, err := apijson.ReadBody(c.Request.Body)
	if err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	conn, err := s.uc.Messaging.Authenticate(ctx, app, c.Param("hook"), body, c.GetHeader(header))
	if err != nil {
		s.refuse(c, err)
		return
	}
	msgs, err := parse(body, conn.Connection)
	if err != nil {
		s.fail(c, err)
		return
	}
	receipt := receiptJSON{Object: "messaging.receipt"}
	plan, planRead := "", false
	for _, in := range msgs {
		if in.Answerable() && !planRead {
			plan, planRead = s.uc.Messaging.Plan(ctx, conn.Connection), true // the chat limit as the account's plan sets it
		}
		if in.Answerable() && !s.limit(c, plan, conn.AccountID, ratelimit.Chat) {
			return
		}
		r, err := s.uc.Messaging.Receive(ctx, conn, in)
		if err != nil {
			s.fail(c, err)
			return
		}
		switch r.Outcome {
		case appmessaging.Accepted:
			receipt.Accepted++
		case appmessaging.Duplicate:
			receipt.Duplicates++
		default:
			receipt.Ignored++
			logger(c).Info("messaging message not answered", zap.String("channel", string(app)),
				zap.String("account_id", conn.AccountID), zap.String("reason", r.Reason))
		}
	}
	c.JSON(http.StatusOK, receipt)
}
