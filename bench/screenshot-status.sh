#!/usr/bin/env bash
# Screenshots of the scheduler's status page (GET /) in headless Chromium, at a phone's width and
# a desktop's, on a demo warehouse with a backlogged table: shows the page renders without a
# build step or external assets, and stays readable on a phone. Needs Chromium (or Chrome); the
# page itself is tested over HTTP in the suite (scheduler StatusPageTest, HealthServerTest).
#   bench/screenshot-status.sh [--out DIR]      (default bench/target/screenshots)
# Chromium: the first of $CHROMIUM, chromium, chromium-browser, google-chrome, google-chrome-stable
# on the PATH. Without one it says so and exits 3, taking no screenshot.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/bench/target/screenshots"
if [ "${1:-}" = "--out" ]; then out="$2"; fi

browser=""
for b in ${CHROMIUM:-} chromium chromium-browser google-chrome google-chrome-stable; do
  if command -v "$b" >/dev/null 2>&1; then browser="$(command -v "$b")"; break; fi
done
if [ -z "$browser" ]; then
  echo "screenshot-status: no Chromium found (looked for \$CHROMIUM, chromium, chromium-browser," \
       "google-chrome, google-chrome-stable on the PATH); install one or set CHROMIUM=/path/to/chrome." \
       "No screenshot taken." >&2
  exit 3
fi

work="$(mktemp -d)"
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

strata="$root/bin/strata"
wh="$work/warehouse"
# a table with a backlog: 8 write-only commits leave 8 sorted runs per bucket
"$strata" gen --warehouse "$wh" --table db.events --commits 8 --rows-per-commit 2000 --key-space 5000 \
  --buckets 4 --option write-only=true >/dev/null
cat > "$work/scheduler.yaml" <<YAML
warehouse: $wh
tables:
  databases:
    - name: db
defaults:
  expiration:
    cron: "0 0 * * * ?"
  # polls show the backlog; the thresholds are above it so the page shows it waiting
  backlog-compaction:
    poll-interval: 5s
    max-sorted-runs: 50
    max-level0-files: 50
YAML
port=$(( 20000 + RANDOM % 20000 ))
"$strata" scheduler run --config "$work/scheduler.yaml" --port "$port" >"$work/scheduler.log" 2>&1 &
pid=$!
for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then echo "screenshot-status: the scheduler exited:" >&2; cat "$work/scheduler.log" >&2; exit 1; fi
  sleep 0.5
done
sleep 6   # one backlog poll, so the page has buckets to show

mkdir -p "$out"
for size in 390,844 1280,900; do
  file="$out/status-${size/,/x}.png"
  "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" \
    --window-size="$size" --screenshot="$file" "http://127.0.0.1:$port/" >/dev/null 2>&1
  [ -s "$file" ] || { echo "screenshot-status: $browser wrote no $file" >&2; exit 1; }
  echo "$file"
done
