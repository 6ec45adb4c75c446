package console

import (
	"context"
	"maps"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/conversions"
	"github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/app/webhooks"
	"github.com/svcagent/svc/app/widgets"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/conversion"
	"github.com/svcagent/svc/domain/event"
	kdomain "github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/domain/push"
	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/domain/webhook"
	"github.com/svcagent/svc/domain/widget"
)

// text reads a form field, checked once here at the edge: valid UTF-8, no NUL or other control
// character (line breaks and tabs only where multiline), at most max characters.
func text(ctx *gin.Context, field string, max int, multiline bool) (string, error) {
	v := ctx.PostForm(field)
	if !utf8.ValidString(v) {
		return "", domain.Invalid(field, "%s must be valid UTF-8", field)
	}
	for _, r := range v {
		if (r < 0x20 && !(multiline && (r == '\n' || r == '\r' || r == '\t'))) || r == 0x7f {
			return "", domain.Invalid(field, "%s must not contain control characters", field)
		}
	}
	if utf8.RuneCountInString(v) > max {
		return "", domain.Invalid(field, "%s must be at most %d characters", field, max)
	}
	return v, nil
}

// back redirects (303) to a console page after a change.
func back(ctx *gin.Context, path string) { ctx.Redirect(http.StatusSeeOther, Prefix+path) }

func (c *Console) acct(ctx *gin.Context) account.Account {
	a, _ := signedIn(ctx)
	return a
}

// ---------------------------------------------------------------------------------------------
// Overview

// overview is the console's home: the plan, the interactions used this period, the agent and its
// channel switches.
func (c *Console) overview(ctx *gin.Context) { c.overviewPage(ctx, http.StatusOK, nil) }

func (c *Console) overviewPage(ctx *gin.Context, status int, extra map[string]any) {
	acct := c.acct(ctx)
	o, err := c.uc.Overviews.Get(ctx, acct)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	days, err := c.uc.Overviews.Days(ctx, acct)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	data := map[string]any{"Name": o.Account.Name, "Overview": o, "Chart": chartOf(days)}
	maps.Copy(data, extra)
	c.render(ctx, status, "overview", data)
}

// channels switches the agent's channels (api, web, messaging): the same change as
// PATCH /v1/agent {"channels":…}.
func (c *Console) channels(ctx *gin.Context) {
	on := func(name string) *bool { v := ctx.PostForm(name) == "on"; return &v }
	_, err := c.uc.Profiles.Update(ctx, c.acct(ctx).ID, profile.Patch{Channels: &profile.ChannelsPatch{
		API: on("api"), Web: on("web"), Messaging: on("messaging")}})
	if err != nil {
		c.refuse(ctx, err, channelsForm, c.overviewPage)
		return
	}
	back(ctx, "/")
}

// ---------------------------------------------------------------------------------------------
// API keys

func (c *Console) keysPage(ctx *gin.Context, status int, extra map[string]any) {
	keys, err := c.uc.Admin.Keys(ctx, c.acct(ctx).ID)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	data := map[string]any{"Keys": keys}
	maps.Copy(data, extra)
	c.render(ctx, status, "keys", data)
}

func (c *Console) keys(ctx *gin.Context) { c.keysPage(ctx, http.StatusOK, nil) }

// createKey makes a key and shows its secret in this answer only: it is never shown again.
func (c *Console) createKey(ctx *gin.Context) {
	name, err := text(ctx, "name", 100, false)
	if err != nil {
		c.refuse(ctx, err, keyForm, c.keysPage)
		return
	}
	k, secret, err := c.uc.Admin.CreateKey(ctx, accounts.NewKey{AccountID: c.acct(ctx).ID, Name: name})
	if err != nil {
		c.refuse(ctx, err, keyForm, c.keysPage)
		return
	}
	c.keysPage(ctx, http.StatusCreated, map[string]any{"Created": k, "Secret": secret})
}

