// Command svcctl administers the service: migrations, accounts, plans, keys, and a check of the
// event pipeline. It prints JSON on stdout, errors on stderr, and exits non-zero on failure. It
// reads the same SVC_DATABASE_URL as the servers.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/svcagent/svc/domain"
)

const helpText = `usage: svcctl COMMAND [flags]

commands:
  migrate                                   apply the store's migrations
  account create --name NAME [--plan free|starter|pro] [--interaction-limit N] [--owner-email E] [--developer-bonus]
  account list [--limit N] [--after ID]     every account, with the interaction limit in force (a page;
                                            next_cursor is the --after of the next)
  account show --account ID
  account set-status --account ID --status active|inactive
  account set-plan --account ID [--plan P] [--interaction-limit N] [--developer-bonus=true|false]
  key create --account ID [--name N] [--send-without-approval]
  key list --account ID
  key revoke --key-id ID
  key set --key-id ID --send-without-approval=true|false
  owner set-password --account ID --email E --password P
                                            set the console sign-in of the account's owner (ends its sessions)
  mail set --account ID --host H [--port 587] [--username U --password-stdin] --from ADDR [--security starttls|tls]
                                            connect the account's mail connector (the assistant's e-mails)
  mail show --account ID
  mail delete --account ID
  ping [--timeout 15s]                      write a test task to the outbox and wait for a worker to run it
  channel connect whatsapp --account ID --phone-number-id N --access-token T --app-secret S --verify-token V
  channel connect telegram --account ID --bot-token T
                                            connect a messaging app (replacing the account's connection of
                                            it) and print its webhook URL
`

// errUsage marks a mistake in the command line (exit status 2).
var errUsage = errors.New("see svcctl --help")

func main() {
	err := run(context.Background(), os.Args[1:], os.Stdout, os.LookupEnv, os.Environ())
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		var h commandHelp
		if errors.As(err, &h) {
			fmt.Fprint(os.Stdout, h.text)
		} else {
			fmt.Fprint(os.Stdout, helpText)
		}
	case errors.Is(err, errUsage):
		fmt.Fprintln(os.Stderr, "svcctl:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "svcctl:", message(err))
		os.Exit(1)
	}
}

// message is how svcctl states a failure: a service error by its code and message, with its cause
// when it has one (the operator's to read: a refused connection, a host not found), else err.
func message(err error) string {
	e, ok := domain.AsError(err)
	if !ok || e.Code == domain.CodeInternal {
		return err.Error()
	}
	msg := string(e.Code) + ": " + e.Message
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func run(ctx context.Context, args []string, stdout io.Writer, lookup func(string) (string, bool), environ []string) error {
	if len(args) == 0 {
		return fmt.Errorf("no command: %w", errUsage)
	}
	if isHelp(args[0]) {
		return flag.ErrHelp
	}
	cmd, ok := commands[args[0]]
	if !ok {
		return fmt.Errorf("unknown command %q: %w", args[0], errUsage)
	}
	return cmd(ctx, args[1:], stdout, lookup, environ)
}
