package httpapi

import (
	"reflect"
	"testing"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/messaging"
)

func TestWhatsAppNotificationInbound(t *testing.T) {
	body := []byte(`{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[
		{"field":"messages","value":{"messaging_product":"whatsapp","metadata":{"phone_number_id":"1055"},
			"contacts":[{"wa_id":"1555","profile":{"name":"Ana"}}],
			"messages":[{"id":"wamid.a","from":"1555","type":"text","text":{"body":"hi"}},
			            {"id":"wamid.b","from":"1555","type":"image","image":{"id":"x"}}]}},
		{"field":"messages","value":{"metadata":{"phone_number_id":"2077"},
			"messages":[{"id":"wamid.c","from":"1666","type":"text","text":{"body":"to another number"}}]}},
		{"field":"messages","value":{"metadata":{"phone_number_id":"1055"},"statuses":[{"id":"wamid.a","status":"read"}]}},
		{"field":"account_update","value":{"metadata":{"phone_number_id":"1055"}}}]}]}`)
	var n whatsappNotification
	if err := apijson.Unmarshal(body, &n, false); err != nil {
		t.Fatal(err)
	}
	want := []messaging.Inbound{
		{ID: "wamid.a", From: "1555", Name: "Ana", Kind: messaging.KindText, Text: "hi"},
		{ID: "wamid.b", From: "1555", Name: "Ana", Kind: messaging.KindFile, Text: conversation.AttachmentNote("image")}, // answered: asked for in words
	}
	if got := n.inbound("1055"); !reflect.DeepEqual(got, want) {
		t.Errorf("inbound = %+v\nwant %+v", got, want)
	}
}

