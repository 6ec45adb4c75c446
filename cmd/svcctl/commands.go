package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/events"
	"github.com/svcagent/svc/app/owners"
	"github.com/svcagent/svc/cmd/internal/boot"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/messaging"
	"github.com/svcagent/svc/domain/owner"
	"github.com/svcagent/svc/ports"
)

// ctl is the assembled svcctl.
type ctl struct {
	db        *bun.DB
	log       *zap.Logger
	admin     *accounts.Admin
	overviews *accounts.Overviews
	passwords *owners.Passwords
	publisher *events.Publisher
	outbox    ports.Outbox
	clock     ports.Clock
	cfg       config.Config
}

type command func(ctx context.Context, args []string, stdout io.Writer, lookup func(string) (string, bool), environ []string) error

var commands = map[string]command{
	"migrate": withCtlUnmigrated(migrate),
	"account": sub(map[string]command{
		"create":     withCtl(accountCreate),
		"list":       withCtl(accountList),
		"show":       withCtl(accountShow),
		"set-status": withCtl(accountSetStatus),
		"set-plan":   withCtl(accountSetPlan),
	}),
	"key": sub(map[string]command{
		"create": withCtl(keyCreate),
		"list":   withCtl(keyList),
		"revoke": withCtl(keyRevoke),
		"set":    withCtl(keySet),
	}),
	"owner": sub(map[string]command{
		"set-password": withCtl(ownerSetPassword),
	}),
	"mail": sub(map[string]command{
		"set":    withCtl(mailSet),
		"show":   withCtl(mailShow),
		"delete": withCtl(mailDelete),
	}),
	"ping": withCtl(ping),
	"channel": sub(map[string]command{
		"connect": sub(map[string]command{
			"whatsapp": withCtl(channelConnect(messaging.WhatsApp)),
			"telegram": withCtl(channelConnect(messaging.Telegram)),
		}),
	}),
}

func sub(cmds map[string]command) command {
	return func(ctx context.Context, args []string, stdout io.Writer, lookup func(string) (string, bool), environ []string) error {
		if len(args) == 0 {
			return fmt.Errorf("missing sub-command: %w", errUsage)
		}
		if isHelp(args[0]) {
			return flag.ErrHelp
		}
		cmd, ok := cmds[args[0]]
		if !ok {
			return fmt.Errorf("unknown sub-command %q: %w", args[0], errUsage)
		}
		return cmd(ctx, args[1:], stdout, lookup, environ)
	}
}

// action reads a command's arguments and returns what runs it on the assembled svcctl. The
// arguments are read before the configuration and the store: a mistake in them, or --help, is
// answered at once, whatever the database.
type action func(args []string) (runner, error)

type runner func(ctx context.Context, c *ctl, out *json.Encoder) error

// withCtl reads the arguments with a, loads the configuration, assembles svcctl on a store
// migrated to this version and runs it.
func withCtl(a action) command { return ctlCommand(a, true) }

// withCtlUnmigrated is withCtl on a store in any state, even a new SQLite file (svcctl migrate).
func withCtlUnmigrated(a action) command { return ctlCommand(a, false) }

func ctlCommand(a action, migrated bool) command {
	return func(ctx context.Context, args []string, stdout io.Writer, lookup func(string) (string, bool), environ []string) error {
		r, err := a(args)
		if err != nil {
			return err
		}
		cfg, log, err := boot.Load(lookup, environ)
		if err != nil {
			return err
		}
		defer func() { _ = log.Sync() }()
		init := initCtlPostgres
		if cfg.Setup().Store == config.SQLite {
			init = initCtlSQLite
			if migrated {
				if err := sqliteExists(cfg.DatabaseURL); err != nil {
					return err
				}
			}
		}
		c, cleanup, err := init(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer cleanup()
		if migrated {
			if err := boot.CheckMigrated(ctx, c.db); err != nil {
				return err
			}
		}
		out := json.NewEncoder(stdout)
		out.SetIndent("", "  ")
		out.SetEscapeHTML(false) // an address such as 'Lu <lu@example.com>' is printed as given
		return r(ctx, c, out)
	}
}

// sqliteExists fails when the SQLite file of databaseURL is not there: opening it would make an
// empty database (in the current directory, for the default sqlite://data/svc.db) and the command
// would fail on a missing table.
func sqliteExists(databaseURL string) error {
	_, rest, _ := strings.Cut(databaseURL, "://")
	path, _, _ := strings.Cut(rest, "?")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		abs, _ := filepath.Abs(path)
		return fmt.Errorf("SVC_DATABASE_URL: no database at %s (%s): run svcctl in the directory svc-api runs in, "+
			"or set SVC_DATABASE_URL to the database svc-api uses", databaseURL, abs)
	}
	return nil
}

