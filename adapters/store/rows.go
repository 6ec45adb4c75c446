package store

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/domain/profile"
)

type accountRow struct {
	bun.BaseModel `bun:"table:accounts"`

	ID               string    `bun:"id,pk"`
	Name             string    `bun:"name"`
	Plan             string    `bun:"plan"`
	InteractionLimit int       `bun:"interaction_limit"`
	Status           string    `bun:"status"`
	OwnerEmail       string    `bun:"owner_email"`
	WidgetToken      string    `bun:"widget_token,nullzero"`
	AllowedDomains   string    `bun:"allowed_domains"`
	DeveloperBonus   bool      `bun:"developer_bonus"`
	DeveloperSince   time.Time `bun:"developer_since,nullzero"`
	DeveloperClient  string    `bun:"developer_client"`
	CreatedAt        time.Time `bun:"created_at"`
	UpdatedAt        time.Time `bun:"updated_at"`
}

func toAccountRow(a account.Account) (*accountRow, error) {
	domains, err := encodeList(a.AllowedDomains)
	if err != nil {
		return nil, err
	}
	return &accountRow{
		ID:               a.ID,
		Name:             a.Name,
		Plan:             a.Plan,
		InteractionLimit: a.InteractionLimit,
		Status:           string(a.Status),
		OwnerEmail:       a.OwnerEmail,
		WidgetToken:      a.WidgetToken,
		AllowedDomains:   domains,
		DeveloperBonus:   a.DeveloperBonus,
		DeveloperSince:   dbTime(a.DeveloperSince),
		DeveloperClient:  a.DeveloperClient,
		CreatedAt:        dbTime(a.CreatedAt),
		UpdatedAt:        dbTime(a.UpdatedAt),
	}, nil
}

func (m *accountRow) domain() (account.Account, error) {
	domains, err := decodeList(m.AllowedDomains)
	if err != nil {
		return account.Account{}, fmt.Errorf("account %s: allowed_domains: %w", m.ID, err)
	}
	return account.Account{
		ID:               m.ID,
		Name:             m.Name,
		Plan:             m.Plan,
		InteractionLimit: m.InteractionLimit,
		Status:           account.Status(m.Status),
		OwnerEmail:       m.OwnerEmail,
		WidgetToken:      m.WidgetToken,
		AllowedDomains:   domains,
		DeveloperBonus:   m.DeveloperBonus,
		DeveloperSince:   domainTime(m.DeveloperSince),
		DeveloperClient:  m.DeveloperClient,
		CreatedAt:        domainTime(m.CreatedAt),
		UpdatedAt:        domainTime(m.UpdatedAt),
	}, nil
}

type keyRow struct {
	bun.BaseModel `bun:"table:api_keys"`

	ID                  string    `bun:"id,pk"`
	AccountID           string    `bun:"account_id"`
	Name                string    `bun:"name"`
	Hash                string    `bun:"hash"`
	Last4               string    `bun:"last4"`
	SendWithoutApproval bool      `bun:"send_without_approval"`
	CreatedAt           time.Time `bun:"created_at"`
	RevokedAt           time.Time `bun:"revoked_at,nullzero"`
	LastUsedAt          time.Time `bun:"last_used_at,nullzero"`
}

func toKeyRow(k account.Key) *keyRow {
	return &keyRow{
		ID:                  k.ID,
		AccountID:           k.AccountID,
		Name:                k.Name,
		Hash:                k.Hash,
		Last4:               k.Last4,
		SendWithoutApproval: k.SendWithoutApproval,
		CreatedAt:           dbTime(k.CreatedAt),
		RevokedAt:           dbTime(k.RevokedAt),
		LastUsedAt:          dbTime(k.LastUsedAt),
	}
}

func (m *keyRow) domain() account.Key {
	return account.Key{
		ID:                  m.ID,
		AccountID:           m.AccountID,
		Name:                m.Name,
		Hash:                m.Hash,
		Last4:               m.Last4,
		SendWithoutApproval: m.SendWithoutApproval,
		CreatedAt:           domainTime(m.CreatedAt),
		RevokedAt:           domainTime(m.RevokedAt),
		LastUsedAt:          domainTime(m.LastUsedAt),
	}
}

type profileRow struct {
	bun.BaseModel `bun:"table:agents"`

	AccountID        string    `bun:"account_id,pk"`
	BusinessName     string    `bun:"business_name"`
	Languages        string    `bun:"languages"`
	Tone             string    `bun:"tone"`
	ChannelAPI       bool      `bun:"channel_api"`
	ChannelWeb       bool      `bun:"channel_web"`
	ChannelMessaging bool      `bun:"channel_messaging"`
	Description      string    `bun:"description"`
	Instructions     string    `bun:"instructions"`
	Contact          string    `bun:"contact"`
	Appearance       string    `bun:"appearance"`
	UpdatedAt        time.Time `bun:"updated_at"`
}

// contactJSON and appearanceJSON are the stored forms of the agent's contact and appearance.
type contactJSON struct {
	Email   string `json:"email,omitempty"`
	Phone   string `json:"phone,omitempty"`
	Address string `json:"address,omitempty"`
	Hours   string `json:"hours,omitempty"`
}

type appearanceJSON struct {
	Name        string              `json:"name,omitempty"`
	AvatarURL   string              `json:"avatar_url,omitempty"`
	Greeting    map[string]string   `json:"greeting,omitempty"`
	Suggestions map[string][]string `json:"suggestions,omitempty"`
}

