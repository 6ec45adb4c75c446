package chat

import (
	"context"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/ledger"
)

// Preview is what the agent would answer, and the account's usage after its charge.
type Preview struct {
	Text    string
	Actions []conversation.Action
	Usage   ledger.Usage
}

// Preview answers message as the agent would answer a new customer on the API channel, without
// storing a conversation: the same checks as a message (the text, the agent set up and on for the
// API channel, interactions left), the same reply (draft), and one interaction charged like any
// reply. A booking the reply would make is not made.
func (a *Agent) Preview(ctx context.Context, acct account.Account, message string) (Preview, error) {
	prof, state, _, err := a.check(ctx, Request{Account: acct, Channel: conversation.ChannelAPI, Message: message}, true)
	if err != nil {
		return Preview{}, err
	}
	d, err := a.draft(ctx, acct, prof, state, conversation.ChannelAPI, nil, message, "")
	if err != nil {
		return Preview{}, err
	}
	usage, err := a.ledger.ChargeAccount(ctx, acct, ledger.ChatReply, ident.New("prv"), ledger.Labels{})
	if err != nil {
		return Preview{}, err
	}
	return Preview{Text: d.text, Actions: d.actions, Usage: usage}, nil
}
