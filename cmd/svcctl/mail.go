package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/app/assistant"
	"github.com/svcagent/svc/cmd/internal/boot"
	domassistant "github.com/svcagent/svc/domain/assistant"
)

// keySet changes a key's permissions: svcctl key set --key-id ID --send-without-approval=true|false.
func keySet(args []string) (runner, error) {
	var id string
	var swa *bool
	err := flags("key set", args, func(fs *flag.FlagSet) {
		fs.StringVar(&id, "key-id", "", "key id")
		fs.BoolFunc("send-without-approval", "let the assistant send e-mails, messages and posts without approval (true or false)", func(v string) error {
			b, err := strconv.ParseBool(v)
			swa = &b
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	if err := required("key set", "key-id", id); err != nil {
		return nil, err
	}
	if swa == nil {
		return nil, fmt.Errorf("key set: --send-without-approval=true|false is required: %w", errUsage)
	}
	return func(ctx context.Context, c *ctl, out *json.Encoder) error {
		k, err := c.admin.SetSendWithoutApproval(ctx, id, *swa)
		if err != nil {
			return err
		}
		return out.Encode(keyOut(k, ""))
	}, nil
}

// mailboxes assembles the use case of the mail connectors, with the vault that seals their
// passwords; the vault is made only here, so that svcctl migrate runs on an empty database.
func (c *ctl) mailboxes(ctx context.Context) (*assistant.Mailboxes, error) {
	v, err := boot.Vault(ctx, c.cfg, store.NewSettings(c.db))
	if err != nil {
		return nil, err
	}
	return assistant.NewMailboxes(store.NewAccounts(c.db), store.NewMailboxes(c.db), v, c.clock), nil
}

type mailboxJSON struct {
	AccountID string    `json:"account_id"`
	Host      string    `json:"host"`
	Port      int       `json:"port"`
	Username  string    `json:"username"`
	Password  bool      `json:"password_set"`
	From      string    `json:"from"`
	Security  string    `json:"security"`
	UpdatedAt time.Time `json:"updated_at"`
}

func mailboxOut(b domassistant.Mailbox) mailboxJSON {
	return mailboxJSON{AccountID: b.AccountID, Host: b.Host, Port: b.Port, Username: b.Username, Password: len(b.SealedPassword) > 0,
		From: b.From, Security: string(b.Security), UpdatedAt: b.UpdatedAt}
}

// mailSet connects an account's mail connector: the SMTP server the assistant's e-mails leave
// through. The password is read from stdin with --password-stdin (never from a flag that shows
// in the process list), or from --password.
func mailSet(args []string) (runner, error) {
	var id string
	var fromStdin bool
	s := domassistant.MailServer{Port: 587, Security: domassistant.StartTLS}
	err := flags("mail set", args, func(fs *flag.FlagSet) {
		fs.StringVar(&id, "account", "", "account id")
		fs.StringVar(&s.Host, "host", "", "SMTP server host")
		fs.IntVar(&s.Port, "port", s.Port, "SMTP server port")
		fs.StringVar(&s.Username, "username", "", "SMTP user name (none: no authentication)")
		fs.StringVar(&s.Password, "password", "", "SMTP password (prefer --password-stdin)")
		fs.BoolVar(&fromStdin, "password-stdin", false, "read the SMTP password from the first line of stdin")
		fs.StringVar(&s.From, "from", "", "sender address, e.g. 'Lu <lu@example.com>'")
		fs.Func("security", "starttls (default) or tls", func(v string) error { s.Security = domassistant.Security(v); return nil })
	})
	if err != nil {
		return nil, err
	}
	if err := required("mail set", "account", id); err != nil {
		return nil, err
	}
	return func(ctx context.Context, c *ctl, out *json.Encoder) error {
		if fromStdin {
			line, err := bufio.NewReader(os.Stdin).ReadString('\n')
			if err != nil && line == "" {
				return fmt.Errorf("mail set: read the password from stdin: %w", err)
			}
			s.Password = strings.TrimRight(line, "\r\n")
			if s.Password == "" {
				// An unset variable piped in (printf '%s\n' "$SMTP_PASSWORD") would store no password.
				return fmt.Errorf("mail set: --password-stdin read an empty password: %w", errUsage)
			}
		}
		mb, err := c.mailboxes(ctx)
		if err != nil {
			return err
		}
		b, err := mb.Set(ctx, id, s)
		if err != nil {
			return err
		}
		return out.Encode(mailboxOut(b))
	}, nil
}

func mailShow(args []string) (runner, error) {
	var id string
	if err := flags("mail show", args, func(fs *flag.FlagSet) { fs.StringVar(&id, "account", "", "account id") }); err != nil {
		return nil, err
	}
	if err := required("mail show", "account", id); err != nil {
		return nil, err
	}
	return func(ctx context.Context, c *ctl, out *json.Encoder) error {
		mb, err := c.mailboxes(ctx)
		if err != nil {
			return err
		}
		b, err := mb.Get(ctx, id)
		if err != nil {
			return err
		}
		return out.Encode(mailboxOut(b))
	}, nil
}

func mailDelete(args []string) (runner, error) {
	var id string
	if err := flags("mail delete", args, func(fs *flag.FlagSet) { fs.StringVar(&id, "account", "", "account id") }); err != nil {
		return nil, err
	}
	if err := required("mail delete", "account", id); err != nil {
		return nil, err
	}
	return func(ctx context.Context, c *ctl, out *json.Encoder) error {
		mb, err := c.mailboxes(ctx)
		if err != nil {
			return err
		}
		if err := mb.Delete(ctx, id); err != nil {
			return err
		}
		return out.Encode(map[string]any{"account_id": id, "deleted": true})
	}, nil
}
