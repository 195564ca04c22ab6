#!/bin/sh
# Rank $FAIL_RANK exits with $FAIL_CODE (or kills itself with signal
# $FAIL_SIGNAL); the others wait for a minute and record being terminated.
out=$WORKER_OUT
if [ "$RANK" = "$FAIL_RANK" ]; then
  sleep 0.2
  echo "rank $RANK failing"
  if [ -n "$FAIL_SIGNAL" ]; then kill -s "$FAIL_SIGNAL" $$; sleep 5; fi
  exit "$FAIL_CODE"
fi
trap 'echo terminated > "$out/terminated.$RANK"; exit 0' TERM
sleep 60 </dev/null >/dev/null 2>&1 &
wait $!
echo finished > "$out/finished.$RANK"
