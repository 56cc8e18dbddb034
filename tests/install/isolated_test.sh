#!/bin/sh
# isolated_test.sh: every CMake file that adds tests ends them with mr_isolate_tests(), so no test reads the
# machine's /etc/mazerace/server.conf or a user's settings, history or records (CMakeLists.txt says how).
# Usage: isolated_test.sh SOURCE_DIR
cd "$1" || exit 1
fails=0
for f in $(find . -path ./build -prune -o -path './build-*' -prune -o \( -name CMakeLists.txt -o -name '*.cmake' \) -print); do
  # add_test inside a function() definition (mr_add_case_tests) is checked where the function is called.
  if awk '/^ *function *\(/ { inf = 1 } /^ *endfunction *\(/ { inf = 0; next } !inf && /add_test *\(/ { found = 1 }
          END { exit !found }' "$f" && ! grep -q '^ *mr_isolate_tests()' "$f"; then
    echo "FAIL: $f adds tests without calling mr_isolate_tests() after them"
    fails=$((fails + 1))
  fi
done
echo "$fails CMake files add tests without mr_isolate_tests()"
[ "$fails" = 0 ]
