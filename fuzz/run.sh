#!/usr/bin/env bash
# Runs every fuzz target for a fixed time (docs/reliability.md). Needs a nightly toolchain and
# cargo-fuzz (`cargo install cargo-fuzz`).
#   fuzz/run.sh                  every target, 60 s each
#   FUZZ_SECONDS=600 fuzz/run.sh orders save
#   FUZZ_SANITIZER=none fuzz/run.sh diplomacy_orders setup
# AddressSanitizer (the default) slows the targets that drive a Lua game 10-35x (most likely: every Lua
# allocation goes through it); hexwar's own `unsafe` code is confined to src/rules/lua_stack, so `none`
# is a fair trade for long runs, with an address-sanitized run now and then.
# Each target starts from fuzz/seeds/TARGET (committed) and grows fuzz/corpus/TARGET (not
# committed). A crash is written to fuzz/artifacts/TARGET/; reproduce it with
#   cargo +nightly fuzz run TARGET fuzz/artifacts/TARGET/crash-...
# and keep it as a regression case under tests/fuzz_regressions/TARGET/ (tests/fuzz_regressions.rs).
# Prints one line per target: executions, seconds, crashes.
set -uo pipefail
cd "$(dirname "$0")"
seconds=${FUZZ_SECONDS:-60}
sanitizer=${FUZZ_SANITIZER:-address}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(hex_map area_map scenario orders diplomacy_orders setup save)
fi
cargo +nightly fuzz build -O -s "$sanitizer" "${targets[@]}" 2>/dev/null ||
  cargo +nightly fuzz build -O -s "$sanitizer" || exit 2
mkdir -p last_run
status=0
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  before=$(ls "artifacts/$t" | wc -l)
  cargo +nightly fuzz run -O -s "$sanitizer" "$t" "corpus/$t" "seeds/$t" -- \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
    >"last_run/$t.log" 2>&1
  rc=$?
  after=$(ls "artifacts/$t" | wc -l)
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "last_run/$t.log" | grep -o '[0-9]*$' | tail -1)
  echo "$t ($sanitizer): ${runs:-?} executions in ${seconds} s, $((after - before)) new crash(es), exit $rc"
  [ "$rc" -ne 0 ] && status=1
done
exit $status
