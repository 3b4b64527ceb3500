#!/bin/bash
# A stand-in for `warpsim cuda ... -o DIR -- PROGRAM` in tests/workloads/test_apps.c (the
# behaviour of scripts/apps.sh run around a run, not the run): FAKE=ok prints the time limit its
# parent (timeout) was given and PASS, and leaves stats.json (and says where, as warpsim does); FAKE=hang waits until SIGTERM, then
# after a second leaves stats.failed.json, as a real run stopped by a signal does. Its pid goes to
# $FAKE_DIR/fake.pid.
o=""
while [ $# -gt 0 ]; do [ "$1" = -o ] && o=$2; shift; done
echo $$ > "$FAKE_DIR/fake.pid"
case "${FAKE:-}" in
ok)
	echo "limit $(tr '\0' ' ' < /proc/$PPID/cmdline | cut -d' ' -f2)"
	echo PASS
	echo '{}' > "$o/stats.json"
	echo "stats in $o/stats.json" ;;
hang)
	trap 'kill $s; sleep 1; echo "{}" > "$o/stats.failed.json"; exit 143' TERM
	sleep 60 & s=$!
	wait $s ;;
*) exit 2 ;;
esac
