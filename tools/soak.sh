#!/usr/bin/env bash
# Soak test (docs/reliability.md): many whole games in one process, memory must stay flat.
#   tools/soak.sh                 10 000 demo games, then 1 000 France 1940 games (~25 min)
#   SOAK_DEMO=1000 SOAK_FRANCE=10 tools/soak.sh
# Exit 1 when memory grew past the limit, 2 when a game failed.
set -euo pipefail
cd "$(dirname "$0")/.."
demo=${SOAK_DEMO:-10000}
france=${SOAK_FRANCE:-1000}
growth=${SOAK_MAX_GROWTH:-1.1}
cargo build --release --example soak
bin=target/release/examples/soak
"$bin" scenarios/demo "$demo" --max-growth "$growth"
if [ "$france" -gt 0 ]; then
  "$bin" scenarios/france1940 "$france" --max-growth "$growth"
fi
