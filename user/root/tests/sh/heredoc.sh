# Here-documents: expanded or not, <<- and tabs, several on a line, in loops and functions.
name=world
cat <<EOF2
hello $name
sum: $((2 + 3)), sub: $(echo sub)
escaped: \$name \\ \`
quotes stay: "double" 'single'
EOF2
cat <<'EOF2'
not expanded: $name $(echo no) \$
EOF2
cat <<"EOF2"
also not: $name
EOF2
cat <<\EOF2
nor: $name
EOF2
	cat <<-EOF2
	tabs are stripped
		even two
	EOF2
cat <<A; cat <<B
first $name
A
second $name
B
while read x; do echo "read $x"; done <<EOF2
1
2
EOF2
f() {
	cat <<EOF2
in a function: $1
EOF2
}
f arg
cat <<EOF2 | tr a-z A-Z
piped
EOF2
cat <<EOF2 > /tmp/shtest-heredoc
to a file
EOF2
cat /tmp/shtest-heredoc; rm /tmp/shtest-heredoc
cat <<EOF2
EOF2
echo "empty here-doc done"
cat <<EOF2
line continued \
here
EOF2
n=0; while [ $n -lt 300 ]; do echo "line $n of a here-doc longer than a pipe's 4 KiB"; n=$((n + 1)); done > /tmp/shtest-big
eval "cat <<EOF2
$(cat /tmp/shtest-big)
EOF2" | wc -l | tr -d ' '
rm /tmp/shtest-big
