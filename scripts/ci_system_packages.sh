#!/usr/bin/env bash
# Debian packages for the browser tests: Chromium and a CJK font. Idempotent.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || need+=(fonts-noto-cjk)
if [ "${#need[@]}" -gt 0 ] && [ "$(id -u)" = 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
