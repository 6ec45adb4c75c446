package tests

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// profileDir is where a benchmark writes svc-api's pprof profiles when SVC_TEST_PROFILE_DIR names
// one: svc-api then runs with SVC_PROFILING=true, and profileAPI records the CPU profile of the
// first SVC_TEST_PROFILE_SECONDS (default 10) of the benchmark's run and the block, mutex and
// allocation (allocs, since the start) profiles at its end. Look at them with go tool pprof -top FILE.
func profileDir() string { return os.Getenv("SVC_TEST_PROFILE_DIR") }

// profileAPI starts recording svc-api's profiles for the benchmark b under name, when asked to
// (profileDir); the returned function ends the recording and writes the files.
func profileAPI(b testing.TB, api *proc, name string) func() {
	dir := profileDir()
	if dir == "" {
		return func() {}
	}
	seconds := 10
	if s, err := strconv.Atoi(os.Getenv("SVC_TEST_PROFILE_SECONDS")); err == nil && s > 0 {
		seconds = s
	}
	base := "http://" + api.metrics + "/debug/pprof/"
	fetch := func(path, file string) {
		client := &http.Client{Timeout: time.Duration(seconds+30) * time.Second}
		resp, err := client.Get(base + path)
		if err != nil {
			b.Logf("profile %s: %v", path, err)
			return
		}
		defer func() { _ = resp.Body.Close() }()
		raw, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Logf("profile %s: %s %v", path, resp.Status, err)
			return
		}
		if err := os.WriteFile(filepath.Join(dir, name+"."+file), raw, 0o600); err != nil {
			b.Logf("profile %s: %v", path, err)
		}
	}
	if name == "" { // a heap profile only
		fetch("heap", "heap.pprof")
		return func() {}
	}
	cpu := make(chan struct{})
	go func() {
		defer close(cpu)
		fetch("profile?seconds="+strconv.Itoa(seconds), "cpu.pprof")
	}()
	return func() {
		<-cpu
		fetch("block", "block.pprof")
		fetch("mutex", "mutex.pprof")
		fetch("allocs", "allocs.pprof")
	}
}
