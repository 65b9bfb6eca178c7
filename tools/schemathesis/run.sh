#!/usr/bin/env bash
# Schemathesis against the live embedded server, from outside: `npm start` on free ports and a
# temp DATA_DIR, then every check of Schemathesis (including ignored_auth) against
# /openapi.json with the bootstrap admin key. Exits non-zero on any failure.
#
# Environment (all optional):
#   SCHEMATHESIS_MAX_EXAMPLES  test cases per operation and phase (default 100; ~2-3 min on 2 cores)
#   SCHEMATHESIS_SEED          Hypothesis seed, to reproduce a run (default: random, printed)
#   SCHEMATHESIS_ARGS          extra arguments for `schemathesis run`
#   SCHEMATHESIS_REPORTS       report formats written to .data/schemathesis (default junit,har)
#   BINARY_CACHE_DIR           where the venv lives (default ~/.cache/webhook-service)
#
# Callback URLs: the run keeps CALLBACK_ALLOW_PRIVATE=false, so generated subscriptions with
# loopback/private/non-public hosts are refused with 400 and public-looking hosts fail DNS
# (400 'host does not resolve'); nothing is ever delivered outside this machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
here="$root/tools/schemathesis"

SCHEMATHESIS_VERSION=4.32.5
cache_dir="${BINARY_CACHE_DIR:-$HOME/.cache/webhook-service}"
venv="$cache_dir/schemathesis-venv"
max_examples="${SCHEMATHESIS_MAX_EXAMPLES:-100}"
seed="${SCHEMATHESIS_SEED:-$(( (RANDOM << 15) | RANDOM ))}"

log() { printf '[fuzz %ss] %s\n' "$SECONDS" "$*"; }

# --- Schemathesis in its own venv, reused while the pinned version matches.
if ! python3 -c 'import sys, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  log "Python 3.11 or newer (with the venv module) is needed to run Schemathesis $SCHEMATHESIS_VERSION"
  exit 1
fi
if [[ ! -x "$venv/bin/schemathesis" ]] || [[ "$("$venv/bin/schemathesis" --version 2>/dev/null)" != *" $SCHEMATHESIS_VERSION" ]]; then
  log "installing schemathesis $SCHEMATHESIS_VERSION into $venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
log "$("$venv/bin/schemathesis" --version)"

# --- Free ports (held open together, so they are distinct), temp data dir, admin key.
read -r PORT MONGO_PORT TEMPORAL_PORT TEMPORAL_UI_PORT WORKER_METRICS_PORT POSTGRES_PORT <<<"$(node -e '
const net = require("node:net");
const servers = Array.from({ length: 6 }, () => net.createServer());
Promise.all(servers.map((s) => new Promise((r) => s.listen(0, "127.0.0.1", () => r(s.address().port))))).then((ports) => {
  console.log(ports.join(" "));
  for (const s of servers) s.close();
});
')"
data_dir=$(mktemp -d "${TMPDIR:-/tmp}/webhook-fuzz-XXXXXX")
report_dir="$root/.data/schemathesis"
rm -rf "$report_dir"
mkdir -p "$report_dir"
# Schemathesis's cache and Hypothesis's example database (failures it replays first next time)
# persist across runs, under the ignored .data/ rather than the repository root.
export SCHEMATHESIS_CACHE_DIR="$root/.data/schemathesis-cache"
export HYPOTHESIS_STORAGE_DIRECTORY="$root/.data/hypothesis"
log_file="$report_dir/service.log"
ADMIN_API_KEY="whk_fuzz_$(node -e 'process.stdout.write(require("node:crypto").randomBytes(24).toString("base64url"))')"

