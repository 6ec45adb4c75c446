// Package owners holds the owner's sign-in to the console: setting the password (svcctl),
// signing in with throttling, the server-side sessions, and signing out.
package owners

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"golang.org/x/crypto/bcrypt"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/owner"
	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/ports"
)

// Cost is the bcrypt cost of a password hash.
const Cost = 11

// Service runs the owner's sign-in.
type Service struct {
	tx       ports.Tx
	owners   ports.Owners
	accounts ports.Accounts
	limiter  ports.RateLimiter
	clock    ports.Clock

	dummyOnce sync.Once
	dummy     []byte // a hash compared against when the e-mail is unknown, so that both take as long
}

// New returns a Service.
func New(tx ports.Tx, o ports.Owners, a ports.Accounts, l ports.RateLimiter, c ports.Clock) *Service {
	return &Service{tx: tx, owners: o, accounts: a, limiter: l, clock: c}
}

// Passwords sets the owners' passwords (svcctl owner set-password).
type Passwords struct {
	tx       ports.Tx
	owners   ports.Owners
	accounts ports.Accounts
	clock    ports.Clock
}

// NewPasswords returns a Passwords.
func NewPasswords(tx ports.Tx, o ports.Owners, a ports.Accounts, c ports.Clock) *Passwords {
	return &Passwords{tx: tx, owners: o, accounts: a, clock: c}
}

// SetPassword sets the e-mail and password the account's owner signs in with, and ends every
// session of the account (a password change signs out everywhere), in one transaction. An
// account without an owner's e-mail takes this one: it is where the owner's alerts go, and who
// "me" is to the owner's assistant (an e-mail to the owner runs at once, spec 4.7).
func (s *Passwords) SetPassword(ctx context.Context, accountID, email, password string) error {
	email = owner.NormalizeEmail(email)
	if err := owner.ValidateEmail(email); err != nil {
		return err
	}
	if err := owner.ValidatePassword(password); err != nil {
		return err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), Cost)
	if err != nil {
		return fmt.Errorf("hash password: %w", err)
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		err := s.accounts.Update(ctx, accountID, func(a *account.Account) error {
			if a.OwnerEmail == "" {
				a.OwnerEmail = email
			}
			return nil
		})
		if err != nil {
			return err
		}
		c := owner.Credential{AccountID: accountID, Email: email, Hash: string(hash), UpdatedAt: s.clock.Now().UTC()}
		if err := s.owners.SetCredential(ctx, c); err != nil {
			return err
		}
		return s.owners.EndSessions(ctx, accountID)
	})
}

func wrongCredentials() error {
	return domain.Errorf(domain.CodeUnauthorized, "the e-mail or the password is wrong")
}

// SignIn checks an e-mail and password from a client address and opens a session: it returns
// the session's token (the cookie's value) and the account id. Every attempt first counts
// against ratelimit.SignInAddress for the address and ratelimit.SignInAccount for the e-mail;
// past either it is 429 rate_limited and the password is not even checked. A wrong e-mail or
// password is 401 unauthorized, the same for both; an inactive account 403 account_inactive.
// previous, the token the client held (if any), is ended: the session is rotated at sign-in.
func (s *Service) SignIn(ctx context.Context, email, password, address, previous string) (token, accountID string, err error) {
	email = owner.NormalizeEmail(email)
	if err := s.throttle(ctx, address, email); err != nil {
		return "", "", err
	}
	if len(password) > owner.MaxPasswordBytes || owner.ValidateEmail(email) != nil {
		return "", "", wrongCredentials()
	}
	c, err := s.owners.Credential(ctx, email)
	if domain.IsNotFound(err) {
		_ = bcrypt.CompareHashAndPassword(s.dummyHash(), []byte(password))
		return "", "", wrongCredentials()
	}
	if err != nil {
		return "", "", err
	}
	if err := bcrypt.CompareHashAndPassword([]byte(c.Hash), []byte(password)); err != nil {
		if errors.Is(err, bcrypt.ErrMismatchedHashAndPassword) {
			return "", "", wrongCredentials()
		}
		return "", "", fmt.Errorf("check password: %w", err)
	}
	acct, err := s.accounts.Get(ctx, c.AccountID)
	if err != nil {
		return "", "", err
	}
	if err := acct.Usable(); err != nil {
		return "", "", err
	}
	token = ident.Secret(owner.TokenPrefix)
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		if owner.LooksLikeToken(previous) {
			if err := s.owners.EndSession(ctx, account.HashSecret(previous)); err != nil {
				return err
			}
		}
		return s.owners.CreateSession(ctx, owner.NewSession(account.HashSecret(token), c.AccountID, s.clock.Now().UTC()))
	})
	if err != nil {
		return "", "", err
	}
	return token, c.AccountID, nil
}

// throttle counts one attempt against the address's and the e-mail's sign-in limits.
func (s *Service) throttle(ctx context.Context, address, email string) error {
	for _, l := range []struct {
		limit   ratelimit.Limit
		subject string
	}{{ratelimit.SignInAddress, ratelimit.Address(address)}, {ratelimit.SignInAccount, email}} {
		res, err := s.limiter.Allow(ctx, ratelimit.Subject(l.limit, l.subject), l.limit)
		if err != nil {
			return fmt.Errorf("sign-in limit: %w", err)
		}
		if err := res.Err(l.limit); err != nil {
			if e, ok := domain.AsError(err); ok {
				e.Message = "too many sign-in attempts; try again later"
			}
			return err
		}
	}
	return nil
}

func (s *Service) dummyHash() []byte {
	s.dummyOnce.Do(func() {
		h, err := bcrypt.GenerateFromPassword([]byte(ident.Secret("")), Cost)
		if err != nil {
			panic("owners: bcrypt failed on a valid password: " + err.Error())
		}
		s.dummy = h
	})
	return s.dummy
}

// Authenticate returns the account of a session token: 401 unauthorized when the token is
// missing, unknown, ended or expired; 403 account_inactive when the account is not active.
func (s *Service) Authenticate(ctx context.Context, token string) (account.Account, error) {
	if !owner.LooksLikeToken(token) {
		return account.Account{}, domain.Errorf(domain.CodeUnauthorized, "not signed in")
	}
	sess, err := s.owners.Session(ctx, account.HashSecret(token), s.clock.Now().UTC())
	if domain.IsNotFound(err) {
		return account.Account{}, domain.Errorf(domain.CodeUnauthorized, "not signed in")
	}
	if err != nil {
		return account.Account{}, err
	}
	acct, err := s.accounts.Get(ctx, sess.AccountID)
	if err != nil {
		return account.Account{}, err
	}
	return acct, acct.Usable()
}

// SignOut ends the session of token (nothing when there is none).
func (s *Service) SignOut(ctx context.Context, token string) error {
	if !owner.LooksLikeToken(token) {
		return nil
	}
	return s.owners.EndSession(ctx, account.HashSecret(token))
}

// SignOutEverywhere ends every session of the account.
func (s *Service) SignOutEverywhere(ctx context.Context, accountID string) error {
	return s.owners.EndSessions(ctx, accountID)
}
