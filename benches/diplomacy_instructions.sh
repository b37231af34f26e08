#!/bin/sh
# Machine instructions per Diplomacy phase at each level of benches/diplomacy.rs, counted by
# valgrind (the machine's load does not move them, unlike wall-clock figures). Needs valgrind
# and a built bench: `cargo bench --bench diplomacy --no-run`.
# Usage: benches/diplomacy_instructions.sh [N]   (N phases per count, default 200)
# With DIPLOMACY_TRUSTED=1 in the environment: the same with trusted rules (no instruction budget).
set -e
cd "$(dirname "$0")/.."
N=${1:-200}
BIN=$(ls -t target/release/deps/diplomacy-* | grep -v '\.d$' | head -1)
# (the largest count: the bench process; a short-lived child it forks is counted apart)
count() {
  DIPLOMACY_PHASES=$1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | sort -n | tail -1
}
# (resolve_apply, submit and orders_submit each copy a state once a phase, untimed by criterion:
# the copies, counted alone as state_copy, are subtracted from them)
for position in opening busy; do
  base=$(count "$position:resolve_apply:0")
  copy=$(( ($(count "$position:state_copy:$N") - base) / N ))
  for level in library_in_vm library_fresh_orders resolve_apply submit orders_submit; do
    total=$(( ($(count "$position:$level:$N") - base) / N ))
    case $level in library_*) ;; *) total=$(( total - copy )) ;; esac
    echo "$position $level${DIPLOMACY_TRUSTED:+ (trusted)}: $total instructions a phase"
  done
done
