#!/bin/sh
# tools/wirebench/run.sh BUILD_DIR: instructions per message (valgrind, load-independent) for encode and
# decode of MOVE, ACK and PROGRESS: (Ir at N messages - Ir at 0) / N.
set -eu
bin=${1:-build}/tools/mazerace-wirebench
n=${N:-100000}
ir() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$bin" "$@" 2>&1 |
        sed -n 's/.*I *refs: *//p' | tr -d ,
}
for op in encode decode; do
    for t in move ack progress; do
        base=$(ir "$op" "$t" 0)
        full=$(ir "$op" "$t" "$n")
        echo "$op $t: $(( (full - base) / n )) instructions/message"
    done
done