func (c *Console) revokeKey(ctx *gin.Context) {
	if _, err := c.uc.Admin.RevokeOwnKey(ctx, c.acct(ctx).ID, ctx.Param("id")); err != nil {
		c.fail(ctx, err)
		return
	}
	back(ctx, "/keys")
}

// sendWithoutApproval switches the key's Send without approval permission. Turning it on needs
// the warning's confirmation (confirm=yes); without it the warning is shown.
func (c *Console) sendWithoutApproval(ctx *gin.Context) {
	on := ctx.PostForm("on") == "true"
	if on && ctx.PostForm("confirm") != "yes" {
		c.keysPage(ctx, http.StatusOK, map[string]any{"Warn": ctx.Param("id")})
		return
	}
	if _, err := c.uc.Admin.SetOwnSendWithoutApproval(ctx, c.acct(ctx).ID, ctx.Param("id"), on); err != nil {
		c.fail(ctx, err)
		return
	}
	back(ctx, "/keys")
}

// ---------------------------------------------------------------------------------------------
// Widget

func (c *Console) widgetPage(ctx *gin.Context) { c.widgetPageWith(ctx, http.StatusOK, nil) }

func (c *Console) widgetPageWith(ctx *gin.Context, status int, extra map[string]any) {
	acct := c.acct(ctx)
	st, err := c.uc.Widgets.Settings(ctx, acct, widgets.Query{})
	if err != nil {
		c.fail(ctx, err)
		return
	}
	type snippet struct{ Framework, Code string }
	var snippets []snippet
	for _, f := range widget.Frameworks {
		s, err := c.uc.Widgets.Settings(ctx, acct, widgets.Query{Framework: string(f)})
		if err != nil {
			c.fail(ctx, err)
			return
		}
		snippets = append(snippets, snippet{Framework: string(f), Code: s.Code})
	}
	data := map[string]any{"Settings": st, "Snippets": snippets, "Domains": strings.Join(st.AllowedDomains, "\n")}
	maps.Copy(data, extra)
	c.render(ctx, status, "widget", data)
}

// widgetStyle saves the widget's style: the same change as PATCH /v1/widget/style.
func (c *Console) widgetStyle(ctx *gin.Context) {
	pos, theme, accent := ctx.PostForm("position"), ctx.PostForm("theme"), ctx.PostForm("accent")
	drag := ctx.PostForm("drag") == "on"
	if _, err := c.uc.Widgets.PatchStyle(ctx, c.acct(ctx), widget.StylePatch{Position: &pos, Theme: &theme, Accent: &accent, Drag: &drag}); err != nil {
		c.refuse(ctx, err, styleForm, c.widgetPageWith)
		return
	}
	back(ctx, "/widget")
}

// widgetDomains saves the allowed domains, one a line: the same change as PUT /v1/widget/domains.
func (c *Console) widgetDomains(ctx *gin.Context) {
	raw, err := text(ctx, "domains", 20000, true)
	if err != nil {
		c.refuse(ctx, err, domainsForm, c.widgetPageWith)
		return
	}
	domains := []string{}
	for _, d := range strings.Fields(raw) {
		domains = append(domains, d)
	}
	if _, err := c.uc.Widgets.SetDomains(ctx, c.acct(ctx), domains); err != nil {
		c.refuse(ctx, err, domainsForm, c.widgetPageWith)
		return
	}
	back(ctx, "/widget")
}

// ---------------------------------------------------------------------------------------------
// Brain

func (c *Console) brainPage(ctx *gin.Context, status int, extra map[string]any) {
	o, err := c.uc.Brain.Overview(ctx, c.acct(ctx).ID)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	data := map[string]any{"Brain": o}
	maps.Copy(data, extra)
	c.render(ctx, status, "brain", data)
}

func (c *Console) brain(ctx *gin.Context) { c.brainPage(ctx, http.StatusOK, nil) }

