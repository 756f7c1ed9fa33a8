// The GPU bundle's two scripts check their arguments before doing anything (tools/gpu-bundle
// builds for minutes; run.py runs on a lent GPU whose minutes are counted): a misspelt option,
// a bad value or an output folder that is not a bundle is an error, not a full run or a
// deleted folder. (No IR here: the scripts are the subject.)
//
// RUN: not python3 %S/../../../tools/gpu-bundle --onyl jacobi-2d-5pt 2>&1 | FileCheck %s --check-prefix=BUNDLE-UNKNOWN
// BUNDLE-UNKNOWN: gpu-bundle: unknown argument '--onyl'
// RUN: not python3 %S/../../../tools/gpu-bundle --only jacobi-2d-5pt,nosuch 2>&1 | FileCheck %s --check-prefix=BUNDLE-ONLY
// BUNDLE-ONLY: gpu-bundle: --only names no example: nosuch
// RUN: rm -rf %t && mkdir -p %t/keep && touch %t/keep/file
// RUN: not python3 %S/../../../tools/gpu-bundle --out %t/keep 2>&1 | FileCheck %s --check-prefix=BUNDLE-OUT
// BUNDLE-OUT: gpu-bundle: --out {{.*}}keep is a folder that holds something other than a bundle (no manifest.json)
// RUN: test -f %t/keep/file
// RUN: python3 %S/../../../tools/gpu-bundle --help | FileCheck %s --check-prefix=BUNDLE-HELP
// BUNDLE-HELP: Usage: tools/gpu-bundle
//
// RUN: not python3 %S/../../../bench/bundle_run.py %t/results --bogus 2>&1 | FileCheck %s --check-prefix=RUN-UNKNOWN
// RUN-UNKNOWN: run.py: unknown option '--bogus'
// RUN: not python3 %S/../../../bench/bundle_run.py %t/results --budget=abc 2>&1 | FileCheck %s --check-prefix=RUN-BUDGET
// RUN-BUDGET: run.py: --budget 'abc': not a valid seconds
// RUN: not python3 %S/../../../bench/bundle_run.py %t/results --bench '(' 2>&1 | FileCheck %s --check-prefix=RUN-REGEX
// RUN-REGEX: run.py: --bench '(': not a valid regex
// RUN: not python3 %S/../../../bench/bundle_run.py %t/results --jobs 0 --jobs 2 2>&1 | FileCheck %s --check-prefix=RUN-JOBS
// RUN-JOBS: run.py: --jobs '0': not a valid count (below 1)
// RUN: not python3 %S/../../../bench/bundle_run.py 2>&1 | FileCheck %s --check-prefix=RUN-NODIR
// RUN-NODIR: run.py: give one RESULTS_DIR
// RUN: test ! -e %t/results
