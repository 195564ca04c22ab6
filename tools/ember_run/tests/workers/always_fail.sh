#!/bin/sh
# Every attempt fails: rank 0 reports which attempt it is and exits with 3.
echo "attempt $TORCHELASTIC_RESTART_COUNT of $TORCHELASTIC_MAX_RESTARTS"
[ "$RANK" = 0 ] && exit 3
sleep 60 >/dev/null 2>&1 &  # not holding the launcher's pipes
trap 'kill $! 2>/dev/null; exit 0' TERM
wait