// commandHelp is a command's --help: its flags, printed on stdout (exit status 0).
type commandHelp struct{ text string }

func (h commandHelp) Error() string        { return h.text }
func (h commandHelp) Is(target error) bool { return target == flag.ErrHelp }

func isHelp(arg string) bool {
	return arg == "-h" || arg == "--help" || arg == "-help" || arg == "help"
}

// flags parses args, which must all be flags; -h or --help gives the command's flags.
func flags(name string, args []string, define func(fs *flag.FlagSet)) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	define(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			var b strings.Builder
			fmt.Fprintf(&b, "usage: svcctl %s [flags]\n", name)
			fs.SetOutput(&b)
			fs.PrintDefaults()
			return commandHelp{b.String()}
		}
		return fmt.Errorf("%s: %v: %w", name, err, errUsage)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q: %w", name, fs.Arg(0), errUsage)
	}
	return nil
}

func required(name, flagName, value string) error {
	if strings.TrimSpace(value) == "" {
		return fmt.Errorf("%s: --%s is required: %w", name, flagName, errUsage)
	}
	return nil
}

func migrate(args []string) (runner, error) {
	if err := flags("migrate", args, func(*flag.FlagSet) {}); err != nil {
		return nil, err
	}
	return func(ctx context.Context, c *ctl, out *json.Encoder) error {
		if err := store.Migrate(ctx, c.db); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		return out.Encode(map[string]any{"migrated": true, "dialect": c.db.Dialect().Name().String()})
	}, nil
}

type accountJSON struct {
	AccountID        string    `json:"account_id"`
	Name             string    `json:"name"`
	Plan             string    `json:"plan"`
	Status           string    `json:"status"`
	InteractionLimit int       `json:"interaction_limit"`
	CustomLimit      int       `json:"custom_interaction_limit,omitempty"`
	OwnerEmail       string    `json:"owner_email"`
	WidgetToken      string    `json:"widget_token"`
	DeveloperBonus   bool      `json:"developer_bonus"`
	AllowedDomains   []string  `json:"allowed_domains"`
	CreatedAt        time.Time `json:"created_at"`
	Usage            *usage    `json:"usage,omitempty"`
}

type usage struct {
	Spent       int       `json:"interactions_spent"`
	Remaining   int       `json:"interactions_remaining"`
	Limit       int       `json:"interactions_limit"`
	PeriodStart time.Time `json:"period_start"`
	PeriodEnd   time.Time `json:"period_end"`
}

// accountOut is an account as svcctl prints it: interaction_limit is the allowance in force (the
// plan's, or the custom limit that replaces it).
func (c *ctl) accountOut(a account.Account) accountJSON {
	domains := a.AllowedDomains
	if domains == nil {
		domains = []string{}
	}
	return accountJSON{
		AccountID: a.ID, Name: a.Name, Plan: a.Plan, Status: string(a.Status), InteractionLimit: c.admin.Allowance(a),
		CustomLimit: a.InteractionLimit, OwnerEmail: a.OwnerEmail, WidgetToken: a.WidgetToken, DeveloperBonus: a.DeveloperBonus,
		AllowedDomains: domains, CreatedAt: a.CreatedAt,
	}
}

func accountCreate(args []string) (runner, error) {
	var in accounts.NewAccount
	err := flags("account create", args, func(fs *flag.FlagSet) {
		fs.StringVar(&in.Name, "name", "", "account name")
		fs.StringVar(&in.Plan, "plan", "starter", "plan: free, starter or pro")
		fs.IntVar(&in.InteractionLimit, "interaction-limit", 0, "custom interactions per period (0: the plan's)")
		fs.StringVar(&in.OwnerEmail, "owner-email", "", "the owner's e-mail")
		fs.BoolVar(&in.DeveloperBonus, "developer-bonus", false, "web channels on any plan")
	})
	if err != nil {
		return nil, err
	}
	if err := required("account create", "name", in.Name); err != nil {
		return nil, err
	}
	return func(ctx context.Context, c *ctl, out *json.Encoder) error {
		a, err := c.admin.Create(ctx, in)
		if err != nil {
			return err
		}
		return out.Encode(c.accountOut(a))
	}, nil
}

func accountList(args []string) (runner, error) {
	var after string
	var limit int
	err := flags("account list", args, func(fs *flag.FlagSet) {
		fs.StringVar(&after, "after", "", "list the accounts whose id sorts after this one (the next_cursor of a page)")
		fs.IntVar(&limit, "limit", 100, fmt.Sprintf("accounts per page, 1 to %d", accounts.MaxList))
	})
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, c *ctl, out *json.Encoder) error {
		list, more, err := c.admin.List(ctx, after, limit)
		if err != nil {
			return err
		}
		data := make([]accountJSON, 0, len(list))
		for _, a := range list {
			data = append(data, c.accountOut(a))
		}
		var next *string
		if more {
			next = &list[len(list)-1].ID
		}
		return out.Encode(map[string]any{"data": data, "has_more": more, "next_cursor": next})
	}, nil
}

