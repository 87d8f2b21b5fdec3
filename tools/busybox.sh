#!/bin/sh
# usage: busybox.sh DIR   Fetch Debian's busybox-static for i386 into DIR, once, with Debian's
# own package tools: DIR/busybox (the unmodified binary), DIR/applets (its applet names, one a
# line) and DIR/version. Nothing is built: the point is an unmodified Linux binary.
#
# Needs dpkg-deb and apt-get, and Debian's i386 package list. As root it adds what is missing
# (dpkg --add-architecture i386, apt-get update); otherwise it says what to run. Exit status:
# 0 done (or already there), 1 failed (the reason on stderr; `make test` then skips, never fails).
set -e

dir=${1:?usage: busybox.sh DIR}
pkg=busybox-static:i386

[ -x "$dir/busybox" ] && [ -s "$dir/applets" ] && exit 0

say() { echo "busybox: $*" >&2; }
root() { [ "$(id -u)" -eq 0 ]; }

for t in apt-get dpkg dpkg-deb; do
	if ! command -v "$t" >/dev/null 2>&1; then
		say "$t not found: BUSYBOX=1 needs Debian's package tools"
		exit 1
	fi
done

# Debian's i386 packages: a foreign architecture on amd64 (native on i386 itself).
if [ "$(dpkg --print-architecture)" != i386 ] && ! dpkg --print-foreign-architectures | grep -qx i386; then
	if ! root; then
		say "i386 is not a dpkg architecture here; as root run: dpkg --add-architecture i386 && apt-get update"
		exit 1
	fi
	say "adding the i386 architecture (dpkg --add-architecture i386; apt-get update)"
	dpkg --add-architecture i386
	apt-get update -q >&2 || { say "apt-get update failed"; exit 1; }
fi
if ! apt-cache show "$pkg" >/dev/null 2>&1; then
	if ! root; then
		say "apt does not know $pkg; as root run: apt-get update"
		exit 1
	fi
	apt-get update -q >&2 || { say "apt-get update failed"; exit 1; }
fi

tmp="$dir.tmp"
rm -rf "$tmp"
mkdir -p "$tmp"
# apt-get download runs as the _apt user where it can: give it a directory it may write.
chmod 777 "$tmp"
if ! (cd "$tmp" && apt-get download -q "$pkg" >&2); then
	say "apt-get download $pkg failed (no network to Debian's archive?)"
	rm -rf "$tmp"
	exit 1
fi
deb=$(ls "$tmp"/*.deb)
dpkg-deb -x "$deb" "$tmp/root"
if [ ! -x "$tmp/root/bin/busybox" ]; then
	say "$deb has no bin/busybox"
	rm -rf "$tmp"
	exit 1
fi
# The applet list, from the binary itself (the build host runs i386 programs: the tests need that too).
if ! "$tmp/root/bin/busybox" --list > "$tmp/applets" || [ ! -s "$tmp/applets" ]; then
	say "cannot run $tmp/root/bin/busybox --list on this host (no i386 support?)"
	rm -rf "$tmp"
	exit 1
fi
dpkg-deb -f "$deb" Version > "$tmp/version"
cp "$tmp/root/bin/busybox" "$tmp/busybox"
rm -rf "$dir"
mkdir -p "$dir"
mv "$tmp/busybox" "$tmp/applets" "$tmp/version" "$dir/"
rm -rf "$tmp"
say "Debian's busybox-static $(cat "$dir/version") (i386) in $dir, $(wc -l < "$dir/applets") applets"
