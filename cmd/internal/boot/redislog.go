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

// Printf logs one report of go-redis as a warning.
func (l redisLog) Printf(_ context.Context, format string, v ...any) {
	l.log.Warn(strings.TrimPrefix(fmt.Sprintf(format, v...), "redis: "))
}

// logRedisWith makes go-redis report through log. go-redis keeps one logger per process, so the
// programs set it here, once, at start.
func logRedisWith(log *zap.Logger) {
	redis.SetLogger(redisLog{log: log.Named("redis")})
}
