#!/usr/bin/env bash
# Installs the system programs the test suite talks to for real: Dovecot (IMAP
# and LMTP) for the mail tests and Chromium for the HTML report check. Safe to
# run again: it installs only what is missing. Needs root (or sudo) for apt-get.
set -euo pipefail
missing=()
command -v dovecot >/dev/null 2>&1 || missing+=(dovecot-imapd dovecot-lmtpd)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "Installing test dependencies: ${missing[*]}"
# The packages' own services are never started: tests run private instances.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
  $SUDO chmod +x /usr/sbin/policy-rc.d
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
