# Pathname expansion: * ? [ ], in directories, quoted, no match, set -f.
mkdir -p /tmp/shtest-glob/sub && cd /tmp/shtest-glob
for f in a.c b.c c.h .hidden d.txt sub/x.c sub/y.c; do echo > $f; done
echo *.c; echo *; echo ?.h; echo [ab].c; echo [!a].c; echo sub/*.c; echo */*.c
echo nomatch*; echo "*.c"; echo \*.c; echo '[ab].c'
x='*.c'; echo $x; echo "$x"
set -f; echo *.c; set +f
for f in *.[ch]; do echo "file $f"; done
echo /tmp/shtest-glob/s*/?.c
cd /tmp && for f in a.c b.c c.h .hidden d.txt sub/x.c sub/y.c; do rm /tmp/shtest-glob/$f; done
rmdir /tmp/shtest-glob/sub /tmp/shtest-glob
