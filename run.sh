#!/usr/bin/env bash
# The two quick-start commands, and the sanitizer run CI adds to them.
#
#   ./run.sh            build, then run the main job (tables up to 4 pieces, every variant)
#   ./run.sh test       build, then run the test suite
#   ./run.sh sanitize   build with AddressSanitizer + UndefinedBehaviorSanitizer, run the tests
#
# Missing Debian packages are installed first (as root, or through sudo).
set -euo pipefail
cd "$(dirname "$0")"

packages=(cmake make gcc libc6-dev libzstd-dev libcmocka-dev pkg-config)

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

# build DIR [CMAKE OPTIONS...]
build() {
  local dir=$1
  shift
  mkdir -p "$dir"
  if ! { cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" &&
         cmake --build "$dir" -j "$(nproc)"; } >"$dir/build.log" 2>&1; then
    cat "$dir/build.log" >&2
    echo "Build failed (log: $dir/build.log)" >&2
    exit 1
  fi
}

main_job() {
  echo "Every table of up to 4 pieces, for each variant, into tables/ (see 'damero gen --help')."
  echo "Tables already there and intact are kept; each line ends with the longest win of"
  echo "three kings against one king, White to move, in plies (DTM), and an example."
  echo
  for v in international brazilian russian pool spanish czech italian english poddavki ganapierde; do
    summary=$(build/damero gen --variant "$v" --pieces 4 --dir tables)
    longest=$(build/damero info "tables/$v/KKKvK.dtm" | grep -m1 'longest win' | sed 's/^ *longest win: //')
    printf '%-14s %s; KKKvK: %s\n' "$v" "$(echo "$summary" | sed -n 2p | sed 's/ solved//')" "${longest:-no win}"
  done
}

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
  *)
    echo "usage: ./run.sh [main|test|sanitize]" >&2
    exit 2 ;;
esac
