package chat

import (
	"context"
	"testing"

	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/knowledge"
)

type hitsOnly struct{}

func (hitsOnly) Reply(context.Context, conversation.Turn) (conversation.Draft, error) {
	return conversation.Draft{}, nil
}

// TestContextBudget: a model upstream is given the Brain's passages up to knowledge.ContextChars;
// a replier that reads only the hits (the built-in engine) is given none beyond them.
func TestContextBudget(t *testing.T) {
	if got := contextBudget(NewModelReplier(nil, "")); got != knowledge.ContextChars {
		t.Errorf("the model replier's budget %d, want %d", got, knowledge.ContextChars)
	}
	if got := contextBudget(hitsOnly{}); got >= 0 {
		t.Errorf("a replier of the hits only: budget %d, want none", got)
	}
}
