# evalgate's build, test, fuzz and benchmark entry points.
# `make test` is the one test command: README and .ci/run both run it.
# staticcheck is pinned in go.mod's tool directive: the first run fetches
# it through the Go module proxy, later runs use the module cache (offline).

GO       ?= go
FUZZTIME ?= 10s
# A new interesting input is minimized for at most this long, so that one
# slow minimization does not stall a run.
FUZZMINIMIZETIME ?= 5s
GOFILES  := $(shell git ls-files '*.go' 2>/dev/null)
# -trimpath keeps where the checkout lies out of every compiled package, so
# a fresh clone reuses the build cache a previous clone filled: without it a
# fresh clone's vet, staticcheck and test builds recompiled every package of
# the project (about 170 CPU-s on 2 cores; about 20 s with it).
GOFLAGS_ := $(shell $(GO) env GOFLAGS)
export GOFLAGS := $(strip $(GOFLAGS_) $(if $(filter -trimpath,$(GOFLAGS_)),,-trimpath))

.PHONY: build test controls update example fuzz bench bench-scale profile generate interop chromium hostile-table

build:
	$(GO) build -o evalgate ./cmd/evalgate

# interop/node_modules holds DuckDB (npm @duckdb/node-api), used only by the
# interop test that opens every table in a real engine.
interop/node_modules/.package-lock.json: interop/package.json interop/package-lock.json
	npm ci --prefix interop --no-audit --no-fund --loglevel=error

interop: interop/node_modules/.package-lock.json

# chromium is the headless browser the browser/ tests load report.html in:
# Debian's package, installed here when absent so that a clean CI machine
# gets it (as root, else through sudo).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser test"; \
	  sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq chromium >/dev/null; }

# The tests create and delete many small campaign and output directories.
# On a disk file system mounted with discard that churn was half of
# cmd/evalgate's CPU, as system time (150 s wall against 73 s in memory on
# 2 cores), so make test gives them a directory under /dev/shm when it is
# writable (peak use about 215 MB) and removes it afterwards; elsewhere the
# tests use TMPDIR as it is. go vet ./... runs every vet check on every
# package and its tests first, so go test runs none of its own (-vet=off:
# a second, smaller pass over the same files, which a fresh build cache
# pays for; no file of the project builds for 386 alone).
test: interop chromium
	@unformatted="$$(gofmt -l $(GOFILES))"; if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	@tmp=; if [ -d /dev/shm ] && [ -w /dev/shm ]; then \
	  tmp="$$(mktemp -d -p /dev/shm evalgate-test.XXXXXX)" && export TMPDIR="$$tmp"; fi; \
	trap '[ -z "$$tmp" ] || rm -rf "$$tmp"' EXIT; \
	echo "$(GO) test -vet=off ./...  (TMPDIR=$${TMPDIR:-/tmp})"; \
	$(GO) test -vet=off ./... && \
	echo "GOARCH=386 $(GO) test -vet=off ./stats/..." && \
	GOARCH=386 $(GO) test -vet=off ./stats/...

# controls builds the binary and runs the control suite from it alone,
# outside the source tree: every control and mutation, expected vs observed.
# make test does not run it: cmd/evalgate's TestControls runs the same
# command (controls --run) in an empty directory outside the tree and
# checks every result, so the suite runs once per make test.
controls:
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	$(GO) build -o "$$tmp/evalgate" ./cmd/evalgate || exit 1; \
	if (cd "$$tmp" && ./evalgate controls --run >controls.txt 2>&1); then \
	  tail -n 1 "$$tmp/controls.txt"; \
	else cat "$$tmp/controls.txt"; exit 1; fi

# update rewrites every golden file, generated document and script
# expectation: go test -update on each package whose tests import
# internal/golden (the one package that defines the flag).
GOLDEN_PKGS = $(shell $(GO) list -f '{{.ImportPath}}{{range .TestImports}} {{.}}{{end}}{{range .XTestImports}} {{.}}{{end}}' ./... | awk '/ github.com\/evalgate\/evalgate\/internal\/golden( |$$)/ {print $$1}')

update:
	$(GO) generate ./tables ./fixtures
	$(GO) test -count=1 $(GOLDEN_PKGS) -update

example:
	$(GO) run ./cmd/evalgate run --out out

# fuzz runs every fuzz target for FUZZTIME each.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$target"; \
	    $(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) $$pkg; \
	  done; \
	done

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

generate:
	$(GO) generate ./...

