#!/bin/sh
# isolated_test.sh: every CMake file that adds tests ends them with mr_isolate_tests(), so no test reads the
# machine's /etc/mazerace/server.conf or a user's settings, history or records (CMakeLists.txt says how).
# Usage: isolated_test.sh SOURCE_DIR
cd "$1" || exit 1
fails=0
for f in $(find . -path ./build -prune -o -path './build-*' -prune -o \( -name CMakeLists.txt -o -name '*.cmake' \) -print); do
  if grep -q 'add_test *(' "$f" && ! grep -q '^ *mr_isolate_tests()' "$f"; then
    echo "FAIL: $f adds tests without calling mr_isolate_tests() after them"
    fails=$((fails + 1))
  fi
done
echo "$fails CMake files add tests without mr_isolate_tests()"
[ "$fails" = 0 ]
