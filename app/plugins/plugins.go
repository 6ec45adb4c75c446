// Package plugins holds the site plugin protocol's use cases (spec 4.9): a site's connection
// request, the owner's approval and its single-use code, the exchange of the code for the secret
// plugin token, the sync of the site's pages, posts and products into the Brain, the sales the
// store reports, and the owner's list of connected sites.
package plugins

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/conversion"
	dknowledge "github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/plugin"
	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/ports"
)

// Brain replaces a site's synced pages (*knowledge.Brain).
type Brain interface {
	ReplacePlugin(ctx context.Context, accountID, site, siteURL string, pages []dknowledge.Page) (knowledge.Update, error)
}

// Conversions records a conversion, tags its conversation and notifies the owner, in the
// caller's transaction (*conversions.Service).
type Conversions interface {
	Record(ctx context.Context, accountID string, c conversion.Conversion) (conversion.Conversion, error)
}

// Channels applies the plan's rule on web channels (*accounts.Access): 402 plan_required.
type Channels interface {
	RequireWebChannels(acct account.Account) error
}

// Deps are the Service's collaborators.
type Deps struct {
	Tx            ports.Tx
	Requests      ports.PluginRequests
	Sites         ports.PluginSites
	Orders        ports.PluginOrders
	Accounts      ports.Accounts
	Profiles      ports.Profiles
	Conversations ports.Conversations
	Brain         Brain
	Conversions   Conversions
	Channels      Channels
	Clock         ports.Clock
}

// Limit bounds the calls of one connected site: sync runs daily and on demand, sales come one
// per paid order.
var Limit = ratelimit.Limit{Name: "plugin", Count: 60, Period: ratelimit.PerKey.Period}

// Service runs the plugin protocol.
type Service struct{ d Deps }

// New returns a Service.
func New(d Deps) *Service { return &Service{d: d} }

// Begin checks a connection request (400 naming the field; a bad return address is never
// followed) and keeps it for plugin.StateTTL, waiting for the owner's approval.
func (s *Service) Begin(ctx context.Context, site, ret, state, lang, woo string) (plugin.Pending, error) {
	r, err := plugin.ParseRequest(site, ret, state, lang, woo)
	if err != nil {
		return plugin.Pending{}, err
	}
	p := plugin.NewPending(ident.New("creq"), r, s.d.Clock.Now().UTC())
	if err := s.d.Requests.Save(ctx, p); err != nil {
		return plugin.Pending{}, err
	}
	return p, nil
}

// errRequest refuses an unknown, expired or already approved connection request.
var errRequest = domain.NotFound("connection request (it expired or was used: start again from the plugin)")

// Request returns a connection request that may still be approved.
func (s *Service) Request(ctx context.Context, id string) (plugin.Pending, error) {
	p, err := s.d.Requests.Get(ctx, id)
	if domain.IsNotFound(err) {
		return plugin.Pending{}, errRequest
	}
	if err != nil {
		return plugin.Pending{}, err
	}
	if !p.Open(s.d.Clock.Now()) {
		return plugin.Pending{}, errRequest
	}
	return p, nil
}

// Approve is the owner's approval of a connection request for the account: it makes the
// single-use code (plugin.CodeTTL) and returns the address the browser goes back to, the
// plugin's return address with svc_code and the plugin's state. A request is approved once.
func (s *Service) Approve(ctx context.Context, accountID, requestID string) (string, error) {
	p, err := s.Request(ctx, requestID)
	if err != nil {
		return "", err
	}
	code := ident.Secret(plugin.CodePrefix)
	c := plugin.NewCode(account.HashSecret(code), accountID, p, s.d.Clock.Now().UTC())
	if err := s.d.Requests.Approve(ctx, p.ID, c); err != nil {
		if domain.IsNotFound(err) {
			return "", errRequest
		}
		return "", err
	}
	return p.ReturnURL(code), nil
}

// Exchanged is what the plugin gets for its code: the secret plugin token (shown this once),
// the business's name and the public widget token.
type Exchanged struct {
	Token       string
	Name        string
	WidgetToken string
	Connection  plugin.Connection
}

