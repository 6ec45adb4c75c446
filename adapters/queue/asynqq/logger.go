package asynqq

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/svcagent/svc/internal/outage"
)

// redisCause names an outage of Redis as the worker sees it, in its log and its outage.Log.
const redisCause = "redis"

// asynqLog routes asynq's own log through zap. asynq logs every failed poll of Redis as an
// error (about 4 a second while Redis is down, each with a stack trace under zap's production
// configuration); those go to the worker's outage.Log as failures of Redis, so that an outage
// makes one line, a reminder a minute and one line when Redis is back. Other warnings and errors
// are logged as they come, without a stack trace.
//
// asynq hands its logger text only (it formats the error with %v first), so a message cannot be
// told apart by its error's type. The worker's Redis client can: its hook (unreachable) keeps the
// texts of the recent errors that said Redis cannot be reached, classified with errors.Is and
// errors.As, and a message of asynq's that carries one of them is a failure of Redis.
type asynqLog struct {
	log     *zap.Logger
	outages *outage.Log
	seen    *unreachable
}

func newAsynqLog(log *zap.Logger, outages *outage.Log, seen *unreachable) asynqLog {
	return asynqLog{log: log.WithOptions(zap.AddStacktrace(zapcore.FatalLevel), zap.AddCallerSkip(1)), outages: outages, seen: seen}
}

// level is asynq's level for the logger's: asynq drops what zap would drop anyway.
func (l asynqLog) level() asynq.LogLevel {
	switch {
	case l.log.Core().Enabled(zapcore.DebugLevel):
		return asynq.DebugLevel
	case l.log.Core().Enabled(zapcore.InfoLevel):
		return asynq.InfoLevel
	case l.log.Core().Enabled(zapcore.WarnLevel):
		return asynq.WarnLevel
	default:
		return asynq.ErrorLevel
	}
}

func (l asynqLog) Debug(args ...any) { l.log.Debug(fmt.Sprint(args...)) }
func (l asynqLog) Info(args ...any)  { l.log.Info(fmt.Sprint(args...)) }
func (l asynqLog) Warn(args ...any)  { l.problem(zapcore.WarnLevel, fmt.Sprint(args...)) }
func (l asynqLog) Error(args ...any) { l.problem(zapcore.ErrorLevel, fmt.Sprint(args...)) }
func (l asynqLog) Fatal(args ...any) { l.log.Fatal(fmt.Sprint(args...)) }

// problem logs a warning or an error of asynq, or counts it as a failure of Redis.
func (l asynqLog) problem(level zapcore.Level, msg string) {
	if l.seen.carries(msg) {
		l.outages.Failed(redisCause, asynqError(msg))
		return
	}
	l.log.Log(level, msg)
}

// asynqError is a message of asynq's log as an error.
type asynqError string

func (e asynqError) Error() string { return string(e) }

// unreachable is a hook of the worker's Redis client (redis.Hook) that keeps the texts of the
// last few errors saying that Redis cannot be reached (unreachableErr). Safe for concurrent use.
type unreachable struct {
	mu    sync.Mutex
	texts [8]string // a ring of distinct texts
	next  int
}

// note keeps err's text when err says that Redis cannot be reached.
func (u *unreachable) note(err error) {
	if err == nil || !unreachableErr(err) {
		return
	}
	text := err.Error()
	u.mu.Lock()
	defer u.mu.Unlock()
	if slices.Contains(u.texts[:], text) {
		return
	}
	u.texts[u.next] = text
	u.next = (u.next + 1) % len(u.texts)
}

// carries reports whether msg holds the text of one of the kept errors.
func (u *unreachable) carries(msg string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, text := range u.texts {
		if text != "" && strings.Contains(msg, text) {
			return true
		}
	}
	return false
}

// unreachableErr reports whether err, an error of the Redis client, says that Redis cannot be
// reached rather than that a command was refused: a network error (a dial refused, a connection
// reset or timed out, a name that does not resolve), a connection that ended (EOF), a closed
// client or a full pool, a command out of time, a Redis still loading its data.
func unreachableErr(err error) bool {
	if errors.Is(err, redis.ErrClosed) || errors.Is(err, redis.ErrPoolTimeout) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || redis.IsLoadingError(err) {
		return true
	}
	var nerr net.Error
	return errors.As(err, &nerr)
}

func (u *unreachable) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := next(ctx, network, addr)
		u.note(err)
		return conn, err
	}
}

func (u *unreachable) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		u.note(err)
		return err
	}
}

func (u *unreachable) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := next(ctx, cmds)
		u.note(err)
		for _, c := range cmds {
			u.note(c.Err())
		}
		return err
	}
}
