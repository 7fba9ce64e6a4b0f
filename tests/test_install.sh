#!/usr/bin/env bash
# libdamero as an engine gets it: `cmake --install` into a fresh prefix, then two small
# programs (tests/data/install_example.c, and clash_example.c, which defines functions
# named as the library's internal ones) built with `pkg-config damero` against the shared
# library and against the static one, and run; then install_example.c again from a CMake
# project that finds the library with find_package(damero) (tests/data/cmake_consumer). Also checks what is installed, that both
# libraries show the functions of damero.h and nothing else, and need no OpenMP.
#
# Usage: test_install.sh BUILD_DIR SOURCE_DIR [CC [EXTRA_FLAGS]]
#   EXTRA_FLAGS: added to the example's compile and link (the sanitizer flags when the
#   library was built with them). Exits 77 (skipped) without pkg-config or a C compiler.
#   $CMAKE: the cmake to install with (ctest passes the one that configured the build).
set -u
export LC_ALL=C
build=$1 src=$2 cc=${3:-cc} extra=${4:-} cmake=${CMAKE:-cmake}
. "$(dirname "$0")/cli_harness.sh"

for tool in pkg-config "$cc" nm readelf; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool not found"
    exit 77
  fi
done
make_tmp install

prefix=$tmp/prefix
if ! check_quiet "cmake --install $build --prefix $prefix" "$cmake" --install "$build" --prefix "$prefix"; then
  summary
  exit 1
fi

# What is installed: the one header, the libraries, the .pc file, the command, the licence.
pc=$(find "$prefix" -name damero.pc -path '*/pkgconfig/*')
checks=$((checks + 1))
if [ -z "$pc" ]; then
  fail "no damero.pc under $prefix:"
  (cd "$prefix" && find . -type f | sed 's/^/    /')
  summary
  exit 1
fi
libdir=$(dirname "$(dirname "$pc")")
headers=$(cd "$prefix/include" 2>/dev/null && find . -type f | sort | tr '\n' ' ')
checks=$((checks + 1))
[ "$headers" = "./damero.h " ] || fail "headers installed: '$headers', want only ./damero.h"
# The soname the header's version calls for (damero.h): libdamero.so.0.MINOR while the
# major version is 0, where a new minor may break programs; libdamero.so.MAJOR from 1.0.
major=$(sed -n 's/^#define DAMERO_VERSION_MAJOR \([0-9]*\)$/\1/p' "$src/probe/damero.h")
minor=$(sed -n 's/^#define DAMERO_VERSION_MINOR \([0-9]*\)$/\1/p' "$src/probe/damero.h")
if [ "$major" = 0 ]; then want_soname=libdamero.so.0.$minor; else want_soname=libdamero.so.$major; fi
for f in libdamero.a libdamero.so "$want_soname"; do
  checks=$((checks + 1))
  [ -e "$libdir/$f" ] || fail "$libdir/$f not installed"
