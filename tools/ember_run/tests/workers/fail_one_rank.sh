#!/bin/sh
# Rank $FAIL_RANK exits with $FAIL_CODE (or kills itself with signal
# $FAIL_SIGNAL); the others wait for a minute and record being terminated,
# or, with IGNORE_TERM=1, ignore SIGTERM so that only SIGKILL stops them.
out=$WORKER_OUT
if [ "$RANK" = "$FAIL_RANK" ]; then
  sleep 0.2
  echo "rank $RANK failing"
  [ -n "$MARK_FAILURE" ] && touch "$out/failed"
  if [ -n "$FAIL_SIGNAL" ]; then kill -s "$FAIL_SIGNAL" $$; sleep 5; fi
  exit "$FAIL_CODE"
fi
if [ "$IGNORE_TERM" = 1 ]; then
  trap '' TERM
else
  trap 'echo terminated > "$out/terminated.$RANK"; exit 0' TERM
fi
sleep 60 >/dev/null 2>&1 &  # not holding the launcher's pipes
wait $!
echo finished > "$out/finished.$RANK"
