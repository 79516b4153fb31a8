#!/usr/bin/env bash
# Builds the fuzz targets and runs each for SECONDS (default 60) in the
# float and the double build, against a scratch copy of its committed seed
# corpus (fuzz/corpus/<target>/ is never written). Prints one summary line
# per run and exits non-zero if any run found a crash or a violated
# invariant (the reproducer is kept under $FUZZ_BUILD/artifacts/).
#
#   bash fuzz/run.sh [SECONDS]
#
# Environment:
#   FUZZ_BUILD    build and work directory (default <repo>/build/fuzz)
#   FUZZ_DOUBLE   1: the double build only, 0: the float build only
#                 (default: both)
#   FUZZ_TARGETS  space-separated subset of the targets (default: all built)
#   FUZZ_JOBS     runs at once (default: the number of CPUs)
#   FUZZ_FLAGS    extra libFuzzer flags for every run
#   FUZZ_REPRODUCIBLE  1: the same inputs everywhere for a given seed: no
#                 corpus reload during the run (-reload=0), a fixed
#                 environment, and no address-space randomisation (setarch
#                 -R), where the system permits it (libFuzzer's mutations
#                 depend on all three; build.sh makes the binaries the same
#                 in every clone)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
seconds=${1:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
    echo "usage: fuzz/run.sh [SECONDS]   (a positive whole number of seconds per target)" >&2
    exit 2
fi
out=${FUZZ_BUILD:-$root/build/fuzz}
export FUZZ_BUILD=$out
jobs=${FUZZ_JOBS:-$(nproc)}

case ${FUZZ_DOUBLE:-} in
1) precisions=(double) ;;
0) precisions=(float) ;;
"") precisions=(float double) ;;
*)
    echo "fuzz/run.sh: FUZZ_DOUBLE must be 0 or 1" >&2
    exit 2
    ;;
esac

bash "$here/build.sh" "${precisions[@]}"

launcher=()
if [ "${FUZZ_REPRODUCIBLE:-0}" = 1 ]; then
    FUZZ_FLAGS="-reload=0 ${FUZZ_FLAGS:-}"
    # A fixed environment: its size moves the stack, and libFuzzer learns
    # from the values the target compares, stack addresses among them.
    launcher=(env -i PATH=/usr/bin:/bin)
    if setarch "$(uname -m)" -R true 2>/dev/null; then
        launcher+=(setarch "$(uname -m)" -R)
    else
        echo "fuzz/run.sh: setarch -R is not permitted here: the runs depend on the address-space layout" >&2
    fi
fi

targets=()
for t in ${FUZZ_TARGETS:-fuzz_sphere_sweep fuzz_raycast fuzz_containment fuzz_overlap_distance fuzz_dispatch fuzz_mesh fuzz_scene fuzz_query}; do
    if [ -x "$out/${precisions[0]}/$t" ]; then
        targets+=("$t")
    else
        echo "fuzz/run.sh: $t was not built: skipped"
    fi
done

# One run: a fresh copy of the seed corpus, libFuzzer's log, and the exit
# status and wall time in files that the summary reads afterwards. The run
# starts inside its work directory, and every path on its command line is
# relative and the same in every clone: libFuzzer copies its arguments to
# the heap, and under FUZZ_REPRODUCIBLE a heap laid out otherwise changes
# the comparisons it learns from, and so the inputs it tries. A finding's
# input is moved to $out/artifacts/PRECISION/TARGET-*.
run_one() {
    local precision=$1 target=$2
    local work=$out/run/$precision/$target
    rm -rf "$work"
    mkdir -p "$work/corpus" "$out/artifacts/$precision"
    if [ -d "$here/corpus/$target" ]; then
        cp "$here/corpus/$target"/* "$work/corpus/" 2>/dev/null || true
    fi
    ln -s "$out/$precision/$target" "$work/target"
    local dict=()
    if [ -f "$here/dict/$target.dict" ]; then
        cp "$here/dict/$target.dict" "$work/dict"
        dict=(-dict=dict)
    fi
    local start end status=0
    start=$(date +%s)
    # shellcheck disable=SC2086
    (cd "$work" && "${launcher[@]}" ./target -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix=artifact- "${dict[@]}" ${FUZZ_FLAGS:-} corpus >log 2>&1) || status=$?
    end=$(date +%s)
    for found in "$work"/artifact-*; do
        [ -e "$found" ] && mv "$found" "$out/artifacts/$precision/$target-${found##*/artifact-}"
    done
    echo "$status" >"$work/status"
    echo $((end - start)) >"$work/seconds"
}

# Every finding kept in fuzz/regressions/ (NAME.TARGET.PRECISION, where
# PRECISION is float, double or any) must stay fixed: replay it first.
replay_failed=0
for file in "$here"/regressions/*.*.*; do
    [ -f "$file" ] || continue
    name=$(basename "$file")
    target=$(echo "$name" | cut -d. -f2)
    kind=$(echo "$name" | cut -d. -f3)
    for precision in "${precisions[@]}"; do
        [ "$kind" = any ] || [ "$kind" = "$precision" ] || continue
        [ -x "$out/$precision/$target" ] || continue
        if ! "$out/$precision/$target" "$file" >"$out/replay.log" 2>&1; then
            echo "regression $name ($precision): FAILS again"
            grep -A 6 -m 1 'invariant violated' "$out/replay.log" | sed 's/^/    | /' || true
            replay_failed=1
        fi
    done
done
echo "fuzz/run.sh: replayed the regression inputs of fuzz/regressions/: $([ $replay_failed -eq 0 ] && echo 'all pass' || echo 'FAILURES')"

running=0
for precision in "${precisions[@]}"; do
    for target in "${targets[@]}"; do
        run_one "$precision" "$target" &
        running=$((running + 1))
        if [ "$running" -ge "$jobs" ]; then
            wait -n || true
            running=$((running - 1))
        fi
    done
done
wait

failed=0
for precision in "${precisions[@]}"; do
    for target in "${targets[@]}"; do
        work=$out/run/$precision/$target
        status=$(cat "$work/status")
        secs=$(cat "$work/seconds")
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
        runs=${runs:-0}
        seeds=0
        if [ -d "$here/corpus/$target" ]; then
            seeds=$(find "$here/corpus/$target" -type f | wc -l)
        fi
        corpus=$(find "$work/corpus" -type f | wc -l)
        rate=$((runs / (secs > 0 ? secs : 1)))
        line=$(printf '%-22s %-6s %10s runs in %3s s (%6s/s), corpus %3s -> %4s' \
            "$target" "$precision" "$runs" "$secs" "$rate" "$seeds" "$corpus")
        if [ "$status" -eq 0 ]; then
            echo "$line: no finding"
        else
            failed=1
            artifact=$(sed -n 's/.*Test unit written to artifact-\(.*\)$/\1/p' "$work/log" | tail -n 1)
            artifact=${artifact:+$out/artifacts/$precision/$target-$artifact}
            echo "$line: FINDING (exit $status)"
            echo "    reproduce: $out/$precision/$target ${artifact:-<see log>}"
            echo "    log: $work/log"
            grep -A 12 -m 1 -E 'invariant violated|ERROR: (AddressSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error' \
                "$work/log" | sed 's/^/    | /' || true
        fi
    done
done
[ "$replay_failed" -eq 0 ] || failed=1
exit "$failed"
