#!/usr/bin/env bash
# Issue 17's partial-update benchmark: the standard workload's upserts as four lagged CDC streams
# updating disjoint column groups of one wide partial-update table (WideStreams), ordered by
# sequence groups or by sequence.field; write-only ingest and a full compaction, Strata and
# Apache Paimon 1.3.1 side by side in one JVM on the same rows, as a ratio. Builds what it needs;
# the last line printed is the JSON result.
#   bench/run-partial-update.sh [--ordering=groups|sequence-field] [--warmups=1] [--runs=3]
#                               [--commits=10 --rows=200000 --keys=1000000 --seed=42] [--dir=/tmp]
#                               [--sort-spill-threshold=N]  (Strata only: an ablation of its merge fan-in)
# Heap: BENCH_HEAP (default 4g).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -q -B -DskipTests -pl bench -am package >&2
exec java "-Xmx${BENCH_HEAP:-4g}" -cp bench/target/strata-bench.jar io.strata.bench.PartialUpdateBenchmark "$@"
