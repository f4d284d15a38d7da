# Tiao — build, run and test. Two commands get a fresh machine going:
#   make run    build in release mode and start the text mode
#   make test   the whole test suite (formatting, lints, Rust and Python tests)

CARGO  ?= cargo
PYTHON ?= python3
TIAO   := target/release/tiao
VENV   := .venv
PYDRAUGHTS := pydraughts==0.6.7
SELENIUM   := selenium==4.38.0

.PHONY: all build build-modern build-portable run test lint unit pytest fuzz bench perft-deep match egdb clean

all: build

build:
	$(CARGO) build --release

# For CPUs with POPCNT and BMI2 (Intel since 2013, AMD since 2015): the same
# code with those instructions compiled in, faster (docs/benchmarks.md).
# The binary is target/modern/release/tiao; on an older CPU it says so and stops.
build-modern:
	RUSTFLAGS="-C target-feature=+popcnt,+bmi1,+bmi2,+lzcnt" CARGO_TARGET_DIR=target/modern $(CARGO) build --release

# The default build assumes x86-64-v2 (POPCNT; .cargo/config.toml). For an
# x86-64 CPU older than that: target/portable/release/tiao.
build-portable:
	RUSTFLAGS="-C target-cpu=x86-64" CARGO_TARGET_DIR=target/portable $(CARGO) build --release

run: build
	./$(TIAO)

# The suite CI runs: keep it under 20 minutes on 2 cores. It builds with the
# test profile only (optimised, with debug assertions; see Cargo.toml), and
# the Python client drives that same binary, so no separate release build.
TEST_TIAO := target/debug/tiao

test: lint unit pytest

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

unit:
	$(CARGO) test --workspace

# Real clients: pydraughts drives `tiao hub` through complete games,
# pydraughts' own DXP code plays `tiao dxp` in both TCP roles, and
# Selenium drives Debian's headless Chromium through `tiao gui` (the
# system chromium and chromium-driver, which .ci/run installs).
$(VENV)/.ready: Makefile
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet $(PYDRAUGHTS) $(SELENIUM)
	touch $@

pytest: $(VENV)/.ready
	$(CARGO) build --profile test --bin tiao
	$(VENV)/bin/python tests/python/hub_client.py ./$(TEST_TIAO)
	$(VENV)/bin/python tests/python/dxp_client.py ./$(TEST_TIAO)
	$(VENV)/bin/python tests/python/gui_browser.py ./$(TEST_TIAO)

# The fuzz tests (tests/fuzz.rs) run in `make test` with 256 cases per
# reader from a fixed seed (about 15 s). This is the long run: 50,000
# cases per reader from a new random seed each time (about 30 minutes on
# 2 cores). Not part of `make test`. FUZZ_CASES=N for another count.
FUZZ_CASES ?= 50000
fuzz:
	TIAO_FUZZ_CASES=$(FUZZ_CASES) TIAO_FUZZ_SEED=random $(CARGO) test --test fuzz

# Speed figures for docs/benchmarks.md (not part of `make test`).
bench: build
	@echo "== perft, bulk-counted (last ply from the move-list length)"
	./$(TIAO) perft --only 9
	./$(TIAO) perft --only 10
	./$(TIAO) perft --only --fen "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26" 12
	./$(TIAO) perft --only --variant russian 11
	./$(TIAO) perft --only --variant canadian 8
	@echo "== perft, every leaf move made"
	./$(TIAO) perft --only --make-all 9
	./$(TIAO) perft --only --make-all 10
	./$(TIAO) perft --only --make-all --fen "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26" 12
	./$(TIAO) perft --only --make-all --variant russian 11
	./$(TIAO) perft --only --make-all --variant canadian 8
	@echo "== perft with 2 threads"
	./$(TIAO) perft --only --threads 2 10
	@echo "== search bench (one thread, fixed depth)"
	./$(TIAO) bench
	@echo "== search bench, 2 threads (time to the same depth)"
	./$(TIAO) bench --threads 2
	@echo "== transposition table probe cost"
	./$(TIAO) bench --tt-probe
	@echo "== endgame database probes (tables from make egdb)"
	@if [ -d egdb/international ]; then ./$(TIAO) egdb bench; else echo "no egdb/ here: run make egdb first"; fi

# Endgame databases: international and Russian up to 5 pieces, generated
# here (minutes; not committed). Tiao uses them with `egdb-pieces` / `egdb`.
egdb: build
	./$(TIAO) egdb gen --variant international --pieces 5 --dir egdb
	./$(TIAO) egdb gen --variant russian --pieces 5 --dir egdb
	./$(TIAO) egdb gen --variant brazilian --pieces 5 --dir egdb

# A small self-play match (smoke test of the match runner).
match: build
	./$(TIAO) match --engine name=tiao-a cmd="./$(TIAO) hub" --engine name=tiao-b cmd="./$(TIAO) hub" --games 20 --tc nodes=2000 --pdn target/match-smoke.pdn

# The deepest perft values of /work/shared/reference/perft.md (minutes).
perft-deep:
	$(CARGO) test --release -p tiao-draughts --test perft -- --ignored --nocapture

clean:
	$(CARGO) clean
	rm -rf $(VENV)
