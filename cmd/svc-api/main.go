// Command svc-api serves the HTTP interface. Without SVC_REDIS_URL it runs the embedded
// environment: SQLite by default, the queue and the rate limiter in process, migrations and a demo
// account on first start. With it, the production environment: asynq and the rate limiter on
// Redis, and svc-worker runs the queue's tasks.
package main

import (
	"context"
	"fmt"
	"os"
)

func main() {
	if err := run(context.Background(), os.LookupEnv, os.Environ()); err != nil {
		fmt.Fprintln(os.Stderr, "svc-api:", err)
		os.Exit(1)
	}
}
