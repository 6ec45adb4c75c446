package tests

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"
)

// The report of the load harness and what it reads from /proc.

// clockTicks is USER_HZ, the unit of the CPU times in /proc/<pid>/stat (100 on Linux).
const clockTicks = 100

// cpuSeconds returns the user plus system CPU time of process pid so far, 0 when it cannot be
// read (the process ended, or not Linux).
func cpuSeconds(pid int) float64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command (which may hold spaces) in parentheses: state is field 3,
	// utime and stime are fields 14 and 15.
	i := strings.LastIndexByte(string(raw), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(raw[i+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / clockTicks
}

// cpuSnap is the CPU seconds of each watched process so far, by role and pid.
type cpuSnap map[string]map[int]float64

// cpuOf reads the CPU seconds of the processes (for a role with pids, of those it names now).
func cpuOf(procs []watchedProc) cpuSnap {
	out := make(cpuSnap, len(procs))
	for _, p := range procs {
		pids := []int{p.pid}
		if p.pids != nil {
			pids = p.pids()
		}
		if out[p.role] == nil {
			out[p.role] = map[int]float64{}
		}
		for _, pid := range pids {
			out[p.role][pid] = cpuSeconds(pid)
		}
	}
	return out
}

// since returns the CPU seconds of each role between before and now: a process that was not
// there before counts from zero, one that is gone no more.
func (now cpuSnap) since(before cpuSnap) map[string]float64 {
	out := map[string]float64{}
	for role, pids := range now {
		for pid, v := range pids {
			out[role] += v - before[role][pid]
		}
	}
	return out
}

// postgresBackends returns a function listing the pids of the Postgres server processes serving
// the database of dsn (its connections), other than the harness's own; nil when Postgres cannot
// be asked. The server must run on this machine for their /proc entries.
func postgresBackends(t testing.TB, dsn string) func() []int {
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn)))
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { _ = db.Close() })
	return func() []int {
		rows, err := db.Query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
		if err != nil {
			return nil
		}
		defer rows.Close()
		var pids []int
		for rows.Next() {
			var pid int
			if rows.Scan(&pid) == nil {
				pids = append(pids, pid)
			}
		}
		return pids
	}
}

// memoryKB returns the peak (VmHWM) and current (VmRSS) resident memory of pid in kB.
func memoryKB(pid int) (peak, now int64) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		switch name {
		case "VmHWM":
			peak = n
		case "VmRSS":
			now = n
		}
	}
	return peak, now
}

// redisPid finds the redis-server that listens on the port of the redis:// URL raw (the stack's
// own), 0 when there is none on this machine's /proc.
func redisPid(raw string) int {
	u, err := url.Parse(raw)
	if err != nil || u.Port() == "" {
		return 0
	}
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, path := range dirs {
		cmd, err := os.ReadFile(path)
		prog, _, _ := strings.Cut(string(cmd), "\x00")
		if err != nil || filepath.Base(strings.Fields(prog + " x")[0]) != "redis-server" {
			continue
		}
		args := strings.ReplaceAll(string(cmd), "\x00", " ")
		if strings.Contains(args, ":"+u.Port()+" ") || strings.HasSuffix(strings.TrimSpace(args), ":"+u.Port()) ||
			strings.Contains(args, "--port "+u.Port()+" ") {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			return pid
		}
	}
	return 0
}

func readLoadavg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(raw))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func cpuModel() string {
	raw, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if name, value, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "model name" {
			return strings.TrimSpace(value)
		}
	}
	return "unknown"
}

func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(out))
}

// ---------------------------------------------------------------------------------------------
// The report

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// spread prints the values of the rounds: one value, or the lowest and the highest.
func spread(vals []float64, format string) string {
	if len(vals) == 0 {
		return "—"
	}
	lo, hi := vals[0], vals[0]
	for _, v := range vals {
		lo, hi = min(lo, v), max(hi, v)
	}
	a, b := fmt.Sprintf(format, lo), fmt.Sprintf(format, hi)
	if a == b {
		return a
	}
	return a + "–" + b
}

// quantileMs returns the q-quantile of sorted latencies in milliseconds.
func quantileMs(sorted []time.Duration, q float64) float64 { return percentile(sorted, q) / 1000 }

