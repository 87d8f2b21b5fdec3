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
# The applet list, from the binary itself: `busybox --list` where this host runs i386 programs;
# elsewhere read from its applet_names table, the sorted names in one string, each ending in a
# NUL, the whole in two ("[\0[[\0acpid\0...zcat\0\0"), which is what --list prints.
if ! "$tmp/root/bin/busybox" --list > "$tmp/applets" 2>/dev/null || [ ! -s "$tmp/applets" ]; then
	python3 - "$tmp/root/bin/busybox" > "$tmp/applets" <<-'PY'
	import re, sys
	data = open(sys.argv[1], "rb").read()
	start = data.find(b"\0[\0[[\0") + 1
	end = data.find(b"\0\0", start)
	names = data[start:end].split(b"\0") if start > 0 and end > start else []
	if not all(re.fullmatch(rb"[\w.\[\]-]+", n) for n in names) or len(names) < 50:
	    sys.exit(1)
	print("\n".join(n.decode() for n in names))
	PY
	if [ $? -ne 0 ] || [ ! -s "$tmp/applets" ]; then
		say "cannot list the applets of $tmp/root/bin/busybox (cannot run it here, nor find its applet table)"
		rm -rf "$tmp"
		exit 1
	fi
fi
dpkg-deb -f "$deb" Version > "$tmp/version"
cp "$tmp/root/bin/busybox" "$tmp/busybox"
rm -rf "$dir"
mkdir -p "$dir"
mv "$tmp/busybox" "$tmp/applets" "$tmp/version" "$dir/"
rm -rf "$tmp"
say "Debian's busybox-static $(cat "$dir/version") (i386) in $dir, $(wc -l < "$dir/applets") applets"
