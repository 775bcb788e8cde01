#!/usr/bin/env bash
# Issue 15's maintenance benchmarks: snapshot expiration (time, and live heap against the number of
# snapshots) and orphan cleanup, Strata against Apache Paimon 1.3.1 in one JVM, on tables built from the
# standard workload (shared/bench/WORKLOAD.md). Builds what it needs; the last line printed is the JSON result.
#   bench/run-maintenance.sh [--warmups=1] [--runs=5] [--dir=/tmp] [--scenarios=expire,orphan,memory]
#                            [--snapshots=1000 --retain=10 --compact-every=3 --rows=500 --keys=20000]
#                            [--memory-snapshots=250,500,1000]
#                            [--orphan-commits=5500 --orphan-rows=200 --orphan-keys=20000 --orphans=5000]
# Heap: BENCH_HEAP (default 4g), fixed (-Xms = -Xmx).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -q -B -DskipTests -pl bench -am package >&2
exec java "-Xms${BENCH_HEAP:-4g}" "-Xmx${BENCH_HEAP:-4g}" -cp bench/target/strata-bench.jar \
  io.strata.bench.MaintenanceBenchmark "$@"
