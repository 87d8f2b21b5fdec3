# Command substitution: $( ), backquotes, nesting, newlines, status.
echo "$(echo hello)"
echo `echo backquoted`
echo "$(echo outer $(echo inner))"
x=$(printf 'a\nb\n\n\n'); echo "[$x]"
echo "lines: $(printf 'one\ntwo\n' | wc -l | tr -d ' ')"
y=$(false); echo "status of \$(false): $?"
y=$(true); echo "status of \$(true): $?"
echo $(echo "  spaced   out  ")
echo "$(echo "  spaced   out  ")"
echo "$(cd /tmp && pwd)"; pwd >/dev/null
z=$(echo 'it''s'); echo "$z"
echo "$(echo "quoted \"inside\"")"
v=$(for i in 1 2 3; do echo -n "$i"; done); echo "$v"
echo "$(case a in a) echo "case in \$( )";; esac)"
echo "$(case b in (b) echo "case in \$( ), the pattern in parentheses";; esac)"
echo "$(
	echo "commands over lines" # with a comment )
	echo "and a here-doc:" $(cat <<EOF2
inside
EOF2
)
)"
echo `echo \`echo nested backquotes\``
echo "len=${#x}"
w=$(echo a; echo b >&2) 2>/dev/null; echo "w=$w"