func accountShow(args []string) (runner, error) {
	var id string
	if err := flags("account show", args, func(fs *flag.FlagSet) { fs.StringVar(&id, "account", "", "account id") }); err != nil {
		return nil, err
	}
	if err := required("account show", "account", id); err != nil {
		return nil, err
	}
	return func(ctx context.Context, c *ctl, out *json.Encoder) error {
		a, err := c.admin.Get(ctx, id)
		if err != nil {
			return err
		}
		o, err := c.overviews.Get(ctx, a)
		if err != nil {
			return err
		}
		res := c.accountOut(a)
		res.Usage = &usage{
			Spent: o.Usage.Spent, Remaining: o.Usage.Remaining(), Limit: o.Usage.Limit,
			PeriodStart: o.Usage.Period.Start, PeriodEnd: o.Usage.Period.End,
		}
		return out.Encode(res)
	}, nil
}

func accountSetStatus(args []string) (runner, error) {
	var id, status string
	err := flags("account set-status", args, func(fs *flag.FlagSet) {
		fs.StringVar(&id, "account", "", "account id")
		fs.StringVar(&status, "status", "", "active or inactive")
	})
	if err != nil {
		return nil, err
	}
	if err := required("account set-status", "account", id); err != nil {
		return nil, err
	}
	s, err := account.ParseStatus(status)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, c *ctl, out *json.Encoder) error {
		a, err := c.admin.SetStatus(ctx, id, s)
		if err != nil {
			return err
		}
		return out.Encode(c.accountOut(a))
	}, nil
}

