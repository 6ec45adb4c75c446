# The service's tasks. `make run` and `make test` are all a fresh machine with Go needs.
GO      ?= go
BIN     := bin
PKGS    := ./...
WIRE    := ./cmd/svc-api ./cmd/svc-worker ./cmd/svcctl

.PHONY: run build test test-short bench bench-smoke bench-go eval fuzz generate check-generate lint clean sdk-check

## run: build and start svc-api in the embedded environment (SQLite under ./data, in-process queue)
run: build
	./$(BIN)/svc-api

## build: build the three programs into ./bin
build:
	$(GO) build -o $(BIN)/ ./cmd/...

## sdk-check: drive a running svc-api with the official client libraries (OpenAI's Node SDKs, the
## stripe webhook verifier, the MCP TypeScript SDK, the Vercel AI SDK, LangChain): builds the
## programs, installs tests/sdk's pinned npm packages and runs tests/sdk/run.mjs (a fake upstream
## and svc-api on loopback). Needs Node.js 20+ and the npm registry; not part of `make test`.
## SDK_CHECKS picks checks (default all: openai openai4 builtin webhooks mcp mcpremote aisdk langchain).
sdk-check: build
	cd tests/sdk && npm ci --no-audit --no-fund && SVC_BIN=$(CURDIR)/$(BIN) node run.mjs $(SDK_CHECKS)

## test: every test: domain, app, adapters against SQLite, Postgres and Redis, end to end
test:
	$(GO) test -count=1 -timeout 30m $(PKGS)

## test-short: every test that needs no Postgres, Redis or built programs: `-short` makes
## internal/testenv skip the tests that ask it for Postgres or Redis, and tests/ skip the ones that
## build the programs. Tests on SQLite (embedded) still run, and so do the architecture test and
## the seed corpora of the fuzz targets.
test-short:
	$(GO) test -count=1 -short $(PKGS)

## bench: the load harness (tests/load_test.go): starts each environment (BENCH_ENVS, default
## embedded,production), a fake upstream on loopback and many accounts, measures the relay (one client
## at a time, fixed rates, closed loop, time to first byte), POST /v1/chat and webhook fan-out, each
## alternating with the upstream called directly over BENCH_ROUNDS rounds, and writes BENCHMARKS.md.
## BENCH_DURATION, BENCH_ACCOUNTS, BENCH_PROGRAM_ENV, BENCH_NOTE, ...: see loadConfigFromEnv.
bench:
	SVC_BENCH=1 $(GO) test -count=1 -run '^TestLoad$$' -v -timeout 90m ./tests/

## bench-smoke: the load harness in quick mode (a smoke run; writes no BENCHMARKS.md unless BENCH_OUT)
bench-smoke:
	SVC_BENCH=1 BENCH_QUICK=1 BENCH_OUT=$${BENCH_OUT:--} $(GO) test -count=1 -run '^TestLoad$$' -v -timeout 20m ./tests/

## bench-go: the Go micro-benchmarks (store, Brain search, reply engine, and the older end-to-end
## benchmarks of tests/)
bench-go:
	$(GO) test -run '^$$' -bench . -benchtime 2000x ./tests/ ./adapters/store/
	$(GO) test -run '^$$' -bench . -benchtime 200x ./domain/knowledge/ ./adapters/model/local/

## eval: the agent's answer quality on an intent set through the API (testdata/eval/README.md),
## then in process on it and on the small-Brain set;
## SVC_EVAL_FILE names another file of the same shape, SVC_EVAL_DEV=all asks every dev question
eval:
	$(GO) test -count=1 -tags eval -run '^TestEval$$' -v -timeout 60m ./tests/
	SVC_EVAL=1 $(GO) test -count=1 -run '^(TestEvalFigures|TestEvalBusinesses)$$' -v ./adapters/model/local/

## fuzz: run every fuzz target of the repository (each `func FuzzXxx` of a *_test.go) for FUZZTIME
## (10s unless set) in its package; their seed corpora already run in `make test`
FUZZTIME ?= 10s
fuzz:
	@set -e; grep -rl --include='*_test.go' --exclude-dir=.git '^func Fuzz' . | sort | while read -r file; do \
		dir=$$(dirname "$$file"); \
		for name in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$$file"); do \
			echo "== $$dir $$name ($(FUZZTIME))"; \
			$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) "$$dir"; \
		done; \
	done

## generate: regenerate the wire injectors, the gomock mocks and the minified widget script
## (adapters/httpapi/assets/widget.min.js, from widget.js by internal/tools/jsmin)
generate:
	$(GO) generate ./ports/... ./adapters/httpapi/
	$(GO) tool wire gen $(WIRE)

## check-generate: fail when the generated code differs from what `make generate` writes
check-generate: generate
	@git diff --exit-code -- ports/mock $(addsuffix /wire_gen.go,$(WIRE)) adapters/httpapi/assets/widget.min.js || \
		(echo "generated code is stale: run make generate and commit" >&2; exit 1)

## lint: go vet, gofmt and the architecture test
lint:
	$(GO) vet $(PKGS)
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) test -count=1 -run 'TestArchitecture' ./tests/

clean:
	rm -rf $(BIN) data
