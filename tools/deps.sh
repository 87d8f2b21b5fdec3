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

# make bench-linux boots Debian's i386 kernel, which it fetches with `apt-get download
# linux-image-686:i386`: apt must know the i386 packages. Only that benchmark needs them, so
# without root or without the archive this part is said and skipped, never an error.
i386=""
if [ "$(dpkg --print-architecture 2>/dev/null)" != i386 ] &&
	! dpkg --print-foreign-architectures 2>/dev/null | grep -qx i386; then
	i386="dpkg --add-architecture i386 && apt-get update"
elif ! apt-cache show linux-image-686:i386 >/dev/null 2>&1; then
	i386="apt-get update"
fi

if [ -n "${DEPS_DRY_RUN:-}" ]; then
	if [ -z "$missing" ]; then
		echo "deps: all packages present"
	else
		echo "deps: missing:$missing"
		echo "deps: as root, run: apt-get update && apt-get install -y -q --no-install-recommends$missing"
	fi
	[ -z "$i386" ] || echo "deps: make bench-linux needs apt to know i386 packages; as root, run: $i386"
	exit 0
fi

if [ -z "$missing" ] && [ -z "$i386" ]; then
	echo "deps: all packages present"
	exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		[ -z "$i386" ] || echo "deps: not root: make bench-linux will measure smpix alone; to add Linux, run as root: $i386" >&2
		if [ -n "$missing" ]; then
			echo "deps: not root; run as root: apt-get update && apt-get install -y -q --no-install-recommends$missing" >&2
			exit 1
		fi
		exit 0
	fi
fi
export DEBIAN_FRONTEND=noninteractive

if [ -n "$i386" ]; then
	echo "deps: for make bench-linux: $i386"
	$SUDO dpkg --add-architecture i386
fi
if ! $SUDO apt-get update -q; then
	# Without the archive nothing can be installed; the i386 part alone is no reason to fail.
	[ -z "$missing" ] || { echo "deps: apt-get update failed: cannot install$missing" >&2; exit 1; }
	echo "deps: apt-get update failed (no network?): make bench-linux will measure smpix alone" >&2
	exit 0
fi
if [ -z "$missing" ]; then
	echo "deps: all packages present"
	exit 0
fi
echo "deps: installing:$missing"
$SUDO apt-get install -y -q --no-install-recommends$missing
