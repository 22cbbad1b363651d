#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks (Chromium and its headless shell, canvas's build libraries, the npm packages including the
# pinned Node 24) and checks that the native pieces load. Quick and silent when nothing is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "setup: $*" >&2; }

missing=()
# Captures run on Playwright's headless build (chromium-headless-shell); the web tests drive the full browser.
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/lib/chromium/chromium-headless-shell ] || missing+=(chromium-headless-shell)
for package in libcairo2-dev libpango1.0-dev libgif-dev libjpeg-dev librsvg2-dev fonts-liberation poppler-utils; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    say "missing Debian packages: ${missing[*]}"
    say "install them, then run this again: sudo apt-get install -y ${missing[*]}"
    exit 1
  fi
fi

# npm install when node_modules is missing or older than the manifest or the lockfile.
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package.json -nt "$stamp" ] || { [ -f package-lock.json ] && [ package-lock.json -nt "$stamp" ]; }; then
  say "installing npm packages (about a minute on a fresh machine)"
  npm install --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi

export PATH="$PWD/node_modules/.bin:$PATH"
check_native='require("canvas"); require("resemblejs"); require("argon2");
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 17)) { console.error("node " + process.versions.node + " is too old"); process.exit(1); }'
if ! node -e "$check_native" 2>/dev/null; then
  say "rebuilding native modules (canvas, argon2)"
  npm rebuild canvas argon2 --loglevel=error
  node -e "$check_native" || { say "native modules do not load; see the README's troubleshooting section"; exit 1; }
fi
