#!/usr/bin/env bash
# Builds the libFuzzer targets with clang, independently of the main build.
#
#   bash fuzz/build.sh [float|double ...]      (default: both precisions)
#
# The library is built by the project's CMake into
# $FUZZ_BUILD/<precision>/lib with coverage instrumentation and ASan+UBSan
# (-fsanitize=fuzzer-no-link,address,undefined) and SWEEP_ASSERTS, then each
# target is linked with -fsanitize=fuzzer into $FUZZ_BUILD/<precision>/.
# fuzz_query links the `sweep query` loop (tools/sweep/query.c and
# request.c) and jansson; it is skipped while those sources are missing.
#
# Environment: FUZZ_BUILD (default <repo>/build/fuzz), FUZZ_CC (default
# clang), FUZZ_WERROR=1 to treat warnings in fuzz/ as errors, FUZZ_STRICT=1
# to check the known findings too (see README.md), FUZZ_SOURCE
# to take the library and tool sources from another tree (a snapshot of a
# commit, say) while the targets stay this tree's.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=${FUZZ_SOURCE:-$(dirname "$here")}
root=$(cd "$root" && pwd)
out=${FUZZ_BUILD:-$root/build/fuzz}
cc=${FUZZ_CC:-clang}
precisions=("$@")
if [ ${#precisions[@]} -eq 0 ]; then
    precisions=(float double)
fi

targets=(fuzz_sphere_sweep fuzz_raycast fuzz_containment fuzz_overlap_distance fuzz_dispatch)

sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all"
common="-g -O1 -fno-omit-frame-pointer $sanitize"
warn="-std=c11 -Wall -Wextra -Wpedantic"
if [ "${FUZZ_WERROR:-0}" = 1 ]; then
    warn="$warn -Werror"
fi

# Fail early, with the fix, where clang or its fuzzer runtime is missing.
probe_dir=$(mktemp -d)
trap 'rm -rf "$probe_dir"' EXIT
printf 'int LLVMFuzzerTestOneInput(const char* d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
    >"$probe_dir/probe.c"
if ! "$cc" -fsanitize=fuzzer "$probe_dir/probe.c" -o "$probe_dir/probe" 2>"$probe_dir/err"; then
    echo "fuzz/build.sh: '$cc' cannot link -fsanitize=fuzzer:" >&2
    cat "$probe_dir/err" >&2
    echo "install clang and its fuzzer runtime: apt-get install clang libclang-rt-dev" >&2
    exit 2
fi

query_sources=("$root/tools/sweep/query.c" "$root/tools/sweep/request.c")
if [ ! -f "${query_sources[0]}" ] || [ ! -f "${query_sources[1]}" ]; then
    echo "fuzz/build.sh: tools/sweep/query.c or request.c missing: skipping fuzz_query" >&2
elif ! pkg-config --exists jansson; then
    echo "fuzz/build.sh: jansson not found (apt-get install libjansson-dev): skipping fuzz_query" >&2
else
    targets+=(fuzz_query)
fi

for precision in "${precisions[@]}"; do
    case $precision in
    float) double=OFF defs="" ;;
    double) double=ON defs="-DSWEEP_DOUBLE" ;;
    *)
        echo "fuzz/build.sh: unknown precision '$precision' (float or double)" >&2
        exit 2
        ;;
    esac
    dir=$out/$precision
    mkdir -p "$dir"
    cmake -S "$root" -B "$dir/lib" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Fuzz \
        -DCMAKE_C_FLAGS="$common -fsanitize=fuzzer-no-link" \
        -DSWEEP_DOUBLE=$double -DSWEEP_ASSERTS=ON -DSWEEP_SANITIZE=OFF \
        -DSWEEP_BUILD_TOOLS=OFF -DSWEEP_BUILD_TESTS=OFF -DSWEEP_BUILD_BENCH=OFF >"$dir/cmake.log" 2>&1 ||
        {
            cat "$dir/cmake.log" >&2
            exit 1
        }
    cmake --build "$dir/lib" --target sweep -j "$(nproc)" >>"$dir/cmake.log" 2>&1 ||
        {
            cat "$dir/cmake.log" >&2
            exit 1
        }
    lib=$dir/lib/libsweep.a

    # The library calls the assert handler on invalid input (SWEEP_ASSERTS),
    # which the checks rely on: FZ_LIBRARY_ASSERTS=1.
    cflags="$common $warn $defs -DFZ_LIBRARY_ASSERTS=1 -I$root/include -I$here"
    if [ "${FUZZ_STRICT:-0}" = 1 ]; then
        cflags="$cflags -DFZ_STRICT"
    fi
    # shellcheck disable=SC2086
    {
        "$cc" $cflags -fsanitize=fuzzer-no-link -c "$here/fuzz.c" -o "$dir/fuzz.o"
        "$cc" $cflags -fsanitize=fuzzer-no-link -c "$here/oracle.c" -o "$dir/oracle.o"
    }
    for target in "${targets[@]}"; do
        extra=()
        libs=()
        if [ "$target" = fuzz_query ]; then
            read -r -a jansson_cflags <<<"$(pkg-config --cflags jansson)"
            read -r -a libs <<<"$(pkg-config --libs jansson)"
            extra=("${query_sources[@]}" -I"$root/tools/sweep" "${jansson_cflags[@]}")
        fi
        # shellcheck disable=SC2086
        "$cc" $cflags -fsanitize=fuzzer "$here/$target.c" "${extra[@]}" "$dir/fuzz.o" "$dir/oracle.o" "$lib" \
            "${libs[@]}" -lm -o "$dir/$target"
    done
    echo "fuzz/build.sh: built ${targets[*]} ($precision) in $dir"
done
