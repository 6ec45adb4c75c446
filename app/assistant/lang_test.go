package assistant

import (
	"testing"

	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/profile"
)

// TestReplyLang: the assistant replies in the message's language (spec 4.7); lang, else the
// account's language, only when the message does not tell.
func TestReplyLang(t *testing.T) {
	ptAccount := profile.Profile{Languages: []string{"pt-BR", "en"}}
	tests := []struct {
		name    string
		message string
		lang    string
		prof    profile.Profile
		want    string
	}{
		{"the message's language over lang", "crie uma tarefa: pagar a conta de luz amanhã", "en", ptAccount, "pt"},
		{"the message's language over the account's", "create a task: pay the electricity bill tomorrow", "", ptAccount, "en"},
		{"lang keeps its region", "crie uma tarefa: pagar a conta de luz amanhã", "pt-BR", ptAccount, "pt-BR"},
		{"the account's language keeps its region", "crie uma tarefa: pagar a conta de luz amanhã", "", ptAccount, "pt-BR"},
		{"lang when the message does not tell", "ok", "es", ptAccount, "es"},
		{"the account's language when neither tells", "ok", "", ptAccount, "pt-BR"},
		{"an approval has no message", "", "es", ptAccount, "es"},
		{"Spanish", "¿cuáles son mis tareas de hoy?", "en", ptAccount, "es"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := replyLang(assistant.Instruction{Message: tt.message, Lang: tt.lang}, tt.prof); got != tt.want {
				t.Errorf("replyLang(%q, lang %q) = %q, want %q", tt.message, tt.lang, got, tt.want)
			}
		})
	}
}
