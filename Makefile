# rea — build, test, benchmark. `make` builds every analyzer module as a
# metered wasip1 module, embeds them into bin/rea and warms the compile cache.

GO        ?= go
BIN       := bin/rea
RAW       := build/raw
EMBED     := wasm/embedded/modules
MODULES   := $(sort $(patsubst modules/%/main.go,%,$(wildcard modules/*/main.go)))
GOFLAGS_REPRO := -trimpath -buildvcs=false
# Modules are built with the profile-guided inliner turned up: in wasm a call
# costs as much as the work (docs/rationale.md). A module directory with a
# default.pgo (modules/jsapp) uses it; the flags do nothing without one.
# wasm/wasmtest.ModuleBuildFlags must say the same (a test checks).
MODULE_GOFLAGS := $(GOFLAGS_REPRO) -gcflags=all=-d=pgoinlinebudget=4000,pgoinlinecdfthreshold=99.9
FUZZTIME  ?= 500000x

.PHONY: wazero-check all modules rea test cross fuzz bench repro interop docs sizes realworld clean pgo accuracy hostile conformance-electronegativity

all: modules rea
	@$(BIN) modules warm

# Each module: go build for wasip1 (byte-reproducible), then meter + stamp.
modules: build/reawasm
	@mkdir -p $(RAW) $(EMBED)
	@$(GO) run $(GOFLAGS_REPRO) ./guidance/internal/snapshotgen -bundle guidance/bundle/reverse-engineer-anything -out guidance/bundle.index
	@for m in $(MODULES); do \
		GOOS=wasip1 GOARCH=wasm $(GO) build $(MODULE_GOFLAGS) -o $(RAW)/$$m.wasm ./modules/$$m || exit 1; \
		build/reawasm -in $(RAW)/$$m.wasm -out $(EMBED)/$$m.wasm || exit 1; \
	done
	@$(GO) run $(GOFLAGS_REPRO) ./wasm/cmd/embedindex -dir $(EMBED) -out wasm/embedded/modules_gen.go

build/reawasm: FORCE
	@$(GO) build $(GOFLAGS_REPRO) -o $@ ./wasm/cmd/reawasm

rea:
	$(GO) build $(GOFLAGS_REPRO) -o $(BIN) ./cmd/rea

# The test command of README and .ci/run: build once, then every Go test
# (unit tests and end-to-end tests that drive bin/rea), short fuzz runs
# (count-based: Go 1.26's duration-based -fuzztime can fail spuriously with
# "context deadline exceeded", golang/go#75804, fixed in Go 1.27), and
# black-box MCP interop with the TypeScript SDK client and the Inspector CLI.
# The sandbox's own tests run again under the race detector (70 s): its
# watchdog, fuel exhaustion and standby instances are where races would
# break limits; host/app and the others have run clean under -race
# but take minutes there.
test: all
	rm -rf build/test-results
	REA_BIN=$(abspath $(BIN)) REA_TEST_MODULE_DIR=$(abspath $(EMBED)) REA_RESULT_CACHE_DIR=$(abspath build/test-results) $(GO) test -count=1 -timeout 30m ./...
	$(GO) test -race -count=1 -timeout 10m ./host/sandbox/
	FUZZTIME=10000x ./scripts/fuzz.sh
	REA_BIN=$(abspath $(BIN)) REA_RESULT_CACHE_DIR=off ./scripts/interop/run.sh
	$(GO) run ./scripts/crosscheck darwin/arm64 windows/amd64

# The hostile-input suite: a corpus generated at run time (ASAR header
# lies, zip-slip, link escapes, bombs, FIFOs, sockets, devices, deep JS,
# runtime aborts, damaged caches, malformed MCP lines, cancels) driven
# through bin/rea; docs/hostile.md lists its cases and promises. `make
# test` runs it too (as part of ./...).
hostile: all
	REA_BIN=$(abspath $(BIN)) REA_TEST_MODULE_DIR=$(abspath $(EMBED)) REA_RESULT_CACHE_DIR=off $(GO) test -count=1 -timeout 15m -run '^TestHostile' ./cmd/rea

# rea builds for macOS and Windows too (process capture is Linux/Unix only
# and says so); this keeps it that way.
# cross builds the real binaries for macOS and Windows; make test type-checks
# the same code with scripts/crosscheck (a tenth of the CPU).
cross:
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/rea
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./cmd/rea

fuzz:
	FUZZTIME=$(FUZZTIME) ./scripts/fuzz.sh

bench: all
	REA_BIN=$(abspath $(BIN)) REA_TEST_MODULE_DIR=$(abspath $(EMBED)) ./scripts/bench.sh

# Regenerates the modules' profiles for profile-guided optimisation (the
# hot paths are the same functions in wasm): the jsapp module's from the
# native analysis of the generated 1 MB bundle and 3,000-module app, the
# normaliser's from esbuild's transforms of the TypeScript, JSX and ESM of
# the real apps `make accuracy` pins. Commit the results.
pgo:
	$(GO) test -run '^$$' -bench 'AnalyzeGeneratedApp|OneMegabyteBundle' -benchtime 3x -o build/jsengine.test -cpuprofile modules/jsapp/default.pgo ./jsengine
	$(GO) test -run '^$$' -bench 'TransformAccuracyApps' -benchtime 10x -o build/normalise.test -cpuprofile modules/normalise/default.pgo ./jsengine/normalise/esbuild

clean:
	rm -rf bin build $(EMBED)/*.wasm $(EMBED)/*.identity.json wasm/embedded/modules_gen.go

FORCE:

# Build the modules again at another path with an empty build cache and
# compare digests (reproducible builds).
repro:
	./scripts/repro.sh

# Upstream wazero's tests of the packages rea patches (third_party/wazero,
# REA_PATCHES.md), run over the patched files. A few minutes.
wazero-check:
	./scripts/wazero-check.sh

# Black-box MCP interop with the TypeScript SDK client and the Inspector CLI.
interop: all
	REA_BIN=$(abspath $(BIN)) REA_RESULT_CACHE_DIR=off ./scripts/interop/run.sh

# The generated product catalog for this exact source revision (not committed).
docs: rea
	$(BIN) catalog --output docs/product-catalog.json --source-revision "$$(git rev-parse HEAD 2>/dev/null)$$(git diff --quiet 2>/dev/null || echo -dirty)"

# Every MCP tool's default response size on the benchmark apps, native
# fixtures and live runtimes (headless Chromium, a Node inspector); fails
# when a tool in tools/list has no row. A few minutes: not part of make test.
sizes: all
	go run ./scripts/responsesizes -rea $(BIN) > docs/response-sizes.md.tmp && mv docs/response-sizes.md.tmp docs/response-sizes.md

# Opt-in: rea on real Electron code fetched from the npm registry (not part of make test).
realworld: all
	REA_BIN=$(abspath $(BIN)) ./scripts/realworld.sh

# Opt-in: rea's recall and precision against hand-labelled real Electron apps
# (accuracy/apps/*.json, pinned GitHub commits read from bare mirrors under
# REA_MIRRORS, default /work/.mirror, or npm versions with their integrity).
# Not part of make test: it needs the mirrors or the registry.
#   ACCURACY_APPS=name1,name2   score only these apps
accuracy: all
	@$(GO) build -o build/accuracy-bin ./accuracy
	@build/accuracy-bin -rea $(BIN) -work build/accuracy -json build/accuracy/scores.json $(if $(ACCURACY_APPS),-app $(ACCURACY_APPS))

# Opt-in (225 runs of bin/rea, minutes on a shared machine): rea over
# Electronegativity's per-check fixtures, agreement per check (see
# docs/conformance.md). ENG_FIXTURES is their test/checks directory.
ENG_FIXTURES ?= $(abspath ../shared/conformance/electronegativity/checks)
ENG_MIN      ?= 0.95
conformance-electronegativity: all
	$(GO) run ./scripts/conformance -rea $(abspath $(BIN)) -fixtures $(ENG_FIXTURES) -min $(ENG_MIN) -v
