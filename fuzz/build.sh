#!/usr/bin/env bash
# Builds the libFuzzer targets with clang, independently of the main build.
#
#   bash fuzz/build.sh [float|double ...]      (default: both precisions)
#
# The library is compiled into $FUZZ_BUILD/<precision>/lib with coverage
# instrumentation and ASan+UBSan (-fsanitize=fuzzer-no-link,address,
# undefined) and SWEEP_ASSERTS, then each target is linked with
# -fsanitize=fuzzer into $FUZZ_BUILD/<precision>/. Every source is compiled
# by its path relative to its tree, with the tree's path mapped out of the
# debug information: the binaries are the same byte for byte wherever the
# tree is cloned (the sanitizers embed source paths and type names, which
# CMake's absolute paths would make differ), so that a run with a fixed
# seed under FUZZ_REPRODUCIBLE=1 (run.sh) tries the same inputs in every
# clone, CI's included.
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
mkdir -p "$out"
out=$(cd "$out" && pwd) # the compilers run inside the trees
cc=${FUZZ_CC:-clang}
precisions=("$@")
if [ ${#precisions[@]} -eq 0 ]; then
    precisions=(float double)
fi

targets=(fuzz_sphere_sweep fuzz_raycast fuzz_containment fuzz_overlap_distance fuzz_dispatch fuzz_mesh fuzz_scene)

# No stack-depth coverage: libFuzzer would count the deepest stack reached
# as a feature, and where the stack starts depends on the size of the
# environment, so a fixed-seed run would try other inputs in another shell.
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-sanitize-coverage=stack-depth"
common="-g -O1 -fno-omit-frame-pointer $sanitize"
# The fuzz targets' tree (this one) and the library's (FUZZ_SOURCE or this).
tree=$(dirname "$here")
lib_tree=$root/
if [ "$root" = "$tree" ]; then
    lib_tree=
fi
inc=${lib_tree}include
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
# The protocol layer's other sources: those tools/sweep/CMakeLists.txt
# lists for its library sweep_request (and tools/meshio when it links
# sweep_meshio), so that the fuzz target follows the tool's files.
query_extra=()
request_list=$(sed -n 's/^add_library(sweep_request STATIC \(.*\))$/\1/p' "$root/tools/sweep/CMakeLists.txt" 2>/dev/null)
for extra_src in $request_list; do
    if [ "$extra_src" != query.c ] && [ "$extra_src" != request.c ] && [ -f "$root/tools/sweep/$extra_src" ]; then
        query_extra+=("${lib_tree}tools/sweep/$extra_src")
    fi
done
if grep -q 'target_link_libraries(sweep_request.*sweep_meshio' "$root/tools/sweep/CMakeLists.txt" 2>/dev/null; then
    for extra_src in "$root"/tools/meshio/*.c; do
        query_extra+=("${lib_tree}tools/meshio/$(basename "$extra_src")")
    done
    query_extra+=(-I"${lib_tree}tools/meshio")
fi
if [ ! -f "${query_sources[0]}" ] || [ ! -f "${query_sources[1]}" ]; then
    echo "fuzz/build.sh: tools/sweep/query.c or request.c missing: skipping fuzz_query" >&2
elif ! pkg-config --exists jansson; then
    echo "fuzz/build.sh: jansson not found (apt-get install libjansson-dev): skipping fuzz_query" >&2
else
    targets+=(fuzz_query)
fi

for precision in "${precisions[@]}"; do
    case $precision in
    float) defs="" ;;
    double) defs="-DSWEEP_DOUBLE" ;;
    *)
        echo "fuzz/build.sh: unknown precision '$precision' (float or double)" >&2
        exit 2
        ;;
    esac
    dir=$out/$precision
    mkdir -p "$dir"
    # The library as CMake builds it (sweep_configure_library): C11, its
    # warnings, no errno from sqrt, SWEEP_BUILDING; every .c under src/ is
    # one of its sources.
    mkdir -p "$dir/lib"
    rm -f "$dir/lib/"*.o "$dir/lib/libsweep.a"
    lib=$dir/lib/libsweep.a
    objects=()
    for src in $(cd "$root" && find src -name "*.c" | LC_ALL=C sort); do
        obj=$dir/lib/$(echo "${src%.c}" | tr / _).o
        # shellcheck disable=SC2086
        (cd "$root" && "$cc" $common -fsanitize=fuzzer-no-link -fdebug-prefix-map="$root"=. $warn -fno-math-errno \
            $defs -DSWEEP_BUILDING -DSWEEP_ASSERTS -Iinclude -Isrc -c "$src" -o "$obj") ||
            exit 1
        objects+=("$obj")
    done
    ar rcs "$lib" "${objects[@]}"

    # The library calls the assert handler on invalid input (SWEEP_ASSERTS),
    # which the checks rely on: FZ_LIBRARY_ASSERTS=1.
    cflags="$common -fdebug-prefix-map=$tree=. $warn $defs -DFZ_LIBRARY_ASSERTS=1 -I$inc -Ifuzz"
    if [ "${FUZZ_STRICT:-0}" = 1 ]; then
        cflags="$cflags -DFZ_STRICT"
    fi
    # shellcheck disable=SC2086
    (
        cd "$tree"
        "$cc" $cflags -fsanitize=fuzzer-no-link -c fuzz/fuzz.c -o "$dir/fuzz.o"
        "$cc" $cflags -fsanitize=fuzzer-no-link -c fuzz/oracle.c -o "$dir/oracle.o"
        for target in "${targets[@]}"; do
            extra=()
            libs=()
            if [ "$target" = fuzz_query ]; then
                read -r -a jansson_cflags <<<"$(pkg-config --cflags jansson)"
                read -r -a libs <<<"$(pkg-config --libs jansson)"
                extra=("${lib_tree}tools/sweep/query.c" "${lib_tree}tools/sweep/request.c" "${query_extra[@]}"
                    -I"${lib_tree}tools/sweep"
                    "${jansson_cflags[@]}")
            fi
            "$cc" $cflags -fsanitize=fuzzer "fuzz/$target.c" "${extra[@]}" "$dir/fuzz.o" "$dir/oracle.o" "$lib" \
                "${libs[@]}" -lm -o "$dir/$target"
        done
    )
    echo "fuzz/build.sh: built ${targets[*]} ($precision) in $dir"
done
