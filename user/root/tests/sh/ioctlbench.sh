# An experiment as a student would write it: ioctlbench under each of the
# three ioctl policies, three runs each, one line per run. On smpix it runs
# the real benchmark; anywhere else (the host's dash runs this script too)
# a stand-in with the same output shape is used.
mode=/proc/sys/kernel/ioctl_mode
if ! command -v ioctlbench > /dev/null 2>&1; then
	mode=/tmp/shtest-ioctl_mode
	echo auto > $mode
	ioctlbench() {
		echo "ioctlbench: run dev=own policy=$(cat $mode) procs=2 cpus=2 calls=40 spins=10 sleep_us=0 ns=123456 cps=324000 counted=40 lost=0 per_cpu=0:20,1:20"
		echo "ioctlbench: median dev=own policy=$(cat $mode) procs=2 cpus=2 sleep_us=0 cps=324000"
	}
fi
old=$(cat $mode)
# Whatever happens (^C included), the policy goes back to what it was.
restore() {
	echo "$old" > $mode
	[ "$mode" = /proc/sys/kernel/ioctl_mode ] || rm $mode
}
trap restore EXIT
trap 'exit 130' INT TERM
for policy in auto serialized unlocked; do
	echo $policy > $mode
	run=1
	while [ $run -le 3 ]; do
		out=$(ioctlbench -d own -n 20 -w 10 -r 1)
		status=$?
		calls= counted= cps= got=
		for field in $(echo "$out" | grep '^ioctlbench: run'); do
			case $field in
			policy=*) got=${field#policy=} ;;
			calls=*) calls=${field#calls=} ;;
			counted=*) counted=${field#counted=} ;;
			cps=*) cps=${field#cps=} ;;
			esac
		done
		[ "$calls" = "$counted" ] && adds_up=yes || adds_up=no
		[ "${cps:-0}" -gt 0 ] && measured=yes || measured=no
		printf 'policy=%-10s run=%d status=%d counts_add_up=%s measured=%s\n' "$got" $run $status $adds_up $measured
		run=$((run + 1))
	done
done
restore
trap - EXIT
echo "policy restored: $(cat /proc/sys/kernel/ioctl_mode 2>/dev/null || echo "$old")"