func toProfileRow(p profile.Profile) (*profileRow, error) {
	langs, err := encodeList(p.Languages)
	if err != nil {
		return nil, err
	}
	contact, err := json.Marshal(contactJSON(p.Contact))
	if err != nil {
		return nil, fmt.Errorf("encode contact: %w", err)
	}
	appearance, err := json.Marshal(appearanceJSON(p.Appearance))
	if err != nil {
		return nil, fmt.Errorf("encode appearance: %w", err)
	}
	return &profileRow{
		AccountID:        p.AccountID,
		Description:      p.Description,
		Instructions:     p.Instructions,
		Contact:          string(contact),
		Appearance:       string(appearance),
		BusinessName:     p.BusinessName,
		Languages:        langs,
		Tone:             p.Tone,
		ChannelAPI:       p.Channels.API,
		ChannelWeb:       p.Channels.Web,
		ChannelMessaging: p.Channels.Messaging,
		UpdatedAt:        dbTime(p.UpdatedAt),
	}, nil
}

func (m *profileRow) domain() (profile.Profile, error) {
	langs, err := decodeList(m.Languages)
	if err != nil {
		return profile.Profile{}, fmt.Errorf("agent %s: languages: %w", m.AccountID, err)
	}
	var contact contactJSON
	if err := json.Unmarshal([]byte(m.Contact), &contact); err != nil {
		return profile.Profile{}, fmt.Errorf("agent %s: contact: %w", m.AccountID, err)
	}
	var appearance appearanceJSON
	if err := json.Unmarshal([]byte(m.Appearance), &appearance); err != nil {
		return profile.Profile{}, fmt.Errorf("agent %s: appearance: %w", m.AccountID, err)
	}
	return profile.Profile{
		AccountID:    m.AccountID,
		BusinessName: m.BusinessName,
		Languages:    langs,
		Tone:         m.Tone,
		Description:  m.Description,
		Instructions: m.Instructions,
		Contact:      profile.Contact(contact),
		Appearance:   profile.Appearance(appearance),
		Channels: profile.Channels{
			API:       m.ChannelAPI,
			Web:       m.ChannelWeb,
			Messaging: m.ChannelMessaging,
		},
		UpdatedAt: domainTime(m.UpdatedAt),
	}, nil
}

type usagePeriodRow struct {
	bun.BaseModel `bun:"table:usage_periods"`

	AccountID      string    `bun:"account_id,pk"`
	PeriodStart    time.Time `bun:"period_start,pk"`
	Spent          int       `bun:"spent"`
	LimitReachedAt time.Time `bun:"limit_reached_at,nullzero"`
}

type chargeRow struct {
	bun.BaseModel `bun:"table:charges"`

	ID               string    `bun:"id,pk"`
	AccountID        string    `bun:"account_id"`
	Action           string    `bun:"action"`
	Cost             int       `bun:"cost"`
	Ref              string    `bun:"ref"`
	LabelSource      string    `bun:"label_source"`
	LabelWorkflow    string    `bun:"label_workflow"`
	LabelWorkflowID  string    `bun:"label_workflow_id"`
	LabelExecutionID string    `bun:"label_execution_id"`
	PeriodStart      time.Time `bun:"period_start"`
	CreatedAt        time.Time `bun:"created_at"`
}

func toChargeRow(c ledger.Charge, period ledger.Period) *chargeRow {
	return &chargeRow{
		ID:               c.ID,
		AccountID:        c.AccountID,
		Action:           string(c.Action),
		Cost:             c.Cost,
		Ref:              c.Ref,
		LabelSource:      c.Labels.Source,
		LabelWorkflow:    c.Labels.Workflow,
		LabelWorkflowID:  c.Labels.WorkflowID,
		LabelExecutionID: c.Labels.ExecutionID,
		PeriodStart:      dbTime(period.Start),
		CreatedAt:        dbTime(c.At),
	}
}

type outboxRow struct {
	bun.BaseModel `bun:"table:outbox"`

	ID         string    `bun:"id,pk"`
	AccountID  string    `bun:"account_id"`
	Topic      string    `bun:"topic"`
	Payload    []byte    `bun:"payload"`
	CreatedAt  time.Time `bun:"created_at"`
	EnqueuedAt time.Time `bun:"enqueued_at,nullzero"`
	DoneAt     time.Time `bun:"done_at,nullzero"`
	Attempts   int       `bun:"attempts"`
}

func toOutboxRow(m outbox.Message) *outboxRow {
	payload := m.Payload
	if payload == nil {
		payload = []byte{}
	}
	return &outboxRow{
		ID:         m.ID,
		AccountID:  m.AccountID,
		Topic:      m.Topic,
		Payload:    payload,
		CreatedAt:  dbTime(m.CreatedAt),
		EnqueuedAt: dbTime(m.EnqueuedAt),
		DoneAt:     dbTime(m.DoneAt),
		Attempts:   m.Attempts,
	}
}

func (m *outboxRow) domain() outbox.Message {
	return outbox.Message{
		ID:         m.ID,
		AccountID:  m.AccountID,
		Topic:      m.Topic,
		Payload:    m.Payload,
		CreatedAt:  domainTime(m.CreatedAt),
		EnqueuedAt: domainTime(m.EnqueuedAt),
		DoneAt:     domainTime(m.DoneAt),
		Attempts:   m.Attempts,
	}
}

// encodeList stores a list as JSON text; nil and empty are both "[]".
func encodeList(l []string) (string, error) {
	if len(l) == 0 {
		return "[]", nil
	}
	b, err := json.Marshal(l)
	if err != nil {
		return "", fmt.Errorf("encode list: %w", err)
	}
	return string(b), nil
}

// decodeList reads a list stored by encodeList; an empty list comes back nil.
func decodeList(s string) ([]string, error) {
	var l []string
	if err := json.Unmarshal([]byte(s), &l); err != nil {
		return nil, err
	}
	if len(l) == 0 {
		return nil, nil
	}
	return l, nil
}
