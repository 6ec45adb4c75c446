package compat

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/model"
)

var roles = map[string]bool{
	model.RoleSystem: true, model.RoleDeveloper: true, model.RoleUser: true, model.RoleAssistant: true, model.RoleTool: true,
}

// toolName is what OpenAI accepts as a function name.
var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// check refuses a request the service will not send: no messages, an unknown role, an image
// that is not https or data:image, more than MaxImages images, more than MaxInputChars
// characters of text (messages first, then tool definitions), a badly named tool.
func check(req model.Request) error {
	if len(req.Messages) == 0 {
		return domain.Invalid("messages", "messages must hold at least one message")
	}
	images, chars := 0, 0
	for i, m := range req.Messages {
		if !roles[m.Role] {
			return domain.Invalid(fmt.Sprintf("messages[%d].role", i), "role must be system, developer, user, assistant or tool, not %s", domain.Quote(m.Role))
		}
		if m.Role == model.RoleTool && m.ToolCallID == "" {
			return domain.Invalid(fmt.Sprintf("messages[%d].tool_call_id", i), "a tool message needs the tool_call_id it answers")
		}
		chars += utf8.RuneCountInString(m.Content) + utf8.RuneCountInString(m.Name)
		for j, p := range m.Parts {
			switch p.Type {
			case "text":
				chars += utf8.RuneCountInString(p.Text)
			case "image_url":
				images++
				if err := checkImageURL(p.ImageURL); err != nil {
					return domain.Invalid(fmt.Sprintf("messages[%d].content[%d].image_url.url", i, j), "%s", err.Error())
				}
			default:
				return domain.Invalid(fmt.Sprintf("messages[%d].content[%d].type", i, j), "a content part is text or image_url, not %s", domain.Quote(p.Type))
			}
		}
		for _, tc := range m.ToolCalls {
			chars += utf8.RuneCountInString(tc.Name) + utf8.RuneCountInString(tc.Arguments)
		}
	}
	if images > MaxImages {
		return domain.Invalid("messages", "at most %d images per request; this one has %d", MaxImages, images)
	}
	if chars > MaxInputChars {
		return tooLarge("messages", chars)
	}
	for i, t := range req.Tools {
		if !toolName.MatchString(t.Name) {
			return domain.Invalid(fmt.Sprintf("tools[%d].function.name", i), "a function name is 1 to 64 letters, digits, _ or -")
		}
		chars += utf8.RuneCountInString(t.Name) + utf8.RuneCountInString(t.Description) + utf8.RuneCount(t.Parameters)
	}
	if chars > MaxInputChars {
		return tooLarge("tools", chars)
	}
	if tc := req.ToolChoice; tc != nil && tc.Name != "" && !hasTool(req.Tools, tc.Name) {
		return domain.Invalid("tool_choice", "tool_choice names %s, which is not among the tools", domain.Quote(tc.Name))
	}
	return nil
}

func tooLarge(param string, chars int) error {
	return &domain.Error{Code: domain.CodeInputTooLarge, Field: param,
		Message: fmt.Sprintf("a request may hold at most %d characters of text (messages, tool definitions and tool-call arguments); this one has %d", MaxInputChars, chars)}
}

func hasTool(tools []model.Tool, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// checkImageURL allows https URLs and data:image URLs.
func checkImageURL(raw string) error {
	if strings.HasPrefix(strings.ToLower(raw), "data:") {
		if !strings.HasPrefix(strings.ToLower(raw), "data:image/") || !strings.Contains(raw, ",") {
			return fmt.Errorf("an image is an https URL or a data:image/… URL")
		}
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || !strings.EqualFold(u.Scheme, "https") || u.Host == "" {
		return fmt.Errorf("an image is an https URL or a data:image/… URL")
	}
	return nil
}

// capTokens is the reply's token limit: what was asked, at most MaxReplyTokens.
func capTokens(asked int) int {
	if asked <= 0 || asked > MaxReplyTokens {
		return MaxReplyTokens
	}
	return asked
}

// textOf is a message's text: its content, or its text parts joined.
func textOf(m model.Message) string {
	if len(m.Parts) == 0 {
		return m.Content
	}
	var b strings.Builder
	for _, p := range m.Parts {
		if p.Type == "text" {
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			b.WriteString(p.Text)
		}
	}
	return b.String()
}