service_pid=""
# npm does not pass SIGTERM on to the service it runs, so the whole process group (npm, the
# supervisor, API, worker and the embedded servers; setsid made it ours) gets it, and the
# supervisor stops everything as on Ctrl-C.
service_alive() { [[ -n "$service_pid" ]] && kill -0 -- "-$service_pid" 2>/dev/null; }
cleanup() {
  local code=$?
  if service_alive; then
    log "stopping the service (process group $service_pid)"
    kill -TERM -- "-$service_pid" 2>/dev/null || true
    for _ in $(seq 1 120); do
      service_alive || break
      sleep 0.5
    done
    if service_alive; then
      log "service did not stop within 60s; killing its process group"
      kill -KILL -- "-$service_pid" 2>/dev/null || true
    fi
    wait "$service_pid" 2>/dev/null || true
  fi
  rm -rf "$data_dir"
  if [[ $code -ne 0 && -s "$log_file" ]]; then
    log "service log (last 60 lines of $log_file):"
    tail -n 60 "$log_file" || true
  fi
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- The service, exactly as `npm start` runs it, in its own process group.
log "starting the service on 127.0.0.1:$PORT (data in $data_dir)"
env \
  PORT="$PORT" HOST=127.0.0.1 MONGO_PORT="$MONGO_PORT" TEMPORAL_PORT="$TEMPORAL_PORT" TEMPORAL_UI_PORT="$TEMPORAL_UI_PORT" WORKER_METRICS_PORT="$WORKER_METRICS_PORT" POSTGRES_PORT="$POSTGRES_PORT" \
  DATA_DIR="$data_dir" MONGODB_URI= TEMPORAL_ADDRESS= MONGODB_DB=webhooks \
  ADMIN_API_KEY="$ADMIN_API_KEY" CALLBACK_ALLOW_PRIVATE=false LOG_LEVEL=warn \
  DELIVERY_TIMEOUT=1s VALIDATE_RESPONSES=true NODE_ENV=development \
  setsid npm start >"$log_file" 2>&1 &
service_pid=$!

base="http://127.0.0.1:$PORT"
deadline=$((SECONDS + 300))
ready() {
  node -e 'fetch(process.argv[1], { signal: AbortSignal.timeout(5000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))' "$base/readyz"
}
until ready; do
  if ! kill -0 "$service_pid" 2>/dev/null; then
    log "the service exited before it was ready"
    exit 1
  fi
  if ((SECONDS > deadline)); then
    log "the service was not ready within 300s"
    exit 1
  fi
  sleep 1
done
log "service ready at $base"

# --- Data Schemathesis cannot create through the API here (see seed.ts): ids for the dictionaries.
node --import tsx "$here/seed.ts" "mongodb://127.0.0.1:$MONGO_PORT/" webhooks "$report_dir"

# --- A portal session (of an owner of its own, so a fuzzed expire-all of the admin owner does not
# end it), for the operations that take only a portal token.
PORTAL_SESSION_TOKEN=$(node -e '
fetch(process.argv[1] + "/api/webhooks/v1/portal-sessions", { method: "POST", headers: { Authorization: "Bearer " + process.argv[2], "Content-Type": "application/json" }, body: JSON.stringify({ owner_id: "schemathesis-portal", expires_in: 86400 }) })
  .then((r) => (r.status === 201 ? r.json() : Promise.reject(new Error("portal session: HTTP " + r.status))))
  .then((s) => process.stdout.write(s.token), (e) => { console.error(e.message); process.exit(1); });
' "$base" "$ADMIN_API_KEY")
# Read by schemathesis.toml: the admin key by default, the portal token where it says so.
export ADMIN_API_KEY PORTAL_SESSION_TOKEN

# --- Schemathesis: every check, bounded examples, one worker, request timeout.
log "running schemathesis (max $max_examples examples per operation, seed $seed)"
started=$SECONDS
set +e
# shellcheck disable=SC2086 # SCHEMATHESIS_ARGS is split on purpose
"$venv/bin/schemathesis" --config-file "$here/schemathesis.toml" run "$base/openapi.json" \
  --checks all \
  --max-examples "$max_examples" \
  --seed "$seed" \
  --workers 1 \
  --request-timeout 10 \
  --report "${SCHEMATHESIS_REPORTS:-junit,har}" \
  --report-dir "$report_dir" \
  ${SCHEMATHESIS_ARGS:-} 2>&1 |
  # Schemathesis closes with a pytest-style "=== 1 warning in 102.79s ===" line; CI's summary
  # readers take that for a pytest run that executed no test, so it is reworded here.
  sed -u -E 's/^=+ (.*) in ([0-9.]+)s =+$/schemathesis summary: \1 (\2 s)/'
status=${PIPESTATUS[0]}
set -e
log "schemathesis finished in $((SECONDS - started))s with exit code $status (reports in $report_dir)"
exit "$status"
