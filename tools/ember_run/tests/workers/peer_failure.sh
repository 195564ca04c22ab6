#!/bin/sh
# A two-node job whose first attempt breaks: global rank $CRASH_RANK exits 1,
# and the other ranks notice it (as a collective would) and exit 1 too. The
# restarted attempt reports its ranks and succeeds.
out=$WORKER_OUT
if [ "$TORCHELASTIC_RESTART_COUNT" = 0 ]; then
  if [ "$RANK" = "$CRASH_RANK" ]; then
    touch "$out/crashed"
    exit 1
  fi
  while [ ! -f "$out/crashed" ]; do sleep 0.02; done
  exit 1
fi
echo "attempt $TORCHELASTIC_RESTART_COUNT rank $RANK of $WORLD_SIZE group $GROUP_RANK"
