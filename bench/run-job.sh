#!/usr/bin/env bash
# Issue 4's benchmark: full compaction of the standard workload through the compaction job
# (parallelism 1 and 2, on a MiniCluster started once; --cluster=per-run starts one per job) against
# the engine called directly and Apache Paimon 1.3.1, in one JVM. The last line printed is the JSON result.
#   bench/run-job.sh [--warmups=1] [--runs=3] [--dir=/tmp] [--cluster=shared|per-run]
#                    [--commits=10 --rows=200000 --keys=1000000]
# Heap: BENCH_HEAP (default 4g), fixed (-Xms = -Xmx), as Flink starts its TaskManagers: with only -Xmx,
# G1 shrinks the heap after the full GC each measurement starts with, and young collections and
# concurrent marking cycles then ran beside the rewrites of some jobs (on two cores, at the cost of
# parallelism 2 only).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -q -B -DskipTests -pl bench -am package >&2
exec java "-Xms${BENCH_HEAP:-4g}" "-Xmx${BENCH_HEAP:-4g}" -cp bench/target/strata-bench.jar io.strata.bench.JobBenchmark "$@"