func accountSetPlan(args []string) (runner, error) {
	var id string
	var ch accounts.PlanChange
	err := flags("account set-plan", args, func(fs *flag.FlagSet) {
		fs.StringVar(&id, "account", "", "account id")
		fs.Func("plan", "plan: free, starter or pro", func(v string) error { ch.Plan = &v; return nil })
		fs.Func("interaction-limit", "custom interactions per period (0: the plan's)", func(v string) error {
			var n int
			if _, err := fmt.Sscanf(v, "%d", &n); err != nil {
				return fmt.Errorf("not a whole number: %q", v)
			}
			ch.InteractionLimit = &n
			return nil
		})
		fs.BoolFunc("developer-bonus", "web channels on any plan", func(v string) error {
			b := v == "true"
			if v != "true" && v != "false" {
				return fmt.Errorf("must be true or false")
			}
			ch.DeveloperBonus = &b
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if err := required("account set-plan", "account", id); err != nil {
		return nil, err
	}
	return func(ctx context.Context, c *ctl, out *json.Encoder) error {
		a, err := c.admin.SetPlan(ctx, id, ch)
		if err != nil {
			return err
		}
		return out.Encode(c.accountOut(a))
	}, nil
}

type keyJSON struct {
	ID                  string     `json:"id"`
	AccountID           string     `json:"account_id"`
	Name                string     `json:"name"`
	Key                 string     `json:"key,omitempty"`
	Last4               string     `json:"last4"`
	SendWithoutApproval bool       `json:"send_without_approval"`
	CreatedAt           time.Time  `json:"created_at"`
	RevokedAt           *time.Time `json:"revoked_at"`
}

func keyOut(k account.Key, secret string) keyJSON {
	out := keyJSON{ID: k.ID, AccountID: k.AccountID, Name: k.Name, Key: secret, Last4: k.Last4,
		SendWithoutApproval: k.SendWithoutApproval, CreatedAt: k.CreatedAt}
	if k.Revoked() {
		at := k.RevokedAt
		out.RevokedAt = &at
	}
	return out
}

func keyCreate(args []string) (runner, error) {
	var in accounts.NewKey
	err := flags("key create", args, func(fs *flag.FlagSet) {
		fs.StringVar(&in.AccountID, "account", "", "account id")
		fs.StringVar(&in.Name, "name", "", "a name to recognise the key by")
		fs.BoolVar(&in.SendWithoutApproval, "send-without-approval", false, "let the assistant send without approval")
	})
	if err != nil {
		return nil, err
	}
	if err := required("key create", "account", in.AccountID); err != nil {
		return nil, err
	}
	return func(ctx context.Context, c *ctl, out *json.Encoder) error {
		k, secret, err := c.admin.CreateKey(ctx, in)
		if err != nil {
			return err
		}
		return out.Encode(keyOut(k, secret))
	}, nil
}

func keyList(args []string) (runner, error) {
	var id string
	if err := flags("key list", args, func(fs *flag.FlagSet) { fs.StringVar(&id, "account", "", "account id") }); err != nil {
		return nil, err
	}
	if err := required("key list", "account", id); err != nil {
		return nil, err
	}
	return func(ctx context.Context, c *ctl, out *json.Encoder) error {
		keys, err := c.admin.Keys(ctx, id)
		if err != nil {
			return err
		}
		list := make([]keyJSON, 0, len(keys))
		for _, k := range keys {
			list = append(list, keyOut(k, ""))
		}
		return out.Encode(map[string]any{"data": list})
	}, nil
}

func keyRevoke(args []string) (runner, error) {
	var id string
	if err := flags("key revoke", args, func(fs *flag.FlagSet) { fs.StringVar(&id, "key-id", "", "key id") }); err != nil {
		return nil, err
	}
	if err := required("key revoke", "key-id", id); err != nil {
		return nil, err
	}
	return func(ctx context.Context, c *ctl, out *json.Encoder) error {
		k, err := c.admin.RevokeKey(ctx, id)
		if err != nil {
			return err
		}
		return out.Encode(keyOut(k, ""))
	}, nil
}

func ownerSetPassword(args []string) (runner, error) {
	var id, email, password string
	err := flags("owner set-password", args, func(fs *flag.FlagSet) {
		fs.StringVar(&id, "account", "", "account id")
		fs.StringVar(&email, "email", "", "the e-mail the owner signs in with")
		fs.StringVar(&password, "password", "", "the password (at least 10 characters)")
	})
	if err != nil {
		return nil, err
	}
	for _, f := range [][2]string{{"account", id}, {"email", email}, {"password", password}} {
		if err := required("owner set-password", f[0], f[1]); err != nil {
			return nil, err
		}
	}
	return func(ctx context.Context, c *ctl, out *json.Encoder) error {
		if err := c.passwords.SetPassword(ctx, id, email, password); err != nil {
			return err
		}
		return out.Encode(map[string]any{"account_id": id, "email": owner.NormalizeEmail(email), "sessions_ended": true})
	}, nil
}

func ping(args []string) (runner, error) {
	timeout := 15 * time.Second
	if err := flags("ping", args, func(fs *flag.FlagSet) { fs.DurationVar(&timeout, "timeout", timeout, "how long to wait") }); err != nil {
		return nil, err
	}
	return func(ctx context.Context, c *ctl, out *json.Encoder) error {
		start := c.clock.Now()
		id, err := c.publisher.Ping(ctx)
		if err != nil {
			return err
		}
		deadline := time.Now().Add(timeout)
		for {
			m, err := c.outbox.Get(ctx, id)
			if err != nil {
				return err
			}
			if m.Done() {
				return out.Encode(map[string]any{"id": id, "done": true, "latency_ms": m.DoneAt.Sub(start).Milliseconds()})
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("ping %s was not run within %s: is svc-worker running (svc-api in the embedded environment)?", id, timeout)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}, nil
}

// channelConnect connects a messaging app to an account and prints the app's webhook URL.
func channelConnect(app messaging.App) action {
	return func(args []string) (runner, error) {
		name := "channel connect " + string(app)
		var accountID, phoneNumberID string
		var sec messaging.Secrets
		err := flags(name, args, func(fs *flag.FlagSet) {
			fs.StringVar(&accountID, "account", "", "account id")
			if app == messaging.WhatsApp {
				fs.StringVar(&phoneNumberID, "phone-number-id", "", "the WhatsApp Business phone number id")
				fs.StringVar(&sec.AccessToken, "access-token", "", "the Graph API access token")
				fs.StringVar(&sec.AppSecret, "app-secret", "", "the Meta app secret that signs webhook requests")
				fs.StringVar(&sec.VerifyToken, "verify-token", "", "the verify token of the webhook handshake")
			} else {
				fs.StringVar(&sec.BotToken, "bot-token", "", "the bot token BotFather gave")
			}
		})
		if err != nil {
			return nil, err
		}
		need := [][2]string{{"account", accountID}, {"bot-token", sec.BotToken}}
		if app == messaging.WhatsApp {
			need = [][2]string{{"account", accountID}, {"phone-number-id", phoneNumberID}, {"access-token", sec.AccessToken},
				{"app-secret", sec.AppSecret}, {"verify-token", sec.VerifyToken}}
		}
		for _, f := range need {
			if err := required(name, f[0], f[1]); err != nil {
				return nil, err
			}
		}
		return func(ctx context.Context, c *ctl, out *json.Encoder) error {
			connector, err := initConnector(ctx, c.cfg, c.log, c.db)
			if err != nil {
				return err
			}
			conn, err := connector.Connect(ctx, accountID, app, phoneNumberID, sec)
			if err != nil {
				return err
			}
			return out.Encode(map[string]string{"channel": string(conn.App), "webhook_url": conn.WebhookURL})
		}, nil
	}
}
