package console

import (
	"maps"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	assistantapp "github.com/svcagent/svc/app/assistant"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/approval"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/ratelimit"
)

// The approvals page: what the owner's assistant left waiting (POST /v1/assistant in mode do),
// each action shown in full with whom it is for and when the approval expires, to approve or
// refuse. Approving is the approve call's use case (assistant.Service.Handle with approve alone:
// no interaction, within 60 minutes, once: the store's conditional write lets one of two clicks
// through, the other is told the approval is gone); refusing is assistant.Service.Refuse.

func (c *Console) approvals(ctx *gin.Context) { c.approvalsPage(ctx, http.StatusOK, nil) }

func (c *Console) approvalsPage(ctx *gin.Context, status int, extra map[string]any) {
	pending, err := c.uc.Assistant.Pending(ctx, c.acct(ctx).ID)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	data := map[string]any{"Pending": pending, "Lifetime": int(approval.Lifetime / time.Minute)}
	maps.Copy(data, extra)
	c.render(ctx, status, "approvals", data)
}

// approve runs the approval's actions, as POST /v1/assistant {"approve": id} does (counted
// against the same hourly allowance), and shows what they did above the approvals left.
func (c *Console) approve(ctx *gin.Context) {
	acct := c.acct(ctx)
	id := ctx.Param("id")
	if _, err := c.uc.Access.Limit(ctx, acct.Plan, acct.ID, ratelimit.Assistant); err != nil {
		c.refuse(ctx, err, approvalForm, c.approvalsPage)
		return
	}
	r, err := c.uc.Assistant.Handle(ctx, assistantapp.Caller{Account: acct}, assistant.Request{Approve: &id})
	if err != nil {
		c.approvalFailed(ctx, err)
		return
	}
	c.approvalsPage(ctx, http.StatusOK, map[string]any{"Approved": r})
}

// refuseApproval turns the approval down: its actions never run.
func (c *Console) refuseApproval(ctx *gin.Context) {
	if _, err := c.uc.Assistant.Refuse(ctx, assistantapp.Caller{Account: c.acct(ctx)}, ctx.Param("id")); err != nil {
		c.approvalFailed(ctx, err)
		return
	}
	c.approvalsPage(ctx, http.StatusOK, map[string]any{"Refused": true})
}

// approvalFailed answers an approve or a refusal that did not go through: an approval gone
// (another account's, used, refused, expired, or the other of two clicks) is said on the page
// with 404; anything else as every form's failure.
func (c *Console) approvalFailed(ctx *gin.Context, err error) {
	if domain.ErrorCode(err) == domain.CodeApprovalNotFound {
		c.approvalsPage(ctx, http.StatusNotFound, map[string]any{"Gone": true})
		return
	}
	c.refuse(ctx, err, approvalForm, c.approvalsPage)
}

// actionLabel is the catalogue's key naming an action's type (approvals.type.email), or "" for
// a type it does not name (shown as it is).
func actionLabel(t assistant.Type) string {
	if _, ok := catalog["en"]["approvals.type."+string(t)]; ok {
		return "approvals.type." + string(t)
	}
	return ""
}

// ActionType names an action's type in the page's language.
func (v view) ActionType(t assistant.Type) string {
	if k := actionLabel(t); k != "" {
		return v.T(k)
	}
	return string(t)
}

// ActionError says why an approved action failed, in the page's language (its code, spec 4.7
// rule 7, when the catalogue lacks it: refused_404).
func (v view) ActionError(e assistant.ActionError) string {
	if m, ok := v.msgs["approvals.error."+string(e)]; ok {
		return m
	}
	return string(e)
}

// Recipient is whom an action is for: the address of an e-mail or a message (and its copy),
// the network of a post, the person of a contact or a lead; "" for a change of the account's own.
func (view) Recipient(a assistant.Action) string {
	switch a.Type {
	case assistant.Email, assistant.Message, assistant.SocialPost, assistant.PhoneCall:
		if a.Cc != "" {
			return a.To + ", " + a.Cc
		}
		return a.To
	case assistant.Contact, assistant.Lead:
		for _, s := range []string{a.Name, a.Email, a.Phone} {
			if s != "" {
				return s
			}
		}
	}
	return ""
}