// faq adds an FAQ item, or changes the answer of the question the Brain already has: the same
// change as POST /v1/knowledge/faq.
func (c *Console) faq(ctx *gin.Context) {
	q, err := text(ctx, "question", 1000, true)
	if err != nil {
		c.refuse(ctx, err, faqForm, c.brainPage)
		return
	}
	a, err := text(ctx, "answer", 4000, true)
	if err != nil {
		c.refuse(ctx, err, faqForm, c.brainPage)
		return
	}
	if _, err := c.uc.Brain.UpsertFAQ(ctx, c.acct(ctx).ID, []knowledge.FAQInput{{Question: q, Answer: a}}); err != nil {
		c.refuse(ctx, err, faqForm, c.brainPage)
		return
	}
	back(ctx, "/brain")
}

// removeFAQ deletes one FAQ item of the account (knowledge.Brain.RemoveFAQ): the Brain's version
// goes up, so the agent stops using its answer at once.
func (c *Console) removeFAQ(ctx *gin.Context) {
	if _, err := c.uc.Brain.RemoveFAQ(ctx, c.acct(ctx).ID, ctx.Param("id")); err != nil {
		c.fail(ctx, err)
		return
	}
	back(ctx, "/brain")
}

// uploadPage adds a page the owner wrote to the pages uploaded before (through the API or this
// form): its text inputs checked at the edge, then the page as PUT /v1/knowledge/pages checks
// it, then knowledge.Brain.AddPage, which counts it against the account's hourly page uploads
// once it fits in the 500 uploaded pages (the Brain locked: a refused page uses none) and
// replaces only the uploaded page of the same address (or, without one, of the same title);
// pages read from a site and the FAQ stay. Unlike the API's PUT, it never drops the others.
func (c *Console) uploadPage(ctx *gin.Context) {
	acct := c.acct(ctx)
	var page kdomain.Page
	var err error
	page.URL, err = text(ctx, "url", 2000, false)
	if err == nil {
		if page.Title, err = text(ctx, "title", kdomain.MaxTitle, false); err == nil {
			page.Content, err = text(ctx, "content", kdomain.MaxPageContent, true)
		}
	}
	page.URL, page.Title = strings.TrimSpace(page.URL), strings.TrimSpace(page.Title)
	page.Content = strings.ReplaceAll(page.Content, "\r\n", "\n")
	in := knowledge.PagesInput{Pages: []kdomain.Page{page}}
	if err == nil {
		err = in.Validate()
	}
	if err != nil {
		c.refuse(ctx, err, pageForm, c.brainPage)
		return
	}
	// The upload is counted once the page fits in the account's uploaded pages, with the Brain
	// locked: a page refused (past 500) uses none of the hour's uploads.
	up, err := c.uc.Brain.AddPage(ctx, acct.ID, page, func(context.Context) error {
		_, err := c.uc.Access.Limit(ctx, acct.Plan, acct.ID, ratelimit.PageUploads)
		return err
	})
	if err != nil {
		c.refuse(ctx, err, pageForm, c.brainPage)
		return
	}
	c.brainPage(ctx, http.StatusOK, map[string]any{"Uploaded": up})
}

// removePage deletes one page the owner uploaded (knowledge.Brain.RemovePage): the Brain's
// version goes up, so the agent stops using its text at once. It is not counted against the
// hourly page uploads: it reads and embeds no text, and an owner at the limit can still take a
// wrong page down. A crawled or synced page is not one it removes (404).
func (c *Console) removePage(ctx *gin.Context) {
	if _, err := c.uc.Brain.RemovePage(ctx, c.acct(ctx).ID, ctx.Param("id")); err != nil {
		c.fail(ctx, err)
		return
	}
	back(ctx, "/brain")
}

// crawl reads a site into the Brain, as POST /v1/knowledge/crawl: the request checked, then
// counted against the account's hourly crawls, then the crawl; the page answers when it is done
// (console.js shows that it is under way).
func (c *Console) crawl(ctx *gin.Context) {
	acct := c.acct(ctx)
	req, err := c.crawlRequest(ctx, acct)
	if err != nil {
		c.refuse(ctx, err, crawlForm, c.brainPage)
		return
	}
	out, err := c.uc.Brain.Crawl(ctx, acct.ID, req)
	if err != nil {
		if domain.ErrorCode(err) == domain.CodeCrawlFailed {
			e, _ := domain.AsError(err)
			c.brainPage(ctx, http.StatusOK, map[string]any{"CrawlError": view{Lang: c.lang(ctx)}.crawlReason(e)})
			return
		}
		c.fail(ctx, err)
		return
	}
	c.brainPage(ctx, http.StatusOK, map[string]any{"Crawled": out})
}

