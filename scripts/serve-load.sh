#!/usr/bin/env bash
# Load on `slidetable serve` over loopback: starts the server on a free port (3x3 table from
# the cache, or --table PATH given here), runs crates/slidetable-serve/examples/load.rs against
# it (rounds of 1,000 checked requests, 25 at a time; the server's RSS before and after each),
# then stops the server with SIGTERM (graceful shutdown) and checks it exited 0.
#
#   scripts/serve-load.sh [--table PATH] [ROUNDS] [REQUESTS] [CONCURRENCY]
set -euo pipefail
cd "$(dirname "$0")/.."

table=()
if [[ "${1:-}" == "--table" ]]; then
    table=(--table "$2")
    shift 2
fi
cargo build --release --locked -p slidetable-cli -p slidetable-serve --example load
bin="${CARGO_TARGET_DIR:-target}/release/slidetable"
load="${CARGO_TARGET_DIR:-target}/release/examples/load"

out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$bin" serve --bind 127.0.0.1:0 "${table[@]}" >"$out" &
server=$!
for _ in $(seq 1 600); do
    grep -q "serving" "$out" && break
    sleep 0.1
done
url=$(sed -n 's/^slidetable: serving \(http[^ ]*\).*/\1/p' "$out")
if [[ -z "$url" ]]; then
    echo "serve-load: the server printed no URL" >&2
    kill "$server"
    exit 1
fi
echo "server $url (pid $server) on $(nproc) cores, $(uname -srm)"
status=0
"$load" "$url" "$server" "$@" || status=$?
kill -TERM "$server"
wait "$server" || { echo "serve-load: the server exited $?" >&2; exit 1; }
echo "server stopped on SIGTERM, exit 0"
exit "$status"
