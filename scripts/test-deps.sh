#!/usr/bin/env bash
# Installs the system programs the test suite talks to for real: Dovecot (IMAP
# and LMTP) for the mail tests and Chromium for the HTML report check. Safe to
# run again: it installs only what is missing. Installing needs root (apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/mail-setup.sh
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "test-deps: Chromium is missing; install Debian's chromium package as root to run the HTML report check" >&2
  exit 1
fi
echo "test-deps: installing chromium"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium >/dev/null