// crawlRequest reads the crawl form's address, checks it, then counts the crawl against the
// account's hourly crawls, as POST /v1/knowledge/crawl does.
func (c *Console) crawlRequest(ctx *gin.Context, acct account.Account) (kdomain.CrawlRequest, error) {
	u, err := text(ctx, "url", 2000, false)
	if err != nil {
		return kdomain.CrawlRequest{}, err
	}
	req, err := kdomain.CrawlRequest{URL: strings.TrimSpace(u)}.Checked()
	if err != nil {
		return kdomain.CrawlRequest{}, err
	}
	if _, err := c.uc.Access.Limit(ctx, acct.Plan, acct.ID, ratelimit.Crawls); err != nil {
		return kdomain.CrawlRequest{}, err
	}
	return req, nil
}

// tryQuestion shows what the agent would answer (chat.Agent.Preview, as the preview_reply tool:
// one interaction, nothing stored) and the Brain's passages the question matches.
func (c *Console) tryQuestion(ctx *gin.Context) {
	q, err := text(ctx, "question", conversation.MaxMessage, true)
	if err != nil {
		c.refuse(ctx, err, tryForm, c.brainPage)
		return
	}
	acct := c.acct(ctx)
	hits, err := c.uc.Brain.Search(ctx, acct.ID, q, 5)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	p, err := c.uc.Chat.Preview(ctx, acct, q)
	extra := map[string]any{"Question": q, "Hits": hits}
	if err != nil {
		e, ok := domain.AsError(err)
		if !ok || e.Code == domain.CodeInternal {
			c.fail(ctx, err)
			return
		}
		extra["PreviewError"] = e.Message
	} else {
		extra["Preview"] = p
	}
	c.brainPage(ctx, http.StatusOK, extra)
}

// ---------------------------------------------------------------------------------------------
// Conversations

func (c *Console) conversations(ctx *gin.Context) {
	page, err := c.uc.Chat.Conversations(ctx, c.acct(ctx).ID, conversation.ListQuery{Limit: 100})
	if err != nil {
		c.fail(ctx, err)
		return
	}
	c.render(ctx, http.StatusOK, "conversations", map[string]any{"Page": page})
}

func (c *Console) conversation(ctx *gin.Context) {
	th, err := c.uc.Chat.Conversation(ctx, c.acct(ctx).ID, ctx.Param("id"))
	if err != nil {
		c.fail(ctx, err)
		return
	}
	c.render(ctx, http.StatusOK, "conversation", map[string]any{"Thread": th})
}

// ---------------------------------------------------------------------------------------------
// Webhooks

func (c *Console) webhooksPage(ctx *gin.Context, status int, extra map[string]any) {
	hooks, err := c.uc.Webhooks.List(ctx, c.acct(ctx).ID)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	data := map[string]any{"Webhooks": hooks, "Events": event.Types}
	maps.Copy(data, extra)
	c.render(ctx, status, "webhooks", data)
}

// createWebhook adds a webhook and shows its signing secret in this answer only: the same
// change as POST /v1/webhooks.
func (c *Console) createWebhook(ctx *gin.Context) {
	u, err := text(ctx, "url", webhook.MaxURL, false)
	if err != nil {
		c.refuse(ctx, err, webhookForm, c.webhooksPage)
		return
	}
	events := ctx.PostFormArray("events")
	for _, e := range events {
		if len(e) > 100 || !utf8.ValidString(e) {
			c.refuse(ctx, domain.Invalid("events", "unknown event type"), webhookForm, c.webhooksPage)
			return
		}
	}
	created, err := c.uc.Webhooks.Create(ctx, c.acct(ctx).ID, strings.TrimSpace(u), events)
	if err != nil {
		c.refuse(ctx, err, webhookForm, c.webhooksPage)
		return
	}
	c.webhooksPage(ctx, http.StatusCreated, map[string]any{"Created": created.Webhook, "Secret": created.Secret})
}

