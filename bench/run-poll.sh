#!/usr/bin/env bash
# Issue 16's scale benchmark: one backlog poll round of the scheduler over 1,000 workload tables of
# 4 buckets (shared/bench/WORKLOAD.md's generator, write-only), side by side with the same poll of
# Apache Paimon 1.3.1 tables in the same JVM, as a ratio; then the scheduler's live heap over
# 1,000 rounds. Builds what it needs; the last line printed is the JSON result.
#   bench/run-poll.sh [--tables=1000] [--rounds=1000] [--paimon-rounds=20] [--heap-every=100]
#                     [--commits=4 --rows=200 --keys=1000] [--dir=/tmp/pollbench]
# Heap: BENCH_HEAP (default 1g), fixed (-Xms = -Xmx), so a heap that grows with rounds shows.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -q -B -DskipTests -pl bench -am package >&2
exec java "-Xms${BENCH_HEAP:-1g}" "-Xmx${BENCH_HEAP:-1g}" -cp bench/target/strata-bench.jar \
  io.strata.bench.PollBenchmark "$@"