func TestTelegramUpdateInbound(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []messaging.Inbound
	}{
		{"text", `{"update_id":9001,"message":{"message_id":1,"chat":{"id":-1004242},"from":{"id":42,"first_name":"Rui","last_name":"Sá"},"text":"olá"}}`,
			[]messaging.Inbound{{ID: "9001", From: "-1004242", Name: "Rui Sá", Kind: messaging.KindText, Text: "olá"}}},
		{"a photo", `{"update_id":9002,"message":{"message_id":2,"chat":{"id":42},"photo":[{"file_id":"x"}]}}`,
			[]messaging.Inbound{{ID: "9002", From: "42", Kind: messaging.KindFile, Text: conversation.AttachmentNote("image")}}},
		{"an edit", `{"update_id":9003,"edited_message":{"message_id":1,"chat":{"id":42},"text":"changed"}}`, nil},
		{"a photo with a caption", `{"update_id":9004,"message":{"message_id":3,"chat":{"id":42},"photo":[{"file_id":"x"}],"caption":"do you have this in blue?"}}`,
			[]messaging.Inbound{{ID: "9004", From: "42", Kind: messaging.KindText, Text: "do you have this in blue?"}}},
		{"a document with a caption", `{"update_id":9005,"message":{"message_id":4,"chat":{"id":42},"document":{"file_id":"y"},"caption":"my order"}}`,
			[]messaging.Inbound{{ID: "9005", From: "42", Kind: messaging.KindText, Text: "my order"}}},
		{"a blank caption", `{"update_id":9006,"message":{"message_id":5,"chat":{"id":42},"photo":[{"file_id":"x"}],"caption":" \n "}}`,
			[]messaging.Inbound{{ID: "9006", From: "42", Kind: messaging.KindFile, Text: conversation.AttachmentNote("image")}}},
		{"a voice note", `{"update_id":9007,"message":{"message_id":6,"chat":{"id":42},"voice":{"file_id":"z","duration":3}}}`,
			[]messaging.Inbound{{ID: "9007", From: "42", Kind: messaging.KindFile, Text: conversation.AttachmentNote("audio")}}},
		{"a document alone", `{"update_id":9008,"message":{"message_id":7,"chat":{"id":42},"document":{"file_id":"y"}}}`,
			[]messaging.Inbound{{ID: "9008", From: "42", Kind: messaging.KindFile, Text: conversation.AttachmentNote("document")}}},
		{"a sticker", `{"update_id":9009,"message":{"message_id":8,"chat":{"id":42},"sticker":{"file_id":"s"}}}`,
			[]messaging.Inbound{{ID: "9009", From: "42", Kind: messaging.KindOther}}},
		{"a location", `{"update_id":9010,"message":{"message_id":9,"chat":{"id":42},"location":{"latitude":1,"longitude":2}}}`,
			[]messaging.Inbound{{ID: "9010", From: "42", Kind: messaging.KindOther}}},
	}
	for _, tt := range tests {
		var u telegramUpdate
		if err := apijson.Unmarshal([]byte(tt.body), &u, false); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := u.inbound(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: inbound = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestWhatsAppChoiceInbound checks that a contact's tap on a reply button or a list row (Cloud
// API's interactive button_reply and list_reply, a template's quick-reply button) is read as the
// contact's text, and that interactive replies of other kinds stay unanswered.
func TestWhatsAppChoiceInbound(t *testing.T) {
	tests := []struct {
		name    string
		message string
		want    messaging.Inbound
	}{
		{"reply button", `{"context":{"from":"1055","id":"wamid.q"},"from":"1555","id":"wamid.1","timestamp":"1739321024","type":"interactive",
			"interactive":{"type":"button_reply","button_reply":{"id":"cancel-button","title":"Cancel"}}}`,
			messaging.Inbound{ID: "wamid.1", From: "1555", Name: "Ana", Kind: messaging.KindText, Text: "Cancel"}},
		{"list row", `{"from":"1555","id":"wamid.2","type":"interactive",
			"interactive":{"type":"list_reply","list_reply":{"id":"priority_express","title":"Priority Mail Express","description":"Next Day to 2 Days"}}}`,
			messaging.Inbound{ID: "wamid.2", From: "1555", Name: "Ana", Kind: messaging.KindText, Text: "Priority Mail Express — Next Day to 2 Days"}},
		{"list row without description", `{"from":"1555","id":"wamid.3","type":"interactive",
			"interactive":{"type":"list_reply","list_reply":{"id":"r1","title":"Opening hours"}}}`,
			messaging.Inbound{ID: "wamid.3", From: "1555", Name: "Ana", Kind: messaging.KindText, Text: "Opening hours"}},
		{"quick-reply button", `{"from":"1555","id":"wamid.4","type":"button","button":{"payload":"stop_promos","text":"Stop promotions"}}`,
			messaging.Inbound{ID: "wamid.4", From: "1555", Name: "Ana", Kind: messaging.KindText, Text: "Stop promotions"}},
		{"a flow's answer", `{"from":"1555","id":"wamid.5","type":"interactive",
			"interactive":{"type":"nfm_reply","nfm_reply":{"name":"flow","response_json":"{}"}}}`,
			messaging.Inbound{ID: "wamid.5", From: "1555", Name: "Ana", Kind: messaging.KindOther}},
		{"blank title", `{"from":"1555","id":"wamid.6","type":"interactive",
			"interactive":{"type":"button_reply","button_reply":{"id":"b","title":" "}}}`,
			messaging.Inbound{ID: "wamid.6", From: "1555", Name: "Ana", Kind: messaging.KindOther}},
		{"a picture with a caption", `{"from":"1555","id":"wamid.7","type":"image",
			"image":{"caption":"Do you have this in blue?","mime_type":"image/jpeg","sha256":"h","id":"m1"}}`,
			messaging.Inbound{ID: "wamid.7", From: "1555", Name: "Ana", Kind: messaging.KindText, Text: "Do you have this in blue?"}},
		{"a video with a caption", `{"from":"1555","id":"wamid.8","type":"video","video":{"caption":"is this broken?","id":"m2"}}`,
			messaging.Inbound{ID: "wamid.8", From: "1555", Name: "Ana", Kind: messaging.KindText, Text: "is this broken?"}},
		{"a document with a caption", `{"from":"1555","id":"wamid.9","type":"document",
			"document":{"caption":"my invoice, is it paid?","filename":"inv.pdf","id":"m3"}}`,
			messaging.Inbound{ID: "wamid.9", From: "1555", Name: "Ana", Kind: messaging.KindText, Text: "my invoice, is it paid?"}},
		{"a picture without a caption", `{"from":"1555","id":"wamid.10","type":"image","image":{"id":"m4"}}`,
			messaging.Inbound{ID: "wamid.10", From: "1555", Name: "Ana", Kind: messaging.KindFile, Text: conversation.AttachmentNote("image")}},
		{"a voice note", `{"from":"1555","id":"wamid.12","type":"audio","audio":{"id":"m6","voice":true}}`,
			messaging.Inbound{ID: "wamid.12", From: "1555", Name: "Ana", Kind: messaging.KindFile, Text: conversation.AttachmentNote("audio")}},
		{"a video without a caption", `{"from":"1555","id":"wamid.13","type":"video","video":{"id":"m7"}}`,
			messaging.Inbound{ID: "wamid.13", From: "1555", Name: "Ana", Kind: messaging.KindFile, Text: conversation.AttachmentNote("video")}},
		{"a sticker", `{"from":"1555","id":"wamid.11","type":"sticker","sticker":{"id":"m5","animated":false}}`,
			messaging.Inbound{ID: "wamid.11", From: "1555", Name: "Ana", Kind: messaging.KindOther}},
	}
	for _, tt := range tests {
		body := []byte(`{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"messages","value":{
			"messaging_product":"whatsapp","metadata":{"phone_number_id":"1055"},"contacts":[{"wa_id":"1555","profile":{"name":"Ana"}}],
			"messages":[` + tt.message + `]}}]}]}`)
		var n whatsappNotification
		if err := apijson.UnmarshalForeign(body, &n); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := n.inbound("1055"); !reflect.DeepEqual(got, []messaging.Inbound{tt.want}) {
			t.Errorf("%s: inbound = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
