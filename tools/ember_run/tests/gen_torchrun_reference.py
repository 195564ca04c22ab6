#!/usr/bin/python3
"""Records what Debian's torchrun (torch 1.13) does with the shell workers in
workers/, as the reference ember_run_tests compare ember-run against:
golden/torchrun_reference.txt. Run with Debian's /usr/bin/python3:

    /usr/bin/python3 tools/ember_run/tests/gen_torchrun_reference.py

Values that differ between runs (times, pids, host names, temporary paths,
free ports) are replaced by placeholders. Sections are "## <case> <stream>"
followed by the stream's lines; console lines of different ranks interleave
nondeterministically, so each section is sorted by rank prefix (stable).
"""
import os
import re
import socket
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
WORKERS = os.path.join(HERE, "workers")
OUT = os.path.join(HERE, "golden", "torchrun_reference.txt")

# torch 1.13's Std.from_str iterates an IntFlag, which Python 3.11 changed so
# that it finds no member for 0 or 3; this bootstrap restores the documented
# parsing and then runs torchrun's main unchanged.
BOOTSTRAP = r"""
import re, sys
from torch.distributed.elastic.multiprocessing import api
def from_str(vm):
    if re.match(api._VALUE_REGEX, vm):
        return api.Std(int(vm))
    if re.match(api._MAPPING_REGEX, vm):
        return {int(i): api.Std(int(v)) for i, v in (m.split(":") for m in vm.split(","))}
    raise ValueError(vm)
api.Std.from_str = staticmethod(from_str)
from torch.distributed import run
run.main(sys.argv[1:])
"""


def free_port():
    with socket.socket() as s:
        s.bind(("", 0))
        return s.getsockname()[1]


def torchrun(args, env=None, timeout=60):
    full_env = dict(os.environ)
    full_env.pop("OMP_NUM_THREADS", None)
    full_env.update(env or {})
    return subprocess.Popen([sys.executable, "-c", BOOTSTRAP] + args, env=full_env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finish(proc, timeout=60):
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def by_rank(lines):
    def key(line):
        m = re.match(r"\[[a-z]+(\d+)\]:", line)
        return int(m.group(1)) if m else -1
    return sorted(lines, key=key)


def worker_lines(text):
    # torchrun's own log lines start with a level name; workers' lines with "[".
    return [l for l in text.splitlines() if l.startswith("[") and not l.startswith("[W ")]


def summary_lines(err):
    lines = err.splitlines()
    start = next(i for i, l in enumerate(lines) if l.endswith(" FAILED"))
    block = lines[start - 1:start + 100]
    end = max(i for i, l in enumerate(block) if l and set(l) == {"="})
    out = []
    for l in block[:end + 1]:
        l = re.sub(r"(time      : ).*", r"\1<TIME>", l)
        l = re.sub(r"(host      : ).*", r"\1<HOST>", l)
        l = re.sub(r"\(pid: \d+\)", "(pid: <PID>)", l)
        l = re.sub(r"received by PID \d+", "received by PID <PID>", l)
        l = l.replace(WORKERS, "<WORKERS>")
        out.append(l)
    return out


def main():
    sections = []
    monitor = ["--monitor_interval", "0.2"]

    port = str(free_port())
    rc, out, _ = finish(torchrun(["--nproc_per_node", "2", "--no_python", "--tee", "3", "--master_port", port] +
                                 monitor + [os.path.join(WORKERS, "print_env.sh"), "a${local_rank}", "$$x"]))
    assert rc == 0
    env_lines = [l.replace("MASTER_PORT=" + port, "MASTER_PORT=<PORT>") for l in by_rank(worker_lines(out))]
    sections.append(("env_single_node stdout", env_lines))

    port = free_port()
    procs = [torchrun(["--nnodes", "2", "--node_rank", str(r), "--nproc_per_node", str(2 - r), "--no_python", "--tee",
                       "1", "--master_addr", "127.0.0.1", "--master_port", str(port)] + monitor +
                      [os.path.join(WORKERS, "print_env.sh")]) for r in (0, 1)]
    for r, p in enumerate(procs):
        rc, out, _ = finish(p)
        assert rc == 0
        lines = [l.replace("MASTER_PORT=%d" % port, "MASTER_PORT=<PORT>") for l in by_rank(worker_lines(out))]
        sections.append(("env_node%d stdout" % r, lines))

    with tempfile.TemporaryDirectory() as logs:
        rc, out, err = finish(torchrun(["--nproc_per_node", "2", "--no_python", "--tee", "3", "--log_dir", logs,
                                        "--master_port", str(free_port())] + monitor +
                                       [os.path.join(WORKERS, "print_streams.sh")]))
        assert rc == 0
        # The unterminated last line has no newline, so torchrun glues the next
        # rank's header onto it; only complete lines are compared.
        complete = [part for line in out.splitlines() for part in re.split(r"tail \d+", line)]
        sections.append(("tee stdout", by_rank([l for l in worker_lines("\n".join(complete)) if not re.fullmatch(r"\[\w+\]:", l)])))
        sections.append(("tee stderr", by_rank(worker_lines(err))))
        run_dir = os.path.join(logs, os.listdir(logs)[0])
        for rank in (0, 1):
            for stream in ("stdout", "stderr"):
                with open(os.path.join(run_dir, "attempt_0", str(rank), stream + ".log")) as f:
                    text = f.read()
                sections.append(("tee_file attempt_0/%d/%s.log" % (rank, stream), text.split("\n")))

    with tempfile.TemporaryDirectory() as tmp:
        env = {"FAIL_RANK": "1", "FAIL_CODE": "7", "WORKER_OUT": tmp}
        rc, out, err = finish(torchrun(["--nproc_per_node", "3", "--no_python", "--master_port", str(free_port())] +
                                       monitor + [os.path.join(WORKERS, "fail_one_rank.sh")], env))
        assert rc != 0
        sections.append(("failure_exitcode summary", summary_lines(err)))
        sections.append(("failure_exitcode terminated", sorted(os.listdir(tmp))))

    with tempfile.TemporaryDirectory() as tmp:
        env = {"FAIL_RANK": "0", "FAIL_CODE": "0", "FAIL_SIGNAL": "KILL", "WORKER_OUT": tmp}
        rc, out, err = finish(torchrun(["--nproc_per_node", "2", "--no_python", "--master_port", str(free_port())] +
                                       monitor + [os.path.join(WORKERS, "fail_one_rank.sh")], env))
        assert rc != 0
        sections.append(("failure_signal summary", summary_lines(err)))

    rc, out, err = finish(torchrun(["--nproc_per_node", "2", "--no_python", "--tee", "1", "--max_restarts", "2",
                                    "--master_port", str(free_port())] + monitor +
                                   [os.path.join(WORKERS, "always_fail.sh")]))
    assert rc != 0
    sections.append(("restarts stdout", by_rank(worker_lines(out))))

    with open(OUT, "w") as f:
        f.write("# Generated by gen_torchrun_reference.py from Debian's torchrun (torch 1.13); do not edit.\n")
        for name, lines in sections:
            f.write("## %s\n" % name)
            for l in lines:
                f.write(l + "\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
