#!/bin/sh
# Every rank fails at once, with exit code 10 + RANK.
exit $((10 + RANK))