// Exchange redeems a connect code for the site it was made for (a code used, expired, unknown
// or for another site: 400 naming code) and connects the site with a new plugin token,
// replacing an earlier connection of the same site.
func (s *Service) Exchange(ctx context.Context, code, site string) (Exchanged, error) {
	if strings.TrimSpace(code) == "" {
		return Exchanged{}, domain.Invalid("code", "code is required")
	}
	if !dknowledge.WebURL(site) {
		return Exchanged{}, domain.Invalid("site", "site must be the site's absolute http(s) address")
	}
	now := s.d.Clock.Now().UTC()
	token := ident.Secret(plugin.TokenPrefix)
	var out Exchanged
	err := s.d.Tx.InTx(ctx, func(ctx context.Context) error {
		c, err := s.d.Requests.Redeem(ctx, account.HashSecret(code), site, now)
		if err != nil {
			return err
		}
		acct, err := s.d.Accounts.Get(ctx, c.AccountID)
		if err != nil {
			return err
		}
		if err := acct.Usable(); err != nil {
			return err
		}
		prof, err := s.d.Profiles.Get(ctx, acct.ID)
		if err != nil {
			return err
		}
		conn := plugin.Connection{ID: ident.New("site"), AccountID: acct.ID, Site: c.Request.Host(), SiteURL: c.Request.Site,
			Woo: c.Request.Woo, Lang: c.Request.Lang, TokenHash: account.HashSecret(token), CreatedAt: now}
		if c.Request.Woo {
			conn.Platform = "woocommerce"
		}
		if err := s.d.Sites.Connect(ctx, conn); err != nil {
			return err
		}
		name := strings.TrimSpace(prof.BusinessName)
		if name == "" {
			name = acct.Name
		}
		out = Exchanged{Token: token, Name: name, WidgetToken: acct.WidgetToken, Connection: conn}
		return nil
	})
	if err != nil {
		return Exchanged{}, err
	}
	return out, nil
}

// Caller is an authenticated plugin call: the site's connection and its account.
type Caller struct {
	Connection plugin.Connection
	Account    account.Account
}

// errToken refuses a missing, wrong or revoked plugin token (an API key or a widget token
// included: neither is a plugin token).
var errToken = domain.Errorf(domain.CodeUnauthorized, "plugin token missing, wrong or revoked: connect the site again")

// Authenticate finds the connection of a plugin token: 401 unauthorized when the token is not a
// live plugin token, 403 account_inactive, 402 plan_required without the web channels.
func (s *Service) Authenticate(ctx context.Context, token string) (Caller, error) {
	if !strings.HasPrefix(token, plugin.TokenPrefix) || len(token) > 200 {
		return Caller{}, errToken
	}
	conn, err := s.d.Sites.ByToken(ctx, account.HashSecret(token))
	if domain.IsNotFound(err) || err == nil && conn.Revoked() {
		return Caller{}, errToken
	}
	if err != nil {
		return Caller{}, err
	}
	acct, err := s.d.Accounts.Get(ctx, conn.AccountID)
	if err != nil {
		return Caller{}, err
	}
	if err := acct.Usable(); err != nil {
		return Caller{}, err
	}
	if err := s.d.Channels.RequireWebChannels(acct); err != nil {
		return Caller{}, err
	}
	return Caller{Connection: conn, Account: acct}, nil
}

// SyncInput is what a sync sends besides its token.
type SyncInput struct {
	SiteURL  string
	Platform string
	Items    []plugin.Item
}

// Synced is the outcome of a sync.
type Synced struct {
	Counts  plugin.Counts
	Chunks  int
	Version int64
}

// MaxPlatform bounds the platform's name.
const MaxPlatform = 100

