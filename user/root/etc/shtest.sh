#!/bin/sh
# A script for the shell's test (tools/test/cases/50_userland.py): run it as
# `sh /etc/shtest.sh ARG` or directly, through its #! line.
echo "script: arg1=$1 args=$0"
n=0
greeting='hello   world'
echo "quoted: $greeting" '$greeting' "\$greeting"
mkdir -p /tmp/shtest && cd /tmp/shtest && echo "cd: ok"
echo one > f; echo two >> f; echo three >> f
sort -r f | head -n 2 > sorted
cat sorted
wc -l < f
grep -c o f
test -f f && echo "test -f: yes"
test -d f || echo "test -d: no"
ls /nope 2> err; echo "ls status: $?"
wc -l err
nosuchcommand 2>&1 | grep -c "not found"
export SHTEST_VAR=exported
env | grep SHTEST_VAR
cd / && rm /tmp/shtest/f /tmp/shtest/sorted /tmp/shtest/err && rmdir /tmp/shtest && echo "cleanup: ok"
exit 3