# bench-scale measures evalgate run beside sha256sum, DuckDB (interop/) and
# pandas + scipy on synthetic campaigns of BENCH_SIZES sessions
# (bench/scale.py), checks the peers agree with evalgate, and prints wall
# and CPU time (the run of median CPU of three rounds up to 100,000
# sessions, each round running every tool once in turn), peak RSS, evalgate run's peak and live heap by stage (from
# the Go GC trace of a second, untimed run), the ratios against the
# targets, markdown
# tables for the README's performance section, the load average and how
# long the whole run took (10k and 100k: under 15 minutes on the 2-core
# machine). It installs Debian's
# python3-pandas and python3-scipy when /usr/bin/python3 lacks them (make
# test never needs them). The campaigns are written to a temporary
# directory, removed afterwards.
BENCH_SIZES ?= 10000 100000

bench-scale: interop
	@/usr/bin/python3 -c 'import pandas, scipy' 2>/dev/null || \
	  { echo "installing python3-pandas python3-scipy (apt)"; \
	    apt-get install -y -q python3-pandas python3-scipy >/dev/null || \
	    { apt-get update -q >/dev/null && apt-get install -y -q python3-pandas python3-scipy >/dev/null; }; }
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	$(GO) build -o "$$tmp/evalgate" ./cmd/evalgate && \
	/usr/bin/python3 bench/scale.py "$$tmp/evalgate" "$$tmp" $(BENCH_SIZES)

# profile writes Go CPU and allocation profiles of evalgate run on the
# paired-review campaigns of PROFILE_SIZES sessions (evalgate synth, 5%
# model faults, seed 741) into PROFILE_DIR, and prints each stage's CPU
# (the CPU profile's samples are labelled by stage: go tool pprof -tags),
# the functions with the most CPU and those that allocate most. The
# campaigns are written to a temporary directory, removed afterwards.
PROFILE_SIZES ?= 10000 100000
PROFILE_DIR   ?= profile

profile:
	@mkdir -p $(PROFILE_DIR); tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	$(GO) build -o $(PROFILE_DIR)/evalgate ./cmd/evalgate || exit 1; \
	for n in $(PROFILE_SIZES); do \
	  $(PROFILE_DIR)/evalgate synth --kind paired-review --sessions $$n --seed 741 --faults 0.05 --out "$$tmp/c$$n" || exit 1; \
	  /usr/bin/time -f "evalgate run of $$n sessions: %e s wall, %U s user, %S s system, %M kB peak RSS" \
	    $(PROFILE_DIR)/evalgate run "$$tmp/c$$n" --out "$$tmp/o$$n" \
	    --cpuprofile $(PROFILE_DIR)/cpu-$$n.pprof --memprofile $(PROFILE_DIR)/mem-$$n.pprof >/dev/null || exit 1; \
	  echo "== $$n sessions: CPU by stage ($(PROFILE_DIR)/cpu-$$n.pprof)"; \
	  $(GO) tool pprof -tags $(PROFILE_DIR)/evalgate $(PROFILE_DIR)/cpu-$$n.pprof 2>/dev/null | grep -v '^ *$$'; \
	  echo "== $$n sessions: most CPU, cumulative"; \
	  $(GO) tool pprof -top -cum -nodecount 40 $(PROFILE_DIR)/evalgate $(PROFILE_DIR)/cpu-$$n.pprof 2>/dev/null | tail -n +6; \
	  echo "== $$n sessions: most bytes allocated ($(PROFILE_DIR)/mem-$$n.pprof)"; \
	  $(GO) tool pprof -sample_index=alloc_space -top -nodecount 25 $(PROFILE_DIR)/evalgate $(PROFILE_DIR)/mem-$$n.pprof 2>/dev/null | tail -n +5; \
	  rm -rf "$$tmp/c$$n" "$$tmp/o$$n"; \
	done

# hostile-table runs every hostile case of the CLI (cmd/evalgate's
# TestHostileTable: the hostile scripts make test runs, and the heavy ones
# of cmd/evalgate/testdata/hostile), each a subprocess of the evalgate
# binary built here under a deadline, and prints the markdown table of
# their exit codes, seconds, peak RSS and whether each case's expected
# behaviour held (docs/hostile.md holds one). About ten minutes on the
# 2-core machine; the cases run one at a time.
hostile-table:
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	$(GO) build -o "$$tmp/evalgate" ./cmd/evalgate && \
	$(GO) test -c -o "$$tmp/spool.test" ./spool || exit 1; \
	EVALGATE_BIN="$$tmp/evalgate" EVALGATE_SPOOL_TEST="$$tmp/spool.test" EVALGATE_HOSTILE_TABLE="$$tmp/table.md" \
	  $(GO) test -count=1 -parallel 1 -timeout 60m -run '^TestHostileTable$$' ./cmd/evalgate >"$$tmp/test.log" 2>&1; rc=$$?; \
	if [ -f "$$tmp/table.md" ]; then cat "$$tmp/table.md"; fi; \
	if [ $$rc -ne 0 ]; then tail -n 60 "$$tmp/test.log"; fi; exit $$rc
