# Parameters: $# $@ $* shift set --, ${ } forms, field splitting.
set -- a "b c" d
echo "$#: $1|$2|$3"
printf '[%s]' "$@"; echo
printf '[%s]' $@; echo
printf '[%s]' "$*"; echo
printf '[%s]' $*; echo
shift; echo "after shift: $# $1"
shift 2; echo "after shift 2: $#"
set --; printf '[%s]' "$@"; echo "none: $#"
set -- 1 2 3 4 5 6 7 8 9 10 11; echo "${10} ${11} $#"
unset v; e=
echo "${v-unset} ${e-unset} ${v:-unset-or-empty} ${e:-unset-or-empty}"
echo "${v+set} ${e+set} ${e:+set-and-nonempty}."
echo "${d=assigned} $d"
echo "${e:=now-assigned} $e"
s=hello.tar.gz
echo "${#s} ${s%.gz} ${s%%.*} ${s#*.} ${s##*.} ${s#h} ${s%z}"
p=/usr/local/bin/prog; echo "${p##*/} ${p%/*}"
IFS=: ; f="a:b::c"; set -- $f; echo "$# fields"; printf '[%s]' "$@"; echo
IFS=' :'; f=" a : b  c:"; set -- $f; echo "$# fields"; printf '[%s]' "$@"; echo
unset IFS; f="  x   y  "; set -- $f; echo "$# fields"
IFS=; set -- $f; echo "$# field with IFS empty"
unset IFS
set -- "x y"; a="$@"; echo "[$a]"
echo "${nothing:-"quoted default"}"
set -- one two; echo "${#}" "${1}" "${2:-none}" "${3:-none}"
echo "pid is a number: $(test $$ -gt 0 && echo yes)"
case $0 in *.sh) echo "\$0 ends in .sh" ;; esac
a=1 b=$a; echo "assignments in order: $b"
unset u; set -- ${u:-two words}; echo "an unquoted default splits: $#"
set -- "${u:-two words}"; echo "a quoted one does not: $#"
echo "${u:-it's}" "${u:-"quoted"}" ${u:-'single'} "${u:-a}b}"
