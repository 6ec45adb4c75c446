package boot

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"
)

// redisLog hands go-redis's own reports (a connection pool that cannot dial, a connection that
// does not close) to the program's logger. Without it go-redis writes them to stderr in a format
// of its own ("redis: 2026/11/28 21:33:46 pool.go:770: …"), lines among the JSON entries that a
// log collector cannot parse, and many of them while Redis is down.
type redisLog struct{ log *zap.Logger }

// Printf logs one report of go-redis as a warning, except a failed dial, logged at debug level:
// go-redis reports one per command while Redis is down (several a second), and the programs log
// such an outage themselves, once when it starts and once when it ends (the rate limiter,
// svc-worker's check of Redis, the outbox relay).
func (l redisLog) Printf(_ context.Context, format string, v ...any) {
	msg := strings.TrimPrefix(fmt.Sprintf(format, v...), "redis: ")
	if strings.Contains(msg, "failed to dial") || strings.Contains(msg, "failed to get a usable connection") {
		l.log.Debug(msg)
		return
	}
	l.log.Warn(msg)
}

// logRedisWith makes go-redis report through log. go-redis keeps one logger per process, so the
// programs set it here, once, at start.
func logRedisWith(log *zap.Logger) {
	redis.SetLogger(redisLog{log: log.Named("redis")})
}
