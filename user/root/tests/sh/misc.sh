# Lists, pipelines, subshells, groups, redirections, variables, eval and . .
true && echo "and: yes"; false && echo no; false || echo "or: yes"
! false && echo "not: yes"
echo a | tr a b | tr b c
false | true; echo "pipeline status is the last's: $?"
true | false; echo "and the other way: $?"
x=outer; (x=inner; echo "subshell: $x"); echo "after: $x"
{ x=group; echo "group: $x"; }; echo "after group: $x"
(exit 7); echo "subshell exit: $?"
{ echo one; echo two; } > /tmp/shtest-misc; cat /tmp/shtest-misc
echo three >> /tmp/shtest-misc; wc -l < /tmp/shtest-misc | tr -d ' '
cat < /tmp/shtest-misc | head -1
ls /nonexistent 2>/dev/null || echo "2> to /dev/null"
{ echo out; echo err >&2; } 2>&1 | sort
exec 3> /tmp/shtest-misc; echo "via fd 3" >&3; exec 3>&-; cat /tmp/shtest-misc
echo data > /tmp/shtest-misc; exec 4< /tmp/shtest-misc; read line <&4; exec 4<&-; echo "read from fd 4: $line"
rm /tmp/shtest-misc
v=1 w=2; echo "$v $w"
V=exported sh -c 'echo "child sees V=$V"'; echo "parent V=[$V]"
export E=ex; sh -c 'echo "exported E=$E"'
unset E; echo "unset E=[$E]"
cmd='echo evaluated $((1+1))'; eval "$cmd"
eval 'for i in 1 2; do echo "eval loop $i"; done'
echo 'sourced_var=from-dot; echo "in the dot file: $#"' > /tmp/shtest-dot
. /tmp/shtest-dot; echo "sourced_var=$sourced_var"; rm /tmp/shtest-dot
sleep 1 & wait $!; echo "waited for a background job: $?"
(exit 5) & wait $!; echo "background status: $?"
echo "comment" # not printed
echo semi;echo colons; echo "a;b"
echo `echo a` "$(echo b)" 'c' d\ e
cd /tmp && echo "cd: $(pwd)"; cd /
command -v cd; command -v sh | grep -c sh
echo "last: $?"
cd /nonexistent 2>/dev/null; echo "cd to nowhere: $?"
${SH:-sh} -c 'exec nonexistent_command 2>/dev/null; echo "not reached"'; echo "exec failed: $?"
${SH:-sh} -c 'echo before; return 4; echo "not reached"'; echo "return at the top: $?"
