#!/usr/bin/env bash
# Benchmarks Strata against Apache Paimon 1.3.1 on the standard workload (shared/bench/WORKLOAD.md),
# in one JVM, side by side. Builds what it needs; the last line printed is the JSON result.
#   bench/run.sh [--warmups=2] [--runs=5] [--dir=/tmp] [--commits=10 --rows=200000 --keys=1000000 ...]
# Heap: BENCH_HEAP (default 4g).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -q -B -DskipTests -pl bench -am package >&2
# java -jar keeps Maven's classpath order from the manifest: it decides which zstd-jni wins
# (paimon-bundle carries an older unshaded copy).
exec java "-Xmx${BENCH_HEAP:-4g}" -jar bench/target/strata-bench.jar "$@"
