#!/bin/sh
# Install, from Debian's packages only, everything smpix needs to build, boot and test.
# Non-interactive; run as root (or through sudo). `make deps` calls this.
# DEPS_DRY_RUN=1: only say which packages are missing and the command that would install them.
#
# A mirror is often half-synced: `apt-get update` then fails on one index (say the security
# suite's i386 Packages) while every other index loaded. That is no reason to stop: we install
# from what did load, and fail only when an install itself fails, naming the package.

# dash: the shell tests compare smpix's sh with it (tools/test/cases/52_shell_scripts.py).
# e2fsprogs: mke2fs -d builds disk images; e2fsck checks them.
PACKAGES="gcc gcc-multilib make binutils qemu-system-x86 grub-pc-bin grub-common \
xorriso mtools gdb cpio python3 gnuplot-nox dash e2fsprogs"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $p"
	fi
done

# The Linux reference (make test's comparisons, make bench-linux, BUSYBOX=1) boots Debian's
# i386 kernel and busybox, fetched with `apt-get download PKG:i386`: apt must know the i386
# packages. Tests that cannot get them say SKIP with the reason, so this part never fails.
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
		echo "deps: as root, run: apt-get update; apt-get install -y -q --no-install-recommends$missing"
	fi
	[ -z "$i386" ] || echo "deps: the Linux reference needs apt to know i386 packages; as root, run: $i386"
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
		[ -z "$i386" ] || echo "deps: not root: the Linux reference will be skipped; to add it, run as root: $i386" >&2
		if [ -n "$missing" ]; then
			echo "deps: not root; run as root: apt-get update; apt-get install -y -q --no-install-recommends$missing" >&2
			exit 1
		fi
		exit 0
	fi
fi
export DEBIAN_FRONTEND=noninteractive

if [ -n "$i386" ]; then
	echo "deps: for the Linux reference (i386 kernel and busybox): $i386"
	$SUDO dpkg --add-architecture i386 || echo "deps: dpkg --add-architecture i386 failed: the Linux reference will be skipped" >&2
fi
# A partial update is normal life on a mirror: say so and go on with the indexes that loaded.
if ! $SUDO apt-get update -q; then
	echo "deps: apt-get update failed for some index (above); installing from the indexes that loaded" >&2
fi
if [ -z "$missing" ]; then
	echo "deps: all packages present"
	exit 0
fi
echo "deps: installing:$missing"
$SUDO apt-get install -y -q --no-install-recommends $missing && exit 0

# One package apt cannot find or install must not hide the others: try each alone, then name
# the ones that failed, with apt's own reason.
echo "deps: installing them together failed; trying one at a time" >&2
failed=""
for p in $missing; do
	if ! out=$($SUDO apt-get install -y -q --no-install-recommends "$p" 2>&1); then
		failed="$failed $p"
		echo "deps: cannot install $p:" >&2
		echo "$out" | grep -E '^(E|W):' | sed 's/^/deps:   /' >&2
	fi
done
[ -z "$failed" ] && exit 0
echo "deps: these packages could not be installed:$failed" >&2
exit 1
