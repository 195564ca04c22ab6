#!/usr/bin/env python3
"""PyTorch's C++ API tests compiled unchanged against an installed Ember (issue: LibTorch
compatibility). Called by scripts/peer-tests.sh, which fetches the sources and installs Ember.

    peer_tests.py <pytorch-source-dir> <ember-prefix> <work-dir> [file.cpp ...]

Each test file is compiled on its own with the tests' shared support.cpp and main.cpp. A
TEST whose body does not compile is dropped (its lines blanked, so line numbers stay) and
counted as "not compiled"; the file is compiled again until it builds. An error outside every
TEST body (shared code of the file, or support.cpp) loses the whole file. The binaries run
with CUDA tests filtered out, as PyTorch's main.cpp does on a machine without CUDA.
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys

# Files set aside, with the reason (docs/compat.md repeats this list).
EXCLUDED = {
    "jit.cpp": "TorchScript (torch::jit), which Ember deliberately lacks",
    "tensor_cuda.cpp": "CUDA only",
    "tensor_options_cuda.cpp": "CUDA only",
    "meta_tensor.cpp": "ATen's dispatcher-internal meta functions (ATen/MetaFunctions.h)",
    "memory.cpp": "LibTorch-internal torch/csrc/utils headers",
}
TEST_START = re.compile(r"^(TEST|TEST_F|TEST_P)\s*\(")


def strip_code(text):
    """The text with comments and string/char literals blanked (newlines kept), so that
    braces can be counted."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            k = text.find("(", i + 2)
            delim = text[i + 2:k]
            j = text.find(")" + delim + '"', k)
            j = n if j < 0 else j + len(delim) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # digit separator 1'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def test_blocks(text):
    """[(name, first_line, last_line)] of the TEST bodies, 1-based and inclusive."""
    code = strip_code(text)
    lines = code.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def line_of(pos):
        lo, hi = 0, len(offsets) - 1
        while lo < hi - 1:
            mid = (lo + hi) // 2
            if offsets[mid] <= pos:
                lo = mid
            else:
                hi = mid
        return lo + 1

    blocks = []
    for idx, line in enumerate(lines):
        if not TEST_START.match(line):
            continue
        start = offsets[idx]
        paren = code.index("(", start)
        depth, j = 0, paren
        while True:
            depth += {"(": 1, ")": -1}.get(code[j], 0)
            if depth == 0:
                break
            j += 1
        args = re.sub(r"\s+", "", code[paren + 1:j]).split(",")
        name = ".".join(args[:2])
        brace = code.index("{", j)
        depth, k = 0, brace
        while True:
            depth += {"{": 1, "}": -1}.get(code[k], 0)
            if depth == 0:
                break
            k += 1
        blocks.append((name, idx + 1, line_of(k)))
    return blocks


# A LibTorch install on the machine (Debian's libtorch-dev) must not stand in for a header
# Ember does not ship: -H lists every header used, and one from there loses the file.
FOREIGN = re.compile(r"^\.+ (/usr/(?:local/)?include/(?:ATen|c10|torch|caffe2)/\S+)", re.M)


def compile_obj(flags, src, obj, log):
    r = subprocess.run(["g++", "-std=c++20", "-w", "-H", "-c", src, "-o", obj] + flags,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    foreign = FOREIGN.search(r.stdout)
    out = "\n".join(l for l in r.stdout.split("\n") if not re.match(r"^\.+ ", l) and
                    not l.startswith("Multiple include guards"))
    if foreign:
        out = f"{src}:1:1: error: uses LibTorch's own header {foreign.group(1)}, which Ember does not ship\n" + out
    with open(log, "w") as f:
        f.write(out)
    return r.returncode == 0 and not foreign, out


def error_groups(output, path):
    """For each error, the lines of `path` it points at: the error's own position or, for an
    error in a header, the instantiation sites GCC prints above it ("required from")."""
    mine = re.compile(r"(?:^|/)" + re.escape(os.path.basename(path)) + r":(\d+):\d+:")
    groups, pending = [], set()
    for line in output.split("\n"):
        m = mine.search(line)
        if m and ("required from" in line or ": error" in line or "In instantiation" in line):
            pending.add(int(m.group(1)))
        if ": error" in line:
            # An error pointing nowhere in the file after another one is part of that one's notes
            # (GCC explains a failed candidate's substitution with an "error:" line).
            if pending or not groups:
                groups.append(pending)
            pending = set()
    return groups


def run_file(src_dir, flags, libs, work, common_objs, fname):
    api = os.path.join(src_dir, "test/cpp/api")
    path = os.path.join(api, fname)
    text = open(path).read()
    blocks = test_blocks(text)
    total = len(blocks)
    dropped = {}
    stem = os.path.splitext(fname)[0]
    cur = os.path.join(api, f".peer_{stem}.cpp")  # beside the original: its includes resolve alike
    obj = os.path.join(work, f"{stem}.o")
    lines = text.split("\n")
    for attempt in range(40):
        with open(cur, "w") as f:
            f.write("\n".join(lines))
        ok, out = compile_obj(flags, cur, obj, os.path.join(work, f"{stem}.compile{attempt}.log"))
        if ok:
            break
        hit, lost = {}, False
        for group in error_groups(out, cur):
            inside = [b for b in blocks if any(b[1] <= l <= b[2] for l in group)]
            lost |= not inside
            hit.update((b[0], b) for b in inside)
        if lost or not hit:
            os.remove(cur)
            first = next((l for l in out.split("\n") if "error" in l), "")
            return dict(file=fname, tests=total, compiled=0, passed=0, failed=0, skipped=0,
                        lost=True, reason=first.replace(src_dir + "/", "")[:300], failures=[])
        for b in hit.values():
            dropped[b[0]] = b
            for i in range(b[1] - 1, b[2]):
                lines[i] = ""
    else:
        os.remove(cur)
        return dict(file=fname, tests=total, compiled=0, passed=0, failed=0, skipped=0, lost=True,
                    reason="no convergence", failures=[])
    os.remove(cur)
    exe = os.path.join(work, stem)
    r = subprocess.run(["g++", obj] + common_objs + ["-o", exe] + libs,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(os.path.join(work, f"{stem}.link.log"), "w") as f:
        f.write(r.stdout)
    if r.returncode != 0:
        # Undefined references inside a test body: drop those tests and link again.
        names = set(re.findall(r"in function `(\w+)_(\w+)_Test::TestBody", r.stdout))
        if not names:
            return dict(file=fname, tests=total, compiled=0, passed=0, failed=0, skipped=0, lost=True,
                        reason="link: " + next((l for l in r.stdout.split("\n") if "undefined" in l), "")[:300],
                        failures=[])
        return dict(file=fname, tests=total, compiled=0, passed=0, failed=0, skipped=0, lost=True,
                    reason=f"link: undefined references in {len(names)} tests", failures=[])
    compiled = total - len(dropped)
    ran = run_binary(exe, work, stem)
    ran["skipped"] = compiled - ran["passed"] - ran["failed"]  # filtered (CUDA) or disabled
    return dict(file=fname, tests=total, compiled=compiled, dropped=sorted(dropped), **ran)


def run_binary(exe, work, stem):
    out_json = os.path.join(work, f"{stem}.json")
    if os.path.exists(out_json):
        os.remove(out_json)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    subprocess.run(["timeout", "900", exe, f"--gtest_output=json:{out_json}"], cwd=work,
                   stdout=open(os.path.join(work, f"{stem}.run.log"), "w"), stderr=subprocess.STDOUT, env=env)
    results = {}
    if os.path.exists(out_json):
        for suite in json.load(open(out_json)).get("testsuites", []):
            for t in suite.get("testsuite", []):
                results[f"{suite['name']}.{t['name']}"] = t
    else:  # the binary died: run the tests one by one
        listing = subprocess.run([exe, "--gtest_list_tests"], stdout=subprocess.PIPE, text=True, env=env).stdout
        suite = None
        for line in listing.split("\n"):
            if not line.strip():
                continue
            if not line.startswith(" "):
                suite = line.strip().rstrip(".")
                continue
            name = f"{suite}.{line.split()[0]}"
            r = subprocess.run(["timeout", "300", exe, f"--gtest_filter={name}"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, cwd=work, env=env)
            ok = r.returncode == 0 and "[  PASSED  ] 1 test" in r.stdout
            skipped = "[  PASSED  ] 0 tests" in r.stdout or "[  SKIPPED ]" in r.stdout
            results[name] = {"status": "RUN", "result": "SKIPPED" if skipped else "COMPLETED",
                             **({} if ok or skipped else {"failures": [{"failure": r.stdout[-400:]}]})}
    passed = failed = skipped = 0
    failures = []
    # gtest's JSON leaves out tests its filter removed (main.cpp filters the CUDA ones): those
    # are the compiled tests not listed, counted as skipped by the caller.
    for name, t in results.items():
        if t.get("status") == "NOTRUN" or t.get("result") == "SKIPPED":
            skipped += 1
        elif t.get("failures"):
            failed += 1
            failures.append(name)
        else:
            passed += 1
    return dict(passed=passed, failed=failed, skipped=skipped, lost=False, failures=failures)


def main():
    src_dir, prefix, work = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(prefix, "lib/pkgconfig"))
    cflags = subprocess.check_output(["pkg-config", "--cflags", "ember"], env=env, text=True).split()
    libs = subprocess.check_output(["pkg-config", "--libs", "ember"], env=env, text=True).split()
    flags = [f"-I{prefix}/include/ember-compat", f"-I{src_dir}"] + cflags
    libs = libs + ["-lgtest", "-pthread", f"-Wl,-rpath,{prefix}/lib"]
    common = []
    for src in ("test/cpp/common/main.cpp", "test/cpp/api/support.cpp"):
        obj = os.path.join(work, os.path.basename(src).replace(".cpp", "_common.o"))
        ok, out = compile_obj(flags, os.path.join(src_dir, src), obj, obj + ".log")
        if not ok:
            sys.exit(f"{src} does not compile:\n{out[:3000]}")
        common.append(obj)
    api = os.path.join(src_dir, "test/cpp/api")
    # The files of PyTorch's test_api target: the set(TORCH_API_TEST_SOURCES ...) list (parallel.cpp,
    # appended only for CUDA builds, is not among them).
    cmake = open(os.path.join(api, "CMakeLists.txt")).read()
    block = re.search(r"set\(TORCH_API_TEST_SOURCES(.*?)\)", cmake, re.S).group(1)
    listed = re.findall(r"TORCH_API_TEST_DIR\}/([\w-]+\.cpp)", block)
    files = sys.argv[4:] or [f for f in listed if f != "support.cpp" and f not in EXCLUDED]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        rows = list(pool.map(lambda f: run_file(src_dir, flags, libs, work, common, f), files))
    json.dump(rows, open(os.path.join(work, "results.json"), "w"), indent=1)
    print("| file | tests | compile | pass | fail | skipped (CUDA, disabled) |")
    print("|---|---:|---:|---:|---:|---:|")
    tot = dict(tests=0, compiled=0, passed=0, failed=0, skipped=0)
    for r in sorted(rows, key=lambda r: r["file"]):
        for k in tot:
            tot[k] += r[k]
        note = f" (lost: {r['reason']})" if r["lost"] else ""
        print(f"| {r['file']}{note} | {r['tests']} | {r['compiled']} | {r['passed']} | {r['failed']} | {r['skipped']} |")
    print(f"| **total** | {tot['tests']} | {tot['compiled']} | {tot['passed']} | {tot['failed']} | {tot['skipped']} |")
    for r in rows:
        for name in r["failures"]:
            print(f"failed: {r['file']}: {name}")
        for name in r.get("dropped", []):
            print(f"not compiled: {r['file']}: {name}")
    for k in EXCLUDED:
        print(f"excluded: {k}: {EXCLUDED[k]}")


if __name__ == "__main__":
    main()
