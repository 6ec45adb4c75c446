package boot_test

import (
	"context"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/clock"
	"github.com/svcagent/svc/adapters/ratelimit"
	"github.com/svcagent/svc/cmd/internal/boot"
	"github.com/svcagent/svc/config"
	rl "github.com/svcagent/svc/domain/ratelimit"
)

// TestSlowRedis runs the rate limiter, as the programs assemble it, on a Redis of its own that
// stops answering for 2 s (DEBUG SLEEP 2: what a Redis stalled by a slow command, a fork or a
// swap looks like): a request's check waits SVC_REDIS_TIMEOUT at most, then is counted in memory
// (the limits fail open to the process, never closed), and the requests after it do not wait
// for Redis at all until it is tried again.
func TestSlowRedis(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a redis-server")
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("no redis-server")
	}
	// A port of its own: the shared test Redis serves other tests, which a DEBUG SLEEP would stall.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	_ = l.Close()
	srv := exec.Command(bin, "--bind", "127.0.0.1", "--port", port, "--save", "", "--appendonly", "no",
		"--dir", t.TempDir(), "--enable-debug-command", "local")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
	cfg, err := config.Load(func(name string) (string, bool) {
		v, ok := map[string]string{"SVC_REDIS_URL": "redis://" + addr + "/0", "SVC_REDIS_TIMEOUT": "300ms"}[name]
		return v, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	client, closeClient, err := boot.Redis(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeClient)
	ctx := context.Background()
	for deadline := time.Now().Add(5 * time.Second); client.Ping(ctx).Err() != nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("redis-server did not start")
		}
	}
	f := ratelimit.NewFallback(ratelimit.NewRedis(client), ratelimit.NewMemory(clock.New()), clock.New(),
		zap.NewNop(), boot.RateLimitOptions(cfg))
	limit := rl.Limit{Name: "slow", Count: 100, Period: time.Minute}
	if _, err := f.Allow(ctx, "s", limit); err != nil || f.Degraded() {
		t.Fatalf("with Redis answering: %v, degraded %v", err, f.Degraded())
	}

	sleeper := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { _ = sleeper.Close() })
	slept := make(chan error, 1)
	go func() { slept <- sleeper.Do(ctx, "DEBUG", "SLEEP", "2").Err() }()
	time.Sleep(100 * time.Millisecond) // the sleep has begun

	start := time.Now()
	res, err := f.Allow(ctx, "s", limit)
	took := time.Since(start)
	if err != nil || !res.Allowed {
		t.Fatalf("a check while Redis sleeps: %+v, %v, want allowed, counted in memory", res, err)
	}
	if took < 250*time.Millisecond || took > 800*time.Millisecond {
		t.Errorf("a check while Redis sleeps took %v, want about SVC_REDIS_TIMEOUT (300ms)", took)
	}
	if !f.Degraded() {
		t.Error("not degraded while Redis sleeps")
	}
	start = time.Now()
	for range 20 {
		if _, err := f.Allow(ctx, "s", limit); err != nil {
			t.Fatal(err)
		}
	}
	if took := time.Since(start); took > 100*time.Millisecond {
		t.Errorf("20 checks after the fallback took %v, want them counted in memory at once", took)
	}
	if err := <-slept; err != nil && !strings.Contains(err.Error(), "timeout") {
		t.Logf("DEBUG SLEEP: %v", err)
	}
}
