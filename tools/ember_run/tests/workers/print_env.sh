#!/bin/sh
# Prints the launcher's variables as one line per variable, "NAME=value".
for name in RANK WORLD_SIZE LOCAL_RANK LOCAL_WORLD_SIZE GROUP_RANK GROUP_WORLD_SIZE ROLE_RANK ROLE_NAME \
  ROLE_WORLD_SIZE MASTER_ADDR MASTER_PORT TORCHELASTIC_RESTART_COUNT TORCHELASTIC_MAX_RESTARTS \
  TORCHELASTIC_RUN_ID TORCHELASTIC_USE_AGENT_STORE OMP_NUM_THREADS; do
  value=
  eval "value=\${$name-<unset>}"
  echo "$name=$value"
done
echo "ARGS=$*"
