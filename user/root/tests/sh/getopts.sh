# getopts: flags, arguments joined and apart, bundles, --, errors, the quiet mode, OPTIND.
parse() {
	OPTIND=1
	while getopts ab:c opt "$@"; do
		echo "opt=$opt OPTARG=${OPTARG-unset} OPTIND=$OPTIND"
	done
	echo "end: $? OPTIND=$OPTIND"
}
parse -a -b val -c rest
parse -acb val2 x
parse -bval3
parse -x 2>/dev/null
parse -b 2>/dev/null
parse -- -a
parse noopt -a
set -- -a -c file
while getopts :ab: o; do echo "quiet $o ${OPTARG-}"; done; shift $((OPTIND - 1)); echo "rest: $*"
OPTIND=1; set -- -z; while getopts :a o; do echo "quiet unknown $o $OPTARG"; done
OPTIND=1; set -- -b; while getopts :b: o; do echo "quiet missing $o $OPTARG"; done
