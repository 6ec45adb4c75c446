package asynqq

import (
	"fmt"
	"strings"

	"github.com/hibiken/asynq"
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
type asynqLog struct {
	log     *zap.Logger
	outages *outage.Log
}

func newAsynqLog(log *zap.Logger, outages *outage.Log) asynqLog {
	return asynqLog{log: log.WithOptions(zap.AddStacktrace(zapcore.FatalLevel), zap.AddCallerSkip(1)), outages: outages}
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
	if unreachable(msg) {
		l.outages.Failed(redisCause, asynqError(msg))
		return
	}
	l.log.Log(level, msg)
}

// asynqError is a message of asynq's log as an error.
type asynqError string

func (e asynqError) Error() string { return string(e) }

// unreachable tells a message about Redis not answering: a connection refused, reset or timed
// out, a name that does not resolve, a closed or full pool, a command out of time, a Redis
// loading its data.
func unreachable(msg string) bool {
	for _, s := range []string{"connection refused", "connection reset", "broken pipe", "i/o timeout",
		"no such host", "EOF", "dial tcp", "client is closed", "connection pool timeout", "deadline exceeded", "LOADING"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
