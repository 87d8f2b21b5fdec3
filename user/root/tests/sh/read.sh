# read: from a here-doc, a pipe, a file; IFS, -r, several names, the end.
read a b rest <<EOF2
one two three four
EOF2
echo "a=$a b=$b rest=$rest"
echo "x y" | { read p q; echo "p=$p q=$q"; }
printf 'line1\nline2\nline3\n' > /tmp/shtest-read
while read l; do echo "got $l"; done < /tmp/shtest-read
n=0; while read l; do n=$((n + 1)); done < /tmp/shtest-read; echo "$n lines"
{ read first; read second; echo "first=$first second=$second"; } < /tmp/shtest-read
rm /tmp/shtest-read
IFS=: read u pw uid <<EOF2
root:x:0:0:root:/root:/bin/sh
EOF2
echo "u=$u pw=$pw uid=$uid"
read -r raw <<'EOF2'
back\slash
EOF2
echo "raw=$raw"
read cooked <<'EOF2'
back\slash
EOF2
echo "cooked=$cooked"
read one <<EOF2
   leading and trailing   
EOF2
echo "[$one]"
read x y <<EOF2
only
EOF2
echo "x=$x y=[$y]"
printf 'no newline' | { read z; echo "status $? z=$z"; }
echo | { read e; echo "empty line: status $? e=[$e]"; }
read nothing < /dev/null; echo "at the end: status $?"

