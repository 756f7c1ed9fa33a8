// One `file:line:col: error:` prefix everywhere; --json errors as JSON; located UTF-8 errors;
// validated chip names; repeated flags refused; --init shape errors name the --param values
// that fit; no colour codes where no terminal reads them.
//
// Input that is not UTF-8 is located at the first bad byte, in both tools:
// RUN: printf 'func.func private @f()\n// caf\351\n' > %t.latin1.mlir
// RUN: not stencil-opt %t.latin1.mlir 2>&1 | FileCheck %s --check-prefix=UTF8
// RUN: not stencil-run %t.latin1.mlir 2>&1 | FileCheck %s --check-prefix=UTF8
// UTF8: latin1.mlir:2:7: error: byte 0xe9 is not valid UTF-8; the input must be UTF-8 text
//
// A runtime error about an op has its location once, not `error: f:l:c: error:`:
// RUN: not stencil-run %S/Inputs/frees-field.mlir 2>&1 | FileCheck %s --check-prefix=ONCE
// ONCE: {{^}}{{.*}}frees-field.mlir:9:3: error: 'memref.dealloc' frees a field argument
// ONCE-NOT: error: {{.*}}error:
//
// --json: every error is one JSON object on stdout, with the message and location apart:
// RUN: not stencil-run %S/Inputs/frees-field.mlir --json 2>/dev/null | FileCheck %s --check-prefix=JSON
// JSON: {"error":{"location":{"column":3,"file":"{{.*}}frees-field.mlir","line":9},"message":"'memref.dealloc' frees a field argument
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --json --param N=x 2>/dev/null | FileCheck %s --check-prefix=JSON-FLAG
// JSON-FLAG: {"error":{"location":null,"message":"--param N: 'x' is not an integer","notes":[],"text":"stencil-run: error: --param N: 'x' is not an integer"}}
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --json --no-such-flag 2>/dev/null | FileCheck %s --check-prefix=JSON-CLAP
// JSON-CLAP: {"error":{"location":null,"message":"unexpected argument '--no-such-flag' found"
// RUN: not stencil-run %s --json 2>/dev/null | FileCheck %s --check-prefix=JSON-PARSE
// JSON-PARSE: {"error":{"location":{"column":1,"file":"{{.*}}error-format.mlir","line":[[@LINE+1]]},"message":"custom op 'not' is unknown"
not a program
//
// Chip names are checked against the chips LLVM 22 knows:
// RUN: not stencil-opt %s --gpu-chip=sm_99999 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=4 --gpu-chip=sm_99999 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: --gpu-chip: GPU chip 'sm_99999' is not one LLVM 22's NVPTX back end knows; known chips: sm_20,
//
// Repeated --param, --scalar and --init are refused, not silently the last one:
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=4 --param N=5 2>&1 | FileCheck %s --check-prefix=PARAM2
// PARAM2: stencil-run: error: --param N is given twice (4, then 5): give each parameter once
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=4 --init A=zeros --init A=const:1 2>&1 | FileCheck %s --check-prefix=INIT2
// INIT2: stencil-run: error: --init gives field A twice ('zeros', then 'const:1'): give each field one --init
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=4 --init zeros --init random 2>&1 | FileCheck %s --check-prefix=INIT2-DEFAULT
// INIT2-DEFAULT: stencil-run: error: --init gives the default for all fields twice ('zeros', then 'random')
//
// An --init file of another shape: the error names the --param values that give that shape.
// RUN: rm -rf %t.out && stencil-run %S/Inputs/no-defaults.mlir --param N=6 --out %t.out > /dev/null
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=9 --init A=%t.out/A.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: error: field 'A (from {{.*}}A.npy)' has shape [6], but the program expects [9] for these parameters; --param N=6 gives the program that shape
//
// Logs into a pipe or file carry no colour codes:
// RUN: stencil-opt %S/Inputs/no-defaults.mlir --log=stencil_ir=debug -p 'builtin.module(cse)' -o /dev/null 2> %t.log
// RUN: FileCheck %s --check-prefix=LOG < %t.log
// RUN: not grep -q "$(printf '\033')" %t.log
// LOG: pass finished
