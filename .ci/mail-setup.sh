#!/usr/bin/env bash
# Installs Dovecot (IMAP + LMTP) for the mail integration tests, which start their own instance per test
# file (test/support/mail-servers.ts). Idempotent: does nothing when both are installed already.
# The packaged system service is never started: the tests need only the binaries.
set -euo pipefail

have_dovecot() {
  command -v dovecot >/dev/null 2>&1 || [ -x /usr/sbin/dovecot ] || return 1
  # dovecot-core alone has neither protocol; the imap and lmtp packages add these binaries.
  [ -x /usr/lib/dovecot/imap ] && [ -x /usr/lib/dovecot/lmtp ]
}

if have_dovecot; then
  echo "mail-setup: dovecot $(/usr/sbin/dovecot --version 2>/dev/null || dovecot --version) already installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "mail-setup: installing dovecot needs root (apt-get); run as root or install dovecot-imapd dovecot-lmtpd" >&2
  exit 1
fi

# Keep the package's postinst from starting the system service. Docker images usually ship a
# policy-rc.d that says no (exit 101); add one for the duration of the install when there is none.
policy=/usr/sbin/policy-rc.d
created_policy=no
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\n# Temporary, from .ci/mail-setup.sh: start no services during the install.\nexit 101\n' >"$policy"
  chmod 0755 "$policy"
  created_policy=yes
fi
cleanup() {
  if [ "$created_policy" = yes ]; then rm -f "$policy"; fi
}
trap cleanup EXIT

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=120 dovecot-imapd dovecot-lmtpd >/dev/null

# On a host whose init ignores policy-rc.d (systemd with a preset), stop and disable the service anyway:
# it would hold ports 143/993 and is not what the tests use.
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  systemctl disable --now dovecot.service dovecot.socket >/dev/null 2>&1 || true
fi

have_dovecot || { echo "mail-setup: dovecot still missing after install" >&2; exit 1; }
echo "mail-setup: installed dovecot $(/usr/sbin/dovecot --version)"
