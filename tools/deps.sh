#!/bin/sh
# Install, from Debian's packages only, everything smpix needs to build, boot and test.
# Non-interactive; run as root (or through sudo). `make deps` calls this.
# DEPS_DRY_RUN=1: only say which packages are missing and the command that would install them.
set -e

# dash: the shell tests compare smpix's sh with it (tools/testcases/52_shell_scripts.py).
PACKAGES="gcc gcc-multilib make binutils qemu-system-x86 grub-pc-bin grub-common \
xorriso mtools gdb cpio python3 bear gnuplot-nox dash"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "deps: all packages present"
	exit 0
fi

install="apt-get install -y -q --no-install-recommends$missing"
if [ -n "${DEPS_DRY_RUN:-}" ]; then
	echo "deps: missing:$missing"
	echo "deps: as root, run: apt-get update && $install"
	exit 0
fi

echo "deps: installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "deps: not root; run as root: apt-get update && $install" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
${SUDO:-} apt-get update -q
${SUDO:-} $install
