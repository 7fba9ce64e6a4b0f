#!/usr/bin/env bash
# The two quick-start commands, and the sanitizer runs CI adds to them.
#
#   ./run.sh            build, then run the main job (damero verify: every variant's
#                       move-limit rules against tables up to 4 pieces)
#   ./run.sh test       build, then run the test suite
#   ./run.sh sanitize   build with AddressSanitizer + UndefinedBehaviorSanitizer, run the tests
#   ./run.sh tsan       build with ThreadSanitizer, run the threaded probing test
#   ./run.sh clang      build with clang, warnings as errors, run the test suite
#   ./run.sh mpi        build damero-mpi (OpenMPI, installed when missing) and run its tests:
#                       1, 2 and 3 processes against damero gen, a killed one, a resume
#   ./run.sh fuzz [S]   build the libFuzzer targets (clang, ASan + UBSan) and run each for
#                       S seconds (default 60) from the seed corpora in fuzz/corpus/
#
# Missing Debian packages are installed first (as root, or through sudo).
set -euo pipefail
cd "$(dirname "$0")"

packages=(cmake make gcc libc6-dev libzstd-dev libcmocka-dev pkg-config binutils libjansson-dev
          libmicrohttpd-dev python3 python3-selenium chromium chromium-driver
          python3-venv python3-setuptools python3-wheel
          clang libclang-rt-dev libomp-dev) # clang, libFuzzer, clang's OpenMP: clang, fuzz

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  echo "Installing missing packages: ${missing[*]}" >&2
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
}

# build DIR [CMAKE OPTIONS...]: every target, or those in the array build_targets
build_targets=()
build() {
  local dir=$1
  shift
  mkdir -p "$dir"
  if ! { cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" &&
         cmake --build "$dir" -j "$(nproc)" ${build_targets[@]+--target "${build_targets[@]}"}; } \
       >"$dir/build.log" 2>&1; then
    cat "$dir/build.log" >&2
    echo "Build failed (log: $dir/build.log)" >&2
    exit 1
  fi
}

main_job() {
  echo "Every variant's move-limit draw rules against its tables of up to 4 pieces (built into"
  echo "tables/ when missing; see 'damero verify --help')."
  build/damero verify --dir tables
}

# ctest runs tests side by side, each with its own OpenMP threads: threads that spin at
# barriers (the default) would take the cores from each other.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

# OpenMPI only for the MPI build: the default build needs no MPI.
[ "${1:-main}" = mpi ] && packages+=(openmpi-bin libopenmpi-dev)
install_missing
case "${1:-main}" in
  main)
    build build
    main_job ;;
  test)
    build build
    ctest --test-dir build --output-on-failure -j "$(nproc)" -LE slow ;;
  sanitize)
    build build-sanitize -DDAMERO_SANITIZE=ON -DDAMERO_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
    ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)" -LE slow ;;
  tsan)
    # Only the probing threads: the rest is OpenMP, which TSan cannot follow (libgomp is
    # not instrumented); tests/CMakeLists.txt runs the test's table building on one thread.
    build build-tsan -DDAMERO_TSAN=ON -DDAMERO_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
    ctest --test-dir build-tsan --output-on-failure -R '^probe_threads$' ;;
  clang)
    # The second compiler: clang warns where gcc does not, and the library is meant to
    # build with either.
    build build-clang -DDAMERO_WERROR=ON -DCMAKE_C_COMPILER=clang
    ctest --test-dir build-clang --output-on-failure -j "$(nproc)" -LE slow ;;
  mpi)
    build_targets=(damero_cli damero_mpi kill_at_level test_plan)
    build build-mpi -DDAMERO_MPI=ON
    ctest --test-dir build-mpi --output-on-failure -L mpi -LE slow ;;
  fuzz)
    # only the fuzz targets: the shared library cannot link against clang's static ASan
    build_targets=(fuzz_fen fuzz_table fuzz_cli fuzz_pdn)
    build build-fuzz -DDAMERO_FUZZ=ON -DDAMERO_TESTS=OFF -DDAMERO_WERROR=ON \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang
    fuzz/run_fuzzers.sh build-fuzz "${2:-60}" ;;
  *)
    echo "usage: ./run.sh [main|test|sanitize|tsan|clang|mpi|fuzz [SECONDS]]" >&2
    exit 2 ;;
esac