func (h *loadHarness) report(started time.Time, loadBefore string) string {
	cfg := h.cfg
	var b strings.Builder
	host, _ := os.Hostname()
	kernel, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	fmt.Fprintf(&b, "# Benchmarks\n\n")
	fmt.Fprintf(&b, "Written by the load harness: `make bench` (`tests/load_test.go`; `make bench-smoke` for a quick run, `make bench-go` for the Go micro-benchmarks).\n")
	fmt.Fprintf(&b, "Every figure below comes from one run; the README quotes this file.\n\n")
	if cfg.note != "" {
		fmt.Fprintf(&b, "**%s**\n\n", cfg.note)
	}
	if cfg.quick {
		fmt.Fprintf(&b, "**Quick mode (BENCH_QUICK=1): a smoke run; the figures mean little.**\n\n")
	}
	fmt.Fprintf(&b, "## Machine\n\n")
	fmt.Fprintf(&b, "- date: %s (run took %s)\n", started.UTC().Format("2006-01-02 15:04 MST"), time.Since(started).Round(time.Second))
	fmt.Fprintf(&b, "- host: %s, %d cores, %s, Linux %s\n", host, runtime.NumCPU(), cpuModel(), strings.TrimSpace(string(kernel)))
	fmt.Fprintf(&b, "- Go: %s\n", goVersion())
	fmt.Fprintf(&b, "- load average (1, 5, 15 min) at the start: %s; at the end: %s\n\n", loadBefore, readLoadavg())

	fmt.Fprintf(&b, "## Method\n\n")
	fmt.Fprintf(&b, "- Systems: `direct` = the fake upstream called directly (the baseline); ")
	for i, s := range h.systems[1:] {
		if i > 0 {
			b.WriteString("; ")
		}
		env, base := strings.CutSuffix(s.name, " (base)")
		switch env {
		case "embedded":
			fmt.Fprintf(&b, "`%s` = svc-api on SQLite with the in-process queue and limiter", s.name)
		case "production":
			fmt.Fprintf(&b, "`%s` = svc-api + svc-worker on Postgres + Redis (a redis-server of its own)", s.name)
		}
		if base {
			fmt.Fprintf(&b, ", the programs of `%s` (BENCH_BASE_BIN)", cfg.baseBin)
			if len(cfg.baseEnv) > 0 {
				fmt.Fprintf(&b, " with `%s`", strings.Join(pairs(cfg.baseEnv), " "))
			}
		}
	}
	b.WriteString(". Each environment runs two svc-api: one whose model is the fake upstream (the relay rows) and one with the built-in engine (`POST /v1/chat`, webhooks).\n")
	fmt.Fprintf(&b, "- Rounds: %d; in each, every measure runs on every system in turn, the first system changing from round to round. Ranges are the lowest–highest of the rounds.\n", cfg.rounds)
	fmt.Fprintf(&b, "- %d relay accounts and %d chat accounts per environment (pro plan, no interaction cap), one key each; each request uses the next key, so no two requests in a row share one.\n", cfg.accounts, cfg.chatAccounts)
	fmt.Fprintf(&b, "- One at a time: %d requests (%d streams) per system and round, the systems alternating request by request. Fixed rates: open loop for %s, each request sent at its scheduled time on its own goroutine and measured from that time (no coordinated omission). Closed loop: each client sends when its last answer arrived, for %s.\n", cfg.samples, cfg.streams, cfg.duration, cfg.duration)
	fmt.Fprintf(&b, "- Webhooks: %d accounts with %d webhooks each to a loopback receiver; the events (FAQ upserts) are sent at once, deliveries/s from the first upsert to the last arrival, latency from the event's created_at to the arrival.\n", cfg.hookAccounts, hooksPerBenchAccount)
	fmt.Fprintf(&b, "- CPU: user + system seconds from /proc/<pid>/stat per 1,000 requests (deliveries), per process; `postgres` sums the server processes of the stack's database connections (the shared server's own background work is not counted). `added` = the system's p50 minus the direct p50 of the same round. req/s: answers per second of wall time (of a one-at-a-time measure, 1 / mean latency; of a fixed rate, until the last answer).\n")
	if len(cfg.programEnv) > 0 {
		fmt.Fprintf(&b, "- Program environment added: `%s`\n", strings.Join(pairs(cfg.programEnv), " "))
	}
	b.WriteString("\n## Results\n\n")
	b.WriteString("| measure | system | requests | errors | req/s | p50 ms | p90 ms | p99 ms | added p50 ms | CPU s / 1,000 requests |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n")
	var failures []string
	for _, name := range h.order {
		bySystem := h.results[name]
		direct := bySystem["direct"]
		for _, s := range h.systems {
			rounds := bySystem[s.name]
			if len(rounds) == 0 {
				continue
			}
			var p50, p90, p99, rps, added []float64
			total, errs := 0, 0
			cpu := map[string]float64{}
			for i, r := range rounds {
				total += r.ok + r.errs
				errs += r.errs
				if r.errs > 0 {
					failures = append(failures, fmt.Sprintf("%s, %s, round %d: %d errors; the first: %s", name, s.name, i+1, r.errs, r.firstErr))
				}
				for role, v := range r.cpu {
					cpu[role] += v
				}
				if r.ok == 0 {
					continue
				}
				p50 = append(p50, quantileMs(r.latencies, 0.50))
				p90 = append(p90, quantileMs(r.latencies, 0.90))
				p99 = append(p99, quantileMs(r.latencies, 0.99))
				if r.wall > 0 {
					rps = append(rps, float64(r.ok)/r.wall.Seconds())
				}
				if s.name != "direct" && i < len(direct) && direct[i].ok > 0 {
					added = append(added, quantileMs(r.latencies, 0.50)-quantileMs(direct[i].latencies, 0.50))
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s |\n", name, s.name, total, errs,
				spread(rps, "%.0f"), spread(p50, "%.2f"), spread(p90, "%.2f"), spread(p99, "%.2f"),
				spread(added, "%+.2f"), cpuCell(cpu, total))
		}
	}
	keyedRows := 0
	for _, name := range h.order {
		bySystem := h.results[name]
		direct := bySystem["direct"]
		for _, s := range h.systems {
			var warm, cold, addedWarm, addedCold []float64
			nWarm, nCold := 0, 0
			for i, r := range bySystem[s.name] {
				if len(r.warm)+len(r.cold) == 0 {
					continue
				}
				nWarm, nCold = nWarm+len(r.warm), nCold+len(r.cold)
				base := -1.0
				if i < len(direct) && direct[i].ok > 0 {
					base = quantileMs(direct[i].latencies, 0.50)
				}
				for _, part := range []struct {
					lat          []time.Duration
					p50s, addeds *[]float64
				}{{r.warm, &warm, &addedWarm}, {r.cold, &cold, &addedCold}} {
					if len(part.lat) == 0 {
						continue
					}
					p := quantileMs(part.lat, 0.50)
					*part.p50s = append(*part.p50s, p)
					if base >= 0 {
						*part.addeds = append(*part.addeds, p-base)
					}
				}
			}
			if nWarm+nCold == 0 {
				continue
			}
			if keyedRows == 0 {
				b.WriteString("\n## One at a time, by the key's last use\n\n")
				fmt.Fprintf(&b, "A request is warm when the harness sent its key within %s (the service may reuse its key's check), cold otherwise (its key is read). `added` is over the direct p50 of the same round.\n\n", keyKeptFor)
				b.WriteString("| measure | system | warm requests | warm p50 ms | warm added p50 ms | cold requests | cold p50 ms | cold added p50 ms |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
			}
			keyedRows++
			fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %d | %s | %s |\n", name, s.name, nWarm, spread(warm, "%.2f"), spread(addedWarm, "%+.2f"),
				nCold, spread(cold, "%.2f"), spread(addedCold, "%+.2f"))
		}
	}
	if cfg.countStmts {
		b.WriteString("\n## Postgres statements per request (chat process and worker, through the harness's counting proxy)\n\n")
		b.WriteString("| measure | system | statements / request | round trips / request |\n|---|---|---:|---:|\n")
		for _, name := range h.order {
			for _, s := range h.systems {
				var n pgCounts
				total := 0
				for _, r := range h.results[name][s.name] {
					n.stmts += r.stmts.stmts
					n.trips += r.stmts.trips
					total += r.ok + r.errs
				}
				if s.stmts == nil || total == 0 {
					continue
				}
				fmt.Fprintf(&b, "| %s | %s | %.1f | %.1f |\n", name, s.name, float64(n.stmts)/float64(total), float64(n.trips)/float64(total))
			}
		}
	}
	b.WriteString("\n## Memory: peak RSS per process (VmHWM at the end of the run)\n\n")
	b.WriteString("| system | process | peak RSS MB | RSS at the end MB |\n|---|---|---:|---:|\n")
	for _, s := range h.systems {
		for _, p := range s.procs {
			if p.pids != nil || (p.role == benchRole && s.name != "direct") {
				continue
			}
			peak, now := memoryKB(p.pid)
			fmt.Fprintf(&b, "| %s | %s | %.1f | %.1f |\n", s.name, p.role, float64(peak)/1024, float64(now)/1024)
		}
	}
	if len(failures) > 0 {
		b.WriteString("\n## Errors\n\n")
		for _, f := range failures {
			fmt.Fprintf(&b, "- %s\n", f)
		}
	}
	return b.String()
}

// cpuCell prints the CPU seconds per 1,000 requests of each process, the largest first.
func cpuCell(cpu map[string]float64, requests int) string {
	if requests == 0 || len(cpu) == 0 {
		return "—"
	}
	roles := make([]string, 0, len(cpu))
	for role, v := range cpu {
		if v*1000/float64(requests) >= 0.005 { // an idle process of the system is left out
			roles = append(roles, role)
		}
	}
	sort.Slice(roles, func(i, j int) bool { return cpu[roles[i]] > cpu[roles[j]] })
	parts := make([]string, 0, len(roles))
	for _, role := range roles {
		parts = append(parts, fmt.Sprintf("%s %.2f", role, cpu[role]*1000/float64(requests)))
	}
	return strings.Join(parts, "; ")
}

// pairs joins name, value pairs as NAME=value.
func pairs(kv []string) []string {
	var out []string
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, kv[i]+"="+kv[i+1])
	}
	return out
}