done
check_quiet "bin/damero --help" "$prefix/bin/damero" --help
checks=$((checks + 1))
cmp -s "$src/LICENSE" "$prefix/share/doc/damero/LICENSE" || fail "share/doc/damero/LICENSE not installed"
checks=$((checks + 1))
grep -qx 'License: MIT' "$pc" || fail "damero.pc has no 'License: MIT'"
checks=$((checks + 1))
soname=$(readelf -d "$libdir/libdamero.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "$want_soname" ] || fail "SONAME '$soname', want $want_soname"

# libdamero needs neither OpenMP nor the generator: the library starts no thread of its own.
checks=$((checks + 1))
if readelf -d "$libdir/libdamero.so" | grep -q 'NEEDED.*gomp'; then
  fail "libdamero.so loads OpenMP"
fi
checks=$((checks + 1))
if nm "$libdir/libdamero.a" | grep -qiE ' U (GOMP|omp)_'; then
  fail "libdamero.a calls OpenMP"
fi
# The static library's global names are the damero_* functions only, as the shared one's.
checks=$((checks + 1))
static_globals=$(nm -g --defined-only "$libdir/libdamero.a" | awk 'NF == 3 { print $3 }' | sort)
if [ "$static_globals" != "$(nm -D --defined-only "$libdir/libdamero.so" | awk '{ print $NF }' | sort)" ]; then
  fail "libdamero.a has other global names than libdamero.so exports:"
  echo "$static_globals" | grep -v '^damero_' | sed 's/^/    /'
fi

# The shared library exports exactly the functions damero.h declares.
declared=$(grep -oE '^[a-z].*[ *]damero_[a-z_]+\(' "$src/probe/damero.h" |
           grep -oE 'damero_[a-z_]+\($' | tr -d '(' | sort)
exported=$(nm -D --defined-only "$libdir/libdamero.so" | awk '{ print $NF }' | sort)
checks=$((checks + 1))
if [ "$declared" != "$exported" ] || [ -z "$declared" ]; then
  fail "libdamero.so exports other symbols than damero.h declares:"
  diff <(echo "$declared") <(echo "$exported") | grep '^[<>]' |
    sed 's/^</    declared, not exported:/; s/^>/    exported, not declared:/'
fi

export PKG_CONFIG_PATH=$libdir/pkgconfig
checks=$((checks + 1))
version=$(pkg-config --modversion damero)
command_version=$("$prefix/bin/damero" --version)
if [ -z "$version" ] || [ "$command_version" != "damero $version" ]; then
  fail "pkg-config --modversion damero says '$version', damero --version '$command_version'"
fi

mkdir -p "$tmp/tables/russian"
# pkg-config's output and EXTRA_FLAGS are split into words on purpose, as make would.
cflags=(-std=c17 -Wall -Wextra -Werror -pedantic $extra)
# The static library: -ldamero taken from libdamero.a, with the libraries it needs from
# `pkg-config --static`.
static_libs=()
for word in $(pkg-config --static --libs damero); do
  if [ "$word" = -ldamero ]; then
    static_libs+=(-Wl,-Bstatic -ldamero -Wl,-Bdynamic)
  else
    static_libs+=("$word")
  fi
done

# The first use of the library (install_example.c), and an engine defining functions of
# the names libdamero uses inside (clash_example.c): each against both libraries.
for program in install_example clash_example; do
  example=$src/tests/data/$program.c

  # Against the shared library: found through LD_LIBRARY_PATH, as with any library
  # installed outside the system's directories.
  if check_quiet "compiling $program against libdamero.so" \
       "$cc" "${cflags[@]}" -o "$tmp/${program}_shared" "$example" $(pkg-config --cflags --libs damero); then
    checks=$((checks + 1))
    readelf -d "$tmp/${program}_shared" | grep NEEDED | grep -qF "[$want_soname]" ||
      fail "${program}_shared does not load $want_soname"
    check_quiet "running ${program}_shared" env LD_LIBRARY_PATH="$libdir" "$tmp/${program}_shared" "$tmp/tables"
  fi

  # Against the static library: runs without LD_LIBRARY_PATH.
  if check_quiet "compiling $program against libdamero.a" \
       "$cc" "${cflags[@]}" -o "$tmp/${program}_static" "$example" $(pkg-config --cflags damero) "${static_libs[@]}"; then
    checks=$((checks + 1))
    ! readelf -d "$tmp/${program}_static" | grep -q 'NEEDED.*libdamero' ||
      fail "${program}_static loads libdamero.so"
    check_quiet "running ${program}_static" env -u LD_LIBRARY_PATH "$tmp/${program}_static" "$tmp/tables"
  fi
done

# The CMake package: a consumer project (tests/data/cmake_consumer) found libdamero with
# find_package against the prefix and linked damero::damero and damero::damero_static.
# CMake gives the program built against the shared library a build-tree RPATH naming the
# prefix's lib/, so it runs without LD_LIBRARY_PATH.
consumer=$tmp/consumer
if check_quiet "configuring a find_package(damero) project against $prefix" \
     "$cmake" -S "$src/tests/data/cmake_consumer" -B "$consumer" -DCMAKE_PREFIX_PATH="$prefix" \
     -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$extra" -DCMAKE_EXE_LINKER_FLAGS="$extra" \
     -DDAMERO_WANT="$version" &&
   check_quiet "building the find_package(damero) project" "$cmake" --build "$consumer"; then
  checks=$((checks + 1))
  readelf -d "$consumer/example_shared" | grep -qE "R(UN)?PATH.*$libdir" ||
    fail "example_shared (find_package) has no RPATH to $libdir"
  check_quiet "running example_shared (find_package), no LD_LIBRARY_PATH" \
    env -u LD_LIBRARY_PATH "$consumer/example_shared" "$tmp/tables"
  checks=$((checks + 1))
  ! readelf -d "$consumer/example_static" | grep -q 'NEEDED.*libdamero' ||
    fail "example_static (find_package) loads libdamero.so"
  check_quiet "running example_static (find_package)" "$consumer/example_static" "$tmp/tables"
fi
# A newer major version than the one installed is refused, by damero-config-version.cmake,
# and while the major version is 0 an older minor one too (0.x minors may break programs).
refused=$(( major + 1 )).0
[ "$major" = 0 ] && [ "$minor" -gt 0 ] && refused="$refused 0.$(( minor - 1 ))"
for want in $refused; do
  checks=$((checks + 1))
  if out=$("$cmake" -S "$src/tests/data/cmake_consumer" -B "$tmp/consumer_$want" \
             -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" -DDAMERO_WANT="$want" 2>&1); then
    fail "find_package(damero $want) accepted version $version"
  elif ! echo "$out" | grep -q "$version"; then
    fail "find_package(damero $want) failed without naming the version installed:"
    echo "$out" | sed 's/^/    /'
  fi
done

summary