func (c *Console) webhooks(ctx *gin.Context) { c.webhooksPage(ctx, http.StatusOK, nil) }

func (c *Console) webhook(ctx *gin.Context) {
	acct := c.acct(ctx)
	h, err := c.uc.Webhooks.Get(ctx, acct.ID, ctx.Param("id"))
	if err != nil {
		c.fail(ctx, err)
		return
	}
	log, err := c.uc.Webhooks.Deliveries(ctx, acct.ID, h.ID, 100)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	c.render(ctx, http.StatusOK, "webhook", map[string]any{"Webhook": h, "Deliveries": log})
}

func (c *Console) testWebhook(ctx *gin.Context) {
	res, err := c.uc.Webhooks.Test(ctx, c.acct(ctx).ID, ctx.Param("id"))
	if err != nil {
		c.fail(ctx, err)
		return
	}
	c.webhooksPage(ctx, http.StatusOK, map[string]any{"Tested": ctx.Param("id"), "Result": res})
}

func (c *Console) reactivateWebhook(ctx *gin.Context) {
	on := true
	if _, err := c.uc.Webhooks.Update(ctx, c.acct(ctx).ID, ctx.Param("id"), webhooks.Patch{Active: &on}); err != nil {
		c.fail(ctx, err)
		return
	}
	back(ctx, "/webhooks")
}

func (c *Console) redeliver(ctx *gin.Context) {
	id := ctx.Param("id")
	if err := c.uc.Webhooks.Redeliver(ctx, c.acct(ctx).ID, id, ctx.Param("event_id")); err != nil {
		c.fail(ctx, err)
		return
	}
	back(ctx, "/webhooks/"+id)
}

// ---------------------------------------------------------------------------------------------
// Conversions and notifications

// conversions shows the totals of the period the form asks for (from, to), else of the current
// one; a period refused shows the current one's with the form as the owner sent it.
func (c *Console) conversions(ctx *gin.Context) {
	acct := c.acct(ctx)
	from, to, err := apijson.ConversionsPeriod(ctx.GetQuery)
	if err == nil {
		var r conversions.Report
		// no limit: the page lists the period whole, read from the store by pages of
		// conversion.MaxLimit (Report), its totals summed by the store
		if r, err = c.uc.Conversions.Report(ctx, acct.ID, conversion.Query{From: from, To: to}); err == nil {
			c.renderConversions(ctx, http.StatusOK, r, nil)
			return
		}
	}
	c.refuse(ctx, err, periodForm, func(ctx *gin.Context, status int, extra map[string]any) {
		r, err := c.uc.Conversions.Report(ctx, acct.ID, conversion.Query{})
		if err != nil {
			c.fail(ctx, err)
			return
		}
		c.renderConversions(ctx, status, r, extra)
	})
}

func (c *Console) renderConversions(ctx *gin.Context, status int, r conversions.Report, extra map[string]any) {
	top := 0
	for _, t := range r.Totals {
		top = max(top, t.Count)
	}
	data := map[string]any{"Report": r, "Top": top}
	maps.Copy(data, extra)
	c.render(ctx, status, "conversions", data)
}

// notifications lists the latest notifications, and the browsers alerted of them by Web Push with
// what turns this one on or off (push.go).
func (c *Console) notifications(ctx *gin.Context) {
	acct := c.acct(ctx)
	list, err := c.uc.Notifications.List(ctx, acct.ID, 100)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	devices, err := c.uc.Notifications.Devices(ctx, acct.ID)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	c.render(ctx, http.StatusOK, "notifications", map[string]any{"Notifications": list, "Devices": devices,
		"PublicKey": c.uc.Notifications.PublicKey(), "MaxDevices": push.MaxPerAccount})
}
