#!/usr/bin/env sh
# Runs Supabase's own auth-js suite (HS256 and RS256 runs) and supabase-js's integration.test.ts
# against localbase. Nothing fetched is kept in this repository: the suites are unpacked from a
# supabase/supabase-js git snapshot into a scratch folder, their test tooling is installed there
# from the npm registry, and localbase serves each run from a scratch project.
#
#   sh scripts/with-node.sh sh scripts/conformance/auth-js.sh <snapshot-git-dir> [scratch-dir] [run...]
#
# runs: rs (the suite as shipped: RS256 keys from test/generate-signing-keys.js), hs (no signing
# keys; the suite's minted keys signed with its HS256 jwt_secret instead), supabase-js. Default:
# all three. Port 54321 must be free (the suites hard-code it). Counts print per run; the jest
# JSON reports are left in the scratch folder.
set -eu
snapshot=${1:?usage: auth-js.sh <supabase-js snapshot git dir> [scratch dir] [rs|hs|supabase-js...]}
scratch=${2:-/tmp/authjs-suite}
shift $(($# > 1 ? 2 : 1))
runs=${*:-rs hs supabase-js}
repo=$(cd "$(dirname "$0")/../.." && pwd)
core=$scratch/packages/core

mkdir -p "$scratch"
git --git-dir="$snapshot" archive HEAD packages/core packages/shared/tracing tsconfig.base.json |
  tar -x -C "$scratch"

# The workspace's `catalog:` versions (pnpm-workspace.yaml), pinned for npm.
pin() {
  node -e '
    const fs = require("fs")
    const [file, deps, devDeps] = process.argv.slice(1)
    const p = JSON.parse(fs.readFileSync(file, "utf8"))
    p.dependencies = JSON.parse(deps)
    p.devDependencies = JSON.parse(devDeps)
    delete p.scripts
    fs.writeFileSync(file, JSON.stringify(p, null, 2))
  ' "$@"
}
jest='"jest":"30.4.2","ts-jest":"29.4.9","@types/jest":"30.0.0","@types/node":"20.19.9","typescript":"5.8.3"'

start_localbase() { # workdir
  # Every client of the suites is this machine, so the per-address auth limits are lifted, as
  # for localbase's own test stacks (relaxedAuthLimits): GoTrue behind the CLI applies them only
  # with a rate-limit header, which the suites never send.
  (cd "$repo" && exec env AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS=1000000 \
    AUTH_RATE_LIMIT_TOKEN_REFRESH=1000000 AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS=1000000 \
    AUTH_RATE_LIMIT_ANONYMOUS_USERS=1000000 \
    node packages/localbase/src/cli.ts start --workdir "$1" --port 54321 >"$1/localbase.log" 2>&1) &
  localbase=$!
  for _ in $(seq 90); do curl -sf http://127.0.0.1:54321/health >/dev/null && return; sleep 1; done
  echo "localbase did not start; see $1/localbase.log" >&2
  exit 1
}
stop_localbase() {
  kill "$localbase" 2>/dev/null || true
  wait "$localbase" 2>/dev/null || true
}
trap stop_localbase EXIT

count() { # jest json report
  node -e 'const r = require(process.argv[1]); console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numTotalTests} total`)' "$1"
}

auth_js_setup() {
  [ -d "$core/auth-js/node_modules" ] && return
  pin "$core/auth-js/package.json" '{"tslib":"2.8.1"}' \
    "{$jest,\"@faker-js/faker\":\"9.9.0\",\"@types/jsonwebtoken\":\"8.5.9\",\"jest-environment-jsdom\":\"30.4.1\",\"jest-mock-server\":\"0.1.0\",\"jsonwebtoken\":\"9.0.2\",\"prettier\":\"3.6.2\"}"
  (cd "$core/auth-js" && npm install --no-audit --no-fund --ignore-scripts >/dev/null)
  (cd "$core/auth-js/test" && node generate-signing-keys.js >/dev/null)
}

auth_js_run() { # rs|hs
  auth_js_setup
  project=$scratch/project-$1
  rm -rf "$project" && mkdir -p "$project/supabase"
  cp "$core/auth-js/test/supabase/config.toml" "$project/supabase/"
  suite=$core/auth-js
  if [ "$1" = rs ]; then
    cp "$core/auth-js/test/supabase/signing_keys.json" "$project/supabase/"
  else
    sed -i '/^signing_keys_path/d' "$project/supabase/config.toml"
    # A copy whose minted anon, service_role and admin keys are HS256 with the jwt_secret.
    suite=$core/auth-js-hs
    rm -rf "$suite" && mkdir -p "$suite"
    for entry in "$core/auth-js"/* "$core/auth-js"/.[!.]*; do
      [ -e "$entry" ] || continue
      [ "$(basename "$entry")" = node_modules ] || cp -r "$entry" "$suite/"
    done
    ln -s "$core/auth-js/node_modules" "$suite/node_modules"
    perl -0pi -e "s/privateKey,\n  \{ algorithm: 'RS256', keyid: rsaKey.kid \}/GOTRUE_JWT_SECRET,\n  { algorithm: 'HS256' }/g" \
      "$suite/test/lib/clients.ts"
  fi
  start_localbase "$project"
  (cd "$suite" && npx jest -c jest.config.cli.js --runInBand --coverage=false --json \
    --outputFile="$scratch/auth-js-$1.json" >"$scratch/auth-js-$1.log" 2>&1) || true
  stop_localbase
  echo "auth-js $1: $(count "$scratch/auth-js-$1.json")"
}

supabase_js_run() {
  sb=$core/supabase-js
  if [ ! -d "$sb/node_modules" ]; then
    pin "$sb/package.json" '{"tslib":"2.8.1","@supabase/phoenix":"0.4.5","iceberg-js":"0.8.1"}' \
      "{$jest,\"@jest/globals\":\"30.0.0\",\"@jest/types\":\"30.0.0\",\"@opentelemetry/api\":\"1.9.0\",\"@opentelemetry/context-async-hooks\":\"2.8.0\",\"@opentelemetry/core\":\"2.8.0\",\"@opentelemetry/sdk-trace-node\":\"2.8.0\",\"@types/jsonwebtoken\":\"8.5.9\",\"jsonwebtoken\":\"9.0.2\",\"ws\":\"8.18.3\"}"
    (cd "$sb" && npm install --no-audit --no-fund --ignore-scripts >/dev/null)
  fi
  # The sibling packages of the same snapshot, compiled from source by ts-jest.
  cat >"$sb/jest.config.localbase.js" <<'EOF'
module.exports = {
  testEnvironment: 'node',
  setupFilesAfterEnv: ['<rootDir>/jest.setup.ts'],
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { diagnostics: false, tsconfig: { module: 'commonjs', target: 'es2020', esModuleInterop: true } }],
  },
  moduleDirectories: ['node_modules', '<rootDir>/node_modules'],
  moduleNameMapper: {
    '^@supabase/(auth-js|functions-js|postgrest-js|realtime-js|storage-js)$': '<rootDir>/../$1/src/index.ts',
    '^@supabase/tracing$': '<rootDir>/../../shared/tracing/src/index.ts',
  },
  testMatch: ['<rootDir>/test/integration.test.ts'],
}
EOF
  rm -rf "$sb/.sourcebook"
  start_localbase "$sb"
  (cd "$sb" && npx jest -c jest.config.localbase.js --runInBand --forceExit --json \
    --outputFile="$scratch/supabase-js.json" >"$scratch/supabase-js.log" 2>&1) || true
  stop_localbase
  echo "supabase-js integration.test.ts: $(count "$scratch/supabase-js.json")"
}

for run in $runs; do
  case $run in
    rs | hs) auth_js_run "$run" ;;
    supabase-js) supabase_js_run ;;
    *) echo "unknown run: $run" >&2 && exit 2 ;;
  esac
done