// Sync replaces the site's synced pages in the Brain with in.Items (source plugin): 400 naming
// the field when one is wrong or there are too many, and then nothing is stored.
func (s *Service) Sync(ctx context.Context, c Caller, in SyncInput) (Synced, error) {
	if in.SiteURL != "" && (!dknowledge.WebURL(in.SiteURL) || dknowledge.SiteOf(in.SiteURL) != c.Connection.Site) {
		return Synced{}, domain.Invalid("site_url", "site_url must be the connected site's address (%s)", c.Connection.Site)
	}
	if utf8.RuneCountInString(in.Platform) > MaxPlatform {
		return Synced{}, domain.Invalid("platform", "platform must be at most %d characters", MaxPlatform)
	}
	if err := plugin.ValidateItems("pages", in.Items, c.Connection.Site); err != nil {
		return Synced{}, err
	}
	pages := make([]dknowledge.Page, len(in.Items))
	for i, it := range in.Items {
		pages[i] = it.Page()
	}
	siteURL := c.Connection.SiteURL
	if in.SiteURL != "" {
		siteURL = strings.TrimRight(in.SiteURL, "/")
	}
	counts := plugin.Count(in.Items)
	up, err := s.d.Brain.ReplacePlugin(ctx, c.Account.ID, c.Connection.Site, siteURL, pages)
	if err != nil {
		return Synced{}, err
	}
	if err := s.d.Sites.Synced(ctx, c.Account.ID, c.Connection.ID, s.d.Clock.Now().UTC(), counts); err != nil {
		return Synced{}, err
	}
	return Synced{Counts: counts, Chunks: up.Chunks, Version: up.Version}, nil
}

// SaleOutcome is the conversion a sale made (or made before, for an order reported again).
type SaleOutcome struct {
	ConversionID   string
	ConversationID string
	Duplicate      bool
}

// errDuplicate rolls back a sale whose order was reported before.
var errDuplicate = errors.New("order reported before")

// Sale records a reported order as a sale conversion: the visitor's web conversation (the
// svc_visitor cookie) is tagged sale and named in the conversion, and the owner is notified
// in-app and by e-mail. An order counts once: reported again, it changes nothing and returns the
// first conversion.
func (s *Service) Sale(ctx context.Context, c Caller, sale plugin.Sale) (SaleOutcome, error) {
	amount, err := sale.Amount()
	if err != nil {
		return SaleOutcome{}, err
	}
	cv := conversion.Conversion{Kind: conversion.KindSale, Amount: amount, HasAmount: true, Currency: sale.Currency,
		Reference: sale.Reference()}
	if sale.VisitorID != "" {
		conv, err := s.d.Conversations.Get(ctx, c.Account.ID, sale.VisitorID)
		switch {
		case err == nil && conv.Channel == conversation.ChannelWeb:
			cv.ConversationID = conv.ID
		case err != nil && !domain.IsNotFound(err):
			return SaleOutcome{}, fmt.Errorf("find the visitor's conversation: %w", err)
		}
	}
	if err := cv.Validate(); err != nil {
		return SaleOutcome{}, err
	}
	var out SaleOutcome
	err = s.d.Tx.InTx(ctx, func(ctx context.Context) error {
		rec, err := s.d.Conversions.Record(ctx, c.Account.ID, cv)
		if err != nil {
			return err
		}
		id, first, err := s.d.Orders.Claim(ctx, c.Account.ID, c.Connection.Site, sale.OrderID, rec.ID, rec.CreatedAt)
		if err != nil {
			return err
		}
		out = SaleOutcome{ConversionID: id, ConversationID: cv.ConversationID, Duplicate: !first}
		if !first {
			return errDuplicate
		}
		return nil
	})
	if err != nil && !errors.Is(err, errDuplicate) {
		return SaleOutcome{}, err
	}
	return out, nil
}

// Connections lists the account's connected sites.
func (s *Service) Connections(ctx context.Context, accountID string) ([]plugin.Connection, error) {
	return s.d.Sites.List(ctx, accountID)
}

// Disconnect revokes the account's connection id: its plugin token authenticates nothing more.
// The site's synced pages stay in the Brain.
func (s *Service) Disconnect(ctx context.Context, accountID, id string) error {
	return s.d.Sites.Revoke(ctx, accountID, id, s.d.Clock.Now().UTC())
}
